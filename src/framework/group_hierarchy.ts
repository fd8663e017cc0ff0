// The tree of a member's group as plugins read it with the CompositePodGroup gate
// (backend/cache/cache.go BuildHierarchySnapshotFromPod, snapshot.go GetRootKeyForGroup and its
// listers): up from the pod's PodGroup through at most three composites, then down through the
// observed children; and why not, in upstream's words.
import type { GroupKey, PodGroupLister } from './interfaces.js';

/** How deep a workload's group tree may go (WorkloadMaxTreeDepth): the walk up visits one less. */
const workloadMaxTreeDepth = 4;

/** fwk.EntityKey.String(): "podgroup/ns/name" or "compositepodgroup/ns/name". */
export function entityKeyString(k: GroupKey): string {
  return `${k.kind === 'PodGroup' ? 'podgroup' : 'compositepodgroup'}/${k.namespace}/${k.name}`;
}

const podGroupRef = (namespace: string, name: string): GroupKey => ({ kind: 'PodGroup', namespace, name });
const compositeRef = (namespace: string, name: string): GroupKey => ({ kind: 'CompositePodGroup', namespace, name });

/**
 * Whether the cache holds a state for the group: a PodGroup's lives while it has its object or a
 * member pod, a composite's while it has its object or an observed child (a placeholder).
 */
function hasState(groups: PodGroupLister, k: GroupKey): boolean {
  if (k.kind === 'PodGroup') return groups.podGroup(k.namespace, k.name) !== undefined || groups.allPodsCount(k.namespace, k.name) > 0;
  return groups.compositePodGroup?.(k.namespace, k.name) !== undefined || (groups.childrenOf?.(k.namespace, k.name).length ?? 0) > 0;
}

/** The groups a hierarchy snapshot holds: everything under `root`, where the walk up stopped. */
export interface GroupHierarchy {
  readonly root: GroupKey;
  /** entityKeyString of each group under root, root included. */
  readonly keys: ReadonlySet<string>;
}

/**
 * BuildHierarchySnapshotFromPod for a member of PodGroup `name`: the groups under the root, or
 * why they cannot be gathered (callers prefix "failed to build hierarchy snapshot: ").
 */
export function groupHierarchy(groups: PodGroupLister, namespace: string, name: string): GroupHierarchy | string {
  let current = podGroupRef(namespace, name);
  if (!hasState(groups, current)) return `pod group state not found for ${entityKeyString(current)}`;
  const pg = groups.podGroup(namespace, name);
  if (pg === undefined) return `pod group object not found in state for ${entityKeyString(current)}`;
  let parent = pg.spec.parentCompositePodGroupName;
  if (parent !== undefined) {
    current = compositeRef(namespace, parent);
    // Bounded, so a cycle above ends here and is reported by the walk down.
    for (let i = 0; i < workloadMaxTreeDepth - 1; i++) {
      if (!hasState(groups, current)) return `parent composite pod group state not found for ${entityKeyString(current)}`;
      const cpg = groups.compositePodGroup?.(namespace, current.name);
      if (cpg === undefined) return `composite pod group object not found in state for ${entityKeyString(current)}`;
      parent = cpg.spec.parentCompositePodGroupName;
      if (parent === undefined) break;
      current = compositeRef(namespace, parent);
    }
  }
  const keys = new Set<string>();
  const why = gather(groups, current, keys);
  return why ?? { root: current, keys };
}

/** buildPodGroupStateSnapshotTree: adds `k` and its observed subtree to `keys`; why not. */
function gather(groups: PodGroupLister, k: GroupKey, keys: Set<string>): string | null {
  const s = entityKeyString(k);
  if (keys.has(s)) return `cycle detected in composite pod group hierarchy: ${s}`;
  keys.add(s);
  if (!hasState(groups, k)) return `${k.kind === 'PodGroup' ? 'pod group' : 'composite pod group'} state not found for ${s}`;
  if (k.kind === 'PodGroup') return null;
  for (const child of groups.childrenOf?.(k.namespace, k.name) ?? []) {
    const why = gather(groups, child, keys);
    if (why !== null) return why;
  }
  return null;
}

/**
 * The snapshot's GetRootKeyForGroup: the root above `key` among the snapshot's groups; null when
 * a group on the way is outside it or has no object; a cycle throws upstream's error.
 */
export function rootInHierarchy(groups: PodGroupLister, h: GroupHierarchy, key: GroupKey): GroupKey | null {
  const visited: string[] = [];
  let current = key;
  for (;;) {
    const s = entityKeyString(current);
    if (visited.includes(s)) throw new Error(`cycle detected in the hierarchy: [${visited.join(' ')}]`);
    visited.push(s);
    if (!h.keys.has(s)) return null;
    const obj = current.kind === 'PodGroup' ? groups.podGroup(current.namespace, current.name) : groups.compositePodGroup?.(current.namespace, current.name);
    if (obj === undefined) return null;
    const parent = obj.spec.parentCompositePodGroupName;
    if (parent === undefined) return current;
    current = compositeRef(current.namespace, parent);
  }
}

/** The snapshot lister's PodGroups().Get: why the PodGroup cannot be read, or null. */
export function snapshotPodGroupMissing(groups: PodGroupLister, namespace: string, name: string, h?: GroupHierarchy): string | null {
  const k = podGroupRef(namespace, name);
  const s = entityKeyString(k);
  if (h ? !h.keys.has(s) : !hasState(groups, k)) return `pod group state not found for pod group ${s}`;
  return groups.podGroup(namespace, name) === undefined ? `pod group object not found for pod group ${s}` : null;
}

/** The snapshot lister's CompositePodGroups().Get: why the composite cannot be read, or null. */
export function snapshotCompositePodGroupMissing(groups: PodGroupLister, namespace: string, name: string): string | null {
  const k = compositeRef(namespace, name);
  const s = entityKeyString(k);
  if (!hasState(groups, k)) return `composite pod group not found in snapshot: ${s}`;
  return groups.compositePodGroup?.(namespace, name) === undefined ? `composite pod group object not found for pod group "${s}"` : null;
}
