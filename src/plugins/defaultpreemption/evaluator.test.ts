// Scenarios of upstream's TestSelectBestCandidate, TestPickOneNodeForPreemption and TestPreempt:
// which node preemption picks, and what it does to the victims and to nominated pods.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import type { PostFilterResult } from '../../framework/interfaces.js';
import { NodeToStatus } from '../../framework/node_to_status.js';
import { PodInfo } from '../../framework/pod_info.js';
import { defaultFeatures } from '../../framework/features.js';
import { Code, Status, isSuccess } from '../../framework/status.js';
import type { Candidate } from './candidate.js';
import { pickOneNodeForPreemption } from './pick_node.js';
import {
  epoch, highPriority, largeRes, lowPriority, mediumRes, midPriority, negPriority, newEnv, node, pod, postFilterNow, preFiltered, settle,
  smallRes, veryHighPriority, veryLargeRes, type Env,
} from './test_helpers.js';

/** Filter statuses as the scheduling cycle records them for every node. */
function filterAll(env: Env, p: Pod): { state: ReturnType<typeof preFiltered>['state']; podInfo: PodInfo; m: NodeToStatus } {
  const { state, podInfo } = preFiltered(env, p);
  const m = new NodeToStatus();
  for (const ni of env.snapshot.nodeInfoList) {
    const s = env.fwk.runFilterPluginsWithNominatedPods(state, podInfo, ni);
    if (!isSuccess(s)) m.set(ni.name, s!);
  }
  return { state, podInfo, m };
}

