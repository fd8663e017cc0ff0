// The scheduling algorithm for one pod on one snapshot: filter, score, pick a host
// (schedule_one.go: schedulePod, findNodesThatFitPod, prioritizeNodes, selectHost).
import type { CycleState } from '../framework/cycle_state.js';
import { Diagnosis, ErrNoNodesAvailable, FitError } from '../framework/fit_error.js';
import type { NodeInfo } from '../framework/node_info.js';
import type { PodInfo } from '../framework/pod_info.js';
import type { Framework, NodePluginScores } from '../framework/runtime/framework.js';
import { Code, Status } from '../framework/status.js';
import type { Snapshot } from '../cache/snapshot.js';

export const minFeasibleNodesToFind = 100;
/** The name under which a pod that cannot be parsed is reported as rejected. */
export const PodValidation = 'PodValidation';
export const minFeasibleNodesPercentageToFind = 5;

/** Adaptive number of feasible nodes to look for before scoring (numFeasibleNodesToFind). */
export function numFeasibleNodesToFind(percentage: number, numAllNodes: number): number {
  if (numAllNodes < minFeasibleNodesToFind) return numAllNodes;
  let pct = percentage;
  if (pct === 0) {
    pct = 50 - Math.trunc(numAllNodes / 125);
    if (pct < minFeasibleNodesPercentageToFind) pct = minFeasibleNodesPercentageToFind;
  }
  const n = Math.trunc((numAllNodes * pct) / 100);
  return n < minFeasibleNodesToFind ? minFeasibleNodesToFind : n;
}

export interface ScheduleResult {
  suggestedHost: string;
  evaluatedNodes: number;
  feasibleNodes: number;
  /** Per-node weighted scores (empty when one node was feasible, or when scores are not recorded). */
  scores: NodePluginScores[];
  /** Every node with the highest total (just the chosen one when scores are not recorded). */
  bestNodes: string[];
  diagnosis: Diagnosis;
}

/** State the algorithm keeps between pods: where the next filter walk starts. */
export interface AlgorithmState {
  nextStartNodeIndex: number;
  /** Global percentageOfNodesToScore (profiles may override). */
  percentageOfNodesToScore: number;
  random: () => number;
  /** Pick the first top-scored node by name instead of sampling (for exact comparisons). */
  tieBreakByName: boolean;
  /**
   * Keep the per-node scores and every top-scored node (explain). When false only totals are
   * computed: the result's `scores` is empty and `bestNodes` holds just the chosen host.
   */
  recordScores?: boolean;
  /** Scratch space for the totals when recordScores is false, grown as needed. */
  totalsBuffer?: Float64Array;
  /** Times the Filter phase for metrics (run mode only). */
  metrics?: FilterPhaseHooks;
}

/** The Filter extension point's duration over all nodes of one cycle (findNodesThatPassFilters). */
export interface FilterPhaseHooks {
  /** A monotonic clock in seconds. */
  now(): number;
  filterFinished(profile: string, code: Code, seconds: number): void;
}

/** A PreFilter rejection recorded for explain. */
export interface PreFilterRejection {
  readonly status: Status;
}

/** Runs the algorithm; throws FitError when no node fits, or another Error on failure. */
export function schedulePod(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  snapshot: Snapshot,
): ScheduleResult {
  const allNodes = snapshot.nodeInfoList;
  if (allNodes.length === 0) throw ErrNoNodesAvailable;
  const diagnosis = new Diagnosis();
  const feasible = findNodesThatFitPod(alg, fwk, state, pod, snapshot, diagnosis);
  if (feasible.length === 0) throw new FitError(pod.pod, allNodes.length, diagnosis);
  if (feasible.length === 1) {
    const name = feasible[0]!.name;
    return { suggestedHost: name, evaluatedNodes: 1 + diagnosis.nodeToStatus.size, feasibleNodes: 1, scores: [], bestNodes: [name], diagnosis };
  }
  const evaluatedNodes = feasible.length + diagnosis.nodeToStatus.size;
  if (!(alg.recordScores ?? true) && fwk.hasScorePlugins()) {
    // The hot path: totals only, in a buffer reused across cycles; no per-node lists.
    const n = feasible.length;
    if (alg.totalsBuffer === undefined || alg.totalsBuffer.length < n) alg.totalsBuffer = new Float64Array(Math.max(n, 2 * (alg.totalsBuffer?.length ?? 0)));
    const totals = alg.totalsBuffer.subarray(0, n);
    const pre = fwk.runPreScorePlugins(state, pod, feasible);
    if (pre !== null && pre.code !== Code.Success) throw pre.asError();
    const s = fwk.runScorePluginTotals(state, pod, feasible, totals);
    if (s !== null) throw s.asError();
    const host = selectHostFromTotals(feasible, totals, alg);
    return { suggestedHost: host, evaluatedNodes, feasibleNodes: n, scores: [], bestNodes: [host], diagnosis };
  }
  const scores = prioritizeNodes(fwk, state, pod, feasible, alg.recordScores ?? true);
  const { host, best } = selectHost(scores, alg);
  return { suggestedHost: host, evaluatedNodes, feasibleNodes: feasible.length, scores, bestNodes: best, diagnosis };
}

