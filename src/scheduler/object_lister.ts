// The scheduler's informer view of the kinds plugins read (Namespace, Service, PDB, ...).
import type { KubeObject } from '../api/types.js';
import type { ListedKind, ObjectLister } from '../framework/interfaces.js';

export class MapObjectLister implements ObjectLister {
  private readonly byKind = new Map<string, Map<string, KubeObject>>();

  constructor(objects: readonly KubeObject[] = []) {
    for (const o of objects) this.upsert(o);
  }

  private static key(namespace: string, name: string): string {
    return `${namespace}/${name}`;
  }

  upsert(o: KubeObject): void {
    const kind = o.kind ?? '';
    let m = this.byKind.get(kind);
    if (!m) this.byKind.set(kind, (m = new Map()));
    m.set(MapObjectLister.key(o.metadata?.namespace ?? '', o.metadata?.name ?? ''), o);
  }

  remove(o: KubeObject): void {
    this.byKind.get(o.kind ?? '')?.delete(MapObjectLister.key(o.metadata?.namespace ?? '', o.metadata?.name ?? ''));
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
