// The report's collector: every pod's decision in the report is the one explain records for its
// last attempt (as the panels show both), preemptions and queue samples are kept, and the queue
// series stays bounded however long the run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfiguration } from '../../config/index.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { fileURLToPath } from 'node:url';
import { defaultFeatures } from '../../framework/features.js';
import { inTreeRegistry } from '../../plugins/registry.js';
import type { SchedulingQueue } from '../../queue/scheduling_queue.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import { attemptSummary, explainAttempt, type ExplainAttempt } from '../explain/explain.js';
import { ReportCollector } from './report_data.js';
import { decisionFromExplain, decisionFromReport } from './report_model.js';
import { loadScenario, parseScenario } from '../scenario/scenario.js';
import { runSimulation } from '../simulate/simulate.js';

const scenario = parseScenario(`
metadata: { name: report-test }
objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 1000 }
nodes:
- metadata: { name: n1, labels: { topology.kubernetes.io/zone: z1 } }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
- metadata: { name: n2, labels: { topology.kubernetes.io/zone: z2 } }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
- metadata: { name: n3, labels: { topology.kubernetes.io/zone: z2 } }
  spec: { taints: [{ key: dedicated, value: x, effect: NoSchedule }] }
  status: { allocatable: { cpu: "8", memory: 4Gi, pods: "10" } }
pods:
- metadata: { name: low, namespace: default }
  spec: { nodeName: n1, containers: [{ name: c, image: x, resources: { requests: { cpu: "1500m" } } }] }
pending:
- metadata: { name: small }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "500m" } } }] }
- metadata: { name: fits-n2 }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1500m" } } }] }
- metadata: { name: never }
  spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "16" } } }] }
steps:
- after: 1s
  create:
  - kind: Pod
    metadata: { name: preemptor, namespace: default }
    spec: { priorityClassName: high, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }
`, 'report-test.yaml');

