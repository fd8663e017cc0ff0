// Score one node and normalize a set of stored answers again, for opportunistic batching's
// rescoring (runtime/framework.go RunRawScorePlugins and NormalizeScores).
import type { CycleState } from '../cycle_state.js';
import { MaxNodeScore, MinNodeScore, type NodeScore, type ScorePlugin } from '../interfaces.js';
import type { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import { isSuccess, Status } from '../status.js';
import { normalizeScoreCall, scoreCall, scoreExtensionsOf } from './call_specs.js';
import type { PluginCalls } from './plugin_calls.js';
import type { ScoredCandidate } from './sorted_scored_nodes.js';

/** What rescoring needs of a profile. */
export interface ScoringProfile {
  readonly calls: PluginCalls;
  readonly scorePlugins: readonly ScorePlugin[];
  readonly scorePluginWeight: ReadonlyMap<string, number>;
}

function activeScorePlugins(profile: ScoringProfile, state: CycleState): ScorePlugin[] {
  const skip = state.skipScorePlugins;
  return profile.scorePlugins.filter((p) => !skip.has(p.name));
}

/** Every Score plugin's answer for one node, before NormalizeScore and weights, or the error. */
export function runRawScorePlugins(profile: ScoringProfile, state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): ScoredCandidate | Status {
  const plugins = activeScorePlugins(profile, state);
  const values = new Float64Array(plugins.length);
  for (let i = 0; i < plugins.length; i++) {
    const p = plugins[i]!;
    const r = profile.calls.callScore(scoreCall, p, false, state, pod, nodeInfo);
    if (typeof r !== 'number') return Status.error(`plugin "${p.name}" failed with: ${r.message()}`).withPlugin(p.name);
    values[i] = r;
  }
  return { name: nodeInfo.name, rawNames: plugins.map((p) => p.name), rawValues: values, totalScore: 0 };
}

/**
 * NormalizeScore and weights over `candidates` from their stored answers: sets each one's total.
 * A plugin with no stored answer for a node counts it 0, as upstream's zero value does.
 */
export function normalizeScores(profile: ScoringProfile, state: CycleState, pod: PodInfo, candidates: ScoredCandidate[]): Status | null {
  const plugins = activeScorePlugins(profile, state);
  for (const c of candidates) c.totalScore = 0;
  for (const p of plugins) {
    const list: NodeScore[] = candidates.map((c) => {
      const k = c.rawNames.indexOf(p.name);
      return { name: c.name, score: k < 0 ? 0 : c.rawValues[k]! };
    });
    const ext = profile.calls.call(scoreExtensionsOf, p, false, undefined, undefined, undefined);
    const s = ext === null || ext instanceof Status ? ext : profile.calls.call(normalizeScoreCall, p, false, ext, state, pod, list);
    if (!isSuccess(s)) return Status.error(`running Normalize on Score plugins: plugin "${p.name}" failed with: ${s!.message()}`).withPlugin(p.name);
    const weight = profile.scorePluginWeight.get(p.name) ?? 0;
    for (let i = 0; i < list.length; i++) {
      const score = list[i]!.score;
      if (score > MaxNodeScore || score < MinNodeScore) {
        return Status.error(`applying score defaultWeights on Score plugins: plugin "${p.name}" returns an invalid score ${score}, it should in the range of [${MinNodeScore}, ${MaxNodeScore}] after normalizing`).withPlugin(p.name);
      }
      candidates[i]!.totalScore += score * weight;
    }
  }
  return null;
}
