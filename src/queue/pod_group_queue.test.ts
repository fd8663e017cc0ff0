// The queue's pod-group entities (GenericWorkload; upstream's scheduling_queue_test.go pod group
// cases): members held until their PodGroup is observed, one entity popped with all its queued
// members, a gang gated as a whole until its quorum, members that arrive while the group is in
// flight, and the group put back with the members that came back.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CompositePodGroup, PodGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import { ActionType, QueueingHint } from '../framework/events.js';
import { Status } from '../framework/status.js';
import { makePod } from '../testing/builders.js';
import { FakeClock } from '../util/clock.js';
import { SchedulingQueue } from './scheduling_queue.js';

const gang = (name: string, minCount: number): PodGroup =>
  ({ kind: 'PodGroup', metadata: { name, namespace: 'default' }, spec: { schedulingPolicy: { gang: { minCount } } } });
const member = (name: string, group: string, priority = 0): Pod =>
  makePod(name, { uid: name, priority, spec: { schedulingGroup: { podGroupName: group } } });

/** A queue whose PreEnqueue holds a gang below minCount members, counting the members added so far. */
function setup() {
  const clock = new FakeClock(0);
  const groups = new Map<string, PodGroup>();
  const counts = new Map<string, number>();
  const q = new SchedulingQueue(new Map([['default-scheduler', {
    less: (a, b) => a.timestamp < b.timestamp,
    preEnqueue: (pod: Pod) => {
      const g = groups.get(pod.spec.schedulingGroup?.podGroupName ?? '');
      const min = g?.spec.schedulingPolicy.gang?.minCount ?? 0;
      return (counts.get(g?.metadata.name ?? '') ?? 0) < min ? Status.unresolvable('waiting for minCount pods from a gang to appear in scheduling queue').withPlugin('GangScheduling') : null;
    },
    events: new Map([['GangScheduling', [{ event: { resource: 'UnscheduledPod' as const, actionType: ActionType.Add }, queueingHintFn: () => QueueingHint.Queue }]]]),
  }]]), { clock, podGroups: { compositePodGroupEnabled: false } });
  const add = (pod: Pod) => {
    const g = pod.spec.schedulingGroup!.podGroupName!;
    counts.set(g, (counts.get(g) ?? 0) + 1);
    q.add(pod);
    q.moveAllToActiveOrBackoffQueue({ resource: 'UnscheduledPod', actionType: ActionType.Add, label: 'UnscheduledPodAdd' }, null, pod);
  };
  const observe = (pg: PodGroup) => {
    groups.set(pg.metadata.name!, pg);
    q.addPodGroup(pg);
  };
  return { q, clock, add, observe };
}

const names = (qp: { group?: { members: { podInfo: { name: string } }[] } } | undefined) => qp?.group?.members.map((m) => m.podInfo.name);

describe('pod-group entities in the queue', () => {
  it('holds members until their PodGroup is observed, then queues them as one entity', () => {
    const { q, add, observe } = setup();
    add(member('a', 'g'));
    add(member('b', 'g'));
    assert.equal(q.pop(), undefined);
    assert.equal(q.whereIs('a'), 'gated');
    observe(gang('g', 2));
    const e = q.pop();
    assert.deepEqual(names(e), ['a', 'b']);
    assert.deepEqual([q.whereIs('a'), q.whereIs('b')], ['inFlight', 'inFlight']);
  });

  it('gates a gang as a whole until minCount members exist', () => {
    const { q, add, observe } = setup();
    observe(gang('g', 3));
    add(member('a', 'g'));
    add(member('b', 'g'));
    assert.equal(q.pop(), undefined);
    assert.deepEqual(q.pendingCounts(), { active: 0, backoff: 0, unschedulable: 0, gated: 2 });
    add(member('c', 'g'));
    assert.deepEqual(names(q.pop()), ['a', 'b', 'c']);
  });

  it('orders members by priority, then queue time', () => {
    const { q, clock, add, observe } = setup();
    observe(gang('g', 1));
    add(member('low', 'g', 1));
    clock.advance(10);
    add(member('high', 'g', 5));
    assert.deepEqual(names(q.pop()), ['high', 'low']);
  });

  it('keeps members arriving while the group is in flight, and requeues the group with those that came back', () => {
    const { q, add, observe } = setup();
    observe(gang('g', 1));
    add(member('a', 'g'));
    add(member('b', 'g'));
    const e = q.pop()!;
    add(member('late', 'g'));
    assert.equal(q.pop(), undefined);
    // a was bound; b failed and comes back through its group.
    q.done('a');
    q.addUnschedulableIfNotPresent(e.group!.members[1]!);
    q.addAttemptedPodGroupIfNeeded(e, false);
    // A group entity carries no rejecting plugin of its own: upstream's backoffQ files it with
    // the error backoffs, flushed when its backoff ends and never popped early.
    assert.equal(q.whereIs('b'), 'errorBackoff');
    assert.equal(q.whereIs('late'), 'errorBackoff');
    assert.equal(q.whereIs('a'), undefined);
  });

  it('drops a deleted member from its entity, and the entity with its last member', () => {
    const { q, add, observe } = setup();
    observe(gang('g', 1));
    const a = member('a', 'g');
    add(a);
    add(member('b', 'g'));
    q.delete(a);
    assert.equal(q.has('a'), false);
    assert.deepEqual(names(q.pop()), ['b']);
  });
});

