// The queue's index of pending pods by what events can concern them: on seeded random sequences of
// pods, attempts, claim and node events, pod updates, flushes and deletions, a queue with the index
// moves the same pods at the same moments, with the same incoming-pods metric, as one without it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceClaim } from '../api/dra_types.js';
import type { Pod } from '../api/types.js';
import { ActionType, ActionTypeUpdate, type ClusterEvent, type ClusterEventWithHint, type EventPodIndex, QueueingHint } from '../framework/events.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';
import { Status } from '../framework/status.js';
import { claimEventPodIndex, isSchedulableAfterClaimChange } from '../plugins/dynamicresources/hints.js';
import { makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { SchedulingQueue, type QueueProfile } from './scheduling_queue.js';
import { UnschedulablePods } from './unschedulable_pods.js';

const namespaces = ['ns-a', 'ns-b'];
const claimNames = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'];
const nodeNames = ['n0', 'n1', 'n2'];

/** A toy indexed plugin: a pod labelled want=<node> waits for that node. */
const nodeWantIndex: EventPodIndex = {
  podKeys: (pod) => (pod.metadata.labels?.want !== undefined ? [pod.metadata.labels.want] : []),
  eventKeys: (_o, n) => ((n as { metadata?: { name?: string } } | null)?.metadata?.name !== undefined ? [(n as { metadata: { name: string } }).metadata.name] : null),
};

/** Counts the hint calls each registration gets, to show the index narrows. */
interface World {
  claims: Map<string, ResourceClaim>;
  hintCalls: { n: number };
}

function registrations(world: World, indexed: boolean): Map<string, ClusterEventWithHint[]> {
  const get = (ns: string, name: string) => world.claims.get(`${ns}/${name}`);
  const counted = (fn: (pod: Pod, o: unknown, n: unknown) => QueueingHint) => (pod: Pod, o: unknown, n: unknown) => {
    world.hintCalls.n++;
    return fn(pod, o, n);
  };
  const claimReg: ClusterEventWithHint = {
    event: { resource: 'ResourceClaim', actionType: ActionType.Add | ActionTypeUpdate | ActionType.Delete },
    queueingHintFn: counted((pod, o, n) => isSchedulableAfterClaimChange(get, pod, o, n)),
    ...(indexed ? { podIndex: claimEventPodIndex } : {}),
  };
  const wantReg: ClusterEventWithHint = {
    event: { resource: 'Node', actionType: ActionType.Add },
    queueingHintFn: counted((pod, _o, n) => (pod.metadata.labels?.want === (n as { metadata: { name: string } }).metadata.name ? QueueingHint.Queue : QueueingHint.QueueSkip)),
    ...(indexed ? { podIndex: nodeWantIndex } : {}),
  };
  return new Map<string, ClusterEventWithHint[]>([
    ['DynamicResources', [{ event: { resource: 'Node', actionType: ActionType.UpdateNodeLabel } }, claimReg]],
    ['NodeWant', [wantReg]],
    // Claim events without an index: pods it rejected are always asked.
    ['ClaimNoIndex', [{ event: { resource: 'ResourceClaim', actionType: ActionType.Delete } }]],
    ['Fit', [{ event: { resource: 'Node', actionType: ActionType.Add } }]],
    ['Gate', [{ event: { resource: 'Pod', actionType: ActionType.UpdatePodSchedulingGatesEliminated } }]],
  ]);
}

const rejectors = ['DynamicResources', 'NodeWant', 'ClaimNoIndex', 'Fit'];

interface Side {
  q: SchedulingQueue;
  log: string[];
}

function side(world: World, clock: FakeClock, indexed: boolean): Side {
  const log: string[] = [];
  const profile: QueueProfile = {
    less: (a, b) => a.podInfo.priority > b.podInfo.priority || (a.podInfo.priority === b.podInfo.priority && a.timestamp < b.timestamp),
    preEnqueue: (pod) => ((pod.spec.schedulingGates?.length ?? 0) > 0 ? Status.unresolvable('gated').withPlugin('Gate') : null),
    events: registrations(world, indexed),
  };
  const q = new SchedulingQueue(new Map([['default-scheduler', profile]]), {
    clock,
    podMaxInUnschedulablePodsDurationMs: 20_000,
    onIncoming: (queue, event) => log.push(`${queue}:${event}`),
  });
  return { q, log };
}

function claimObject(ns: string, name: string, allocated: boolean, finalizer: boolean): ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace: ns, uid: `uid-${ns}-${name}`, ...(finalizer ? { finalizers: ['x/y'] } : {}) },
    spec: { devices: { requests: [] } },
    ...(allocated ? { status: { allocation: { devices: { results: [] } } } } : {}),
  };
}

