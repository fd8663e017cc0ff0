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
import { GangScheduling } from './gang_scheduling.js';

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
  const cpg = (name: string, minGroupCount: number | null, parent?: string): CompositePodGroup => ({
    kind: 'CompositePodGroup', metadata: { name, namespace: 'default' },
    spec: { workloadRef: { workloadName: 'w', templateName: 't' }, schedulingPolicy: minGroupCount === null ? { basic: {} } : { gang: { minGroupCount } }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
  });
  const under = (g: PodGroup, parent: string): PodGroup => ({ ...g, spec: { ...g.spec, parentCompositePodGroupName: parent } });
  function tree(composites: CompositePodGroup[], groups: PodGroup[], pods: Pod[], assumed: string[] = []) {
    const states = new PodGroupStates((p) => assumed.includes(p.metadata.name ?? ''));
    states.compositePodGroupEnabled = true;
    for (const c of composites) states.setCompositePodGroup(c);
    for (const g of groups) states.setPodGroup(g);
    for (const p of pods) states.upsertPod(p);
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
