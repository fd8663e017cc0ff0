// kube-controller-manager's TTL-after-finished controller (pkg/controller/ttlafterfinished) for
// the served cluster: a finished Job with spec.ttlSecondsAfterFinished is deleted that long after
// it finished (its pods then go with it, through the workload controllers' garbage collection).
import type { KubeObject } from '../../../api/types.js';
import type { Clock } from '../../../util/clock.js';
import { DeadlineTimer } from '../../../util/deadline_timer.js';
import type { MemoryCluster } from '../store.js';
import type { VersionedEvent } from '../versioned_event.js';

interface FinishedJob extends KubeObject {
  spec?: { ttlSecondsAfterFinished?: number };
  status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
}

/**
 * When a Job is to be deleted: the time its Complete or Failed condition turned True plus its TTL
 * (getFinishAndExpireTime); null when it is not finished, has no TTL, or no finish time.
 */
export function jobExpiry(job: FinishedJob): number | null {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata?.deletionTimestamp) return null;
  const finished = job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  const at = finished?.lastTransitionTime === undefined ? NaN : Date.parse(finished.lastTransitionTime);
  return Number.isNaN(at) ? null : at + ttl * 1000;
}

export class TtlAfterFinished {
  /** Finished Jobs with a TTL, by namespace/name, and when each expires. */
  private readonly expiries = new Map<string, { namespace: string; name: string; uid: string | undefined; at: number }>();
  private readonly timer: DeadlineTimer;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly store: MemoryCluster, private readonly clock: Clock) {
    this.timer = new DeadlineTimer(clock, () => this.expire());
  }

  start(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.store.subscribe((e) => this.observe(e));
    for (const job of this.store.list<FinishedJob>('Job')) this.track(job);
    this.arm();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.timer.cancel();
  }

  private observe({ event }: VersionedEvent): void {
    if (event.kind !== 'Job') return;
    const job = event.object as FinishedJob;
    if (event.type === 'DELETED') this.expiries.delete(`${job.metadata?.namespace ?? 'default'}/${job.metadata?.name ?? ''}`);
    else this.track(job);
    this.arm();
  }

  private track(job: FinishedJob): void {
    const namespace = job.metadata?.namespace ?? 'default';
    const name = job.metadata?.name ?? '';
    const at = jobExpiry(job);
    if (at === null) this.expiries.delete(`${namespace}/${name}`);
    else this.expiries.set(`${namespace}/${name}`, { namespace, name, uid: job.metadata?.uid, at });
  }

  /** A wake-up for the earliest expiry. */
  private arm(): void {
    let next = Infinity;
    for (const e of this.expiries.values()) if (e.at < next) next = e.at;
    if (next !== Infinity) this.timer.wakeBy(next);
  }

  /** Deletes the Jobs whose time has come, if each is still the one tracked (its uid). */
  private expire(): void {
    const now = this.clock.now();
    for (const [key, e] of [...this.expiries]) {
      if (e.at > now) continue;
      this.expiries.delete(key);
      const job = this.store.get<FinishedJob>('Job', e.namespace, e.name);
      if (job === undefined || job.metadata?.uid !== e.uid || jobExpiry(job) !== e.at) continue;
      this.store.remove('Job', e.namespace, e.name);
    }
    if (this.unsubscribe !== null) this.arm();
  }
}
