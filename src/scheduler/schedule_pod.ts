// The scheduling algorithm for one pod on one snapshot: filter, score, pick a host
// (schedule_one.go: schedulePod, findNodesThatFitPod, findNodesThatPassExtenders,
// prioritizeNodes, selectHost). One path: the plugins run synchronously, and only asking an
// interested HTTP extender makes the result a promise; without one the whole algorithm returns
// in the same tick.
import type { Pod } from '../api/types.js';
import type { Snapshot } from '../cache/snapshot.js';
import type { CycleState } from '../framework/cycle_state.js';
import { type Extender, ExtenderName, MaxExtenderPriority } from '../framework/extender.js';
import { Diagnosis, ErrNoNodesAvailable, FitError } from '../framework/runtime/fit_error.js';
import { MaxNodeScore } from '../framework/interfaces.js';
import { andThen, type MaybePromise } from '../util/maybe_promise.js';
import { thrownMessage } from '../framework/runtime/thrown.js';
import type { NodeInfo } from '../framework/node_info.js';
import { Block, NodeRowSelection, type NodeRows } from '../framework/node_rows.js';
import type { RowPassResult, RowPassRunner } from '../framework/row_pass.js';
import type { FilterPlugin } from '../framework/interfaces.js';
import type { NodeToStatus } from '../framework/node_to_status.js';
import type { PodInfo } from '../framework/pod_info.js';
import type { Framework, NodePluginScores, PluginScore, PluginScoreColumn } from '../framework/runtime/framework.js';
import { Code, Status } from '../framework/status.js';
import type { OpportunisticBatch } from '../framework/runtime/batch.js';
import { SortedScoredNodes, type ScoredCandidate } from '../framework/runtime/sorted_scored_nodes.js';

const minFeasibleNodesToFind = 100;
/** The name under which a pod that cannot be parsed is reported as rejected. */
const PodValidation = 'PodValidation';
const minFeasibleNodesPercentageToFind = 5;

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
   * `parallelism: 1`: upstream's Filter then finds the feasible nodes in walk order, so its pick
   * among equal scores is a fixed function of that order, which selectHost reproduces.
   */
  oneWorker?: boolean;
  /**
   * Keep the per-node scores and every top-scored node (explain). When false only totals are
   * kept: the result's `scores` is empty and `bestNodes` holds just the chosen host.
   */
  recordScores?: boolean;
  /** Scratch space for the totals, grown as needed; one cycle uses it at a time. */
  totalsBuffer?: Float64Array;
  /**
   * The Filter walk's list of feasible nodes, reused by the next cycle's walk (one cycle uses it
   * at a time): a new list per pod was the largest allocation of a cycle at 50,000 nodes.
   */
  feasibleBuffer?: NodeInfo[];
  /** Where the last walk's feasible nodes are in the snapshot's rows (Score reads it). */
  feasibleRows?: NodeRowSelection;
  /** Runs long stretches of a row walk, with their scores, on worker threads (parallelism). */
  rowPass?: RowPassRunner;
}

/** Extenders and where their skipped (ignorable) errors are reported. */
export interface ExtenderSet {
  readonly extenders: readonly Extender[];
  readonly log: (msg: string) => void;
}

const noExtenders: ExtenderSet = { extenders: [], log: () => {} };

/**
 * Runs the algorithm; fails (throws, or rejects when an extender was asked) with FitError when no
 * node fits, or another Error.
 */
export function schedulePod(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  snapshot: Snapshot,
  ext: ExtenderSet = noExtenders,
  cycleCount: number | null = null,
): MaybePromise<ScheduleResult> {
  // A pod group's placement trial limits every step to the placement's nodes.
  const numAllNodes = snapshot.listNodesInPlacement().length;
  if (numAllNodes === 0) throw ErrNoNodesAvailable;
  const diagnosis = new Diagnosis();
  const bc = batchCycle(fwk, state, pod, cycleCount);
  const feasible = findNodesThatFitPod(alg, fwk, state, pod, snapshot, diagnosis, ext, bc);
  // Checked here rather than through andThen: no closure is made when nothing waits (the hot path).
  if (feasible instanceof Promise) return feasible.then((f) => scoreFeasible(alg, fwk, state, pod, numAllNodes, diagnosis, ext, f, bc));
  return scoreFeasible(alg, fwk, state, pod, numAllNodes, diagnosis, ext, feasible, bc);
}

