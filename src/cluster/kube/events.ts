// Writes scheduler events as events.k8s.io/v1 Events, off the scheduling path: a bounded queue
// drained in the background with retries (client-go tools/events: EventBroadcaster, eventSink).
import type { Logger } from '../../log/logger.js';
import type { Clock } from '../../util/clock.js';
import { ApiError, type ClusterEventRecord } from '../types.js';
import { Sleeper } from './backoff.js';
import { writeTimeoutMs, type RestRequest, type RestTransport } from './rest.js';

/** A repeat of the same event within this window joins its series instead of making a new Event. */
export const eventSeriesWindowMs = 6 * 60 * 1000;
/** Queued events beyond this are dropped, as the broadcaster's channel drops them. */
const maxQueuedEvents = 1000;
const maxAttempts = 12;

/** MicroTime as the API writes it: RFC 3339 with microseconds. */
export function microTime(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2006-01-02T15:04:05.000Z
  const micros = String(Math.floor((ms % 1000) * 1000)).padStart(6, '0');
  return `${iso.slice(0, 19)}.${micros}Z`;
}

const apiVersionOfKind: Readonly<Record<string, string>> = { Pod: 'v1', Node: 'v1', Lease: 'coordination.k8s.io/v1' };

/** The events.k8s.io/v1 Event for a record; `seq` keeps names unique within one millisecond. */
export function toEventObject(e: ClusterEventRecord, reportingController: string, reportingInstance: string, seq: number): Record<string, unknown> {
  const namespace = e.regarding.namespace || 'default';
  const nanos = BigInt(Math.floor(e.time)) * 1_000_000n + BigInt(seq % 1_000_000);
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `${e.regarding.name}.${nanos.toString(16)}`, namespace },
    eventTime: microTime(e.time),
    reportingController,
    reportingInstance,
    action: e.action,
    reason: e.reason,
    type: e.type,
    note: e.note,
    regarding: {
      kind: e.regarding.kind,
      namespace: e.regarding.namespace || undefined,
      name: e.regarding.name,
      uid: e.regarding.uid,
      apiVersion: apiVersionOfKind[e.regarding.kind],
    },
  };
}

export interface EventSinkOptions {
  transport: RestTransport;
  clock: Clock;
  log: Logger;
  /** Host name part of reportingInstance (`<controller>-<host>`). */
  host: string;
}

interface Series {
  namespace: string;
  name: string;
  count: number;
  lastAt: number;
}

/** Events that are the same but for their time (the broadcaster's isomorphic-event key). */
function seriesKey(e: ClusterEventRecord, controller: string): string {
  const r = e.regarding;
  return [controller, r.kind, r.namespace, r.name, r.uid ?? '', e.action, e.reason, e.type, e.note].join('\u0000');
}

export class EventSink {
  private readonly queue: { e: ClusterEventRecord; controller: string }[] = [];
  private readonly series = new Map<string, Series>();
  private draining: Promise<void> | null = null;
  private seq = 0;
  private stopped = false;
  private readonly sleeper: Sleeper;
  /** Events written, for tests and metrics. */
  written = 0;
  dropped = 0;

  constructor(private readonly o: EventSinkOptions) {
    this.sleeper = new Sleeper(o.clock);
  }

  /** Queues an event for `controller` (the profile's scheduler name); never blocks. */
  record(e: ClusterEventRecord, controller: string): void {
    if (this.stopped) return;
    if (this.queue.length >= maxQueuedEvents) {
      this.dropped++;
      return;
    }
    this.queue.push({ e, controller });
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      const { e, controller } = this.queue.shift()!;
      await this.write(e, controller);
    }
  }

  /** The request for an event: a new Event, or a patch of the series it repeats (events.k8s.io/v1 EventSeries). */
  private requestFor(e: ClusterEventRecord, controller: string): RestRequest {
    const key = seriesKey(e, controller);
    const prev = this.series.get(key);
    if (prev && e.time - prev.lastAt < eventSeriesWindowMs) {
      prev.count++;
      prev.lastAt = e.time;
      return {
        method: 'PATCH',
        path: `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(prev.namespace)}/events/${encodeURIComponent(prev.name)}`,
        contentType: 'application/merge-patch+json',
        body: { series: { count: prev.count, lastObservedTime: microTime(e.time) } },
        timeoutMs: writeTimeoutMs,
      };
    }
    const body = toEventObject(e, controller, `${controller}-${this.o.host}`, this.seq++);
    const meta = body.metadata as { namespace: string; name: string };
    this.series.set(key, { namespace: meta.namespace, name: meta.name, count: 1, lastAt: e.time });
    // Forget series past their window now and then, not on every event.
    if (this.seq % 256 === 0) for (const [k, s] of this.series) if (e.time - s.lastAt >= eventSeriesWindowMs) this.series.delete(k);
    // Bounded as the client's other writes are: one silent connection would hold every later event, and shutdown.
    return { method: 'POST', path: `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(meta.namespace)}/events`, body, timeoutMs: writeTimeoutMs };
  }

  private async write(e: ClusterEventRecord, controller: string): Promise<void> {
    const req = this.requestFor(e, controller);
    for (let attempt = 1; attempt <= maxAttempts && !this.stopped; attempt++) {
      try {
        await this.o.transport.request(req);
        this.written++;
        return;
      } catch (err) {
        const retriable = !(err instanceof ApiError) || err.code >= 500 || err.code === 429;
        if (!retriable || attempt === maxAttempts) {
          this.dropped++;
          this.o.log.error(err, 'Unable to write event (will not retry)', { reason: e.reason, object: `${e.regarding.namespace}/${e.regarding.name}` });
          return;
        }
        await this.sleeper.sleep(Math.min(10_000, 100 * 2 ** attempt));
      }
    }
  }

  /** Waits until every queued event is written or given up (graceful shutdown). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    this.sleeper.cancelAll();
  }
}