function maxOf(values: Float64Array): number {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  return max;
}

/** selectHost over totals: the same draw, without building the list of top-scored nodes. */
function selectHostFromTotals(nodes: readonly NodeInfo[], totals: Float64Array, alg: Pick<AlgorithmState, 'random' | 'tieBreakByName'>): string {
  const max = maxOf(totals);
  const byName = alg.tieBreakByName;
  let selected = '';
  let first = '';
  let count = 0;
  for (let i = 0; i < nodes.length; i++) {
    if (totals[i] !== max) continue;
    const name = nodes[i]!.name;
    count++;
    // The draw happens either way, so the random sequence does not depend on the tie-break.
    if (count === 1 || Math.floor(alg.random() * count) === 0) selected = name;
    if (byName && (count === 1 || name < first)) first = name;
  }
  return byName ? first : selected;
}

export class PreFilterRejectedError extends Error {}

function findNodesThatFitPod(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  snapshot: Snapshot,
  diagnosis: Diagnosis,
): NodeInfo[] {
  const nodes = runPreFilterPhase(fwk, state, pod, snapshot, diagnosis);
  if (nodes === null) return [];
  const nominated = filterNominatedNode(alg, fwk, state, pod, snapshot, diagnosis);
  if (nominated.length > 0) return nominated;
  return runFilterPhase(alg, fwk, state, pod, nodes, snapshot.nodeInfoList.length, diagnosis);
}

/**
 * PreFilter: the nodes the Filter walk covers (all, or the subset PreFilter named), or null when
 * the pod is rejected before any node is looked at (the diagnosis says why).
 */
export function runPreFilterPhase(fwk: Framework, state: CycleState, pod: PodInfo, snapshot: Snapshot, diagnosis: Diagnosis): readonly NodeInfo[] | null {
  const allNodes = snapshot.nodeInfoList;
  if (pod.parseError !== null) {
    // A pod we cannot parse is unschedulable everywhere, with the reason.
    const s = new Status(Code.UnschedulableAndUnresolvable, [pod.parseError]).withPlugin(PodValidation);
    diagnosis.nodeToStatus.absentNodesStatus = s;
    diagnosis.preFilterMsg = pod.parseError;
    diagnosis.preFilterStatus = s;
    // Only a change to the pod itself (or the periodic flush) can help: no plugin's event will.
    diagnosis.unschedulablePlugins.add(PodValidation);
    return null;
  }
  const pre = fwk.runPreFilterPlugins(state, pod, allNodes);
  for (const p of pre.pluginsWithNodes) diagnosis.unschedulablePlugins.add(p);
  if (pre.status !== null && pre.status.code !== Code.Success) {
    if (!pre.status.isRejected()) throw pre.status.asError();
    diagnosis.nodeToStatus.absentNodesStatus = pre.status;
    diagnosis.preFilterMsg = pre.status.message();
    diagnosis.preFilterStatus = pre.status;
    diagnosis.addPluginStatus(pre.status);
    return null;
  }
  if (pre.nodeNames === null) return allNodes;
  // Upstream walks the subset in map order; we keep the snapshot's order for determinism.
  const subset: NodeInfo[] = [];
  for (const ni of allNodes) if (pre.nodeNames.has(ni.name)) subset.push(ni);
  diagnosis.nodeToStatus.absentNodesStatus = new Status(
    Code.UnschedulableAndUnresolvable,
    [`node(s) didn't satisfy plugin(s) [${[...pre.pluginsWithNodes].sort().join(' ')}]`],
  );
  return subset;
}