/** The nodes found fitting: none is a FitError, one is the host, more are scored. */
function scoreFeasible(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  numAllNodes: number,
  diagnosis: Diagnosis,
  ext: ExtenderSet,
  feasible: NodeInfo[],
  bc: BatchCycle | null,
): MaybePromise<ScheduleResult> {
  if (feasible.length === 0) throw new FitError(pod.pod, numAllNodes, diagnosis);
  const evaluatedNodes = feasible.length + diagnosis.nodeToStatus.size;
  if (feasible.length === 1) {
    const name = feasible[0]!.name;
    bc?.batch.storeScheduleResults(bc.signature, bc.hint, name, null, 0, bc.cycleCount);
    return { suggestedHost: name, evaluatedNodes, feasibleNodes: 1, scores: [], bestNodes: [name], diagnosis };
  }
  const scores = prioritizeNodes(alg, fwk, state, pod, feasible, ext);
  if (scores instanceof Promise) return scores.then((s) => pickHost(alg, feasible, s, evaluatedNodes, diagnosis, bc));
  return pickHost(alg, feasible, scores, evaluatedNodes, diagnosis, bc);
}

function pickHost(alg: AlgorithmState, feasible: readonly NodeInfo[], scores: NodeScores, evaluatedNodes: number, diagnosis: Diagnosis, bc: BatchCycle | null): ScheduleResult {
  const record = alg.recordScores ?? true;
  const best: string[] | null = record ? [] : null;
  const scored = scores.extenderScored;
  const host = selectHost(feasible, scores.totals, alg, best, scored ? (i) => scored[i] === 1 : null);
  if (bc !== null) {
    const others = bc.signature === null ? null : rankingWithout(host, feasible, scores, alg.tieBreakByName);
    bc.batch.storeScheduleResults(bc.signature, bc.hint, host, others, feasible.length - 1, bc.cycleCount);
  }
  return {
    suggestedHost: host,
    evaluatedNodes,
    feasibleNodes: feasible.length,
    scores: record ? nodePluginScores(feasible, scores) : [],
    bestNodes: best ?? [host],
    diagnosis,
  };
}

function findNodesThatFitPod(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  snapshot: Snapshot,
  diagnosis: Diagnosis,
  ext: ExtenderSet,
  bc: BatchCycle | null,
): MaybePromise<NodeInfo[]> {
  const nodes = runPreFilterPhase(fwk, state, pod, snapshot, diagnosis);
  if (nodes === null) return [];
  if (bc !== null) bc.hint = bc.batch.getNodeHint(pod, bc.signature, state, bc.cycleCount);
  // A node nominated by preemption comes first; else batching's hint is tried the same way.
  const nominated = filterNominatedNode(alg, fwk, state, pod, snapshot, diagnosis, pod.pod.status?.nominatedNodeName || (bc?.hint ?? ''));
  if (nominated.length === 0) return filterAllNodes(alg, fwk, state, pod, nodes, snapshot, diagnosis, ext);
  return andThen(findNodesThatPassExtenders(ext, pod.pod, nominated, diagnosis.nodeToStatus), (passed) => {
    if (passed.length > 0) return passed;
    // The walk over all nodes may meet the nominated node again.
    diagnosis.nodeToStatus.allowRepeats();
    return filterAllNodes(alg, fwk, state, pod, nodes, snapshot, diagnosis, ext);
  });
}

