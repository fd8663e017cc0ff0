// The scheduling loop's rules: one cycle at a time (an extender's answer is awaited before the
// next pop), binding cycles beside the next cycles, drain until nothing is left, and real time
// woken by the queue instead of polling.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryCluster } from '../cluster/memory/store.js';
import type { AnyPlugin, Handle, PermitOutcome, QueuedPodInfo } from '../framework/interfaces.js';
import type { PodInfo } from '../framework/pod_info.js';
import { Registry } from '../framework/registry.js';
import { Status } from '../framework/status.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { SchedulingLoop, type SchedulingCycles } from './loop.js';
import { Scheduler } from './scheduler.js';

const turn = () => new Promise<void>((r) => setImmediate(r));

/** A stand-in for the Scheduler: hands out the given cycle results and counts pops. */
class ScriptedCycles implements SchedulingCycles {
  pops = 0;
  bindingsInFlight = 0;
  backgroundInFlight = 0;
  constructor(readonly script: (boolean | Promise<void>)[]) {}
  scheduleOne(): boolean | Promise<void> {
    this.pops++;
    return this.script.shift() ?? false;
  }
  waitForBindings(): Promise<void> {
    return Promise.resolve();
  }
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('SchedulingLoop', () => {
  it('pops nothing while a scheduling cycle waits for an extender', async () => {
    const extender = gate();
    const cycles = new ScriptedCycles([extender.promise, true, true]);
    const loop = new SchedulingLoop(cycles);
    const drained = loop.drain();
    for (let i = 0; i < 5; i++) await turn();
    assert.equal(cycles.pops, 1, 'the next pod waits for the answer');
    extender.open();
    await drained;
    assert.equal(cycles.pops, 4, 'then the other two pods, and one empty pop');
  });

  it('in real time sleeps until woken, without polling, and stop ends it', async () => {
    const cycles = new ScriptedCycles([]);
    const loop = new SchedulingLoop(cycles);
    loop.start();
    for (let i = 0; i < 10; i++) await turn();
    assert.equal(cycles.pops, 1, 'one empty pop, then asleep');
    assert.ok(loop.isIdle);
    cycles.script.push(true);
    loop.wake();
    for (let i = 0; i < 10; i++) await turn();
    assert.equal(cycles.pops, 3, 'woken: the pod, then an empty pop');
    assert.ok(loop.isIdle);
    await loop.stop();
    assert.ok(!loop.isRunning);
    loop.wake();
    await turn();
    assert.equal(cycles.pops, 3, 'nothing popped once stopped');
  });

  it('stop waits for the cycle in flight and pops nothing after it', async () => {
    const extender = gate();
    const cycles = new ScriptedCycles([extender.promise, true]);
    const loop = new SchedulingLoop(cycles);
    loop.start();
    await turn();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await turn();
    assert.equal(stopped, false, 'the cycle waiting for its extender is not cut off');
    extender.open();
    await stopping;
    assert.equal(cycles.pops, 1);
  });
});

// ---- over a Scheduler ----

const less = (a: QueuedPodInfo, b: QueuedPodInfo) => a.timestamp < b.timestamp;

/**
 * A gang of two: the first member waits at Permit until the second arrives, which lets both go.
 * Were bindings awaited one by one, the first would wait forever.
 */
function gangPermit(calls: string[]): (args: unknown, handle: Handle) => AnyPlugin {
  return (_args, handle) => ({
    name: 'Gang',
    permit: (_s, pod: PodInfo): PermitOutcome => {
      let waiting: string | null = null;
      handle.iterateOverWaitingPods((wp) => (waiting = wp.pod.metadata.uid ?? null));
      if (waiting === null) {
        calls.push(`${pod.name} waits`);
        return { status: Status.wait(), timeoutMs: 60_000 };
      }
      calls.push(`${pod.name} releases the gang`);
      handle.getWaitingPod(waiting)!.allow('Gang');
      return { status: null, timeoutMs: 0 };
    },
  });
}

async function schedulerWith(extra: AnyPlugin[], plugins: Record<string, { enabled: { name: string }[] }>, calls: string[] = []) {
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock });
  const all: AnyPlugin[] = [{ name: 'Sort', less }, ...extra];
  const binder = {
    name: 'Binder',
    factory: (_a: unknown, h: Handle): AnyPlugin => ({
      name: 'Binder',
      bind: async (_s, p: PodInfo, node: string) => {
        try {
          await h.client().bind(p.pod, node);
          return null;
        } catch (err) {
          return Status.error(err as Error);
        }
      },
    }),
  };
  const registry = new Registry([
    ...all.map((p) => ({ name: p.name, factory: () => p })),
    binder,
    { name: 'Gang', factory: gangPermit(calls) },
  ]);
  const sched = Scheduler.fromConfig({
    profiles: [{ schedulerName: 'default-scheduler', plugins: { queueSort: { enabled: [{ name: 'Sort' }] }, bind: { enabled: [{ name: 'Binder' }] }, ...plugins } }],
  }, { registry, client: cluster, clock, random: seededRandom(1) });
  await sched.start();
  cluster.create(makeNode('n1'));
  return { clock, cluster, sched };
}

describe('SchedulingLoop over a Scheduler', () => {
  it('drain runs binding cycles beside the next scheduling cycles: a gang waiting at Permit completes', { timeout: 5000 }, async () => {
    const calls: string[] = [];
    const { cluster, sched } = await schedulerWith([], { permit: { enabled: [{ name: 'Gang' }] } }, calls);
    cluster.create(makePod('first'));
    cluster.create(makePod('second'));
    await sched.loop.drain();
    assert.deepEqual(calls, ['first waits', 'second releases the gang']);
    assert.equal(cluster.getPod('default', 'first')?.spec.nodeName, 'n1');
    assert.equal(cluster.getPod('default', 'second')?.spec.nodeName, 'n1');
    assert.equal(sched.bindingsInFlight, 0);
    sched.stop();
  });

  it('drain ends when nothing can be popped and nothing is in flight, and picks up what a failed binding requeued later', async () => {
    const { clock, cluster, sched } = await schedulerWith([], {});
    cluster.injectFault('bind', 409, 1, 'conflict');
    const p = cluster.create(makePod('p'));
    await sched.loop.drain();
    assert.equal(sched.bindingsInFlight, 0);
    assert.equal(sched.queue.whereIs(p.metadata.uid!), 'errorBackoff', 'retried after backoff, which the drain does not wait for');
    clock.advance(2000);
    await sched.loop.drain();
    assert.equal(cluster.getPod('default', 'p')?.spec.nodeName, 'n1');
    sched.stop();
  });

  it('in real time a pod created later is scheduled: the queue wakes the loop', async () => {
    const { cluster, sched } = await schedulerWith([], {});
    sched.loop.start();
    await turn();
    assert.ok(sched.loop.isIdle);
    cluster.create(makePod('late'));
    for (let i = 0; i < 20 && !cluster.getPod('default', 'late')?.spec.nodeName; i++) await turn();
    assert.equal(cluster.getPod('default', 'late')?.spec.nodeName, 'n1');
    await sched.loop.stop();
    sched.stop();
  });
});
