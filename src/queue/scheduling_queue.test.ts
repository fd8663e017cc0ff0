// Scenarios of upstream's backend/queue/scheduling_queue_test.go and backoff_queue_test.go, with
// SchedulerQueueingHints and SchedulerPopFromBackoffQ on (their defaults): activeQ order, backoff
// growth and windows, unschedulablePods, in-flight events, queueing hints, PreEnqueue gating, the
// periodic flushes, Activate, Update and Delete. Time is a FakeClock; nothing sleeps.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/types.js';
import { ActionType, ActionTypeUpdate, QueueingHint, type ClusterEvent, type ClusterEventWithHint } from '../framework/events.js';
import { unrolledWildCardEvents } from '../framework/runtime/default_enqueue_events.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';
import { Status } from '../framework/status.js';
import { makePod } from '../testing/builders.js';
import { FakeClock } from '../util/clock.js';
import { SchedulingQueue, type QueueProfile } from './scheduling_queue.js';

/** PrioritySort: higher priority first, then the pod queued earlier. */
const less = (a: QueuedPodInfo, b: QueuedPodInfo) =>
  a.podInfo.priority > b.podInfo.priority || (a.podInfo.priority === b.podInfo.priority && a.timestamp < b.timestamp);

const NodeAdd: ClusterEvent = { resource: 'Node', actionType: ActionType.Add, label: 'NodeAdd' };
const NodeLabelChange: ClusterEvent = { resource: 'Node', actionType: ActionType.UpdateNodeLabel, label: 'NodeLabelChange' };
const PVCAdd: ClusterEvent = { resource: 'PersistentVolumeClaim', actionType: ActionType.Add, label: 'PersistentVolumeClaimAdd' };

interface Setup {
  clock: FakeClock;
  q: SchedulingQueue;
  /** Hint results of plugin "Fit" for NodeAdd, by the new node's name (default Queue). */
  hints: Map<string, QueueingHint>;
}

/**
 * A queue whose profile has plugin "Fit" (NodeAdd with a hint), "Labels" (pod label updates with
 * a hint), "NoHint" (pod label updates, no hint), "AnyUpdate" (any pod update), "Gate"
 * (PreEnqueue rejecting gated pods).
 */
function setup(start = 0): Setup {
  const clock = new FakeClock(start);
  const hints = new Map<string, QueueingHint>();
  const events = new Map<string, ClusterEventWithHint[]>([
    ['Fit', [{ event: { resource: 'Node', actionType: ActionType.Add }, queueingHintFn: (_p, _o, n) => hints.get((n as { metadata: { name: string } } | null)?.metadata.name ?? '') ?? QueueingHint.Queue }]],
    ['Labels', [{
      event: { resource: 'Pod', actionType: ActionType.UpdatePodLabel },
      queueingHintFn: (_p, o, n) => (JSON.stringify((o as Pod).metadata.labels) !== JSON.stringify((n as Pod).metadata.labels) ? QueueingHint.Queue : QueueingHint.QueueSkip),
    }]],
    ['NoHint', [{ event: { resource: 'Pod', actionType: ActionType.UpdatePodLabel } }]],
    ['AnyUpdate', [{ event: { resource: 'Pod', actionType: ActionTypeUpdate } }]],
    ['Gate', [{
      event: { resource: 'Pod', actionType: ActionType.UpdatePodSchedulingGatesEliminated },
      queueingHintFn: (pod, _o, n) => ((n as Pod).metadata.uid === pod.metadata.uid ? QueueingHint.Queue : QueueingHint.QueueSkip),
    }]],
  ]);
  const profile: QueueProfile = {
    less,
    preEnqueue: (pod) => ((pod.spec.schedulingGates?.length ?? 0) > 0 ? Status.unresolvable('waiting for scheduling gates').withPlugin('Gate') : null),
    events,
  };
  const q = new SchedulingQueue(new Map([['default-scheduler', profile]]), { clock });
  return { clock, q, hints };
}

const podP = (name: string, priority = 0, extra: Parameters<typeof makePod>[1] = {}) => makePod(name, { priority, ...extra });
const node = (name: string) => ({ kind: 'Node', metadata: { name } });

