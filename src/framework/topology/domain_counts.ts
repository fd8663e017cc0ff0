// One topology key's counts by the DomainTable's ids: the typed arrays both InterPodAffinity
// (through TopologyCounts) and PodTopologySpread (per constraint) read by a node's domain id.
import type { DomainTable } from './domain_table.js';

/** `a` with at least `length` entries, new ones set to `fill`. */
function grown<A extends Int32Array | Float64Array>(a: A, length: number, fill: number): A {
  if (length <= a.length) return a;
  const out = new (a.constructor as new (n: number) => A)(Math.max(length, 2 * a.length));
  out.fill(fill);
  out.set(a);
  return out;
}

/**
 * The domains of one key that were registered, in registration order (a full walk of the node
 * list registers them in the order it first meets them, which decides ties where callers iterate),
 * each with a count that stays while it is 0. `fork` shares the arrays with a copy; whichever
 * side writes first copies what it writes (a cycle state's view of counts kept between cycles).
 */
export class DomainCounts {
  private valueList: string[];
  private order: number[];
  /** By id: the domain's place in `values`, or -1 when the id is not a domain here. */
  private slots: Int32Array;
  private counts: Float64Array;
  private sharedCounts = false;
  private sharedDomains = false;

  /** `ids`: the table's ids of the key when counting starts (later values add ids, never move them). */
  constructor(
    private readonly ids: ReadonlyMap<string, number>,
    from: DomainCounts | null = null,
  ) {
    this.valueList = from === null ? [] : from.valueList;
    this.order = from === null ? [] : from.order;
    this.slots = from === null ? new Int32Array(0) : from.slots;
    this.counts = from === null ? new Float64Array(0) : from.counts;
    this.sharedCounts = this.sharedDomains = from !== null;
  }

  /** Empty counts over key `key` of `table`. */
  static of(table: DomainTable, key: string): DomainCounts {
    return new DomainCounts(table.valueIds(table.keyIndex(key)));
  }

  /** A copy sharing the arrays until either side writes. */
  fork(): DomainCounts {
    this.sharedCounts = this.sharedDomains = true;
    return new DomainCounts(this.ids, this);
  }

  /** The number of domains. */
  get size(): number {
    return this.valueList.length;
  }

  /** The domains' values in registration order. */
  get values(): readonly string[] {
    return this.valueList;
  }

  /** Counts by domain id: ids beyond the array, or not domains, must not be read. */
  get totals(): Float64Array {
    return this.counts;
  }

  /** Whether id `id` is a domain here. */
  has(id: number): boolean {
    return id >= 0 && id < this.slots.length && this.slots[id]! >= 0;
  }

  /** The id of the domain named `value`, or -1 when it is not a domain here. */
  idOf(value: string): number {
    const id = this.ids.get(value);
    return id !== undefined && this.has(id) ? id : -1;
  }

  /** The value of domain `id`. */
  valueOf(id: number): string {
    return this.valueList[this.slots[id]!]!;
  }

  /** The id of the domain at place `w` of `values`. */
  idAt(w: number): number {
    return this.order[w]!;
  }

  /** The count of id `id` (0 when it is not a domain). */
  countAt(id: number): number {
    return id < this.counts.length ? this.counts[id]! : 0;
  }

  /** Makes id `id`, named `value`, a domain (at 0) unless it is one. */
  register(id: number, value: string): void {
    if (this.has(id)) return;
    this.ownDomains();
    if (id >= this.slots.length) {
      this.slots = grown(this.slots, id + 1, -1);
      const counts = grown(this.counts, this.slots.length, 0);
      if (counts !== this.counts) this.sharedCounts = false;
      this.counts = counts;
    }
    this.slots[id] = this.valueList.length;
    this.valueList.push(value);
    this.order.push(id);
  }

  /**
   * Makes `id` no domain, its count 0. The last domain takes its place in the order: for callers
   * that do not iterate in order (PodTopologySpread, which does, never unregisters).
   */
  unregister(id: number): void {
    if (!this.has(id)) return;
    this.ownDomains();
    this.writable()[id] = 0;
    const w = this.slots[id]!;
    const lastId = this.order.pop()!;
    const lastValue = this.valueList.pop()!;
    this.slots[id] = -1;
    if (lastId === id) return;
    this.order[w] = lastId;
    this.valueList[w] = lastValue;
    this.slots[lastId] = w;
  }

  /** Adds `delta` to domain `id` and returns its new count. */
  add(id: number, delta: number): number {
    return (this.writable()[id]! += delta);
  }

  /** Sets the count of `id`, named `value`, registering it. */
  set(id: number, value: string, count: number): void {
    this.register(id, value);
    this.writable()[id] = count;
  }

  private ownDomains(): void {
    if (!this.sharedDomains) return;
    this.valueList = this.valueList.slice();
    this.order = this.order.slice();
    this.slots = this.slots.slice();
    this.sharedDomains = false;
  }

  private writable(): Float64Array {
    if (this.sharedCounts) {
      this.counts = this.counts.slice();
      this.sharedCounts = false;
    }
    return this.counts;
  }
}
