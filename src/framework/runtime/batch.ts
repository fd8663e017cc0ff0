// Opportunistic batching (runtime/batch.go, KEP-5598): a cycle whose pod has the same signature as
// the previous pod's, within 500 ms of it, skips the full Filter and Score walk: the previous
// cycle's ranking gives the next node (its hint), once the node last chosen has been filtered
// again and, when it still fits, rescored and put back among the candidates. The hint is then
// filtered like a nominated node. It decides as a full cycle would only when the scores left are
// still right: normalization runs over fewer nodes, and only the last chosen node is rescored.
import type { CycleState } from '../cycle_state.js';
import type { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import type { BatchFlushReason, MetricsRecorder } from '../metrics_recorder.js';
import { isSuccess, Status } from '../status.js';
import { SortedScoredNodes, type ScoredCandidate } from './sorted_scored_nodes.js';

/** How long a stored ranking may be reused (maxBatchAge), in ms. */
const maxBatchAgeMs = 500;

/** What batching needs of its profile's framework (batchHandle). */
export interface BatchHandle {
  readonly profileName: string;
  nodeInfo(name: string): NodeInfo | undefined;
  runFilterPlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null;
  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null;
  runRawScorePlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): ScoredCandidate | Status;
  normalizeScores(state: CycleState, pod: PodInfo, candidates: ScoredCandidate[]): Status | null;
  /** The scheduler clock, in ms. */
  now(): number;
  /** Monotonic seconds, for durations. */
  monotonicSeconds(): number;
  readonly metrics: MetricsRecorder | null;
}

interface BatchState {
  readonly signature: string;
  sortedNodes: SortedScoredNodes;
  readonly creationTime: number;
}

interface LastCycle {
  readonly cycleCount: number;
  readonly chosenNode: string;
  readonly succeeded: boolean;
}

export class OpportunisticBatch {
  private state: BatchState | null = null;
  private lastCycle: LastCycle = { cycleCount: 0, chosenNode: '', succeeded: false };
  /** Pods placed on their hint so far (for tests and reports). */
  batchedPods = 0;

  constructor(
    private readonly handle: BatchHandle,
    /** GenericWorkload: the members of one pod group share a cycle count. */
    private readonly genericWorkloadEnabled = false,
  ) {}

  /**
   * The node to try first for this pod, or '' when the stored ranking cannot be used: only
   * consecutive pods with one signature, placed one per node (the last chosen node no longer
   * fitting, or rescored among the others), get one.
   */
  getNodeHint(pod: PodInfo, signature: string | null, state: CycleState, cycleCount: number): string {
    const m = this.handle.metrics;
    const start = m !== null ? this.handle.monotonicSeconds() : 0;
    let hint = '';
    if (this.stateCompatible(pod, signature, cycleCount) && this.refreshHintCandidates(pod, state)) {
      hint = this.state!.sortedNodes.pop().name;
    }
    if (m !== null) {
      if (hint === '') m.observeBatchAttempt(this.handle.profileName, 'no_hint');
      m.observeGetNodeHint(hint === '' ? 'no_hint' : 'hint', this.handle.profileName, this.handle.monotonicSeconds() - start);
    }
    return hint;
  }

  /**
   * What a successful cycle found: its chosen node and, after a full walk, the ranking of the
   * other feasible nodes (null when only one fitted), kept for the next pod when this one had a
   * signature. A used hint keeps the ranking it came from. `otherCount` is how many other nodes
   * were scored, so that an unsigned pod needs no ranking built.
   */
  storeScheduleResults(signature: string | null, hintedNode: string, chosenNode: string, otherNodes: SortedScoredNodes | null, otherCount: number, cycleCount: number): void {
    const m = this.handle.metrics;
    const start = m !== null ? this.handle.monotonicSeconds() : 0;
    this.lastCycle = { cycleCount, chosenNode, succeeded: true };
    if (hintedNode === chosenNode) {
      m?.observeBatchAttempt(this.handle.profileName, 'hint_used');
      this.batchedPods++;
    } else {
      if (hintedNode !== '') m?.observeBatchAttempt(this.handle.profileName, 'hint_not_used');
      if (signature !== null && otherNodes !== null && otherNodes.length > 0) {
        this.state = { signature, sortedNodes: otherNodes, creationTime: this.handle.now() };
      } else {
        this.flushed(otherCount === 0 ? 'empty_list' : 'pod_not_batchable');
        this.state = null;
      }
    }
    m?.observeStoreScheduleResults(this.handle.profileName, this.handle.monotonicSeconds() - start);
  }

