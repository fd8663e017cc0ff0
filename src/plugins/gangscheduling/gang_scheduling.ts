// GangScheduling: a gang's members wait in the queue until minCount of them exist, wait at Permit
// until minCount are scheduled, and a pod group's cycle stops as soon as minCount can no longer
// be reached (pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go, without
// CompositePodGroup).
import type { PodGroup } from '../../api/scheduling.js';
import { podGroupMinCount } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import type { CycleState } from '../../framework/cycle_state.js';
import { ActionType, ActionTypeUpdate, type ClusterEventWithHint, QueueingHint } from '../../framework/events.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import type {
  EnqueueExtensions, Handle, PermitOutcome, PermitPlugin, PlacementFeasiblePlugin, PlacementProgress, PodGroupLister, PreEnqueuePlugin,
} from '../../framework/interfaces.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';

export const Name = 'GangScheduling';

/** How long a gang member waits at Permit for the rest of its gang. */
const permitTimeoutMs = 5 * 60 * 1000;

/** PreEnqueue's reason while a gang has fewer than minCount members. */
export const waitingForQuorum = 'waiting for minCount pods from a gang to appear in scheduling queue';

const groupName = (pod: Pod): string | undefined => pod.spec.schedulingGroup?.podGroupName;
const namespaceOf = (o: { metadata?: { namespace?: string } }): string => o.metadata?.namespace ?? 'default';

export class GangScheduling implements PreEnqueuePlugin, PermitPlugin, PlacementFeasiblePlugin, EnqueueExtensions {
  readonly name = Name;
  private readonly groups: PodGroupLister;

  constructor(private readonly handle: Handle) {
    const groups = handle.podGroups?.();
    if (!groups) throw new Error('GangScheduling needs the pod groups of the GenericWorkload feature');
    this.groups = groups;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'UnscheduledPod', actionType: ActionType.Add }, queueingHintFn: (pod, o, n) => this.afterPodAdded(pod, o, n) },
      { event: { resource: 'AssignedPod', actionType: ActionType.Add }, queueingHintFn: (pod, o, n) => this.afterPodAdded(pod, o, n) },
      { event: { resource: 'PodGroup', actionType: ActionType.Add }, queueingHintFn: (pod, _o, n) => this.afterPodGroupAdded(pod, n) },
      { event: { resource: 'PodGroup', actionType: ActionTypeUpdate }, queueingHintFn: (pod, o, n) => this.afterPodGroupUpdated(pod, o, n) },
    ];
  }

  /** A new member of the same group may complete the quorum. */
  private afterPodAdded(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objs = eventObjectsAs('Pod', oldObj, newObj);
    if (objs === null) return QueueingHint.Queue;
    const added = objs.newObj;
    const name = groupName(pod);
    if (!added || name === undefined || groupName(added) === undefined) return QueueingHint.QueueSkip;
    return namespaceOf(added) === namespaceOf(pod) && groupName(added) === name ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  private afterPodGroupAdded(pod: Pod, newObj: unknown): QueueingHint {
    const objs = eventObjectsAs('PodGroup', null, newObj);
    if (objs === null) return QueueingHint.Queue;
    const pg = objs.newObj;
    const name = groupName(pod);
    if (!pg || name === undefined) return QueueingHint.QueueSkip;
    return namespaceOf(pg) === namespaceOf(pod) && pg.metadata.name === name ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** Only a gang whose minCount went down may now be ready. */
  private afterPodGroupUpdated(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objs = eventObjectsAs('PodGroup', oldObj, newObj);
    if (objs === null) return QueueingHint.Queue;
    const { oldObj: oldPg, newObj: newPg } = objs;
    const name = groupName(pod);
    if (!oldPg || !newPg || name === undefined) return QueueingHint.QueueSkip;
    if (namespaceOf(newPg) !== namespaceOf(pod) || newPg.metadata.name !== name) return QueueingHint.QueueSkip;
    const before = oldPg.spec.schedulingPolicy.gang;
    const after = newPg.spec.schedulingPolicy.gang;
    if (!before || !after) return QueueingHint.QueueSkip;
    return after.minCount < before.minCount ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  preEnqueue(pod: Pod): Status | null {
    const name = groupName(pod);
    if (name === undefined) return null;
    const ns = namespaceOf(pod);
    const pg = this.groups.podGroup(ns, name);
    if (!pg) return new Status(Code.UnschedulableAndUnresolvable, [`waiting for pods's pod group "${name}" to appear in scheduling queue`]);
    const gang = pg.spec.schedulingPolicy.gang;
    if (!gang) return null;
    if (this.groups.allPodsCount(ns, name) < gang.minCount) return new Status(Code.UnschedulableAndUnresolvable, [waitingForQuorum]);
    return null;
  }

  permit(_state: CycleState, pod: PodInfo, _nodeName: string): PermitOutcome {
    const name = groupName(pod.pod);
    if (name === undefined) return { status: null, timeoutMs: 0 };
    const ns = pod.namespace;
    const pg = this.groups.podGroup(ns, name);
    if (!pg) return { status: Status.error(`failed to get podGroup ${ns}/${name}: podgroup.scheduling.k8s.io "${name}" not found`), timeoutMs: 0 };
    const gang = pg.spec.schedulingPolicy.gang;
    if (!gang) return { status: null, timeoutMs: 0 };
    if (this.groups.scheduledPodsCount(ns, name) < gang.minCount) {
      this.handle.activate?.(this.groups.unscheduledPods(ns, name));
      return { status: new Status(Code.Wait, ['waiting for minCount pods from a gang to be scheduled']), timeoutMs: permitTimeoutMs };
    }
    for (const member of this.groups.assumedPods(ns, name)) this.handle.getWaitingPod(member.metadata.uid ?? '')?.allow(Name);
    return { status: null, timeoutMs: 0 };
  }

  placementFeasible(podGroup: PodGroup, progress: PlacementProgress): Status | null {
    const minCount = podGroupMinCount(podGroup);
    const { remaining, scheduled } = progress;
    if (remaining + scheduled < minCount) {
      return new Status(Code.Unschedulable, [`minCount (${minCount}) cannot be satisfied: ${scheduled} scheduled, ${remaining} remaining`]);
    }
    if (scheduled < minCount) return new Status(Code.Wait, [`minCount (${minCount}) is not yet satisfied: ${scheduled} scheduled, ${remaining} remaining`]);
    return null;
  }
}