/**
 * A node nominated by an earlier preemption is tried first: it is likely the only one that fits.
 * Returns it when it passes the filters, else [] (and the walk over all nodes may meet it again).
 */
export function filterNominatedNode(alg: AlgorithmState, fwk: Framework, state: CycleState, pod: PodInfo, snapshot: Snapshot, diagnosis: Diagnosis): NodeInfo[] {
  const nominated = pod.pod.status?.nominatedNodeName;
  if (!nominated) return [];
  const ni = snapshot.get(nominated);
  if (!ni?.node) return [];
  const found: NodeInfo[] = [];
  try {
    findNodesThatPassFilters(alg, fwk, state, pod, [ni], diagnosis, found);
  } catch {
    // Upstream logs the failed evaluation and goes on with all nodes.
  }
  if (found.length === 0) diagnosis.nodeToStatus.allowRepeats();
  return found;
}

/** The Filter walk over `nodes`, advancing where the next pod's walk starts. */
export function runFilterPhase(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  nodes: readonly NodeInfo[],
  numAllNodes: number,
  diagnosis: Diagnosis,
): NodeInfo[] {
  const feasible: NodeInfo[] = [];
  const m = alg.metrics;
  const filterStart = m ? m.now() : 0;
  let filterCode = Code.Error;
  try {
    findNodesThatPassFilters(alg, fwk, state, pod, nodes, diagnosis, feasible);
    filterCode = Code.Success;
  } finally {
    // Advanced even when a filter failed, so every node keeps its chance to be examined.
    alg.nextStartNodeIndex = (alg.nextStartNodeIndex + feasible.length + diagnosis.nodeToStatus.size) % numAllNodes;
    if (m) m.filterFinished(fwk.profileName, filterCode, m.now() - filterStart);
  }
  return feasible;
}

/** Appends to `feasible` the nodes passing every filter, from where the last walk stopped. */
function findNodesThatPassFilters(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  nodes: readonly NodeInfo[],
  diagnosis: Diagnosis,
  feasible: NodeInfo[],
): void {
  const n = nodes.length;
  if (n === 0) return;
  // Without scoring any feasible node will do, so the walk stops at the first.
  const want = fwk.hasScorePlugins() ? numFeasibleNodesToFind(fwk.percentageOfNodesToScore ?? alg.percentageOfNodesToScore, n) : 1;
  const start = alg.nextStartNodeIndex % n;
  if (!fwk.hasFilterPlugins()) {
    for (let i = 0; i < want; i++) feasible.push(nodes[(start + i) % n]!);
    return;
  }
  for (let i = 0; i < n && feasible.length < want; i++) {
    const ni = nodes[(start + i) % n]!;
    const s = fwk.runFilterPluginsWithNominatedPods(state, pod, ni);
    if (s === null || s.code === Code.Success) {
      feasible.push(ni);
      continue;
    }
    if (s.code === Code.Error) throw s.asError();
    diagnosis.nodeToStatus.append(ni.name, s);
    diagnosis.addPluginStatus(s);
  }
}

export function prioritizeNodes(fwk: Framework, state: CycleState, pod: PodInfo, nodes: NodeInfo[], recordScores: boolean): NodePluginScores[] {
  if (!fwk.hasScorePlugins()) {
    return nodes.map((n) => ({ name: n.name, scores: [], totalScore: 1 }));
  }
  const pre = fwk.runPreScorePlugins(state, pod, nodes);
  if (pre !== null && pre.code !== Code.Success) throw pre.asError();
  const scores = fwk.runScorePlugins(state, pod, nodes, recordScores);
  if (scores instanceof Status) throw scores.asError();
  return scores;
}

/** Picks uniformly at random among the top-scored nodes (reservoir sampling), or the first by name. */
export function selectHost(scores: readonly NodePluginScores[], alg: Pick<AlgorithmState, 'random' | 'tieBreakByName'>): { host: string; best: string[] } {
  if (scores.length === 0) throw new Error('empty priorityList');
  let maxScore = -Infinity;
  for (const s of scores) if (s.totalScore > maxScore) maxScore = s.totalScore;
  const best: string[] = [];
  let selected = '';
  let count = 0;
  for (const s of scores) {
    if (s.totalScore !== maxScore) continue;
    best.push(s.name);
    count++;
    if (count === 1 || Math.floor(alg.random() * count) === 0) selected = s.name;
  }
  if (alg.tieBreakByName) selected = [...best].sort()[0]!;
  return { host: selected, best };
}
