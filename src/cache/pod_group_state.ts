// What the scheduler knows of each pod group: its PodGroup object and its member pods, split into
// unscheduled, assumed and assigned (backend/cache/podgroupstate.go). Assumed pods are not
// tracked here: the cache knows them, and it is asked.
import { podGroupKey, podGroupKeyOfPod, type PodGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import type { PodGroupLister } from '../framework/interfaces.js';

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

export class PodGroupStates implements PodGroupLister {
  private readonly states = new Map<string, PodGroupState>();

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
    this.ensure(podGroupKey(pg.metadata.namespace ?? 'default', pg.metadata.name ?? '')).podGroup = pg;
  }

  removePodGroup(pg: PodGroup): void {
    const key = podGroupKey(pg.metadata.namespace ?? 'default', pg.metadata.name ?? '');
    const s = this.states.get(key);
    if (!s) return;
    s.podGroup = null;
    this.dropIfEmpty(key);
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
