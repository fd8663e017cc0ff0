// Bindings whose answer is lost (a connection reset, a timeout, a 5xx): the pod stays assumed, its
// room taken, until a read of the pod or the informer says where it is; it is then counted bound,
// or unreserved, forgotten and retried, exactly once. Over the embedded cluster with a lossy bind
// and an informer the test can hold back, on a FakeClock.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/types.js';
import { ApiError, type WatchEvent, type WatchHandler } from '../cluster/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { defaultConfiguration } from '../config/index.js';
import type { AnyPlugin } from '../framework/interfaces.js';
import type { PodInfo } from '../framework/pod_info.js';
import { Registry } from '../framework/registry.js';
import { Code, Status } from '../framework/status.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { bindingMayHaveLanded } from './binding_confirmation.js';
import { Scheduler, type AttemptRecord } from './scheduler.js';

const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

/** The embedded cluster behind a bad network: bindings or their answers get lost, the informer can lag. */
class LossyCluster extends MemoryCluster {
  /** The next bindings that reach the store but whose answer is lost. */
  loseAnswers = 0;
  /** The next bindings lost on their way: they never reach the store. */
  loseRequests = 0;
  reads = 0;
  /** While set, reads wait for it. */
  readGate: Promise<void> | null = null;
  /** While true, watch events wait until `deliver()`. */
  holdEvents = false;
  private held: WatchEvent[] = [];
  private handler: WatchHandler | null = null;

  override start(handler: WatchHandler): Promise<void> {
    this.handler = handler;
    return super.start((e) => (this.holdEvents ? this.held.push(e) : handler(e)));
  }

  /** Drops the events held back, as a watch that broke loses them, and stops holding them. */
  discardHeld(): void {
    this.holdEvents = false;
    this.held = [];
  }

  /** Delivers the events held back, in order, and stops holding them. */
  deliver(): void {
    this.holdEvents = false;
    const held = this.held;
    this.held = [];
    for (const e of held) this.handler!(e);
  }

  override async bind(pod: Pod, nodeName: string): Promise<void> {
    if (this.loseRequests > 0) {
      this.loseRequests--;
      throw connectionReset();
    }
    await super.bind(pod, nodeName);
    if (this.loseAnswers > 0) {
      this.loseAnswers--;
      throw connectionReset();
    }
  }

  override async readPod(namespace: string, name: string): Promise<Pod | null> {
    this.reads++;
    if (this.readGate) await this.readGate;
    return super.readPod(namespace, name);
  }
}

interface Env {
  clock: FakeClock;
  cluster: LossyCluster;
  sched: Scheduler;
  attempts: AttemptRecord[];
  /** Reserve, Unreserve and PostBind calls, in order. */
  calls: string[];
}

/** Upstream's default profile plus a plugin recording Reserve, Unreserve and PostBind; one node of 1 CPU. */
async function newEnv(): Promise<Env> {
  const clock = new FakeClock(0);
  const cluster = new LossyCluster({ clock });
  cluster.create(makeNode('n1', { allocatable: { cpu: '1', memory: '4Gi', pods: '110' } }));
  const calls: string[] = [];
  const recorder = new Registry([{
    name: 'Recorder',
    factory: (): AnyPlugin => ({
      name: 'Recorder',
      reserve: (_s: unknown, p: PodInfo, n: string) => (calls.push(`reserve ${p.name} ${n}`), null),
      unreserve: (_s: unknown, p: PodInfo, n: string) => void calls.push(`unreserve ${p.name} ${n}`),
      postBind: (_s: unknown, p: PodInfo, n: string) => void calls.push(`postBind ${p.name} ${n}`),
    }),
  }]);
  const registry = inTreeRegistry().merge(recorder);
  const config = defaultConfiguration(registry);
  const plugins = config.profiles[0]!.plugins;
  plugins.reserve.enabled.push({ name: 'Recorder' });
  plugins.postBind.enabled.push({ name: 'Recorder' });
  const attempts: AttemptRecord[] = [];
  const sched = Scheduler.fromConfig(config, {
    registry,
    client: cluster,
    clock,
    random: seededRandom(1),
    notYetAvailable: notYetAvailablePlugins,
    onAttempt: (a) => attempts.push(a),
  });
  await sched.start();
  return { clock, cluster, sched, attempts, calls };
}

/** Two pods of 600m: on the one node of 1 CPU, only one fits. */
function createPods(env: Env): void {
  for (const name of ['a', 'b']) {
    const p = makePod(name, { requests: { cpu: '600m' } });
    delete (p.metadata as { uid?: string }).uid;
    env.cluster.create(p);
  }
}

