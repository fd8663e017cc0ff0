// GangScheduling's PreEnqueue, Permit, PlacementFeasible and hints, after upstream's
// gangscheduling_test.go (in our words).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CompositePodGroup, PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import { PodGroupStates } from '../../cache/pod_group_state.js';
import { CycleState } from '../../framework/cycle_state.js';
import { QueueingHint } from '../../framework/events.js';
import type { WaitingPod } from '../../framework/interfaces.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { podGroupStatesOf } from '../../testing/pod_group_states.js';
import { GangScheduling, waitingForQuorum } from './gang_scheduling.js';

const gang = (name: string, minCount: number): PodGroup =>
  ({ kind: 'PodGroup', metadata: { name, namespace: 'default' }, spec: { schedulingPolicy: { gang: { minCount } } } });
const basic = (name: string): PodGroup => ({ kind: 'PodGroup', metadata: { name, namespace: 'default' }, spec: { schedulingPolicy: { basic: {} } } });
const member = (name: string, group: string, nodeName?: string): Pod =>
  makePod(name, { uid: name, spec: { schedulingGroup: { podGroupName: group }, ...(nodeName ? { nodeName } : {}) } });

function setUp(groups: PodGroup[], pods: Pod[], assumed: string[] = []) {
  const states = new PodGroupStates((p) => assumed.includes(p.metadata.name ?? ''));
  for (const g of groups) states.setPodGroup(g);
  for (const p of pods) states.upsertPod(p);
  const allowed: string[] = [];
  const activated: string[] = [];
  const handle = {
    ...newTestHandle(),
    podGroups: () => states,
    activate: (ps: Iterable<Pod>) => { for (const p of ps) activated.push(p.metadata.name ?? ''); },
    getWaitingPod: (uid: string): WaitingPod => ({ pod: makePod(uid), pendingPlugins: () => [], allow: () => allowed.push(uid), reject: () => {}, preempt: () => false }),
  };
  return { pl: new GangScheduling(handle), allowed, activated };
}

const cpg = (name: string, minGroupCount: number | null, parent?: string): CompositePodGroup => ({
  kind: 'CompositePodGroup', metadata: { name, namespace: 'default' },
  spec: { workloadRef: { workloadName: 'w', templateName: name }, schedulingPolicy: minGroupCount === null ? { basic: {} } : { gang: { minGroupCount } }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
});
const under = (g: PodGroup, parent: string): PodGroup => ({ ...g, spec: { ...g.spec, parentCompositePodGroupName: parent } });

describe('GangScheduling PreEnqueue', () => {
  const cases = [
    { name: 'a pod outside any group', groups: [gang('g', 2)], pods: [makePod('p')], pod: makePod('p'), want: null },
    { name: 'its PodGroup not observed yet', groups: [], pods: [member('a', 'g')], pod: member('a', 'g'), want: 'waiting for pods\'s pod group "g" to appear in scheduling queue' },
    { name: 'a basic group', groups: [basic('g')], pods: [member('a', 'g')], pod: member('a', 'g'), want: null },
    { name: 'fewer members than minCount', groups: [gang('g', 3)], pods: [member('a', 'g'), member('b', 'g')], pod: member('a', 'g'), want: 'waiting for minCount pods from a gang to appear in scheduling queue' },
    { name: 'minCount members, one already bound', groups: [gang('g', 2)], pods: [member('a', 'g'), member('b', 'g', 'n1')], pod: member('a', 'g'), want: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = setUp(c.groups, c.pods).pl.preEnqueue(c.pod);
      if (c.want === null) assert.equal(s, null);
      else {
        assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
        assert.deepEqual(s?.reasons, [c.want]);
      }
    });
  }
});

