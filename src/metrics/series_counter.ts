// A Prometheus counter for what every pod or attempt counts (queue arrivals, attempts). prom-client's
// inc validates and hashes its labels on every call (1–6 µs, the most at `run`'s start, where 2,000
// listed pods each count an arrival on code not yet optimized). Here a label set is resolved once
// into a series holding a plain number; `get` reports what prom-client's would for the same counts.
import { Counter, type CounterConfiguration, type LabelValues, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { SeriesIndex } from './series_index.js';

/** One label set of a SeriesCounter. */
export class CounterSeries<T extends string = string> {
  value = 0;

  constructor(readonly labels: Readonly<LabelValues<T>>) {}

  inc(by = 1): void {
    if (!Number.isFinite(by)) throw new TypeError(`Value is not a valid number: ${by}`);
    if (by < 0) throw new Error('It is not possible to decrease a counter');
    this.value += by;
  }
}

/**
 * A counter of up to three labels whose series are found by their values (`at`) without building
 * a key or an object. Every increment, `inc` included, lands in the series; prom-client's own
 * store stays empty.
 */
export class SeriesCounter<T extends string> extends Counter<T> {
  private readonly index: SeriesIndex<T, CounterSeries<T>>;

  constructor(config: CounterConfiguration<T>) {
    super(config);
    this.index = new SeriesIndex<T, CounterSeries<T>>(config.name, config.labelNames ?? [], (labels) => new CounterSeries<T>(labels));
    // prom-client prints a counter without labels as 0 before its first increment.
    if (this.index.labelNames.length === 0) this.at();
    // prom-client assigns its inc per instance in its constructor; this one replaces it, so no
    // increment is kept where `get` below does not look.
    const incLabels = (labelsOrValue?: LabelValues<T> | number, value?: number): void => {
      if (labelsOrValue === undefined || typeof labelsOrValue === 'number') this.series({}).inc(labelsOrValue ?? 1);
      else this.series(labelsOrValue).inc(value ?? 1);
    };
    this.inc = incLabels as Counter<T>['inc'];
  }

  /** The series of these label values, in labelNames order (as many as the counter has labels). */
  at(a = '', b = '', c = ''): CounterSeries<T> {
    return this.index.at(a, b, c);
  }

  /** The series of a label object (every label of the counter required). */
  series(labels: LabelValues<T>): CounterSeries<T> {
    return this.index.of(labels);
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor calls reset before this class's fields exist.
    if (this.index === undefined) return;
    this.index.clear();
    if (this.index.labelNames.length === 0) this.at();
  }

  /** What the registry prints: prom-client's own answer (name, help, type), with the series as its values. */
  override async get(): Promise<MetricObjectWithValues<MetricValue<T>>> {
    const own = await super.get();
    return { ...own, values: this.index.list.map((s) => ({ value: s.value, labels: { ...s.labels } })) };
  }
}
