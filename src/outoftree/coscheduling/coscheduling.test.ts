// Cases of scheduler-plugins' pkg/coscheduling/coscheduling_test.go and core/core_test.go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Code, CycleState, PodInfo, defaultFeatures, type Handle, type Node, type NodeToStatusReader, type Pod, type WaitingPod } from '../../plugin.js';
import { assertStatus, makeNode, makePod, newTestHandle } from '../../testing/index.js';
import { Coscheduling, coschedulingDefinition, PodGroupLabel, validateCoschedulingArgs, defaultCoschedulingArgs, type CoschedulingArgs } from './index.js';
import { fixedSource, makePodGroup, queued } from './test_helpers.js';
import type { CoschedulingPodGroup } from './types.js';

const noStatuses: NodeToStatusReader = { get: () => null, absentNodesStatus: null, entries: () => new Map<string, never>().entries(), size: 0 };

const member = (name: string, o: { node?: string; ns?: string; group?: string; cpu?: string; priority?: number } = {}): Pod =>
  makePod(name, {
    namespace: o.ns ?? 'ns',
    uid: name,
    labels: o.group === '' ? {} : { [PodGroupLabel]: o.group ?? 'pg1' },
    ...(o.node !== undefined ? { node: o.node } : {}),
    ...(o.cpu !== undefined ? { requests: { cpu: o.cpu } } : {}),
    ...(o.priority !== undefined ? { priority: o.priority } : {}),
  });

interface Fixture {
  pgs?: CoschedulingPodGroup[];
  /** Pods the informer has; those with a node are in the snapshot too. */
  pods?: Pod[];
  nodes?: Node[];
  args?: Partial<CoschedulingArgs>;
  now?: () => number;
  waiting?: WaitingPod[];
}

function build(f: Fixture): Coscheduling {
  const pods = f.pods ?? [];
  const handle: Handle = newTestHandle({
    nodes: f.nodes ?? [makeNode('node', { allocatable: { cpu: '4', memory: '32Gi', pods: '110' } })],
    pods: pods.filter((p) => p.spec.nodeName),
    overrides: {
      now: f.now ?? (() => 0),
      iterateOverWaitingPods: (fn) => (f.waiting ?? []).forEach(fn),
    },
  });
  return new Coscheduling(handle, { ...defaultCoschedulingArgs({}), ...f.args }, fixedSource(f.pgs ?? [], pods));
}

/** A waiting pod that records what the plugin told it. */
function waitingPod(pod: Pod): WaitingPod & { said: string[] } {
  const said: string[] = [];
  return {
    pod,
    said,
    pendingPlugins: () => ['Coscheduling'],
    allow: (p) => void said.push(`allow by ${p}`),
    reject: (p, m) => void said.push(`reject by ${p}: ${m}`),
    preempt: () => false,
  };
}

describe('Coscheduling args', () => {
  it('defaults to a 60 s wait and no backoff', () => {
    assert.deepEqual(defaultCoschedulingArgs({}), { permitWaitingTimeSeconds: 60, podGroupBackoffSeconds: 0 });
  });
  const cases: { name: string; args: CoschedulingArgs; want: string[] }[] = [
    { name: 'valid', args: { permitWaitingTimeSeconds: 10, podGroupBackoffSeconds: 0 }, want: [] },
    { name: 'negative wait', args: { permitWaitingTimeSeconds: -1, podGroupBackoffSeconds: 0 }, want: ['args.permitWaitingTimeSeconds: Invalid value: -1: must be greater than 0'] },
    { name: 'negative backoff', args: { permitWaitingTimeSeconds: 1, podGroupBackoffSeconds: -2 }, want: ['args.podGroupBackoffSeconds: Invalid value: -2: must be greater than 0'] },
    { name: 'not a number', args: { permitWaitingTimeSeconds: '5' as unknown as number, podGroupBackoffSeconds: 0.5 }, want: ['args.permitWaitingTimeSeconds: Invalid value: "5": must be an integer', 'args.podGroupBackoffSeconds: Invalid value: 0.5: must be an integer'] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(validateCoschedulingArgs(c.args, 'args').map((e) => `${e.path}: ${e.message}`), c.want));
  }
  it('builds by name from the definition', () => {
    const def = coschedulingDefinition(() => fixedSource([], []));
    assert.equal(def.name, 'Coscheduling');
    assert.ok(def.factory(defaultCoschedulingArgs({}), newTestHandle(), defaultFeatures) instanceof Coscheduling);
  });
});