describe('ReportCollector', () => {
  const registry = inTreeRegistry();
  const opts = { config: defaultConfiguration(registry), registry, recordScores: true, diagnose: true };

  it('records each pod\'s last decision exactly as explain records that attempt', async () => {
    const collector = new ReportCollector({ title: 'report-test', scoreLimit: 10 }, 5);
    const last = new Map<string, AttemptRecord>();
    const history = new Map<string, ExplainAttempt[]>();
    const observer = {
      attempt: (a: AttemptRecord, q: SchedulingQueue) => {
        const key = `${a.pod.metadata.namespace}/${a.pod.metadata.name}`;
        last.set(key, a);
        history.set(key, [...(history.get(key) ?? []), attemptSummary(a)]);
        collector.attempt(a, q);
      },
      finished: collector.finished.bind(collector),
    };
    const { data, columns } = collector.build(await runSimulation(scenario, opts, observer));
    const bytes = new DataView(columns.buffer, columns.byteOffset, columns.byteLength);
    assert.equal(last.size, 4);
    for (const [pod, a] of last) {
      const i = data.pods.findIndex((p) => p[0] === pod);
      assert.deepEqual(decisionFromReport(data, i, bytes), decisionFromExplain(explainAttempt(a, history.get(pod)), a.attempt, 10), pod);
    }
    const existing = data.pods.findIndex((p) => p[0] === 'default/low');
    assert.equal(decisionFromReport(data, existing, bytes), null);
  });

  it('keeps the preemption, the utilisation per node and zone, and the queue samples', async () => {
    const collector = new ReportCollector({ title: 'report-test' }, 5);
    const { data, columns } = collector.build(await runSimulation(scenario, opts, collector));
    assert.deepEqual(data.preemptions.map((p) => [p.preemptor, p.node, p.victims]), [['default/preemptor', 'n1', ['default/low']]]);
    assert.deepEqual(data.zones.slice().sort(), ['z1', 'z2']);
    const n1 = data.nodes.find((n) => n[0] === 'n1')!;
    assert.deepEqual([data.zones[n1[1]], n1[3], n1[7]], ['z1', 2000, 10]);
    assert.ok(data.queue.attempt.length > 0);
    assert.deepEqual(Object.values(data.queue).map((s) => s.length), Object.values(data.queue).map(() => data.queue.attempt.length));
    const never = data.pods.find((p) => p[0] === 'default/never')!;
    const d = decisionFromReport(data, data.pods.indexOf(never), new DataView(columns.buffer, columns.byteOffset, columns.byteLength))!;
    assert.equal(d.outcome, 'Unschedulable');
    assert.match(d.message, /^0\/3 nodes are available/);
    assert.deepEqual(d.filterPlugins.length > 0 && d.allFilterGroups.map((g) => g.nodes.length).sort(), [1, 2], 'every Filter plugin per node, grouped');
    assert.ok(d.preemption, 'the preemption diagnosis');
  });

  it('keeps the best N score rows of each pod, or every scored node with "all", and says how many were scored', async () => {
    const wide = parseScenario(JSON.stringify({
      metadata: { name: 'wide' },
      nodes: Array.from({ length: 30 }, (_v, i) => ({ metadata: { name: `n${String(i).padStart(2, '0')}` }, status: { allocatable: { cpu: `${1 + (i % 7)}`, memory: '4Gi', pods: '10' } } })),
      pending: [{ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '500m' } } }] } }],
    }), 'wide.json');
    const cases: { limit: number | 'all'; rows: number }[] = [{ limit: 5, rows: 5 }, { limit: 'all', rows: 30 }];
    for (const c of cases) {
      const collector = new ReportCollector({ title: 'wide', scoreLimit: c.limit }, 1);
      const { data, columns } = collector.build(await runSimulation(wide, opts, collector));
      const v = decisionFromReport(data, 0, new DataView(columns.buffer, columns.byteOffset, columns.byteLength))!;
      assert.equal(data.scoreLimit, c.limit);
      assert.equal(v.scoredNodes, 30);
      assert.equal(v.scores.rows.length, c.rows, `limit ${c.limit}`);
      const totals = v.scores.rows.map((r) => r[1]);
      assert.deepEqual(totals, [...totals].sort((a, b) => b - a), 'best first');
      assert.equal(Object.keys(v.scoreDetails).length, c.rows, 'raw and normalized scores of every kept row');
    }
  });

  it('chooses the rows kept per pod by a budget over all pods: every scored node for small runs, at least 10', () => {
    const sim = { pods: [], nodes: [], summary: { scheduled: 0, unschedulable: 0, pending: 0, preempted: 0, simulatedSeconds: 0, wallSeconds: 0, podsPerSecond: 0 }, unavailablePlugins: [] };
    const limitFor = (pods: number) => {
      const c = new ReportCollector({ title: 't' }, pods);
      c.finished({ list: () => [] } as never, defaultFeatures);
      return c.build(sim).data.scoreLimit;
    };
    assert.deepEqual([100, 10_000, 100_000, 10_000_000].map(limitFor), [40_000, 400, 40, 10]);
  });

  it('shows DRA: the devices of each scheduled pod per claim, why nodes had none for the pod left out, and use per pool', async () => {
    const dra = loadScenario(new URL('../../../test/fixtures/scenarios/dra/gpu-claims.yaml', import.meta.url).pathname);
    const collector = new ReportCollector({ title: 'dra' }, dra.pods.length + dra.pending.length);
    const { data, columns } = collector.build(await runSimulation(dra, opts, collector));
    const bytes = new DataView(columns.buffer, columns.byteOffset, columns.byteLength);
    const view = (pod: string) => decisionFromReport(data, data.pods.findIndex((p) => p[0] === pod), bytes)!;
    const trainer = view('default/trainer');
    assert.equal(trainer.outcome, 'Scheduled');
    assert.deepEqual(trainer.devices.map((d) => [d.request, d.pool, d.device]), [['gpus', 'node-1', 'gpu-0'], ['gpus', 'node-1', 'gpu-1']]);
    assert.deepEqual(trainer.deviceGroups, []);
    const left = view('default/second-trainer');
    assert.equal(left.outcome, 'Unschedulable');
    assert.deepEqual(left.devices, []);
    assert.deepEqual(left.deviceGroups.map((g) => [g.nodes, g.shortfalls.map((s) => [s.request, s.wanted, s.available])]), [
      [['node-3', 'node-4'], [['gpus', 2, 0]]],
      [['node-1'], [['gpus', 2, 0]]],
      [['node-2'], [['gpus', 2, 1]]],
    ]);
    assert.deepEqual(data.devicePools?.map((p) => [p.pool, p.allocated, p.total]), [['rack-r1', 1, 2], ['node-1', 2, 2], ['node-2', 3, 4]]);
    assert.deepEqual(data.nodes.filter((n) => n[9] > 0).map((n) => [n[0], n[8], n[9]]).sort(), [['node-1', 2, 2], ['node-2', 3, 4]]);
  });

  it('halves its queue samples when full, so a long run keeps at most 2048', () => {
    const collector = new ReportCollector({ title: 't' }, 1);
    const queue = { pendingCounts: () => ({ active: 1, backoff: 0, unschedulable: 0, gated: 0 }) } as unknown as SchedulingQueue;
    const a = { pod: { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [] } }, outcome: 'Scheduled', node: 'n', message: '', result: null,
      diagnosis: null, nominatedNode: '', victims: [], attempt: 1, time: 0, durationSeconds: 0 } as unknown as AttemptRecord;
    for (let i = 0; i < 10_000; i++) collector.attempt(a, queue);
    collector.finished({ list: () => [] } as never, defaultFeatures);
    const q = collector.build({ pods: [], nodes: [], summary: { scheduled: 0, unschedulable: 0, pending: 0, preempted: 0, simulatedSeconds: 0, wallSeconds: 0, podsPerSecond: 0 }, unavailablePlugins: [] }).data.queue;
    assert.ok(q.attempt.length <= 2048 && q.attempt.length >= 1024, `${q.attempt.length} samples`);
    const spacing = q.attempt[1]! - q.attempt[0]!;
    assert.ok(q.attempt.every((x, i) => i === 0 || x - q.attempt[i - 1]! === spacing), 'evenly spaced samples');
    assert.ok(q.attempt.at(-1)! > 10_000 - spacing, 'the last sample is recent');
  });
});