/** Pops the next pod, which must be `name`. */
function popExpect(q: SchedulingQueue, name: string): QueuedPodInfo {
  const qp = q.pop();
  assert.equal(qp?.podInfo.name, name);
  return qp!;
}

/** Ends the pod's attempt as rejected by `plugins` (none: an error) and hands it back. */
function fail(q: SchedulingQueue, qp: QueuedPodInfo, plugins: string[] = [], pending: string[] = []): void {
  qp.unschedulablePlugins = new Set(plugins);
  qp.pendingPlugins = new Set(pending);
  q.addUnschedulableIfNotPresent(qp);
}

const popAll = (q: SchedulingQueue) => {
  const out: string[] = [];
  for (let qp = q.pop(); qp; qp = q.pop()) out.push(qp.podInfo.name);
  return out;
};

describe('SchedulingQueue: activeQ', () => {
  it('pops by the QueueSort order: priority, then the earlier pod', () => {
    const { clock, q } = setup();
    q.add(podP('low', 1));
    clock.advance(1);
    q.add(podP('high-late', 10));
    clock.advance(1);
    q.add(podP('mid', 5));
    q.add(podP('high-early', 10, { uid: 'x' }));
    // high-early was added after high-late: FIFO among equals uses the queue timestamp.
    assert.deepEqual(popAll(q), ['high-late', 'high-early', 'mid', 'low']);
  });

  it('counts attempts and scheduling cycles, and clears the last attempt\'s plugins', () => {
    const { q } = setup();
    q.add(podP('p'));
    const qp = popExpect(q, 'p');
    assert.equal(qp.attempts, 1);
    assert.equal(q.schedulingCycle, 1);
    assert.equal(q.inFlightCount, 1);
    qp.unschedulablePlugins = new Set(['Fit']);
    q.activate([qp.podInfo.pod]);
    q.done(qp.podInfo.uid);
    assert.equal(q.pop(), undefined);
    assert.equal(q.inFlightCount, 0);
  });

  it('keeps one entry per pod', () => {
    const { q } = setup();
    const p = podP('p');
    q.add(p);
    q.add(p);
    assert.equal(q.activeLength, 1);
    const qp = popExpect(q, 'p');
    // A pod that is back in activeQ already is not added again.
    q.add(p);
    fail(q, qp, ['Fit']);
    assert.equal(q.pendingCounts().active, 1);
    assert.equal(q.inFlightCount, 0);
  });
});

describe('SchedulingQueue: backoff', () => {
  it('doubles from the initial backoff up to the maximum, measured in whole-second windows', () => {
    const { clock, q } = setup(10_000);
    q.add(podP('p'));
    const want = [1000, 2000, 4000, 8000, 10_000, 10_000];
    for (const d of want) {
      const qp = q.pop()!;
      fail(q, qp); // an error: the error backoffQ, which is never popped early
      assert.equal(q.whereIs(qp.podInfo.uid), 'errorBackoff');
      const failedAt = clock.now();
      assert.equal(q.nextBackoffExpiry(), failedAt + d + 1000);
      clock.runUntil(failedAt + d + 999);
      q.flushBackoffQCompleted();
      assert.equal(q.whereIs(qp.podInfo.uid), 'errorBackoff', `attempt ${qp.attempts}: still backing off`);
      clock.runUntil(failedAt + d + 1000);
      q.flushBackoffQCompleted();
      assert.equal(q.whereIs(qp.podInfo.uid), 'active', `attempt ${qp.attempts}: flushed after ${d}ms`);
    }
  });

  it('a backoff ending inside the current window still counts as backing off (upstream TestBackoffQueueOrdering)', () => {
    // Pods fail (with an event in flight, so they go to backoffQ) at staggered times; the flush at
    // 10s moves those whose 1s backoff ended in an earlier window, the rest wait.
    const { clock, q } = setup(7000);
    const failAt = (t: number, name: string, priority: number) => {
      clock.runUntil(t);
      q.add(podP(name, priority));
      const qp = popExpect(q, name);
      q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n'));
      fail(q, qp, ['Fit']);
      assert.equal(q.whereIs(qp.podInfo.uid), 'backoff');
    };
    failAt(7000, 'pod5', 1);
    failAt(8000, 'pod3', 1);
    failAt(8000, 'pod4', 2);
    failAt(8001, 'pod2', 2);
    failAt(9000, 'pod1', 1);
    clock.runUntil(10_000);
    q.add(podP('pod0', 1));
    const pod0 = popExpect(q, 'pod0');
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n'));
    fail(q, pod0, ['Fit']);
    q.flushBackoffQCompleted();
    assert.deepEqual(q.pendingCounts(), { active: 4, backoff: 2, unschedulable: 0, gated: 0 });
    // Within a window backoffQ orders as activeQ does; it is popped (regardless of backoff) when
    // activeQ is empty.
    assert.deepEqual(popAll(q), ['pod4', 'pod2', 'pod5', 'pod3', 'pod1', 'pod0']);
  });

  it('pops backoffQ in window-then-priority order when activeQ is empty, but never the error backoffQ', () => {
    const { clock, q } = setup(5000);
    const failWithEvent = (name: string, priority: number) => {
      q.add(podP(name, priority));
      const qp = popExpect(q, name);
      q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n'));
      fail(q, qp, ['Fit']);
    };
    failWithEvent('early-low', 1);
    clock.advance(1000);
    failWithEvent('late-low', 1);
    failWithEvent('late-high', 9);
    q.add(podP('err'));
    fail(q, popExpect(q, 'err'));
    assert.deepEqual(popAll(q), ['early-low', 'late-high', 'late-low']);
    assert.equal(q.whereIs('default/err'), 'errorBackoff');
  });

  it('a pod never attempted has no backoff', () => {
    const { q } = setup(1234);
    const gated = podP('g', 0, { spec: { schedulingGates: [{ name: 'wait' }] } });
    q.add(gated);
    assert.equal(q.whereIs('default/g'), 'gated');
    q.update(gated, podP('g'));
    assert.equal(q.whereIs('default/g'), 'active');
  });
});

