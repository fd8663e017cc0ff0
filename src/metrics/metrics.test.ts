import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { configFromObject, defaultConfiguration } from '../config/index.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { FakeClock } from '../util/clock.js';
import { makeNode, makePod } from '../testing/builders.js';
import type { Pod } from '../api/types.js';
import { SchedulerMetrics, attemptsLabel } from './metrics.js';
import { FeatureGates } from '../config/feature_gates.js';
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
  m.observePreemptionPDBViolations('pod', 2);
  m.observePreemptionExecution('pod', 'success', 0.0015, true);
  m.observePreemptionExecution('pod', 'error', 0.0015, false);
  m.observeResourceClaimCreate('success', false, '', 'Pod');
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
    'scheduler_preemption_pdb_violations_total{preemptor="pod"} 2',
    'scheduler_preemption_execution_duration_seconds_bucket{le="0.002",preemptor="pod",result="success"} 1',
    'scheduler_preemption_execution_duration_seconds_bucket{le="0.002",preemptor="pod",result="error"} 1',
    'scheduler_preemption_goroutines_execution_total{result="success"} 1',
    'scheduler_preemption_goroutines_duration_seconds_count{result="success"} 1',
    'dynamic_resource_allocation_resourceclaim_creates_total{status="success",admin_access="false",owner_api_group="",owner_api_kind="Pod"} 1',
  ]) {
    assert.ok(text.includes(line), `missing: ${line}`);
  }
  assert.ok(text.includes('# TYPE scheduler_framework_extension_point_duration_seconds histogram'));
  assert.ok(text.includes('# TYPE scheduler_plugin_execution_duration_seconds histogram'));
  assert.equal(attemptsLabel(14), '14');
});

/** Observation counts of a histogram, by the given label values joined with a space. */
async function counts(h: { get(): Promise<{ values: { metricName?: string; labels: Record<string, string | number>; value: number }[] }> }, ...labels: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const v of (await h.get()).values) {
    if (!v.metricName?.endsWith('_count')) continue;
    out.set(labels.map((l) => String(v.labels[l])).join(' '), v.value);
  }
  return out;
}

test('the runtime times every extension point, and each plugin only in sampled cycles (batch Score once)', async () => {
  const registry = inTreeRegistry();
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock });
  const m = new SchedulerMetrics();
  // A draw at the start of each cycle decides the sample: 5% < 10% in the first, 50% in the second.
  let firstCycle = true;
  const sched = Scheduler.fromConfig(defaultConfiguration(registry), {
    registry,
    client: cluster,
    clock,
    random: () => (firstCycle ? 0.05 : 0.5),
    onAttempt: () => {
      firstCycle = false;
    },
    notYetAvailable: notYetAvailablePlugins,
    metrics: m,
    monotonicSeconds: () => 0,
  });
  await sched.start();
  cluster.create(makeNode('n1'));
  cluster.create(makeNode('n2'));
  cluster.create(makePod('sampled', { requests: { cpu: '100m' } }));
  cluster.create(makePod('unsampled', { requests: { cpu: '100m' } }));
  await sched.loop.drain();
  sched.stop();

  const points = await counts(m.frameworkExtensionPointDuration, 'extension_point', 'status', 'profile');
  for (const ep of ['PreFilter', 'Filter', 'PreScore', 'Score', 'Reserve', 'Permit', 'PreBind', 'Bind', 'PostBind']) {
    assert.equal(points.get(`${ep} Success default-scheduler`), 2, `${ep} timed in both cycles`);
  }
  const plugins = await counts(m.pluginExecutionDuration, 'plugin', 'extension_point');
  assert.equal(plugins.get('NodeResourcesFit PreFilter'), 1, 'plugins timed in the sampled cycle only');
  assert.equal(plugins.get('NodeResourcesFit Filter'), 2, 'once per node of the sampled cycle');
  assert.equal(plugins.get('NodeResourcesFit Score'), 1, 'a batch scoreNodes call is timed once');
  assert.equal(plugins.get('NodeResourcesBalancedAllocation ScoreExtensionNormalize'), undefined, 'no normalize step');
  assert.equal(plugins.get('TaintToleration ScoreExtensionNormalize'), 1);
  assert.equal(plugins.get('DefaultBinder Bind'), 1);
  const attempts = await counts(m.schedulingAttemptDuration, 'result');
  assert.equal(attempts.get('scheduled'), 2);
  assert.equal((await m.schedulingAlgorithmDuration.get()).values.find((v) => v.metricName?.endsWith('_count'))?.value, 2);
  const text = await m.expose();
  assert.ok(text.includes('scheduler_queue_incoming_pods_total{queue="active",event="UnschedulablePodAdd"} 2'), text.slice(0, 200));
  assert.ok(text.includes('scheduler_pod_scheduling_attempts_count 2'));
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

