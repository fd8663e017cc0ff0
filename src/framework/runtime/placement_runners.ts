// The placement points of a pod group's cycle under TopologyAwareWorkloadScheduling
// (runtime/framework.go RunPlacementGeneratePlugins and RunPlacementScorePlugins).
import type { SchedulingGroup } from '../../api/scheduling.js';
import type { CycleState } from '../cycle_state.js';
import * as fw from '../interfaces.js';
import type { NodeInfo } from '../node_info.js';
import { Code, Status, isSuccess } from '../status.js';
import { generatePlacementsCall, normalizePlacementScoreCall, scorePlacementCall } from './call_specs.js';
import type { PluginCalls } from './plugin_calls.js';

/** What the placement runners use of a profile. */
export interface PlacementProfile {
  readonly calls: PluginCalls;
  readonly placementGeneratePlugins: readonly fw.PlacementGeneratePlugin[];
  readonly placementScorePlugins: readonly fw.PlacementScorePlugin[];
  readonly placementScorePluginWeight: ReadonlyMap<string, number>;
}

/** The placements a pod group's cycle tries, or why there are none. */
export interface GeneratedPlacements {
  placements: readonly fw.Placement[];
  status: Status | null;
}

/**
 * The first PlacementGenerate plugin's placements within all of `nodes`, or the one placement of
 * every node when the profile has none. Upstream times these plugins in every group cycle, not
 * only sampled ones.
 */
export function runPlacementGeneratePlugins(f: PlacementProfile, state: CycleState, podGroup: SchedulingGroup, nodes: readonly NodeInfo[]): GeneratedPlacements {
  return f.calls.point('PlacementGenerate', () => generatePlacements(f, state, podGroup, { name: '', nodes }), (r) => r.status);
}

function generatePlacements(f: PlacementProfile, state: CycleState, podGroup: SchedulingGroup, parent: fw.Placement): GeneratedPlacements {
  const p = f.placementGeneratePlugins[0];
  if (p === undefined) return { placements: [parent], status: null };
  const r = f.calls.call(generatePlacementsCall, p, f.calls.measured, state, podGroup, parent);
  if (r instanceof Status) return { placements: [], status: r.withPlugin(p.name) };
  if (r.placements.length === 0) return { placements: [], status: new Status(Code.Unschedulable, ['no feasible placements found']).withPlugin(p.name) };
  return { placements: r.placements, status: null };
}

/** Each placement's weighted sum, index-aligned with the assignments, or an error. */
export interface PlacementTotals {
  totals: number[];
  status: Status | null;
}

/**
 * Every plugin scores every feasible placement, normalizes its scores and weights them; each
 * placement's weighted sum, index-aligned with `assignments`, or an error.
 */
export function runPlacementScorePlugins(f: PlacementProfile, podGroupState: CycleState, podGroup: SchedulingGroup, assignments: readonly fw.PodGroupAssignments[], states: readonly CycleState[]): PlacementTotals {
  return f.calls.point('PlacementScore', () => scorePlacements(f, podGroupState, podGroup, assignments, states), (r) => r.status);
}

function scorePlacements(f: PlacementProfile, podGroupState: CycleState, podGroup: SchedulingGroup, assignments: readonly fw.PodGroupAssignments[], states: readonly CycleState[]): PlacementTotals {
  const totals = new Array<number>(assignments.length).fill(0);
  if (assignments.length !== states.length) {
    return { totals, status: Status.error(`expected one PlacementCycleState per PodGroupAssignments, got ${states.length} placement states for ${assignments.length} assignments`) };
  }
  const plugins = f.placementScorePlugins;
  const timed = f.calls.measured;
  const perPlugin: fw.PlacementScore[][] = plugins.map(() => []);
  for (let i = 0; i < assignments.length; i++) {
    for (let j = 0; j < plugins.length; j++) {
      const p = plugins[j]!;
      const s = f.calls.call(scorePlacementCall, p, timed, states[i]!, podGroup, assignments[i]!);
      if (s instanceof Status) return { totals, status: Status.error(`running PlacementScore plugins: plugin "${p.name}" failed with: ${s.message()}`) };
      perPlugin[j]!.push({ placement: assignments[i]!.placement, score: s });
    }
  }
  for (let j = 0; j < plugins.length; j++) {
    const p = plugins[j]!;
    if (p.normalizePlacementScore === undefined) continue;
    const s = f.calls.call(normalizePlacementScoreCall, p, timed, podGroupState, podGroup, perPlugin[j]!);
    if (!isSuccess(s)) return { totals, status: Status.error(`running NormalizePlacementScore on PlacementScore plugins: plugin "${p.name}" failed with: ${s!.message()}`) };
  }
  for (let j = 0; j < plugins.length; j++) {
    const p = plugins[j]!;
    const weight = f.placementScorePluginWeight.get(p.name)!;
    for (let i = 0; i < assignments.length; i++) {
      const score = perPlugin[j]![i]!.score;
      if (score > fw.MaxNodeScore || score < fw.MinNodeScore) {
        return {
          totals,
          status: Status.error(`applying score defaultWeights on PlacementScore plugins: plugin "${p.name}" returns an invalid score ${score}, it should in the range of [${fw.MinNodeScore}, ${fw.MaxNodeScore}] after normalizing`),
        };
      }
      totals[i]! += score * weight;
    }
  }
  return { totals, status: null };
}