describe('Coscheduling Less', () => {
  const t1 = '2026-01-01T00:00:01Z';
  const t2 = '2026-01-01T00:00:02Z';
  const ms = (s: string) => Date.parse(s);
  const pod = (name: string, ns: string, priority: number, group = '') => member(name, { ns, priority, group });
  const cases = [
    { name: 'p1.priority less than p2.priority', p1: queued(pod('p1', 'ns1', 10)), p2: queued(pod('p2', 'ns2', 100)), want: false },
    { name: 'p1.priority greater than p2.priority', p1: queued(pod('p1', 'ns1', 100)), p2: queued(pod('p2', 'ns2', 10)), want: true },
    { name: 'equal priority, p1 queued earlier', p1: queued(pod('p1', 'ns1', 100), ms(t1)), p2: queued(pod('p2', 'ns2', 100), ms(t2)), want: true },
    { name: 'equal priority, p2 queued earlier', p1: queued(pod('p1', 'ns1', 100), ms(t2)), p2: queued(pod('p2', 'ns2', 100), ms(t1)), want: false },
    { name: 'p1 in pg1 with lower priority', p1: queued(pod('p1', 'ns1', 10, 'pg1')), p2: queued(pod('p2', 'ns2', 100)), pgs: [makePodGroup('pg1', { namespace: 'ns1' })], want: false },
    { name: 'p1 in pg1 with higher priority', p1: queued(pod('p1', 'ns1', 100, 'pg1')), p2: queued(pod('p2', 'ns2', 10)), pgs: [makePodGroup('pg1', { namespace: 'ns1' })], want: true },
    { name: 'equal priority, pg1 created when p2 was queued later', p1: queued(pod('p1', 'ns1', 100, 'pg1'), ms(t1)), p2: queued(pod('p2', 'ns2', 100), ms(t2)), pgs: [makePodGroup('pg1', { namespace: 'ns1', created: t1 })], want: true },
    { name: 'equal priority, pg1 created after p2 was queued', p1: queued(pod('p1', 'ns1', 100, 'pg1'), ms(t2)), p2: queued(pod('p2', 'ns2', 100), ms(t1)), pgs: [makePodGroup('pg1', { namespace: 'ns1', created: t2 })], want: false },
    {
      name: 'equal priority, pg1 older than pg2', p1: queued(pod('p1', 'ns1', 100, 'pg1'), ms(t1)), p2: queued(pod('p2', 'ns2', 100, 'pg2'), ms(t2)),
      pgs: [makePodGroup('pg1', { namespace: 'ns1', created: t1 }), makePodGroup('pg2', { namespace: 'ns2', created: t2 })], want: true,
    },
    {
      name: 'equal priority, p1 in the younger group', p1: queued(pod('p1', 'ns', 100, 'pg2'), ms(t1)), p2: queued(pod('p2', 'ns', 100, 'pg1'), ms(t2)),
      pgs: [makePodGroup('pg1', { namespace: 'ns', created: t1 }), makePodGroup('pg2', { namespace: 'ns', created: t2 })], want: false,
    },
    {
      name: 'equal priority and time: namespace/name decides', p1: queued(pod('p1', 'ns1', 100), ms(t1)), p2: queued(pod('p2', 'ns2', 100, 'pg2'), ms(t2)),
      pgs: [makePodGroup('pg2', { namespace: 'ns2', created: t1 })], want: true,
    },
    { name: 'a group without a creation time sorts first', p1: queued(pod('p1', 'ns1', 100), ms(t1)), p2: queued(pod('p2', 'ns2', 100, 'pg2'), ms(t1)), pgs: [makePodGroup('pg2', { namespace: 'ns2' })], want: false },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(build({ pgs: c.pgs ?? [] }).less(c.p1, c.p2), c.want));
  }
});

