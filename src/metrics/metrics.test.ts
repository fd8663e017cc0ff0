import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { CycleState } from '../framework/cycle_state.js';
import { PodInfo } from '../framework/pod_info.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { defaultConfiguration } from '../config/index.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { makeNode, makePod } from '../testing/builders.js';
import { instrumentFramework } from './framework_metrics.js';
import { SchedulerMetrics, attemptsLabel } from './metrics.js';
import { endpointsHandler, serveEndpoints, type HealthCheck } from './server.js';

test('upstream metric names, labels and buckets in the exposition', async () => {
  const m = new SchedulerMetrics();
  m.bindSources({
    pendingCounts: () => ({ active: 2, backoff: 1, unschedulable: 3, gated: 4 }),
    bindingsInFlight: () => 5,
    cacheSize: () => ({ nodes: 7, pods: 11 }),
  });
  m.observeAttempt('scheduled', 'default-scheduler', 0.003);
  m.observeAttempt('unschedulable', 'second', 0.5);
  m.queueIncomingPods.inc({ queue: 'active', event: 'PodAdd' });
  m.observePodScheduled(16, 1.5);
  m.preemptionAttempts.inc();
  m.preemptionVictims.observe(2);
  const text = await m.expose();
  for (const line of [
    'scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"} 1',
    'scheduler_schedule_attempts_total{result="unschedulable",profile="second"} 1',
    'scheduler_scheduling_attempt_duration_seconds_bucket{le="0.004",result="scheduled",profile="default-scheduler"} 1',
    'scheduler_scheduling_attempt_duration_seconds_bucket{le="16.384",result="unschedulable",profile="second"} 1',
    'scheduler_pending_pods{queue="active"} 2',
    'scheduler_pending_pods{queue="backoff"} 1',
    'scheduler_pending_pods{queue="unschedulable"} 3',
    'scheduler_pending_pods{queue="gated"} 4',
    'scheduler_goroutines{operation="binding"} 5',
    'scheduler_scheduler_cache_size{type="nodes"} 7',
    'scheduler_queue_incoming_pods_total{queue="active",event="PodAdd"} 1',
    'scheduler_pod_scheduling_sli_duration_seconds_count{attempts="15+"} 1',
    'scheduler_pod_scheduling_attempts_bucket{le="16"} 1',
    'scheduler_preemption_attempts_total 1',
    'scheduler_preemption_victims_bucket{le="2"} 1',
  ]) {
    assert.ok(text.includes(line), `missing: ${line}`);
  }
  assert.ok(text.includes('# TYPE scheduler_framework_extension_point_duration_seconds histogram'));
  assert.ok(text.includes('# TYPE scheduler_plugin_execution_duration_seconds histogram'));
  assert.equal(attemptsLabel(14), '14');
});

test('an instrumented framework times extension points, and plugins only in sampled cycles', async () => {
  const registry = inTreeRegistry();
  const cfg = defaultConfiguration(registry);
  const clock = new FakeClock(0);
  const sched = new Scheduler({ profiles: cfg.profiles, registry, client: new MemoryCluster({ clock }), clock, random: seededRandom(1), notYetAvailable: notYetAvailablePlugins });
  const fwk = sched.profiles.get('default-scheduler')!;
  const m = new SchedulerMetrics();
  let sample = 0.05;
  instrumentFramework(fwk, m, { now: () => 0, random: () => sample });
  sched.cache.addNode(makeNode('n1'));
  sched.cache.updateSnapshot(sched.snapshot);
  const nodes = sched.snapshot.nodeInfoList;
  const pod = new PodInfo(makePod('p', { requests: { cpu: '100m' } }));

  const sampled = new CycleState();
  fwk.runPreFilterPlugins(sampled, pod, nodes);
  assert.ok(sampled.recordPluginMetrics, '5% < 10%: this cycle is sampled');
  assert.equal(fwk.runFilterPlugins(sampled, pod, nodes[0]!), null);
  sample = 0.5;
  const unsampled = new CycleState();
  fwk.runPreFilterPlugins(unsampled, pod, nodes);
  assert.ok(!unsampled.recordPluginMetrics);
  fwk.runFilterPlugins(unsampled, pod, nodes[0]!);

  const points = (await m.frameworkExtensionPointDuration.get()).values;
  const preFilterCount = points.find((v) => v.metricName?.endsWith('_count') && v.labels.extension_point === 'PreFilter');
  assert.equal(preFilterCount?.value, 2, 'PreFilter timed in both cycles');
  assert.equal(preFilterCount?.labels.status, 'Success');
  assert.equal(preFilterCount?.labels.profile, 'default-scheduler');
  const plugins = (await m.pluginExecutionDuration.get()).values;
  const fit = plugins
    .filter((v) => v.metricName?.endsWith('_count') && v.labels.plugin === 'NodeResourcesFit')
    .map((v) => [v.labels.extension_point, v.value]);
  assert.deepEqual(fit.sort(), [['Filter', 1], ['PreFilter', 1]], 'plugins timed in the sampled cycle only');
});

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

test('health endpoints answer ok, list checks when verbose, and withhold failure reasons', async () => {
  let synced = false;
  const readyz: HealthCheck[] = [
    { name: 'shutdown', check: () => null },
    { name: 'sched-handler-sync', check: () => (synced ? null : new Error('handlers are not fully synchronized')) },
  ];
  const m = new SchedulerMetrics();
  m.scheduleAttempts.inc({ result: 'scheduled', profile: 'p' });
  const server = await serveEndpoints('127.0.0.1', 0, endpointsHandler({ metrics: m, readyz }));
  try {
    assert.deepEqual(await get(server.port, '/healthz'), { status: 200, body: 'ok' });
    assert.deepEqual(await get(server.port, '/livez'), { status: 200, body: 'ok' });
    assert.deepEqual(await get(server.port, '/healthz?verbose'), { status: 200, body: '[+]ping ok\nhealthz check passed\n' });
    assert.deepEqual(await get(server.port, '/readyz'), {
      status: 500,
      body: '[+]shutdown ok\n[-]sched-handler-sync failed: reason withheld\nreadyz check failed\n',
    });
    assert.deepEqual(await get(server.port, '/readyz/sched-handler-sync'), { status: 500, body: 'internal server error: handlers are not fully synchronized\n' });
    assert.deepEqual(await get(server.port, '/readyz?exclude=sched-handler-sync'), { status: 200, body: 'ok' });
    synced = true;
    assert.deepEqual(await get(server.port, '/readyz'), { status: 200, body: 'ok' });
    const metrics = await get(server.port, '/metrics');
    assert.equal(metrics.status, 200);
    assert.ok(metrics.body.includes('scheduler_schedule_attempts_total{result="scheduled",profile="p"} 1'));
    assert.equal((await get(server.port, '/nope')).status, 404);
  } finally {
    await server.close();
  }
});
