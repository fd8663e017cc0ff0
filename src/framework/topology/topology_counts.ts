// Counts per topology pair (key, value), as filtering.go's topologyToMatchedTermCount and
// scoring.go's scoreMap keep them.
import type { Labels } from '../../api/labels.js';
import { DomainCounts } from './domain_counts.js';
import type { DomainTable } from './domain_table.js';
import { labelValue } from './label_value.js';

/**
 * A map (topologyKey, topologyValue) → count: per key, the pairs held as a DomainCounts by value
 * id, which are the bound DomainTable's ids (the `…At(pos)` lookups read them by node position,
 * see domain_table.ts) or, without a table, ids of its own. Keys sit in a plain array so the
 * per-node lookups (`anyPositive`, `sumFor`) iterate without allocating.
 */
export class TopologyCounts {
  /** A handful at most (one per topology key of the terms or constraints): searched in order, no Map. */
  private readonly keys: string[] = [];
  private pairs = 0;
  /** Per key: its index in the table (-1 without one), its value ids and its pairs. */
  private readonly tableKeys: number[] = [];
  private readonly ids: Map<string, number>[] = [];
  private readonly dense: DomainCounts[] = [];

  constructor(readonly table: DomainTable | null = null) {}

  /** Counts of the one key `key` of `table`, sharing `domains` (by the table's current ids) until written. */
  static over(table: DomainTable, key: string, domains: DomainCounts): TopologyCounts {
    // PodTopologySpread makes one per constraint per attempt: no throwaway DomainCounts.
    const c = new TopologyCounts(table);
    c.addKey(key, domains.fork());
    c.pairs = domains.size;
    return c;
  }

  /** Number of (key, value) pairs held. */
  get size(): number {
    return this.pairs;
  }

  /** Adds `delta` to a pair, dropped when it reaches zero (counts of matching pods); returns the new count. */
  add(key: string, value: string, delta: number): number {
    const i = this.indexOf(key);
    const pairs = this.dense[i]!;
    const id = this.idFor(i, value);
    const next = pairs.countAt(id) + delta;
    const had = pairs.has(id);
    if (next === 0) {
      if (had) this.drop(pairs, id);
      return 0;
    }
    if (!had) this.pairs++;
    pairs.set(id, value, next);
    return next;
  }

  /**
   * Adds `delta` to a pair and keeps it even at zero (scores: a matched term counts as data;
   * spread domains: a domain exists while an eligible node is in it); returns the new count.
   */
  accumulate(key: string, value: string, delta: number): number {
    const i = this.indexOf(key);
    const pairs = this.dense[i]!;
    const id = this.idFor(i, value);
    if (!pairs.has(id)) this.pairs++;
    const next = pairs.countAt(id) + delta;
    pairs.set(id, value, next);
    return next;
  }

  /** Drops a pair whatever its count. */
  delete(key: string, value: string): void {
    const i = this.keys.indexOf(key);
    const id = i < 0 ? undefined : this.ids[i]!.get(value);
    if (id !== undefined && this.dense[i]!.has(id)) this.drop(this.dense[i]!, id);
  }

  /** The topology keys held (a key may have no pairs left). */
  get keyList(): readonly string[] {
    return this.keys;
  }

  get(key: string, value: string): number {
    const i = this.keys.indexOf(key);
    if (i < 0) return 0;
    const id = this.ids[i]!.get(value);
    return id === undefined ? 0 : this.dense[i]!.countAt(id);
  }

  /** True when some key held here has, for the value `labels` gives it, a positive count. */
  anyPositive(labels: Labels): boolean {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) {
      if (this.dense[i]!.size === 0) continue;
      const v = labelValue(labels, keys[i]!);
      const id = v === undefined ? undefined : this.ids[i]!.get(v);
      if (id !== undefined && this.dense[i]!.countAt(id) > 0) return true;
    }
    return false;
  }

  /** Sum over the held keys of the count for the value `labels` gives each key. */
  sumFor(labels: Labels): number {
    let sum = 0;
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) {
      const v = labelValue(labels, keys[i]!);
      const id = v === undefined ? undefined : this.ids[i]!.get(v);
      if (id !== undefined) sum += this.dense[i]!.countAt(id);
    }
    return sum;
  }

  /** `get` for table key index `k` and the domain id `d` (not -1) of a node. */
  countAt(k: number, d: number): number {
    const tableKeys = this.tableKeys;
    for (let i = 0; i < tableKeys.length; i++) {
      if (tableKeys[i] === k) return this.dense[i]!.countAt(d);
    }
    return 0;
  }

  /** `anyPositive` for the node at position `pos` of the bound table. */
  anyPositiveAt(pos: number): boolean {
    const table = this.table!;
    for (let i = 0; i < this.tableKeys.length; i++) {
      const d = table.domain(this.tableKeys[i]!, pos);
      if (d >= 0 && this.dense[i]!.countAt(d) > 0) return true;
    }
    return false;
  }

  /** `sumFor` for the node at position `pos` of the bound table. */
  sumAt(pos: number): number {
    const table = this.table!;
    let sum = 0;
    for (let i = 0; i < this.tableKeys.length; i++) {
      const d = table.domain(this.tableKeys[i]!, pos);
      if (d >= 0) sum += this.dense[i]!.countAt(d);
    }
    return sum;
  }

  /**
   * A copy sharing the counts until either side writes (a cycle state's view of counts kept
   * between attempts: AddPod/RemovePod and later syncs then change one side only). Value ids are
   * shared too: both sides only add ids, and never reuse one.
   */
  clone(): TopologyCounts {
    const c = new TopologyCounts(this.table);
    for (let i = 0; i < this.keys.length; i++) {
      c.keys.push(this.keys[i]!);
      c.tableKeys.push(this.tableKeys[i]!);
      c.ids.push(this.ids[i]!);
      c.dense.push(this.dense[i]!.fork());
    }
    c.pairs = this.pairs;
    return c;
  }

  forEach(fn: (key: string, value: string, count: number) => void): void {
    for (let i = 0; i < this.keys.length; i++) {
      const pairs = this.dense[i]!;
      for (let w = 0; w < pairs.size; w++) fn(this.keys[i]!, pairs.values[w]!, pairs.totals[pairs.idAt(w)]!);
    }
  }

  /** The pairs as `{ "key=value": count }`, for tests and debugging. */
  toRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    this.forEach((k, v, n) => (out[`${k}=${v}`] = n));
    return out;
  }

  private indexOf(key: string): number {
    const i = this.keys.indexOf(key);
    return i >= 0 ? i : this.addKey(key, null);
  }

  /** Adds key `key` with `counts` (made over the key's value ids), or empty ones; returns its index. */
  private addKey(key: string, counts: DomainCounts | null): number {
    const i = this.keys.length;
    this.keys.push(key);
    const k = this.table === null ? -1 : this.table.keyIndex(key);
    this.tableKeys.push(k);
    const ids = this.table === null ? new Map<string, number>() : this.table.valueIds(k);
    this.ids.push(ids);
    this.dense.push(counts ?? new DomainCounts(ids));
    return i;
  }

  /**
   * The id of `value`, given out as the table gives them (the next one) in the map these counts
   * were made with: the table's while it is current, and still consistent once a compaction gave
   * the table a new one (a cycle state written after the next attempt's sync).
   */
  private idFor(i: number, value: string): number {
    const ids = this.ids[i]!;
    let id = ids.get(value);
    if (id === undefined) ids.set(value, (id = ids.size));
    return id;
  }

  private drop(pairs: DomainCounts, id: number): void {
    pairs.unregister(id);
    this.pairs--;
  }
}
