// Watch streams: initial state or replay from a resourceVersion, live changes filtered by namespace
// and selectors (with ADDED/DELETED on selector transitions), bookmarks, and 410 Gone for versions
// older than the history (staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go,
// watch_cache.go, pkg/endpoints/handlers/watch.go).
import type { ServerResponse } from 'node:http';
import type { KubeObject, ObjectMeta } from '../api/types.js';
import type { Selector } from '../api/labels.js';
import { ApiError } from '../cluster/types.js';
import type { VersionedEvent } from '../cluster/memory/store.js';
import type { ResourceRegistry } from './registry.js';
import { groupVersion, type Resource } from './resources.js';
import type { FieldRequirement } from './selectors.js';
import { expired, type StatusObject } from './status.js';
import { toTable, type IncludeObject } from './table.js';

export interface WatchRequest {
  resource: Resource;
  namespace: string;
  labels: Selector;
  fields: readonly FieldRequirement[];
  /** undefined or "" (and "0"): start with the current state; otherwise changes after this version. */
  resourceVersion: string | undefined;
  sendInitialEvents: boolean;
  allowWatchBookmarks: boolean;
  timeoutMs?: number;
  /** Encode objects as one-row Tables (kubectl get -w). */
  table?: { includeObject: IncludeObject; apiVersion: string };
}

export interface WatchContext {
  registry: ResourceRegistry;
  bookmarkIntervalMs: number;
  now: () => number;
}

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One open watch; `close` ends the response. */
export class WatchStream {
  private unsubscribe: (() => void) | undefined;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private closed = false;
  private headerSent = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly w: WatchRequest,
    private readonly ctx: WatchContext,
    private readonly onClose: (s: WatchStream) => void,
  ) {}

  /** Writes the initial events or the replay, then follows the store. */
  start(): void {
    const { registry } = this.ctx;
    const cluster = registry.cluster;
    this.res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    this.res.flushHeaders();
    this.res.on('close', () => this.close());
    const rv = this.w.resourceVersion;
    const fromState = rv === undefined || rv === '' || rv === '0' || this.w.sendInitialEvents;
    if (fromState) {
      for (const o of registry.list(this.w.resource, this.w.namespace, this.w.labels, this.w.fields)) this.send('ADDED', o);
      if (this.w.sendInitialEvents) this.bookmark(true);
    } else {
      let replay: VersionedEvent[];
      try {
        replay = cluster.eventsSince(Number(rv));
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 410) throw err;
        this.send('ERROR', expired(err.message).status);
        this.close();
        return;
      }
      for (const e of replay) this.deliver(e);
    }
    this.unsubscribe = cluster.subscribe((e) => this.deliver(e));
    if (this.w.allowWatchBookmarks && this.ctx.bookmarkIntervalMs > 0) {
      const tick = () => {
        if (this.closed) return;
        this.bookmark(false);
        this.timers.push(setTimeout(tick, this.ctx.bookmarkIntervalMs));
      };
      this.timers.push(setTimeout(tick, this.ctx.bookmarkIntervalMs));
    }
    if (this.w.timeoutMs !== undefined) this.timers.push(setTimeout(() => this.close(), this.w.timeoutMs));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    if (!this.res.writableEnded) this.res.end();
    this.onClose(this);
  }

  /** Filters one change of the store and writes it with the type the watcher should see. */
  private deliver(e: VersionedEvent): void {
    if (this.closed) return;
    const r = this.w.resource;
    if (e.event.kind !== r.storeKind) return;
    const { registry } = this.ctx;
    const cur = e.event.type === 'DELETED' ? undefined : registry.external(r, e.event.object);
    const prev = e.event.type === 'ADDED' || !e.event.oldObject ? undefined : registry.external(r, e.event.oldObject);
    const curPasses = cur !== undefined && registry.matches(r, cur, this.w.namespace, this.w.labels, this.w.fields);
    const prevPasses = prev !== undefined && registry.matches(r, prev, this.w.namespace, this.w.labels, this.w.fields);
    if (curPasses) this.send(prevPasses ? 'MODIFIED' : 'ADDED', cur!);
    else if (prevPasses) this.send('DELETED', withResourceVersion(prev!, e.rv));
  }

  private bookmark(initialEventsEnd: boolean): void {
    const metadata: ObjectMeta = { resourceVersion: String(this.ctx.registry.cluster.currentResourceVersion) };
    if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    this.write('BOOKMARK', { kind: this.w.resource.kind, apiVersion: groupVersion(this.w.resource), metadata });
  }

  private send(type: EventType, object: KubeObject | StatusObject): void {
    if (this.w.table && type !== 'ERROR') {
      const table = toTable(this.w.resource, [object as KubeObject], {
        now: this.ctx.now(),
        includeObject: this.w.table.includeObject,
        noHeaders: this.headerSent,
        resourceVersion: (object as KubeObject).metadata?.resourceVersion,
      });
      table.apiVersion = this.w.table.apiVersion;
      this.headerSent = true;
      this.write(type, table);
      return;
    }
    this.write(type, object);
  }

  private write(type: EventType, object: unknown): void {
    if (this.closed || this.res.writableEnded) return;
    this.res.write(JSON.stringify({ type, object }) + '\n');
  }
}

function withResourceVersion(o: KubeObject, rv: number): KubeObject {
  return { ...o, metadata: { ...o.metadata, resourceVersion: String(rv) } };
}
