// A plugin that throws ends only its own pod's attempt, as an error naming it (upstream's error
// wrapping), and the pod is retried after backoff; an event whose handling throws affects only
// that event. Each case runs a pod the plugin throws for beside one it lets through.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryCluster } from '../cluster/memory/store.js';
import type { AnyPlugin, Handle, NodeScore, PermitOutcome, QueuedPodInfo } from '../framework/interfaces.js';
import type { PodInfo } from '../framework/pod_info.js';
import { Registry } from '../framework/registry.js';
import type { PluginsConfig } from '../framework/runtime/profile_plugins.js';
import { Status } from '../framework/status.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { Scheduler, type AttemptRecord } from './scheduler.js';

const less = (a: QueuedPodInfo, b: QueuedPodInfo) => a.timestamp < b.timestamp;
const boom = (p: PodInfo): void => {
  if (p.name === 'bad') throw new Error('boom');
};

/** The plugin under test: every method throws for the pod named "bad". */
const thrower: AnyPlugin = {
  name: 'Thrower',
  preEnqueue: (pod) => (pod.metadata.name === 'bad' ? (() => { throw new Error('boom'); })() : null),
  preFilter: (_s, p) => (boom(p), null),
  filter: (_s, p) => (boom(p), null),
  postFilter: (_s, p) => (boom(p), { result: null, status: Status.unschedulable('nothing to do') }),
  preScore: (_s, p) => (boom(p), null),
  score: (_s, p) => (boom(p), 10),
  scoreExtensions: () => ({ normalizeScore: (_s: unknown, p: PodInfo) => (boom(p), null) }),
  reserve: (_s, p) => (boom(p), null),
  unreserve: (_s, p) => boom(p),
  permit: (_s, p): PermitOutcome => (boom(p), { status: null, timeoutMs: 0 }),
  preBind: async (_s, p) => (boom(p), null),
  bind: async (_s, p) => (boom(p), Status.skip()),
  postBind: (_s, p) => boom(p),
};

/** The same with a batch Score. */
const batchThrower: AnyPlugin = {
  name: 'Thrower',
  score: () => 10,
  scoreNodes: (_s, p: PodInfo, _nodes, out: NodeScore[]) => {
    boom(p);
    for (const e of out) e.score = 10;
    return null;
  },
};

/** Scores, then fails to normalize for "bad". */
const normalizeThrower: AnyPlugin = {
  name: 'Thrower',
  score: () => 10,
  scoreExtensions: () => ({ normalizeScore: (_s: unknown, p: PodInfo) => (boom(p), null) }),
};

/** Rejects "bad" everywhere, so that PostFilter (or Unreserve after a Reserve rejection) runs. */
const rejectBad: AnyPlugin = {
  name: 'RejectBad',
  filter: (_s, p) => (p.name === 'bad' ? Status.unschedulable('not for bad') : null),
  reserve: (_s, p) => (p.name === 'bad' ? Status.unschedulable('no room for bad') : null),
  unreserve: () => {},
};

interface Env {
  cluster: MemoryCluster;
  sched: Scheduler;
  attempts: AttemptRecord[];
  logs: string[];
}

async function newEnv(plugins: PluginsConfig, thrown: AnyPlugin = thrower): Promise<Env> {
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock });
  const binder = {
    name: 'Binder',
    factory: (_a: unknown, h: Handle): AnyPlugin => ({
      name: 'Binder',
      bind: async (_s, p: PodInfo, node: string) => {
        await h.client().bind(p.pod, node);
        return null;
      },
    }),
  };
  const registry = new Registry([
    { name: 'Sort', factory: () => ({ name: 'Sort', less }) },
    { name: 'Thrower', factory: () => thrown },
    { name: 'RejectBad', factory: () => rejectBad },
    binder,
  ]);
  const attempts: AttemptRecord[] = [];
  const logs: string[] = [];
  const sched = Scheduler.fromConfig({
    profiles: [{
      schedulerName: 'default-scheduler',
      plugins: { queueSort: { enabled: [{ name: 'Sort' }] }, ...plugins, bind: { enabled: [...(plugins.bind?.enabled ?? []), { name: 'Binder' }] } },
    }],
  }, { registry, client: cluster, clock, random: seededRandom(1), onAttempt: (a) => attempts.push(a), log: (_l, msg) => logs.push(msg) });
  await sched.start();
  cluster.create(makeNode('n1'));
  cluster.create(makeNode('n2'));
  return { cluster, sched, attempts, logs };
}

