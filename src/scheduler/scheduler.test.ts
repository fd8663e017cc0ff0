// End to end over the embedded cluster (schedule_one_test.go, scheduler_test.go): a Scheduler with
// a QueueSort, a label Filter, a Reserve that records calls and a Bind through the client, driven
// by scheduleOne() and waitForBindings() on a FakeClock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod, PodCondition } from '../api/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import type { CycleState } from '../framework/cycle_state.js';
import { ActionType, QueueingHint } from '../framework/events.js';
import type { AnyPlugin, Handle, QueuedPodInfo } from '../framework/interfaces.js';
import type { NodeInfo } from '../framework/node_info.js';
import { PodInfo } from '../framework/pod_info.js';
import { Registry, type PluginDefinition } from '../framework/registry.js';
import type { PluginsConfig } from '../framework/runtime/profile_plugins.js';
import { Status } from '../framework/status.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { FeatureGates } from '../config/feature_gates.js';
import { Scheduler, type AttemptRecord } from './scheduler.js';
import { truncateMessage } from './failure_handler.js';

const PoolReason = "node(s) didn't have pool=good";

interface Env {
  clock: FakeClock;
  cluster: MemoryCluster;
  sched: Scheduler;
  reserveCalls: string[];
  attempts: AttemptRecord[];
  permit: { decision: 'allow' | 'wait' | 'reject' };
  /** What the Slow PreBind plugin waits for (when enabled). */
  preBindHold: Promise<void>;
  releasePreBind: () => void;
}

async function newEnv(extra: PluginsConfig = {}, featureGates?: FeatureGates): Promise<Env> {
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock, clearingNominatedNodeNameAfterBinding: (featureGates ?? FeatureGates.defaults).enabled('ClearingNominatedNodeNameAfterBinding') });
  const reserveCalls: string[] = [];
  const permit: Env['permit'] = { decision: 'allow' };
  let releasePreBind!: () => void;
  const preBindHold = new Promise<void>((r) => (releasePreBind = r));
  const defs: PluginDefinition[] = [
    {
      name: 'Slow',
      factory: (): AnyPlugin => ({ name: 'Slow', preBind: async () => (await preBindHold, null) }),
    },
    {
      name: 'Sort',
      factory: () => ({ name: 'Sort', less: (a: QueuedPodInfo, b: QueuedPodInfo) => a.podInfo.priority > b.podInfo.priority || (a.podInfo.priority === b.podInfo.priority && a.timestamp < b.timestamp) }),
    },
    {
      name: 'Pool',
      factory: (): AnyPlugin => ({
        name: 'Pool',
        filter: (_s: CycleState, _p: PodInfo, ni: NodeInfo) => (ni.node?.metadata.labels?.pool === 'good' ? null : Status.unschedulable(PoolReason)),
        eventsToRegister: () => [{
          event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel },
          queueingHintFn: (_pod, _old, n) => ((n as { metadata?: { labels?: Record<string, string> } })?.metadata?.labels?.pool === 'good' ? QueueingHint.Queue : QueueingHint.QueueSkip),
        }],
      }),
    },
    {
      name: 'Recorder',
      factory: (): AnyPlugin => ({
        name: 'Recorder',
        reserve: (_s: CycleState, p: PodInfo, n: string) => (reserveCalls.push(`reserve ${p.name} ${n}`), null),
        unreserve: (_s: CycleState, p: PodInfo, n: string) => void reserveCalls.push(`unreserve ${p.name} ${n}`),
        permit: () => permit.decision === 'allow'
          ? { status: null, timeoutMs: 0 }
          : permit.decision === 'wait' ? { status: Status.wait(), timeoutMs: 5000 } : { status: Status.unschedulable('not now'), timeoutMs: 0 },
      }),
    },
    {
      name: 'Binder',
      factory: (_args: unknown, handle: Handle): AnyPlugin => ({
        name: 'Binder',
        bind: async (_s: CycleState, p: PodInfo, n: string) => {
          try {
            await handle.client().bind(p.pod, n);
            return null;
          } catch (err) {
            return Status.error(err as Error);
          }
        },
      }),
    },
  ];
  const attempts: AttemptRecord[] = [];
  const sched = Scheduler.fromConfig({
    profiles: [{
      schedulerName: 'default-scheduler',
      plugins: {
        queueSort: { enabled: [{ name: 'Sort' }] },
        filter: { enabled: [{ name: 'Pool' }] },
        reserve: { enabled: [{ name: 'Recorder' }] },
        permit: { enabled: [{ name: 'Recorder' }] },
        bind: { enabled: [{ name: 'Binder' }] },
        ...extra,
      },
    }],
  }, {
    registry: new Registry(defs),
    client: cluster,
    clock,
    random: seededRandom(1),
    onAttempt: (a) => attempts.push(a),
    featureGates,
  });
  await sched.start();
  return { clock, cluster, sched, reserveCalls, attempts, permit, preBindHold, releasePreBind };
}

