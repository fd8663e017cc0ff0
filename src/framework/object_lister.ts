// The scheduler's informer view of the kinds plugins read (Namespace, Service, PDB, ...).
import type { KubeObject } from '../api/types.js';
import { kindKeyOf } from '../api/kinds.js';
import type { ListedKind, ObjectLister } from './interfaces.js';
import type { Clock, TimerHandle } from '../util/clock.js';

type ObjectChangeListener = (kind: string, oldObj: KubeObject | undefined, newObj: KubeObject | undefined) => void;

export class MapObjectLister implements ObjectLister {
  /** By kind key (api/kinds.ts), then namespace/name. */
  private readonly byKind = new Map<string, Map<string, KubeObject>>();
  /** Called after every change; replaced, never mutated, so a listener may unsubscribe while called. */
  private listeners: readonly ObjectChangeListener[] = [];

  constructor(objects: readonly KubeObject[] = []) {
    for (const o of objects) this.upsert(o);
  }

  private static key(namespace: string, name: string): string {
    return `${namespace}/${name}`;
  }

  upsert(o: KubeObject): void {
    const kind = kindKeyOf(o);
    let m = this.byKind.get(kind);
    if (!m) this.byKind.set(kind, (m = new Map()));
    const key = MapObjectLister.key(o.metadata?.namespace ?? '', o.metadata?.name ?? '');
    const old = m.get(key);
    m.set(key, o);
    this.notify(kind, old, o);
  }

  remove(o: KubeObject): void {
    const kind = kindKeyOf(o);
    const m = this.byKind.get(kind);
    const key = MapObjectLister.key(o.metadata?.namespace ?? '', o.metadata?.name ?? '');
    const old = m?.get(key);
    m?.delete(key);
    this.notify(kind, old, undefined);
  }

  /** Calls `fn` after every upsert and remove until the returned function is called. */
  onChange(fn: ObjectChangeListener): () => void {
    this.listeners = [...this.listeners, fn];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== fn);
    };
  }

  /** Tells the listeners that an object of `kind` kept elsewhere (a pod) changed. */
  notifyChange(kind: string): void {
    this.notify(kind, undefined, undefined);
  }

  private notify(kind: string, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): void {
    const ls = this.listeners;
    for (let i = 0; i < ls.length; i++) ls[i]!(kind, oldObj, newObj);
  }

  list<T extends KubeObject>(kind: ListedKind, namespace?: string): readonly T[] {
    const m = this.byKind.get(kind);
    if (!m) return [];
    const out: T[] = [];
    for (const o of m.values()) {
      if (namespace === undefined || (o.metadata?.namespace ?? '') === namespace) out.push(o as T);
    }
    return out;
  }

  get<T extends KubeObject>(kind: ListedKind, namespace: string, name: string): T | undefined {
    return this.byKind.get(kind)?.get(MapObjectLister.key(namespace, name)) as T | undefined;
  }
}

/** What a wait ended by an aborted signal rejects with: Go's context.Canceled, in its words. */
const contextCanceled = 'context canceled';

/**
 * Resolves true once `ready()` holds, checked now and after every change of `objects`, or false
 * after `timeoutMs` on `clock`; rejects when `ready` throws, or when `signal` is aborted
 * (PluginClusterClient.waitUntil).
 */
export function waitForObjects(objects: MapObjectLister, clock: Clock, ready: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    let done = false;
    let timer: TimerHandle | null = null;
    let unsubscribe: () => void = () => {};
    const onAbort = () => finish(() => reject(new Error(contextCanceled, { cause: signal?.reason })));
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      if (timer !== null) clock.clearTimeout(timer);
      settle();
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    const check = () => {
      if (done) return;
      try {
        if (ready()) finish(() => resolve(true));
      } catch (err) {
        finish(() => reject(err as Error));
      }
    };
    check();
    if (done) return;
    unsubscribe = objects.onChange(check);
    signal?.addEventListener('abort', onAbort, { once: true });
    timer = clock.setTimeout(() => finish(() => resolve(false)), timeoutMs);
  });
}