test('opportunistic batching reports upstream\'s batch metrics and the Sign extension point', async () => {
  const registry = inTreeRegistry();
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock });
  const m = new SchedulerMetrics();
  // PodTopologySpread without default constraints: every default plugin signs these pods.
  const config = configFromObject({
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'PodTopologySpread', args: { defaultingType: 'List' } }] }],
  }, 'test', registry);
  const sched = Scheduler.fromConfig(config, { registry, client: cluster, clock, random: () => 0.5, notYetAvailable: notYetAvailablePlugins, metrics: m, monotonicSeconds: () => 0 });
  await sched.start();
  for (const n of ['n1', 'n2', 'n3']) cluster.create(makeNode(n, { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } }));
  for (const p of ['p1', 'p2', 'p3']) {
    cluster.create(makePod(p, { requests: { cpu: '1' } }));
    await sched.loop.drain();
  }
  const text = await m.expose();
  for (const line of [
    // p1 finds nothing stored; p2 and p3 go to their hints, each after the last chosen node is rescored.
    'scheduler_batch_attempts_total{profile="default-scheduler",result="no_hint"} 1',
    'scheduler_batch_attempts_total{profile="default-scheduler",result="hint_used"} 2',
    'scheduler_batch_rescore_attempts_total{profile="default-scheduler"} 2',
    'scheduler_get_node_hint_duration_seconds_count{hinted="hint",profile="default-scheduler"} 2',
    'scheduler_store_schedule_results_duration_seconds_count{profile="default-scheduler"} 3',
    'scheduler_framework_extension_point_duration_seconds_count{extension_point="Sign",status="Success",profile="default-scheduler"} 3',
  ]) {
    assert.ok(text.includes(line), `missing: ${line}`);
  }
  sched.stop();
});

test('the pod-group metrics appear with a first pod group\'s cycle, with upstream\'s names', async () => {
  const m = new SchedulerMetrics();
  assert.doesNotMatch(await m.expose(), /scheduler_podgroup_/);
  m.observePodGroupAlgorithmDuration(0.002);
  m.observePodGroupAttempt('unschedulable', 'default-scheduler', 0.004);
  const text = await m.expose();
  for (const line of [
    'scheduler_podgroup_schedule_attempts_total{result="unschedulable",profile="default-scheduler"} 1',
    'scheduler_podgroup_scheduling_attempt_duration_seconds_bucket{le="0.004",result="unschedulable",profile="default-scheduler"} 1',
    'scheduler_podgroup_scheduling_algorithm_duration_seconds_count 1',
  ]) assert.ok(text.includes(line), `missing ${line}`);
});

test('a topology-aware group cycle reports the placement metrics with upstream\'s names', async () => {
  const registry = inTreeRegistry();
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock });
  const m = new SchedulerMetrics();
  const featureGates = FeatureGates.parse(['GenericWorkload=true,TopologyAwareWorkloadScheduling=true']);
  const sched = Scheduler.fromConfig(defaultConfiguration(registry), { registry, client: cluster, clock, random: () => 0.5, notYetAvailable: notYetAvailablePlugins, metrics: m, monotonicSeconds: () => 0, featureGates });
  await sched.start();
  // Two racks of one 2-CPU node each; a gang of two 2-CPU members fits neither.
  for (const [n, rack] of [['n1', 'a'], ['n2', 'b']]) cluster.create(makeNode(n!, { labels: { rack: rack! }, allocatable: { cpu: '2', memory: '8Gi', pods: '110' } }));
  cluster.create({ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'g', namespace: 'default' }, spec: { schedulingPolicy: { gang: { minCount: 2 } }, schedulingConstraints: { topology: [{ key: 'rack' }] } } });
  for (const p of ['p1', 'p2']) cluster.create(makePod(p, { requests: { cpu: '2' }, spec: { schedulingGroup: { podGroupName: 'g' } } }));
  await sched.loop.drain();
  const text = await m.expose();
  for (const line of [
    'scheduler_generated_placements_total{profile="default-scheduler"} 2',
    'scheduler_placement_evaluations_total{result="infeasible",profile="default-scheduler"} 2',
    'scheduler_placement_evaluation_duration_seconds_count{result="infeasible",profile="default-scheduler"} 2',
    'scheduler_framework_extension_point_duration_seconds_count{extension_point="PlacementGenerate",status="Success",profile="default-scheduler"} 1',
    'scheduler_plugin_execution_duration_seconds_count{plugin="TopologyPlacementGenerator",extension_point="PlacementGenerate",status="Success"} 1',
  ]) assert.ok(text.includes(line), `missing: ${line}`);
  sched.stop();
});

