// Counts per topology pair (key, value), as filtering.go's topologyToMatchedTermCount and
// scoring.go's scoreMap keep them.
import type { Labels } from '../../api/labels.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** The value of label `key`, or undefined when absent (own properties only, so "constructor" is safe). */
export function labelValue(labels: Labels, key: string): string | undefined {
  if (labels === undefined || labels === null || !hasOwn.call(labels, key)) return undefined;
  return labels[key];
}

/**
 * A map (topologyKey, topologyValue) → count. Keys sit in a plain array beside their value maps
 * so the per-node lookups (`anyPositive`, `sumFor`) iterate without allocating.
 */
export class TopologyCounts {
  private readonly keys: string[] = [];
  private readonly byValue: Map<string, number>[] = [];
  private readonly keyIndex = new Map<string, number>();
  private pairs = 0;

  /** Number of (key, value) pairs held. */
  get size(): number {
    return this.pairs;
  }

  /** Adds `delta` to a pair and drops the pair when it reaches zero (counts of matching pods). */
  add(key: string, value: string, delta: number): void {
    const values = this.valuesOf(key);
    const next = (values.get(value) ?? 0) + delta;
    const had = values.has(value);
    if (next === 0) {
      if (had) {
        values.delete(value);
        this.pairs--;
      }
      return;
    }
    if (!had) this.pairs++;
    values.set(value, next);
  }

  /** Adds `delta` to a pair and keeps it even at zero (scores: a matched term counts as data). */
  accumulate(key: string, value: string, delta: number): void {
    const values = this.valuesOf(key);
    const prev = values.get(value);
    if (prev === undefined) this.pairs++;
    values.set(value, (prev ?? 0) + delta);
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

  /** The pairs as `{ "key=value": count }`, for tests and debugging. */
  toRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    for (let i = 0; i < this.keys.length; i++) {
      for (const [v, n] of this.byValue[i]!) out[`${this.keys[i]}=${v}`] = n;
    }
    return out;
  }

  private valuesOf(key: string): Map<string, number> {
    let i = this.keyIndex.get(key);
    if (i === undefined) {
      i = this.keys.length;
      this.keys.push(key);
      this.byValue.push(new Map());
      this.keyIndex.set(key, i);
    }
    return this.byValue[i]!;
  }
}
