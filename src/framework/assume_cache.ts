// An assume cache over the informer's objects of one kind (pkg/scheduler/util/assumecache): the
// scheduler records the changes it is about to make (assume) so later pods see them before the
// API does; handlers hear of every change of the latest objects, informer's or assumed.
import type { KubeObject } from '../api/types.js';
import type { ListedKind, ObjectLister } from './interfaces.js';

/** Called with the latest object before and after a change (undefined: absent). */
export type AssumeCacheHandler<T> = (oldObj: T | undefined, newObj: T | undefined) => void;

/** The resourceVersion as a number; objects without one (tests) count as version 0. */
function objectVersion(o: KubeObject): number {
  const rv = o.metadata?.resourceVersion;
  if (rv === undefined || rv === '') return 0;
  const n = Number(rv);
  if (!Number.isInteger(n)) throw new Error(`cannot parse resourceVersion "${rv}" of ${o.metadata?.name ?? ''}`);
  return n;
}

/** The cache's error for an object it does not hold (assumecache.NotFoundError). */
export class AssumeCacheNotFoundError extends Error {
  constructor(description: string, key: string) {
    super(`could not find ${description} "${key}"`);
  }
}

/**
 * Assumed objects are kept beside the informer's: an informer version newer than the assumed one
 * (or a deletion) replaces the assumption, as upstream's event handlers do. Reading compares the
 * two, so a lister without change notifications still reads right; handlers need notifications.
 */
export class AssumeCache<T extends KubeObject> {
  private readonly assumed = new Map<string, T>();
  private handlers: readonly AssumeCacheHandler<T>[] = [];
  private readonly namespaced: boolean;

  constructor(
    private readonly lister: ObjectLister,
    readonly kind: ListedKind,
    /** How errors name the kind ("ResourceClaim", "PersistentVolume"). */
    readonly description: string = kind,
  ) {
    // Of the kinds the scheduler assumes (volumes, claims), only PersistentVolumes are cluster-scoped.
    this.namespaced = kind !== 'PersistentVolume';
    lister.onChange?.((changed, oldObj, newObj) => {
      if (changed === this.kind && (oldObj !== undefined || newObj !== undefined)) this.informerChange(oldObj as T | undefined, newObj as T | undefined);
    });
  }

  /** The cache key: namespace/name for namespaced kinds, the name otherwise. */
  keyOf(o: KubeObject): string {
    const name = o.metadata?.name ?? '';
    return this.namespaced ? `${o.metadata?.namespace ?? ''}/${name}` : name;
  }

  private apiByKey(key: string): T | undefined {
    if (!this.namespaced) return this.lister.get<T>(this.kind, '', key);
    const slash = key.indexOf('/');
    return this.lister.get<T>(this.kind, key.slice(0, slash), key.slice(slash + 1));
  }

  /** The latest object: the assumed one unless the informer has caught up or moved past it. */
  get(key: string): T | undefined {
    const api = this.apiByKey(key);
    const a = this.assumed.get(key);
    if (api === undefined) {
      if (a !== undefined) this.assumed.delete(key);
      return undefined;
    }
    if (a === undefined) return api;
    if (objectVersion(api) > objectVersion(a)) {
      this.assumed.delete(key);
      return api;
    }
    return a;
  }

  /** Like get, but a missing object is the cache's NotFoundError. */
  mustGet(key: string): T {
    const o = this.get(key);
    if (o === undefined) throw new AssumeCacheNotFoundError(this.description, key);
    return o;
  }

  /** The informer's object, ignoring assumptions (GetAPIObj). */
  getAPIObj(key: string): T | undefined {
    return this.apiByKey(key);
  }

  /** Every latest object, in the informer's order. */
  list(): T[] {
    const out: T[] = [];
    for (const o of this.lister.list<T>(this.kind)) {
      const latest = this.get(this.keyOf(o));
      if (latest !== undefined) out.push(latest);
    }
    return out;
  }

  /** Records `obj` (returned by an API write) as the latest version; it must not be older than the latest one. */
  assume(obj: T): void {
    const key = this.keyOf(obj);
    const latest = this.mustGet(key);
    const stored = objectVersion(latest);
    const next = objectVersion(obj);
    if (next < stored) throw new Error(`${this.description} "${key}" is out of sync (stored: ${stored}, assume: ${next})`);
    this.assumed.set(key, obj);
    this.emit(latest, obj);
  }

  /** Drops the assumption for `key`, back to the informer's object. */
  restore(key: string): void {
    const a = this.assumed.get(key);
    if (a === undefined) return;
    this.assumed.delete(key);
    const api = this.apiByKey(key);
    if (api !== a) this.emit(a, api);
  }

  /**
   * Calls `handler` with every object the cache holds now (as added), then with every change of
   * a latest object. The informer's changes reach handlers only through the lister's onChange.
   */
  addEventHandler(handler: AssumeCacheHandler<T>): void {
    if (this.lister.onChange === undefined) throw new Error(`the ${this.description} assume cache needs an object lister with change notifications`);
    this.handlers = [...this.handlers, handler];
    for (const o of this.list()) handler(undefined, o);
  }

  /** An informer add, update or delete: what the latest object becomes. */
  private informerChange(oldObj: T | undefined, newObj: T | undefined): void {
    const key = this.keyOf((newObj ?? oldObj)!);
    const a = this.assumed.get(key);
    if (newObj === undefined) {
      this.assumed.delete(key);
      this.emit(a ?? oldObj, undefined);
      return;
    }
    if (a === undefined) {
      this.emit(oldObj, newObj);
      return;
    }
    // A version not newer than the assumed one (a resync, or the write itself) changes nothing.
    if (objectVersion(newObj) <= objectVersion(a)) return;
    this.assumed.delete(key);
    this.emit(a, newObj);
  }

  private emit(oldObj: T | undefined, newObj: T | undefined): void {
    const hs = this.handlers;
    for (let i = 0; i < hs.length; i++) hs[i]!(oldObj, newObj);
  }
}
