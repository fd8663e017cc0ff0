// Scenarios of upstream's schedule_one_test.go for the algorithm: numFeasibleNodesToFind,
// selectHost, the filter walk (start index, node subsets, nominated node), FitError.
import { defaultFeatures } from '../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle_state.js';
import { ErrNoNodesAvailable, FitError } from '../framework/runtime/fit_error.js';
import type { AnyPlugin, QueuedPodInfo } from '../framework/interfaces.js';
import type { NodeInfo } from '../framework/node_info.js';
import { PodInfo } from '../framework/pod_info.js';
import { Registry } from '../framework/registry.js';
import { Framework } from '../framework/runtime/framework.js';
import type { PluginsConfig } from '../framework/runtime/profile_plugins.js';
import { Status } from '../framework/status.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { MapObjectLister } from '../framework/object_lister.js';
import { numFeasibleNodesToFind, schedulePod, selectHost, type AlgorithmState, type ScheduleResult } from './schedule_pod.js';

describe('numFeasibleNodesToFind', () => {
  const cases: { name: string; profile?: number; global?: number; nodes: number; want: number }[] = [
    { name: 'not set, not more than 100 nodes', nodes: 10, want: 10 },
    { name: 'profile set, not more than 100 nodes', profile: 40, nodes: 10, want: 10 },
    { name: 'not set, 1000 nodes: 50% - 1000/125', nodes: 1000, want: 420 },
    { name: 'profile set, 1000 nodes', profile: 40, nodes: 1000, want: 400 },
    { name: 'global and profile set: the profile wins', global: 100, profile: 70, nodes: 1000, want: 700 },
    { name: 'global set', global: 40, nodes: 1000, want: 400 },
    { name: 'not set, more than 50*125 nodes: floor of 5%', nodes: 6000, want: 300 },
    { name: 'profile set, more than 50*125 nodes', profile: 40, nodes: 6000, want: 2400 },
    { name: 'never fewer than 100', profile: 1, nodes: 150, want: 100 },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(numFeasibleNodesToFind(c.profile ?? c.global ?? 0, c.nodes), c.want));
  }
});

/** selectHost over (name, total) pairs, with every top-scored node. */
function pick(entries: readonly [string, number][], a: Pick<AlgorithmState, 'random' | 'tieBreakByName' | 'oneWorker'>): { host: string; best: string[] } {
  const best: string[] = [];
  const host = selectHost(entries.map(([name]) => ({ name })), entries.map(([, total]) => total), a, best);
  return { host, best };
}