  private flushed(reason: BatchFlushReason): false {
    this.handle.metrics?.observeBatchCacheFlush(this.handle.profileName, reason);
    return false;
  }

  /** Whether the stored ranking may serve this pod (the ranking is kept either way). */
  private stateCompatible(pod: PodInfo, signature: string | null, cycleCount: number): boolean {
    const s = this.state;
    if (s === null || s.sortedNodes.length === 0) return false;
    // Another pod's cycle (another profile's, or one that failed) came in between.
    if (cycleCount !== this.lastCycle.cycleCount + 1 && !(this.genericWorkloadEnabled && cycleCount === this.lastCycle.cycleCount)) {
      return this.flushed('pod_skipped');
    }
    if (!this.lastCycle.succeeded) return this.flushed('pod_failed');
    if (pod.pod.status?.nominatedNodeName) return this.flushed('pod_nominated');
    if (signature === null || signature !== s.signature) return this.flushed('pod_incompatible');
    if (this.handle.now() > s.creationTime + maxBatchAgeMs) return this.flushed('expired');
    return true;
  }

  /**
   * Filters the node last chosen again: still fitting (the previous pod did not fill it), it is
   * rescored and competes with the stored nodes; rejected, the stored nodes go on as they are.
   */
  private refreshHintCandidates(pod: PodInfo, state: CycleState): boolean {
    const last = this.handle.nodeInfo(this.lastCycle.chosenNode);
    if (last === undefined) return this.flushed('node_missing');
    const s = this.handle.runFilterPlugins(state, pod, last);
    if (isSuccess(s)) return this.rescoreHintedNode(pod, state, last);
    if (!s!.isRejected()) return this.flushed('filter_error');
    return true;
  }

  private rescoreHintedNode(pod: PodInfo, state: CycleState, last: NodeInfo): boolean {
    const m = this.handle.metrics;
    const start = m !== null ? this.handle.monotonicSeconds() : 0;
    try {
      const cached = this.state!.sortedNodes.unorderedList();
      const nodes: NodeInfo[] = [];
      // Copies: a failed rescoring leaves the stored totals as they were.
      const candidates: ScoredCandidate[] = [];
      for (const c of cached) {
        const ni = this.handle.nodeInfo(c.name);
        if (ni === undefined) return this.flushed('node_missing');
        nodes.push(ni);
        candidates.push({ name: c.name, rawNames: c.rawNames, rawValues: c.rawValues, totalScore: c.totalScore });
      }
      nodes.push(last);
      // The live state stays as the cycle left it.
      const rescoreState = state.clone();
      const pre = this.handle.runPreScorePlugins(rescoreState, pod, nodes);
      if (!isSuccess(pre)) return this.flushed('prescore_error');
      const fresh = this.handle.runRawScorePlugins(rescoreState, pod, last);
      if (fresh instanceof Status) return this.flushed('rescore_error');
      candidates.push(fresh);
      if (this.handle.normalizeScores(rescoreState, pod, candidates) !== null) return this.flushed('normalize_error');
      this.state!.sortedNodes = new SortedScoredNodes(candidates, this.state!.sortedNodes.byName);
      return true;
    } finally {
      if (m !== null) {
        m.observeBatchRescore(this.handle.profileName, this.handle.monotonicSeconds() - start);
      }
    }
  }
}