const at = (point: keyof PluginsConfig, ...more: (keyof PluginsConfig)[]): PluginsConfig =>
  Object.fromEntries([point, ...more].map((p) => [p, { enabled: [{ name: 'Thrower' }] }]));

describe('a plugin that throws', () => {
  const cases: { name: string; plugins: PluginsConfig; thrown?: AnyPlugin; message: string }[] = [
    { name: 'at PreFilter', plugins: at('preFilter'), message: 'running PreFilter plugin "Thrower": boom' },
    { name: 'at Filter', plugins: at('filter'), message: 'running "Thrower" filter plugin: boom' },
    { name: 'at PreScore', plugins: at('preScore', 'score'), message: 'running PreScore plugin "Thrower": boom' },
    { name: 'at Score', plugins: at('score'), message: 'running Score plugins: plugin "Thrower" failed with: boom' },
    { name: 'in a batch Score', plugins: at('score'), thrown: batchThrower, message: 'running Score plugins: plugin "Thrower" failed with: boom' },
    { name: 'at NormalizeScore', plugins: at('score'), thrown: normalizeThrower, message: 'running Normalize on Score plugins: plugin "Thrower" failed with: boom' },
    { name: 'at Reserve', plugins: at('reserve'), message: 'running Reserve plugin "Thrower": boom' },
    { name: 'at Permit', plugins: at('permit'), message: 'running Permit plugin "Thrower": boom' },
    { name: 'at PreBind', plugins: at('preBind'), message: 'running PreBind plugin "Thrower": boom' },
    { name: 'at Bind', plugins: at('bind'), message: 'running Bind plugin "Thrower": boom' },
  ];
  for (const c of cases) {
    it(`${c.name} fails that pod's attempt with an error naming it; the other pod is bound and the pod is retried after backoff`, async () => {
      const env = await newEnv(c.plugins, c.thrown);
      const bad = env.cluster.create(makePod('bad'));
      env.cluster.create(makePod('good'));
      await env.sched.loop.drain();
      const failed = env.attempts.find((a) => a.pod.metadata.name === 'bad')!;
      assert.equal(failed.outcome, 'Error');
      assert.equal(failed.message, c.message);
      assert.ok(env.cluster.getPod('default', 'good')?.spec.nodeName, 'the other pod is bound');
      assert.equal(env.cluster.getPod('default', 'bad')?.spec.nodeName, undefined);
      assert.equal(env.sched.queue.whereIs(bad.metadata.uid!), 'errorBackoff');
      assert.equal(env.sched.bindingsInFlight, 0);
      env.sched.stop();
    });
  }

  it('at PostFilter ends preemption as an error; the pod stays unschedulable with the reason', async () => {
    const env = await newEnv({ filter: { enabled: [{ name: 'RejectBad' }] }, postFilter: { enabled: [{ name: 'Thrower' }] } });
    env.cluster.create(makePod('bad'));
    env.cluster.create(makePod('good'));
    await env.sched.loop.drain();
    const failed = env.attempts.find((a) => a.pod.metadata.name === 'bad')!;
    assert.equal(failed.outcome, 'Unschedulable');
    assert.equal(failed.message, '0/2 nodes are available: 2 not for bad. running PostFilter plugin "Thrower": boom');
    assert.ok(env.cluster.getPod('default', 'good')?.spec.nodeName);
    env.sched.stop();
  });

  it('in Unreserve or PostBind is logged and the rest of the attempt goes on', async () => {
    const env = await newEnv({ reserve: { enabled: [{ name: 'RejectBad' }, { name: 'Thrower' }] }, postBind: { enabled: [{ name: 'Thrower' }] } }, {
      name: 'Thrower',
      reserve: () => null,
      unreserve: (_s, p) => boom(p),
      postBind: () => {
        throw new Error('postBind failed');
      },
    });
    env.cluster.create(makePod('bad'));
    env.cluster.create(makePod('good'));
    await env.sched.loop.drain();
    assert.equal(env.attempts.find((a) => a.pod.metadata.name === 'bad')?.outcome, 'Unschedulable');
    assert.equal(env.attempts.find((a) => a.pod.metadata.name === 'good')?.outcome, 'Scheduled');
    assert.ok(env.cluster.getPod('default', 'good')?.spec.nodeName);
    assert.ok(env.logs.includes('running Unreserve plugin "Thrower" for pod default/bad: boom'), env.logs.join('\n'));
    assert.ok(env.logs.includes('running PostBind plugin "Thrower" for pod default/good: postBind failed'), env.logs.join('\n'));
    env.sched.stop();
  });

  it('at PreEnqueue keeps that pod out of activeQ only', async () => {
    const env = await newEnv(at('preEnqueue'));
    const bad = env.cluster.create(makePod('bad'));
    env.cluster.create(makePod('good'));
    await env.sched.loop.drain();
    assert.equal(env.sched.queue.whereIs(bad.metadata.uid!), 'gated');
    assert.ok(env.cluster.getPod('default', 'good')?.spec.nodeName);
    env.sched.stop();
  });
});

