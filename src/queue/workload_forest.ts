// The queue's view of the observed pod groups and composite pod groups as a forest
// (pkg/scheduler/backend/queue/workload_forest.go): which root a pod's group hangs under, which
// PodGroups are the leaves of a root, and the tree a root's entity is scheduled as. The queue keeps
// its own view so its invariants do not depend on when the cache sees an object.
import { podGroupKeyOfPod, type CompositePodGroup, type PodGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import type { GroupKey, GroupTree } from '../framework/interfaces.js';

type GroupKind = GroupKey['kind'];

/** A group of the forest by kind, namespace and name (upstream's PodGroupInfo lookup). */
export type GroupRef = GroupKey;

/** The forest's key of a group: its kind, namespace and name (fwk.PodGroupKey, fwk.CompositePodGroupKey). */
function groupRefKey(kind: GroupKind, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

const namespaceOf = (o: { metadata: { namespace?: string } }): string => o.metadata.namespace ?? 'default';

export class WorkloadForest {
  private readonly podGroups = new Map<string, PodGroup>();
  private readonly compositePodGroups = new Map<string, CompositePodGroup>();
  /**
   * A composite's key to its direct children's keys, filled when a child is observed whether or not
   * its parent is yet: a parent added later finds its children without a scan. Insertion order
   * keeps leaves and trees deterministic (upstream iterates a Go set).
   */
  private readonly children = new Map<string, Set<string>>();

  /**
   * @param compositePodGroupEnabled the CompositePodGroup gate: off, a PodGroup's parent is ignored.
   * @param reportError where a cycle among composites is reported (utilruntime.HandleError).
   */
  constructor(private readonly compositePodGroupEnabled: boolean, private readonly reportError: (message: string) => void = () => {}) {}

  addPodGroup(pg: PodGroup): void {
    const key = groupRefKey('PodGroup', namespaceOf(pg), pg.metadata.name ?? '');
    this.podGroups.set(key, pg);
    const parent = this.parentOfPodGroup(pg);
    if (parent !== null) this.link(parent, key);
  }

  /** Replaces the object; an update never moves a group (the parent is immutable). */
  updatePodGroup(pg: PodGroup): void {
    this.podGroups.set(groupRefKey('PodGroup', namespaceOf(pg), pg.metadata.name ?? ''), pg);
  }

  deletePodGroup(pg: PodGroup): void {
    const key = groupRefKey('PodGroup', namespaceOf(pg), pg.metadata.name ?? '');
    this.podGroups.delete(key);
    const parent = this.parentOfPodGroup(pg);
    if (parent !== null) this.unlink(parent, key);
  }

  addCompositePodGroup(cpg: CompositePodGroup): void {
    const key = groupRefKey('CompositePodGroup', namespaceOf(cpg), cpg.metadata.name ?? '');
    this.compositePodGroups.set(key, cpg);
    const parent = cpg.spec.parentCompositePodGroupName;
    if (parent !== undefined) this.link(groupRefKey('CompositePodGroup', namespaceOf(cpg), parent), key);
  }

  updateCompositePodGroup(cpg: CompositePodGroup): void {
    this.compositePodGroups.set(groupRefKey('CompositePodGroup', namespaceOf(cpg), cpg.metadata.name ?? ''), cpg);
  }

  deleteCompositePodGroup(cpg: CompositePodGroup): void {
    const key = groupRefKey('CompositePodGroup', namespaceOf(cpg), cpg.metadata.name ?? '');
    this.compositePodGroups.delete(key);
    const parent = cpg.spec.parentCompositePodGroupName;
    if (parent !== undefined) this.unlink(groupRefKey('CompositePodGroup', namespaceOf(cpg), parent), key);
  }

  podGroup(namespace: string, name: string): PodGroup | undefined {
    return this.podGroups.get(groupRefKey('PodGroup', namespace, name));
  }

  compositePodGroup(namespace: string, name: string): CompositePodGroup | undefined {
    return this.compositePodGroups.get(groupRefKey('CompositePodGroup', namespace, name));
  }

  /** The keys of a composite's direct children, in the order they were observed. */
  childKeys(namespace: string, name: string): string[] {
    return [...(this.children.get(groupRefKey('CompositePodGroup', namespace, name)) ?? [])];
  }

  /** The root the pod's PodGroup hangs under; null while its group, or a composite above it, is not observed. */
  rootOfPod(pod: Pod): GroupRef | null {
    const key = podGroupKeyOfPod(pod);
    if (key === null) return null;
    const pg = this.podGroups.get(`PodGroup/${key}`);
    return pg === undefined ? null : this.rootOfPodGroup(pg);
  }

  /** The root above an observed PodGroup (itself when it has no parent, or the gate is off). */
  rootOfPodGroup(pg: PodGroup): GroupRef | null {
    const namespace = namespaceOf(pg);
    const name = pg.metadata.name ?? '';
    const stored = this.podGroups.get(groupRefKey('PodGroup', namespace, name));
    if (stored === undefined) return null;
    const parent = this.compositePodGroupEnabled ? stored.spec.parentCompositePodGroupName : undefined;
    if (parent === undefined) return { kind: 'PodGroup', namespace, name };
    return this.rootAbove(parent, namespace);
  }

  /** The root above a composite (itself when it has no parent). */
  rootOfCompositePodGroup(cpg: CompositePodGroup): GroupRef | null {
    return this.rootAbove(cpg.metadata.name ?? '', namespaceOf(cpg));
  }

  /** Follows parents up from composite `name`; null when one on the way is not observed, or on a cycle. */
  private rootAbove(name: string, namespace: string): GroupRef | null {
    const visited = new Set<string>();
    let current = name;
    for (;;) {
      const key = groupRefKey('CompositePodGroup', namespace, current);
      if (visited.has(key)) {
        this.reportError(`cycle detected in composite pod group hierarchy: ${name}/${namespace}`);
        return null;
      }
      visited.add(key);
      const cpg = this.compositePodGroups.get(key);
      if (cpg === undefined) return null;
      const parent = cpg.spec.parentCompositePodGroupName;
      if (parent === undefined) return { kind: 'CompositePodGroup', namespace, name: current };
      current = parent;
    }
  }

  /** The observed PodGroups under `root`, breadth first (the root itself for a PodGroup root). */
  leafPodGroups(root: GroupRef): PodGroup[] {
    if (root.kind === 'PodGroup') {
      const pg = this.podGroups.get(groupRefKey('PodGroup', root.namespace, root.name));
      return pg === undefined ? [] : [pg];
    }
    const out: PodGroup[] = [];
    const queue = [groupRefKey('CompositePodGroup', root.namespace, root.name)];
    const visited = new Set<string>();
    for (let i = 0; i < queue.length; i++) {
      const key = queue[i]!;
      if (visited.has(key)) {
        this.reportError(`cycle detected in composite pod group hierarchy: ${root.name}/${root.namespace}`);
        return out;
      }
      visited.add(key);
      for (const child of this.children.get(key) ?? []) {
        const pg = this.podGroups.get(child);
        if (pg !== undefined) out.push(pg);
        if (this.compositePodGroups.has(child)) queue.push(child);
      }
    }
    return out;
  }

  /** The tree of observed groups under `root` (buildQueuedPodGroupInfo); null when the root is not observed. */
  tree(root: GroupRef): GroupTree | null {
    const key = groupRefKey(root.kind, root.namespace, root.name);
    const visited = new Set<string>();
    if (root.kind === 'PodGroup') {
      const pg = this.podGroups.get(key);
      return pg === undefined ? null : this.podGroupNode(pg, key, visited);
    }
    const cpg = this.compositePodGroups.get(key);
    return cpg === undefined ? null : this.compositeNode(cpg, key, visited);
  }

  private podGroupNode(pg: PodGroup, key: string, visited: Set<string>): GroupTree | null {
    if (this.seenBefore(key, visited)) return null;
    return { kind: 'PodGroup', namespace: namespaceOf(pg), name: pg.metadata.name ?? '', podGroup: pg, children: [] };
  }

  private compositeNode(cpg: CompositePodGroup, key: string, visited: Set<string>): GroupTree | null {
    if (this.seenBefore(key, visited)) return null;
    const children: GroupTree[] = [];
    for (const child of this.children.get(key) ?? []) {
      const pg = this.podGroups.get(child);
      const node = pg !== undefined ? this.podGroupNode(pg, child, visited) : this.compositeChild(child, visited);
      if (node !== null) children.push(node);
    }
    return { kind: 'CompositePodGroup', namespace: namespaceOf(cpg), name: cpg.metadata.name ?? '', compositePodGroup: cpg, children };
  }

  private compositeChild(key: string, visited: Set<string>): GroupTree | null {
    const cpg = this.compositePodGroups.get(key);
    return cpg === undefined ? null : this.compositeNode(cpg, key, visited);
  }

  private seenBefore(key: string, visited: Set<string>): boolean {
    if (!visited.has(key)) {
      visited.add(key);
      return false;
    }
    this.reportError(`cycle detected in composite pod group hierarchy: ${key}`);
    return true;
  }

  private parentOfPodGroup(pg: PodGroup): string | null {
    const parent = pg.spec.parentCompositePodGroupName;
    return this.compositePodGroupEnabled && parent !== undefined ? groupRefKey('CompositePodGroup', namespaceOf(pg), parent) : null;
  }

  private link(parent: string, child: string): void {
    let set = this.children.get(parent);
    if (set === undefined) {
      set = new Set();
      this.children.set(parent, set);
    }
    set.add(child);
  }

  private unlink(parent: string, child: string): void {
    const set = this.children.get(parent);
    if (set === undefined) return;
    set.delete(child);
    if (set.size === 0) this.children.delete(parent);
  }
}
