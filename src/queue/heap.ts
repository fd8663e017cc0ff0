// A binary heap with keyed membership, so items can be updated or removed in O(log n)
// (backend/heap/heap.go). Each item sits in an entry that knows its position: a swap updates two
// fields instead of two map entries, and the map is touched only on add and remove.

interface Entry<T> {
  item: T;
  readonly key: string;
  pos: number;
}

export class KeyedHeap<T> {
  private readonly entries: Entry<T>[] = [];
  private readonly byKey = new Map<string, Entry<T>>();

  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly less: (a: T, b: T) => boolean,
  ) {}

  get length(): number {
    return this.entries.length;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  get(key: string): T | undefined {
    return this.byKey.get(key)?.item;
  }

  peek(): T | undefined {
    return this.entries[0]?.item;
  }

  /** Adds the item, or replaces and re-positions the item with the same key. */
  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const existing = this.byKey.get(key);
    if (existing !== undefined) {
      existing.item = item;
      this.fix(existing.pos);
      return;
    }
    const e: Entry<T> = { item, key, pos: this.entries.length };
    this.entries.push(e);
    this.byKey.set(key, e);
    this.up(e.pos);
  }

  pop(): T | undefined {
    if (this.entries.length === 0) return undefined;
    const top = this.entries[0]!;
    this.removeAt(0);
    return top.item;
  }

  delete(key: string): T | undefined {
    const e = this.byKey.get(key);
    if (e === undefined) return undefined;
    this.removeAt(e.pos);
    return e.item;
  }

  /** The items in heap order (not sorted). */
  list(): T[] {
    return this.entries.map((e) => e.item);
  }

  private removeAt(i: number): void {
    const entries = this.entries;
    const last = entries.length - 1;
    this.byKey.delete(entries[i]!.key);
    const moved = entries.pop()!;
    if (i === last) return;
    entries[i] = moved;
    moved.pos = i;
    this.fix(i);
  }

  private fix(i: number): void {
    if (!this.up(i)) this.down(i);
  }

  private up(i: number): boolean {
    const entries = this.entries;
    const e = entries[i]!;
    const start = i;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = entries[parent]!;
      if (!this.less(e.item, p.item)) break;
      entries[i] = p;
      p.pos = i;
      i = parent;
    }
    entries[i] = e;
    e.pos = i;
    return i !== start;
  }

  private down(i: number): void {
    const entries = this.entries;
    const n = entries.length;
    const e = entries[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let best = l;
      const r = l + 1;
      if (r < n && this.less(entries[r]!.item, entries[l]!.item)) best = r;
      const b = entries[best]!;
      if (!this.less(b.item, e.item)) break;
      entries[i] = b;
      b.pos = i;
      i = best;
    }
    entries[i] = e;
    e.pos = i;
  }
}
