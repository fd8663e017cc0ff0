// The queue's pod-group bookkeeping (backend/queue/pod_group_member_pods.go and the entity half of
// scheduling_queue.go): members waiting for their PodGroup object (incomplete), members arriving
// while their group is in flight (pending), and the entity a group's queued members form.
import { podGroupKey, podGroupKeyOfPod } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import type { GroupKey, GroupTree, QueuedPodGroup, QueuedPodInfo } from '../framework/interfaces.js';

const entityKeyPrefix = 'podgroup:';

/** The queue key of a root group's entity (fwk.PodGroupKey, fwk.CompositePodGroupKey). */
export function entityKeyOfRoot(root: GroupKey): string {
  return `${root.kind === 'PodGroup' ? entityKeyPrefix : 'compositepodgroup:'}${podGroupKey(root.namespace, root.name)}`;
}

/** The key of the PodGroup the pod names (members held for their group wait under it), or null outside any group. */
export function entityKeyOfPod(pod: Pod): string | null {
  const k = podGroupKeyOfPod(pod);
  return k === null ? null : entityKeyPrefix + k;
}

export function entityKeyOf(qp: QueuedPodInfo): string | null {
  return entityKeyOfPod(qp.podInfo.pod);
}

/** Members by group key, in arrival order. */
export class MemberPods {
  private readonly byGroup = new Map<string, Map<string, QueuedPodInfo>>();

  add(key: string, qp: QueuedPodInfo): void {
    let m = this.byGroup.get(key);
    if (!m) {
      m = new Map();
      this.byGroup.set(key, m);
    }
    m.set(qp.podInfo.uid, qp);
  }

  take(key: string): QueuedPodInfo[] {
    const m = this.byGroup.get(key);
    this.byGroup.delete(key);
    return m ? [...m.values()] : [];
  }

  delete(key: string, uid: string): QueuedPodInfo | undefined {
    const m = this.byGroup.get(key);
    const qp = m?.get(uid);
    if (!qp) return undefined;
    m!.delete(uid);
    if (m!.size === 0) this.byGroup.delete(key);
    return qp;
  }

  get(key: string, uid: string): QueuedPodInfo | undefined {
    return this.byGroup.get(key)?.get(uid);
  }

  *all(): IterableIterator<QueuedPodInfo> {
    for (const m of this.byGroup.values()) yield* m.values();
  }

  get size(): number {
    let n = 0;
    for (const m of this.byGroup.values()) n += m.size;
    return n;
  }
}

/** Members by priority (highest first), attempts (most first), queue time, then name (PodGroupMemberPodsOrderingFunc). */
function memberOrder(a: QueuedPodInfo, b: QueuedPodInfo): number {
  if (a.podInfo.priority !== b.podInfo.priority) return b.podInfo.priority - a.podInfo.priority;
  if (a.attempts !== b.attempts) return b.attempts - a.attempts;
  if (a.timestamp !== b.timestamp) return a.timestamp - b.timestamp;
  return a.podInfo.name < b.podInfo.name ? -1 : a.podInfo.name > b.podInfo.name ? 1 : 0;
}

/** Adds a member to the entity in order; the entity's podInfo is its first member's. */
export function addMember(entity: QueuedPodInfo, qp: QueuedPodInfo): void {
  const g = entity.group!;
  let i = 0;
  while (i < g.members.length && memberOrder(g.members[i]!, qp) <= 0) i++;
  g.members.splice(i, 0, qp);
  entity.podInfo = g.members[0]!.podInfo;
}

/** Removes a member; false when the entity has no member left. */
export function removeMember(entity: QueuedPodInfo, uid: string): QueuedPodInfo | undefined {
  const g = entity.group!;
  const i = g.members.findIndex((m) => m.podInfo.uid === uid);
  if (i < 0) return undefined;
  const [qp] = g.members.splice(i, 1);
  if (g.members.length > 0) entity.podInfo = g.members[0]!.podInfo;
  return qp;
}

/** The PodGroups of a tree, depth first. */
export function leavesOf(tree: GroupTree): GroupTree[] {
  return tree.kind === 'PodGroup' ? [tree] : tree.children.flatMap(leavesOf);
}

/** Points the entity at a root's current tree and objects. */
export function setTree(group: QueuedPodGroup, tree: GroupTree): void {
  group.tree = tree;
  group.podGroup = tree.podGroup;
  group.compositePodGroup = tree.compositePodGroup;
}

/** A new entity for a root group, queued at its first member's time (newQueuedPodGroupInfoFromRootLookup). */
export function newEntity(tree: GroupTree, first: QueuedPodInfo): QueuedPodInfo {
  const group: QueuedPodGroup = {
    key: entityKeyOfRoot(tree), kind: tree.kind, namespace: tree.namespace, name: tree.name, tree, members: [first],
  };
  setTree(group, tree);
  return {
    podInfo: first.podInfo,
    timestamp: first.timestamp,
    attempts: 0,
    initialAttemptTimestamp: first.initialAttemptTimestamp,
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: null,
    sequence: first.sequence,
    group,
  };
}
