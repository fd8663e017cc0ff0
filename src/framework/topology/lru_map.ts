// The few counts kept between attempts, by cache key: the least recently used goes first.

export class LruMap<V> {
  private readonly entries = new Map<string, V>();
  /** The most recently used key: asked again (a workload's pods alike), it is already in place. */
  private lastKey: string | null = null;

  constructor(private readonly capacity: number) {}

  /** The entry under `key`, now the most recently used. */
  get(key: string): V | undefined {
    if (key === this.lastKey) return this.entries.get(key);
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
      this.lastKey = key;
    }
    return v;
  }

  /** Stores `v` as the most recently used, dropping the least recently used beyond capacity. */
  set(key: string, v: V): void {
    this.entries.delete(key);
    this.entries.set(key, v);
    this.lastKey = key;
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