describe('Coscheduling PreFilter', () => {
  const cases: { name: string; pod: Pod; fixture: Fixture; code: Code | null; reason?: string }[] = [
    { name: 'pod does not belong to any podGroup', pod: member('p', { group: '' }), fixture: {}, code: null },
    { name: 'pod belongs to a podGroup that does not exist', pod: member('p', { group: 'pg-missing' }), fixture: { pods: [member('p', { group: 'pg-missing' })] }, code: null },
    {
      name: 'fewer pods than minMember',
      pod: member('p1'),
      fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3 })], pods: [member('p1'), member('p2')] },
      code: Code.UnschedulableAndUnresolvable,
      reason: 'pre-filter pod p1 cannot find enough sibling pods, current pods number: 2, minMember of group: 3',
    },
    { name: 'as many pods as minMember', pod: member('p1'), fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 2 })], pods: [member('p1'), member('p2')] }, code: null },
    {
      name: 'minResources more than the cluster has free',
      pod: member('p1'),
      fixture: {
        pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 2, minResources: { cpu: '6' } })],
        pods: [member('p1'), member('p2'), makePod('other', { namespace: 'ns', node: 'node', requests: { cpu: '1' } })],
      },
      code: Code.UnschedulableAndUnresolvable,
      reason: 'resource gap: map[cpu:3000m]',
    },
    {
      name: "the group's own running pods do not count against minResources",
      pod: member('p1'),
      fixture: {
        pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 2, minResources: { cpu: '4' } })],
        pods: [member('p1'), member('p2', { node: 'node', cpu: '3' })],
      },
      code: null,
    },
    {
      name: 'minMember more than the pods the nodes allow',
      pod: member('p1'),
      fixture: {
        pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 2, minResources: { cpu: '1' } })],
        pods: [member('p1'), member('p2')],
        nodes: [makeNode('node', { allocatable: { cpu: '4', memory: '1Gi', pods: '1' } })],
      },
      code: Code.UnschedulableAndUnresolvable,
      reason: 'resource gap: map[pods:1]',
    },
  ];
  for (const c of cases) {
    it(c.name, () => assertStatus(build(c.fixture).preFilter(new CycleState(), new PodInfo(c.pod))?.status ?? null, c.code, c.reason));
  }
});

describe('Coscheduling Permit', () => {
  const cases: { name: string; pod: Pod; fixture: Fixture; code: Code | null; timeoutMs: number; reason?: string }[] = [
    { name: 'pod does not belong to any podGroup', pod: member('p', { group: '' }), fixture: {}, code: null, timeoutMs: 0 },
    { name: 'podGroup not found', pod: member('p'), fixture: {}, code: Code.Unschedulable, timeoutMs: 0, reason: 'PodGroup not found' },
    { name: 'group not complete: wait for the args timeout', pod: member('p1'), fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3 })], args: { permitWaitingTimeSeconds: 10 } }, code: Code.Wait, timeoutMs: 10_000 },
    { name: "group's scheduleTimeoutSeconds wins", pod: member('p1'), fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3, scheduleTimeoutSeconds: 7 })] }, code: Code.Wait, timeoutMs: 7000 },
    { name: 'scheduleTimeoutSeconds 0 keeps the args wait', pod: member('p1'), fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3, scheduleTimeoutSeconds: 0 })], args: { permitWaitingTimeSeconds: 10 } }, code: Code.Wait, timeoutMs: 10_000 },
    { name: 'no wait in the args: 60 s', pod: member('p1'), fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3 })], args: { permitWaitingTimeSeconds: 0 } }, code: Code.Wait, timeoutMs: 60_000 },
    { name: 'minMember 1 goes on at once', pod: member('p1'), fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 1 })] }, code: null, timeoutMs: 0 },
    { name: 'the last member completes the group', pod: member('p3'), fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3 })], pods: [member('p1', { node: 'node' }), member('p2', { node: 'node' }), member('p3')] }, code: null, timeoutMs: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = build(c.fixture).permit(new CycleState(), new PodInfo(c.pod), 'node');
      assertStatus(got.status, c.code, c.reason);
      assert.equal(got.timeoutMs, c.timeoutMs);
    });
  }

  it("the completing member allows the group's waiting pods, not another group's", () => {
    const w1 = waitingPod(member('p1', { node: 'node' }));
    const other = waitingPod(member('q1', { group: 'pg2' }));
    const pl = build({ pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 2 })], pods: [member('p1', { node: 'node' }), member('p2')], waiting: [w1, other] });
    assertStatus(pl.permit(new CycleState(), new PodInfo(member('p2')), 'node').status, null);
    assert.deepEqual(w1.said, ['allow by Coscheduling']);
    assert.deepEqual(other.said, []);
  });

  it("the group's first member asks to activate its siblings", () => {
    const pods = [member('pod1'), member('pod2'), member('pod3')];
    const pl = build({ pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3 })], pods });
    const state = new CycleState();
    assertStatus(pl.permit(state, new PodInfo(pods[0]!), 'node').status, Code.Wait);
    assert.deepEqual([...state.podsToActivate.keys()].sort(), ['ns/pod2', 'ns/pod3']);
  });
});

