// What the scheduler knows of each pod group: its PodGroup object and its member pods, split into
// unscheduled, assumed and assigned, and of each composite group: its object and the groups whose
// parent it is (backend/cache/podgroupstate.go, cache.go's GetRootKeyForGroup). Assumed pods are
// not tracked here: the cache knows them, and it is asked.
import { podGroupKey, podGroupKeyOfPod, type CompositePodGroup, type PodGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import { entityKeyString } from '../framework/group_hierarchy.js';
import type { GroupKey, PodGroupLister } from '../framework/interfaces.js';

export class PodGroupState {
  podGroup: PodGroup | null = null;
  /** Every member pod the informer has, by UID. */
  readonly pods = new Map<string, Pod>();

  get allPodsCount(): number {
    return this.pods.size;
  }

  /** Members bound or assumed on a node. */
  scheduledPodsCount(isAssumed: (pod: Pod) => boolean): number {
    let n = 0;
    for (const p of this.pods.values()) if (p.spec.nodeName || isAssumed(p)) n++;
    return n;
  }

  /** Members neither bound nor assumed. */
  unscheduledPods(isAssumed: (pod: Pod) => boolean): Pod[] {
    const out: Pod[] = [];
    for (const p of this.pods.values()) if (!p.spec.nodeName && !isAssumed(p)) out.push(p);
    return out;
  }

  /** Members bound or assumed; an assumed one as `assumed` gives it (with its node), when given. */
  scheduledPods(isAssumed: (pod: Pod) => boolean, assumed?: (pod: Pod) => Pod | undefined): Pod[] {
    const out: Pod[] = [];
    for (const p of this.pods.values()) {
      if (p.spec.nodeName) out.push(p);
      else if (isAssumed(p)) out.push(assumed?.(p) ?? p);
    }
    return out;
  }

  /** Members assumed but not yet bound. */
  assumedPods(isAssumed: (pod: Pod) => boolean): Pod[] {
    const out: Pod[] = [];
    for (const p of this.pods.values()) if (!p.spec.nodeName && isAssumed(p)) out.push(p);
    return out;
  }

  empty(): boolean {
    return this.pods.size === 0 && this.podGroup === null;
  }
}

/** A composite group's object (null until observed) and its observed children, in the order observed. */
class CompositePodGroupState {
  compositePodGroup: CompositePodGroup | null = null;
  readonly children = new Map<string, GroupKey>();

  empty(): boolean {
    return this.compositePodGroup === null && this.children.size === 0;
  }
}

/** "kind/namespace/name" (fwk.EntityKey.String() spells the kind in lower case). */
const refKey = (k: GroupKey): string => `${k.kind}/${k.namespace}/${k.name}`;

export class PodGroupStates implements PodGroupLister {
  private readonly states = new Map<string, PodGroupState>();
  private readonly composites = new Map<string, CompositePodGroupState>();
  /** The CompositePodGroup gate: off, a PodGroup's parent is ignored and composites are not kept. */
  compositePodGroupEnabled = false;

  /**
   * `isAssumed` tells the cache's assumed pods; `assumed`, when given, returns the cache's copy of
   * one (on its node), which scheduledPods lists instead of the informer's.
   */
  constructor(
    readonly isAssumed: (pod: Pod) => boolean,
    private readonly assumed?: (pod: Pod) => Pod | undefined,
  ) {}

  private ensure(key: string): PodGroupState {
    let s = this.states.get(key);
    if (!s) {
      s = new PodGroupState();
      this.states.set(key, s);
    }
    return s;
  }

  private dropIfEmpty(key: string): void {
    if (this.states.get(key)?.empty()) this.states.delete(key);
  }

  podGroup(namespace: string, name: string): PodGroup | undefined {
    return this.states.get(podGroupKey(namespace, name))?.podGroup ?? undefined;
  }

  state(namespace: string, name: string): PodGroupState | undefined {
    return this.states.get(podGroupKey(namespace, name));
  }

  allPodsCount(namespace: string, name: string): number {
    return this.state(namespace, name)?.allPodsCount ?? 0;
  }

  scheduledPodsCount(namespace: string, name: string): number {
    return this.state(namespace, name)?.scheduledPodsCount(this.isAssumed) ?? 0;
  }

  unscheduledPods(namespace: string, name: string): Pod[] {
    return this.state(namespace, name)?.unscheduledPods(this.isAssumed) ?? [];
  }

  assumedPods(namespace: string, name: string): Pod[] {
    return this.state(namespace, name)?.assumedPods(this.isAssumed) ?? [];
  }

  scheduledPods(namespace: string, name: string): Pod[] {
    return this.state(namespace, name)?.scheduledPods(this.isAssumed, this.assumed) ?? [];
  }

  setPodGroup(pg: PodGroup): void {
    const ns = pg.metadata.namespace ?? 'default';
    this.ensure(podGroupKey(ns, pg.metadata.name ?? '')).podGroup = pg;
    const parent = this.parentOf(pg);
    if (parent !== null) this.ensureComposite(ns, parent).children.set(refKey(groupRef('PodGroup', pg)), groupRef('PodGroup', pg));
  }

  removePodGroup(pg: PodGroup): void {
    const ns = pg.metadata.namespace ?? 'default';
    const key = podGroupKey(ns, pg.metadata.name ?? '');
    const parent = this.parentOf(pg);
    if (parent !== null) this.unlink(ns, parent, groupRef('PodGroup', pg));
    const s = this.states.get(key);
    if (!s) return;
    s.podGroup = null;
    this.dropIfEmpty(key);
  }

  setCompositePodGroup(cpg: CompositePodGroup): void {
    if (!this.compositePodGroupEnabled) return;
    const ns = cpg.metadata.namespace ?? 'default';
    this.ensureComposite(ns, cpg.metadata.name ?? '').compositePodGroup = cpg;
    const parent = cpg.spec.parentCompositePodGroupName;
    if (parent !== undefined) this.ensureComposite(ns, parent).children.set(refKey(groupRef('CompositePodGroup', cpg)), groupRef('CompositePodGroup', cpg));
  }

  removeCompositePodGroup(cpg: CompositePodGroup): void {
    if (!this.compositePodGroupEnabled) return;
    const ns = cpg.metadata.namespace ?? 'default';
    const name = cpg.metadata.name ?? '';
    const parent = cpg.spec.parentCompositePodGroupName;
    if (parent !== undefined) this.unlink(ns, parent, groupRef('CompositePodGroup', cpg));
    const key = podGroupKey(ns, name);
    const s = this.composites.get(key);
    if (!s) return;
    s.compositePodGroup = null;
    if (s.empty()) this.composites.delete(key);
  }

  compositePodGroup(namespace: string, name: string): CompositePodGroup | undefined {
    return this.composites.get(podGroupKey(namespace, name))?.compositePodGroup ?? undefined;
  }

  /** The observed groups whose parent is composite `name` (CompositePodGroupState.GetChildren). */
  childrenOf(namespace: string, name: string): GroupKey[] {
    return [...(this.composites.get(podGroupKey(namespace, name))?.children.values() ?? [])];
  }

  /**
   * The root of the tree `key` hangs in (GetRootKeyForGroup): null while a group on the way up is
   * not observed; a cycle throws.
   */
  rootOf(key: GroupKey): GroupKey | null {
    const visited = new Set<string>();
    let current = key;
    for (;;) {
      const k = entityKeyString(current);
      // Upstream prints its visited set in map order; ours lists them as visited.
      if (visited.has(k)) throw new Error(`cycle detected in the hierarchy: [${[...visited].join(' ')}]`);
      visited.add(k);
      const parent = current.kind === 'PodGroup'
        ? this.parentOfObserved(this.podGroup(current.namespace, current.name))
        : this.parentOfComposite(this.compositePodGroup(current.namespace, current.name));
      if (parent === undefined) return null;
      if (parent === null) return current;
      current = { kind: 'CompositePodGroup', namespace: current.namespace, name: parent };
    }
  }

  /** undefined: the group is not observed; null: it has no parent (or the gate is off). */
  private parentOfObserved(pg: PodGroup | undefined): string | null | undefined {
    if (pg === undefined) return undefined;
    return this.parentOf(pg);
  }

  private parentOfComposite(cpg: CompositePodGroup | undefined): string | null | undefined {
    return cpg === undefined ? undefined : cpg.spec.parentCompositePodGroupName ?? null;
  }

  private parentOf(pg: PodGroup): string | null {
    return this.compositePodGroupEnabled ? pg.spec.parentCompositePodGroupName ?? null : null;
  }

  private ensureComposite(namespace: string, name: string): CompositePodGroupState {
    const key = podGroupKey(namespace, name);
    let s = this.composites.get(key);
    if (!s) {
      s = new CompositePodGroupState();
      this.composites.set(key, s);
    }
    return s;
  }

  private unlink(namespace: string, parent: string, child: GroupKey): void {
    const key = podGroupKey(namespace, parent);
    const s = this.composites.get(key);
    if (!s) return;
    s.children.delete(refKey(child));
    if (s.empty()) this.composites.delete(key);
  }

  /** A member pod added or changed (assigned or not). */
  upsertPod(pod: Pod): void {
    const key = podGroupKeyOfPod(pod);
    if (key === null) return;
    this.ensure(key).pods.set(pod.metadata.uid ?? '', pod);
  }

  removePod(pod: Pod): void {
    const key = podGroupKeyOfPod(pod);
    if (key === null) return;
    this.states.get(key)?.pods.delete(pod.metadata.uid ?? '');
    this.dropIfEmpty(key);
  }
}

function groupRef(kind: GroupKey['kind'], o: PodGroup | CompositePodGroup): GroupKey {
  return { kind, namespace: o.metadata.namespace ?? 'default', name: o.metadata.name ?? '' };
}
