// NodeResourcesBalancedAllocation: favors nodes whose resource utilizations get closer to each
// other when the pod is placed (framework/plugins/noderesources/balanced_allocation.go).
import type { CycleState } from '../../framework/cycle_state.js';
import { MaxNodeScore, type PreScorePlugin, type ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import type { NodeResourcesBalancedAllocationArgs } from './args.js';
import { PreScoreState, ResourceAllocationScorer } from './resource_allocation.js';
import type { SharedDRAManager } from '../../framework/shared_dra_manager.js';
import { draExtendedResources } from './dra_extended_resources.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { signResources } from './sign.js';
import type { DeviceClassResolver } from '../../framework/shared_dra_manager.js';

export const BalancedAllocationName = 'NodeResourcesBalancedAllocation';
const preScoreStateKey = `PreScore${BalancedAllocationName}`;

/** A resource's fraction in use, capped at 1. */
function capped(fraction: number): number {
  return fraction > 1 ? 1 : fraction;
}

/**
 * How much placing the pod improves the node's balance (v1.37's balancedResourceScorer): the
 * balance with the pod against the balance before it, mapped back onto [50, 100] so that no change
 * scores 75, a better balance up to 100 and a worse one down to 50.
 */
export function balancedResourceScorer(requested: Float64Array, allocatable: Float64Array, podRequests: Float64Array): number {
  // One walk computes both balances: this runs for every pod on every scored node. The arithmetic
  // is the same, operation for operation, as computing each balance on its own.
  let count = 0;
  let totalWith = 0;
  let totalWithout = 0;
  let firstWith = 0;
  let secondWith = 0;
  let firstWithout = 0;
  let secondWithout = 0;
  for (let i = 0; i < requested.length; i++) {
    const alloc = allocatable[i]!;
    if (alloc === 0) continue;
    const withPod = capped(requested[i]! / alloc);
    const withoutPod = capped((requested[i]! - podRequests[i]!) / alloc);
    totalWith += withPod;
    totalWithout += withoutPod;
    if (count === 0) {
      firstWith = withPod;
      firstWithout = withoutPod;
    } else if (count === 1) {
      secondWith = withPod;
      secondWithout = withoutPod;
    }
    count++;
  }
  let stdWith = 0;
  let stdWithout = 0;
  if (count === 2) {
    // Two resources use the |f0 - f1| / 2 shortcut, as upstream does, so results match bit for bit.
    stdWith = Math.abs((firstWith - secondWith) / 2);
    stdWithout = Math.abs((firstWithout - secondWithout) / 2);
  } else if (count > 2) {
    const meanWith = totalWith / count;
    const meanWithout = totalWithout / count;
    let sumWith = 0;
    let sumWithout = 0;
    for (let i = 0; i < requested.length; i++) {
      const alloc = allocatable[i]!;
      if (alloc === 0) continue;
      const withPod = capped(requested[i]! / alloc);
      const withoutPod = capped((requested[i]! - podRequests[i]!) / alloc);
      sumWith = sumWith + (withPod - meanWith) * (withPod - meanWith);
      sumWithout = sumWithout + (withoutPod - meanWithout) * (withoutPod - meanWithout);
    }
    stdWith = Math.sqrt(sumWith / count);
    stdWithout = Math.sqrt(sumWithout / count);
  }
  // (1 - std) * MaxNodeScore, truncated, for each; then mapped as the comment above says.
  const scoreWith = Math.trunc((1 - stdWith) * MaxNodeScore);
  const scoreWithout = Math.trunc((1 - stdWithout) * MaxNodeScore);
  return MaxNodeScore / 2 + Math.trunc((MaxNodeScore / 2 + scoreWith - scoreWithout) / 2);
}

export class BalancedAllocation implements PreScorePlugin, ScorePlugin, SignPlugin {
  readonly name = BalancedAllocationName;

  signPod(pod: PodInfo): readonly SignFragment[] | Status {
    return signResources(pod, this.draClasses);
  }
  readonly scorer: ResourceAllocationScorer;
  /** Which DeviceClass backs an extended resource; null with DRAExtendedResource off. */
  private readonly draClasses: DeviceClassResolver | null;

  /**
   * @param dra the scheduler's DRA objects when DRAExtendedResource is on: devices count for
   *   the extended resources DeviceClasses back on nodes that do not advertise them.
   */
  constructor(args: NodeResourcesBalancedAllocationArgs, dra: SharedDRAManager | null = null) {
    this.draClasses = dra?.classResolver ?? null;
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

  scoreNodesInto(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], scores: Float64Array): Status | null {
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (s instanceof PreScoreState) return this.scorer.scoreNodesInto(nodes, s.podRequests, scores, s.dra, state.scoredRows);
    for (let i = 0; i < nodes.length; i++) {
      const r = this.score(state, pod, nodes[i]!);
      if (typeof r !== 'number') return r;
      scores[i] = r;
    }
    return null;
  }

  scoreExtensions(): null {
    return null;
  }
}