/** The Filter walk, then the extenders' filters over what passed. */
function filterAllNodes(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  nodes: readonly NodeInfo[],
  snapshot: Snapshot,
  diagnosis: Diagnosis,
  ext: ExtenderSet,
): MaybePromise<NodeInfo[]> {
  const feasible = runFilterPhase(alg, fwk, state, pod, nodes, snapshot.listNodesInPlacement().length, diagnosis, snapshot.rows);
  const passed = findNodesThatPassExtenders(ext, pod.pod, feasible, diagnosis.nodeToStatus);
  if (passed === feasible) return feasible;
  return andThen(passed, (p) => {
    // Extenders register no cluster events: a pod they rejected is retried on any event.
    if (p.length !== feasible.length) diagnosis.unschedulablePlugins.add(ExtenderName);
    // The walk's positions are for its own list; an extender's answer is scored without them.
    if (alg.feasibleRows !== undefined) alg.feasibleRows.nodes = null;
    return p;
  });
}

/**
 * PreFilter: the nodes the Filter walk covers (all, or the subset PreFilter named), or null when
 * the pod is rejected before any node is looked at (the diagnosis says why).
 */
function runPreFilterPhase(fwk: Framework, state: CycleState, pod: PodInfo, snapshot: Snapshot, diagnosis: Diagnosis): readonly NodeInfo[] | null {
  const allNodes = snapshot.listNodesInPlacement();
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
  // PreFilter plugins see every node, as upstream's list them from the snapshot themselves.
  const pre = fwk.runPreFilterPlugins(state, pod, snapshot.nodeInfoList);
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
function filterNominatedNode(alg: AlgorithmState, fwk: Framework, state: CycleState, pod: PodInfo, snapshot: Snapshot, diagnosis: Diagnosis, nominated: string): NodeInfo[] {
  if (!nominated) return [];
  // A nominated node outside the pod group's placement is not an error: the walk goes on without it.
  const ni = snapshot.getNodeInPlacement(nominated);
  if (!ni?.node) return [];
  const found = new Array<NodeInfo>(1);
  try {
    findNodesThatPassFilters(alg, fwk, state, pod, [ni], diagnosis, found, null);
  } catch (err) {
    // As upstream: the failed evaluation is logged and the walk goes on over all nodes.
    fwk.log(1, `Evaluation failed on nominated node ${nominated} for pod ${pod.key}: ${thrownMessage(err)}`);
  }
  if (found.length === 0) diagnosis.nodeToStatus.allowRepeats();
  return found;
}

/** The Filter walk over `nodes`, advancing where the next pod's walk starts. */
function runFilterPhase(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  nodes: readonly NodeInfo[],
  numAllNodes: number,
  diagnosis: Diagnosis,
  rows: NodeRows,
): NodeInfo[] {
  // Sized up front: pushing would copy the growing array several times per pod.
  const feasible = (alg.feasibleBuffer ??= []);
  feasible.length = feasibleNodesWanted(alg, fwk, nodes.length);
  const recording = fwk.metricsRecorder() !== null;
  const start = recording ? fwk.monotonicSeconds() : 0;
  let failed = true;
  try {
    findNodesThatPassFilters(alg, fwk, state, pod, nodes, diagnosis, feasible, rows.covers(nodes) ? rows : null);
    failed = false;
  } finally {
    // Advanced even when a filter failed, so every node keeps its chance to be examined.
    alg.nextStartNodeIndex = (alg.nextStartNodeIndex + feasible.length + diagnosis.nodeToStatus.size) % numAllNodes;
    // The Filter extension point is timed over the whole walk (findNodesThatPassFilters).
    if (recording) fwk.observeExtensionPoint('Filter', failed ? filterWalkFailed : null, start);
  }
  return feasible;
}

/** The status the Filter extension point's metric gets when the walk ended with an error. */
const filterWalkFailed = new Status(Code.Error);

/** How many feasible nodes a walk over `n` nodes looks for: without scoring any one will do. */
function feasibleNodesWanted(alg: AlgorithmState, fwk: Framework, n: number): number {
  if (!fwk.hasScorePlugins()) return Math.min(1, n);
  return Math.min(n, numFeasibleNodesToFind(fwk.percentageOfNodesToScore ?? alg.percentageOfNodesToScore, n));
}

/**
 * Fills `feasible` (made with room for as many nodes as the walk wants) from the front with the
 * nodes passing every filter, from where the last walk stopped; its length ends at the count
 * found, also when a filter fails. With `rows` (the rows of `nodes`), their positions go into
 * `alg.feasibleRows` for Score, and a walk whose plugins all read rows (filterRows) touches a
 * passing node's row only.
 */
function findNodesThatPassFilters(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  nodes: readonly NodeInfo[],
  diagnosis: Diagnosis,
  feasible: NodeInfo[],
  rows: NodeRows | null,
): void {
  const n = nodes.length;
  const want = feasible.length;
  let found = 0;
  const selection = rows === null ? null : (alg.feasibleRows ??= new NodeRowSelection());
  const positions = selection === null ? null : selection.reserve(want);
  if (selection !== null) selection.pass = null;
  try {
    if (n === 0) return;
    const start = alg.nextStartNodeIndex % n;
    if (state.diagnosis !== null && diagnosis.allFilters === null) {
      diagnosis.allFilters = new Map();
      diagnosis.filterPlugins = fwk.filterPluginNames(state);
    }
    if (!fwk.hasFilterPlugins()) {
      for (; found < want; found++) {
        const at = (start + found) % n;
        feasible[found] = nodes[at]!;
        if (positions !== null) positions[found] = at;
      }
      return;
    }
    // Asked once per walk rather than per node (a call less per node, about 2% of NodeAffinity's CPU).
    const nominated = fwk.mayHaveNominatedPods();
    const byRows = rows === null || nominated ? null : fwk.rowFilterWalk(state, pod);
    if (byRows !== null) {
      // Stretches of as many nodes as are still wanted, each within the list (no wrapping): the
      // walk examines every node of one, so each plugin checks the stretch's rows in one call,
      // and only the nodes the rows cannot pass (or without their Node) meet the Filter plugins.
      const scratch = selection!.reservePasses(want);
      // The walk's only plugin may give a rejected row's status from the row too (full nodes).
      const rejections = byRows.length === 1 ? selection!.reserveRejections(want) : null;
      const rejecter = byRows[0]!;
      // The list's names side by side: a walk rejecting most rows from them does not visit their NodeInfos.
      const names = rejections === null ? null : namesOfRows(rows!, nodes);
      let at = start;
      for (let i = 0; i < n && found < want; ) {
        const count = Math.min(want - found, n - i, n - at);
        // A long first stretch goes to the row pass (worker threads), which also scores its rows.
        const pass = i === 0 && alg.rowPass !== undefined && count >= alg.rowPass.minRows ? rowPass(alg.rowPass, fwk, state, pod, byRows, rows!, at, count) : null;
        if (pass !== null) selection!.pass = pass;
        const passes = pass === null ? scratch : pass.verdicts;
        if (pass === null) {
          passes.fill(1, 0, count);
          for (let p = 0; p < byRows.length; p++) byRows[p]!.filterRows!(state, pod, rows!, at, count, passes, rejections);
        }
        // The row pass gives verdicts only.
        const rejected = pass === null ? rejections : null;
        // The row pass's verdicts include the Node's presence; the plain stretch checks it here,
        // a whole block at a time when none of its rows changed since they all had it.
        const checked = pass !== null;
        let withNodes = checked;
        for (let k = 0; k < count; k++, at++) {
          if ((at & (Block.Size - 1)) === 0) withNodes = checked || (k + Block.Size <= count && rows!.blockHasNodes(at >> Block.Shift));
          if (passes[k] === 1 && (withNodes || rows!.hasNode(at))) {
            // Passes on its row alone.
          } else if (rejected !== null && rejected[k] !== null && rejected[k]!.isRejected() && (withNodes || rows!.hasNode(at))) {
            // Named as runFilterPlugins names a rejection; anything but one is left to `filter`.
            const s = rejected[k]!.withPlugin(rejecter.name);
            // The rows after it in its block refused with the same shared status (a pod asking for
            // a resource most nodes lack) are recorded with it as one run: the same entries, in order.
            let end = k + 1;
            if (withNodes && s === rejected[k]) {
              const blockEnd = Math.min(count, k + Block.Size - (at & (Block.Size - 1)));
              while (end < blockEnd && passes[end] === 0 && rejected[end] === s) end++;
            }
            diagnosis.nodeToStatus.appendRangeFromList(names!, at, at + end - k, s);
            diagnosis.addPluginStatus(s);
            at += end - k - 1;
            k = end - 1;
            continue;
          } else if (!passesFilters(fwk, state, pod, nodes[at]!, false, diagnosis)) {
            continue;
          }
          feasible[found] = nodes[at]!;
          positions![found++] = at;
        }
        if (at === n) at = 0;
        i += count;
      }
      return;
    }
    for (let i = 0; i < n && found < want; i++) {
      const at = (start + i) % n;
      const ni = nodes[at]!;
      if (!passesFilters(fwk, state, pod, ni, nominated, diagnosis)) continue;
      if (positions !== null) positions[found] = at;
      feasible[found++] = ni;
    }
  } finally {
    feasible.length = found;
    if (selection !== null) {
      selection.rows = rows;
      selection.nodes = feasible;
    } else if (alg.feasibleRows !== undefined) {
      // The list is reused between cycles: a walk without rows must not leave an older walk's positions to it.
      alg.feasibleRows.nodes = null;
    }
  }
}

/** The row pass over a stretch of the walk, or null when this attempt's plugins cannot hand it over. */
function rowPass(runner: RowPassRunner, fwk: Framework, state: CycleState, pod: PodInfo, walk: readonly FilterPlugin[], rows: NodeRows, first: number, count: number): RowPassResult | null {
  const work = fwk.rowPassOf(state, pod, walk);
  return work === null ? null : runner.run(rows, first, count, work.check, work.scorings);
}

/** The names of the nodes of `rows` (a snapshot's list, which `nodes` is), in list order, made once per list. */
const namesByRows = new WeakMap<NodeRows, string[]>();
function namesOfRows(rows: NodeRows, nodes: readonly NodeInfo[]): string[] {
  let names = namesByRows.get(rows);
  if (names === undefined) namesByRows.set(rows, (names = nodes.map((ni) => ni.name)));
  return names;
}

/**
 * Whether `ni` passes every Filter plugin (with the nominated pods when `nominated`); a rejection
 * goes into the diagnosis, an error is thrown.
 */
function passesFilters(fwk: Framework, state: CycleState, pod: PodInfo, ni: NodeInfo, nominated: boolean, diagnosis: Diagnosis): boolean {
  const s = nominated ? fwk.runFilterPluginsWithNominatedPods(state, pod, ni) : fwk.runFilterPlugins(state, pod, ni);
  if (s === null || s.code === Code.Success) return true;
  if (s.code === Code.Error) throw s.asError();
  diagnosis.nodeToStatus.append(ni.name, s);
  diagnosis.addPluginStatus(s);
  // A diagnosed cycle keeps every plugin that rejected the node, not just the first.
  if (diagnosis.allFilters !== null) diagnosis.allFilters.set(ni.name, [...state.diagnosis!.filterVerdicts]);
  return false;
}

/**
 * Each interested extender in configuration order narrows the nodes left by the one before; its
 * rejections are recorded per node (an unresolvable verdict wins over a plain one for the same
 * node). An error fails the attempt unless the extender is ignorable. The nodes come back at
 * once when no extender is interested in the pod.
 */
function findNodesThatPassExtenders(ext: ExtenderSet, pod: Pod, feasible: NodeInfo[], statuses: NodeToStatus): MaybePromise<NodeInfo[]> {
  if (feasible.length === 0 || ext.extenders.length === 0 || !ext.extenders.some((e) => e.isInterested(pod))) return feasible;
  return filterByExtenders(ext, pod, feasible, statuses);
}

async function filterByExtenders(ext: ExtenderSet, pod: Pod, feasible: NodeInfo[], statuses: NodeToStatus): Promise<NodeInfo[]> {
  let nodes = feasible;
  for (const extender of ext.extenders) {
    if (nodes.length === 0) break;
    if (!extender.isInterested(pod)) continue;
    let result;
    try {
      result = await extender.filter(pod, nodes);
    } catch (err) {
      if (!extender.isIgnorable()) throw err;
      ext.log(`Skipping extender ${extender.name()} as it returned error and has ignorable flag set: ${thrownMessage(err)}`);
      continue;
    }
    for (const name of Object.keys(result.failedAndUnresolvable)) {
      statuses.set(name, new Status(Code.UnschedulableAndUnresolvable, [result.failedAndUnresolvable[name]!]));
    }
    for (const name of Object.keys(result.failed)) {
      if (Object.prototype.hasOwnProperty.call(result.failedAndUnresolvable, name)) continue;
      statuses.set(name, new Status(Code.Unschedulable, [result.failed[name]!]));
    }
    nodes = result.feasible;
  }
  return nodes;
}

/** Every node's weighted total and, when recording, where it came from. */
interface NodeScores {
  /** Index-aligned with the scored nodes. */
  readonly totals: Float64Array;
  /** Each plugin's weighted scores (when recording). */
  readonly plugins: PluginScoreColumn[] | null;
  /** Each node's extender scores, in answer order (when recording and an extender answered). */
  extenders: PluginScore[][] | null;
  /** 1 for each node some extender scored (upstream draws its tie-break Randomizer only for those). */
  extenderScored: Uint8Array | null;
}

/**
 * PreScore, Score, NormalizeScore and weights, then the interested extenders' scores added into
 * the same totals (prioritizeNodes). Without Score plugins and extenders every node scores 1.
 */
function prioritizeNodes(alg: AlgorithmState, fwk: Framework, state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], ext: ExtenderSet = noExtenders): MaybePromise<NodeScores> {
  const n = nodes.length;
  if (alg.totalsBuffer === undefined || alg.totalsBuffer.length < n) alg.totalsBuffer = new Float64Array(Math.max(n, 2 * (alg.totalsBuffer?.length ?? 0)));
  // Batching keeps each plugin's answers of a signed pod, so the columns are kept for it too.
  const keep = (alg.recordScores ?? true) || state.recordRawScores;
  const scores: NodeScores = { totals: alg.totalsBuffer.subarray(0, n), plugins: keep ? [] : null, extenders: null, extenderScored: null };
  if (ext.extenders.length === 0 && !fwk.hasScorePlugins()) {
    scores.totals.fill(1);
    return scores;
  }
  const pre = fwk.runPreScorePlugins(state, pod, nodes);
  if (pre !== null && pre.code !== Code.Success) throw pre.asError();
  state.scoredRows = alg.feasibleRows ?? null;
  const s = fwk.runScorePlugins(state, pod, nodes, scores.totals, scores.plugins);
  state.scoredRows = null;
  if (s !== null) throw s.asError();
  if (ext.extenders.length === 0) return scores;
  const interested = ext.extenders.filter((e) => e.isInterested(pod.pod));
  if (interested.length === 0) return scores;
  return addExtenderScores(interested, ext.log, pod.pod, nodes, scores);
}