const good = (name: string) => makeNode(name, { labels: { pool: 'good' } });
const bad = (name: string) => makeNode(name, { labels: { pool: 'bad' } });
const newPod = (name: string, o: Parameters<typeof makePod>[1] = {}) => {
  const p = makePod(name, { requests: { cpu: '500m' }, ...o });
  delete (p.metadata as { uid?: string }).uid;
  return p;
};
const podIn = (env: Env, name: string) => env.cluster.getPod('default', name)!;
const condition = (p: Pod): PodCondition | undefined => p.status?.conditions?.find((c) => c.type === 'PodScheduled');
const eventsFor = (env: Env, name: string) => env.cluster.recordedEvents.filter((e) => e.regarding.name === name).map((e) => `${e.type} ${e.reason}: ${e.note}`);

describe('Scheduler end to end', () => {
  it('binds a pod to the node that passes the filter and records the Scheduled event', async () => {
    const env = await newEnv();
    env.cluster.create(bad('n1'));
    env.cluster.create(good('n2'));
    env.cluster.create(newPod('web'));
    assert.equal(env.sched.scheduleOne(), true);
    await env.sched.waitForBindings();
    assert.deepEqual(env.cluster.bindings.map((b) => `${b.pod}->${b.node}`), ['default/web->n2']);
    const p = podIn(env, 'web');
    assert.equal(p.spec.nodeName, 'n2');
    assert.equal(condition(p)?.status, 'True');
    assert.deepEqual(eventsFor(env, 'web'), ['Normal Scheduled: Successfully assigned default/web to n2']);
    assert.deepEqual(env.reserveCalls, ['reserve web n2']);
    assert.equal(env.sched.cache.isAssumedPod(p), false, 'the binding event confirmed the assumed pod');
    assert.equal(env.sched.cache.nodeInfo('n2')!.requested.milliCPU, 500);
    assert.equal(env.sched.queue.has(p.metadata.uid!), false);
    assert.equal(env.sched.scheduleOne(), false);
    env.sched.stop();
  });

  it('an unschedulable pod gets PodScheduled=False with the FitError, a FailedScheduling event, and waits', async () => {
    const env = await newEnv();
    env.cluster.create(bad('n1'));
    env.cluster.create(bad('n2'));
    env.cluster.create(newPod('web'));
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    const msg = `0/2 nodes are available: 2 ${PoolReason}.`;
    const p = podIn(env, 'web');
    assert.equal(p.spec.nodeName, undefined);
    assert.deepEqual({ ...condition(p), lastTransitionTime: undefined }, { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: msg, lastTransitionTime: undefined });
    assert.deepEqual(eventsFor(env, 'web'), [`Warning FailedScheduling: ${msg}`]);
    assert.equal(env.sched.queue.whereIs(p.metadata.uid!), 'unschedulable');
    assert.deepEqual(env.attempts.map((a) => a.outcome), ['Unschedulable']);
    assert.equal(env.sched.scheduleOne(), false);

    // A pod with a generation (every pod an API server stores has one) has it in the condition.
    const generated = newPod('gen');
    env.cluster.create({ ...generated, metadata: { ...generated.metadata, generation: 3 } });
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.equal(condition(podIn(env, 'gen'))?.observedGeneration, 3);
    assert.equal(condition(p)?.observedGeneration, undefined, 'none without a generation');
    env.cluster.remove('Pod', 'default', 'gen');

    // A node the filter's hint dismisses leaves it there; a good node brings it back.
    env.cluster.create(bad('n3'));
    assert.equal(env.sched.queue.whereIs(p.metadata.uid!), 'unschedulable');
    env.cluster.create(good('n4'));
    assert.equal(env.sched.queue.whereIs(p.metadata.uid!), 'backoff');
    // activeQ is empty, so the pod is popped from backoffQ right away.
    assert.equal(env.sched.scheduleOne(), true);
    await env.sched.waitForBindings();
    assert.deepEqual(env.cluster.bindings.map((b) => `${b.pod}->${b.node}`), ['default/web->n4']);
    env.sched.stop();
  });

  it('a failed attempt with the same message does not patch the pod status again', async () => {
    const env = await newEnv();
    env.cluster.create(bad('n1'));
    env.cluster.create(newPod('web'));
    env.sched.scheduleOne();
    const rv = podIn(env, 'web').metadata.resourceVersion;
    env.sched.queue.activate([podIn(env, 'web')]);
    env.sched.scheduleOne();
    assert.equal(env.attempts.length, 2);
    assert.equal(podIn(env, 'web').metadata.resourceVersion, rv);
    assert.equal(eventsFor(env, 'web').length, 2, 'an event is recorded for every failure');
    env.sched.stop();
  });

  it('a 409 on bind unreserves, forgets and requeues the pod, which binds once on retry', async () => {
    const env = await newEnv();
    env.cluster.create(good('n1'));
    env.cluster.create(newPod('web'));
    env.cluster.injectFault('bind', 409, 1, 'Operation cannot be fulfilled');
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    const p = podIn(env, 'web');
    assert.equal(env.cluster.bindings.length, 0);
    assert.equal(p.spec.nodeName, undefined);
    assert.deepEqual(env.reserveCalls, ['reserve web n1', 'unreserve web n1']);
    assert.equal(env.sched.cache.isAssumedPod(p), false);
    assert.equal(env.sched.cache.nodeInfo('n1')!.requested.milliCPU, 0, 'the assumed pod was forgotten');
    assert.equal(condition(p)?.reason, 'SchedulerError');
    assert.equal(condition(p)?.message, 'running Bind plugin "Binder": Operation cannot be fulfilled');
    // An error is retried after backoff, from the error backoffQ that is not popped early.
    assert.equal(env.sched.queue.whereIs(p.metadata.uid!), 'errorBackoff');
    assert.equal(env.sched.scheduleOne(), false);
    env.clock.advance(2000);
    assert.equal(env.sched.queue.whereIs(p.metadata.uid!), 'active');
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.deepEqual(env.cluster.bindings.map((b) => `${b.pod}->${b.node}`), ['default/web->n1']);
    assert.equal(env.sched.scheduleOne(), false);
    assert.equal(env.sched.queue.has(p.metadata.uid!), false);
    env.sched.stop();
  });

  it('a pod bound by someone else while our bind failed is not requeued', async () => {
    const env = await newEnv();
    env.cluster.create(good('n1'));
    env.cluster.create(good('n2'));
    env.cluster.create(newPod('web'));
    // Another binder wins the race: by the time our Bind runs, the pod is on n2.
    const other = podIn(env, 'web');
    env.sched.scheduleOne();
    await env.cluster.bind(other, 'n2');
    await env.sched.waitForBindings();
    assert.deepEqual(env.cluster.bindings.map((b) => `${b.pod}->${b.node}`), ['default/web->n2']);
    assert.equal(podIn(env, 'web').spec.nodeName, 'n2');
    assert.equal(env.sched.queue.has(other.metadata.uid!), false);
    assert.equal(env.sched.cache.nodeInfo('n2')!.pods.length, 1);
    assert.equal(env.sched.cache.nodeInfo('n1')!.pods.length, 0);
    env.sched.stop();
  });

  it('a Permit rejection unreserves and fails on that one node', async () => {
    const env = await newEnv();
    env.cluster.create(good('n1'));
    env.cluster.create(good('n2'));
    env.permit.decision = 'reject';
    env.cluster.create(newPod('web'));
    env.sched.scheduleOne();
    const p = podIn(env, 'web');
    assert.equal(condition(p)?.message, '0/1 nodes are available: 1 not now.');
    assert.equal(env.reserveCalls.length, 2);
    assert.equal(env.sched.cache.nodeInfo(env.reserveCalls[0]!.split(' ')[2]!)!.pods.length, 0);
    env.sched.stop();
  });

  it('a pod waiting at Permit binds when allowed and fails when its wait times out', async () => {
    const env = await newEnv();
    env.cluster.create(good('n1'));
    env.permit.decision = 'wait';
    env.cluster.create(newPod('a'));
    env.sched.scheduleOne();
    const fwk = env.sched.profiles.get('default-scheduler')!;
    fwk.getWaitingPod(podIn(env, 'a').metadata.uid!)!.allow('Recorder');
    await env.sched.waitForBindings();
    assert.equal(podIn(env, 'a').spec.nodeName, 'n1');

    env.cluster.create(newPod('b'));
    env.sched.scheduleOne();
    env.clock.advance(5000);
    await env.sched.waitForBindings();
    const b = podIn(env, 'b');
    assert.equal(b.spec.nodeName, undefined);
    assert.equal(condition(b)?.message, '0/1 nodes are available: 1 rejected due to timeout after waiting 5s at plugin Recorder.');
    assert.equal(env.sched.cache.nodeInfo('n1')!.pods.length, 1, 'only pod a');
    env.sched.stop();
  });

  for (const gate of [true, false]) {
    it(`NominatedNodeNameForExpectation=${gate}: a pod waiting at Permit is ${gate ? '' : 'not '}nominated to its node before the wait; binding clears the nomination`, async () => {
      const env = await newEnv({}, FeatureGates.parse([`NominatedNodeNameForExpectation=${gate}`]));
      env.cluster.create(good('n1'));
      env.permit.decision = 'wait';
      env.cluster.create(newPod('a'));
      env.sched.scheduleOne();
      await new Promise((r) => setImmediate(r));
      assert.equal(podIn(env, 'a').status?.nominatedNodeName, gate ? 'n1' : undefined);
      env.sched.profiles.get('default-scheduler')!.getWaitingPod(podIn(env, 'a').metadata.uid!)!.allow('Recorder');
      await env.sched.waitForBindings();
      assert.deepEqual([podIn(env, 'a').spec.nodeName, podIn(env, 'a').status?.nominatedNodeName], ['n1', undefined]);
      env.sched.stop();
    });
  }

  it('ClearingNominatedNodeNameAfterBinding=false: binding keeps the nomination, and a bound pod may be given another', async () => {
    const env = await newEnv({}, FeatureGates.parse(['ClearingNominatedNodeNameAfterBinding=false']));
    env.cluster.create(good('n1'));
    env.permit.decision = 'wait';
    env.cluster.create(newPod('a'));
    env.sched.scheduleOne();
    env.sched.profiles.get('default-scheduler')!.getWaitingPod(podIn(env, 'a').metadata.uid!)!.allow('Recorder');
    await env.sched.waitForBindings();
    assert.deepEqual([podIn(env, 'a').spec.nodeName, podIn(env, 'a').status?.nominatedNodeName], ['n1', 'n1']);
    await env.cluster.updatePodStatus(podIn(env, 'a'), { nominatedNodeName: 'n2' });
    assert.equal(podIn(env, 'a').status?.nominatedNodeName, 'n2');
    env.sched.stop();
  });

  it('a bound pod may not be given a new nominatedNodeName (ClearingNominatedNodeNameAfterBinding)', async () => {
    const env = await newEnv();
    env.cluster.create(good('n1'));
    env.cluster.create(newPod('a'));
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    await assert.rejects(env.cluster.updatePodStatus(podIn(env, 'a'), { nominatedNodeName: 'n2' }), {
      code: 422,
      message: 'Pod "a" is invalid: status.nominatedNodeName: Forbidden: may not be set on pods that are already bound to a node',
    });
    env.sched.stop();
  });

  it('a pod waiting at Permit that preemption sends back fails with an error and goes to backoff, not to the unschedulable pods', async () => {
    const env = await newEnv();
    env.cluster.create(good('n1'));
    env.permit.decision = 'wait';
    env.cluster.create(newPod('a'));
    env.sched.scheduleOne();
    const uid = podIn(env, 'a').metadata.uid!;
    assert.equal(env.sched.profiles.get('default-scheduler')!.getWaitingPod(uid)!.preempt('DefaultPreemption', 'preempted'), true);
    await env.sched.waitForBindings();
    const a = podIn(env, 'a');
    assert.deepEqual([a.spec.nodeName, condition(a)?.reason, condition(a)?.message], [undefined, 'SchedulerError', 'waiting on permit for pod: preempted']);
    assert.equal(env.sched.queue.whereIs(uid), 'errorBackoff');
    env.sched.stop();
  });

  it('a pod in PreBind that preemption cancels is not bound: its binding cycle fails with the cancellation', async () => {
    const env = await newEnv({ preBind: { enabled: [{ name: 'Slow' }] } });
    env.cluster.create(good('n1'));
    env.cluster.create(newPod('a'));
    env.sched.scheduleOne();
    await new Promise((r) => setImmediate(r));
    const uid = podIn(env, 'a').metadata.uid!;
    // A PreBind plugin without a pre-flight has work: the pod is nominated while it runs.
    assert.equal(podIn(env, 'a').status?.nominatedNodeName, 'n1');
    assert.equal(env.sched.profiles.get('default-scheduler')!.getPodInPreBind(uid)?.cancel('preempted by DefaultPreemption'), true);
    env.releasePreBind();
    await env.sched.waitForBindings();
    const a = podIn(env, 'a');
    assert.deepEqual([a.spec.nodeName, condition(a)?.reason, condition(a)?.message], [undefined, 'SchedulerError', 'preempted by DefaultPreemption']);
    assert.equal(a.status?.nominatedNodeName, undefined, 'the failure handler clears the nomination');
    assert.equal(env.sched.profiles.get('default-scheduler')!.getPodInPreBind(uid), undefined);
    env.sched.stop();
  });

  it('skips a pod being deleted, with an event', async () => {
    const env = await newEnv();
    env.cluster.create(good('n1'));
    const p: Pod = { ...newPod('gone'), metadata: { name: 'gone', namespace: 'default', uid: 'u-gone', deletionTimestamp: '2024-01-01T00:00:00Z' } };
    env.sched.queue.add(p);
    assert.equal(env.sched.scheduleOne(), true);
    await env.sched.waitForBindings();
    assert.equal(env.cluster.bindings.length, 0);
    assert.deepEqual(eventsFor(env, 'gone'), ['Warning FailedScheduling: skip schedule deleting pod: default/gone']);
    assert.equal(env.sched.queue.inFlightCount, 0);
    env.sched.stop();
  });

  it('skips a pod that is already assumed', async () => {
    const env = await newEnv();
    env.cluster.create(good('n1'));
    const p = makePod('dup', { uid: 'u-dup' });
    env.sched.cache.assumePod(new PodInfo({ ...p, spec: { ...p.spec, nodeName: 'n1' } }));
    env.sched.queue.add(p);
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.deepEqual(env.attempts, []);
    assert.equal(env.sched.queue.inFlightCount, 0);
    env.sched.stop();
  });

  it('pods go in priority order, and an assumed pod holds its node for the next one', async () => {
    const env = await newEnv({ filter: { enabled: [{ name: 'Pool' }] } });
    env.cluster.create(makeNode('n1', { labels: { pool: 'good' }, allocatable: { cpu: '1', memory: '1Gi', pods: '1' } }));
    env.cluster.create(newPod('low', { priority: 1 }));
    env.cluster.create(newPod('high', { priority: 100 }));
    env.sched.scheduleOne();
    // Before the binding finishes, the next pod already sees n1 taken through the cache.
    assert.equal(env.sched.cache.nodeInfo('n1')!.pods.length, 1);
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.deepEqual(env.cluster.bindings.map((b) => b.pod), ['default/high', 'default/low']);
    env.sched.stop();
  });

  it('truncates long event notes as upstream, keeping the full condition message', () => {
    const long = 'x'.repeat(2000);
    const t = truncateMessage(long);
    assert.equal(t.length, 1024);
    assert.ok(t.endsWith('x ...'));
    assert.equal(truncateMessage('short'), 'short');
  });
});
