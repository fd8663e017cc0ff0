// TaintToleration filters nodes with untolerated NoSchedule/NoExecute taints and prefers nodes
// with fewer untolerated PreferNoSchedule taints
// (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go).
import type { Pod, Taint, Toleration } from '../../api/types.js';
import { findUntoleratedTaint, taintToleratedBy } from '../../api/taints.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import { defaultNormalizeScore, MaxNodeScore } from '../../framework/helpers/normalize.js';
import type {
  EnqueueExtensions,
  FilterPlugin,
  NodeScore,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
} from '../../framework/interfaces.js';
import { anyNodeInfoHadTaints, type NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { TaintToleration as Name } from '../../framework/names.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { deferredFragment, TolerationsSignerName, tolerationsSigner } from '../../framework/signers.js';

/** Filter's reason for a node with a NoSchedule/NoExecute taint the pod does not tolerate. */
const ErrReasonUntoleratedTaint = 'node(s) had untolerated taint(s)';
const untoleratedTaint = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonUntoleratedTaint);

export { Name };

const preScoreStateKey = 'PreScore' + Name;

/** Only NoSchedule and NoExecute taints keep a pod off a node (helper.DoNotScheduleTaintsFilterFunc). */
function doNotScheduleTaint(t: Taint): boolean {
  return t.effect === 'NoSchedule' || t.effect === 'NoExecute';
}

/** The pod's tolerations that can tolerate PreferNoSchedule taints (those with that or no effect). */
class PreScoreState implements StateData {
  constructor(readonly tolerationsPreferNoSchedule: readonly Toleration[]) {}

  clone(): StateData {
    return this;
  }
}

/** The node's PreferNoSchedule taints that none of `tolerations` tolerates. */
function countIntolerable(nodeInfo: NodeInfo, tolerations: readonly Toleration[]): number {
  if (!nodeInfo.hasTaints()) return 0;
  const taints = nodeInfo.node?.spec?.taints;
  if (!taints) return 0;
  let intolerable = 0;
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i]!;
    if (t.effect === 'PreferNoSchedule' && !taintToleratedBy(t, tolerations)) intolerable++;
  }
  return intolerable;
}

export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions, SignPlugin {
  readonly name = Name;

  /** Feasibility and scores follow the pod's tolerations. */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [deferredFragment(TolerationsSignerName, tolerationsSigner, pod.pod)];
  }

  /** While no node ever had taints, only a missing Node rejects. */
  passesEveryNode(): boolean {
    return !anyNodeInfoHadTaints();
  }

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const node = nodeInfo.node;
    if (node === null) return Status.error('node not found');
    if (!nodeInfo.hasTaints()) return null;
    if (findUntoleratedTaint(node.spec?.taints, pod.pod.spec.tolerations, doNotScheduleTaint) === undefined) return null;
    // The reason does not name the taint (so already in v1.34): one reason for all such nodes
    // keeps the FitError message short.
    return untoleratedTaint;
  }

  preScore(state: CycleState, pod: PodInfo): Status | null {
    const preferNoSchedule: Toleration[] = [];
    for (const t of pod.pod.spec.tolerations ?? []) {
      if (!t.effect || t.effect === 'PreferNoSchedule') preferNoSchedule.push(t);
    }
    state.write(preScoreStateKey, new PreScoreState(preferNoSchedule));
    return null;
  }

  score(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (s === undefined) return Status.error(`failed to read "${preScoreStateKey}" from cycleState: not found`);
    return countIntolerable(nodeInfo, s.tolerationsPreferNoSchedule);
  }

  /** Without a tainted node every count is 0, which the reversed normalization turns into the maximum. */
  uniformScore(state: CycleState, _pod: PodInfo, nodes: readonly NodeInfo[]): number | null {
    if (state.read<PreScoreState>(preScoreStateKey) === undefined) return null;
    // Where no node ever had taints (most benchmarks) there is nothing to walk.
    if (anyNodeInfoHadTaints()) for (let i = 0; i < nodes.length; i++) if (nodes[i]!.hasTaints()) return null;
    return MaxNodeScore;
  }

  scoreNodes(state: CycleState, _pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null {
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (s === undefined) return Status.error(`failed to read "${preScoreStateKey}" from cycleState: not found`);
    const tolerations = s.tolerationsPreferNoSchedule;
    for (let i = 0; i < nodes.length; i++) out[i]!.score = countIntolerable(nodes[i]!, tolerations);
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  /** More intolerable taints means a lower score. */
  normalizeScore(_state: CycleState, _pod: PodInfo, scores: NodeScore[]): Status | null {
    defaultNormalizeScore(MaxNodeScore, true, scores);
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeTaint }, queueingHintFn: isSchedulableAfterNodeChange },
      { event: { resource: 'Pod', actionType: ActionType.UpdatePodToleration }, queueingHintFn: isSchedulableAfterPodTolerationChange },
    ];
  }
}

/** Queues when the node goes from having an untolerated taint (or not existing) to having none. */
export function isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('Node', oldObj, newObj);
  if (objects?.newObj == null) return QueueingHint.Queue;
  const { oldObj: original, newObj: modified } = objects;
  const tolerations = pod.spec.tolerations;
  const wasUntolerated =
    original === null || findUntoleratedTaint(original.spec?.taints, tolerations, doNotScheduleTaint) !== undefined;
  const isUntolerated = findUntoleratedTaint(modified.spec?.taints, tolerations, doNotScheduleTaint) !== undefined;
  return wasUntolerated && !isUntolerated ? QueueingHint.Queue : QueueingHint.QueueSkip;
}

/** Queues when the rejected pod itself gains tolerations; other pods' updates are irrelevant. */
export function isSchedulableAfterPodTolerationChange(pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
  const modified = eventObjectsAs('Pod', null, newObj)?.newObj;
  if (!modified) return QueueingHint.Queue;
  return modified.metadata.uid === pod.metadata.uid ? QueueingHint.Queue : QueueingHint.QueueSkip;
}