/**
 * Adds every interested extender's scores, scaled from its 0..10 range to the plugins' 0..100 and
 * multiplied by its weight. The extenders are asked concurrently; one that fails gives no scores.
 */
async function addExtenderScores(interested: readonly Extender[], log: (msg: string) => void, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScores): Promise<NodeScores> {
  const answers = await Promise.all(interested.map((e) => e.prioritize(pod, nodes).catch((err: unknown) => {
    log(`Failed to run extender's priority function ${e.name()}, no score given by this extender: ${thrownMessage(err)}`);
    return null;
  })));
  const index = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) index.set(nodes[i]!.name, i);
  const record = scores.plugins !== null;
  for (let e = 0; e < interested.length; e++) {
    const answer = answers[e];
    if (!answer) continue;
    for (const { host, score } of answer.scores) {
      const i = index.get(host);
      if (i === undefined) continue;
      const normalized = score * (MaxNodeScore / MaxExtenderPriority);
      const points = normalized * answer.weight;
      scores.totals[i]! += points;
      (scores.extenderScored ??= new Uint8Array(nodes.length))[i] = 1;
      if (!record) continue;
      scores.extenders ??= nodes.map(() => []);
      scores.extenders[i]!.push({ name: interested[e]!.name(), score: points, raw: score, normalized, weight: answer.weight });
    }
  }
  return scores;
}

