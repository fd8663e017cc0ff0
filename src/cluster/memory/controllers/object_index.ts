// An informer index for the embedded controllers (client-go cache.Indexer's ByIndex): objects of
// one kind under the key a function gives, kept current from the store's events, so a sync reads
// the few objects it concerns instead of listing the kind.
import type { KubeObject } from '../../../api/types.js';

export class ObjectIndex<T extends KubeObject> {
  private readonly byKey = new Map<string, Map<string, T>>();
  /** Each indexed object's current key, so an update that changes it moves the object. */
  private readonly keyOf = new Map<string, string>();

  /** `indexKey` returns undefined for an object the index leaves out. */
  constructor(private readonly indexKey: (o: T) => string | undefined) {}

  /** Records `o` as present (added or updated) or gone. */
  observe(o: T, present: boolean): void {
    const id = `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
    const previous = this.keyOf.get(id);
    const next = present ? this.indexKey(o) : undefined;
    if (previous !== undefined && previous !== next) {
      const m = this.byKey.get(previous)!;
      m.delete(id);
      if (m.size === 0) this.byKey.delete(previous);
      this.keyOf.delete(id);
    }
    if (next === undefined) return;
    let m = this.byKey.get(next);
    if (m === undefined) this.byKey.set(next, (m = new Map()));
    m.set(id, o);
    this.keyOf.set(id, next);
  }

  /** The objects under `key`, in the order they were first indexed. */
  get(key: string): T[] {
    return [...(this.byKey.get(key)?.values() ?? [])];
  }
}
