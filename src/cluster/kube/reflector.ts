// List+watch of one kind into a local store, delivering changes as WatchEvents with the previous
// version (client-go tools/cache/reflector.go with the DeltaFIFO's Replace). `run` is client-go's
// Run: ListAndWatch under wait.BackoffUntil, forever. Watches that fail to start because nothing
// answers (connection refused) or the server is throttling (429) are retried from the same
// resourceVersion; other failures relist, and a relist turns into the ADDED/MODIFIED/DELETED events
// that reconcile the store, so nothing is lost or delivered twice.
import type { KubeObject } from '../../api/types.js';
import { markFromApiServer } from '../../api/validation/index.js';
import type { Logger } from '../../log/logger.js';
import type { Clock, TimerHandle } from '../../util/clock.js';
import type { WatchEvent } from '../types.js';
import { Backoff, Sleeper } from './backoff.js';
import {
  isConnectionRefused, isExpired, isNotFound, isProbableEOF, isTooLargeResourceVersion, isTooManyRequests, retryAfterSeconds, statusErrorOf, StatusError,
} from './errors.js';
import type { ResourceSpec } from './resources.js';
import { storeKey } from './resources.js';
import { listAll, type Listed } from './list.js';
import type { RawWatchEvent, RestTransport, WatchHandle } from './rest.js';

export interface ReflectorOptions {
  spec: ResourceSpec;
  transport: RestTransport;
  clock: Clock;
  log: Logger;
  /** Gets every change after the store has applied it. */
  handler: (e: WatchEvent) => void;
  /** Objects failing this are kept out of the store (as the server-side field selector would). */
  keep?: (o: KubeObject) => boolean;
  /** Drop each object's metadata.managedFields as it arrives (client-go's SetTransform, as upstream's pod informer does). */
  trimManagedFields?: boolean;
  backoff?: Backoff;
  random?: () => number;
  /** Page size of lists (client-go's pager: 500). */
  pageSize?: number;
  /** Each list request is given up after this long (ms), so a hung connection cannot stall a relist. */
  listTimeoutMs?: number;
  /** Watches ask the server to end them after a random time in [min, 2·min] (client-go: 5 minutes). */
  minWatchTimeoutMs?: number;
  /** A watch still open this long past its timeoutSeconds is taken for dead and dropped. */
  watchGraceMs?: number;
  /** Told when this kind stops being in sync with the server (an error) and when it is again (null). */
  onHealth?: (kind: string, err: Error | null) => void;
  /**
   * The first list (at resourceVersion "0"), already asked for by the caller before this reflector
   * existed: used instead of listing again when it succeeds, ignored when it fails.
   */
  firstList?: Promise<Listed>;
}

/** How one watch request ended. */
type WatchEnd =
  | { readonly kind: 'not-started'; readonly err: Error }
  | { readonly kind: 'ended'; readonly err: Error | null; readonly events: number; readonly durationMs: number }
  | { readonly kind: 'hung'; readonly afterMs: number }
  | { readonly kind: 'stopped' };

/** What the reflector is doing, for /readyz, logs and tests. */
export interface ReflectorStatus {
  readonly kind: string;
  /** The store holds a complete list (the first list succeeded). */
  readonly synced: boolean;
  /** A watch stream is open (or the last list succeeded and one is being opened). */
  readonly healthy: boolean;
  /** The error that made it unhealthy, and since when (clock ms). */
  readonly lastError?: string;
  readonly unhealthySince?: number;
  readonly resourceVersion: string;
  readonly lists: number;
  /** Lists after the first, after a watch could not resume. */
  readonly relists: number;
  /** Watch requests the server accepted. */
  readonly watches: number;
}

const defaultMinWatchTimeoutMs = 5 * 60_000;
const defaultWatchGraceMs = 30_000;
/** A watch that ends this fast with nothing in it means trouble (watchHandler's "very short watch"). */
const veryShortWatchMs = 1000;
/** The rest client's retries of one watch request (maxRetries), and its wait after a broken connection. */
const maxTransportRetries = 10;
const brokenWatchRetryMs = 1000;