/** The recorded scores as one list per node: each plugin's weighted score, then the extenders'. */
function nodePluginScores(nodes: readonly NodeInfo[], s: NodeScores): NodePluginScores[] {
  const plugins = s.plugins ?? [];
  const out: NodePluginScores[] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const parts: PluginScore[] = new Array(plugins.length);
    for (let j = 0; j < plugins.length; j++) {
      const c = plugins[j]!;
      parts[j] = c.raw === null || c.normalized === null
        ? { name: c.name, score: c.weighted[i]! }
        : { name: c.name, score: c.weighted[i]!, raw: c.raw[i]!, normalized: c.normalized[i]!, weight: c.weight };
    }
    const fromExtenders = s.extenders?.[i];
    if (fromExtenders) parts.push(...fromExtenders);
    out[i] = { name: nodes[i]!.name, scores: parts, totalScore: s.totals[i]! };
  }
  return out;
}

/**
 * selectHost as v1.37.2's: the top of a max-heap (Go's container/heap Init, framework/
 * sorted_nodes.go) over the nodes in feasible order, keyed on the total and then a Randomizer that
 * is 0 except on nodes an extender scored, which draw one each (schedule_one.go). The feasible
 * order comes from upstream's parallel Filter: with one worker (`alg.oneWorker`) it is our walk
 * order and the heap's top is taken exactly; with more, the order among nodes equal in both keys
 * is whichever goroutine came first, drawn here uniformly (one draw). `extenderScored(i)`:
 * whether an extender scored node i. With tie-break by name, the first top-scored node by name.
 * Appends every top-scored node to `best` when given.
 */