/** Runs one seeded sequence on both queues and compares them after every step. */
function runSequence(seed: number, steps: number): { indexedCalls: number; plainCalls: number } {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const clock = new FakeClock(0);
  const indexedWorld: World = { claims: new Map(), hintCalls: { n: 0 } };
  const plainWorld: World = { claims: indexedWorld.claims, hintCalls: { n: 0 } };
  const a = side(indexedWorld, clock, true);
  const b = side(plainWorld, clock, false);
  const pods = new Map<string, Pod>();
  const inFlight: [QueuedPodInfo, QueuedPodInfo][] = [];
  let seq = 0;
  const both = (f: (s: Side) => void) => {
    f(a);
    f(b);
  };
  const claimEvent = (e: ClusterEvent, o: ResourceClaim | null, n: ResourceClaim | null) => both((s) => s.q.moveAllToActiveOrBackoffQueue(e, o, n));
  for (let step = 0; step < steps; step++) {
    const r = random();
    if (r < 0.18) {
      const name = `p${++seq}`;
      const ns = pick(namespaces);
      const entries = [];
      const statuses = [];
      if (random() < 0.5) entries.push({ name: 'direct', resourceClaimName: pick(claimNames) });
      if (random() < 0.5) {
        entries.push({ name: 'tmpl', resourceClaimTemplateName: 't' });
        if (random() < 0.5) statuses.push({ name: 'tmpl', resourceClaimName: pick(claimNames) });
      }
      const pod = makePod(name, {
        namespace: ns,
        priority: Math.floor(random() * 3),
        labels: random() < 0.5 ? { want: pick(nodeNames) } : {},
        spec: { resourceClaims: entries, ...(random() < 0.1 ? { schedulingGates: [{ name: 'g' }] } : {}) },
      });
      pod.status = { resourceClaimStatuses: statuses };
      pods.set(pod.metadata.uid!, pod);
      both((s) => s.q.add(pod));
    } else if (r < 0.36) {
      const pa = a.q.pop();
      const pb = b.q.pop();
      assert.equal(pa?.podInfo.uid, pb?.podInfo.uid, `step ${step}: popped`);
      if (pa && pb) inFlight.push([pa, pb]);
    } else if (r < 0.5 && inFlight.length > 0) {
      const [pa, pb] = inFlight.splice(Math.floor(random() * inFlight.length), 1)[0]!;
      const unsched = rejectors.filter(() => random() < 0.4);
      const pending = random() < 0.15 ? [pick(rejectors)] : [];
      for (const [qp, q] of [[pa, a.q], [pb, b.q]] as const) {
        qp.unschedulablePlugins = new Set(unsched);
        qp.pendingPlugins = new Set(pending);
        q.addUnschedulableIfNotPresent(qp);
      }
    } else if (r < 0.72) {
      const ns = pick(namespaces);
      const name = pick(claimNames);
      const key = `${ns}/${name}`;
      const old = indexedWorld.claims.get(key) ?? null;
      const next = random() < 0.25 ? null : claimObject(ns, name, random() < 0.4, random() < 0.3);
      if (next === null) indexedWorld.claims.delete(key);
      else indexedWorld.claims.set(key, next);
      if (old === null && next === null) continue;
      const action = old === null ? ActionType.Add : next === null ? ActionType.Delete : ActionTypeUpdate;
      const label = old === null ? 'ResourceClaimAdd' : next === null ? 'ResourceClaimDelete' : 'ResourceClaimUpdate';
      claimEvent({ resource: 'ResourceClaim', actionType: action, label }, old, next);
    } else if (r < 0.78) {
      const node = { kind: 'Node', metadata: { name: pick(nodeNames) } };
      both((s) => s.q.moveAllToActiveOrBackoffQueue({ resource: 'Node', actionType: ActionType.Add, label: 'NodeAdd' }, null, node));
    } else if (r < 0.86 && pods.size > 0) {
      // The resourceclaim controller records a generated claim, or the gate is lifted.
      const old = pick([...pods.values()]);
      const next: Pod = { ...old, spec: { ...old.spec, schedulingGates: [] }, status: { resourceClaimStatuses: [{ name: 'tmpl', resourceClaimName: pick(claimNames) }] } };
      pods.set(old.metadata.uid!, next);
      both((s) => s.q.update(old, next));
    } else if (r < 0.9 && pods.size > 0) {
      const pod = pick([...pods.values()]);
      pods.delete(pod.metadata.uid!);
      both((s) => s.q.delete(pod));
    } else if (r < 0.94 && pods.size > 0) {
      const pod = pick([...pods.values()]);
      both((s) => s.q.activate([pod]));
    } else {
      clock.advance(Math.floor(random() * 8_000));
      both((s) => {
        s.q.flushBackoffQCompleted();
        s.q.flushUnschedulablePodsLeftover();
      });
    }
    assert.deepEqual(a.log, b.log, `seed ${seed} step ${step}: incoming pods`);
    for (const uid of pods.keys()) assert.equal(a.q.whereIs(uid), b.q.whereIs(uid), `seed ${seed} step ${step}: where is ${uid}`);
    assert.deepEqual(a.q.pendingCounts(), b.q.pendingCounts());
  }
  // What is left pops in the same order.
  for (;;) {
    const pa = a.q.pop();
    const pb = b.q.pop();
    assert.equal(pa?.podInfo.uid, pb?.podInfo.uid);
    if (!pa) break;
  }
  return { indexedCalls: indexedWorld.hintCalls.n, plainCalls: plainWorld.hintCalls.n };
}

