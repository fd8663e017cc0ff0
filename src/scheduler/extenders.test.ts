// Extenders in the scheduling and binding cycles (schedule_one_test.go's extender cases,
// extender_test.go): an in-process Extender stands in for the HTTP one, over the embedded cluster
// with upstream's default profile.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { defaultConfiguration } from '../config/index.js';
import type { Extender, ExtenderBinding, ExtenderFilterResult, FailedNodesMap, HostPriority, PreemptionVictims } from '../framework/extender.js';
import type { NodeInfo } from '../framework/node_info.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { Scheduler, type AttemptRecord } from './scheduler.js';

/** An extender whose answers the test sets; records what it was asked. */
class FakeExtender implements Extender {
  failed: FailedNodesMap = {};
  unresolvable: FailedNodesMap = {};
  scores: Record<string, number> = {};
  weight = 1;
  filterError: Error | null = null;
  prioritizeError: Error | null = null;
  bindError: Error | null = null;
  ignorable = false;
  binder = false;
  managed: string | null = null;
  /** With a preempt verb: the candidate nodes it keeps (null: all), or an error, or no victims. */
  preemptKeep: string[] | null | undefined = undefined;
  preemptError: Error | null = null;
  preemptWithoutVictims = false;
  readonly calls: string[] = [];
  readonly bindings: ExtenderBinding[] = [];
  onBind: ((b: ExtenderBinding) => Promise<void>) | null = null;

  constructor(private readonly id = 'http://extender') {}

  name(): string {
    return this.id;
  }
  isIgnorable(): boolean {
    return this.ignorable;
  }
  isInterested(pod: Pod): boolean {
    if (this.managed === null) return true;
    return (pod.spec.containers ?? []).some((c) => c.resources?.requests?.[this.managed!] !== undefined);
  }
  isFilter(): boolean {
    return true;
  }
  isPrioritizer(): boolean {
    return true;
  }
  isBinder(): boolean {
    return this.binder;
  }
  supportsPreemption(): boolean {
    return this.preemptKeep !== undefined;
  }
  processPreemption(pod: Pod, victims: ReadonlyMap<string, PreemptionVictims>): Promise<Map<string, PreemptionVictims>> {
    this.calls.push(`preempt ${pod.metadata.name} [${[...victims.keys()].sort().join(' ')}]`);
    if (this.preemptError) return Promise.reject(this.preemptError);
    const out = new Map<string, PreemptionVictims>();
    for (const [name, v] of victims) {
      if (this.preemptKeep && !this.preemptKeep.includes(name)) continue;
      out.set(name, this.preemptWithoutVictims ? { pods: [], numPDBViolations: 0 } : v);
    }
    return Promise.resolve(out);
  }
  filter(pod: Pod, nodes: readonly NodeInfo[]): Promise<ExtenderFilterResult> {
    this.calls.push(`filter ${pod.metadata.name} [${nodes.map((n) => n.name).join(' ')}]`);
    if (this.filterError) return Promise.reject(this.filterError);
    const feasible = nodes.filter((n) => this.failed[n.name] === undefined && this.unresolvable[n.name] === undefined);
    return Promise.resolve({ feasible, failed: { ...this.failed }, failedAndUnresolvable: { ...this.unresolvable } });
  }
  prioritize(pod: Pod, nodes: readonly NodeInfo[]): Promise<{ scores: HostPriority[]; weight: number }> {
    this.calls.push(`prioritize ${pod.metadata.name} [${nodes.map((n) => n.name).join(' ')}]`);
    if (this.prioritizeError) return Promise.reject(this.prioritizeError);
    return Promise.resolve({ scores: nodes.map((n) => ({ host: n.name, score: this.scores[n.name] ?? 0 })), weight: this.weight });
  }
  async bind(b: ExtenderBinding): Promise<void> {
    this.calls.push(`bind ${b.podName} ${b.node}`);
    this.bindings.push(b);
    if (this.bindError) throw this.bindError;
    await this.onBind?.(b);
  }
}

interface Env {
  clock: FakeClock;
  cluster: MemoryCluster;
  sched: Scheduler;
  attempts: AttemptRecord[];
}

