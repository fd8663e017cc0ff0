// List+watch of one kind into a local store, delivering changes as WatchEvents with the previous
// version (client-go tools/cache/reflector.go and the DeltaFIFO's Replace): a relist after 410 Gone
// turns into the ADDED/MODIFIED/DELETED events that reconcile the store, so nothing is lost or
// delivered twice; dropped watches resume from the last resourceVersion after a backoff.
import type { KubeObject } from '../../api/types.js';
import type { Logger } from '../../log/logger.js';
import type { Clock } from '../../util/clock.js';
import { ApiError, type WatchEvent } from '../types.js';
import { Backoff, Sleeper } from './backoff.js';
import type { ResourceSpec } from './resources.js';
import { storeKey } from './resources.js';
import { statusFromBody, type RawWatchEvent, type RestTransport } from './rest.js';

interface ListResponse {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: KubeObject[];
}

export interface ReflectorOptions {
  spec: ResourceSpec;
  transport: RestTransport;
  clock: Clock;
  log: Logger;
  /** Gets every change after the store has applied it. */
  handler: (e: WatchEvent) => void;
  /** Objects failing this are kept out of the store (as the server-side field selector would). */
  keep?: (o: KubeObject) => boolean;
  backoff?: Backoff;
  random?: () => number;
  /** Page size of lists (client-go's 500). */
  pageSize?: number;
}

type WatchEnd = { kind: 'closed'; events: number } | { kind: 'expired' } | { kind: 'error'; err: Error };

const isGone = (err: unknown): boolean => err instanceof ApiError && err.code === 410;

export class Reflector {
  readonly store = new Map<string, KubeObject>();
  /** The resourceVersion the next watch resumes from. */
  resourceVersion = '';
  private stopped = false;
  private watch: { close(): void } | null = null;
  private readonly backoff: Backoff;
  private readonly sleeper: Sleeper;
  private readonly random: () => number;
  /** Relists after 410, for tests and logs. */
  relists = 0;

  constructor(private readonly o: ReflectorOptions) {
    this.backoff = o.backoff ?? new Backoff(o.clock, { random: o.random });
    this.sleeper = new Sleeper(o.clock);
    this.random = o.random ?? Math.random;
  }

  get kind(): string {
    return this.o.spec.kind;
  }

  /** Lists every object (all pages), retrying with backoff until it succeeds or the reflector stops. */
  async listWithRetry(): Promise<{ items: KubeObject[]; resourceVersion: string } | null> {
    while (!this.stopped) {
      try {
        return await this.list();
      } catch (err) {
        if (this.stopped) return null;
        const delay = this.backoff.next();
        this.o.log.error(err, 'Failed to list', { kind: this.kind, retryAfterMs: delay });
        await this.sleeper.sleep(delay);
      }
    }
    return null;
  }