export function selectHost(
  nodes: readonly { readonly name: string }[],
  totals: ArrayLike<number>,
  alg: Pick<AlgorithmState, 'random' | 'tieBreakByName' | 'oneWorker'>,
  best: string[] | null = null,
  extenderScored: ((i: number) => boolean) | null = null,
): string {
  const n = nodes.length;
  if (n === 0) throw new Error('empty priorityList');
  let max = -Infinity;
  let top = -1;
  let ties = 0;
  for (let i = 0; i < n; i++) {
    if (totals[i]! > max) {
      max = totals[i]!;
      top = i;
      ties = 1;
    } else if (totals[i] === max) {
      ties++;
    }
  }
  if (best !== null) for (let i = 0; i < n; i++) if (totals[i] === max) best.push(nodes[i]!.name);
  if (alg.tieBreakByName) {
    let first = nodes[top]!.name;
    for (let i = top + 1; i < n; i++) if (totals[i] === max && nodes[i]!.name < first) first = nodes[i]!.name;
    return first;
  }
  // A single best node is the heap's top whatever the order.
  if (ties === 1) return nodes[top]!.name;
  let randomizer: Float64Array | null = null;
  if (extenderScored !== null) {
    randomizer = new Float64Array(n);
    for (let i = 0; i < n; i++) if (extenderScored(i)) randomizer[i] = alg.random();
  }
  if (alg.oneWorker) return nodes[heapTop(totals, randomizer)]!.name;
  // With extenders, the tie is among the best totals with the highest randomizer.
  let bestRandomizer = 0;
  if (randomizer !== null) for (let i = 0; i < n; i++) if (totals[i] === max && randomizer[i]! > bestRandomizer) bestRandomizer = randomizer[i]!;
  return nodes[uniformTiePick(totals, n, max, randomizer, bestRandomizer, randomizer === null ? ties : -1, alg)]!.name;
}