describe('GangScheduling Permit', () => {
  it('waits below minCount scheduled and activates the unscheduled members', () => {
    const { pl, activated } = setUp([gang('g', 3)], [member('a', 'g'), member('b', 'g'), member('c', 'g')], ['a']);
    const out = pl.permit(new CycleState(), new PodInfo(member('a', 'g')), 'n1');
    assert.equal(out.status?.code, Code.Wait);
    assert.deepEqual(out.status?.reasons, ['waiting for minCount pods from a gang to be scheduled']);
    assert.equal(out.timeoutMs, 5 * 60 * 1000);
    assert.deepEqual(activated.sort(), ['b', 'c']);
  });
  it('allows every assumed member once minCount are scheduled', () => {
    const { pl, allowed } = setUp([gang('g', 2)], [member('a', 'g'), member('b', 'g'), member('c', 'g')], ['a', 'b']);
    const out = pl.permit(new CycleState(), new PodInfo(member('b', 'g')), 'n1');
    assert.equal(out.status, null);
    assert.deepEqual(allowed.sort(), ['a', 'b']);
  });
  it('lets a basic group pass', () => {
    assert.equal(setUp([basic('g')], [member('a', 'g')]).pl.permit(new CycleState(), new PodInfo(member('a', 'g')), 'n1').status, null);
  });
});

describe('GangScheduling PlacementFeasible', () => {
  const { pl } = setUp([], []);
  const cases = [
    { name: 'cannot reach minCount', remaining: 1, scheduled: 1, want: { code: Code.Unschedulable, msg: 'minCount (3) cannot be satisfied: 1 scheduled, 1 remaining' } },
    { name: 'not there yet', remaining: 2, scheduled: 1, want: { code: Code.Wait, msg: 'minCount (3) is not yet satisfied: 1 scheduled, 2 remaining' } },
    { name: 'reached', remaining: 0, scheduled: 3, want: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = pl.placementFeasible(gang('g', 3), { remaining: c.remaining, scheduled: c.scheduled });
      if (c.want === null) assert.equal(s, null);
      else assert.deepEqual([s?.code, s?.message()], [c.want.code, c.want.msg]);
    });
  }
  it('a basic group needs one member', () => {
    assert.equal(pl.placementFeasible(basic('g'), { remaining: 0, scheduled: 0 })?.code, Code.Unschedulable);
  });
});

describe('GangScheduling hints', () => {
  const { pl } = setUp([], []);
  const [podAdd, , pgAdd, pgUpdate] = pl.eventsToRegister().map((e) => e.queueingHintFn!);
  const target = member('a', 'g');
  it('queues on a new member of the same group only', () => {
    assert.equal(podAdd!(target, null, member('b', 'g')), QueueingHint.Queue);
    assert.equal(podAdd!(target, null, member('b', 'other')), QueueingHint.QueueSkip);
    assert.equal(podAdd!(target, null, makePod('b')), QueueingHint.QueueSkip);
  });
  it('queues on its PodGroup appearing', () => {
    assert.equal(pgAdd!(target, null, gang('g', 2)), QueueingHint.Queue);
    assert.equal(pgAdd!(target, null, gang('h', 2)), QueueingHint.QueueSkip);
  });
  it('queues on a lower minCount only', () => {
    assert.equal(pgUpdate!(target, gang('g', 3), gang('g', 2)), QueueingHint.Queue);
    assert.equal(pgUpdate!(target, gang('g', 2), gang('g', 3)), QueueingHint.QueueSkip);
  });
});

