import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Histogram, Registry, exponentialBuckets } from 'prom-client';
import { seededRandom } from '../util/clock.js';
import { SeriesHistogram } from './series_histogram.js';

const labelNames = ['plugin', 'extension_point', 'status'] as const;
const config = { name: 'scheduler_plugin_execution_duration_seconds', help: 'Duration for running a plugin.', labelNames, buckets: exponentialBuckets(0.00001, 1.5, 20) };

/** A plain prom-client histogram and a SeriesHistogram, each in a registry of its own. */
function pair(): { plain: Histogram<(typeof labelNames)[number]>; series: SeriesHistogram<(typeof labelNames)[number]>; plainRegistry: Registry; seriesRegistry: Registry } {
  const plainRegistry = new Registry();
  const seriesRegistry = new Registry();
  return {
    plain: new Histogram({ ...config, registers: [plainRegistry] }),
    series: new SeriesHistogram({ ...config, registers: [seriesRegistry] }),
    plainRegistry,
    seriesRegistry,
  };
}

test('a SeriesHistogram prints what prom-client prints for the same observations', async () => {
  const { plain, series, plainRegistry, seriesRegistry } = pair();
  const random = seededRandom(7);
  const plugins = ['NodeResourcesFit', 'TaintToleration', 'NodeAffinity'];
  const points = ['Filter', 'Score'];
  const statuses = ['Success', 'Unschedulable'];
  const bounds = config.buckets;
  for (let i = 0; i < 2_000; i++) {
    const plugin = plugins[Math.floor(random() * plugins.length)]!;
    const point = points[Math.floor(random() * points.length)]!;
    const status = statuses[Math.floor(random() * statuses.length)]!;
    // Values on the bounds themselves, between them, below the first and above the last.
    const pick = random();
    const value = pick < 0.2 ? bounds[Math.floor(random() * bounds.length)]! : pick < 0.25 ? 0 : pick < 0.3 ? 5 + random() : random() * 0.05;
    plain.observe({ plugin, extension_point: point, status }, value);
    if (i % 2 === 0) series.at(plugin, point, status).observe(value);
    else series.observe({ plugin, extension_point: point, status }, value);
  }
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics());
  assert.deepEqual(await series.get(), await plain.get());
  assert.deepEqual(await seriesRegistry.getMetricsAsJSON(), await plainRegistry.getMetricsAsJSON());
});

test('a SeriesHistogram: one series per label set, reset empties it, bad labels and values throw', async () => {
  const { plain, series, plainRegistry, seriesRegistry } = pair();
  assert.equal(series.at('A', 'Filter', 'Success'), series.at('A', 'Filter', 'Success'));
  assert.equal(series.series({ status: 'Success', plugin: 'A', extension_point: 'Filter' }), series.at('A', 'Filter', 'Success'));
  series.at('A', 'Filter', 'Success').observe(0.001);
  series.reset();
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics(), 'nothing observed after the reset: no series printed');
  series.at('B', 'Score', 'Success').observe(0.002);
  plain.observe({ plugin: 'B', extension_point: 'Score', status: 'Success' }, 0.002);
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics());
  assert.throws(() => series.at('B', 'Score', 'Success').observe(Number.NaN), /not a valid number/);
  assert.throws(() => series.at('B', 'Score', 'Success').observe(Number.POSITIVE_INFINITY), /not a valid number/);
  assert.throws(() => series.observe({ plugin: 'B', extension_point: 'Score', status: 'Success', node: 'n1' } as never, 1), /not included in initial labelset/);
  assert.throws(() => series.observe({ plugin: 'B', extension_point: 'Score' }, 1), /label "status" is missing/);
  assert.equal(series.at('B', 'Score', 'Success').count, 1, 'a refused value is not counted');
});

test('a SeriesHistogram of no, one or two labels prints as prom-client does, before and after observations and after a reset', async () => {
  const bounds = exponentialBuckets(0.001, 2, 15);
  const shapes: { labelNames: string[]; values: () => string[] }[] = [
    { labelNames: [], values: () => [] },
    { labelNames: ['profile'], values: () => ['default-scheduler'] },
    { labelNames: ['result', 'profile'], values: () => ['scheduled', 'p'] },
  ];
  for (const shape of shapes) {
    const plainRegistry = new Registry();
    const seriesRegistry = new Registry();
    const cfg = { name: 'scheduler_scheduling_attempt_duration_seconds', help: 'Scheduling attempt latency.', labelNames: shape.labelNames, buckets: bounds };
    const plain = new Histogram({ ...cfg, registers: [plainRegistry] });
    const series = new SeriesHistogram({ ...cfg, registers: [seriesRegistry] });
    assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics(), `${shape.labelNames.length} labels, nothing observed`);
    const random = seededRandom(3);
    for (let i = 0; i < 300; i++) {
      const value = random() < 0.1 ? bounds[Math.floor(random() * bounds.length)]! : random() * 40;
      const labels = Object.fromEntries(shape.labelNames.map((n, k) => [n, `${shape.values()[k]}${i % 3}`]));
      if (shape.labelNames.length === 0) plain.observe(value);
      else plain.observe(labels, value);
      const v = shape.labelNames.map((n) => labels[n]!);
      if (i % 2 === 0) series.at(v[0], v[1], v[2]).observe(value);
      else if (shape.labelNames.length === 0) series.observe(value);
      else series.observe(labels, value);
    }
    assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics(), `${shape.labelNames.length} labels, observed`);
    plain.reset();
    series.reset();
    assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics(), `${shape.labelNames.length} labels, reset`);
  }
  assert.throws(() => new SeriesHistogram({ name: 'x', help: 'x', labelNames: ['a', 'b', 'c', 'd'], buckets: bounds, registers: [] }), /at most three labels/);
});