describe('SchedulingQueue: unschedulablePods and queueing hints', () => {
  it('a rejected pod with no event during its attempt waits in unschedulablePods', () => {
    const { q } = setup();
    q.add(podP('p'));
    fail(q, popExpect(q, 'p'), ['Fit']);
    assert.equal(q.whereIs('default/p'), 'unschedulable');
    assert.deepEqual(q.pendingCounts(), { active: 0, backoff: 0, unschedulable: 1, gated: 0 });
  });

  it('an event its rejecting plugin registered moves it: to backoffQ while backing off, else to activeQ', () => {
    const { clock, q } = setup();
    q.add(podP('p'));
    fail(q, popExpect(q, 'p'), ['Fit']);
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n1'));
    assert.equal(q.whereIs('default/p'), 'backoff');

    q.add(podP('r'));
    fail(q, popExpect(q, 'r'), ['Fit']);
    clock.advance(5000);
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n1'));
    assert.equal(q.whereIs('default/r'), 'active');
  });

  it('QueueSkip, an unregistered event or another plugin\'s event leave it where it is', () => {
    const { q, hints } = setup();
    q.add(podP('p'));
    fail(q, popExpect(q, 'p'), ['Fit']);
    hints.set('useless', QueueingHint.QueueSkip);
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('useless'));
    q.moveAllToActiveOrBackoffQueue(NodeLabelChange, null, node('n1'));
    q.moveAllToActiveOrBackoffQueue(PVCAdd, null, {});
    assert.equal(q.whereIs('default/p'), 'unschedulable');
  });

  it('a hint that throws counts as Queue, and is logged', () => {
    const clock = new FakeClock();
    const events = new Map<string, ClusterEventWithHint[]>([['Fit', [{ event: NodeAdd, queueingHintFn: () => { throw new Error('bug'); } }]]]);
    const logged: string[] = [];
    const q = new SchedulingQueue(new Map([['default-scheduler', { less, preEnqueue: () => null, events }]]), { clock, log: (_level, msg) => logged.push(msg) });
    q.add(podP('p'));
    fail(q, popExpect(q, 'p'), ['Fit']);
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n'));
    assert.equal(q.whereIs('default/p'), 'backoff');
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /^QueueingHintFn returns error: .*plugin Fit pod default\/p: bug$/);
  });

  it('Queue from a Pending plugin requeues at once, skipping backoff', () => {
    const { q } = setup();
    q.add(podP('p'));
    fail(q, popExpect(q, 'p'), [], ['Fit']);
    assert.equal(q.whereIs('default/p'), 'unschedulable');
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n'));
    assert.equal(q.whereIs('default/p'), 'active');
  });

  it('the preCheck filters which pods an event may move', () => {
    const { q } = setup();
    q.add(podP('a'));
    q.add(podP('b'));
    fail(q, popExpect(q, 'a'), ['Fit']);
    fail(q, popExpect(q, 'b'), ['Fit']);
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n'), (p) => p.metadata.name === 'b');
    assert.equal(q.whereIs('default/a'), 'unschedulable');
    assert.equal(q.whereIs('default/b'), 'backoff');
  });
});

