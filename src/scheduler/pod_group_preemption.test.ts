// Workload-aware preemption through simulate (GenericWorkload on): a gang evicts lower-priority
// pods across nodes, a `disruptionMode: all` group goes as one victim, preemptionPolicy Never.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfiguration } from '../config/index.js';
import { FeatureGates } from '../config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { parseScenario } from '../sim/scenario/scenario.js';
import { runSimulation } from '../sim/simulate/simulate.js';
import { createEmbedded } from '../sim/scenario/embedded.js';
import type { AttemptRecord } from './scheduler.js';

const registry = inTreeRegistry();

const pod = (name: string, node: string, cpu: string, extra = '') =>
  `- metadata: { name: ${name}, namespace: default }\n  spec: { nodeName: ${node}, ${extra} containers: [{ name: c, image: x, resources: { requests: { cpu: "${cpu}" } } }] }`;
const member = (name: string, cpu: string, cls = 'high') =>
  `- metadata: { name: ${name}, namespace: default }\n  spec: { priorityClassName: ${cls}, schedulingGroup: { podGroupName: g }, containers: [{ name: c, image: x, resources: { requests: { cpu: "${cpu}" } } }] }`;

/**
 * Two 4-CPU nodes: n1 holds two lone pods, n2 the two pods of group `old` (disruptionMode all).
 * The gang's priority (and, with PodGroupPreemptionPolicy, its policy) comes from its class
 * through Priority admission.
 */
function scenario(o: { memberCpu: string; groupClass?: string; memberClass?: string }): string {
  return `
objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 100 }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high-never }, value: 100, preemptionPolicy: Never }
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: old, namespace: default }, spec: { schedulingPolicy: { basic: {} }, disruptionMode: { all: {} } } }
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: g, namespace: default }, spec: { schedulingPolicy: { gang: { minCount: 2 } }, priorityClassName: ${o.groupClass ?? 'high'}${o.groupClass === 'high-never' ? ', preemptionPolicy: Never' : ''} } }
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
- metadata: { name: n2 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
pods:
${pod('low-a', 'n1', '2')}
${pod('low-b', 'n1', '2')}
${pod('old-0', 'n2', '2', 'schedulingGroup: { podGroupName: old },')}
${pod('old-1', 'n2', '2', 'schedulingGroup: { podGroupName: old },')}
pending:
${member('m0', o.memberCpu, o.memberClass)}
${member('m1', o.memberCpu, o.memberClass)}
`;
}

async function run(yaml: string, gates: string[] = []) {
  const attempts: { pod: string; outcome: string; message: string; victims: string[] }[] = [];
  const observer = {
    attempt: (a: AttemptRecord) => attempts.push({ pod: a.pod.metadata.name ?? '', outcome: a.outcome, message: a.message ?? '', victims: [...a.victims].sort() }),
    finished: () => {},
  };
  const report = await runSimulation(parseScenario(yaml, 'wap.yaml'), {
    config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins,
    featureGates: FeatureGates.parse(['GenericWorkload=true', ...gates]),
  }, observer);
  const pods = Object.fromEntries(report.pods.map((p) => [p.pod.replace('default/', ''), p.outcome]));
  return { pods, attempts };
}

describe('pod group preemption', () => {
  for (const async of [true, false]) {
    it(`evicts what a gang needs across nodes, then schedules the gang (SchedulerAsyncPreemption=${async})`, async () => {
      // Each member needs a whole node: everything goes.
      const { pods, attempts } = await run(scenario({ memberCpu: '4' }), [`SchedulerAsyncPreemption=${async}`]);
      assert.deepEqual(pods, { 'low-a': 'Preempted', 'low-b': 'Preempted', 'old-0': 'Preempted', 'old-1': 'Preempted', m0: 'Scheduled', m1: 'Scheduled' });
      // The group's first member carries the victims; m0's own FitError stays its message, as upstream's.
      assert.deepEqual(attempts[0]!.victims, ['default/low-a', 'default/low-b', 'default/old-0', 'default/old-1']);
      assert.equal(attempts[0]!.message, '0/2 nodes are available: 2 Insufficient cpu.');
      assert.deepEqual(attempts.filter((a) => a.outcome === 'Scheduled').map((a) => a.pod).sort(), ['m0', 'm1']);
    });
  }

  it('reprieves victims most important first and evicts a disruptionMode: all group whole', async () => {
    // The members spread over both nodes: the group (ranked above lone pods) cannot come back on
    // n2 and goes whole; on n1 low-a comes back beside its member, low-b does not.
    const { pods } = await run(scenario({ memberCpu: '2' }));
    assert.deepEqual(pods, { 'low-a': 'Scheduled', 'low-b': 'Preempted', 'old-0': 'Preempted', 'old-1': 'Preempted', m0: 'Scheduled', m1: 'Scheduled' });
  });

  it('does not preempt for a group whose policy is Never (PodGroupPreemptionPolicy)', async () => {
    const never = { memberCpu: '4', groupClass: 'high-never', memberClass: 'high-never' };
    const { pods, attempts } = await run(scenario(never), ['PodGroupPreemptionPolicy=true']);
    assert.equal(pods.m0, 'Unschedulable');
    assert.equal(pods['low-a'], 'Scheduled');
    assert.deepEqual(attempts[0]!.victims, []);
    // Members whose policy is not the group's fail the cycle, as validatePodGroup does.
    const mismatch = await run(scenario({ ...never, memberClass: 'high' }), ['PodGroupPreemptionPolicy=true']);
    assert.equal(mismatch.attempts[0]!.message, "all pods in a single pod group should have the same preemption policy as the pod group's preemption policy, got PreemptLowerPriority and Never");
  });

  it('a single pod evicts a disruptionMode: all group whole, its pods on other nodes too', async () => {
    const yaml = `
objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 100 }
- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: old, namespace: default }, spec: { schedulingPolicy: { basic: {} }, disruptionMode: { all: {} } } }
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
- metadata: { name: n2 }
  status: { allocatable: { cpu: "2", memory: 8Gi, pods: "10" } }
pods:
${pod('old-0', 'n1', '4', 'schedulingGroup: { podGroupName: old },')}
${pod('old-1', 'n2', '1', 'schedulingGroup: { podGroupName: old },')}
${pod('other', 'n2', '1')}
pending:
- metadata: { name: urgent, namespace: default }
  spec: { priorityClassName: high, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] }
`;
    const { pods, attempts } = await run(yaml);
    assert.deepEqual(attempts[0]!.victims, ['default/old-0', 'default/old-1']);
    assert.deepEqual(pods, { 'old-0': 'Preempted', 'old-1': 'Preempted', other: 'Scheduled', urgent: 'Scheduled' });
  });
});

