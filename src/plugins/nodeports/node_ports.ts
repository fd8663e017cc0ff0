// NodePorts filters nodes where a host port the pod wants is already in use
// (pkg/scheduler/framework/plugins/nodeports/node_ports.go).
import type { ContainerPort, Pod } from '../../api/types.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, FilterPlugin, PreFilterOutcome, PreFilterPlugin } from '../../framework/interfaces.js';
import { getHostPorts, HostPortInfo, podHostPorts, type NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { NodePorts as Name } from '../../framework/names.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { deferredFragment, HostPortsSignerName, hostPortsSigner } from '../../framework/signers.js';

export { Name };

const preFilterStateKey = 'PreFilter' + Name;

export const ErrReason = "node(s) didn't have free ports for the requested pod ports";
const portsInUse = Status.constant(Code.Unschedulable, Name, ErrReason);

/** The host ports the pod wants; not affected by other pods, so clone shares it. */
class PreFilterState implements StateData {
  constructor(readonly wantPorts: readonly ContainerPort[]) {}

  clone(): StateData {
    return this;
  }
}

/** True when none of `wantPorts` conflicts with the ports in use. */
function fitsPorts(wantPorts: readonly ContainerPort[], portsInUse: HostPortInfo): boolean {
  for (let i = 0; i < wantPorts.length; i++) {
    const p = wantPorts[i]!;
    if (portsInUse.checkConflict(p.hostIP, p.protocol, p.hostPort!)) return false;
  }
  return true;
}

export class NodePorts implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  readonly name = Name;

  /** Feasibility follows the host ports the containers ask for. */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [deferredFragment(HostPortsSignerName, hostPortsSigner, pod.pod)];
  }

  preFilter(state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    // Kept on the PodInfo: the assumed pod's NodeInfo.addPod reads the same list.
    const ports = podHostPorts(pod);
    if (ports.length === 0) return { status: Status.skip() };
    state.write(preFilterStateKey, new PreFilterState(ports));
    return null;
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const s = state.read<PreFilterState>(preFilterStateKey);
    if (s === undefined) return Status.error(`reading "${preFilterStateKey}" from cycleState: not found`);
    return fitsPorts(s.wantPorts, nodeInfo.usedPorts) ? null : portsInUse;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      // Container ports are immutable, so only a deleted pod can free a port.
      { event: { resource: 'Pod', actionType: ActionType.Delete }, queueingHintFn: isSchedulableAfterPodDeleted },
      // A new node always deserves a retry; no hint needed.
      { event: { resource: 'Node', actionType: ActionType.Add } },
    ];
  }
}

/** Queues when the deleted pod was bound (or nominated) and held a host port the pod wants. */
export function isSchedulableAfterPodDeleted(pod: Pod, oldObj: unknown): QueueingHint {
  const deleted = eventObjectsAs('Pod', oldObj, null)?.oldObj;
  if (!deleted) return QueueingHint.Queue;
  if (!deleted.spec?.nodeName && !deleted.status?.nominatedNodeName) return QueueingHint.QueueSkip;
  const ports = getHostPorts(deleted);
  if (ports.length === 0) return QueueingHint.QueueSkip;
  const inUse = new HostPortInfo();
  for (const p of ports) inUse.add(p.hostIP, p.protocol, p.hostPort!);
  return fitsPorts(getHostPorts(pod), inUse) ? QueueingHint.QueueSkip : QueueingHint.Queue;
}