describe('Evaluator selectCandidate', () => {
  const t0 = epoch(0);
  const cases: { name: string; nodeNames: string[]; pod: Pod; pods: Pod[]; want: string[] }[] = [
    {
      name: 'a pod that fits on both nodes when lower priority pods are preempted',
      nodeNames: ['node1', 'node2'],
      pod: pod('p', { priority: highPriority, requests: largeRes }),
      pods: [
        pod('p1', { node: 'node1', priority: midPriority, requests: largeRes, startTime: t0 }),
        pod('p2', { node: 'node2', priority: midPriority, requests: largeRes, startTime: t0 }),
      ],
      want: ['node1', 'node2'],
    },
    {
      name: 'node with min highest priority pod is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: pod('p', { priority: highPriority, requests: veryLargeRes }),
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: mediumRes, startTime: t0 }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: largeRes, startTime: t0 }),
        pod('p2.1', { node: 'node2', priority: midPriority, requests: mediumRes, startTime: t0 }),
        pod('p2.2', { node: 'node2', priority: lowPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.1', { node: 'node3', priority: lowPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.2', { node: 'node3', priority: lowPriority, requests: mediumRes, startTime: t0 }),
      ],
      want: ['node3'],
    },
    {
      name: 'when highest priorities are the same, minimum sum of priorities is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: pod('p', { priority: highPriority, requests: veryLargeRes }),
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: mediumRes, startTime: t0 }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: largeRes, startTime: t0 }),
        pod('p2.1', { node: 'node2', priority: midPriority, requests: largeRes, startTime: t0 }),
        pod('p2.2', { node: 'node2', priority: lowPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.1', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.2', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: t0 }),
      ],
      want: ['node2'],
    },
    {
      name: 'when highest priority and sum are the same, minimum number of pods is picked',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: pod('p', { priority: highPriority, requests: veryLargeRes }),
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: smallRes, startTime: t0 }),
        pod('p1.2', { node: 'node1', priority: negPriority, requests: smallRes, startTime: t0 }),
        pod('p1.3', { node: 'node1', priority: midPriority, requests: smallRes, startTime: t0 }),
        pod('p1.4', { node: 'node1', priority: negPriority, requests: smallRes, startTime: t0 }),
        pod('p2.1', { node: 'node2', priority: midPriority, requests: largeRes, startTime: t0 }),
        pod('p2.2', { node: 'node2', priority: negPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.1', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.2', { node: 'node3', priority: negPriority, requests: smallRes, startTime: t0 }),
        pod('p3.3', { node: 'node3', priority: lowPriority, requests: smallRes, startTime: t0 }),
      ],
      want: ['node2'],
    },
    {
      name: 'sum of adjusted priorities is considered',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: pod('p', { priority: highPriority, requests: veryLargeRes }),
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: smallRes, startTime: t0 }),
        pod('p1.2', { node: 'node1', priority: negPriority, requests: smallRes, startTime: t0 }),
        pod('p1.3', { node: 'node1', priority: negPriority, requests: smallRes, startTime: t0 }),
        pod('p2.1', { node: 'node2', priority: midPriority, requests: largeRes, startTime: t0 }),
        pod('p2.2', { node: 'node2', priority: negPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.1', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.2', { node: 'node3', priority: negPriority, requests: smallRes, startTime: t0 }),
        pod('p3.3', { node: 'node3', priority: lowPriority, requests: smallRes, startTime: t0 }),
      ],
      want: ['node2'],
    },
    {
      name: 'non-overlapping lowest high priority, sum priorities, and number of pods',
      nodeNames: ['node1', 'node2', 'node3', 'node4'],
      pod: pod('p', { priority: veryHighPriority, requests: veryLargeRes }),
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: smallRes, startTime: t0 }),
        pod('p1.2', { node: 'node1', priority: lowPriority, requests: smallRes, startTime: t0 }),
        pod('p1.3', { node: 'node1', priority: lowPriority, requests: smallRes, startTime: t0 }),
        pod('p2.1', { node: 'node2', priority: highPriority, requests: largeRes, startTime: t0 }),
        pod('p3.1', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: t0 }),
        pod('p3.2', { node: 'node3', priority: lowPriority, requests: smallRes, startTime: t0 }),
        pod('p3.3', { node: 'node3', priority: lowPriority, requests: smallRes, startTime: t0 }),
        pod('p3.4', { node: 'node3', priority: lowPriority, requests: mediumRes, startTime: t0 }),
        pod('p4.1', { node: 'node4', priority: midPriority, requests: mediumRes, startTime: t0 }),
        pod('p4.2', { node: 'node4', priority: midPriority, requests: smallRes, startTime: t0 }),
        pod('p4.3', { node: 'node4', priority: midPriority, requests: smallRes, startTime: t0 }),
        pod('p4.4', { node: 'node4', priority: negPriority, requests: smallRes, startTime: t0 }),
      ],
      want: ['node1'],
    },
    {
      name: 'same priority, same number of victims, different start time for each node',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: pod('p', { priority: highPriority, requests: veryLargeRes }),
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: mediumRes, startTime: epoch(2) }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: mediumRes, startTime: epoch(2) }),
        pod('p2.1', { node: 'node2', priority: midPriority, requests: mediumRes, startTime: epoch(3) }),
        pod('p2.2', { node: 'node2', priority: midPriority, requests: mediumRes, startTime: epoch(3) }),
        pod('p3.1', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: epoch(1) }),
        pod('p3.2', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: epoch(1) }),
      ],
      want: ['node2'],
    },
    {
      name: 'same priority, same number of victims, different start time for all pods',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: pod('p', { priority: highPriority, requests: veryLargeRes }),
      pods: [
        pod('p1.1', { node: 'node1', priority: midPriority, requests: mediumRes, startTime: epoch(4) }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: mediumRes, startTime: epoch(2) }),
        pod('p2.1', { node: 'node2', priority: midPriority, requests: mediumRes, startTime: epoch(5) }),
        pod('p2.2', { node: 'node2', priority: midPriority, requests: mediumRes, startTime: epoch(1) }),
        pod('p3.1', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: epoch(3) }),
        pod('p3.2', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: epoch(6) }),
      ],
      want: ['node3'],
    },
    {
      name: 'different priority, same number of victims, different start time for all pods',
      nodeNames: ['node1', 'node2', 'node3'],
      pod: pod('p', { priority: highPriority, requests: veryLargeRes }),
      pods: [
        pod('p1.1', { node: 'node1', priority: lowPriority, requests: mediumRes, startTime: epoch(4) }),
        pod('p1.2', { node: 'node1', priority: midPriority, requests: mediumRes, startTime: epoch(2) }),
        pod('p2.1', { node: 'node2', priority: midPriority, requests: mediumRes, startTime: epoch(6) }),
        pod('p2.2', { node: 'node2', priority: lowPriority, requests: mediumRes, startTime: epoch(1) }),
        pod('p3.1', { node: 'node3', priority: lowPriority, requests: mediumRes, startTime: epoch(3) }),
        pod('p3.2', { node: 'node3', priority: midPriority, requests: mediumRes, startTime: epoch(5) }),
      ],
      want: ['node2'],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const env = newEnv({ nodes: tc.nodeNames.map((n) => node(n, veryLargeRes)), pods: tc.pods });
      const { state, podInfo } = preFiltered(env, tc.pod);
      const nodeInfos = env.snapshot.nodeInfoList;
      const { offset, numCandidates } = env.plugin.getOffsetAndNumCandidates(nodeInfos.length);
      const { candidates } = env.plugin.evaluator.dryRunPreemption(state, podInfo, nodeInfos, [], offset, numCandidates);
      const best = env.plugin.evaluator.selectCandidate(candidates);
      assert.ok(best !== null && tc.want.includes(best.name), `got ${best?.name}, want one of ${tc.want.join(', ')}`);
    });
  }
});

