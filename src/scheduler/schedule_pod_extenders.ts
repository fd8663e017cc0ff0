// schedulePod when HTTP extenders are configured (schedule_one.go: findNodesThatPassExtenders and
// the extender half of prioritizeNodes): the plugins decide first, then each interested extender
// in turn narrows the feasible nodes and adds its weighted scores. Extender calls are I/O, so
// this path is asynchronous; without extenders the synchronous schedulePod runs instead.
import type { Pod } from '../api/types.js';
import type { Snapshot } from '../cache/snapshot.js';
import type { CycleState } from '../framework/cycle_state.js';
import { Diagnosis, ErrNoNodesAvailable, FitError } from '../framework/fit_error.js';
import { MaxNodeScore } from '../framework/interfaces.js';
import type { NodeInfo } from '../framework/node_info.js';
import type { NodeToStatus } from '../framework/node_to_status.js';
import type { PodInfo } from '../framework/pod_info.js';
import type { Framework, NodePluginScores, PluginScore } from '../framework/runtime/framework.js';
import { Code, Status } from '../framework/status.js';
import { type Extender, ExtenderName, MaxExtenderPriority } from '../extender/extender.js';
import {
  type AlgorithmState,
  filterNominatedNode,
  prioritizeNodes,
  runFilterPhase,
  runPreFilterPhase,
  type ScheduleResult,
  selectHost,
} from './schedule_pod.js';

/** Reports an extender error that was skipped because the extender is ignorable. */
export type ExtenderLog = (msg: string) => void;

export async function schedulePodWithExtenders(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  snapshot: Snapshot,
  extenders: readonly Extender[],
  log: ExtenderLog,
): Promise<ScheduleResult> {
  const allNodes = snapshot.nodeInfoList;
  if (allNodes.length === 0) throw ErrNoNodesAvailable;
  const diagnosis = new Diagnosis();
  const feasible = await findNodesThatFitPod(alg, fwk, state, pod, snapshot, diagnosis, extenders, log);
  if (feasible.length === 0) throw new FitError(pod.pod, allNodes.length, diagnosis);
  if (feasible.length === 1) {
    const name = feasible[0]!.name;
    return { suggestedHost: name, evaluatedNodes: 1 + diagnosis.nodeToStatus.size, feasibleNodes: 1, scores: [], bestNodes: [name], diagnosis };
  }
  const record = alg.recordScores ?? true;
  const scores = pluginScores(fwk, state, pod, feasible, record);
  await addExtenderScores(extenders, pod.pod, feasible, scores, record, log);
  const { host, best } = selectHost(scores, alg);
  return {
    suggestedHost: host,
    evaluatedNodes: feasible.length + diagnosis.nodeToStatus.size,
    feasibleNodes: feasible.length,
    scores: record ? scores : [],
    bestNodes: record ? best : [host],
    diagnosis,
  };
}

async function findNodesThatFitPod(
  alg: AlgorithmState,
  fwk: Framework,
  state: CycleState,
  pod: PodInfo,
  snapshot: Snapshot,
  diagnosis: Diagnosis,
  extenders: readonly Extender[],
  log: ExtenderLog,
): Promise<NodeInfo[]> {
  const nodes = runPreFilterPhase(fwk, state, pod, snapshot, diagnosis);
  if (nodes === null) return [];
  const nominated = filterNominatedNode(alg, fwk, state, pod, snapshot, diagnosis);
  if (nominated.length > 0) {
    const passed = await findNodesThatPassExtenders(extenders, pod.pod, nominated, diagnosis.nodeToStatus, log);
    if (passed.length > 0) return passed;
    // The walk over all nodes may meet the nominated node again.
    diagnosis.nodeToStatus.allowRepeats();
  }
  const feasible = runFilterPhase(alg, fwk, state, pod, nodes, snapshot.nodeInfoList.length, diagnosis);
  const passed = await findNodesThatPassExtenders(extenders, pod.pod, feasible, diagnosis.nodeToStatus, log);
  // Extenders register no cluster events: a pod they rejected is retried on any event.
  if (passed.length !== feasible.length) diagnosis.unschedulablePlugins.add(ExtenderName);
  return passed;
}

/**
 * Each interested extender in configuration order narrows the nodes left by the one before; its
 * rejections are recorded per node (an unresolvable verdict wins over a plain one for the same
 * node). An error fails the attempt unless the extender is ignorable.
 */
export async function findNodesThatPassExtenders(
  extenders: readonly Extender[],
  pod: Pod,
  feasible: NodeInfo[],
  statuses: NodeToStatus,
  log: ExtenderLog,
): Promise<NodeInfo[]> {
  let nodes = feasible;
  for (const extender of extenders) {
    if (nodes.length === 0) break;
    if (!extender.isInterested(pod)) continue;
    let result;
    try {
      result = await extender.filter(pod, nodes);
    } catch (err) {
      if (!extender.isIgnorable()) throw err;
      log(`Skipping extender ${extender.name()} as it returned error and has ignorable flag set: ${(err as Error).message}`);
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

/** The plugins' scores; with no Score plugin every node starts at 0 and the extenders decide. */
function pluginScores(fwk: Framework, state: CycleState, pod: PodInfo, nodes: NodeInfo[], record: boolean): NodePluginScores[] {
  if (fwk.hasScorePlugins()) return prioritizeNodes(fwk, state, pod, nodes, record);
  const pre = fwk.runPreScorePlugins(state, pod, nodes);
  if (pre !== null && pre.code !== Code.Success) throw pre.asError();
  return nodes.map((n) => ({ name: n.name, scores: [], totalScore: 0 }));
}

/**
 * Adds every interested extender's scores, scaled from its 0..10 range to the plugins' 0..100 and
 * multiplied by its weight. The extenders are asked concurrently; one that fails gives no scores.
 */
async function addExtenderScores(
  extenders: readonly Extender[],
  pod: Pod,
  nodes: readonly NodeInfo[],
  scores: NodePluginScores[],
  record: boolean,
  log: ExtenderLog,
): Promise<void> {
  const interested = extenders.filter((e) => e.isInterested(pod));
  if (interested.length === 0) return;
  const answers = await Promise.all(interested.map((e) => e.prioritize(pod, nodes).catch((err: unknown) => {
    log(`Failed to run extender's priority function ${e.name()}, no score given by this extender: ${(err as Error).message}`);
    return null;
  })));
  const extra = new Map<string, { total: number; parts: PluginScore[] }>();
  for (let i = 0; i < interested.length; i++) {
    const answer = answers[i];
    if (!answer) continue;
    for (const { host, score } of answer.scores) {
      const points = score * answer.weight * (MaxNodeScore / MaxExtenderPriority);
      let e = extra.get(host);
      if (e === undefined) extra.set(host, (e = { total: 0, parts: [] }));
      e.total += points;
      if (record) e.parts.push({ name: interested[i]!.name(), score: points });
    }
  }
  for (const s of scores) {
    const e = extra.get(s.name);
    if (e === undefined) continue;
    s.totalScore += e.total;
    if (record) s.scores.push(...e.parts);
  }
}
