// Preemption end to end over the embedded cluster at both values of SchedulerAsyncPreemption:
// the same placements, and the victims credited to the preemptor's attempt from PostFilter's result
// (asynchronously, PostFilter returns before any of them is deleted).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfiguration } from '../src/config/index.js';
import { FeatureGates } from '../src/config/feature_gates.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import type { AttemptRecord } from '../src/scheduler/scheduler.js';
import { parseScenario } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';

const scenario = parseScenario(`
metadata: { name: async-preemption }
objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 1000 }
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "2", memory: 4Gi, pods: "10" } }
pods:
- metadata: { name: low-a, namespace: default, creationTimestamp: "2026-01-01T00:00:00Z" }
  spec: { nodeName: n1, containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
- metadata: { name: low-b, namespace: default, creationTimestamp: "2026-01-01T00:00:01Z" }
  spec: { nodeName: n1, containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }
pending:
- metadata: { name: preemptor, namespace: default }
  spec: { priorityClassName: high, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }
`, 'async-preemption.yaml');

describe('preemption at both values of SchedulerAsyncPreemption', () => {
  const registry = inTreeRegistry();
  for (const async of [true, false]) {
    it(`SchedulerAsyncPreemption=${async}: the victims go, the preemptor lands on their node in its second attempt`, async () => {
      const attempts: { pod: string; outcome: string; victims: readonly string[] }[] = [];
      const observer = {
        attempt: (a: AttemptRecord) => {
          attempts.push({ pod: a.pod.metadata.name ?? '', outcome: a.outcome, victims: [...a.victims].sort() });
        },
        finished: () => {},
      };
      const report = await runSimulation(scenario, {
        config: defaultConfiguration(registry),
        registry,
        featureGates: FeatureGates.parse([`SchedulerAsyncPreemption=${async}`]),
      }, observer);
      assert.deepEqual(attempts.map((a) => [a.pod, a.outcome, a.victims]), [
        ['preemptor', 'Unschedulable', ['default/low-a', 'default/low-b']],
        ['preemptor', 'Scheduled', []],
      ]);
      const byPod = new Map(report.pods.map((p) => [p.pod, p]));
      assert.deepEqual([byPod.get('default/preemptor')?.outcome, byPod.get('default/preemptor')?.node], ['Scheduled', 'n1']);
      for (const v of ['default/low-a', 'default/low-b']) assert.deepEqual([byPod.get(v)?.outcome, byPod.get(v)?.preemptedBy], ['Preempted', 'default/preemptor'], v);
    });
  }
});