describe('pickOneNodeForPreemption', () => {
  const victim = (name: string, priority: number, startTime?: string) => new PodInfo(pod(name, { priority, ...(startTime ? { startTime } : {}) }));
  const candidate = (name: string, violations: number, ...pods: PodInfo[]): Candidate => ({ name, victims: { pods, numPDBViolations: violations } });

  it('prefers fewer PDB violations over everything else', () => {
    const got = pickOneNodeForPreemption([
      candidate('a', 1, victim('a1', lowPriority)),
      candidate('b', 0, victim('b1', highPriority), victim('b2', midPriority)),
    ]);
    assert.equal(got, 'b');
  });

  it('breaks full ties by the latest start among the highest-priority victims', () => {
    const got = pickOneNodeForPreemption([
      candidate('a', 0, victim('a1', midPriority, epoch(5)), victim('a2', lowPriority, epoch(9))),
      candidate('b', 0, victim('b1', midPriority, epoch(7)), victim('b2', lowPriority, epoch(1))),
    ]);
    assert.equal(got, 'b');
  });

  it('treats a victim that has not started as the newest', () => {
    const got = pickOneNodeForPreemption([
      candidate('a', 0, victim('a1', midPriority, epoch(5))),
      candidate('b', 0, victim('b1', midPriority)),
    ]);
    assert.equal(got, 'b');
  });

  it('returns the first candidate when every rule ties', () => {
    const got = pickOneNodeForPreemption([candidate('a', 0, victim('a1', midPriority)), candidate('b', 0, victim('b1', midPriority))]);
    assert.equal(got, 'a');
  });
});

