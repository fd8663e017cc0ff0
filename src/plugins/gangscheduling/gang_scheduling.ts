// GangScheduling: a gang's members wait in the queue until minCount of them exist, wait at Permit
// until minCount are scheduled, and a pod group's cycle stops as soon as minCount can no longer
// be reached (pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go). With the
// CompositePodGroup gate, a member of a group under a composite waits for its whole tree: each
// composite needs minGroupCount of its children ready, each PodGroup minCount of its members.
import { isCompositePodGroup, podGroupMinCount, type SchedulingGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import type { CycleState } from '../../framework/cycle_state.js';
import { ActionType, ActionTypeUpdate, type ClusterEventWithHint, QueueingHint } from '../../framework/events.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import type {
  EnqueueExtensions, GroupKey, Handle, PermitOutcome, PermitPlugin, PlacementFeasiblePlugin, PlacementProgress, PodGroupLister, PreEnqueuePlugin,
} from '../../framework/interfaces.js';
import type { Features } from '../../framework/features.js';
import { entityKeyString, type GroupHierarchy, groupHierarchy, rootInHierarchy, snapshotPodGroupMissing } from '../../framework/group_hierarchy.js';
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
  private readonly compositeEnabled: boolean;

  constructor(private readonly handle: Handle, features?: Pick<Features, 'enableCompositePodGroup'>) {
    this.compositeEnabled = features?.enableCompositePodGroup ?? false;
    const groups = handle.podGroups?.();
    if (!groups) throw new Error('GangScheduling needs the pod groups of the GenericWorkload feature');
    this.groups = groups;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    const events: ClusterEventWithHint[] = [
      { event: { resource: 'UnscheduledPod', actionType: ActionType.Add }, queueingHintFn: (pod, o, n) => this.afterPodAdded(pod, o, n) },
      { event: { resource: 'AssignedPod', actionType: ActionType.Add }, queueingHintFn: (pod, o, n) => this.afterPodAdded(pod, o, n) },
      { event: { resource: 'PodGroup', actionType: ActionType.Add }, queueingHintFn: (pod, _o, n) => this.afterPodGroupAdded(pod, n) },
      { event: { resource: 'PodGroup', actionType: ActionTypeUpdate }, queueingHintFn: (pod, o, n) => this.afterPodGroupUpdated(pod, o, n) },
    ];
    if (this.compositeEnabled) {
      events.push({ event: { resource: 'CompositePodGroup', actionType: ActionType.Add }, queueingHintFn: (pod, _o, n) => this.afterCompositePodGroupAdded(pod, n) });
    }
    return events;
  }

  /** A composite in the pod's tree may complete it. */
  private afterCompositePodGroupAdded(pod: Pod, newObj: unknown): QueueingHint {
    const objs = eventObjectsAs('CompositePodGroup', null, newObj);
    if (objs === null) return QueueingHint.Queue;
    const cpg = objs.newObj;
    const name = groupName(pod);
    if (!cpg || name === undefined) return QueueingHint.QueueSkip;
    return this.sameTree(pod, name, { kind: 'CompositePodGroup', namespace: cpg.metadata.namespace ?? 'default', name: cpg.metadata.name ?? '' }) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** areSameHierarchy: the pod's group and `target` have the same observed root (the same group, without the gate). */
  private sameTree(pod: Pod, name: string, target: GroupKey): boolean {
    const own: GroupKey = { kind: 'PodGroup', namespace: namespaceOf(pod), name };
    if (!this.compositeEnabled) return target.kind === 'PodGroup' && target.namespace === own.namespace && target.name === name;
    try {
      const a = this.groups.rootOf?.(own) ?? null;
      const b = this.groups.rootOf?.(target) ?? null;
      return a !== null && b !== null && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;
    } catch {
      return false;
    }
  }

  /** A new member of the same group may complete the quorum. */
  private afterPodAdded(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objs = eventObjectsAs('Pod', oldObj, newObj);
    if (objs === null) return QueueingHint.Queue;
    const added = objs.newObj;
    const name = groupName(pod);
    if (!added || name === undefined || groupName(added) === undefined) return QueueingHint.QueueSkip;
    const target: GroupKey = { kind: 'PodGroup', namespace: namespaceOf(added), name: groupName(added)! };
    return this.sameTree(pod, name, target) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  private afterPodGroupAdded(pod: Pod, newObj: unknown): QueueingHint {
    const objs = eventObjectsAs('PodGroup', null, newObj);
    if (objs === null) return QueueingHint.Queue;
    const pg = objs.newObj;
    const name = groupName(pod);
    if (!pg || name === undefined) return QueueingHint.QueueSkip;
    return this.sameTree(pod, name, { kind: 'PodGroup', namespace: namespaceOf(pg), name: pg.metadata.name ?? '' }) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** Only a gang whose minCount went down may now be ready. */
  private afterPodGroupUpdated(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objs = eventObjectsAs('PodGroup', oldObj, newObj);
    if (objs === null) return QueueingHint.Queue;
    const { oldObj: oldPg, newObj: newPg } = objs;
    const name = groupName(pod);
    if (!oldPg || !newPg || name === undefined) return QueueingHint.QueueSkip;
    if (!this.sameTree(pod, name, { kind: 'PodGroup', namespace: namespaceOf(newPg), name: newPg.metadata.name ?? '' })) return QueueingHint.QueueSkip;
    const before = oldPg.spec.schedulingPolicy.gang;
    const after = newPg.spec.schedulingPolicy.gang;
    if (!before || !after) return QueueingHint.QueueSkip;
    return after.minCount < before.minCount ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  preEnqueue(pod: Pod): Status | null {
    const name = groupName(pod);
    if (name === undefined) return null;
    const ns = namespaceOf(pod);
    if (this.compositeEnabled) return this.preEnqueueInHierarchy(ns, name);
    const pg = this.groups.podGroup(ns, name);
    if (!pg) return Status.unresolvable(`waiting for pods's pod group "${name}" to appear in scheduling queue`);
    const gang = pg.spec.schedulingPolicy.gang;
    if (!gang) return null;
    if (this.groups.allPodsCount(ns, name) < gang.minCount) return Status.unresolvable(waitingForQuorum);
    return null;
  }

  /** preEnqueueWithHierarchies: the member's tree, gathered as a snapshot, must have its quorum of members. */
  private preEnqueueInHierarchy(ns: string, name: string): Status | null {
    const h = groupHierarchy(this.groups, ns, name);
    if (typeof h === 'string') return Status.unresolvable(`failed to build hierarchy snapshot: ${h}`);
    const pg = snapshotPodGroupMissing(this.groups, ns, name, h) === null ? this.groups.podGroup(ns, name) : undefined;
    if (pg === undefined) return Status.unresolvable(`waiting for pods's pod group "${name}" to appear in scheduling queue`);
    const parent = pg.spec.parentCompositePodGroupName;
    const allPods = (k: GroupKey) => this.groups.allPodsCount(k.namespace, k.name);
    if (parent === undefined) {
      // With the gate, a basic group is a gang of one.
      return this.treeReady({ kind: 'PodGroup', namespace: ns, name }, allPods) ? null : Status.unresolvable(waitingForQuorum);
    }
    const root = this.rootAbove(h, ns, parent);
    if (root instanceof Status) return root;
    return this.treeReady(root, allPods) ? null : Status.unresolvable(`waiting for composite pod group "${root.name}" tree to meet quorum`);
  }

  permit(_state: CycleState, pod: PodInfo, _nodeName: string): PermitOutcome {
    const name = groupName(pod.pod);
    if (name === undefined) return { status: null, timeoutMs: 0 };
    const ns = pod.namespace;
    let h: GroupHierarchy | undefined;
    if (this.compositeEnabled) {
      const built = groupHierarchy(this.groups, ns, name);
      if (typeof built === 'string') return { status: Status.error(`failed to build hierarchy snapshot: ${built}`), timeoutMs: 0 };
      h = built;
    }
    const missing = snapshotPodGroupMissing(this.groups, ns, name, h);
    const pg = this.groups.podGroup(ns, name);
    if (missing !== null || !pg) return { status: Status.error(`failed to get podGroup ${ns}/${name}: ${missing ?? ''}`), timeoutMs: 0 };
    if (h !== undefined && pg.spec.parentCompositePodGroupName !== undefined) return this.permitInTree(h, ns, pg.spec.parentCompositePodGroupName);
    const gang = pg.spec.schedulingPolicy.gang;
    if (!gang) return { status: null, timeoutMs: 0 };
    if (this.groups.scheduledPodsCount(ns, name) < gang.minCount) {
      this.handle.activate?.(this.groups.unscheduledPods(ns, name));
      return { status: new Status(Code.Wait, ['waiting for minCount pods from a gang to be scheduled']), timeoutMs: permitTimeoutMs };
    }
    for (const member of this.groups.assumedPods(ns, name)) this.handle.getWaitingPod(member.metadata.uid ?? '')?.allow(Name);
    return { status: null, timeoutMs: 0 };
  }

  /** permitPodForHierarchy: the tree's scheduled members meet every quorum, or the member waits. */
  private permitInTree(h: GroupHierarchy, ns: string, parent: string): PermitOutcome {
    const root = this.rootAbove(h, ns, parent);
    // Permit reports any failure to find the root as an error.
    if (root instanceof Status) return { status: root.code === Code.Error ? root : Status.error(root.message()), timeoutMs: 0 };
    const scheduled = (k: GroupKey) => this.groups.scheduledPodsCount(k.namespace, k.name);
    if (!this.treeReady(root, scheduled)) {
      this.handle.activate?.(this.leaves(root).flatMap((k) => this.groups.unscheduledPods(k.namespace, k.name)));
      return { status: new Status(Code.Wait, [`waiting for composite pod group "${root.name}" tree to meet quorum`]), timeoutMs: permitTimeoutMs };
    }
    for (const k of this.leaves(root)) {
      for (const member of this.groups.assumedPods(k.namespace, k.name)) this.handle.getWaitingPod(member.metadata.uid ?? '')?.allow(Name);
    }
    return { status: null, timeoutMs: 0 };
  }

  /**
   * The root of the snapshot's tree above composite `start` (checkCPGHierarchyReadiness's first
   * half): a cycle is an Error status, a root outside the snapshot an unresolvable one.
   */
  private rootAbove(h: GroupHierarchy, ns: string, start: string): GroupKey | Status {
    const key: GroupKey = { kind: 'CompositePodGroup', namespace: ns, name: start };
    let root: GroupKey | null;
    try {
      root = rootInHierarchy(this.groups, h, key);
    } catch (err) {
      return Status.error(err as Error);
    }
    return root ?? Status.unresolvable(`failed to build hierarchy snapshot: composite pod group object not found in state for ${entityKeyString(key)}`);
  }

  /** isCPGTreeReady / isPGReady: minGroupCount children ready, each PodGroup with minCount members by `count`. */
  private treeReady(k: GroupKey, count: (k: GroupKey) => number): boolean {
    if (k.kind === 'PodGroup') {
      const pg = this.groups.podGroup(k.namespace, k.name);
      return pg !== undefined && count(k) >= podGroupMinCount(pg);
    }
    const cpg = this.groups.compositePodGroup?.(k.namespace, k.name);
    if (cpg === undefined) return false;
    const min = cpg.spec.schedulingPolicy.gang?.minGroupCount ?? 1;
    let ready = 0;
    for (const c of this.groups.childrenOf?.(k.namespace, k.name) ?? []) if (this.treeReady(c, count)) ready++;
    return ready >= min;
  }

  private leaves(k: GroupKey): GroupKey[] {
    return k.kind === 'PodGroup' ? [k] : (this.groups.childrenOf?.(k.namespace, k.name) ?? []).flatMap((c) => this.leaves(c));
  }

  placementFeasible(podGroup: SchedulingGroup, progress: PlacementProgress): Status | null {
    // getMinCount: a composite counts its children, a PodGroup its members.
    const minCount = isCompositePodGroup(podGroup) ? podGroup.spec.schedulingPolicy.gang?.minGroupCount ?? 1 : podGroupMinCount(podGroup);
    const { remaining, scheduled } = progress;
    if (remaining + scheduled < minCount) {
      return new Status(Code.Unschedulable, [`minCount (${minCount}) cannot be satisfied: ${scheduled} scheduled, ${remaining} remaining`]);
    }
    if (scheduled < minCount) return new Status(Code.Wait, [`minCount (${minCount}) is not yet satisfied: ${scheduled} scheduled, ${remaining} remaining`]);
    return null;
  }
}