async function newEnv(extenders: Extender[], nodes = ['node-a', 'node-b', 'node-c'], cpu = '4'): Promise<Env> {
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock });
  for (const n of nodes) cluster.create(makeNode(n, { allocatable: { cpu, memory: '32Gi', pods: '110' } }));
  const attempts: AttemptRecord[] = [];
  const registry = inTreeRegistry();
  const sched = Scheduler.fromConfig(defaultConfiguration(registry), {
    registry,
    client: cluster,
    clock,
    random: seededRandom(1),
    notYetAvailable: notYetAvailablePlugins,
    extenders,
    recordScores: true,
    tieBreakByName: true,
    onAttempt: (a) => attempts.push(a),
  });
  await sched.start();
  return { clock, cluster, sched, attempts };
}

function scheduleAll(env: Env): Promise<void> {
  return env.sched.loop.drain();
}

function nodeOf(env: Env, name: string): string | undefined {
  return env.cluster.getPod('default', name)?.spec.nodeName;
}

describe('extenders in the scheduling cycle', () => {
  it('narrow the feasible nodes after the plugins', async () => {
    const ext = new FakeExtender();
    ext.failed = { 'node-a': 'extender says no' };
    ext.unresolvable = { 'node-b': 'no gpu here' };
    const env = await newEnv([ext]);
    env.cluster.create(makePod('p', { requests: { cpu: '1' } }));
    await scheduleAll(env);
    assert.equal(nodeOf(env, 'p'), 'node-c');
    assert.deepEqual(ext.calls, ['filter p [node-a node-b node-c]'], 'one feasible node left: no scoring');
  });

  it('report their rejections per node in the FitError, and mark the pod as rejected by Extender', async () => {
    const ext = new FakeExtender();
    ext.failed = { 'node-a': 'extender says no', 'node-c': 'extender says no' };
    ext.unresolvable = { 'node-b': 'no gpu here', 'node-c': 'no gpu here' };
    const env = await newEnv([ext]);
    env.cluster.create(makePod('p'));
    await scheduleAll(env);
    assert.equal(nodeOf(env, 'p'), undefined);
    const a = env.attempts.at(-1)!;
    assert.equal(a.outcome, 'Unschedulable');
    // node-c is in both maps: the unresolvable verdict wins.
    assert.match(a.message, /^0\/3 nodes are available: 1 extender says no, 2 no gpu here\. preemption: /);
    assert.ok(a.diagnosis!.unschedulablePlugins.has('Extender'));
    assert.equal(a.diagnosis!.nodeToStatus.get('node-b').code, 3 /* UnschedulableAndUnresolvable */);
  });

  it('are asked in order, each with the nodes the one before left', async () => {
    const first = new FakeExtender('http://first');
    first.failed = { 'node-a': 'first says no' };
    const second = new FakeExtender('http://second');
    second.failed = { 'node-b': 'second says no' };
    const env = await newEnv([first, second]);
    env.cluster.create(makePod('p'));
    await scheduleAll(env);
    assert.equal(nodeOf(env, 'p'), 'node-c');
    assert.deepEqual(first.calls, ['filter p [node-a node-b node-c]']);
    assert.deepEqual(second.calls, ['filter p [node-b node-c]']);
  });

  it('add their scores, scaled by 10 and weighted, to the plugins\' totals', async () => {
    const ext = new FakeExtender();
    ext.scores = { 'node-b': 10, 'node-c': 5 };
    ext.weight = 2;
    const env = await newEnv([ext]);
    env.cluster.create(makePod('p', { requests: { cpu: '1' } }));
    await scheduleAll(env);
    assert.equal(nodeOf(env, 'p'), 'node-b');
    const scores = env.attempts.at(-1)!.result!.scores;
    const b = scores.find((s) => s.name === 'node-b')!;
    const a = scores.find((s) => s.name === 'node-a')!;
    assert.deepEqual(b.scores.at(-1), { name: 'http://extender', score: 200, raw: 10, normalized: 100, weight: 2 });
    assert.equal(b.totalScore - a.totalScore, 200, 'the three empty nodes tie on the plugins');
  });

  it('fail the attempt with an error, unless the extender is ignorable', async () => {
    const ext = new FakeExtender();
    ext.filterError = new Error('connection refused');
    const env = await newEnv([ext]);
    env.cluster.create(makePod('p'));
    await scheduleAll(env);
    assert.equal(nodeOf(env, 'p'), undefined);
    const a = env.attempts.at(-1)!;
    assert.equal(a.outcome, 'Error');
    assert.equal(a.message, 'connection refused');
    assert.equal(env.cluster.getPod('default', 'p')!.status?.conditions?.find((c) => c.type === 'PodScheduled')?.reason, 'SchedulerError');

    const ignorable = new FakeExtender();
    ignorable.filterError = new Error('connection refused');
    ignorable.ignorable = true;
    const env2 = await newEnv([ignorable]);
    env2.cluster.create(makePod('p'));
    await scheduleAll(env2);
    assert.ok(nodeOf(env2, 'p'), 'scheduled without the ignorable extender');
  });

  it('give no scores when prioritize fails, and the pod is still scheduled', async () => {
    const ext = new FakeExtender();
    ext.prioritizeError = new Error('timeout');
    const env = await newEnv([ext]);
    env.cluster.create(makePod('p'));
    await scheduleAll(env);
    assert.ok(nodeOf(env, 'p'));
    assert.ok(env.attempts.at(-1)!.result!.scores.every((s) => s.scores.every((x) => x.name !== 'http://extender')));
  });

  it('are skipped for pods without their managed resources', async () => {
    const ext = new FakeExtender();
    ext.managed = 'example.com/gpu';
    ext.failed = { 'node-a': 'no', 'node-b': 'no', 'node-c': 'no' };
    const env = await newEnv([ext]);
    env.cluster.create(makePod('plain'));
    await scheduleAll(env);
    assert.ok(nodeOf(env, 'plain'));
    assert.deepEqual(ext.calls, []);
  });

  it('retry a pod they rejected on any cluster event', async () => {
    const ext = new FakeExtender();
    ext.failed = { 'node-a': 'busy', 'node-b': 'busy', 'node-c': 'busy' };
    const env = await newEnv([ext]);
    env.cluster.create(makePod('p'));
    await scheduleAll(env);
    assert.equal(nodeOf(env, 'p'), undefined);
    ext.failed = {};
    // A label change no plugin's hint cares about; only Extender's wildcard registration moves the pod.
    const node = env.cluster.get<ReturnType<typeof makeNode>>('Node', '', 'node-a')!;
    env.cluster.update({ ...node, metadata: { ...node.metadata, labels: { ...node.metadata.labels, touched: 'yes' } } });
    env.clock.advance(1000);
    env.sched.queue.flushBackoffQCompleted();
    await scheduleAll(env);
    assert.ok(nodeOf(env, 'p'), 'scheduled after the event');
  });
});