/**
 * A uniform pick among the first `n` nodes tied for it (total `max`, and randomizer `bestRandomizer`
 * when there are randomizers; `ties` of them when known, else -1): one draw places it among the
 * ties, in node order. (It replaced
 * reservoir sampling, which drew once per tied node after the first: the same distribution, and
 * at 50,000 nodes 2,500 draws a pod.) Indexes only: a node's name is read once, for the pick.
 */
function uniformTiePick(
  totals: ArrayLike<number>,
  n: number,
  max: number,
  randomizer: Float64Array | null,
  bestRandomizer: number,
  ties: number,
  alg: Pick<AlgorithmState, 'random'>,
): number {
  let tied = ties;
  if (tied < 0) {
    tied = 0;
    for (let i = 0; i < n; i++) if (totals[i] === max && (randomizer === null || randomizer[i] === bestRandomizer)) tied++;
  }
  // min: a source that returns 1 (outside [0, 1)) still picks the last tie.
  const target = tied <= 1 ? 0 : Math.min(tied - 1, Math.floor(alg.random() * tied));
  // Sought from the nearer end: a quarter of the list on average rather than half.
  if (2 * target < tied) {
    let left = target;
    for (let i = 0; i < n; i++) {
      if (totals[i] !== max || (randomizer !== null && randomizer[i] !== bestRandomizer)) continue;
      if (left-- === 0) return i;
    }
  } else {
    let left = tied - 1 - target;
    for (let i = n - 1; i >= 0; i--) {
      if (totals[i] !== max || (randomizer !== null && randomizer[i] !== bestRandomizer)) continue;
      if (left-- === 0) return i;
    }
  }
  return -1;
}

