// Counts per topology pair (key, value), as filtering.go's topologyToMatchedTermCount and
// scoring.go's scoreMap keep them.
import type { Labels } from '../../api/labels.js';
import { DomainCounts } from './domain_counts.js';
import type { DomainTable } from './domain_table.js';
import { labelValue } from './label_value.js';

/**
 * A map (topologyKey, topologyValue) → count. Keys sit in a plain array beside their value maps
 * so the per-node lookups (`anyPositive`, `sumFor`) iterate without allocating. Counts bound to
 * a DomainTable also keep, per key, a typed array by domain id, which the `…At(pos)` lookups read
 * by node position (see domain_table.ts).
 */
export class TopologyCounts {
  private readonly keys: string[] = [];
  private readonly byValue: Map<string, number>[] = [];
  private readonly keyIndex = new Map<string, number>();
  private pairs = 0;
  /** With a table: per key, its index in the table and its counts by domain id. */
  private readonly tableKeys: number[] = [];
  private readonly dense: DomainCounts[] = [];

  constructor(readonly table: DomainTable | null = null) {}

  /** Number of (key, value) pairs held. */
  get size(): number {
    return this.pairs;
  }

  /** Adds `delta` to a pair, dropped when it reaches zero (counts of matching pods); returns the new count. */
  add(key: string, value: string, delta: number): number {
    const i = this.indexOf(key);
    const values = this.byValue[i]!;
    const next = (values.get(value) ?? 0) + delta;
    const had = values.has(value);
    if (this.table !== null) this.setDense(i, value, next);
    if (next === 0) {
      if (had) {
        values.delete(value);
        this.pairs--;
      }
      return 0;
    }
    if (!had) this.pairs++;
    values.set(value, next);
    return next;
  }

  /** Adds `delta` to a pair and keeps it even at zero (scores: a matched term counts as data). */
  accumulate(key: string, value: string, delta: number): void {
    const i = this.indexOf(key);
    const values = this.byValue[i]!;
    const prev = values.get(value);
    if (prev === undefined) this.pairs++;
    const next = (prev ?? 0) + delta;
    values.set(value, next);
    if (this.table !== null) this.setDense(i, value, next);
  }

  /** Drops a pair whatever its count. */
  delete(key: string, value: string): void {
    const i = this.keyIndex.get(key);
    if (i === undefined || !this.byValue[i]!.delete(value)) return;
    this.pairs--;
    if (this.table !== null) this.setDense(i, value, 0);
  }

  /** The topology keys held (a key may have no pairs left). */
  get keyList(): readonly string[] {
    return this.keys;
  }

  get(key: string, value: string): number {
    const i = this.keyIndex.get(key);
    if (i === undefined) return 0;
    return this.byValue[i]!.get(value) ?? 0;
  }

  /** True when some key held here has, for the value `labels` gives it, a positive count. */
  anyPositive(labels: Labels): boolean {
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) {
      const values = this.byValue[i]!;
      if (values.size === 0) continue;
      const v = labelValue(labels, keys[i]!);
      if (v !== undefined && (values.get(v) ?? 0) > 0) return true;
    }
    return false;
  }

  /** Sum over the held keys of the count for the value `labels` gives each key. */
  sumFor(labels: Labels): number {
    let sum = 0;
    const keys = this.keys;
    for (let i = 0; i < keys.length; i++) {
      const v = labelValue(labels, keys[i]!);
      if (v !== undefined) sum += this.byValue[i]!.get(v) ?? 0;
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

  /** A copy without table (a delta of one attempt). */
  clone(): TopologyCounts {
    const c = new TopologyCounts();
    for (let i = 0; i < this.keys.length; i++) {
      c.keyIndex.set(this.keys[i]!, i);
      c.keys.push(this.keys[i]!);
      c.byValue.push(new Map(this.byValue[i]!));
    }
    c.pairs = this.pairs;
    return c;
  }

  forEach(fn: (key: string, value: string, count: number) => void): void {
    for (let i = 0; i < this.keys.length; i++) {
      for (const [v, n] of this.byValue[i]!) fn(this.keys[i]!, v, n);
    }
  }

  /** The pairs as `{ "key=value": count }`, for tests and debugging. */
  toRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    this.forEach((k, v, n) => (out[`${k}=${v}`] = n));
    return out;
  }

  private indexOf(key: string): number {
    let i = this.keyIndex.get(key);
    if (i === undefined) {
      i = this.keys.length;
      this.keys.push(key);
      this.byValue.push(new Map());
      this.keyIndex.set(key, i);
      if (this.table !== null) {
        this.tableKeys.push(this.table.keyIndex(key));
        this.dense.push(DomainCounts.of(this.table, key));
      }
    }
    return i;
  }

  private setDense(i: number, value: string, count: number): void {
    this.dense[i]!.set(this.table!.valueId(this.tableKeys[i]!, value), value, count);
  }
}

/**
 * One attempt's view of counts shared between attempts: AddPod/RemovePod (nominated pods,
 * preemption dry runs) change only this view, so their changes go to a small delta over the
 * untouched base, and a clone copies the delta rather than the base (thousands of pairs with
 * a hostname topology key). Same semantics as TopologyCounts with `add`.
 */
export class CountsOverlay {
  private constructor(
    private readonly base: TopologyCounts,
    private delta: TopologyCounts | null,
    private pairs: number,
  ) {}

  /** A view of `base`, which the caller must not change while the view is in use. */
  static over(base: TopologyCounts): CountsOverlay {
    return new CountsOverlay(base, null, base.size);
  }

  /** Number of pairs with a non-zero count. */
  get size(): number {
    return this.pairs;
  }

  /** The shared counts while this view has no changes of its own, else null. */
  get unchanged(): TopologyCounts | null {
    return this.delta === null ? this.base : null;
  }

  get(key: string, value: string): number {
    const b = this.base.get(key, value);
    return this.delta === null ? b : b + this.delta.get(key, value);
  }

  add(key: string, value: string, delta: number): void {
    if (delta === 0) return;
    const before = this.get(key, value);
    (this.delta ??= new TopologyCounts()).add(key, value, delta);
    const after = before + delta;
    if (before === 0) this.pairs++;
    else if (after === 0) this.pairs--;
  }

  anyPositive(labels: Labels): boolean {
    const delta = this.delta;
    if (delta === null) return this.base.anyPositive(labels);
    return this.anyPositiveOver(this.base.keyList, labels) || this.anyPositiveOver(delta.keyList, labels);
  }

  clone(): CountsOverlay {
    return new CountsOverlay(this.base, this.delta === null ? null : this.delta.clone(), this.pairs);
  }

  toRecord(): Record<string, number> {
    const out = this.base.toRecord();
    this.delta?.forEach((k, v, n) => {
      const total = (out[`${k}=${v}`] ?? 0) + n;
      if (total === 0) delete out[`${k}=${v}`];
      else out[`${k}=${v}`] = total;
    });
    return out;
  }

  private anyPositiveOver(keys: readonly string[], labels: Labels): boolean {
    for (let i = 0; i < keys.length; i++) {
      const v = labelValue(labels, keys[i]!);
      if (v !== undefined && this.get(keys[i]!, v) > 0) return true;
    }
    return false;
  }
}
