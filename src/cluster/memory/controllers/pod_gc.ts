// kube-controller-manager's pod garbage collector (pkg/controller/podgc/gc_controller.go) for the
// served cluster: pods bound to a node that is gone, pods deleted before they were scheduled, and
// terminated pods past the threshold are marked Failed and force-deleted.
import type { Pod, PodCondition } from '../../../api/types.js';
import { observedGenerationOf } from '../../../api/pod_conditions.js';
import { rfc3339, type Clock, type TimerHandle } from '../../../util/clock.js';
import { setCondition, type MemoryCluster } from '../store.js';

/** How often the collector runs (gcCheckPeriod). */
export const podGCPeriodMs = 20_000;
/** How long a node must stay missing before its pods go (quarantineTime). */
const podGCQuarantineMs = 40_000;
/** kube-controller-manager's default --terminated-pod-gc-threshold. */
const defaultTerminatedPodThreshold = 12_500;

const isTerminated = (p: Pod): boolean => {
  const phase = p.status?.phase;
  return phase !== undefined && phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
};
const isEvicted = (p: Pod): boolean => p.status?.phase === 'Failed' && p.status.reason === 'Evicted';

/** Evicted pods first, then the oldest, then by name (byEvictionAndCreationTimestamp). */
function evictedThenOldest(a: Pod, b: Pod): number {
  const ae = isEvicted(a);
  if (ae !== isEvicted(b)) return ae ? -1 : 1;
  const at = a.metadata.creationTimestamp ?? '';
  const bt = b.metadata.creationTimestamp ?? '';
  if (at !== bt) return at < bt ? -1 : 1;
  const an = a.metadata.name ?? '';
  const bn = b.metadata.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

export class PodGC {
  /** Missing nodes and when their quarantine ends (from the first pass that found them missing). */
  private readonly quarantine = new Map<string, number>();
  private timer: TimerHandle | null = null;

  constructor(
    private readonly store: MemoryCluster,
    private readonly clock: Clock,
    private readonly terminatedPodThreshold = defaultTerminatedPodThreshold,
  ) {}

  /** A pass now, then one every podGCPeriodMs (wait.UntilWithContext). */
  start(): void {
    if (this.timer !== null) return;
    this.timer = this.clock.setInterval(() => this.collect(), podGCPeriodMs, 0);
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** One pass over the pods as listed at its start (gc). */
  collect(): void {
    const pods = this.store.list<Pod>('Pod');
    const nodes = new Set(this.store.list('Node').map((n) => n.metadata?.name ?? ''));
    if (this.terminatedPodThreshold > 0) this.collectTerminated(pods);
    this.collectOrphaned(pods, nodes);
    for (const p of pods) if (p.metadata.deletionTimestamp && !p.spec.nodeName) this.markFailedAndDelete(p, null);
  }

  /** The oldest terminated pods past the threshold (gcTerminated). */
  private collectTerminated(pods: readonly Pod[]): void {
    const terminated = pods.filter(isTerminated);
    const excess = terminated.length - this.terminatedPodThreshold;
    if (excess <= 0) return;
    terminated.sort(evictedThenOldest);
    for (let i = 0; i < excess; i++) this.markFailedAndDelete(terminated[i]!, null);
  }

  /** Pods of nodes missing since a quarantine ago (gcOrphaned with discoverDeletedNodes). */
  private collectOrphaned(pods: readonly Pod[], nodes: ReadonlySet<string>): void {
    const now = this.clock.now();
    for (const p of pods) {
      const node = p.spec.nodeName;
      if (node && !nodes.has(node) && !this.quarantine.has(node)) this.quarantine.set(node, now + podGCQuarantineMs);
    }
    const deleted = new Set<string>();
    for (const [node, until] of this.quarantine) {
      if (until > now) continue;
      this.quarantine.delete(node);
      // Listed missing at the start and still missing now (upstream GETs the node).
      if (!nodes.has(node) && this.store.get('Node', '', node) === undefined) deleted.add(node);
    }
    if (deleted.size === 0) return;
    for (const p of pods) {
      if (!deleted.has(p.spec.nodeName ?? '')) continue;
      this.markFailedAndDelete(p, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
    }
  }

  /**
   * The pod's phase set to Failed (with `condition`) unless it finished, then deleted with no grace
   * period: at once, or, with finalizers, marked for deletion until they are removed.
   */
  private markFailedAndDelete(pod: Pod, condition: Omit<PodCondition, 'lastTransitionTime'> | null): void {
    const namespace = pod.metadata.namespace ?? 'default';
    const name = pod.metadata.name ?? '';
    let cur = this.store.get<Pod>('Pod', namespace, name);
    if (cur === undefined || cur.metadata.uid !== pod.metadata.uid) return;
    const now = rfc3339(this.clock.now());
    if (cur.status?.phase !== 'Succeeded' && cur.status?.phase !== 'Failed') {
      const next: Pod = { ...cur, status: { ...cur.status, phase: 'Failed' } };
      if (condition !== null) setCondition(next, { ...condition, ...observedGenerationOf(cur), lastTransitionTime: now });
      cur = this.store.update(next);
    }
    if ((cur.metadata.finalizers ?? []).length === 0) this.store.remove('Pod', namespace, name);
    else if (!cur.metadata.deletionTimestamp) this.store.update({ ...cur, metadata: { ...cur.metadata, deletionTimestamp: now, deletionGracePeriodSeconds: 0 } });
  }
}
