// The scheduler's informer view of the kinds plugins read (Namespace, Service, PDB, ...).
import type { KubeObject } from '../api/types.js';
import { kindKeyOf } from '../api/kinds.js';
import type { ListedKind, ObjectLister } from './interfaces.js';
import type { Clock, TimerHandle } from '../util/clock.js';

type ObjectChangeListener = (kind: string, oldObj: KubeObject | undefined, newObj: KubeObject | undefined) => void;

/** One kept object and when its namespace/name was first added (a replacement keeps the place). */
interface Kept {
  obj: KubeObject;
  readonly seq: number;
}

/**
 * One kind's objects by namespace, then name: a pod event keys on the strings the object already
 * holds instead of building "namespace/name" (that key cost SchedulingSecrets 4-7% of its CPU).
 */
type KindObjects = Map<string, Map<string, Kept>>;

export class MapObjectLister implements ObjectLister {
  /** By kind key (api/kinds.ts). */
  private readonly byKind = new Map<string, KindObjects>();
  /** Insertion counter: a list across namespaces comes back in the order the objects were added. */
  private seq = 0;
  /** Called after every change; replaced, never mutated, so a listener may unsubscribe while called. */
  private listeners: readonly ObjectChangeListener[] = [];

  constructor(objects: readonly KubeObject[] = []) {
    for (const o of objects) this.upsert(o);
  }

  upsert(o: KubeObject): void {
    const kind = kindKeyOf(o);
    let k = this.byKind.get(kind);
    if (!k) this.byKind.set(kind, (k = new Map()));
    const namespace = o.metadata?.namespace ?? '';
    let names = k.get(namespace);
    if (!names) k.set(namespace, (names = new Map()));
    const name = o.metadata?.name ?? '';
    const kept = names.get(name);
    const old = kept?.obj;
    if (kept) kept.obj = o;
    else names.set(name, { obj: o, seq: ++this.seq });
    this.notify(kind, old, o);
  }

  remove(o: KubeObject): void {
    const kind = kindKeyOf(o);
    const k = this.byKind.get(kind);
    const namespace = o.metadata?.namespace ?? '';
    const names = k?.get(namespace);
    const name = o.metadata?.name ?? '';
    const old = names?.get(name)?.obj;
    if (k !== undefined && names !== undefined && names.delete(name) && names.size === 0) k.delete(namespace);
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
    const k = this.byKind.get(kind);
    if (!k) return [];
    if (namespace !== undefined) {
      const names = k.get(namespace);
      if (!names) return [];
      const out: T[] = [];
      for (const kept of names.values()) out.push(kept.obj as T);
      return out;
    }
    const kept: Kept[] = [];
    for (const names of k.values()) for (const e of names.values()) kept.push(e);
    // Several namespaces interleave: back to the order the objects were added.
    if (k.size > 1) kept.sort((a, b) => a.seq - b.seq);
    return kept.map((e) => e.obj as T);
  }

  get<T extends KubeObject>(kind: ListedKind, namespace: string, name: string): T | undefined {
    return this.byKind.get(kind)?.get(namespace)?.get(name)?.obj as T | undefined;
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