describe('selectHost', () => {
  it('picks the single highest score and lists every node with it', () => {
    const r = pick([['a', 10], ['b', 30], ['c', 20]], { random: seededRandom(1), tieBreakByName: false });
    assert.deepEqual(r, { host: 'b', best: ['b'] });
  });

  // Expected picks computed by Go's container/heap (heap.Init, then Pop) over the same totals in
  // the same order with every Randomizer 0, as v1.37.2's selectHost runs without extenders.
  const heapCases: { totals: number[]; want: string }[] = [
    { totals: [5, 5, 5], want: 'a' },
    { totals: [1, 5, 5, 5], want: 'b' },
    { totals: [5, 9, 9, 1, 9], want: 'b' },
    { totals: [3, 7, 7, 2, 7, 7, 1, 7], want: 'b' },
    { totals: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0], want: 'a' },
    { totals: [1, 2, 3, 4, 4, 4], want: 'd' },
  ];
  for (const c of heapCases) {
    it(`with one worker and no extender takes the heap's top among ties, drawing nothing: [${c.totals.join(' ')}] -> ${c.want}`, () => {
      const list = c.totals.map((t, i): [string, number] => [String.fromCharCode(97 + i), t]);
      const r = pick(list, { random: () => assert.fail('no draw without extenders'), tieBreakByName: false, oneWorker: true });
      assert.equal(r.host, c.want);
      assert.deepEqual(r.best, list.filter(([, t]) => t === Math.max(...c.totals)).map(([n]) => n));
    });
  }

  for (const oneWorker of [true, false]) {
    it(`with extenders (${oneWorker ? 'one worker' : 'parallel Filter'}) each node an extender scored draws a randomizer: the highest wins a tie, an unscored node loses it`, () => {
      const nodes = ['a', 'b', 'c', 'd'].map((name) => ({ name }));
      const draws = [0.2, 0.7, 0.1];
      let k = 0;
      // a is not scored by any extender (randomizer 0); b and c draw 0.2 and 0.7; d is scored but not a tie.
      const host = selectHost(nodes, [9, 9, 9, 1], { random: () => draws[k++] ?? 0.5, tieBreakByName: false, oneWorker }, null, (i) => i > 0);
      assert.equal(host, 'c');
      assert.ok(k >= 3, 'one draw per scored node, in node order');
    });
  }

  it('with a parallel Filter samples uniformly among ties with the injected random source', () => {
    const list: [string, number][] = [['a', 5], ['b', 9], ['c', 9], ['d', 1], ['e', 9]];
    const random = seededRandom(99);
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const { host, best } = pick(list, { random, tieBreakByName: false });
      assert.deepEqual(best, ['b', 'c', 'e']);
      counts.set(host, (counts.get(host) ?? 0) + 1);
    }
    assert.deepEqual([...counts.keys()].sort(), ['b', 'c', 'e']);
    for (const n of counts.values()) assert.ok(n > 850 && n < 1150, `uneven: ${[...counts.entries()].join(' ')}`);
  });

  it('with extenders scoring every node, ties are uniform at either parallelism', () => {
    const nodes = ['a', 'b', 'c', 'd'].map((name) => ({ name }));
    const totals = [9, 9, 9, 1];
    const uniform = new Map<string, number>();
    const random = seededRandom(7);
    for (let i = 0; i < 3000; i++) {
      const h = selectHost(nodes, totals, { random, tieBreakByName: false, oneWorker: i % 2 === 0 }, null, () => true);
      uniform.set(h, (uniform.get(h) ?? 0) + 1);
    }
    assert.deepEqual([...uniform.keys()].sort(), ['a', 'b', 'c']);
    for (const n of uniform.values()) assert.ok(n > 850 && n < 1150, `uneven: ${[...uniform.entries()].join(' ')}`);
  });

  it('with a parallel Filter draws once and takes the tie at the draw\'s place among the ties, in node order', () => {
    const list: [string, number][] = [['a', 1], ['x', 0], ['b', 1], ['c', 1]];
    const once = (u: number): string => {
      let draws = 0;
      const host = pick(list, { random: () => (draws++, u), tieBreakByName: false }).host;
      assert.equal(draws, 1, 'one draw, however many ties');
      return host;
    };
    assert.deepEqual([0, 0.34, 0.5, 0.67, 0.99].map(once), ['a', 'b', 'b', 'c', 'c']);
  });

  it('with tie-break by name takes the first best node by name', () => {
    const r = pick([['zeta', 3], ['beta', 3], ['alpha', 1]], { random: () => 0, tieBreakByName: true });
    assert.deepEqual(r, { host: 'beta', best: ['zeta', 'beta'] });
  });

  it('fails on an empty list', () => {
    assert.throws(() => pick([], { random: () => 0, tieBreakByName: false }), /empty priorityList/);
  });
});

// ---- schedulePod over a small framework ----

const less = (a: QueuedPodInfo, b: QueuedPodInfo) => a.timestamp < b.timestamp;

function frameworkWith(plugins: AnyPlugin[], config: PluginsConfig, percentage?: number): Framework {
  const all: AnyPlugin[] = [{ name: 'QueueSort', less }, { name: 'Binder', bind: async () => null }, ...plugins];
  return new Framework(
    { schedulerName: 'default-scheduler', plugins: { queueSort: { enabled: [{ name: 'QueueSort' }] }, bind: { enabled: [{ name: 'Binder' }] }, ...config }, percentageOfNodesToScore: percentage },
    {
      registry: new Registry(all.map((p) => ({ name: p.name, factory: () => p }))),
      snapshot: () => new Snapshot(),
      objects: new MapObjectLister(),
      client: { bind: async () => {}, deletePod: async () => {}, clearNominatedNodeName: async () => {} },
      eventRecorder: { event: () => {} },
      nominator: { nominatedPodsForNode: () => [] },
      clock: new FakeClock(),
      random: () => 0,
      parallelism: 16,
      features: defaultFeatures,
    },
  );
}

/** schedulePod's result, which comes at once without extenders. */
function scheduleNow(...args: Parameters<typeof schedulePod>): ScheduleResult {
  const r = schedulePod(...args);
  if (r instanceof Promise) throw new Error('scheduled asynchronously without extenders');
  return r;
}

const snapshotOf = (names: string[]) => Snapshot.fromObjects([], names.map((n) => makeNode(n)));
const alg = (): AlgorithmState => ({ nextStartNodeIndex: 0, percentageOfNodesToScore: 0, random: () => 0, tieBreakByName: true });
const names = (n: number, prefix = 'n') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

/** Rejects nodes whose name is listed. */
const rejectNodes = (rejected: Set<string>, calls?: string[]): AnyPlugin => ({
  name: 'Reject',
  filter: (_s, _p, ni: NodeInfo) => {
    calls?.push(ni.name);
    return rejected.has(ni.name) ? Status.unschedulable(`node(s) named ${ni.name.slice(0, 1)}`) : null;
  },
});
const constScore: AnyPlugin = { name: 'Const', score: () => 50 };