describe('pod group preemption at both values of SchedulerAsyncPreemption', () => {
  /** The gang of scenario() over the embedded cluster, its members created, nothing scheduled yet. */
  async function embedded(async: boolean) {
    const sc = parseScenario(scenario({ memberCpu: '4' }), 'sync.yaml');
    const attempts: AttemptRecord[] = [];
    const e = await createEmbedded(sc, {
      config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins,
      featureGates: FeatureGates.parse(['GenericWorkload=true', `SchedulerAsyncPreemption=${async}`]),
      onAttempt: (a) => attempts.push(a),
    });
    for (const p of sc.pending) e.cluster.create(p);
    const victims = () => ['low-a', 'low-b', 'old-0', 'old-1'].filter((n) => e.cluster.getPod('default', n) !== undefined);
    return { ...e, attempts, victims };
  }

  it('off: the group\'s cycle ends only once every victim is evicted, and the loop waits for it', async () => {
    const { scheduler, victims } = await embedded(false);
    const cycle = scheduler.scheduleOne();
    assert.ok(cycle instanceof Promise, 'the group cycle waits for the evictions');
    assert.equal(victims().length, 4, 'nothing is deleted before the cycle yields');
    await cycle;
    assert.deepEqual(victims(), []);
  });

  it('on: the group\'s cycle ends at once and the evictions go on in the background', async () => {
    const { scheduler, victims } = await embedded(true);
    assert.equal(scheduler.scheduleOne(), true);
    await scheduler.waitForBindings();
    assert.deepEqual(victims(), []);
  });

  it('off: a failed eviction is the group\'s error, and every member is retried', async () => {
    const { scheduler, cluster, attempts } = await embedded(false);
    cluster.injectFault('deletePod', 500, 1, 'etcd is away');
    await scheduler.scheduleOne();
    const error = 'error in "DefaultPreemption" PodGroupPostFilter plugins: pod group preemption: etcd is away';
    assert.deepEqual(attempts.map((a) => [a.pod.metadata.name, a.outcome, a.message]), [['m0', 'Error', error], ['m1', 'Error', error]]);
  });

  it('on: a failed eviction is not the group\'s: its members wait on the preemption', async () => {
    const { scheduler, cluster, attempts } = await embedded(true);
    cluster.injectFault('deletePod', 500, 1, 'etcd is away');
    scheduler.scheduleOne();
    await scheduler.waitForBindings();
    assert.deepEqual(attempts.map((a) => [a.pod.metadata.name, a.outcome]), [['m0', 'Unschedulable'], ['m1', 'Unschedulable']]);
  });
});

describe('a group\'s priority from its class orders the queue', () => {
  it('the later group of the higher class is scheduled first and keeps the node', async () => {
    const gang = (name: string, cls: string) => `- { apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, metadata: { name: ${name}, namespace: default }, spec: { schedulingPolicy: { gang: { minCount: 2 } }, priorityClassName: ${cls} } }`;
    const worker = (group: string, i: number, cls: string) =>
      `- metadata: { name: ${group}-${i}, namespace: default }\n  spec: { priorityClassName: ${cls}, schedulingGroup: { podGroupName: ${group} }, containers: [{ name: c, image: x, resources: { requests: { cpu: "2" } } }] }`;
    const yaml = `
objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: low }, value: 10 }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 1000 }
${gang('first', 'low')}
${gang('second', 'high')}
nodes:
- metadata: { name: n1 }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } }
pending:
${worker('first', 0, 'low')}
${worker('first', 1, 'low')}
${worker('second', 0, 'high')}
${worker('second', 1, 'high')}
`;
    const { pods } = await run(yaml);
    assert.deepEqual(pods, { 'first-0': 'Unschedulable', 'first-1': 'Unschedulable', 'second-0': 'Scheduled', 'second-1': 'Scheduled' });
  });
});