  private async list(): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    const { spec, transport } = this.o;
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let rv = '';
    for (;;) {
      let page: ListResponse;
      try {
        page = await transport.request<ListResponse>({
          method: 'GET',
          path: spec.path,
          query: { fieldSelector: spec.fieldSelector, limit: String(this.o.pageSize ?? 500), continue: cont },
        });
      } catch (err) {
        // An expired continue token: start over with one full list, as client-go's pager does.
        if (cont !== undefined && isGone(err)) {
          const full = await transport.request<ListResponse>({ method: 'GET', path: spec.path, query: { fieldSelector: spec.fieldSelector } });
          return { items: full.items ?? [], resourceVersion: full.metadata?.resourceVersion ?? '' };
        }
        throw err;
      }
      for (const it of page.items ?? []) items.push(it);
      rv = page.metadata?.resourceVersion ?? rv;
      cont = page.metadata?.continue || undefined;
      if (!cont) break;
    }
    return { items, resourceVersion: rv };
  }

  private typed(o: KubeObject): KubeObject {
    // List items carry no kind; the handlers route by it.
    if (o.kind !== this.o.spec.kind) o.kind = this.o.spec.kind;
    if (!o.apiVersion) o.apiVersion = this.o.spec.apiVersion;
    return o;
  }

  private kept(o: KubeObject): boolean {
    return this.o.keep ? this.o.keep(o) : true;
  }

  /** Reconciles the store with a full list (DeltaFIFO.Replace): adds, changes, then deletions. */
  replace(items: KubeObject[], resourceVersion: string): void {
    const seen = new Set<string>();
    for (const raw of items) {
      const o = this.typed(raw);
      if (!this.kept(o)) continue;
      const key = storeKey(o);
      seen.add(key);
      this.upsert(key, o);
    }
    for (const [key, old] of [...this.store]) {
      if (seen.has(key)) continue;
      this.store.delete(key);
      this.o.handler({ type: 'DELETED', kind: this.kind, object: old, oldObject: old });
    }
    this.resourceVersion = resourceVersion;
  }

  private upsert(key: string, o: KubeObject): void {
    const old = this.store.get(key);
    if (old === undefined) {
      this.store.set(key, o);
      this.o.handler({ type: 'ADDED', kind: this.kind, object: o });
      return;
    }
    if (old.metadata?.uid && o.metadata?.uid && old.metadata.uid !== o.metadata.uid) {
      // Same name, new object: the old one was deleted while we were not looking.
      this.store.delete(key);
      this.o.handler({ type: 'DELETED', kind: this.kind, object: old, oldObject: old });
      this.store.set(key, o);
      this.o.handler({ type: 'ADDED', kind: this.kind, object: o });
      return;
    }
    if (old.metadata?.resourceVersion !== undefined && old.metadata.resourceVersion === o.metadata?.resourceVersion) return;
    this.store.set(key, o);
    this.o.handler({ type: 'MODIFIED', kind: this.kind, object: o, oldObject: old });
  }

  private remove(key: string, o: KubeObject): void {
    const old = this.store.get(key);
    if (old === undefined) return;
    this.store.delete(key);
    this.o.handler({ type: 'DELETED', kind: this.kind, object: o, oldObject: old });
  }

  /** Applies one ADDED/MODIFIED/DELETED/BOOKMARK event to the store and moves resourceVersion on. */
  private apply(ev: RawWatchEvent): void {
    const o = this.typed(ev.object as unknown as KubeObject);
    const rv = o.metadata?.resourceVersion;
    const key = storeKey(o);
    switch (ev.type) {
      case 'BOOKMARK':
        break;
      case 'ADDED':
      case 'MODIFIED':
        if (this.kept(o)) this.upsert(key, o);
        else this.remove(key, o);
        break;
      case 'DELETED':
        this.remove(key, o);
        break;
      default:
        return;
    }
    if (rv) this.resourceVersion = rv;
  }

  /** Watches from `resourceVersion` until the stream ends. */
  private watchOnce(): Promise<WatchEnd> {
    return new Promise((resolve) => {
      let events = 0;
      let ended = false;
      const end = (r: WatchEnd) => {
        if (ended) return;
        ended = true;
        this.watch = null;
        resolve(r);
      };
      const timeoutSeconds = 300 + Math.floor(this.random() * 300);
      this.watch = this.o.transport.watch(
        this.o.spec.path,
        {
          fieldSelector: this.o.spec.fieldSelector,
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: 'true',
          timeoutSeconds: String(timeoutSeconds),
        },
        (ev) => {
          if (ended) return;
          if (ev.type === 'ERROR') {
            const s = statusFromBody(ev.object);
            const handle = this.watch;
            if (s.code === 410) end({ kind: 'expired' });
            else end({ kind: 'error', err: new ApiError(s.code ?? 500, s.message ?? 'watch error') });
            handle?.close();
            return;
          }
          events++;
          this.apply(ev);
        },
        (err) => {
          if (err === null) end({ kind: 'closed', events });
          else if (isGone(err)) end({ kind: 'expired' });
          else end({ kind: 'error', err });
        },
      );
    });
  }

  /** Watches until stopped: resumes after closes, relists after 410, backs off after errors. */
  async watchLoop(): Promise<void> {
    while (!this.stopped) {
      const r = await this.watchOnce();
      if (this.stopped) return;
      if (r.kind === 'closed') {
        // A stream that ends at once with nothing in it means trouble: back off before the next.
        if (r.events === 0) await this.sleeper.sleep(this.backoff.next());
        else this.backoff.reset();
        continue;
      }
      if (r.kind === 'error') {
        const delay = this.backoff.next();
        this.o.log.v(2).info('Watch ended with an error; retrying', { kind: this.kind, err: r.err, retryAfterMs: delay });
        await this.sleeper.sleep(delay);
        continue;
      }
      this.o.log.v(2).info('Watch expired (410 Gone); relisting', { kind: this.kind, resourceVersion: this.resourceVersion });
      this.relists++;
      const listed = await this.listWithRetry();
      if (!listed || this.stopped) return;
      this.replace(listed.items, listed.resourceVersion);
    }
  }

  stop(): void {
    this.stopped = true;
    this.sleeper.cancelAll();
    this.watch?.close();
    this.watch = null;
  }
}