test('SchedulerAsyncAPICalls: the API dispatcher\'s metrics count bindings and status patches by type and result, with upstream\'s names and buckets', async () => {
  const run = async (gate: boolean, failPatches = false): Promise<string> => {
    const registry = inTreeRegistry();
    const clock = new FakeClock(0);
    const cluster = new MemoryCluster({ clock });
    if (failPatches) cluster.updatePodStatus = () => Promise.reject(new Error('conflict'));
    const m = new SchedulerMetrics();
    let now = 0;
    // Each reading of the monotonic clock is 3 ms after the last, so every call lasts 3 ms.
    const monotonicSeconds = () => (now += 0.003);
    const featureGates = FeatureGates.parse([`SchedulerAsyncAPICalls=${gate}`]);
    const sched = Scheduler.fromConfig(defaultConfiguration(registry), { registry, client: cluster, clock, random: () => 0.5, notYetAvailable: notYetAvailablePlugins, metrics: m, monotonicSeconds, featureGates });
    await sched.start();
    cluster.create(makeNode('n1', { allocatable: { cpu: '2', memory: '8Gi', pods: '110' } }));
    cluster.create(makePod('fits', { requests: { cpu: '1' } }));
    cluster.create(makePod('too-big', { requests: { cpu: '4' } }));
    await sched.loop.drain();
    await sched.waitForBindings();
    const text = await m.expose();
    sched.stop();
    return text;
  };
  const on = await run(true);
  for (const line of [
    '# HELP scheduler_async_api_call_execution_total Total number of API calls executed by the async dispatcher.',
    'scheduler_async_api_call_execution_total{call_type="pod_binding",result="success"} 1',
    'scheduler_async_api_call_execution_total{call_type="pod_status_patch",result="success"} 1',
    '# HELP scheduler_async_api_call_execution_duration_seconds Duration in seconds for executing API call in the async dispatcher.',
    'scheduler_async_api_call_execution_duration_seconds_bucket{le="0.002",call_type="pod_binding",result="success"} 0',
    'scheduler_async_api_call_execution_duration_seconds_bucket{le="0.004",call_type="pod_binding",result="success"} 1',
    'scheduler_async_api_call_execution_duration_seconds_bucket{le="16.384",call_type="pod_status_patch",result="success"} 1',
    '# HELP scheduler_pending_async_api_calls Number of API calls currently pending in the async queue.',
    'scheduler_pending_async_api_calls{call_type="pod_binding"} 0',
    'scheduler_pending_async_api_calls{call_type="pod_status_patch"} 0',
  ]) assert.ok(on.includes(line), `missing: ${line}`);
  // exponentialBuckets(0.001, 2, 15): the last finite bound is 16.384.
  assert.doesNotMatch(on, /le="32\.768"/);
  assert.match(await run(true, true), /scheduler_async_api_call_execution_total\{call_type="pod_status_patch",result="error"\} 1/);
  // Upstream registers them only with the gate on.
  assert.doesNotMatch(await run(false), /async_api_call|pending_async_api_calls/);
});

test('a sampled cycle that starts with the plugin-duration buffer full is not timed; after the next flush it is', async () => {
  const registry = inTreeRegistry();
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock });
  let now = 0;
  const m = new SchedulerMetrics(() => now);
  // Every cycle drawn into the sample; the clock reads counted (a timed plugin call reads it twice).
  let reads = 0;
  const sched = Scheduler.fromConfig(defaultConfiguration(registry), { registry, client: cluster, clock, random: () => 0.01, notYetAvailable: notYetAvailablePlugins, metrics: m, monotonicSeconds: () => reads++ * 0 });
  await sched.start();
  cluster.create(makeNode('n1'));
  cluster.create(makeNode('n2'));
  for (let i = 0; i < 1000; i++) m.observePluginDuration('Filler', 'Filter', 'Success', 0);
  cluster.create(makePod('while-full', { requests: { cpu: '100m' } }));
  await sched.loop.drain();
  const readsWhileFull = reads;
  let plugins = await counts(m.pluginExecutionDuration, 'plugin', 'extension_point');
  assert.equal(plugins.get('NodeResourcesFit Filter'), undefined, 'nothing timed while the buffer is full');
  assert.equal(cluster.get<Pod>('Pod', 'default', 'while-full')?.spec.nodeName !== undefined, true, 'the pod is placed all the same');
  now = 1000;
  cluster.create(makePod('after-flush', { requests: { cpu: '100m' } }));
  reads = 0;
  await sched.loop.drain();
  sched.stop();
  assert.ok(reads > readsWhileFull + 20, `the plugin calls were not timed while full (${readsWhileFull} clock reads) and were after (${reads})`);
  plugins = await counts(m.pluginExecutionDuration, 'plugin', 'extension_point');
  assert.equal(plugins.get('NodeResourcesFit Filter'), 2, 'once per node of the cycle after the flush');
  assert.equal(plugins.get('Filler Filter'), 1000);
});