describe('schedulePod', () => {
  it('fails with ErrNoNodesAvailable when there is no node', () => {
    const f = frameworkWith([], {});
    assert.throws(() => scheduleNow(alg(), f, new CycleState(), new PodInfo(makePod('p')), new Snapshot()), (e) => e === ErrNoNodesAvailable);
  });

  it('a FitError collects every node\'s status and the plugins that rejected', () => {
    const f = frameworkWith([rejectNodes(new Set(['a1', 'b1', 'b2']))], { filter: { enabled: [{ name: 'Reject' }] } });
    try {
      scheduleNow(alg(), f, new CycleState(), new PodInfo(makePod('p')), snapshotOf(['a1', 'b1', 'b2']));
      assert.fail('expected a FitError');
    } catch (e) {
      assert.ok(e instanceof FitError);
      assert.equal(e.message, '0/3 nodes are available: 1 node(s) named a, 2 node(s) named b.');
      assert.deepEqual([...e.diagnosis.unschedulablePlugins], ['Reject']);
      assert.equal(e.diagnosis.nodeToStatus.get('b2').plugin, 'Reject');
    }
  });

  it('stops after numFeasibleNodesToFind feasible nodes and resumes after them next time', () => {
    const calls: string[] = [];
    const f = frameworkWith([rejectNodes(new Set(), calls), constScore], { filter: { enabled: [{ name: 'Reject' }] }, score: { enabled: [{ name: 'Const' }] } });
    const all = names(200);
    const a = alg();
    const r = scheduleNow(a, f, new CycleState(), new PodInfo(makePod('p')), snapshotOf(all));
    assert.equal(r.feasibleNodes, 100);
    assert.equal(r.evaluatedNodes, 100);
    assert.equal(a.nextStartNodeIndex, 100);
    assert.deepEqual(calls.slice(0, 2), ['n000', 'n001']);
    calls.length = 0;
    scheduleNow(a, f, new CycleState(), new PodInfo(makePod('q')), snapshotOf(all));
    assert.equal(calls[0], 'n100');
    assert.equal(a.nextStartNodeIndex, 0);
  });

  it('the profile percentage overrides the global one', () => {
    const f = frameworkWith([constScore], { score: { enabled: [{ name: 'Const' }] } }, 60);
    const a = { ...alg(), percentageOfNodesToScore: 10 };
    const r = scheduleNow(a, f, new CycleState(), new PodInfo(makePod('p')), snapshotOf(names(1000)));
    assert.equal(r.feasibleNodes, 600);
  });

  it('without Score plugins the walk stops at the first feasible node, rotating over calls', () => {
    const f = frameworkWith([rejectNodes(new Set(['n001']))], { filter: { enabled: [{ name: 'Reject' }] } });
    const a = alg();
    const snap = snapshotOf(['n000', 'n001', 'n002']);
    const hosts: string[] = [];
    for (let i = 0; i < 4; i++) hosts.push(scheduleNow(a, f, new CycleState(), new PodInfo(makePod(`p${i}`)), snap).suggestedHost);
    assert.deepEqual(hosts, ['n000', 'n002', 'n000', 'n002']);
  });

  it('walks only the PreFilter subset and reports the others with the absent-node status', () => {
    const only: AnyPlugin = { name: 'Only', preFilter: () => ({ result: { nodeNames: new Set(['b', 'zz']) } }) };
    const calls: string[] = [];
    const f = frameworkWith([only, rejectNodes(new Set(['b']), calls)], { preFilter: { enabled: [{ name: 'Only' }] }, filter: { enabled: [{ name: 'Reject' }] } });
    try {
      scheduleNow(alg(), f, new CycleState(), new PodInfo(makePod('p')), snapshotOf(['a', 'b', 'c']));
      assert.fail('expected a FitError');
    } catch (e) {
      assert.ok(e instanceof FitError);
      assert.deepEqual(calls, ['b']);
      assert.equal(e.message, "0/3 nodes are available: 1 node(s) named b, 2 node(s) didn't satisfy plugin(s) [Only].");
    }
  });

  it('a PreFilter rejection is the whole message', () => {
    const no: AnyPlugin = { name: 'No', preFilter: () => ({ status: Status.unresolvable("node(s) didn't match pod topology spread constraints (missing required label)") }) };
    const f = frameworkWith([no], { preFilter: { enabled: [{ name: 'No' }] } });
    try {
      scheduleNow(alg(), f, new CycleState(), new PodInfo(makePod('p')), snapshotOf(['a', 'b']));
      assert.fail('expected a FitError');
    } catch (e) {
      assert.ok(e instanceof FitError);
      assert.equal(e.message, "0/2 nodes are available: node(s) didn't match pod topology spread constraints (missing required label).");
      assert.deepEqual([...e.diagnosis.unschedulablePlugins], ['No']);
      assert.equal(e.diagnosis.preFilterStatus?.plugin, 'No');
    }
  });

  it('tries the nominated node first and takes it when it fits', () => {
    const calls: string[] = [];
    const f = frameworkWith([rejectNodes(new Set(), calls), constScore], { filter: { enabled: [{ name: 'Reject' }] }, score: { enabled: [{ name: 'Const' }] } });
    const pod = new PodInfo({ ...makePod('p'), status: { nominatedNodeName: 'c' } });
    const r = scheduleNow(alg(), f, new CycleState(), pod, snapshotOf(['a', 'b', 'c']));
    assert.equal(r.suggestedHost, 'c');
    assert.deepEqual(calls, ['c']);
    assert.equal(r.evaluatedNodes, 1);
    assert.deepEqual(r.scores, [], 'one feasible node: no scoring');
  });

  it('when the nominated node does not fit, walks all nodes', () => {
    const calls: string[] = [];
    const f = frameworkWith([rejectNodes(new Set(['c']), calls), constScore], { filter: { enabled: [{ name: 'Reject' }] }, score: { enabled: [{ name: 'Const' }] } });
    const pod = new PodInfo({ ...makePod('p'), status: { nominatedNodeName: 'c' } });
    const r = scheduleNow(alg(), f, new CycleState(), pod, snapshotOf(['a', 'b', 'c']));
    assert.deepEqual(calls, ['c', 'a', 'b', 'c']);
    assert.deepEqual(r.bestNodes, ['a', 'b']);
    assert.equal(r.evaluatedNodes, 3);
  });

  it('a Filter error aborts the attempt but still advances the start index', () => {
    const boom: AnyPlugin = { name: 'Boom', filter: (_s, _p, ni) => (ni.name === 'b' ? Status.error('disk on fire') : Status.unschedulable('no')) };
    const f = frameworkWith([boom], { filter: { enabled: [{ name: 'Boom' }] } });
    const a = alg();
    assert.throws(() => scheduleNow(a, f, new CycleState(), new PodInfo(makePod('p')), snapshotOf(['a', 'b', 'c'])), /running "Boom" filter plugin: disk on fire/);
    assert.equal(a.nextStartNodeIndex, 1);
  });

  it('scores feasible nodes and records the best ones', () => {
    const byName: AnyPlugin = { name: 'ByName', score: (_s, _p, ni) => ({ a: 10, b: 90, c: 90 } as Record<string, number>)[ni.name]! };
    const f = frameworkWith([byName], { score: { enabled: [{ name: 'ByName', weight: 2 }] } });
    const r = scheduleNow(alg(), f, new CycleState(), new PodInfo(makePod('p')), snapshotOf(['a', 'b', 'c']));
    assert.deepEqual(r.bestNodes, ['b', 'c']);
    assert.equal(r.suggestedHost, 'b');
    assert.deepEqual(r.scores.map((s) => s.totalScore), [20, 180, 180]);
  });
});

