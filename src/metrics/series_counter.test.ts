import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Registry } from 'prom-client';
import { seededRandom } from '../util/clock.js';
import { SeriesCounter } from './series_counter.js';

const labelNames = ['queue', 'event'] as const;
const config = { name: 'scheduler_queue_incoming_pods_total', help: 'Number of pods added to scheduling queues by event and queue type.', labelNames };

test('a SeriesCounter prints and reports what prom-client does for the same increments', async () => {
  const plainRegistry = new Registry();
  const seriesRegistry = new Registry();
  const plain = new Counter({ ...config, registers: [plainRegistry] });
  const series = new SeriesCounter({ ...config, registers: [seriesRegistry] });
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics(), 'nothing counted');
  const random = seededRandom(11);
  const queues = ['active', 'backoff', 'unschedulable'];
  const events = ['PodAdd', 'NodeAdd', 'AssignedPodDelete', 'UnschedulablePodAdd'];
  for (let i = 0; i < 2_000; i++) {
    const queue = queues[Math.floor(random() * queues.length)]!;
    const event = events[Math.floor(random() * events.length)]!;
    const by = random() < 0.2 ? 1 + Math.floor(random() * 5) : undefined;
    plain.inc({ queue, event }, by);
    if (i % 2 === 0) series.at(queue, event).inc(by);
    else series.inc({ queue, event }, by);
  }
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics());
  assert.deepEqual(await series.get(), await plain.get());
  assert.deepEqual(await seriesRegistry.getMetricsAsJSON(), await plainRegistry.getMetricsAsJSON());
});

test('a SeriesCounter: one series per label set, reset empties it, bad labels and values throw', async () => {
  const plainRegistry = new Registry();
  const seriesRegistry = new Registry();
  const plain = new Counter({ ...config, registers: [plainRegistry] });
  const series = new SeriesCounter({ ...config, registers: [seriesRegistry] });
  assert.equal(series.at('active', 'PodAdd'), series.at('active', 'PodAdd'));
  assert.equal(series.series({ event: 'PodAdd', queue: 'active' }), series.at('active', 'PodAdd'));
  series.at('active', 'PodAdd').inc();
  series.reset();
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics(), 'nothing counted after the reset: no series printed');
  series.at('backoff', 'NodeAdd').inc(2);
  plain.inc({ queue: 'backoff', event: 'NodeAdd' }, 2);
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics());
  assert.throws(() => series.at('backoff', 'NodeAdd').inc(Number.NaN), /not a valid number/);
  assert.throws(() => series.at('backoff', 'NodeAdd').inc(-1), /not possible to decrease/);
  assert.throws(() => series.inc({ queue: 'backoff', event: 'NodeAdd', node: 'n1' } as never), /not included in initial labelset/);
  assert.throws(() => series.inc({ queue: 'backoff' }), /label "event" is missing/);
  assert.equal(series.at('backoff', 'NodeAdd').value, 2, 'a refused increment is not counted');
});

test('a SeriesCounter without labels prints 0, then counts inc() and inc(n), as prom-client does', async () => {
  const plainRegistry = new Registry();
  const seriesRegistry = new Registry();
  const cfg = { name: 'scheduler_preemption_attempts_total', help: 'Total preemption attempts in the cluster till now' };
  const plain = new Counter({ ...cfg, registers: [plainRegistry] });
  const series = new SeriesCounter({ ...cfg, registers: [seriesRegistry] });
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics(), 'a 0 before the first increment');
  plain.inc();
  plain.inc(3);
  series.inc();
  series.inc(3);
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics());
  assert.equal(series.at().value, 4);
  plain.reset();
  series.reset();
  assert.equal(await seriesRegistry.metrics(), await plainRegistry.metrics(), 'a 0 again after a reset');
});
