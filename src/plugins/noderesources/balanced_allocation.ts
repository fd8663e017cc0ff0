// NodeResourcesBalancedAllocation: favors nodes whose resource utilizations get closer to each
// other when the pod is placed (framework/plugins/noderesources/balanced_allocation.go).
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { MaxNodeScore, type NodeScore, type PreScorePlugin, type ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import type { NodeResourcesBalancedAllocationArgs } from './args.js';
import { ResourceAllocationScorer } from './resource_allocation.js';
import type { SharedDraManager } from '../dynamicresources/shared_dra_manager.js';
import { draExtendedResources, type DraScoringState } from './dra_extended_resources.js';

export const BalancedAllocationName = 'NodeResourcesBalancedAllocation';
const preScoreStateKey = `PreScore${BalancedAllocationName}`;

/**
 * How much placing the pod improves the node's balance (v1.37's balancedResourceScorer): the
 * balance with the pod against the balance before it, mapped back onto [50, 100] so that no change
 * scores 75, a better balance up to 100 and a worse one down to 50.
 */
export function balancedResourceScorer(requested: Float64Array, allocatable: Float64Array, podRequests: Float64Array): number {
  const withPod = balancedResourceScore(requested, allocatable, podRequests, false);
  const withoutPod = balancedResourceScore(requested, allocatable, podRequests, true);
  return MaxNodeScore / 2 + Math.trunc((MaxNodeScore / 2 + withPod - withoutPod) / 2);
}

/** The fraction of one resource in use, capped at 1; `withoutPod` takes the pod's share out. */
function fractionOf(requested: Float64Array, allocatable: Float64Array, podRequests: Float64Array, i: number, withoutPod: boolean): number {
  const used = withoutPod ? requested[i]! - podRequests[i]! : requested[i]!;
  const fraction = used / allocatable[i]!;
  return fraction > 1 ? 1 : fraction;
}

/**
 * (1 - std) * MaxNodeScore, truncated, where std is the standard deviation of the per-resource
 * utilizations over the resources the node has. Two resources use the |f0 - f1| / 2 shortcut, as
 * upstream does, so the float results match bit for bit. No arrays: this runs per node.
 */
function balancedResourceScore(requested: Float64Array, allocatable: Float64Array, podRequests: Float64Array, withoutPod: boolean): number {
  let count = 0;
  let total = 0;
  let first = 0;
  let second = 0;
  for (let i = 0; i < requested.length; i++) {
    if (allocatable[i] === 0) continue;
    const fraction = fractionOf(requested, allocatable, podRequests, i, withoutPod);
    total += fraction;
    if (count === 0) first = fraction;
    else if (count === 1) second = fraction;
    count++;
  }
  let std = 0;
  if (count === 2) {
    std = Math.abs((first - second) / 2);
  } else if (count > 2) {
    const mean = total / count;
    let sum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      const fraction = fractionOf(requested, allocatable, podRequests, i, withoutPod);
      sum = sum + (fraction - mean) * (fraction - mean);
    }
    std = Math.sqrt(sum / count);
  }
  return Math.trunc((1 - std) * MaxNodeScore);
}

class PreScoreState implements StateData {
  constructor(
    readonly podRequests: Float64Array,
    /** For balanced resources that devices back (null when there are none). */
    readonly dra: DraScoringState | null,
  ) {}

  clone(): StateData {
    return this;
  }
}

export class BalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = BalancedAllocationName;
  readonly scorer: ResourceAllocationScorer;

  /**
   * @param dra the scheduler's DRA objects when DRAExtendedResource is on: devices count for
   *   the extended resources DeviceClasses back on nodes that do not advertise them.
   */
  constructor(args: NodeResourcesBalancedAllocationArgs, dra: SharedDraManager | null = null) {
    // Balance is judged on what pods really request, not on the 100m / 200Mi scoring defaults.
    this.scorer = new ResourceAllocationScorer(BalancedAllocationName, args.resources, balancedResourceScorer, true, draExtendedResources(dra));
  }

  preScore(state: CycleState, pod: PodInfo): Status | null {
    const podRequests = this.scorer.podRequests(pod);
    // Best-effort pods would all pile onto the same most-balanced node; leave them unscored.
    if (ResourceAllocationScorer.isBestEffort(podRequests)) return Status.skip();
    state.write(preScoreStateKey, new PreScoreState(podRequests, this.scorer.draPreScore()));
    return null;
  }

  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (s instanceof PreScoreState) return this.scorer.score(nodeInfo, s.podRequests, s.dra);
    const podRequests = this.scorer.podRequests(pod);
    if (ResourceAllocationScorer.isBestEffort(podRequests)) return 0;
    return this.scorer.score(nodeInfo, podRequests, this.scorer.draPreScore());
  }

  scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null {
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (s instanceof PreScoreState) return this.scorer.scoreNodes(nodes, s.podRequests, out, s.dra);
    for (let i = 0; i < nodes.length; i++) {
      const r = this.score(state, pod, nodes[i]!);
      if (typeof r !== 'number') return r;
      out[i]!.score = r;
    }
    return null;
  }

  scoreExtensions(): null {
    return null;
  }
}