describe('scoring by totals (recordScores off)', () => {
  it('picks the same host, with the same random draws, as the full score lists', () => {
    const byName: AnyPlugin = { name: 'Mod', score: (_s, _p, ni) => (Number(ni.name.slice(1)) * 7) % 5 };
    const other: AnyPlugin = { name: 'Other', score: (_s, _p, ni) => (Number(ni.name.slice(1)) * 3) % 4 };
    const config: PluginsConfig = { score: { enabled: [{ name: 'Mod', weight: 2 }, { name: 'Other', weight: 1 }] } };
    const snapshot = snapshotOf(names(60));
    for (const tieBreakByName of [false, true]) {
      const full: AlgorithmState = { ...alg(), random: seededRandom(5), tieBreakByName, recordScores: true };
      const lean: AlgorithmState = { ...alg(), random: seededRandom(5), tieBreakByName, recordScores: false };
      for (let i = 0; i < 30; i++) {
        const pod = new PodInfo(makePod(`p${i}`));
        const a = scheduleNow(full, frameworkWith([byName, other], config), new CycleState(), pod, snapshot);
        const b = scheduleNow(lean, frameworkWith([byName, other], config), new CycleState(), pod, snapshot);
        assert.equal(b.suggestedHost, a.suggestedHost);
        assert.ok(a.bestNodes.includes(b.suggestedHost));
        assert.deepEqual(b.bestNodes, [b.suggestedHost], 'not recorded: just the host');
        assert.deepEqual(b.scores, []);
        assert.equal(b.feasibleNodes, a.feasibleNodes);
      }
    }
  });
});