describe('a hook that throws', () => {
  it('stops nothing: the attempt it reports is over, and a failed pod is still retried', async () => {
    const clock = new FakeClock(0);
    const cluster = new MemoryCluster({ clock });
    const logs: string[] = [];
    const registry = new Registry([
      { name: 'Sort', factory: () => ({ name: 'Sort', less }) },
      { name: 'RejectBad', factory: () => rejectBad },
      { name: 'Binder', factory: (_a: unknown, h: Handle): AnyPlugin => ({ name: 'Binder', bind: async (_s, p: PodInfo, n: string) => (await h.client().bind(p.pod, n), null) }) },
    ]);
    const sched = Scheduler.fromConfig({
      profiles: [{ schedulerName: 'default-scheduler', plugins: { queueSort: { enabled: [{ name: 'Sort' }] }, filter: { enabled: [{ name: 'RejectBad' }] }, bind: { enabled: [{ name: 'Binder' }] } } }],
    }, {
      registry,
      client: cluster,
      clock,
      random: seededRandom(1),
      log: (_l, msg) => logs.push(msg),
      onAttempt: () => {
        throw new Error('hook failed');
      },
    });
    await sched.start();
    cluster.create(makeNode('n1'));
    const bad = cluster.create(makePod('bad'));
    cluster.create(makePod('good'));
    await sched.loop.drain();
    assert.equal(cluster.getPod('default', 'good')?.spec.nodeName, 'n1');
    assert.equal(sched.queue.whereIs(bad.metadata.uid!), 'errorBackoff');
    assert.deepEqual(logs.filter((l) => l.includes('hook failed')), [
      'Error scheduling pod default/bad; retrying: hook failed',
      'binding cycle of pod default/good: hook failed',
    ]);
    sched.stop();
  });
});

describe('an event whose handling throws', () => {
  it('is logged and affects no other event', async () => {
    // A plugin watching the informer's objects, whose listener fails on one kind.
    const watcher: AnyPlugin = { name: 'Thrower', filter: () => null, signPod: () => [] };
    const registry = new Registry([
      { name: 'Sort', factory: () => ({ name: 'Sort', less }) },
      {
        name: 'Thrower',
        factory: (_a: unknown, h: Handle) => {
          h.objects().onChange?.((kind) => {
            if (kind === 'StorageClass') throw new Error('listener failed');
          });
          return watcher;
        },
      },
      { name: 'Binder', factory: (_a: unknown, h: Handle): AnyPlugin => ({ name: 'Binder', bind: async (_s, p: PodInfo, n: string) => (await h.client().bind(p.pod, n), null) }) },
    ]);
    const clock = new FakeClock(0);
    const cluster = new MemoryCluster({ clock });
    const logs: string[] = [];
    const sched = Scheduler.fromConfig({
      profiles: [{ schedulerName: 'default-scheduler', plugins: { queueSort: { enabled: [{ name: 'Sort' }] }, filter: { enabled: [{ name: 'Thrower' }] }, bind: { enabled: [{ name: 'Binder' }] } } }],
    }, { registry, client: cluster, clock, random: seededRandom(1), log: (_l, msg) => logs.push(msg) });
    await sched.start();
    cluster.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'x' });
    cluster.create(makeNode('n1'));
    cluster.create(makePod('p'));
    await sched.loop.drain();
    assert.deepEqual(logs, ['handling ADDED StorageClass fast: listener failed']);
    assert.equal(sched.cache.nodeCount, 1);
    assert.equal(cluster.getPod('default', 'p')?.spec.nodeName, 'n1');
    sched.stop();
  });
});
