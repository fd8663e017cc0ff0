// A Prometheus histogram for the metrics every cycle, pod or binding observes (the framework's
// extension point and plugin durations above all: a sampled cycle times every Filter plugin on every
// node it visits). prom-client's observe validates and hashes its labels and finds its bucket by a
// number-to-string key on every call (1–3 µs). Here a label set is resolved once into a series
// that counts with plain numbers; the exposition is the one prom-client prints for the same
// observations.
import { Histogram, type HistogramConfiguration, type LabelValues } from 'prom-client';
import { SeriesIndex } from './series_index.js';

/** One label set of a SeriesHistogram: its bucket counts (not cumulative), sum and count. */
export class HistogramSeries {
  /** counts[i]: observations at most bounds[i] and above bounds[i - 1]. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<LabelValues<string>>,
    private readonly bounds: Float64Array,
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    // Above the last bound: only +Inf (the count) holds it, as in prom-client.
    if (i < bounds.length) this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

/** A sample as prom-client's registry prints it (histogram.js's setValuePair). */
interface ExportedSample {
  labels: Record<string, string | number>;
  sharedLabels: Readonly<LabelValues<string>>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/**
 * A histogram of up to three labels whose series are found by their values (`at`) without building
 * a key or an object. Every observation, `observe` included, lands in the series; prom-client's own
 * store stays empty.
 */
export class SeriesHistogram<T extends string> extends Histogram<T> {
  private readonly seriesBounds: Float64Array;
  private readonly seriesMetricName: string;
  private readonly seriesHelp: string;
  private readonly index: SeriesIndex<T, HistogramSeries>;

  constructor(config: HistogramConfiguration<T> & { buckets: number[] }) {
    super(config);
    const names = config.labelNames ?? [];
    this.seriesBounds = Float64Array.from(config.buckets);
    this.seriesMetricName = config.name;
    this.seriesHelp = config.help;
    this.index = new SeriesIndex<T, HistogramSeries>(config.name, names, (labels) => new HistogramSeries(labels, this.seriesBounds));
    // prom-client prints a histogram without labels before its first observation (zeros).
    if (names.length === 0) this.at();
    // prom-client assigns its observe per instance in its constructor; this one replaces it, so
    // no observation is kept where the exposition below does not look.
    const observeLabels = (labelsOrValue: LabelValues<T> | number, value?: number): void => {
      if (typeof labelsOrValue === 'number') this.series({}).observe(labelsOrValue);
      else this.series(labelsOrValue).observe(value!);
    };
    this.observe = observeLabels as Histogram<T>['observe'];
  }

  /** The series of these label values, in labelNames order (as many as the histogram has labels). */
  at(a = '', b = '', c = ''): HistogramSeries {
    return this.index.at(a, b, c);
  }

  /** The series of a label object (every label of the histogram required). */
  series(labels: LabelValues<T>): HistogramSeries {
    return this.index.of(labels);
  }

  override reset(): void {
    // prom-client's constructor calls reset before this class's fields exist.
    if (this.index === undefined) return;
    this.index.clear();
  }

  /** What the registry prints (prom-client's registry prefers this to get()). */
  getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; values: ExportedSample[]; aggregator: 'sum' }> {
    const name = this.seriesMetricName;
    const values: ExportedSample[] = [];
    for (const s of this.index.list) {
      let cumulative = 0;
      for (let i = 0; i < this.seriesBounds.length; i++) {
        cumulative += s.counts[i]!;
        values.push({ labels: { le: this.seriesBounds[i]! }, sharedLabels: s.labels, value: cumulative, metricName: `${name}_bucket`, exemplar: null });
      }
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${name}_bucket`, exemplar: null },
        { labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${name}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${name}_count`, exemplar: undefined },
      );
    }
    return Promise.resolve({ name, help: this.seriesHelp, type: 'histogram', values, aggregator: 'sum' });
  }
}