describe('GangScheduling over a composite tree (CompositePodGroup on)', () => {
  function tree(composites: CompositePodGroup[], groups: PodGroup[], pods: Pod[], assumed: string[] = []) {
    const states = podGroupStatesOf(composites, groups, pods, { assumed });
    const allowed: string[] = [];
    const handle = {
      ...newTestHandle(),
      podGroups: () => states,
      activate: () => {},
      getWaitingPod: (uid: string): WaitingPod => ({ pod: makePod(uid), pendingPlugins: () => [], allow: () => allowed.push(uid), reject: () => {}, preempt: () => false }),
    };
    return { pl: new GangScheduling(handle, { enableCompositePodGroup: true }), allowed };
  }
  const groups = [under(gang('a', 2), 'job'), under(gang('b', 1), 'job')];

  it('PreEnqueue waits until minGroupCount children have their quorum of members', () => {
    const short = tree([cpg('job', 2)], groups, [member('a0', 'a'), member('b0', 'b')]);
    assert.equal(short.pl.preEnqueue(member('b0', 'b'))?.message(), 'waiting for composite pod group "job" tree to meet quorum');
    const one = tree([cpg('job', 1)], groups, [member('a0', 'a'), member('b0', 'b')]);
    assert.equal(one.pl.preEnqueue(member('a0', 'a')), null, 'b alone meets minGroupCount 1, which lets a0 in too');
    const missing = tree([], groups, [member('a0', 'a')]);
    assert.equal(missing.pl.preEnqueue(member('a0', 'a'))?.message(),
      'failed to build hierarchy snapshot: composite pod group object not found in state for compositepodgroup/default/job');
  });

  it('Permit waits for the whole tree and then allows every assumed member', () => {
    const pods = [member('a0', 'a'), member('a1', 'a'), member('b0', 'b')];
    const waiting = tree([cpg('job', 2)], groups, pods, ['a0', 'b0']);
    const w = waiting.pl.permit(new CycleState(), new PodInfo(member('b0', 'b')), 'n1');
    assert.equal(w.status?.code, Code.Wait);
    assert.equal(w.status?.message(), 'waiting for composite pod group "job" tree to meet quorum');
    const ready = tree([cpg('job', 2)], groups, pods, ['a0', 'a1', 'b0']);
    assert.equal(ready.pl.permit(new CycleState(), new PodInfo(member('a1', 'a')), 'n1').status, null);
    assert.deepEqual(ready.allowed.sort(), ['a0', 'a1', 'b0']);
  });

  it('PlacementFeasible counts a composite\'s children against minGroupCount', () => {
    const { pl } = tree([], [], []);
    assert.equal(pl.placementFeasible(cpg('job', 2), { remaining: 2, scheduled: 0 })?.message(), 'minCount (2) is not yet satisfied: 0 scheduled, 2 remaining');
    assert.equal(pl.placementFeasible(cpg('job', 2), { remaining: 0, scheduled: 1 })?.message(), 'minCount (2) cannot be satisfied: 1 scheduled, 0 remaining');
    assert.equal(pl.placementFeasible(cpg('job', null), { remaining: 0, scheduled: 1 }), null);
  });

  it('a CompositePodGroup added to the pod\'s tree requeues it, another tree\'s does not', () => {
    const { pl } = tree([cpg('job', 1), cpg('other', 1)], groups, []);
    const hint = pl.eventsToRegister().find((e) => e.event.resource === 'CompositePodGroup')!.queueingHintFn!;
    assert.equal(hint(member('a0', 'a'), null, cpg('job', 1)), QueueingHint.Queue);
    assert.equal(hint(member('a0', 'a'), null, cpg('other', 1)), QueueingHint.QueueSkip);
  });
});

