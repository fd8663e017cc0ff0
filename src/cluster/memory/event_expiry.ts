// Events expire as kube-apiserver's do (--event-ttl, default 1h; pkg/registry/core/event/storage:
// every write of an Event, create or update, stores it with that TTL, and etcd deletes it then).
import type { Clock } from '../../util/clock.js';
import { DeadlineTimer } from '../../util/deadline_timer.js';
import type { MemoryCluster } from './store.js';
import type { VersionedEvent } from './versioned_event.js';

/** kube-apiserver's default --event-ttl. */
export const defaultEventTtlMs = 60 * 60 * 1000;

interface Deadline {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly at: number;
}

/**
 * Deletes each Event of the store `ttlMs` after its last write (a DELETED watch event, as etcd's
 * lease expiry gives). Deadlines come in the order of the writes, so they wait in a queue; an
 * Event written again keeps only its latest deadline.
 */
export class EventExpiry {
  /** Deadlines in order, oldest first (an Event rewritten has stale entries, skipped). */
  private queue: Deadline[] = [];
  private head = 0;
  /** Each stored Event's current deadline, by namespace/name. */
  private readonly deadlines = new Map<string, number>();
  private readonly timer: DeadlineTimer;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly cluster: MemoryCluster, private readonly clock: Clock, private readonly ttlMs = defaultEventTtlMs) {
    this.timer = new DeadlineTimer(clock, () => this.expire());
  }

  /** Follows the store's writes from now on; the Events already stored expire `ttlMs` from now. */
  start(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.cluster.subscribe((e) => this.observe(e));
    for (const ev of this.cluster.list('Event')) this.written(ev.metadata?.namespace ?? '', ev.metadata?.name ?? '');
    this.arm();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.timer.cancel();
  }

  /** How many Events wait to expire. */
  get pending(): number {
    return this.deadlines.size;
  }

  private observe({ event }: VersionedEvent): void {
    if (event.kind !== 'Event') return;
    const meta = event.object.metadata;
    const namespace = meta?.namespace ?? '';
    const name = meta?.name ?? '';
    if (event.type === 'DELETED') this.deadlines.delete(`${namespace}/${name}`);
    else {
      this.written(namespace, name);
      this.arm();
    }
  }

  private written(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    const at = this.clock.now() + this.ttlMs;
    this.deadlines.set(key, at);
    this.queue.push({ key, namespace, name, at });
  }

  /** A wake-up for the oldest deadline. */
  private arm(): void {
    const next = this.queue[this.head];
    if (next !== undefined) this.timer.wakeBy(next.at);
  }

  private expire(): void {
    const now = this.clock.now();
    while (this.head < this.queue.length && this.queue[this.head]!.at <= now) {
      const d = this.queue[this.head++]!;
      // Only the Event's latest deadline counts: a later write moved it.
      if (this.deadlines.get(d.key) !== d.at) continue;
      this.deadlines.delete(d.key);
      this.cluster.remove('Event', d.namespace, d.name);
    }
    // The expired part of the queue is dropped once it is half of it: one copy per that many.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.unsubscribe !== null) this.arm();
  }
}