export class Reflector {
  readonly store = new Map<string, KubeObject>();
  /** The resourceVersion of the last list or event seen: where the next watch resumes. */
  resourceVersion = '';
  /** The last list or watch was told that resourceVersion is gone or not there yet: relist from now. */
  private lastSyncUnavailable = false;
  private stopped = false;
  private watchHandle: WatchHandle | null = null;
  private readonly backoff: Backoff;
  private readonly sleeper: Sleeper;
  private readonly random: () => number;
  private synced = false;
  private healthy = true;
  private lastError: Error | undefined;
  private unhealthySince: number | undefined;
  /** When it last came back in touch after trouble (clock ms). */
  private recoveredAt: number | undefined;
  private lists = 0;
  relists = 0;
  private watches = 0;
  /** Retries of watch requests since one last opened (the rest client's retry count). */
  private transportRetries = 0;

  constructor(private readonly o: ReflectorOptions) {
    this.backoff = o.backoff ?? new Backoff(o.clock, { random: o.random });
    this.sleeper = new Sleeper(o.clock);
    this.random = o.random ?? Math.random;
  }

  /** The kind's key (api/kinds.ts), which its watch events carry. */
  get kind(): string {
    return this.o.spec.key;
  }

  /**
   * The store follows the API server: listed, its watch open (or being reopened from where it was)
   * with no error since, and back in touch for at least `settledMs` after any trouble (a watch that
   * just reopened may still be replaying what it missed). Only then may a new leader schedule from
   * it as it is.
   */
  inSync(settledMs: number): boolean {
    if (!this.synced || !this.healthy) return false;
    return this.recoveredAt === undefined || this.o.clock.now() - this.recoveredAt >= settledMs;
  }

  status(): ReflectorStatus {
    return {
      kind: this.kind,
      synced: this.synced,
      healthy: this.healthy,
      lastError: this.healthy ? undefined : this.lastError?.message,
      unhealthySince: this.healthy ? undefined : this.unhealthySince,
      resourceVersion: this.resourceVersion,
      lists: this.lists,
      relists: this.relists,
      watches: this.watches,
    };
  }

  private markUnhealthy(err: Error): void {
    this.lastError = err;
    if (!this.healthy) return;
    this.healthy = false;
    this.unhealthySince = this.o.clock.now();
    this.o.onHealth?.(this.kind, err);
  }

  private markHealthy(): void {
    if (this.healthy) return;
    this.healthy = true;
    this.recoveredAt = this.o.clock.now();
    this.unhealthySince = undefined;
    this.o.onHealth?.(this.kind, null);
  }

  /**
   * The first list, retried with backoff until it succeeds or the reflector stops (null then). A
   * kind the server does not serve (404) counts as listed empty, as client-go's emergency sync.
   */
  async listUntilSynced(): Promise<Listed | null> {
    const early = this.o.firstList ? await this.o.firstList.catch(() => null) : null;
    if (early && !this.stopped && this.lists === 0) {
      this.lists++;
      return early;
    }
    while (!this.stopped) {
      try {
        return await this.list();
      } catch (err) {
        if (this.stopped) return null;
        if (isNotFound(err)) {
          this.o.log.warning('The API server does not serve this kind; treating it as empty', { kind: this.kind, err });
          return { items: [], resourceVersion: '' };
        }
        this.reportError(err);
        await this.sleeper.sleep(this.backoff.next());
      }
    }
    return null;
  }

  /**
   * Brings the store up to the API server's latest state: a list at "" (a consistent read, not a
   * cache that may lag), reconciled into the store, then the open watch is closed so the next one
   * resumes from that list. Retried with backoff until it succeeds or the reflector stops. A new
   * leader calls it: its informers may have missed, while they could not watch, bindings the old
   * leader made, and scheduling on that view would overcommit nodes.
   */
  async catchUp(): Promise<void> {
    while (!this.stopped) {
      try {
        const listed = await this.listAt('');
        if (this.stopped) return;
        this.replace(listed.items, listed.resourceVersion);
        this.lastSyncUnavailable = false;
        this.watchHandle?.close();
        this.watchHandle = null;
        this.markHealthy();
        return;
      } catch (err) {
        if (this.stopped) return;
        if (isNotFound(err)) return;
        this.reportError(err);
        await this.sleeper.sleep(this.backoff.next());
      }
    }
  }