describe('SchedulingQueue: in-flight events', () => {
  it('an event during the attempt that the rejecting plugin cares about sends the pod to backoffQ', () => {
    const { q } = setup();
    q.add(podP('p'));
    const qp = popExpect(q, 'p');
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n1'));
    fail(q, qp, ['Fit']);
    assert.equal(q.whereIs('default/p'), 'backoff');
  });

  it('events the hint skips, or that no rejecting plugin registered, do not', () => {
    const { q, hints } = setup();
    hints.set('useless', QueueingHint.QueueSkip);
    q.add(podP('p'));
    const qp = popExpect(q, 'p');
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('useless'));
    q.moveAllToActiveOrBackoffQueue(PVCAdd, null, {});
    fail(q, qp, ['Fit']);
    assert.equal(q.whereIs('default/p'), 'unschedulable');
  });

  it('events before the pod was popped do not count', () => {
    const { q } = setup();
    q.add(podP('other'));
    q.add(podP('p', -1));
    const other = popExpect(q, 'other');
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n1'));
    const qp = popExpect(q, 'p');
    q.done(other.podInfo.uid);
    fail(q, qp, ['Fit']);
    assert.equal(q.whereIs('default/p'), 'unschedulable');
  });

  it('a pod that failed with an error retries after backoff whatever happened', () => {
    const { q } = setup();
    q.add(podP('p'));
    fail(q, popExpect(q, 'p'));
    assert.equal(q.whereIs('default/p'), 'errorBackoff');
  });

  it('a rejected pod already done (binding-cycle failure) goes to backoffQ', () => {
    const { q } = setup();
    q.add(podP('p'));
    const qp = popExpect(q, 'p');
    q.done(qp.podInfo.uid);
    fail(q, qp, ['Fit']);
    assert.equal(q.whereIs('default/p'), 'backoff');
  });

  it('forgets the events once no pod is in flight', () => {
    const { q } = setup();
    q.add(podP('a'));
    const a = popExpect(q, 'a');
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n1'));
    q.done(a.podInfo.uid);
    q.add(podP('b'));
    const b = popExpect(q, 'b');
    fail(q, b, ['Fit']);
    assert.equal(q.whereIs('default/b'), 'unschedulable');
  });
});

describe('SchedulingQueue: PreEnqueue gating', () => {
  const gated = (name: string) => podP(name, 0, { spec: { schedulingGates: [{ name: 'example.com/wait' }] } });

  it('keeps a gated pod out of activeQ, counted apart', () => {
    const { q } = setup();
    q.add(gated('g'));
    assert.equal(q.whereIs('default/g'), 'gated');
    assert.deepEqual(q.pendingCounts(), { active: 0, backoff: 0, unschedulable: 0, gated: 1 });
    assert.equal(q.pendingPods()[0]!.gatingPlugin, 'Gate');
    assert.deepEqual([...q.pendingPods()[0]!.unschedulablePlugins], ['Gate']);
  });

  it('only events of the gating plugin move it, and the 5-minute flush leaves it', () => {
    const { clock, q } = setup();
    q.add(gated('g'));
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n1'));
    clock.advance(10 * 60 * 1000);
    q.flushUnschedulablePodsLeftover();
    assert.equal(q.whereIs('default/g'), 'gated');
  });

  it('removing the last gate lets it in; another update does not', () => {
    const { q } = setup();
    const g = gated('g');
    q.add(g);
    const relabeled = { ...g, metadata: { ...g.metadata, labels: { app: 'x' } } };
    q.update(g, relabeled);
    assert.equal(q.whereIs('default/g'), 'gated');
    q.update(relabeled, podP('g'));
    assert.equal(q.whereIs('default/g'), 'active');
  });
});