const podIn = (env: Env, name: string) => env.cluster.getPod('default', name)!;
const outcomes = (env: Env) => env.attempts.map((a) => `${a.pod.metadata.name} ${a.outcome}${a.node ? ` ${a.node}` : ''}`);
const scheduledEvents = (env: Env, name: string) => env.cluster.recordedEvents.filter((e) => e.regarding.name === name && e.reason === 'Scheduled').length;
const requestedMilliCPU = (env: Env) => env.sched.cache.nodeInfo('n1')?.requested.milliCPU ?? 0;

/**
 * Pods a and b created; a's binding lands but its answer is lost while the watch holds its events,
 * so a stays assumed. Returns a as the informer last showed it: unbound.
 */
async function aBoundAnswerLost(env: Env): Promise<Pod> {
  createPods(env);
  const unboundA = podIn(env, 'a');
  env.cluster.holdEvents = true;
  env.cluster.loseAnswers = 1;
  env.sched.scheduleOne();
  await env.sched.waitForBindings();
  return unboundA;
}

/** Lets the binding cycle's awaits run until `done` holds (microtasks only: no time passes). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await Promise.resolve();
  assert.ok(done(), 'the condition never held');
}

/** Lets the promises already settled run their continuations (a failed read arms its retry timer). */
async function settle(): Promise<void> {
  for (let i = 0; i < 100; i++) await Promise.resolve();
}