  /** Lists and watches until stopped; the first list is the caller's (`listUntilSynced` + `replace`). */
  async run(): Promise<void> {
    let needList = this.resourceVersion === '';
    while (!this.stopped) {
      try {
        if (needList) {
          const listed = await this.list();
          if (this.stopped) return;
          this.relists++;
          this.replace(listed.items, listed.resourceVersion);
        }
        needList = true;
        await this.watch();
      } catch (err) {
        if (this.stopped) return;
        // A kind the server does not serve stays listed as empty; asking again now and then is enough.
        if (isNotFound(err)) this.o.log.v(4).info('The API server does not serve this kind', { kind: this.kind, err });
        else this.reportError(err);
      }
      if (this.stopped) return;
      await this.sleeper.sleep(this.backoff.next());
    }
  }

  stop(): void {
    this.stopped = true;
    this.sleeper.cancelAll();
    this.watchHandle?.close();
    this.watchHandle = null;
  }

  /** client-go's DefaultWatchErrorHandler: the failure is logged, then ListAndWatch runs again after backoff. */
  private reportError(err: unknown): void {
    const e = err instanceof Error ? err : new Error(String(err));
    this.markUnhealthy(e);
    this.o.log.v(2).info('Failed to list or watch; retrying after backoff', { kind: this.kind, err: e });
  }

  /** The resourceVersion to list at (relistResourceVersion): where we are, "0" at first, "" (latest) when that is unavailable. */
  private relistResourceVersion(): string {
    if (this.lastSyncUnavailable) return '';
    return this.resourceVersion === '' ? '0' : this.resourceVersion;
  }

  /** Lists every object; a resourceVersion the server no longer has or does not have yet is retried at the latest. */
  async list(): Promise<Listed> {
    let listed: Listed;
    try {
      listed = await this.listAt(this.relistResourceVersion());
    } catch (err) {
      if (!isExpired(err) && !isTooLargeResourceVersion(err)) throw err;
      this.o.log.v(2).info('Listing at the last resourceVersion failed; listing the latest', { kind: this.kind, resourceVersion: this.resourceVersion, err });
      this.lastSyncUnavailable = true;
      listed = await this.listAt('');
    }
    this.lastSyncUnavailable = false;
    this.lists++;
    this.markHealthy();
    return listed;
  }

  /** All pages at one resourceVersion. */
  private listAt(resourceVersion: string): Promise<Listed> {
    return listAll(this.o.transport, this.o.spec, resourceVersion, { pageSize: this.o.pageSize, timeoutMs: this.o.listTimeoutMs, withoutManagedFields: this.o.trimManagedFields });
  }

  /**
   * Watches from `resourceVersion` until the watch should be followed by a relist (returns) or fails
   * in a way that needs one (throws): reflector.watch.
   */
  private async watch(): Promise<void> {
    while (!this.stopped) {
      const end = await this.watchOnce();
      if (this.stopped || end.kind === 'stopped') return;
      if (end.kind === 'not-started') {
        const delay = this.watchRetryDelay(end.err);
        if (delay === null) throw end.err;
        this.markUnhealthy(end.err);
        this.o.log.v(4).info('Watch could not start; backing off', { kind: this.kind, err: end.err, retryAfterMs: delay });
        await this.sleeper.sleep(delay);
        continue;
      }
      if (end.kind === 'hung') {
        this.o.log.v(2).info('Watch got no answer past its timeout; reconnecting', { kind: this.kind, afterMs: end.afterMs });
        continue;
      }
      const err = end.err;
      if (err instanceof StatusError) {
        if (isExpired(err)) {
          this.o.log.v(4).info('Watch closed with an expired resourceVersion; relisting', { kind: this.kind, resourceVersion: this.resourceVersion, err });
          return;
        }
        if (isTooManyRequests(err)) {
          const delay = Math.max(this.backoff.next(), (retryAfterSeconds(err) ?? 0) * 1000);
          this.o.log.v(2).info('Watch returned 429; backing off', { kind: this.kind, retryAfterMs: delay });
          await this.sleeper.sleep(delay);
          continue;
        }
        throw err;
      }
      if (err !== null && !isProbableEOF(err)) throw err;
      if (end.events === 0 && end.durationMs < veryShortWatchMs) {
        throw new Error(`very short watch: ${this.kind}: unexpected watch close - watch lasted less than a second and no items received`);
      }
      // A normal end (the server's timeoutSeconds, or it went away mid-stream): resume where we are.
    }
  }