describe('extenders in the binding cycle', () => {
  it('bind the pod instead of the Bind plugins', async () => {
    const ext = new FakeExtender();
    ext.binder = true;
    const env = await newEnv([ext]);
    ext.onBind = (b) => env.cluster.bind(env.cluster.getPod(b.podNamespace, b.podName)!, b.node);
    env.cluster.create(makePod('p', { uid: 'uid-p' }));
    await scheduleAll(env);
    assert.equal(ext.bindings.length, 1);
    assert.deepEqual(ext.bindings[0], { podName: 'p', podNamespace: 'default', podUID: 'uid-p', node: nodeOf(env, 'p') });
  });

  it('fail the binding on an error (the pod is retried), or pass it on when ignorable', async () => {
    const ext = new FakeExtender();
    ext.binder = true;
    ext.bindError = new Error('bind refused');
    const env = await newEnv([ext]);
    env.cluster.create(makePod('p'));
    await scheduleAll(env);
    assert.equal(nodeOf(env, 'p'), undefined);
    assert.equal(env.sched.cache.isAssumedPod(env.cluster.getPod('default', 'p')!), false, 'the assumed pod was forgotten');

    const ignorable = new FakeExtender();
    ignorable.binder = true;
    ignorable.ignorable = true;
    ignorable.bindError = new Error('bind refused');
    const env2 = await newEnv([ignorable]);
    env2.cluster.create(makePod('p'));
    await scheduleAll(env2);
    assert.ok(nodeOf(env2, 'p'), 'bound by DefaultBinder after the ignorable extender failed');
  });
});