describe('UnschedulablePods index: same decisions as asking every pod', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: 600 random steps`, () => {
      const { indexedCalls, plainCalls } = runSequence(seed, 600);
      // The index must actually spare hint calls, or the comparison proves nothing.
      assert.ok(indexedCalls < plainCalls, `hint calls indexed ${indexedCalls} vs plain ${plainCalls}`);
    });
  }
});

describe('UnschedulablePods', () => {
  const regs = new Map<string, ClusterEventWithHint[]>([
    ['DynamicResources', [{ event: { resource: 'ResourceClaim', actionType: ActionType.Add | ActionTypeUpdate }, queueingHintFn: () => QueueingHint.Queue, podIndex: claimEventPodIndex }]],
    ['Other', [{ event: { resource: 'Node', actionType: ActionType.Add } }]],
  ]);
  const entry = (name: string, claim: string, plugins: string[]): QueuedPodInfo => {
    const pod = makePod(name, { spec: { resourceClaims: [{ name: 'r', resourceClaimName: claim }] } });
    return { podInfo: { pod, uid: pod.metadata.uid! } as QueuedPodInfo['podInfo'], timestamp: 0, attempts: 1, initialAttemptTimestamp: 0, unschedulablePlugins: new Set(plugins), pendingPlugins: new Set(), gatingPlugin: null };
  };
  const claimAdd: ClusterEvent = { resource: 'ResourceClaim', actionType: ActionType.Add };
  const claim = (name: string) => claimObject('default', name, false, false);

  it('answers the pods naming the claim, in insertion order, and null for unindexed resources', () => {
    const u = new UnschedulablePods([regs], () => regs);
    u.set('x', entry('x', 'c1', ['DynamicResources']));
    u.set('y', entry('y', 'c2', ['DynamicResources']));
    u.set('z', entry('z', 'c1', ['DynamicResources']));
    u.set('w', entry('w', 'c1', ['Other']));
    assert.deepEqual(u.candidates(claimAdd, null, claim('c1'))?.map((q) => q.podInfo.pod.metadata.name), ['x', 'z']);
    assert.deepEqual(u.candidates(claimAdd, null, claim('c9')), []);
    assert.equal(u.candidates({ resource: 'Node', actionType: ActionType.Add }, null, {}), null);
    // A replaced entry keeps its place; a deleted one leaves the index.
    u.set('x', entry('x', 'c1', ['DynamicResources']));
    u.delete('z');
    assert.deepEqual(u.candidates(claimAdd, null, claim('c1'))?.map((q) => q.podInfo.pod.metadata.name), ['x']);
    assert.deepEqual([...u.values()].map((q) => q.podInfo.pod.metadata.name), ['x', 'y', 'w']);
  });

  it('a deallocation concerns every pod: no narrowing', () => {
    const u = new UnschedulablePods([regs], () => regs);
    u.set('x', entry('x', 'c1', ['DynamicResources']));
    const deallocated: ClusterEvent = { resource: 'ResourceClaim', actionType: ActionType.UpdatePodOther };
    assert.equal(u.candidates({ ...deallocated, actionType: ActionTypeUpdate }, claimObject('default', 'c7', true, false), claim('c7')), null);
  });

  it('a pod without rejecting plugins, or rejected by an unindexed registration of the resource, is always a candidate', () => {
    const withUnindexed = new Map(regs);
    withUnindexed.set('Plain', [{ event: { resource: 'ResourceClaim', actionType: ActionType.Add } }]);
    const u = new UnschedulablePods([withUnindexed], () => withUnindexed);
    u.set('none', entry('none', 'c1', []));
    u.set('plain', entry('plain', 'c1', ['Plain', 'DynamicResources']));
    u.set('dra', entry('dra', 'c1', ['DynamicResources']));
    assert.deepEqual(u.candidates(claimAdd, null, claim('c2'))?.map((q) => q.podInfo.pod.metadata.name), ['none', 'plain']);
  });

  it('scans every pod but those waiting for their own update, in the entries\' order, as they change', () => {
    const gated = (qp: QueuedPodInfo) => qp.gatingPlugin === 'SchedulingGates';
    const u = new UnschedulablePods([regs], () => regs, gated);
    const names = () => [...u.scannable()].map((q) => q.podInfo.pod.metadata.name);
    const all = () => [...u.values()].filter((q) => !gated(q)).map((q) => q.podInfo.pod.metadata.name);
    const a = entry('a', 'c1', ['Other']);
    const b: QueuedPodInfo = { ...entry('b', 'c1', ['Other']), gatingPlugin: 'SchedulingGates' };
    const c = entry('c', 'c1', ['Other']);
    const d: QueuedPodInfo = { ...entry('d', 'c1', ['Other']), gatingPlugin: 'OtherGate' };
    for (const [k, qp] of [['a', a], ['b', b], ['c', c], ['d', d]] as const) u.set(k, qp);
    assert.deepEqual(names(), ['a', 'c', 'd']);
    // The gated pod stops waiting (its gate changed in place, then refreshed): back in its own place.
    b.gatingPlugin = null;
    u.refresh('b');
    assert.deepEqual(names(), ['a', 'b', 'c', 'd']);
    // One starts waiting: out of the scan; replaced by a new object: the scan reads the new one.
    c.gatingPlugin = 'SchedulingGates';
    u.refresh('c');
    const a2 = entry('a', 'c2', ['Other']);
    u.set('a', a2);
    assert.deepEqual(names(), ['a', 'b', 'd']);
    assert.equal([...u.scannable()][0], a2);
    u.delete('b');
    u.set('e', entry('e', 'c1', []));
    assert.deepEqual(names(), ['a', 'd', 'e']);
    assert.deepEqual(names(), all());
  });
});