/** The index container/heap's Init leaves at the root, for `less` = higher total, then higher randomizer. */
function heapTop(totals: ArrayLike<number>, randomizer: Float64Array | null): number {
  const n = totals.length;
  const h = new Int32Array(n);
  for (let i = 0; i < n; i++) h[i] = i;
  const less = (a: number, b: number): boolean => {
    const ta = totals[a]!;
    const tb = totals[b]!;
    if (ta !== tb) return ta > tb;
    return randomizer !== null && randomizer[a]! > randomizer[b]!;
  };
  for (let i0 = (n >> 1) - 1; i0 >= 0; i0--) {
    let i = i0;
    for (;;) {
      const j1 = 2 * i + 1;
      if (j1 >= n) break;
      let j = j1;
      if (j1 + 1 < n && less(h[j1 + 1]!, h[j1]!)) j = j1 + 1;
      if (!less(h[j]!, h[i]!)) break;
      const t = h[i]!;
      h[i] = h[j]!;
      h[j] = t;
      i = j;
    }
  }
  return h[0]!;
}

/** Opportunistic batching's part in one cycle: the pod's signature and the hint it got. */
interface BatchCycle {
  readonly batch: OpportunisticBatch;
  readonly signature: string | null;
  readonly cycleCount: number;
  hint: string;
}

/** The cycle's batching, or null when the profile does not batch (the gate is off) or no cycle count is given. */
function batchCycle(fwk: Framework, state: CycleState, pod: PodInfo, cycleCount: number | null): BatchCycle | null {
  if (fwk.batch === null || cycleCount === null) return null;
  const signature = fwk.podSigner!.signPod(pod);
  // A signed pod's ranking is stored with every plugin's answers, for rescoring.
  if (signature !== null) state.recordRawScores = true;
  return { batch: fwk.batch, signature, cycleCount, hint: '' };
}

/** The scored nodes but `host`, ranked as upstream's heap ranks them, with each plugin's answers. */
function rankingWithout(host: string, nodes: readonly NodeInfo[], s: NodeScores, byName: boolean): SortedScoredNodes {
  const columns = s.plugins ?? [];
  const rawNames = columns.map((c) => c.name);
  const list: ScoredCandidate[] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const raw = new Float64Array(columns.length);
    for (let j = 0; j < columns.length; j++) raw[j] = columns[j]!.raw?.[i] ?? 0;
    list[i] = { name: nodes[i]!.name, rawNames, rawValues: raw, totalScore: s.totals[i]! };
  }
  const ranking = new SortedScoredNodes(list, byName);
  ranking.remove(host);
  return ranking;
}