describe('ReportCollector: gangs and extended resources', () => {
  const registry = inTreeRegistry();
  const opts = { config: defaultConfiguration(registry), registry, featureGates: FeatureGates.parse(['GenericWorkload=true']) };

  it('counts the pod groups placed and keeps each node\'s nvidia.com/gpu', async () => {
    const sc = loadScenario(fileURLToPath(new URL('../../../scenarios/workload-gangs.yaml', import.meta.url)));
    const collector = new ReportCollector({ title: 'gangs' }, 5);
    const { data } = collector.build(await runSimulation(sc, opts, { attempt: collector.attempt.bind(collector), finished: collector.finished.bind(collector) }));
    // train-a, infer and tune placed; train-b left out whole, eval waiting for its third member.
    assert.deepEqual(data.groups, { total: 5, placed: 3, notPlaced: 2 });
    const gpu = data.extended?.find((e) => e.name === 'nvidia.com/gpu');
    assert.ok(gpu);
    assert.deepEqual(gpu.allocatable, [8, 8, 8, 8]);
    // 4 GPUs of train-a, 2 of infer and 1 of tune on each node.
    assert.deepEqual(gpu.requested, [7, 7, 7, 7]);
    assert.equal(gpu.requested.length, data.nodes.length);
  });

  it('leaves both out when no pod names a group and no node offers an extended resource', async () => {
    const collector = new ReportCollector({ title: 'plain' }, 5);
    const sc = parseScenario(`
nodes: [{ metadata: { name: n1 }, status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } } }]
pending: [{ metadata: { name: p }, spec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] } }]
`, 'plain.yaml');
    const { data } = collector.build(await runSimulation(sc, opts, { attempt: collector.attempt.bind(collector), finished: collector.finished.bind(collector) }));
    assert.equal('groups' in data, false);
    assert.equal('extended' in data, false);
  });
});