describe('GangScheduling messages for an incomplete tree (CompositePodGroup on)', () => {
  function plugin(composites: CompositePodGroup[], groups: PodGroup[], pods: Pod[], assumed: string[] = []) {
    const states = podGroupStatesOf(composites, groups, pods, { assumed });
    const handle = { ...newTestHandle(), podGroups: () => states, activate: () => {}, getWaitingPod: () => undefined };
    return new GangScheduling(handle, { enableCompositePodGroup: true });
  }
  const a0 = member('a0', 'a');
  const snap = 'failed to build hierarchy snapshot: ';
  // Each row: the tree the cache holds, then PreEnqueue's and Permit's answers for member a0 (assumed at Permit).
  const cases: { name: string; composites: CompositePodGroup[]; groups: PodGroup[]; preEnqueue: [Code, string] | null; permit: [Code, string] | null }[] = [
    {
      name: 'no PodGroup object, its member known', composites: [], groups: [],
      preEnqueue: [Code.UnschedulableAndUnresolvable, `${snap}pod group object not found in state for podgroup/default/a`],
      permit: [Code.Error, `${snap}pod group object not found in state for podgroup/default/a`],
    },
    {
      name: 'the parent composite not observed', composites: [], groups: [under(gang('a', 1), 'mid')],
      preEnqueue: [Code.UnschedulableAndUnresolvable, `${snap}composite pod group object not found in state for compositepodgroup/default/mid`],
      permit: [Code.Error, `${snap}composite pod group object not found in state for compositepodgroup/default/mid`],
    },
    {
      name: 'the grandparent not observed', composites: [cpg('mid', 1, 'top')], groups: [under(gang('a', 1), 'mid')],
      preEnqueue: [Code.UnschedulableAndUnresolvable, `${snap}composite pod group object not found in state for compositepodgroup/default/top`],
      permit: [Code.Error, `${snap}composite pod group object not found in state for compositepodgroup/default/top`],
    },
    {
      name: 'two composites naming each other', composites: [cpg('mid', 1, 'top'), cpg('top', 1, 'mid')], groups: [under(gang('a', 1), 'mid')],
      preEnqueue: [Code.UnschedulableAndUnresolvable, `${snap}cycle detected in composite pod group hierarchy: compositepodgroup/default/top`],
      permit: [Code.Error, `${snap}cycle detected in composite pod group hierarchy: compositepodgroup/default/top`],
    },
    {
      // The snapshot's root is the fourth composite, which has no object: the parent is named.
      name: 'four composites deep, the top one not observed', composites: [cpg('p1', 1, 'p2'), cpg('p2', 1, 'p3'), cpg('p3', 1, 'p4')], groups: [under(gang('a', 1), 'p1')],
      preEnqueue: [Code.UnschedulableAndUnresolvable, `${snap}composite pod group object not found in state for compositepodgroup/default/p1`],
      permit: [Code.Error, `${snap}composite pod group object not found in state for compositepodgroup/default/p1`],
    },
    {
      name: 'a whole tree short of its quorum', composites: [cpg('top', 2), cpg('mid', 1, 'top')], groups: [under(gang('a', 1), 'mid'), under(gang('b', 1), 'top')],
      preEnqueue: [Code.UnschedulableAndUnresolvable, 'waiting for composite pod group "top" tree to meet quorum'],
      permit: [Code.Wait, 'waiting for composite pod group "top" tree to meet quorum'],
    },
    { name: 'a whole tree with its quorum', composites: [cpg('top', 1), cpg('mid', 1, 'top')], groups: [under(gang('a', 1), 'mid'), under(gang('b', 1), 'top')], preEnqueue: null, permit: null },
    {
      name: 'a gang without a parent, short of minCount', composites: [], groups: [gang('a', 2)],
      preEnqueue: [Code.UnschedulableAndUnresolvable, waitingForQuorum], permit: [Code.Wait, 'waiting for minCount pods from a gang to be scheduled'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = plugin(c.composites, c.groups, [a0], ['a0']);
      const pre = pl.preEnqueue(a0);
      assert.deepEqual(pre === null ? null : [pre.code, pre.message()], c.preEnqueue, 'PreEnqueue');
      const permit = pl.permit(new CycleState(), new PodInfo(a0), 'n1').status;
      assert.deepEqual(permit === null ? null : [permit.code, permit.message()], c.permit, 'Permit');
    });
  }

  it('without the gate, Permit names the snapshot\'s missing PodGroup object', () => {
    const { pl } = setUp([], [member('a', 'g')]);
    const s = pl.permit(new CycleState(), new PodInfo(member('a', 'g')), 'n1').status;
    assert.deepEqual([s?.code, s?.message()], [Code.Error, 'failed to get podGroup default/g: pod group object not found for pod group podgroup/default/g']);
  });
});