describe('SchedulingQueue: periodic flushes', () => {
  it('flushes backoffQ at whole seconds', () => {
    const { clock, q } = setup(1500);
    q.run();
    assert.equal(clock.nextTimerAt(), 2000);
    q.add(podP('p'));
    const qp = popExpect(q, 'p');
    fail(q, qp); // error backoffQ: 1s backoff, from 1500 → window 2000
    clock.runUntil(2999);
    assert.equal(q.whereIs('default/p'), 'errorBackoff');
    clock.runUntil(3000);
    assert.equal(q.whereIs('default/p'), 'active');
    q.close();
    assert.equal(clock.nextTimerAt(), undefined);
  });

  it('retries pods left in unschedulablePods for more than 5 minutes at the next 30s flush', () => {
    const { clock, q } = setup();
    q.run();
    q.add(podP('p'));
    fail(q, popExpect(q, 'p'), ['Fit']);
    clock.runUntil(300_000);
    assert.equal(q.whereIs('default/p'), 'unschedulable', 'exactly 5 minutes is not more than 5 minutes');
    clock.runUntil(329_999);
    assert.equal(q.whereIs('default/p'), 'unschedulable');
    clock.runUntil(330_000);
    assert.equal(q.whereIs('default/p'), 'active');
    q.close();
  });

  it('a leftover pod still backing off goes to backoffQ', () => {
    const clock = new FakeClock();
    const q = new SchedulingQueue(new Map([['default-scheduler', { less, preEnqueue: () => null, events: new Map() }]]),
      { clock, podMaxInUnschedulablePodsDurationMs: 1000, podInitialBackoffMs: 60_000, podMaxBackoffMs: 60_000 });
    q.add(podP('p'));
    fail(q, popExpect(q, 'p'), ['Fit']);
    clock.advance(2000);
    q.flushUnschedulablePodsLeftover();
    assert.equal(q.whereIs('default/p'), 'backoff');
  });
});

describe('SchedulingQueue: Activate', () => {
  it('moves pods from unschedulablePods and backoffQ to activeQ', () => {
    const { q } = setup();
    q.add(podP('u'));
    q.add(podP('b'));
    const u = popExpect(q, 'u');
    const b = popExpect(q, 'b');
    fail(q, u, ['Fit']);
    q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n'));
    fail(q, b, ['Fit']);
    assert.equal(q.whereIs(u.podInfo.uid), 'backoff');
    q.add(podP('c'));
    fail(q, popExpect(q, 'c'), ['Fit']);
    assert.equal(q.whereIs('default/c'), 'unschedulable');
    q.activate([u.podInfo.pod, podP('c'), podP('unknown')]);
    assert.equal(q.whereIs(u.podInfo.uid), 'active');
    assert.equal(q.whereIs('default/c'), 'active');
    assert.equal(q.whereIs('default/unknown'), undefined);
  });

  it('a pod in flight is requeued after backoff when its attempt ends, and only that pod', () => {
    const { q } = setup();
    q.add(podP('a'));
    q.add(podP('b'));
    const a = popExpect(q, 'a');
    const b = popExpect(q, 'b');
    q.activate([a.podInfo.pod]);
    fail(q, a, ['Fit']);
    fail(q, b, ['Fit']);
    assert.equal(q.whereIs(a.podInfo.uid), 'backoff');
    assert.equal(q.whereIs(b.podInfo.uid), 'unschedulable');
  });
});

