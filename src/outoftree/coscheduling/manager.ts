// scheduler-plugins' pkg/coscheduling/core/core.go: the PodGroupManager behind Coscheduling.
import { Resource, type NodeInfo, type Pod, type SharedLister } from '../../plugin.js';
import { podGroupFullName, podGroupLabel, type CoschedulingPodGroup } from './types.js';

/** Where Coscheduling reads PodGroups and their member pods (upstream: the CRD client and the pod informer). */
export interface CoschedulingSource {
  podGroup(namespace: string, name: string): CoschedulingPodGroup | undefined;
  /** Every pod of the namespace carrying the group's label, scheduled or not. */
  memberPods(namespace: string, name: string): readonly Pod[];
}

/** What Permit decides for a pod (core.Status). */
export type PermitDecision = 'PodGroup not specified' | 'PodGroup not found' | 'Success' | 'Wait';

/** A key set whose entries expire on the scheduler clock (upstream's go-cache; a TTL of 0 takes its default). */
class ExpiringSet {
  private readonly until = new Map<string, number>();
  constructor(private readonly now: () => number, private readonly defaultTtlMs: number) {}
  add(key: string, ttlMs: number): void {
    this.until.set(key, this.now() + (ttlMs === 0 ? this.defaultTtlMs : ttlMs));
  }
  has(key: string): boolean {
    const t = this.until.get(key);
    if (t === undefined) return false;
    if (this.now() < t) return true;
    this.until.delete(key);
    return false;
  }
  delete(key: string): void {
    this.until.delete(key);
  }
}

export class PodGroupManager {
  /** Groups that passed the minResources check recently: the check is skipped while they stay. */
  private readonly permitted: ExpiringSet;
  /** Groups rejected in PostFilter recently (podGroupBackoffSeconds). */
  private readonly backedOff: ExpiringSet;

  constructor(
    private readonly source: CoschedulingSource,
    private readonly snapshot: () => SharedLister,
    private readonly scheduleTimeoutMs: number,
    now: () => number,
  ) {
    // go-cache defaults of NewPodGroupManager: 3 s and 10 s.
    this.permitted = new ExpiringSet(now, 3000);
    this.backedOff = new ExpiringSet(now, 10_000);
  }

  /** The pod's "namespace/group" and the PodGroup when it exists (GetPodGroup). */
  podGroupOf(pod: Pod): { fullName: string; pg: CoschedulingPodGroup | undefined } {
    const name = podGroupLabel(pod);
    if (name === '') return { fullName: '', pg: undefined };
    const ns = pod.metadata.namespace ?? 'default';
    return { fullName: `${ns}/${name}`, pg: this.source.podGroup(ns, name) };
  }

  memberPods(pod: Pod): readonly Pod[] {
    return this.source.memberPods(pod.metadata.namespace ?? 'default', podGroupLabel(pod));
  }

  backoff(fullName: string, ms: number): void {
    if (ms > 0) this.backedOff.add(fullName, ms);
  }

  deletePermitted(fullName: string): void {
    this.permitted.delete(fullName);
  }

  /** The rejection message, or null when the pod may go on to Filter (PreFilter). */
  preFilter(pod: Pod): string | null {
    const { fullName, pg } = this.podGroupOf(pod);
    if (pg === undefined) return null;
    if (this.backedOff.has(fullName)) return `podGroup ${fullName} failed recently`;
    const minMember = pg.spec.minMember ?? 0;
    const members = this.memberPods(pod).length;
    if (members < minMember) {
      return `pre-filter pod ${pod.metadata.name} cannot find enough sibling pods, current pods number: ${members}, minMember of group: ${minMember}`;
    }
    if (pg.spec.minResources === undefined || this.permitted.has(fullName)) return null;
    const want = Resource.fromList(pg.spec.minResources);
    want.allowedPodNumber = minMember;
    const gap = clusterResourceGap(this.snapshot().nodeInfos().list(), want, fullName);
    if (gap !== null) return gap;
    this.permitted.add(fullName, this.scheduleTimeoutMs);
    return null;
  }

