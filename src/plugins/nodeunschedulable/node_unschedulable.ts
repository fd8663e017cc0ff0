// NodeUnschedulable filters out cordoned nodes
// (pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go).
import type { Pod, Taint } from '../../api/types.js';
import { taintToleratedBy } from '../../api/taints.js';
import type { CycleState } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, FilterPlugin } from '../../framework/interfaces.js';
import { anyNodeInfoWasUnschedulable, type NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { NodeUnschedulable as Name } from '../../framework/names.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { TolerationsSignerName, tolerationsSigner } from '../../framework/signers.js';

export { Name };

/** Reason when the node object is missing from the NodeInfo. */
export const ErrReasonUnknownCondition = 'node(s) had unknown conditions';
/** Reason when the node is cordoned and the pod does not tolerate it. */
export const ErrReasonUnschedulable = 'node(s) were unschedulable';

const unknownCondition = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonUnknownCondition);
const nodeUnschedulable = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonUnschedulable);

/** The taint a cordoned node implies; tolerating it also tolerates spec.unschedulable. */
const unschedulableTaint: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

function toleratesUnschedulable(pod: Pod): boolean {
  return taintToleratedBy(unschedulableTaint, pod.spec.tolerations);
}

export class NodeUnschedulable implements FilterPlugin, EnqueueExtensions, SignPlugin {
  readonly name = Name;

  /** Feasibility and scores follow the pod's tolerations. */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [{ key: TolerationsSignerName, value: tolerationsSigner(pod.pod) }];
  }

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const node = nodeInfo.node;
    if (node === null) return unknownCondition;
    // The flag spares most nodes a look into the Node object.
    if (!nodeInfo.unschedulable) return null;
    return toleratesUnschedulable(pod.pod) ? null : nodeUnschedulable;
  }

  /** While no node was ever cordoned, or when the pod tolerates it, only a missing Node rejects. */
  passesEveryNode(_state: CycleState, pod: PodInfo): boolean {
    return !anyNodeInfoWasUnschedulable() || toleratesUnschedulable(pod.pod);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      // A change of spec.unschedulable is reported as a taint update.
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeTaint }, queueingHintFn: isSchedulableAfterNodeChange },
      { event: { resource: 'Pod', actionType: ActionType.UpdatePodToleration }, queueingHintFn: isSchedulableAfterPodTolerationChange },
    ];
  }
}

/** Queues when a node is added schedulable or is uncordoned. */
export function isSchedulableAfterNodeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('Node', oldObj, newObj);
  if (objects?.newObj == null) return QueueingHint.Queue;
  const { oldObj: original, newObj: modified } = objects;
  if (modified.spec?.unschedulable) return QueueingHint.QueueSkip;
  if (original === null || original.spec?.unschedulable) return QueueingHint.Queue;
  return QueueingHint.QueueSkip;
}

/**
 * Queues when the rejected pod itself gains a toleration of the unschedulable taint. Tolerations
 * can only be added, so the old pod need not be checked.
 */
export function isSchedulableAfterPodTolerationChange(pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
  const modified = eventObjectsAs('Pod', null, newObj)?.newObj;
  if (!modified) return QueueingHint.Queue;
  if (modified.metadata.uid !== pod.metadata.uid) return QueueingHint.QueueSkip;
  return toleratesUnschedulable(modified) ? QueueingHint.Queue : QueueingHint.QueueSkip;
}
