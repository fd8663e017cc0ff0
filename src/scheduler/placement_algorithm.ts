// The topology-aware half of schedule_one_podgroup.go (podGroupSchedulingPlacementAlgorithm,
// findBestPodGroupPlacement, TopologyAwareWorkloadScheduling): the PlacementGenerate plugin splits
// the nodes into candidate placements, the group's members are tried on each in turn (the
// snapshot limited to its nodes, everything reverted after), and the PlacementScore plugins pick
// among the placements on which the whole group was feasible.
import type { PodGroup } from '../api/scheduling.js';
import type { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle_state.js';
import type { Placement, PodGroupAssignments, ProposedAssignment } from '../framework/interfaces.js';
import type { Framework } from '../framework/runtime/framework.js';
import { Code, Status, isSuccess } from '../framework/status.js';
import type { PlacementEvaluationResult, SchedulerMetricsRecorder } from './metrics_recorder.js';

/** One trial's outcome, as the default algorithm gives it (status null: the group is feasible there). */
export interface PlacementTrial<R> {
  readonly status: Status | null;
  /** The members tried, in order. */
  readonly results: readonly R[];
  /** Whether any member was placed in this trial. */
  readonly anyScheduled: boolean;
}

/** What the placement algorithm needs of the group's cycle. */
export interface PlacementAlgorithmHost<R> {
  readonly snapshot: Snapshot;
  readonly metrics: SchedulerMetricsRecorder | null;
  monotonicSeconds(): number;
  /** A uniform [0, 1) draw, breaking ties between equally scored placements. */
  random(): number;
  /**
   * Upstream tries placements in Go map order and breaks ties at random; `--tie-break name` tries
   * them by name and takes the first name among equal totals (the differential harness does too).
   */
  readonly tieBreakByName?: boolean;
  /** The default algorithm over the snapshot as it is limited now, reverted before it returns. */
  tryPlacement(placementState: CycleState): PlacementTrial<R>;
  /** Where a tried member was placed, or null when it was not. */
  assignmentOf(result: R): ProposedAssignment | null;
}

/** The error a rejected group's statuses carry (errPodGroupUnschedulable). */
export const errPodGroupUnschedulable = new Error('pod group is unschedulable');

/**
 * podGroupSchedulingPlacementAlgorithm: the best feasible placement's trial; when none is
 * feasible, the first placement's trial with `0/N placements are available, ...`; an error of a
 * plugin or of one trial as it is.
 */
export function runPlacementAlgorithm<R>(host: PlacementAlgorithmHost<R>, fwk: Framework, pg: PodGroup): PlacementTrial<R> {
  const { snapshot } = host;
  const groupState = new CycleState();
  const generated = fwk.runPlacementGeneratePlugins(groupState, pg, snapshot.listNodesInPlacement());
  if (!isSuccess(generated.status)) return { status: generated.status, results: [], anyScheduled: false };
  const placements = host.tieBreakByName ? [...generated.placements].sort(byName) : generated.placements;
  host.metrics?.observeGeneratedPlacements?.(fwk.profileName, placements.length);

  const parent = snapshot.getPlacement();
  const tried = tryEach(host, fwk, placements);
  // Every trial narrowed the snapshot: the parent's nodes (all, at the root) are given back.
  const restored = snapshot.assumePlacement(parent);
  if (restored !== null) return { status: Status.error(`failed to restore parent pod group placement: ${restored}`), results: [], anyScheduled: false };
  if (!('feasible' in tried)) return tried;
  const { first, feasible } = tried;

  if (feasible.length === 0) {
    const trial = first!;
    const reason = `0/${placements.length} placements are available, first placement status: ${trial.status!.asError().message}`;
    return { ...trial, status: new Status(Code.Unschedulable, [errPodGroupUnschedulable.message, reason], errPodGroupUnschedulable) };
  }
  if (feasible.length === 1) return feasible[0]!.trial;

  const assignments: PodGroupAssignments[] = feasible.map(({ placement, trial }) => ({ placement, proposedAssignments: proposedAssignments(host, trial) }));
  const scored = fwk.runPlacementScorePlugins(groupState, pg, assignments, feasible.map((f) => f.state));
  if (!isSuccess(scored.status)) return { status: scored.status, results: [], anyScheduled: false };
  // Sorted by name, the first of equal totals is the first name.
  const random = host.tieBreakByName ? () => 1 : host.random;
  return feasible[bestIndex(scored.totals, random)]!.trial;
}

export const byName = (a: Placement, b: Placement): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

interface Tried<R> {
  readonly first: PlacementTrial<R> | null;
  readonly feasible: readonly { placement: Placement; trial: PlacementTrial<R>; state: CycleState }[];
}

/** Each placement tried in turn: the first trial and the feasible ones, or the error that stopped them. */
function tryEach<R>(host: PlacementAlgorithmHost<R>, fwk: Framework, placements: readonly Placement[]): Tried<R> | PlacementTrial<R> {
  let first: PlacementTrial<R> | null = null;
  const feasible: { placement: Placement; trial: PlacementTrial<R>; state: CycleState }[] = [];
  for (const placement of placements) {
    const start = host.monotonicSeconds();
    const err = host.snapshot.assumePlacement(placement);
    if (err !== null) return { status: Status.error(`failed to assume pod group placement: ${err}`), results: [], anyScheduled: false };
    const state = new CycleState();
    const trial = host.tryPlacement(state);
    if (trial.status?.code === Code.Error) return trial;
    first ??= trial;
    let result: PlacementEvaluationResult = 'infeasible';
    if (isSuccess(trial.status)) {
      result = 'feasible';
      feasible.push({ placement, trial, state });
    }
    host.metrics?.observePlacementEvaluation?.(result, fwk.profileName, host.monotonicSeconds() - start);
  }
  return { first, feasible };
}

/** The members a trial placed, in the cycle's order (makeProposedAssignments). */
function proposedAssignments<R>(host: PlacementAlgorithmHost<R>, trial: PlacementTrial<R>): ProposedAssignment[] {
  const out: ProposedAssignment[] = [];
  for (const r of trial.results) {
    const a = host.assignmentOf(r);
    if (a !== null && a.nodeName !== '') out.push(a);
  }
  return out;
}

/** The highest total; among equal totals each is equally likely, as upstream's random tie-breaker makes them. */
export function bestIndex(totals: readonly number[], random: () => number): number {
  let best = 0;
  let ties = 1;
  for (let i = 1; i < totals.length; i++) {
    if (totals[i]! > totals[best]!) {
      best = i;
      ties = 1;
    } else if (totals[i] === totals[best]) {
      ties++;
      if (random() * ties < 1) best = i;
    }
  }
  return best;
}