describe('composite roots in the queue (CompositePodGroup on)', () => {
  const cpg = (name: string, parent?: string): CompositePodGroup => ({
    kind: 'CompositePodGroup', metadata: { name, namespace: 'default' },
    spec: { workloadRef: { workloadName: 'w', templateName: 't' }, schedulingPolicy: { basic: {} }, ...(parent ? { parentCompositePodGroupName: parent } : {}) },
  });
  const child = (name: string, parent: string): PodGroup =>
    ({ kind: 'PodGroup', metadata: { name, namespace: 'default' }, spec: { parentCompositePodGroupName: parent, schedulingPolicy: { basic: {} } } });
  const setupComposite = () => {
    const clock = new FakeClock(0);
    const q = new SchedulingQueue(new Map([['default-scheduler', {
      less: (a, b) => a.timestamp < b.timestamp, preEnqueue: () => null, events: new Map(),
    }]]), { clock, podGroups: { compositePodGroupEnabled: true } });
    return { q, clock };
  };

  it('holds members until the whole chain above their group is observed, then queues one entity for the root', () => {
    const { q } = setupComposite();
    q.addPodGroup(child('a', 'mid'));
    q.addPodGroup(child('b', 'top'));
    q.add(member('a0', 'a'));
    q.add(member('b0', 'b'));
    assert.equal(q.whereIs('a0'), 'gated');
    q.addCompositePodGroup(cpg('mid', 'top'));
    assert.equal(q.whereIs('a0'), 'gated', 'mid is not a root while top is unobserved');
    q.addCompositePodGroup(cpg('top'));
    const e = q.pop()!;
    assert.equal(e.group!.key, 'compositepodgroup:default/top');
    assert.deepEqual(names(e), ['a0', 'b0']);
    assert.deepEqual(e.group!.tree.children.map((c) => `${c.kind}/${c.name}`).sort(), ['CompositePodGroup/mid', 'PodGroup/b']);
    assert.equal(q.pop(), undefined);
  });

  it('holds again the members under a deleted composite, and keeps the rest of the root queued', () => {
    const { q } = setupComposite();
    q.addCompositePodGroup(cpg('top'));
    q.addCompositePodGroup(cpg('mid', 'top'));
    q.addPodGroup(child('a', 'mid'));
    q.addPodGroup(child('b', 'top'));
    q.add(member('a0', 'a'));
    q.add(member('b0', 'b'));
    q.deleteCompositePodGroup(cpg('mid', 'top'));
    assert.equal(q.whereIs('a0'), 'gated');
    const e = q.pop()!;
    assert.deepEqual(names(e), ['b0']);
    assert.deepEqual(e.group!.tree.children.map((c) => c.name), ['b']);
  });

  it('adds members arriving while the root is in flight back with it, and activates the root for any member', () => {
    const { q } = setupComposite();
    q.addCompositePodGroup(cpg('top'));
    q.addPodGroup(child('a', 'top'));
    q.addPodGroup(child('b', 'top'));
    q.add(member('a0', 'a'));
    const e = q.pop()!;
    q.add(member('b0', 'b'));
    assert.equal(q.pop(), undefined, 'b0 waits for its root');
    q.done('a0');
    q.addAttemptedPodGroupIfNeeded(e, true);
    const again = q.pop()!;
    assert.equal(again.group!.key, 'compositepodgroup:default/top');
    assert.deepEqual(names(again), ['b0']);
  });

  it('ignores composites with the gate off: a PodGroup is its own root', () => {
    const clock = new FakeClock(0);
    const q = new SchedulingQueue(new Map([['default-scheduler', { less: (a, b) => a.timestamp < b.timestamp, preEnqueue: () => null, events: new Map() }]]),
      { clock, podGroups: { compositePodGroupEnabled: false } });
    q.addCompositePodGroup(cpg('top'));
    q.addPodGroup(child('a', 'top'));
    q.add(member('a0', 'a'));
    assert.equal(q.pop()!.group!.key, 'podgroup:default/a');
  });
});

describe('a gated entity asks every member\'s hints (isEntityWorthRequeuing)', () => {
  // The gate lifts behind the queue's back; only the event's hint, asked about member `asked`,
  // can let the entity out. A first event, while still gated, makes every member run PreEnqueue
  // (a member joining a gated entity does not), so each has the gating plugin as its rejector.
  const cases = [
    { name: 'the hint queues the first member', asked: 'a', moves: true },
    { name: 'the hint queues a later member only', asked: 'b', moves: true },
    { name: 'the hint queues no member', asked: 'z', moves: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      let open = false;
      const q = new SchedulingQueue(new Map([['default-scheduler', {
        less: (x, y) => x.timestamp < y.timestamp,
        preEnqueue: () => (open ? null : Status.unresolvable('held').withPlugin('Gate')),
        events: new Map([['Gate', [{
          event: { resource: 'Node' as const, actionType: ActionType.Add },
          queueingHintFn: (pod: Pod, _o: unknown, n: unknown) => ((n as { metadata: { name: string } }).metadata.name === 'warm' || pod.metadata.name === c.asked ? QueueingHint.Queue : QueueingHint.QueueSkip),
        }]]]),
      }]]), { clock: new FakeClock(0), podGroups: { compositePodGroupEnabled: false } });
      const nodeAdd = (name: string) => q.moveAllToActiveOrBackoffQueue({ resource: 'Node', actionType: ActionType.Add, label: 'NodeAdd' }, null, { kind: 'Node', metadata: { name } });
      q.addPodGroup(gang('g', 2));
      q.add(member('a', 'g'));
      q.add(member('b', 'g'));
      nodeAdd('warm');
      assert.equal(q.whereIs('b'), 'gated');
      open = true;
      nodeAdd('n');
      assert.equal(q.whereIs('b'), c.moves ? 'active' : 'gated');
      if (c.moves) assert.equal(q.pop()?.requeuedBy?.plugin, 'Gate');
    });
  }
});
