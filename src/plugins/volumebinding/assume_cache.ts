// An assume cache over the informer's PVs or PVCs (pkg/scheduler/util/assumecache): the scheduler
// records the changes it is about to make (assume) so later pods see them before the API does.
import type { KubeObject, PersistentVolume, PersistentVolumeClaim } from '../../api/types.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import { getPersistentVolumeClass } from './pv_helpers.js';

type AssumableKind = 'PersistentVolume' | 'PersistentVolumeClaim';

/** The resourceVersion as a number; objects without one (tests) count as version 0. */
function objectVersion(o: KubeObject): number {
  const rv = o.metadata?.resourceVersion;
  if (rv === undefined || rv === '') return 0;
  const n = Number(rv);
  if (!Number.isInteger(n)) throw new Error(`cannot parse resourceVersion "${rv}" of ${o.metadata?.name ?? ''}`);
  return n;
}

/**
 * Assumed objects are kept beside the informer's: an informer version newer than the assumed one
 * (or a deletion) replaces the assumption, as upstream's event handlers do; reading compares lazily.
 */
class AssumeCache<T extends KubeObject> {
  private readonly assumed = new Map<string, T>();

  constructor(
    private readonly lister: ObjectLister,
    readonly kind: AssumableKind,
  ) {}

  /** The cache key: namespace/name for claims, the name for volumes. */
  keyOf(o: KubeObject): string {
    const name = o.metadata?.name ?? '';
    return this.kind === 'PersistentVolumeClaim' ? `${o.metadata?.namespace ?? ''}/${name}` : name;
  }

  private apiByKey(key: string): T | undefined {
    if (this.kind === 'PersistentVolume') return this.lister.get<T>(this.kind, '', key);
    const slash = key.indexOf('/');
    return this.lister.get<T>(this.kind, key.slice(0, slash), key.slice(slash + 1));
  }

  /** The latest object: the assumed one unless the informer has caught up or moved past it. */
  get(key: string): T | undefined {
    const api = this.apiByKey(key);
    const a = this.assumed.get(key);
    if (api === undefined) {
      this.assumed.delete(key);
      return undefined;
    }
    if (a === undefined) return api;
    if (objectVersion(api) > objectVersion(a)) {
      this.assumed.delete(key);
      return api;
    }
    return a;
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

  /** Records `obj` as the latest version; it must not be older than the latest one. */
  assume(obj: T): void {
    const key = this.keyOf(obj);
    const latest = this.get(key);
    if (latest === undefined) throw new Error(`${this.kind} "${key}" not found in the assume cache`);
    const stored = objectVersion(latest);
    const next = objectVersion(obj);
    if (next < stored) throw new Error(`${this.kind} "${key}" is out of sync (stored: ${stored}, assume: ${next})`);
    this.assumed.set(key, obj);
  }

  /** Drops the assumption for `key`, back to the informer's object. */
  restore(key: string): void {
    this.assumed.delete(key);
  }
}

export class PVAssumeCache extends AssumeCache<PersistentVolume> {
  constructor(lister: ObjectLister) {
    super(lister, 'PersistentVolume');
  }

  /** The latest volumes of a storage class (the class index of upstream's PV cache). */
  listPVs(storageClassName: string): PersistentVolume[] {
    const out: PersistentVolume[] = [];
    for (const pv of this.list()) if (getPersistentVolumeClass(pv) === storageClassName) out.push(pv);
    return out;
  }
}

export class PVCAssumeCache extends AssumeCache<PersistentVolumeClaim> {
  constructor(lister: ObjectLister) {
    super(lister, 'PersistentVolumeClaim');
  }
}