describe('SchedulingQueue: Update and Delete', () => {
  const labeled = (p: Pod, labels: Record<string, string>): Pod => ({ ...p, metadata: { ...p.metadata, labels } });

  it('updates a pod in activeQ in place', () => {
    const { q } = setup();
    const p = podP('p', 1);
    q.add(p);
    q.add(podP('q', 5));
    q.update(p, { ...p, spec: { ...p.spec, priority: 10 } });
    assert.equal(q.activeLength, 2);
    assert.deepEqual(popAll(q), ['p', 'q']);
  });

  it("keeps a queued pod's derived data across an update that leaves its sources alone, and computes it afresh otherwise", () => {
    const { q } = setup();
    const p = podP('p', 0, { requests: { cpu: '1' } });
    q.add(p);
    const before = q.pendingPods()[0]!.podInfo;
    q.update(p, { ...p, status: { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'p-gpu-abcde' }] } });
    const kept = q.pendingPods()[0]!.podInfo;
    assert.notEqual(kept, before);
    assert.equal(kept.requests, before.requests, 'a status write keeps the computed requests');
    const resized = { ...kept.pod, spec: { ...kept.pod.spec, containers: [{ ...kept.pod.spec.containers[0]!, resources: { requests: { cpu: '2' } } }] } };
    q.update(kept.pod, resized);
    assert.equal(q.pendingPods()[0]!.podInfo.requests.resource.milliCPU, 2000, 'changed containers are read again');
  });

  it('requeues an unschedulable pod when a rejecting plugin registered the change', () => {
    const { q } = setup();
    const p = podP('p');
    q.add(p);
    fail(q, popExpect(q, 'p'), ['Labels']);
    q.update(p, { ...p, status: { phase: 'Pending' } });
    assert.equal(q.whereIs('default/p'), 'unschedulable', 'a status update is not a label change');
    q.update(p, labeled(p, { app: 'new' }));
    assert.equal(q.whereIs('default/p'), 'backoff');
    assert.deepEqual(q.pendingPods()[0]!.podInfo.pod.metadata.labels, { app: 'new' });
  });

  it('an update with no specific change only reaches plugins registered for the general pod Update', () => {
    const { q } = setup();
    const p = podP('p');
    q.add(p);
    fail(q, popExpect(q, 'p'), ['NoHint']);
    q.update(p, { ...p, status: { phase: 'Pending' } });
    assert.equal(q.whereIs('default/p'), 'unschedulable', 'NoHint registered UpdatePodLabel only');
    const r = podP('r');
    q.add(r);
    fail(q, popExpect(q, 'r'), ['AnyUpdate']);
    q.update(r, { ...r, status: { phase: 'Pending' } });
    assert.equal(q.whereIs('default/r'), 'backoff');
  });

  it('records an update of a pod in flight for when its attempt ends', () => {
    const { q } = setup();
    const p = podP('p');
    q.add(p);
    const qp = popExpect(q, 'p');
    q.update(p, labeled(p, { app: 'new' }));
    assert.equal(q.activeLength, 0, 'not added again while in flight');
    fail(q, qp, ['Labels']);
    assert.equal(q.whereIs('default/p'), 'backoff');
  });

  it('adds a pod it did not hold', () => {
    const { q } = setup();
    const p = podP('p');
    q.update(p, labeled(p, { a: 'b' }));
    assert.equal(q.whereIs('default/p'), 'active');
  });

  it('delete removes the pod from every sub-queue and its nomination', () => {
    const { q } = setup();
    const a = podP('a', 0, { spec: {} });
    q.add(a);
    q.addNominatedPod(q.pendingPods()[0]!.podInfo, { mode: 'Override', nominatedNodeName: 'n1' });
    assert.equal(q.nominator.nominatedPodsForNode('n1').length, 1);
    q.delete(a);
    assert.equal(q.has('default/a'), false);
    assert.equal(q.nominator.nominatedPodsForNode('n1').length, 0);
    q.add(podP('b'));
    fail(q, popExpect(q, 'b'), ['Fit']);
    q.delete(podP('b'));
    assert.equal(q.has('default/b'), false);
  });

  it('an added pod carrying a nominatedNodeName is nominated', () => {
    const { q } = setup();
    q.add(podP('n', 0, { spec: {} }));
    const withNNN: Pod = { ...podP('m'), status: { nominatedNodeName: 'node-7' } };
    q.add(withNNN);
    assert.deepEqual(q.nominator.nominatedPodsForNode('node-7').map((p) => p.name), ['m']);
  });
});