describe('Evaluator preempt: carrying out the preemption', () => {
  const nodes = (): Node[] => ['node1', 'node2', 'node3'].map((n) => node(n, veryLargeRes));
  const pods = (): Pod[] => [
    pod('p1.1', { node: 'node1', priority: lowPriority, requests: smallRes }),
    pod('p1.2', { node: 'node1', priority: lowPriority, requests: smallRes }),
    pod('p2.1', { node: 'node2', priority: highPriority, requests: largeRes }),
    pod('p3.1', { node: 'node3', priority: midPriority, requests: mediumRes }),
  ];
  const preemptor = pod('p', { priority: highPriority, requests: veryLargeRes, preemptionPolicy: 'PreemptLowerPriority' });

  it('nominates the node, deletes the victims with the DisruptionTarget reason and records Preempted events', async () => {
    const env = newEnv({ nodes: nodes(), pods: pods() });
    const { state, podInfo, m } = filterAll(env, preemptor);
    const { result, status } = postFilterNow(env, state, podInfo, m);
    assert.deepEqual([status?.code, status?.message()], [Code.Success, 'preemption: found a potential placement for pod on node node1, preempting 2 victims']);
    assert.deepEqual(nominationOf(result), { node: 'node1', victims: ['p1.1', 'p1.2'] });
    await settle();
    assert.deepEqual(env.recorded.deleted.map((d) => d.pod).sort(), ['p1.1', 'p1.2']);
    for (const d of env.recorded.deleted) {
      assert.equal(d.reason, 'PreemptionByScheduler');
      assert.equal(d.message, 'default-scheduler: preempting to accommodate a higher priority pod');
    }
    assert.deepEqual(
      env.recorded.events.map((e) => `${e.object} ${e.reason} ${e.action} ${e.message}`).sort(),
      ['p1.1 Preempted Preempting Preempted by pod p on node node1', 'p1.2 Preempted Preempting Preempted by pod p on node node1'],
    );
  });

  it('asynchronously (the default): PostFilter nominates at once, PreEnqueue holds the preemptor until its last victim is deleted', async () => {
    const env = newEnv({ nodes: nodes(), pods: pods() });
    const { state, podInfo, m } = filterAll(env, preemptor);
    const { result } = postFilterNow(env, state, podInfo, m);
    assert.deepEqual(nominationOf(result), { node: 'node1', victims: ['p1.1', 'p1.2'] });
    assert.equal(env.recorded.deleted.length, 0);
    const held = env.plugin.preEnqueue(preemptor);
    assert.deepEqual([held?.code, held?.message()], [Code.UnschedulableAndUnresolvable, 'waiting for the preemption for this pod to be finished']);
    await settle();
    assert.deepEqual(env.recorded.deleted.map((d) => d.pod).sort(), ['p1.1', 'p1.2']);
    assert.equal(env.plugin.preEnqueue(preemptor), null);
    // Deletion events wake the preemptor: nothing to activate.
    assert.deepEqual(env.recorded.activated, []);
  });

  it('synchronously (SchedulerAsyncPreemption off): PostFilter answers once every victim is deleted, and never holds the pod', async () => {
    const env = newEnv({ nodes: nodes(), pods: pods(), features: { ...defaultFeatures, enableAsyncPreemption: false } });
    const { state, podInfo, m } = filterAll(env, preemptor);
    const out = env.plugin.postFilter(state, podInfo, m);
    assert.ok(out instanceof Promise);
    assert.equal(env.plugin.preEnqueue(preemptor), null);
    const { result, status } = await out;
    assert.equal(status?.code, Code.Success);
    assert.deepEqual(nominationOf(result), { node: 'node1', victims: ['p1.1', 'p1.2'] });
    assert.deepEqual(env.recorded.deleted.map((d) => d.pod).sort(), ['p1.1', 'p1.2']);
    assert.deepEqual(env.plugin.eventsToRegister(), []);
  });

  // The victims go most important first; neither has started, so p1.2 (listed later, the newer) is the last one.
  for (const tc of [
    { waiting: 'p1.2', deleted: 'p1.1', activated: ['p'] },
    { waiting: 'p1.1', deleted: 'p1.2', activated: [] },
  ]) {
    it(`preempts ${tc.waiting}, waiting at Permit, in memory instead of deleting it; the preemptor is activated only when no deletion event will come for its last victim`, async () => {
      const env = newEnv({ nodes: nodes(), pods: pods(), waiting: [tc.waiting] });
      const { state, podInfo, m } = filterAll(env, preemptor);
      postFilterNow(env, state, podInfo, m);
      await settle();
      assert.deepEqual(env.recorded.deleted.map((d) => d.pod), [tc.deleted]);
      assert.deepEqual(env.recorded.rejected, [{ pod: tc.waiting, plugin: 'DefaultPreemption', message: 'preempted' }]);
      assert.deepEqual(
        env.recorded.events.filter((e) => e.reason === 'Preempted').map((e) => `${e.object} ${e.message}`).sort(),
        [`${tc.deleted} Preempted by pod p on node node1`, `${tc.waiting} Preempted by pod p on node node1 (in kube-scheduler memory).`].sort(),
      );
      assert.deepEqual(env.recorded.activated, tc.activated);
    });
  }

  it('clears the nomination of lower-priority pods nominated to the chosen node only', async () => {
    const nominated = [
      pod('low-nominee', { priority: lowPriority, nominatedNodeName: 'node1' }),
      pod('high-nominee', { priority: veryHighPriority, nominatedNodeName: 'node1' }),
      pod('elsewhere', { priority: lowPriority, nominatedNodeName: 'node3' }),
    ];
    // The nominees request nothing, so their reservations leave node1 the best candidate.
    const env = newEnv({ nodes: nodes(), pods: pods(), nominated });
    const { state, podInfo, m } = filterAll(env, preemptor);
    const { result } = postFilterNow(env, state, podInfo, m);
    assert.deepEqual(nominationOf(result), { node: 'node1', victims: ['p1.1', 'p1.2'] });
    await settle();
    assert.deepEqual(env.recorded.cleared, ['low-nominee']);
  });

  it('a pod whose nominated node is unresolvable for it may preempt elsewhere', () => {
    const env = newEnv({ nodes: nodes(), pods: [...pods(), pod('gone', { node: 'node3', priority: lowPriority, terminating: true, disruptionTarget: true })] });
    const { state, podInfo, m } = filterAll(env, pod('p', { priority: highPriority, requests: veryLargeRes, nominatedNodeName: 'node3' }));
    m.set('node3', new Status(Code.UnschedulableAndUnresolvable, ['node(s) had untolerated taint']));
    const { result, status } = postFilterNow(env, state, podInfo, m);
    assert.deepEqual([status?.code, status?.message()], [Code.Success, 'preemption: found a potential placement for pod on node node1, preempting 2 victims']);
    assert.deepEqual(nominationOf(result), { node: 'node1', victims: ['p1.1', 'p1.2'] });
  });

  it('a pod waits while a victim of its earlier preemption is still terminating on its nominated node', () => {
    const env = newEnv({ nodes: nodes(), pods: [...pods(), pod('gone', { node: 'node3', priority: lowPriority, terminating: true, disruptionTarget: true })] });
    const { state, podInfo, m } = filterAll(env, pod('p', { priority: highPriority, requests: veryLargeRes, nominatedNodeName: 'node3' }));
    const { result, status } = postFilterNow(env, state, podInfo, m);
    assert.equal(result, null);
    assert.equal(status?.message(), 'preemption: not eligible due to a terminating pod on the nominated node.');
    assert.deepEqual(env.recorded.deleted, []);
  });
});

/** The node PostFilter nominated and the victims it credits to the pod, sorted. */
function nominationOf(result: PostFilterResult | null): { node: string; victims: string[] } | null {
  if (result === null) return null;
  return { node: result.nominatedNodeName, victims: (result.victims ?? []).map((v) => v.metadata.name ?? '').sort() };
}