  /** Whether enough of the group is placed for this pod to go on (Permit); `activate` when it is the group's first. */
  permit(pod: Pod): { decision: PermitDecision; activateSiblings: boolean } {
    const { fullName, pg } = this.podGroupOf(pod);
    if (fullName === '') return { decision: 'PodGroup not specified', activateSiblings: false };
    if (pg === undefined) return { decision: 'PodGroup not found', activateSiblings: false };
    // The snapshot does not hold the pod in this cycle yet: it counts as one more.
    const assigned = this.assignedPods(pg.metadata.name ?? '', pod.metadata.namespace ?? 'default');
    if (assigned + 1 >= (pg.spec.minMember ?? 0)) return { decision: 'Success', activateSiblings: false };
    return { decision: 'Wait', activateSiblings: assigned === 0 };
  }

  /** Group members on a node in the snapshot, assumed or bound (CalculateAssignedPods). */
  assignedPods(groupName: string, namespace: string): number {
    let count = 0;
    for (const ni of this.snapshot().nodeInfos().list()) {
      for (const pi of ni.pods) {
        const p = pi.pod;
        if ((p.metadata.namespace ?? 'default') === namespace && podGroupLabel(p) === groupName && p.spec.nodeName) count++;
      }
    }
    return count;
  }

  /** The group's creation time, or `fallback` for a pod without one (GetCreationTimestamp). */
  creationTime(pod: Pod, fallback: number): number {
    const { pg } = this.podGroupOf(pod);
    if (pg === undefined) return fallback;
    // A PodGroup without a creation time sorts first, as Go's zero time does.
    return pg.metadata.creationTimestamp === undefined ? Number.MIN_SAFE_INTEGER : Date.parse(pg.metadata.creationTimestamp);
  }
}

/**
 * Walks the nodes subtracting what each has free (not counting the group's own pods) from what
 * the group needs: null once nothing is left, else "resource gap: ..." (CheckClusterResource).
 */
function clusterResourceGap(nodes: readonly NodeInfo[], want: Resource, fullName: string): string | null {
  const left = new Map<string, number>();
  if (want.milliCPU > 0) left.set('cpu', want.milliCPU);
  if (want.memory > 0) left.set('memory', want.memory);
  if (want.ephemeralStorage > 0) left.set('ephemeral-storage', want.ephemeralStorage);
  if (want.allowedPodNumber > 0) left.set('pods', want.allowedPodNumber);
  for (const [name, v] of want.scalarResources ?? []) if (v > 0) left.set(name, v);
  if (left.size === 0) return null;
  for (const ni of nodes) {
    if (ni.node === null) continue;
    const free = freeOnNode(ni, fullName);
    for (const [name, v] of left) {
      const rest = v - (free.get(name) ?? 0);
      if (rest <= 0) left.delete(name);
      else left.set(name, rest);
    }
    if (left.size === 0) return null;
  }
  const parts = [...left].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([n, v]) => `${n}:${n === 'cpu' ? `${v}m` : v}`);
  return `resource gap: map[${parts.join(' ')}]`;
}

/** Allocatable minus requested on one node, as if the group's own pods were not there. */
function freeOnNode(ni: NodeInfo, fullName: string): Map<string, number> {
  const mine = new Resource();
  let myPods = 0;
  for (const pi of ni.pods) {
    if (podGroupFullName(pi.pod) !== fullName) continue;
    mine.add(pi.requests.resource);
    myPods++;
  }
  const a = ni.allocatable;
  const r = ni.requested;
  const free = new Map<string, number>([
    ['cpu', a.milliCPU - r.milliCPU + mine.milliCPU],
    ['memory', a.memory - r.memory + mine.memory],
    ['ephemeral-storage', a.ephemeralStorage - r.ephemeralStorage + mine.ephemeralStorage],
    ['pods', a.allowedPodNumber - (ni.pods.length - myPods)],
  ]);
  for (const [name, v] of a.scalarResources ?? []) free.set(name, v - (r.scalarResources?.get(name) ?? 0) + (mine.scalarResources?.get(name) ?? 0));
  return free;
}
