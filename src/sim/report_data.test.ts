// The report's collector: every pod's decision in the report is the one explain records for its
// last attempt (as the panels show both), preemptions and queue samples are kept, and the queue
// series stays bounded however long the run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfiguration } from '../config/index.js';
import { inTreeRegistry } from '../plugins/registry.js';
import type { SchedulingQueue } from '../queue/scheduling_queue.js';
import type { AttemptRecord } from '../scheduler/scheduler.js';
import { attemptSummary, explainAttempt, type ExplainAttempt } from './explain.js';
import { ReportCollector } from './report_data.js';
import { decisionFromExplain, decisionFromReport } from './report_model.js';
import { parseScenario } from './scenario.js';
import { runSimulation } from './simulate.js';

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
    const data = collector.build(await runSimulation(scenario, opts, observer));
    assert.equal(last.size, 4);
    for (const [pod, a] of last) {
      const i = data.pods.findIndex((p) => p[0] === pod);
      assert.deepEqual(decisionFromReport(data, i), decisionFromExplain(explainAttempt(a, history.get(pod)), a.attempt, 10), pod);
    }
    const existing = data.pods.findIndex((p) => p[0] === 'default/low');
    assert.equal(decisionFromReport(data, existing), null);
  });

  it('keeps the preemption, the utilisation per node and zone, and the queue samples', async () => {
    const collector = new ReportCollector({ title: 'report-test' }, 5);
    const data = collector.build(await runSimulation(scenario, opts, collector));
    assert.deepEqual(data.preemptions.map((p) => [p.preemptor, p.node, p.victims]), [['default/preemptor', 'n1', ['default/low']]]);
    assert.deepEqual(data.zones.slice().sort(), ['z1', 'z2']);
    const n1 = data.nodes.find((n) => n[0] === 'n1')!;
    assert.deepEqual([data.zones[n1[1]], n1[3], n1[7]], ['z1', 2000, 10]);
    assert.ok(data.queue.attempt.length > 0);
    assert.deepEqual(Object.values(data.queue).map((s) => s.length), Object.values(data.queue).map(() => data.queue.attempt.length));
    const never = data.pods.find((p) => p[0] === 'default/never')!;
    const d = decisionFromReport(data, data.pods.indexOf(never))!;
    assert.equal(d.outcome, 'Unschedulable');
    assert.match(d.message, /^0\/3 nodes are available/);
    assert.deepEqual(d.filterPlugins.length > 0 && d.allFilterGroups.map((g) => g.nodes.length).sort(), [1, 2], 'every Filter plugin per node, grouped');
    assert.ok(d.preemption, 'the preemption diagnosis');
  });

  it('halves its queue samples when full, so a long run keeps at most 2048', () => {
    const collector = new ReportCollector({ title: 't' }, 1);
    const queue = { pendingCounts: () => ({ active: 1, backoff: 0, unschedulable: 0, gated: 0 }) } as unknown as SchedulingQueue;
    const a = { pod: { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [] } }, outcome: 'Scheduled', node: 'n', message: '', result: null,
      diagnosis: null, nominatedNode: '', victims: [], attempt: 1, time: 0, durationSeconds: 0 } as unknown as AttemptRecord;
    for (let i = 0; i < 10_000; i++) collector.attempt(a, queue);
    collector.finished({ list: () => [] } as never);
    const q = collector.build({ pods: [], nodes: [], summary: { scheduled: 0, unschedulable: 0, pending: 0, preempted: 0, simulatedSeconds: 0, wallSeconds: 0, podsPerSecond: 0 }, unavailablePlugins: [] }).queue;
    assert.ok(q.attempt.length <= 2048 && q.attempt.length >= 1024, `${q.attempt.length} samples`);
    const spacing = q.attempt[1]! - q.attempt[0]!;
    assert.ok(q.attempt.every((x, i) => i === 0 || x - q.attempt[i - 1]! === spacing), 'evenly spaced samples');
    assert.ok(q.attempt.at(-1)! > 10_000 - spacing, 'the last sample is recent');
  });
});