describe('SchedulingQueue: what requeued a pod (explain\'s attempts)', () => {
  const cases: { name: string; run: (s: Setup) => QueuedPodInfo; want: { event: string; plugin: string } | undefined }[] = [
    { name: 'a new pod has none', run: ({ q }) => (q.add(podP('p')), popExpect(q, 'p')), want: undefined },
    {
      name: 'an event moving it from unschedulablePods: the event and the plugin whose hint said Queue',
      run: ({ q }) => {
        q.add(podP('p'));
        fail(q, popExpect(q, 'p'), ['Fit']);
        q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n1'));
        return q.pendingPods()[0]!;
      },
      want: { event: 'NodeAdd', plugin: 'Fit' },
    },
    {
      name: 'an event during its attempt: that event, not the attempt failure',
      run: ({ q }) => {
        q.add(podP('p'));
        const qp = popExpect(q, 'p');
        q.moveAllToActiveOrBackoffQueue(NodeAdd, null, node('n1'));
        fail(q, qp, ['Fit']);
        return q.pendingPods()[0]!;
      },
      want: { event: 'NodeAdd', plugin: 'Fit' },
    },
    {
      name: 'an error: the attempt failure, no plugin',
      run: ({ q }) => (q.add(podP('p')), fail(q, popExpect(q, 'p')), q.pendingPods()[0]!),
      want: { event: 'ScheduleAttemptFailure', plugin: '' },
    },
    {
      name: 'the 5-minute flush: UnschedulableTimeout, no plugin',
      run: ({ clock, q }) => {
        q.add(podP('p'));
        fail(q, popExpect(q, 'p'), ['Fit']);
        clock.advance(5 * 60 * 1000 + 1);
        q.flushUnschedulablePodsLeftover();
        return q.pendingPods()[0]!;
      },
      want: { event: 'UnschedulableTimeout', plugin: '' },
    },
    {
      name: 'a pod update a plugin\'s hint let through',
      run: ({ q }) => {
        const p = podP('p', 0, { labels: { a: '1' } });
        q.add(p);
        fail(q, popExpect(q, 'p'), ['Labels']);
        q.update(p, podP('p', 0, { labels: { a: '2' } }));
        return q.pendingPods()[0]!;
      },
      want: { event: 'UnschedulablePodUpdatePodLabel', plugin: 'Labels' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const qp = c.run(setup());
      assert.deepEqual(qp.requeuedBy, c.want);
    });
  }
});

describe('SchedulingQueue: a rejecting plugin without EnqueueExtensions (defaultEnqueueExtension)', () => {
  // The plugin gets upstream's unrolled events: a CompositePodGroup, ResourceSlice or VolumeAttachment event never moves its pods.
  const cases: { event: ClusterEvent; moves: boolean }[] = [
    { event: { resource: 'Node', actionType: ActionType.Add, label: 'NodeAdd' }, moves: true },
    { event: { resource: 'PodGroup', actionType: ActionType.Add, label: 'PodGroupAdd' }, moves: true },
    { event: { resource: 'PodGroup', actionType: ActionType.Delete, label: 'PodGroupDelete' }, moves: true },
    { event: { resource: 'CompositePodGroup', actionType: ActionType.Add, label: 'CompositePodGroupAdd' }, moves: false },
    { event: { resource: 'CompositePodGroup', actionType: ActionTypeUpdate, label: 'CompositePodGroupUpdate' }, moves: false },
    { event: { resource: 'CompositePodGroup', actionType: ActionType.Delete, label: 'CompositePodGroupDelete' }, moves: false },
    { event: { resource: 'ResourceSlice', actionType: ActionType.Add, label: 'ResourceSliceAdd' }, moves: false },
    { event: { resource: 'VolumeAttachment', actionType: ActionType.Delete, label: 'VolumeAttachmentDelete' }, moves: false },
  ];
  for (const c of cases) {
    it(`${c.event.label} ${c.moves ? 'moves' : 'leaves'} the pod`, () => {
      const clock = new FakeClock(0);
      const profile: QueueProfile = { less, preEnqueue: () => null, events: new Map([['Plain', unrolledWildCardEvents(true)]]) };
      const q = new SchedulingQueue(new Map([['default-scheduler', profile]]), { clock });
      q.add(podP('p'));
      fail(q, popExpect(q, 'p'), ['Plain']);
      q.moveAllToActiveOrBackoffQueue(c.event, null, null);
      assert.equal(q.whereIs(podP('p').metadata.uid ?? ''), c.moves ? 'backoff' : 'unschedulable');
    });
  }
});
