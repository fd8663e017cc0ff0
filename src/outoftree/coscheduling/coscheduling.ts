// scheduler-plugins' pkg/coscheduling/coscheduling.go: gangs of pods joined by a PodGroup CRD.
import {
  ActionType, ActionTypeUpdate, Status, type ClusterEventWithHint, type CycleState, type EnqueueExtensions, type Handle, type NodeToStatusReader, type PermitOutcome,
  type PermitPlugin, type PodInfo, type PostFilterOutcome, type PostFilterPlugin, type PreFilterOutcome, type PreFilterPlugin, type QueuedPodInfo,
  type QueueSortPlugin, type ReservePlugin,
} from '../../plugin.js';
import { PodGroupManager, type CoschedulingSource } from './manager.js';
import { podGroupFullName, podGroupLabel, waitTimeMs } from './types.js';
import { PodGroupKind } from './handle_source.js';

export const Name = 'Coscheduling';

/** CoschedulingArgs (scheduler-plugins apis/config, v1 defaults). */
export interface CoschedulingArgs {
  permitWaitingTimeSeconds: number;
  podGroupBackoffSeconds: number;
}

/** Below this share of minMember still unplaced, PostFilter keeps the waiting members (upstream's 10%). */
const smallGap = 0.1;

export class Coscheduling implements QueueSortPlugin, PreFilterPlugin, PostFilterPlugin, PermitPlugin, ReservePlugin, EnqueueExtensions {
  readonly name = Name;
  private readonly mgr: PodGroupManager;
  private readonly scheduleTimeoutMs: number;
  private readonly backoffMs: number;

  constructor(private readonly handle: Handle, args: CoschedulingArgs, source: CoschedulingSource) {
    this.scheduleTimeoutMs = args.permitWaitingTimeSeconds * 1000;
    this.backoffMs = args.podGroupBackoffSeconds * 1000;
    this.mgr = new PodGroupManager(source, () => handle.snapshotSharedLister(), this.scheduleTimeoutMs, () => handle.now());
  }

  // A new pod may complete a group; a PodGroup created or changed (its minMember, its timeout) may
  // let its waiting members through (upstream's event on podgroups.v1alpha1.scheduling.x-k8s.io).
  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Pod', actionType: ActionType.Add } },
      { event: { resource: PodGroupKind, actionType: ActionType.Add | ActionTypeUpdate } },
    ];
  }

  /** Higher priority first, then the earlier PodGroup (or pod) creation, then namespace/name. */
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const pa = a.podInfo.priority;
    const pb = b.podInfo.priority;
    if (pa !== pb) return pa > pb;
    const ta = this.mgr.creationTime(a.podInfo.pod, a.initialAttemptTimestamp ?? a.timestamp);
    const tb = this.mgr.creationTime(b.podInfo.pod, b.initialAttemptTimestamp ?? b.timestamp);
    if (ta === tb) return namespacedName(a.podInfo) < namespacedName(b.podInfo);
    return ta < tb;
  }

  // Unresolvable: preemption cannot make a group complete or a recently failed group ready.
  preFilter(_state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    const reason = this.mgr.preFilter(pod.pod);
    return reason === null ? null : { status: Status.unresolvable(reason) };
  }

  preFilterExtensions(): null {
    return null;
  }

  /** Rejects the group's waiting members when this one failed and the group is still far from minMember. */
  postFilter(_state: CycleState, pod: PodInfo, _statuses: NodeToStatusReader): PostFilterOutcome {
    const { fullName, pg } = this.mgr.podGroupOf(pod.pod);
    if (pg === undefined) return { result: null, status: Status.unschedulable('can not find pod group') };
    const minMember = pg.spec.minMember ?? 0;
    const assigned = this.mgr.assignedPods(pg.metadata.name ?? '', pod.namespace);
    if (assigned >= minMember) return { result: null, status: Status.unschedulable() };
    if ((minMember - assigned) / minMember <= smallGap) return { result: null, status: Status.unschedulable() };
    this.rejectWaiting(pod, pg.metadata.name ?? '', 'optimistic rejection in PostFilter');
    if (this.backoffMs > 0 && this.mgr.memberPods(pod.pod).length >= minMember) this.mgr.backoff(fullName, this.backoffMs);
    this.mgr.deletePermitted(fullName);
    return {
      result: null,
      status: Status.unschedulable(`PodGroup ${fullName} gets rejected due to Pod ${pod.pod.metadata.name} is unschedulable even after PostFilter`),
    };
  }

  /** Holds a member until minMember of its group have a node, then lets them all through. */
  permit(state: CycleState, pod: PodInfo, _nodeName: string): PermitOutcome {
    const { decision, activateSiblings } = this.mgr.permit(pod.pod);
    switch (decision) {
      case 'PodGroup not specified':
        return { status: null, timeoutMs: 0 };
      case 'PodGroup not found':
        return { status: Status.unschedulable('PodGroup not found'), timeoutMs: 0 };
      case 'Wait': {
        const wait = waitTimeMs(this.mgr.podGroupOf(pod.pod).pg, this.scheduleTimeoutMs);
        // The group's first placed member brings its siblings back from the unschedulable pods.
        if (activateSiblings) {
          for (const p of this.mgr.memberPods(pod.pod)) if (p.metadata.uid !== pod.uid) state.podsToActivate.set(`${p.metadata.namespace}/${p.metadata.name}`, p);
        }
        return { status: Status.wait(), timeoutMs: wait !== 0 ? wait : this.scheduleTimeoutMs };
      }
      case 'Success': {
        const fullName = podGroupFullName(pod.pod);
        this.handle.iterateOverWaitingPods((wp) => {
          if (podGroupFullName(wp.pod) === fullName) wp.allow(Name);
        });
        return { status: null, timeoutMs: 0 };
      }
    }
  }

  reserve(): null {
    return null;
  }

  /** One member failing after Reserve (a Permit timeout, a bind error) rejects the group's waiting members. */
  unreserve(_state: CycleState, pod: PodInfo, _nodeName: string): void {
    const { fullName, pg } = this.mgr.podGroupOf(pod.pod);
    if (pg === undefined) return;
    this.rejectWaiting(pod, pg.metadata.name ?? '', 'rejection in Unreserve');
    this.mgr.deletePermitted(fullName);
  }

  private rejectWaiting(pod: PodInfo, groupName: string, message: string): void {
    this.handle.iterateOverWaitingPods((wp) => {
      if ((wp.pod.metadata.namespace ?? 'default') === pod.namespace && podGroupLabel(wp.pod) === groupName) wp.reject(Name, message);
    });
  }
}

function namespacedName(pi: PodInfo): string {
  return `${pi.namespace}/${pi.pod.metadata.name}`;
}