describe('bindings whose answer is lost', { timeout: 10_000 }, () => {
  it('a binding that landed keeps its room and counts as scheduled once, before the informer shows it', async () => {
    const env = await newEnv();
    await aBoundAnswerLost(env);
    assert.deepEqual(env.cluster.bindings.map((b) => `${b.pod}->${b.node}`), ['default/a->n1']);
    assert.equal(env.cluster.reads, 1);
    assert.deepEqual(outcomes(env), ['a Scheduled n1']);
    assert.equal(scheduledEvents(env, 'a'), 1);
    assert.deepEqual(env.calls, ['reserve a n1', 'postBind a n1']);
    assert.equal(env.sched.cache.isAssumedPod(podIn(env, 'a')), true, 'still assumed: the informer has not shown the binding');
    assert.equal(requestedMilliCPU(env), 600);
    // The next pod finds the room taken (forgetting a would have put b on n1: 1200m of 1000m).
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.deepEqual(outcomes(env), ['a Scheduled n1', 'b Unschedulable']);
    assert.equal(podIn(env, 'b').spec.nodeName, undefined);
    env.cluster.deliver();
    assert.equal(env.sched.cache.isAssumedPod(podIn(env, 'a')), false, 'the informer confirmed the assumed pod');
    assert.equal(requestedMilliCPU(env), 600);
    assert.equal(env.sched.bindingsInFlight, 0);
    env.sched.stop();
  });

  it('a binding the informer showed before its answer was lost settles at once, without a read', async () => {
    const env = await newEnv();
    createPods(env);
    env.cluster.loseAnswers = 1;
    env.cluster.injectFault('readPod', 503, 1000, 'the API server is restarting');
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.equal(env.cluster.reads, 0);
    assert.deepEqual(outcomes(env), ['a Scheduled n1']);
    assert.deepEqual(env.calls, ['reserve a n1', 'postBind a n1']);
    assert.equal(requestedMilliCPU(env), 600);
    env.sched.stop();
  });

  it('a bound pod deleted before the informer showed the binding (a relist) leaves the cache', async () => {
    const env = await newEnv();
    const unboundA = await aBoundAnswerLost(env);
    assert.deepEqual(outcomes(env), ['a Scheduled n1']);
    assert.equal(requestedMilliCPU(env), 600);
    // The watch breaks; the relist finds a gone, and reports it as the informer last saw it: unbound.
    env.cluster.remove('Pod', 'default', 'a');
    env.cluster.discardHeld();
    env.sched.handlers.handle({ type: 'DELETED', kind: 'Pod', object: unboundA });
    assert.equal(env.sched.cache.isAssumedPod(unboundA), false);
    assert.equal(requestedMilliCPU(env), 0, 'its room is free again');
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.deepEqual(outcomes(env), ['a Scheduled n1', 'b Scheduled n1']);
    env.sched.stop();
  });

  it('an assumed pod whose graceful deletion starts frees its room at once and wakes the pods it blocked', async () => {
    const env = await newEnv();
    const unboundA = await aBoundAnswerLost(env);
    env.sched.scheduleOne();
    assert.deepEqual(outcomes(env), ['a Scheduled n1', 'b Unschedulable']);
    assert.equal(env.sched.queue.pendingCounts().unschedulable, 1);
    // The informer, still without the binding, sees a's deletion begin.
    const deleting = { ...unboundA, metadata: { ...unboundA.metadata, resourceVersion: `${unboundA.metadata.resourceVersion ?? ''}9`, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    env.sched.handlers.handle({ type: 'MODIFIED', kind: 'Pod', object: deleting, oldObject: unboundA });
    assert.equal(env.sched.cache.isAssumedPod(unboundA), false);
    assert.equal(requestedMilliCPU(env), 0, 'its room is free again');
    // The event names a's node (the cache's copy), so NodeResourcesFit's hint requeues b.
    assert.equal(env.sched.queue.pendingCounts().unschedulable, 0);
    env.sched.stop();
  });

  it('a binding lost on its way is unreserved, forgotten, retried after backoff, and binds once', async () => {
    const env = await newEnv();
    createPods(env);
    env.sched.queue.delete(podIn(env, 'b'));
    env.cluster.loseRequests = 1;
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    const a = podIn(env, 'a');
    assert.equal(env.cluster.reads, 1);
    assert.equal(env.cluster.bindings.length, 0);
    assert.deepEqual(outcomes(env), ['a Error']);
    assert.deepEqual(env.calls, ['reserve a n1', 'unreserve a n1']);
    assert.equal(env.sched.cache.isAssumedPod(a), false);
    assert.equal(requestedMilliCPU(env), 0);
    assert.equal(env.sched.queue.whereIs(a.metadata.uid!), 'errorBackoff');
    env.clock.advance(2000);
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.deepEqual(env.cluster.bindings.map((b) => `${b.pod}->${b.node}`), ['default/a->n1']);
    assert.deepEqual(outcomes(env), ['a Error', 'a Scheduled n1']);
    assert.deepEqual(env.calls, ['reserve a n1', 'unreserve a n1', 'reserve a n1', 'postBind a n1']);
    assert.equal(env.cluster.reads, 1, 'a binding that was answered needs no read');
    env.sched.stop();
  });

  it('while the reads fail the room stays held; the pod settles when a read answers', async () => {
    const env = await newEnv();
    createPods(env);
    env.cluster.holdEvents = true;
    env.cluster.loseAnswers = 1;
    env.cluster.injectFault('readPod', 500, 3, 'etcdserver: request timed out');
    env.sched.scheduleOne();
    await until(() => env.cluster.reads === 1);
    await settle();
    assert.equal(env.sched.bindingsInFlight, 1);
    assert.equal(requestedMilliCPU(env), 600);
    env.sched.scheduleOne();
    assert.deepEqual(outcomes(env), ['b Unschedulable'], 'b does not get the room of a pod that may be bound');
    // Retries back off from 200 ms, doubling.
    for (const [waitMs, reads] of [[200, 2], [400, 3], [800, 4]] as const) {
      env.clock.advance(waitMs - 1);
      await settle();
      assert.equal(env.cluster.reads, reads - 1, `no read before ${waitMs} ms`);
      env.clock.advance(1);
      await until(() => env.cluster.reads === reads);
      await settle();
    }
    await env.sched.waitForBindings();
    assert.deepEqual(outcomes(env), ['b Unschedulable', 'a Scheduled n1']);
    assert.deepEqual(env.calls, ['reserve a n1', 'postBind a n1']);
    assert.equal(requestedMilliCPU(env), 600);
    env.cluster.deliver();
    assert.equal(env.sched.cache.isAssumedPod(podIn(env, 'a')), false);
    env.sched.stop();
  });

  it('the informer showing the pod bound settles it once, whatever the read answers later', async () => {
    const env = await newEnv();
    createPods(env);
    env.cluster.holdEvents = true;
    env.cluster.loseAnswers = 1;
    let release!: () => void;
    env.cluster.readGate = new Promise<void>((r) => (release = r));
    env.sched.scheduleOne();
    await until(() => env.cluster.reads === 1);
    env.cluster.deliver();
    await env.sched.waitForBindings();
    assert.deepEqual(outcomes(env), ['a Scheduled n1']);
    release();
    await settle();
    assert.deepEqual(outcomes(env), ['a Scheduled n1']);
    assert.equal(scheduledEvents(env, 'a'), 1);
    assert.deepEqual(env.calls, ['reserve a n1', 'postBind a n1']);
    assert.equal(env.sched.cache.isAssumedPod(podIn(env, 'a')), false);
    assert.equal(requestedMilliCPU(env), 600);
    env.sched.stop();
  });

  it('a pod deleted while its binding is unconfirmed is unreserved and forgotten once, not retried', async () => {
    const env = await newEnv();
    createPods(env);
    env.sched.queue.delete(podIn(env, 'b'));
    env.cluster.holdEvents = true;
    env.cluster.loseRequests = 1;
    env.cluster.injectFault('readPod', 503, 1000, 'the API server is restarting');
    env.sched.scheduleOne();
    await until(() => env.cluster.reads === 1);
    const a = podIn(env, 'a');
    env.cluster.remove('Pod', 'default', 'a');
    env.cluster.deliver();
    await env.sched.waitForBindings();
    assert.deepEqual(outcomes(env), ['a Error']);
    assert.deepEqual(env.calls, ['reserve a n1', 'unreserve a n1']);
    assert.equal(env.sched.cache.isAssumedPod(a), false);
    assert.equal(requestedMilliCPU(env), 0);
    assert.equal(env.sched.queue.has(a.metadata.uid!), false);
    env.clock.advance(60_000);
    await settle();
    assert.equal(env.cluster.reads, 1, 'no read after the pod settled');
    env.sched.stop();
  });

  it('a pod another binder bound elsewhere is forgotten here and not retried', async () => {
    const env = await newEnv();
    env.cluster.create(makeNode('n2', { allocatable: { cpu: '1', memory: '4Gi', pods: '110' } }));
    createPods(env);
    env.sched.queue.delete(podIn(env, 'b'));
    env.cluster.loseRequests = 1;
    let release!: () => void;
    env.cluster.readGate = new Promise<void>((r) => (release = r));
    env.sched.scheduleOne();
    await until(() => env.cluster.reads === 1);
    const host = env.sched.cache.getPod(podIn(env, 'a'))!.spec.nodeName!;
    const other = host === 'n1' ? 'n2' : 'n1';
    env.cluster.holdEvents = true;
    await env.cluster.bind(podIn(env, 'a'), other);
    release();
    await env.sched.waitForBindings();
    assert.deepEqual(outcomes(env), ['a Error']);
    assert.match(env.attempts[0]!.message, new RegExp(`is bound to ${other}, not ${host}`));
    assert.deepEqual(env.calls, [`reserve a ${host}`, `unreserve a ${host}`]);
    assert.equal(env.sched.cache.nodeInfo(host)!.requested.milliCPU, 0);
    env.cluster.deliver();
    assert.equal(env.sched.cache.nodeInfo(other)!.requested.milliCPU, 600, 'the informer puts it where it is');
    assert.equal(env.sched.queue.has(podIn(env, 'a').metadata.uid!), false);
    env.sched.stop();
  });

  it('a refused binding is not read back', async () => {
    const env = await newEnv();
    createPods(env);
    env.sched.queue.delete(podIn(env, 'b'));
    env.cluster.injectFault('bind', 409, 1, 'Operation cannot be fulfilled');
    env.sched.scheduleOne();
    await env.sched.waitForBindings();
    assert.equal(env.cluster.reads, 0);
    assert.deepEqual(outcomes(env), ['a Error']);
    assert.equal(requestedMilliCPU(env), 0);
    env.sched.stop();
  });

  it('stopping the scheduler ends a confirmation in flight', async () => {
    const env = await newEnv();
    createPods(env);
    env.cluster.holdEvents = true;
    env.cluster.loseAnswers = 1;
    env.cluster.injectFault('readPod', 500, 1000);
    env.sched.scheduleOne();
    await until(() => env.cluster.reads === 1);
    env.sched.stop();
    await env.sched.waitForBindings();
    assert.equal(env.sched.bindingsInFlight, 0);
    assert.deepEqual(outcomes(env), []);
  });
});

describe('bindingMayHaveLanded', () => {
  const apiError = (code: number) => new ApiError(code, `HTTP ${code}`);
  const wrapped = (cause: Error) => Status.error(new Error('running Bind plugin "DefaultBinder": failed', { cause }));
  const cases: { name: string; status: Status; want: boolean }[] = [
    { name: 'a plugin rejected the pod', status: new Status(Code.Unschedulable, ['no']), want: false },
    { name: '409 Conflict: the server refused it', status: wrapped(apiError(409)), want: false },
    { name: '404 Not Found', status: wrapped(apiError(404)), want: false },
    { name: '422 Invalid', status: Status.error(apiError(422)), want: false },
    { name: '429 Too Many Requests: turned away before handling', status: wrapped(apiError(429)), want: false },
    { name: '408 Request Timeout', status: wrapped(apiError(408)), want: true },
    { name: '500 Internal Error', status: wrapped(apiError(500)), want: true },
    { name: '504 Gateway Timeout', status: wrapped(apiError(504)), want: true },
    { name: 'a connection reset', status: wrapped(connectionReset()), want: true },
    { name: 'an error with no cause (an extender)', status: Status.error('extender failed'), want: true },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(bindingMayHaveLanded(c.status), c.want));
  }
});