  /** The wait before opening a watch again after it could not start, or null when a relist is needed (isWatchErrorRetriable). */
  private watchRetryDelay(err: Error): number | null {
    if (isConnectionRefused(err) || isTooManyRequests(err)) return Math.max(this.backoff.next(), (retryAfterSeconds(err) ?? 0) * 1000);
    // What client-go's rest client retries itself before the reflector sees an error (Watch's
    // retry: a 5xx saying when to come back, or a connection that broke before the answer).
    if (this.transportRetries >= maxTransportRetries) return null;
    const after = retryAfterSeconds(err);
    if (after !== undefined && !isTooLargeResourceVersion(err)) {
      this.transportRetries++;
      return after * 1000;
    }
    if (isProbableEOF(err)) {
      this.transportRetries++;
      return brokenWatchRetryMs;
    }
    return null;
  }

  private typed(o: KubeObject): KubeObject {
    // Before the mark: the object is then exactly what the store keeps.
    if (this.o.trimManagedFields === true && o.metadata?.managedFields !== undefined) delete o.metadata.managedFields;
    markFromApiServer(o);
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
    // The first list finds the store empty: nothing to delete, so no set of the keys seen (at
    // 5,000 nodes ~10 ms of `run`'s start, on code not yet optimized).
    const seen = this.store.size === 0 ? null : new Set<string>();
    for (const raw of items) {
      const o = this.typed(raw);
      if (!this.kept(o)) continue;
      const key = storeKey(o);
      seen?.add(key);
      this.upsert(key, o);
    }
    if (seen !== null) {
      for (const [key, old] of [...this.store]) {
        if (seen.has(key)) continue;
        this.store.delete(key);
        this.o.handler({ type: 'DELETED', kind: this.kind, object: old, oldObject: old });
      }
    }
    this.resourceVersion = resourceVersion;
    this.synced = true;
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

  /** One watch request from `resourceVersion`, until its stream ends, it is stopped, or it hangs. */
  private watchOnce(): Promise<WatchEnd> {
    return new Promise((resolve) => {
      const { clock } = this.o;
      const startedAt = clock.now();
      let opened = false;
      let events = 0;
      let ended = false;
      let deadline: TimerHandle | null = null;
      const end = (r: WatchEnd) => {
        if (ended) return;
        ended = true;
        if (deadline) clock.clearTimeout(deadline);
        this.watchHandle = null;
        resolve(r);
      };
      const open = () => {
        if (opened) return;
        opened = true;
        this.watches++;
        this.transportRetries = 0;
        this.markHealthy();
      };
      const minTimeoutMs = this.o.minWatchTimeoutMs ?? defaultMinWatchTimeoutMs;
      // Spread reconnects over time so replicas do not all rewatch at once.
      const timeoutSeconds = Math.max(1, Math.floor((minTimeoutMs * (1 + this.random())) / 1000));
      const hungAfterMs = timeoutSeconds * 1000 + (this.o.watchGraceMs ?? defaultWatchGraceMs);
      deadline = clock.setTimeout(() => {
        const h = this.watchHandle;
        end({ kind: 'hung', afterMs: hungAfterMs });
        h?.close();
      }, hungAfterMs);
      const handle = this.o.transport.watch(
        this.o.spec.path,
        {
          fieldSelector: this.o.spec.fieldSelector,
          resourceVersion: this.resourceVersion,
          allowWatchBookmarks: 'true',
          timeoutSeconds: String(timeoutSeconds),
        },
        (ev) => {
          if (ended) return;
          open();
          if (ev.type === 'ERROR') {
            const h = this.watchHandle;
            end({ kind: 'ended', err: statusErrorOf(500, ev.object, 'watch error'), events, durationMs: clock.now() - startedAt });
            h?.close();
            return;
          }
          events++;
          this.apply(ev);
        },
        (err) => {
          if (this.stopped) end({ kind: 'stopped' });
          else if (err !== null && !opened) end({ kind: 'not-started', err });
          else end({ kind: 'ended', err, events, durationMs: clock.now() - startedAt });
        },
        open,
      );
      if (!ended) this.watchHandle = handle;
    });
  }
}
