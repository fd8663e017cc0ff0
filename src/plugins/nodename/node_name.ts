// NodeName filters nodes other than the one the pod names
// (pkg/scheduler/framework/plugins/nodename/node_name.go).
import type { CycleState } from '../../framework/cycle_state.js';
import { ActionType, type ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, FilterPlugin, PreFilterOutcome, PreFilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { NodeName as Name } from '../../framework/names.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { NodeNameSignerName } from '../../framework/signers.js';

export { Name };

export const ErrReason = "node(s) didn't match the requested node name";
const otherNode = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReason);

/** True when the pod names no node, or names this one. */
function fits(pod: PodInfo, nodeInfo: NodeInfo): boolean {
  const wanted = pod.pod.spec.nodeName;
  return !wanted || wanted === nodeInfo.name;
}

export class NodeName implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  readonly name = Name;

  /** Feasibility follows spec.nodeName. */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [{ key: NodeNameSignerName, value: pod.pod.spec.nodeName ?? '' }];
  }

  /** A pod naming no node fits every node. */
  passesEveryNode(_state: CycleState, pod: PodInfo): boolean {
    return !pod.pod.spec.nodeName;
  }

  /**
   * A pod that already names its node (a deferred resize, a static assignment) is evaluated on
   * that node only (v1.37): the others are left UnschedulableAndUnresolvable, so they are never
   * preemption targets either.
   */
  preFilter(_state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    const wanted = pod.pod.spec.nodeName;
    return wanted ? { result: { nodeNames: new Set([wanted]) } } : null;
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(_state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    return fits(pod, nodeInfo) ? null : otherNode;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    // Only a new node can carry the requested name; no hint needed (always worth a retry).
    return [{ event: { resource: 'Node', actionType: ActionType.Add } }];
  }
}