describe('GangScheduling hints over a composite tree (upstream\'s hint tables)', () => {
  const basicCpg = (name: string, parent?: string) => cpg(name, null, parent);
  const basicUnder = (name: string, parent: string) => under(basic(name), parent);
  // The cache sees an added object before the hints are asked about it, so each tree holds it already.
  function hints(gate: boolean, composites: CompositePodGroup[], groups: PodGroup[]) {
    const states = podGroupStatesOf(composites, groups, [], { compositePodGroup: gate });
    const pl = new GangScheduling({ ...newTestHandle(), podGroups: () => states }, { enableCompositePodGroup: gate });
    return new Map(pl.eventsToRegister().map((e) => [`${e.event.resource}/${e.event.actionType}`, e.queueingHintFn!]));
  }
  const pod = member('p', 'pg');
  const Q = QueueingHint.Queue;
  const S = QueueingHint.QueueSkip;
  // `off` is the answer without the gate; the CompositePodGroup hint is then not registered at all.
  const cases: { name: string; composites: CompositePodGroup[]; groups: PodGroup[]; event: string; obj: CompositePodGroup | PodGroup | Pod; on: QueueingHint; off: QueueingHint | 'unregistered' }[] = [
    { name: 'its root composite added', composites: [basicCpg('root')], groups: [basicUnder('pg', 'root')], event: 'CompositePodGroup/1', obj: basicCpg('root'), on: Q, off: 'unregistered' },
    { name: 'an intermediate composite with the same root added', composites: [basicCpg('root'), basicCpg('sub', 'root')], groups: [basicUnder('pg', 'sub')], event: 'CompositePodGroup/1', obj: basicCpg('sub', 'root'), on: Q, off: 'unregistered' },
    { name: 'a composite of another tree added', composites: [basicCpg('cpg-1'), basicCpg('cpg-2')], groups: [basicUnder('pg', 'cpg-1')], event: 'CompositePodGroup/1', obj: basicCpg('cpg-2'), on: S, off: 'unregistered' },
    { name: 'a member of a sibling group under the same root', composites: [basicCpg('root')], groups: [basicUnder('pg', 'root'), basicUnder('sib', 'root')], event: 'UnscheduledPod/1', obj: member('q', 'sib'), on: Q, off: S },
    { name: 'a member of a group of another tree', composites: [basicCpg('r1'), basicCpg('r2')], groups: [basicUnder('pg', 'r1'), basicUnder('other', 'r2')], event: 'UnscheduledPod/1', obj: member('q', 'other'), on: S, off: S },
    { name: 'a bound member of a sibling group', composites: [basicCpg('root')], groups: [basicUnder('pg', 'root'), basicUnder('sib', 'root')], event: 'AssignedPod/1', obj: member('q', 'sib'), on: Q, off: S },
    { name: 'a sibling PodGroup added under the same root', composites: [basicCpg('root')], groups: [basicUnder('pg', 'root'), basicUnder('sib', 'root')], event: 'PodGroup/1', obj: basicUnder('sib', 'root'), on: Q, off: S },
    { name: 'its own PodGroup added', composites: [basicCpg('root')], groups: [basicUnder('pg', 'root')], event: 'PodGroup/1', obj: basicUnder('pg', 'root'), on: Q, off: Q },
    { name: 'its own PodGroup added, the root not observed yet', composites: [], groups: [basicUnder('pg', 'root')], event: 'PodGroup/1', obj: basicUnder('pg', 'root'), on: S, off: Q },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(hints(true, c.composites, c.groups).get(c.event)!(pod, null, c.obj), c.on, 'gate on');
      const off = hints(false, c.composites, c.groups).get(c.event);
      assert.equal(off === undefined ? 'unregistered' : off(pod, null, c.obj), c.off, 'gate off');
    });
  }
  it('registers CompositePodGroup/Add only, and only with the gate (no Update, no Delete)', () => {
    assert.deepEqual([...hints(true, [], []).keys()].filter((e) => e.startsWith('CompositePodGroup')), ['CompositePodGroup/1']);
    assert.deepEqual([...hints(false, [], []).keys()].filter((e) => e.startsWith('CompositePodGroup')), []);
  });
});
