// The series of a metric of up to three labels, found by their values without building a key or
// an object (SeriesHistogram and SeriesCounter keep their numbers in them instead of prom-client's
// store, which validates and hashes a label object on every call).
import type { LabelValues } from 'prom-client';

export class SeriesIndex<T extends string, S> {
  /** Insertion order is exposition order, as prom-client's store. */
  list: S[] = [];
  private tree = new Map<string, Map<string, Map<string, S>>>();

  constructor(
    private readonly metricName: string,
    readonly labelNames: readonly T[],
    private readonly make: (labels: LabelValues<T>) => S,
  ) {
    if (labelNames.length > 3) throw new Error(`${metricName}: a metric kept by series has at most three labels`);
  }

  /** The series of these label values, in labelNames order (as many as the metric has labels). */
  at(a = '', b = '', c = ''): S {
    let byB = this.tree.get(a);
    if (byB === undefined) this.tree.set(a, (byB = new Map()));
    let byC = byB.get(b);
    if (byC === undefined) byB.set(b, (byC = new Map()));
    let series = byC.get(c);
    if (series === undefined) {
      const labels: LabelValues<T> = {};
      const values = [a, b, c];
      this.labelNames.forEach((name, i) => (labels[name] = values[i]!));
      series = this.make(labels);
      byC.set(c, series);
      this.list.push(series);
    }
    return series;
  }

  /** The series of a label object (every label of the metric required). */
  of(labels: LabelValues<T>): S {
    for (const name of Object.keys(labels)) {
      if (!this.labelNames.includes(name as T)) throw new Error(`Added label "${name}" is not included in initial labelset: ${JSON.stringify(this.labelNames)}`);
    }
    const values = this.labelNames.map((name) => {
      const v = labels[name];
      if (v === undefined) throw new Error(`${this.metricName}: label "${name}" is missing`);
      // One series per printed label set: prom-client prints 5 and "5" alike.
      return String(v);
    });
    return this.at(values[0], values[1], values[2]);
  }

  /** No series any more. */
  clear(): void {
    this.list = [];
    this.tree = new Map();
  }
}
