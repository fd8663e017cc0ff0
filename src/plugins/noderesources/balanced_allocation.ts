// NodeResourcesBalancedAllocation: favors nodes whose resource utilizations get closer to each
// other when the pod is placed (framework/plugins/noderesources/balanced_allocation.go).
import type { CycleState } from '../../framework/cycle_state.js';
import type { PreScorePlugin, ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import type { NodeResourcesBalancedAllocationArgs } from './args.js';
import { PreScoreState, ResourceAllocationScorer } from './resource_allocation.js';
import type { SharedDRAManager } from '../../framework/shared_dra_manager.js';
import { draExtendedResources } from './dra_extended_resources.js';
import type { ScoresOnto, SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { signResources } from './sign.js';
import type { RowScoring } from '../../framework/row_pass.js';
import type { DeviceClassResolver } from '../../framework/shared_dra_manager.js';

export { balancedResourceScorer } from './balanced_scorer.js';

export const BalancedAllocationName = 'NodeResourcesBalancedAllocation';
const preScoreStateKey = `PreScore${BalancedAllocationName}`;

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
    this.scorer = ResourceAllocationScorer.fromSpec({ strategy: BalancedAllocationName, resources: args.resources, shape: null, useRequested: true }, draExtendedResources(dra));
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

  addScoresOnto(state: CycleState, _pod: PodInfo, nodes: readonly NodeInfo[], onto: ScoresOnto): boolean | number {
    const s = state.read<PreScoreState>(preScoreStateKey);
    // DRA-backed resources score through their devices: the column path.
    if (!(s instanceof PreScoreState) || s.dra !== null) return false;
    return this.scorer.addScoresOnto(nodes, s.podRequests, state.scoredRows, onto);
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

  /** Best-effort pods are not scored (PreScore skips them), so the row pass leaves them out too. */
  rowScoring(_state: CycleState, pod: PodInfo): RowScoring | null {
    const r = this.scorer.rowScoring(pod);
    return r === null || ResourceAllocationScorer.isBestEffort(r.podRequests) ? null : r;
  }

  scoreExtensions(): null {
    return null;
  }
}