describe('the loop with extenders', () => {
  it('pops no pod while a cycle waits for an extender', async () => {
    const release: (() => void)[] = [];
    const ext = new FakeExtender();
    ext.filter = (pod, nodes) => {
      ext.calls.push(`filter ${pod.metadata.name}`);
      return new Promise((resolve) => release.push(() => resolve({ feasible: [...nodes], failed: {}, failedAndUnresolvable: {} })));
    };
    const env = await newEnv([ext]);
    env.cluster.create(makePod('p1'));
    env.cluster.create(makePod('p2'));
    const drained = env.sched.loop.drain();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(ext.calls, ['filter p1'], 'the second pod waits for the first cycle');
    assert.equal(env.sched.queue.activeLength, 1);
    release.shift()!();
    for (let i = 0; i < 10 && release.length === 0; i++) await new Promise((r) => setImmediate(r));
    assert.ok(nodeOf(env, 'p1'), 'the first pod is bound once its cycle is over');
    assert.deepEqual(ext.calls, ['filter p1', 'prioritize p1 [node-a node-b node-c]', 'filter p2']);
    release.shift()!();
    await drained;
    assert.ok(nodeOf(env, 'p2'));
  });
});

describe('extenders in preemption', () => {
  /** Two full nodes, each running one low-priority pod; a high-priority pod that needs one of them. */
  async function fullCluster(ext: FakeExtender): Promise<Env> {
    const env = await newEnv([ext], ['node-a', 'node-b'], '1');
    env.cluster.create(makePod('low-a', { node: 'node-a', requests: { cpu: '1' }, priority: 0 }));
    env.cluster.create(makePod('low-b', { node: 'node-b', requests: { cpu: '1' }, priority: 0 }));
    env.cluster.create(makePod('high', { requests: { cpu: '1' }, priority: 100 }));
    return env;
  }

  it('narrow the candidates to the nodes the extender keeps', async () => {
    const ext = new FakeExtender();
    ext.preemptKeep = ['node-b'];
    const env = await fullCluster(ext);
    await scheduleAll(env);
    assert.ok(ext.calls.includes('preempt high [node-a node-b]'));
    assert.equal(env.attempts.find((a) => a.outcome === 'Unschedulable')!.nominatedNode, 'node-b');
    assert.ok(env.cluster.getPod('default', 'low-a'), 'the other node keeps its pod');
    assert.equal(env.cluster.getPod('default', 'low-b'), undefined, 'the kept node\'s victim is evicted');
    assert.equal(nodeOf(env, 'high'), 'node-b');
  });

  it('fail preemption on an extender error, and on a kept node without victims', async () => {
    const failing = new FakeExtender();
    failing.preemptKeep = null;
    failing.preemptError = new Error('extender down');
    const env = await fullCluster(failing);
    await scheduleAll(env);
    assert.match(env.attempts.at(-1)!.message, /preemption: extender down$/);
    assert.ok(env.cluster.getPod('default', 'low-a') && env.cluster.getPod('default', 'low-b'), 'no pod was evicted');

    const empty = new FakeExtender();
    empty.preemptKeep = null;
    empty.preemptWithoutVictims = true;
    const env2 = await fullCluster(empty);
    await scheduleAll(env2);
    assert.match(env2.attempts.at(-1)!.message, /preemption: expected at least one victim pod on node "node-[ab]"$/);
  });

  it('are skipped when ignorable and failing', async () => {
    const ext = new FakeExtender();
    ext.preemptKeep = null;
    ext.preemptError = new Error('extender down');
    ext.ignorable = true;
    const env = await fullCluster(ext);
    await scheduleAll(env);
    assert.ok(env.attempts.find((a) => a.outcome === 'Unschedulable')!.nominatedNode, 'preemption went ahead without the extender');
    assert.ok(nodeOf(env, 'high'));
  });
});
