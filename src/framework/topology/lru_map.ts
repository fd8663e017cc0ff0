// The few counts kept between attempts, by cache key: the least recently used goes first.

export class LruMap<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  /** The entry under `key`, now the most recently used. */
  get(key: string): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  /** Stores `v` as the most recently used, dropping the least recently used beyond capacity. */
  set(key: string, v: V): void {
    this.entries.delete(key);
    this.entries.set(key, v);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
