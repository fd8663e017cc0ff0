// The text of a cache key: two keys are equal only when every part put in them is equal.
import type { Labels, Selector } from '../../api/labels.js';

/**
 * Builds a key as tagged, length-prefixed parts, so that distinct inputs can never give the same
 * text (no escaping needed); built per attempt, so plain concatenation rather than JSON.
 */
export class CacheKey {
  text = '';

  str(s: string): this {
    this.text += `s${s.length}:${s}`;
    return this;
  }

  num(n: number): this {
    this.text += `n${n};`;
    return this;
  }

  /** A value that may not be a string (bad input kept as is), as JSON. */
  json(v: unknown): this {
    this.text += `j${JSON.stringify(v) ?? 'undefined'};`;
    return this;
  }

  /** A part that is absent (as opposed to empty). */
  none(): this {
    this.text += '-';
    return this;
  }

  open(): this {
    this.text += '[';
    return this;
  }

  close(): this {
    this.text += ']';
    return this;
  }

  /** A label map in its own order (a different order only misses the cache). */
  labels(labels: Labels): this {
    if (labels === undefined || labels === null) return this.num(-1);
    this.open();
    for (const k in labels) {
      if (!Object.prototype.hasOwnProperty.call(labels, k)) continue;
      const v: unknown = labels[k];
      this.str(k);
      if (typeof v === 'string') this.str(v);
      else this.json(v);
    }
    return this.close();
  }

  /** A compiled selector: equal texts select the same objects. */
  selector(s: Selector): this {
    if (s.matchesNothing) return this.num(-1);
    this.open();
    for (const r of s.requirements) {
      this.str(r.key).num(r.op).open();
      for (const v of r.values) this.str(v);
      this.close();
    }
    return this.close();
  }
}