describe('Coscheduling PostFilter', () => {
  const cases: { name: string; pod: Pod; fixture: Fixture; reason?: string; rejected: boolean }[] = [
    { name: 'pod does not belong to any pod group', pod: member('p', { group: '' }), fixture: {}, reason: 'can not find pod group', rejected: false },
    { name: 'enough pods assigned, do not reject all', pod: member('p'), fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 1 })], pods: [member('p1', { node: 'node' }), member('p')] }, rejected: false },
    {
      name: 'a small gap to the quorum keeps the waiting members',
      pod: member('p'),
      fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 10 })], pods: [...Array.from({ length: 9 }, (_, i) => member(`p${i}`, { node: 'node' })), member('p')] },
      rejected: false,
    },
    {
      name: 'pod failed at filter phase, reject all pods',
      pod: member('p'),
      fixture: { pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 2 })], pods: [member('p1', { node: 'node' }), member('p')] },
      reason: 'PodGroup ns/pg1 gets rejected due to Pod p is unschedulable even after PostFilter',
      rejected: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const w = waitingPod(member('p1', { node: 'node' }));
      const got = build({ ...c.fixture, waiting: [w] }).postFilter(new CycleState(), new PodInfo(c.pod), noStatuses);
      assertStatus(got.status, Code.Unschedulable, c.reason);
      assert.deepEqual(w.said, c.rejected ? ['reject by Coscheduling: optimistic rejection in PostFilter'] : []);
    });
  }

  it('podGroupBackoffSeconds keeps a failed group out of PreFilter until it expires', () => {
    let now = 0;
    const pods = [member('pod1'), member('pod2'), member('pod3')];
    const pl = build({ pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3 })], pods, args: { podGroupBackoffSeconds: 1 }, now: () => now });
    assertStatus(pl.permit(new CycleState(), new PodInfo(pods[0]!), 'node').status, Code.Wait);
    pl.postFilter(new CycleState(), new PodInfo(pods[1]!), noStatuses);
    assertStatus(pl.preFilter(new CycleState(), new PodInfo(pods[2]!))?.status ?? null, Code.UnschedulableAndUnresolvable, 'podGroup ns/pg1 failed recently');
    now = 1000;
    assert.equal(pl.preFilter(new CycleState(), new PodInfo(pods[2]!)), null);
  });
});

describe('Coscheduling minResources check', () => {
  for (const [wait, ttl] of [[10, 10_000], [0, 3000]] as const) {
    it(`is not repeated for ${ttl} ms once the group passed it (permitWaitingTimeSeconds: ${wait})`, () => {
      let now = 0;
      const pods = [member('p1'), member('p2')];
      const pg = makePodGroup('pg1', { namespace: 'ns', minMember: 2, minResources: { cpu: '4' } });
      const pl = build({ pgs: [pg], pods, args: { permitWaitingTimeSeconds: wait }, now: () => now });
      assert.equal(pl.preFilter(new CycleState(), new PodInfo(pods[0]!)), null);
      // The group now asks for more than the node has: unseen until the pass expires.
      pg.spec.minResources = { cpu: '8' };
      now = ttl - 1;
      assert.equal(pl.preFilter(new CycleState(), new PodInfo(pods[1]!)), null);
      now = ttl;
      assertStatus(pl.preFilter(new CycleState(), new PodInfo(pods[1]!))?.status ?? null, Code.UnschedulableAndUnresolvable, 'resource gap: map[cpu:4000m]');
    });
  }
});

describe('Coscheduling Unreserve', () => {
  it("rejects the group's waiting pods only", () => {
    const mine = waitingPod(member('p1', { node: 'node' }));
    const other = waitingPod(member('q1', { group: 'pg2' }));
    const pl = build({ pgs: [makePodGroup('pg1', { namespace: 'ns', minMember: 3 })], waiting: [mine, other] });
    pl.unreserve(new CycleState(), new PodInfo(member('p2')), 'node');
    assert.deepEqual(mine.said, ['reject by Coscheduling: rejection in Unreserve']);
    assert.deepEqual(other.said, []);
  });
});

