// Scenarios of upstream's runtime/framework_test.go, with tiny fake plugins (objects with a name
// and the methods of the extension points they implement).
import { defaultFeatures, type Features } from '../features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Snapshot } from '../../cache/snapshot.js';
import { MapObjectLister } from '../object_lister.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { FakeClock } from '../../util/clock.js';
import { CycleState, type StateData } from '../cycle_state.js';
import { ActionTypeAll } from '../events.js';
import type { AnyPlugin, NodeScore, PermitOutcome, PreFilterOutcome, QueuedPodInfo } from '../interfaces.js';
import { NodeInfo } from '../node_info.js';
import { PodInfo } from '../pod_info.js';
import { Registry, type PluginDefinition } from '../registry.js';
import { Code, Status } from '../status.js';
import { NodeToStatus } from '../node_to_status.js';
import { Framework, type NodePluginScores, type PluginScoreColumn } from './framework.js';
import type { PluginsConfig } from './profile_plugins.js';

// ---- fake plugins ----

const less = (a: QueuedPodInfo, b: QueuedPodInfo) => a.timestamp < b.timestamp;
const queueSort = (name = 'QueueSort'): AnyPlugin => ({ name, less });
const binder = (name = 'Binder', result: () => Status | null = () => null): AnyPlugin => ({ name, bind: async () => result() });

/** Implements every extension point, like upstream's TestPlugin. */
function everything(name = 'TestPlugin'): AnyPlugin {
  return {
    name,
    less,
    preFilter: () => null,
    filter: () => null,
    postFilter: () => ({ result: null, status: null }),
    preScore: () => null,
    score: () => 1,
    reserve: () => null,
    unreserve: () => {},
    permit: () => ({ status: null, timeoutMs: 0 }),
    preBind: async () => null,
    bind: async () => null,
    postBind: () => {},
  };
}
const scorePlugin = (name: string): AnyPlugin => ({ name, preScore: () => null, score: () => 1 });
const scoreWithNormalize = (name: string): AnyPlugin => ({
  name,
  score: () => 1,
  scoreExtensions: () => ({ normalizeScore: () => null }),
});

interface Options {
  clock?: FakeClock;
  nominated?: Map<string, PodInfo[]>;
  pluginConfig?: { name: string; args?: unknown }[];
  nodes?: NodeInfo[];
  /** The nominator's hasNominatedPods; left out, the nominator has none to offer. */
  hasNominatedPods?: () => boolean;
  features?: Features;
}

function definitions(plugins: AnyPlugin[]): PluginDefinition[] {
  return plugins.map((p) => ({ name: p.name, factory: () => p }));
}

function newFramework(plugins: AnyPlugin[], config: PluginsConfig, o: Options = {}): Framework {
  const snapshot = new Snapshot();
  for (const ni of o.nodes ?? []) {
    snapshot.nodeInfoMap.set(ni.name, ni);
    snapshot.nodeInfoList.push(ni);
  }
  return new Framework(
    { schedulerName: 'test-scheduler', plugins: config, pluginConfig: o.pluginConfig },
    {
      registry: new Registry(definitions(plugins)),
      snapshot: () => snapshot,
      objects: new MapObjectLister(),
      client: { bind: async () => {}, deletePod: async () => {}, clearNominatedNodeName: async () => {} },
      eventRecorder: { event: () => {} },
      nominator: { nominatedPodsForNode: (n) => o.nominated?.get(n) ?? [], ...(o.hasNominatedPods ? { hasNominatedPods: o.hasNominatedPods } : {}) },
      clock: o.clock ?? new FakeClock(),
      random: () => 0,
      parallelism: 16,
      features: o.features ?? defaultFeatures,
    },
  );
}

/** A profile with the QueueSort and Bind every framework needs, plus `rest`. */
function withBasics(rest: PluginsConfig): PluginsConfig {
  return { queueSort: { enabled: [{ name: 'QueueSort' }] }, bind: { enabled: [{ name: 'Binder' }] }, ...rest };
}

const names = (list: readonly { name: string }[]) => list.map((p) => p.name);

function listPlugins(f: Framework): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const lists: [string, readonly { name: string }[]][] = [
    ['queueSort', f.queueSortPlugins], ['preFilter', f.preFilterPlugins], ['filter', f.filterPlugins],
    ['postFilter', f.postFilterPlugins], ['preScore', f.preScorePlugins], ['score', f.scorePlugins],
    ['reserve', f.reservePlugins], ['permit', f.permitPlugins], ['preBind', f.preBindPlugins],
    ['bind', f.bindPlugins], ['postBind', f.postBindPlugins],
  ];
  for (const [ep, list] of lists) if (list.length > 0) out[ep] = names(list);
  return out;
}

const pod = (name = 'p', o: Parameters<typeof makePod>[1] = {}) => new PodInfo(makePod(name, o));

/** A value the runtime gave synchronously (no plugin here waits for I/O). */
function settled<T>(v: T | Promise<T>): T {
  if (v instanceof Promise) throw new Error('answered asynchronously');
  return v;
}

/** RunScorePlugins' totals and per-plugin breakdown, as one list per node. */
function scoresOf(f: Framework, state: CycleState, p: PodInfo, nodes: readonly NodeInfo[]): NodePluginScores[] | Status {
  const totals = new Float64Array(nodes.length);
  const columns: PluginScoreColumn[] = [];
  const s = f.runScorePlugins(state, p, nodes, totals, columns);
  if (s !== null) return s;
  return nodes.map((n, i) => ({ name: n.name, scores: columns.map((c) => ({ name: c.name, score: c.weighted[i]! })), totalScore: totals[i]! }));
}
const node = (name: string) => new NodeInfo(makeNode(name));

// ---- profile construction ----

describe('Framework: multiPoint expansion', () => {
  const all = [everything('TestPlugin'), scorePlugin('ScorePlugin1'), scoreWithNormalize('ScoreWithNormalizePlugin1'), queueSort('QueueSortPlugin'), binder('BindPlugin')];
  const allPoints = (score: string[], preScore: string[]) => ({
    queueSort: ['TestPlugin'], preFilter: ['TestPlugin'], filter: ['TestPlugin'], postFilter: ['TestPlugin'],
    ...(preScore.length ? { preScore } : {}), ...(score.length ? { score } : {}),
    reserve: ['TestPlugin'], permit: ['TestPlugin'], preBind: ['TestPlugin'], bind: ['TestPlugin'], postBind: ['TestPlugin'],
  });
  const cases: { name: string; plugins: PluginsConfig; want: Record<string, string[]>; weights?: Record<string, number> }[] = [
    {
      name: 'plugin expansion',
      plugins: { multiPoint: { enabled: [{ name: 'TestPlugin', weight: 5 }] } },
      want: allPoints(['TestPlugin'], ['TestPlugin']),
      weights: { TestPlugin: 5 },
    },
    {
      name: 'disable MultiPoint plugin at some extension points',
      plugins: {
        multiPoint: { enabled: [{ name: 'TestPlugin' }] },
        preScore: { disabled: [{ name: 'TestPlugin' }] },
        score: { disabled: [{ name: 'TestPlugin' }] },
      },
      want: allPoints([], []),
    },
    {
      name: 'Multiple MultiPoint plugins',
      plugins: { multiPoint: { enabled: [{ name: 'TestPlugin' }, { name: 'ScorePlugin1' }] } },
      want: allPoints(['TestPlugin', 'ScorePlugin1'], ['TestPlugin', 'ScorePlugin1']),
      weights: { TestPlugin: 1, ScorePlugin1: 1 },
    },
    {
      name: 'disable MultiPoint extension',
      plugins: {
        multiPoint: { enabled: [{ name: 'TestPlugin' }, { name: 'ScorePlugin1' }] },
        preScore: { disabled: [{ name: '*' }] },
      },
      want: allPoints(['TestPlugin', 'ScorePlugin1'], []),
    },
    {
      name: 'Reorder MultiPoint plugins (specified extension takes precedence)',
      plugins: {
        multiPoint: { enabled: [{ name: 'ScoreWithNormalizePlugin1' }, { name: 'TestPlugin' }, { name: 'ScorePlugin1' }] },
        score: { enabled: [{ name: 'ScorePlugin1' }, { name: 'TestPlugin' }] },
      },
      want: allPoints(['ScorePlugin1', 'TestPlugin', 'ScoreWithNormalizePlugin1'], ['TestPlugin', 'ScorePlugin1']),
    },
    {
      name: 'Reorder MultiPoint plugins (specified extension only takes precedence when it exists in MultiPoint)',
      plugins: {
        multiPoint: { enabled: [{ name: 'TestPlugin' }, { name: 'ScorePlugin1' }] },
        score: { enabled: [{ name: 'ScoreWithNormalizePlugin1' }, { name: 'ScorePlugin1' }, { name: 'TestPlugin' }] },
      },
      want: allPoints(['ScorePlugin1', 'TestPlugin', 'ScoreWithNormalizePlugin1'], ['TestPlugin', 'ScorePlugin1']),
    },
    {
      name: 'Override MultiPoint plugins weights',
      plugins: {
        multiPoint: { enabled: [{ name: 'TestPlugin' }, { name: 'ScorePlugin1' }] },
        score: { enabled: [{ name: 'ScorePlugin1', weight: 5 }, { name: 'TestPlugin', weight: 3 }] },
      },
      want: allPoints(['ScorePlugin1', 'TestPlugin'], ['TestPlugin', 'ScorePlugin1']),
      weights: { ScorePlugin1: 5, TestPlugin: 3 },
    },
    {
      name: 'disable and enable MultiPoint plugins with *',
      plugins: { multiPoint: { enabled: [{ name: 'QueueSortPlugin' }, { name: 'BindPlugin' }, { name: 'ScorePlugin1' }], disabled: [{ name: '*' }] } },
      want: { queueSort: ['QueueSortPlugin'], preScore: ['ScorePlugin1'], score: ['ScorePlugin1'], bind: ['BindPlugin'] },
      weights: { ScorePlugin1: 1 },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const f = newFramework(all, c.plugins);
      assert.deepEqual(listPlugins(f), c.want);
      for (const [n, w] of Object.entries(c.weights ?? {})) assert.equal(f.scorePluginWeight.get(n), w, `weight of ${n}`);
    });
  }

  it('rejects a plugin listed twice in multiPoint', () => {
    assert.throws(() => newFramework(all, { multiPoint: { enabled: [{ name: 'TestPlugin' }, { name: 'TestPlugin' }] } }), /already registered/);
  });
});

describe('Framework: profile validation', () => {
  const base = [queueSort(), binder(), { name: 'ScoreOnly', score: () => 0 } as AnyPlugin, { name: 'FilterOnly', filter: () => null } as AnyPlugin];
  it('rejects a plugin listed twice at one extension point', () => {
    assert.throws(() => newFramework(base, withBasics({ filter: { enabled: [{ name: 'FilterOnly' }, { name: 'FilterOnly' }] } })), /already registered as "FilterPlugin"/);
  });
  it('rejects a plugin at an extension point it does not implement', () => {
    assert.throws(() => newFramework(base, withBasics({ filter: { enabled: [{ name: 'ScoreOnly' }] } })), /plugin "ScoreOnly" does not extend FilterPlugin plugin/);
  });
  it('rejects an unknown plugin', () => {
    assert.throws(() => newFramework(base, withBasics({ filter: { enabled: [{ name: 'Nope' }] } })), /"Nope" does not exist/);
  });
  it('requires exactly one queue sort plugin', () => {
    assert.throws(() => newFramework(base, { bind: { enabled: [{ name: 'Binder' }] } }),
      { message: 'only one queue sort plugin required for profile with scheduler name "test-scheduler", but got 0' });
    assert.throws(() => newFramework([...base, queueSort('QS2')], { queueSort: { enabled: [{ name: 'QueueSort' }, { name: 'QS2' }] }, bind: { enabled: [{ name: 'Binder' }] } }),
      /but got 2/);
  });
  it('requires a bind plugin', () => {
    assert.throws(() => newFramework(base, { queueSort: { enabled: [{ name: 'QueueSort' }] } }),
      { message: 'at least one bind plugin is needed for profile with scheduler name "test-scheduler"' });
  });
  it('rejects repeated plugin config', () => {
    assert.throws(() => newFramework(base, withBasics({ filter: { enabled: [{ name: 'FilterOnly' }] } }), { pluginConfig: [{ name: 'FilterOnly' }, { name: 'FilterOnly' }] }),
      /repeated config for plugin FilterOnly/);
  });
  it('wraps a factory failure with the plugin name', () => {
    const reg = new Registry([
      { name: 'QueueSort', factory: () => queueSort() },
      { name: 'Binder', factory: () => binder() },
      { name: 'Broken', factory: () => { throw new Error('bad args'); } },
    ]);
    assert.throws(() => new Framework({ schedulerName: 's', plugins: withBasics({ filter: { enabled: [{ name: 'Broken' }] } }) }, {
      registry: reg, snapshot: () => new Snapshot(), objects: new MapObjectLister(),
      client: { bind: async () => {}, deletePod: async () => {}, clearNominatedNodeName: async () => {} },
      eventRecorder: { event: () => {} }, nominator: { nominatedPodsForNode: () => [] }, clock: new FakeClock(), random: () => 0, parallelism: 1, features: defaultFeatures,
    }), { message: 'initializing plugin "Broken": bad args' });
  });
  it('defaults a zero weight to 1 and rejects weights that could overflow the total score', () => {
    const f = newFramework(base, withBasics({ score: { enabled: [{ name: 'ScoreOnly', weight: 0 }] } }));
    assert.equal(f.scorePluginWeight.get('ScoreOnly'), 1);
    assert.throws(() => newFramework([...base, { name: 'Score2', score: () => 0 } as AnyPlugin],
      withBasics({ score: { enabled: [{ name: 'ScoreOnly', weight: Math.floor(Number.MAX_SAFE_INTEGER / 100) }, { name: 'Score2', weight: 1 }] } })),
    /total score of Score plugins could overflow/);
  });
});

describe('Framework: eventsToRegister', () => {
  const profile = (): [AnyPlugin[], PluginsConfig] => [[
    queueSort(), binder(),
    { name: 'NoEvents', filter: () => null },
    { name: 'WithEvents', filter: () => null, eventsToRegister: () => [{ event: { resource: 'Node', actionType: 1 } }] },
    { name: 'ScoreWithEvents', score: () => 0, eventsToRegister: () => [{ event: { resource: 'Node', actionType: 1 } }] },
  ], withBasics({ filter: { enabled: [{ name: 'NoEvents' }, { name: 'WithEvents' }] }, score: { enabled: [{ name: 'ScoreWithEvents' }] } })];

  it('keeps a plugin\'s own events, and ignores score-only plugins', () => {
    const ev = newFramework(...profile()).eventsToRegister();
    assert.deepEqual(ev.get('WithEvents'), [{ event: { resource: 'Node', actionType: 1 } }]);
    assert.equal(ev.has('ScoreWithEvents'), false);
    assert.equal(ev.has('QueueSort'), false);
  });

  // UnrollWildCardResource: what wakes a rejecting plugin that registers no events.
  const unrolled = ['AssignedPod', 'UnscheduledPod', 'Node', 'PersistentVolume', 'PersistentVolumeClaim', 'CSINode', 'CSIDriver', 'CSIStorageCapacity', 'StorageClass', 'ResourceClaim', 'DeviceClass'];
  const cases = [
    { name: 'without GenericWorkload', features: defaultFeatures, want: unrolled },
    { name: 'with GenericWorkload: PodGroup too', features: { ...defaultFeatures, enableGenericWorkload: true }, want: [...unrolled, 'PodGroup'] },
    { name: 'with CompositePodGroup: still no CompositePodGroup', features: { ...defaultFeatures, enableGenericWorkload: true, enableCompositePodGroup: true }, want: [...unrolled, 'PodGroup'] },
  ];
  for (const c of cases) {
    it(`gives a rejecting plugin without EnqueueExtensions upstream's unrolled events, ${c.name}`, () => {
      const got = newFramework(...profile(), { features: c.features }).eventsToRegister().get('NoEvents')!;
      assert.deepEqual(got.map((e) => e.event.resource).sort(), [...c.want].sort());
      assert.ok(got.every((e) => e.event.actionType === ActionTypeAll && e.queueingHintFn === undefined));
    });
  }
});

// ---- extension points ----

class Marker implements StateData {
  constructor(readonly v: number) {}
  clone(): Marker {
    return new Marker(this.v);
  }
}

describe('Framework: RunPreFilterPlugins', () => {
  const nodes = ['a', 'b', 'c', 'd'].map(node);
  const preFilter = (name: string, out: () => PreFilterOutcome | null, calls?: string[]): AnyPlugin => ({
    name,
    preFilter: () => {
      calls?.push(name);
      return out();
    },
    filter: () => null,
  });
  const run = (plugins: AnyPlugin[]) => {
    const f = newFramework([queueSort(), binder(), ...plugins], withBasics({ preFilter: { enabled: plugins.map((p) => ({ name: p.name })) } }));
    const state = new CycleState();
    return { state, r: f.runPreFilterPlugins(state, pod(), nodes) };
  };
  const subset = (...n: string[]) => () => ({ result: { nodeNames: new Set(n) } });

  it('intersects the node subsets of the plugins that return one', () => {
    const { r } = run([preFilter('A', subset('a', 'b', 'c')), preFilter('AllNodes', () => null), preFilter('B', subset('b', 'c', 'd'))]);
    assert.equal(r.status, null);
    assert.deepEqual([...r.nodeNames!].sort(), ['b', 'c']);
    assert.deepEqual(r.pluginsWithNodes, ['A', 'B']);
  });

  it('returns all nodes (null) when no plugin narrows them', () => {
    const { r } = run([preFilter('A', () => null), preFilter('B', () => ({ result: { nodeNames: null } }))]);
    assert.equal(r.nodeNames, null);
    assert.equal(r.status, null);
  });

  it('an empty intersection is UnschedulableAndUnresolvable naming the plugins sorted', () => {
    const { r } = run([preFilter('Zeta', subset('a')), preFilter('Alpha', subset('b'))]);
    assert.equal(r.status?.code, Code.UnschedulableAndUnresolvable);
    assert.deepEqual(r.status?.reasons, ["node(s) didn't satisfy plugin(s) [Alpha Zeta] simultaneously"]);
    assert.deepEqual(r.pluginsWithNodes, ['Zeta', 'Alpha']);
  });

  it('one plugin with an empty subset is named alone', () => {
    const { r } = run([preFilter('Only', subset())]);
    assert.deepEqual(r.status?.reasons, ["node(s) didn't satisfy plugin Only"]);
  });

  it('Unschedulable lets the remaining plugins run and is returned at the end', () => {
    const calls: string[] = [];
    const { r } = run([
      preFilter('First', () => ({ status: Status.unschedulable('first says no') }), calls),
      preFilter('Second', () => null, calls),
    ]);
    assert.deepEqual(calls, ['First', 'Second']);
    assert.equal(r.status?.code, Code.Unschedulable);
    assert.equal(r.status?.plugin, 'First');
    assert.deepEqual(r.status?.reasons, ['first says no']);
  });

  it('UnschedulableAndUnresolvable stops at once', () => {
    const calls: string[] = [];
    const { r } = run([
      preFilter('First', () => ({ status: Status.unresolvable('never') }), calls),
      preFilter('Second', () => null, calls),
    ]);
    assert.deepEqual(calls, ['First']);
    assert.equal(r.status?.code, Code.UnschedulableAndUnresolvable);
    assert.equal(r.status?.plugin, 'First');
    assert.deepEqual(r.pluginsWithNodes, []);
  });

  it('an error status is wrapped with the plugin name', () => {
    const { r } = run([preFilter('Broken', () => ({ status: Status.error('boom') }))]);
    assert.equal(r.status?.code, Code.Error);
    assert.equal(r.status?.message(), 'running PreFilter plugin "Broken": boom');
    assert.equal(r.status?.plugin, 'Broken');
  });

  it('Skip marks the plugin so its Filter and PreFilterExtensions are skipped, even when another rejects', () => {
    const filtered: string[] = [];
    const added: string[] = [];
    const skipper: AnyPlugin = {
      name: 'Skipper',
      preFilter: () => ({ status: Status.skip() }),
      preFilterExtensions: () => ({ addPod: () => (added.push('Skipper'), null), removePod: () => null }),
      filter: () => (filtered.push('Skipper'), null),
    };
    const other: AnyPlugin = {
      name: 'Other',
      preFilter: () => null,
      preFilterExtensions: () => ({ addPod: () => (added.push('Other'), null), removePod: () => null }),
      filter: () => (filtered.push('Other'), null),
    };
    const f = newFramework([queueSort(), binder(), skipper, other],
      withBasics({ preFilter: { enabled: [{ name: 'Skipper' }, { name: 'Other' }] }, filter: { enabled: [{ name: 'Skipper' }, { name: 'Other' }] } }));
    const state = new CycleState();
    const r = f.runPreFilterPlugins(state, pod(), nodes);
    assert.equal(r.status, null);
    assert.deepEqual([...state.skipFilterPlugins], ['Skipper']);
    assert.equal(f.runFilterPlugins(state, pod(), nodes[0]!), null);
    assert.deepEqual(filtered, ['Other']);
    f.runPreFilterExtensionAddPod(state, pod(), pod('q'), nodes[0]!);
    assert.deepEqual(added, ['Other']);

    const again = new CycleState();
    f.runPreFilterPlugins(again, pod('p2'), nodes);
    assert.equal(again.skipFilterPlugins, state.skipFilterPlugins, 'pods skipping the same plugins share one set');

    const state2 = new CycleState();
    const rejecting: AnyPlugin = { name: 'Rejecting', preFilter: () => ({ status: Status.unschedulable('no') }) };
    const f2 = newFramework([queueSort(), binder(), skipper, rejecting], withBasics({ preFilter: { enabled: [{ name: 'Skipper' }, { name: 'Rejecting' }] } }));
    assert.equal(f2.runPreFilterPlugins(state2, pod(), nodes).status?.code, Code.Unschedulable);
    assert.deepEqual([...state2.skipFilterPlugins], ['Skipper']);

    // As upstream (a deferred SetSkipFilterPlugins), also when PreFilter stops at once.
    const state3 = new CycleState();
    const unresolvable: AnyPlugin = { name: 'Unresolvable', preFilter: () => ({ status: Status.unresolvable('never') }) };
    const f3 = newFramework([queueSort(), binder(), skipper, unresolvable], withBasics({ preFilter: { enabled: [{ name: 'Skipper' }, { name: 'Unresolvable' }] } }));
    assert.equal(f3.runPreFilterPlugins(state3, pod(), nodes).status?.code, Code.UnschedulableAndUnresolvable);
    assert.deepEqual([...state3.skipFilterPlugins], ['Skipper']);
  });
});

describe('Framework: RunFilterPlugins', () => {
  const filter = (name: string, s: () => Status | null, calls: string[]): AnyPlugin => ({ name, filter: () => (calls.push(name), s()) });
  const make = (plugins: AnyPlugin[]) => newFramework([queueSort(), binder(), ...plugins], withBasics({ filter: { enabled: plugins.map((p) => ({ name: p.name })) } }));

  it('stops at the first rejection and names its plugin', () => {
    const calls: string[] = [];
    const f = make([filter('Pass', () => null, calls), filter('Reject', () => Status.unschedulable('nope'), calls), filter('Never', () => null, calls)]);
    const s = f.runFilterPlugins(new CycleState(), pod(), node('n'));
    assert.deepEqual(calls, ['Pass', 'Reject']);
    assert.equal(s?.code, Code.Unschedulable);
    assert.equal(s?.plugin, 'Reject');
  });

  const throwing = (name: string, calls: string[]): AnyPlugin => ({
    name,
    filter: () => {
      calls.push(name);
      throw new Error('broken');
    },
  });
  const walks: { name: string; plugins: (calls: string[]) => AnyPlugin[]; want: string | null; ran: string[] }[] = [
    { name: 'all pass, a Success status too', plugins: (c) => [filter('A', () => null, c), filter('B', () => new Status(Code.Success, []), c)], want: null, ran: ['A', 'B'] },
    { name: 'a throw is an error status naming its plugin; later plugins do not run', plugins: (c) => [filter('A', () => null, c), throwing('G', c), filter('F', () => Status.unschedulable('no'), c)], want: 'running "G" filter plugin: broken', ran: ['A', 'G'] },
    { name: 'no Filter plugins', plugins: () => [], want: null, ran: [] },
  ];
  for (const c of walks) {
    it(`untimed: ${c.name}`, () => {
      const ran: string[] = [];
      const s = make(c.plugins(ran)).runFilterPlugins(new CycleState(), pod(), node('n'));
      assert.equal(s === null ? null : s.message(), c.want);
      assert.deepEqual(ran, c.ran);
    });
  }

  it('turns a status other than success or rejection into an error', () => {
    const f = make([filter('Odd', () => new Status(Code.Error, ['disk on fire']), [])]);
    const s = f.runFilterPlugins(new CycleState(), pod(), node('n'));
    assert.equal(s?.code, Code.Error);
    assert.equal(s?.message(), 'running "Odd" filter plugin: disk on fire');
    assert.equal(s?.plugin, 'Odd');
  });

  it('hands out a shared rejection as it is, and a copy when it names another plugin', () => {
    const shared = Status.constant(Code.Unschedulable, 'Own', 'full');
    const own = make([filter('Own', () => shared, [])]);
    assert.equal(own.runFilterPlugins(new CycleState(), pod(), node('a')), shared);
    assert.equal(own.runFilterPlugins(new CycleState(), pod(), node('b')), shared);
    const renamed = make([filter('Wrapper', () => shared, [])]).runFilterPlugins(new CycleState(), pod(), node('a'));
    assert.notEqual(renamed, shared);
    assert.deepEqual([renamed?.plugin, renamed?.code, renamed?.reasons], ['Wrapper', Code.Unschedulable, ['full']]);
    assert.equal(shared.plugin, 'Own');
  });
});

describe('Framework: Filter plugins that pass the pod on every node (passesEveryNode)', () => {
  const filter = (name: string, calls: string[], passesEveryNode?: () => boolean): AnyPlugin => ({
    name,
    filter: () => (calls.push(name), null),
    ...(passesEveryNode ? { passesEveryNode } : {}),
  });
  const thrown = () => {
    throw new Error('broken');
  };
  const make = (calls: string[]) => {
    const plugins = [filter('Always', calls, () => true), filter('Maybe', calls, () => false), filter('Plain', calls), filter('Broken', calls, thrown)];
    return newFramework([queueSort(), binder(), ...plugins], withBasics({ filter: { enabled: plugins.map((p) => ({ name: p.name })) } }));
  };
  const cases: { name: string; run: (f: Framework, state: CycleState, p: PodInfo) => Status | null; ran: string[] }[] = [
    { name: 'the attempt PreFilter planned leaves it out', run: (f, s, p) => f.runFilterPlugins(s, p, node('n')), ran: ['Maybe', 'Plain', 'Broken'] },
    { name: 'so do clones of its state (nominated pods, preemption)', run: (f, s, p) => f.runFilterPlugins(s.clone(), p, node('n')), ran: ['Maybe', 'Plain', 'Broken'] },
    { name: 'another pod on the same state runs every plugin', run: (f, s) => f.runFilterPlugins(s, pod('other'), node('n')), ran: ['Always', 'Maybe', 'Plain', 'Broken'] },
    { name: 'a state PreFilter did not plan runs every plugin', run: (f, _s, p) => f.runFilterPlugins(new CycleState(), p, node('n')), ran: ['Always', 'Maybe', 'Plain', 'Broken'] },
    {
      name: 'an earlier attempt of the same pod, with the same skipped plugins, runs every plugin once a later one was planned',
      run: (f, s, p) => {
        f.runPreFilterPlugins(new CycleState(), p, []);
        return f.runFilterPlugins(s, p, node('n'));
      },
      ran: ['Always', 'Maybe', 'Plain', 'Broken'],
    },
    { name: 'a NodeInfo without its Node meets every plugin', run: (f, s, p) => f.runFilterPlugins(s, p, new NodeInfo()), ran: ['Always', 'Maybe', 'Plain', 'Broken'] },
    {
      name: 'a cycle recording plugin metrics runs every plugin',
      run: (f, s, p) => {
        s.recordPluginMetrics = true;
        return f.runFilterPlugins(s, p, node('n'));
      },
      ran: ['Always', 'Maybe', 'Plain', 'Broken'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const calls: string[] = [];
      const f = make(calls);
      const state = new CycleState();
      const p = pod();
      assert.equal(f.runPreFilterPlugins(state, p, []).status, null);
      assert.equal(c.run(f, state, p), null);
      assert.deepEqual(calls, c.ran);
    });
  }

  it('a rejection is reported as the full walk reports it', () => {
    const rejectAll = (name: string): AnyPlugin => ({ name, filter: () => Status.unschedulable('no'), passesEveryNode: () => false });
    const plugins = [{ name: 'Always', filter: () => null, passesEveryNode: () => true }, rejectAll('Rejects')];
    const f = newFramework([queueSort(), binder(), ...plugins], withBasics({ filter: { enabled: plugins.map((p) => ({ name: p.name })) } }));
    const state = new CycleState();
    const p = pod();
    f.runPreFilterPlugins(state, p, []);
    const planned = f.runFilterPlugins(state, p, node('n'));
    const full = f.runFilterPlugins(new CycleState(), p, node('n'));
    assert.deepEqual([planned?.code, planned?.plugin, planned?.message()], [full?.code, full?.plugin, full?.message()]);
    assert.equal(planned?.plugin, 'Rejects');
  });
});

describe('Framework: RunFilterPluginsWithNominatedPods', () => {
  /** Fits at most `max` pods per node. */
  const capacity = (max: number): AnyPlugin => ({ name: 'Capacity', filter: (_s, _p, ni) => (ni.pods.length < max ? null : Status.unschedulable('too many pods')) });
  /** Needs another pod on the node, as a pod affinity would. */
  const needsCompany: AnyPlugin = { name: 'NeedsCompany', filter: (_s, _p, ni) => (ni.pods.length > 0 ? null : Status.unschedulable('lonely')) };
  const make = (filters: AnyPlugin[], nominated: PodInfo[], extra: AnyPlugin[] = []) =>
    newFramework([queueSort(), binder(), ...filters, ...extra], withBasics({
      filter: { enabled: filters.map((p) => ({ name: p.name })) },
      preFilter: { enabled: extra.map((p) => ({ name: p.name })) },
    }), { nominated: new Map([['n1', nominated]]) });

  const cases = [
    { name: 'no nominated pods: the node fits', nominated: [] as PodInfo[], want: null },
    { name: 'a nominated pod of higher priority takes the room', nominated: [pod('nom', { priority: 10 })], want: 'too many pods' },
    { name: 'a nominated pod of equal priority takes the room', nominated: [pod('nom', { priority: 5 })], want: 'too many pods' },
    { name: 'a nominated pod of lower priority is ignored', nominated: [pod('nom', { priority: 1 })], want: null },
    { name: 'the pod itself, when nominated there, is ignored', nominated: [pod('p', { priority: 5 })], want: null },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const f = make([capacity(1)], c.nominated);
      const ni = node('n1');
      const s = f.runFilterPluginsWithNominatedPods(new CycleState(), pod('p', { priority: 5 }), ni);
      if (c.want === null) assert.equal(s, null);
      else assert.deepEqual(s?.reasons, [c.want]);
      assert.equal(ni.pods.length, 0, 'the snapshot NodeInfo is not modified');
    });
  }

  it('the pod must fit both with and without the nominated pods (second pass)', () => {
    const f = make([needsCompany], [pod('nom', { priority: 10 })]);
    const s = f.runFilterPluginsWithNominatedPods(new CycleState(), pod('p'), node('n1'));
    assert.equal(s?.code, Code.Unschedulable);
    assert.deepEqual(s?.reasons, ['lonely']);
  });

  it('runs PreFilter AddPod on a cloned state for each added pod', () => {
    const seen: number[] = [];
    const ext: AnyPlugin = {
      name: 'Ext',
      preFilter: () => null,
      preFilterExtensions: () => ({
        addPod: (state) => {
          state.write('m', new Marker((state.read<Marker>('m')?.v ?? 0) + 1));
          return null;
        },
        removePod: () => null,
      }),
    };
    const probe: AnyPlugin = { name: 'Probe', filter: (state) => (seen.push(state.read<Marker>('m')?.v ?? 0), null) };
    const f = make([probe], [pod('n-a', { priority: 9 }), pod('n-b', { priority: 9 })], [ext]);
    const state = new CycleState();
    state.write('m', new Marker(0));
    assert.equal(f.runFilterPluginsWithNominatedPods(state, pod('p'), node('n1')), null);
    assert.deepEqual(seen, [2, 0], 'first pass sees both added pods, second pass the original state');
    assert.equal(state.read<Marker>('m')?.v, 0);
  });

  it('an AddPod failure is an error', () => {
    const ext: AnyPlugin = {
      name: 'Ext',
      preFilter: () => null,
      preFilterExtensions: () => ({ addPod: () => Status.error('cannot add'), removePod: () => null }),
    };
    const f = make([capacity(5)], [pod('nom', { priority: 9 })], [ext]);
    const s = f.runFilterPluginsWithNominatedPods(new CycleState(), pod('p'), node('n1'));
    assert.equal(s?.code, Code.Error);
    assert.equal(s?.message(), 'running AddPod on PreFilter plugin "Ext": cannot add');
  });
});

describe('Framework: mayHaveNominatedPods (asked once per Filter walk)', () => {
  const cases: { name: string; hasNominatedPods?: () => boolean; want: boolean }[] = [
    { name: 'a nominator that cannot tell may have some', want: true },
    { name: 'a nominator with nominated pods', hasNominatedPods: () => true, want: true },
    { name: 'a nominator without any', hasNominatedPods: () => false, want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const f = newFramework([queueSort(), binder()], withBasics({}), { hasNominatedPods: c.hasNominatedPods });
      assert.equal(f.mayHaveNominatedPods(), c.want);
    });
  }
});

describe('Framework: RunPostFilterPlugins', () => {
  const post = (name: string, out: () => { result: { nominatedNodeName: string } | null; status: Status | null }, calls: string[]): AnyPlugin =>
    ({ name, postFilter: () => (calls.push(name), out()) });
  const make = (plugins: AnyPlugin[]) => newFramework([queueSort(), binder(), ...plugins], withBasics({ postFilter: { enabled: plugins.map((p) => ({ name: p.name })) } }));

  it('stops at the first success and returns its result', () => {
    const calls: string[] = [];
    const f = make([
      post('No', () => ({ result: null, status: Status.unschedulable('no victims') }), calls),
      post('Yes', () => ({ result: { nominatedNodeName: 'n1' }, status: null }), calls),
      post('Never', () => ({ result: null, status: null }), calls),
    ]);
    const r = settled(f.runPostFilterPlugins(new CycleState(), pod(), new NodeToStatus()));
    assert.deepEqual(calls, ['No', 'Yes']);
    assert.equal(r.status.code, Code.Success);
    assert.equal(r.result?.nominatedNodeName, 'n1');
  });

  it('when all reject, joins their reasons under the first rejecting plugin and keeps the last result', () => {
    const calls: string[] = [];
    const f = make([
      post('A', () => ({ result: { nominatedNodeName: 'x' }, status: Status.unschedulable('a1', 'a2') }), calls),
      post('B', () => ({ result: null, status: Status.unschedulable('b1') }), calls),
    ]);
    const r = settled(f.runPostFilterPlugins(new CycleState(), pod(), new NodeToStatus()));
    assert.equal(r.status.code, Code.Unschedulable);
    assert.deepEqual(r.status.reasons, ['a1', 'a2', 'b1']);
    assert.equal(r.status.plugin, 'A');
    assert.equal(r.result?.nominatedNodeName, 'x');
  });

  it('UnschedulableAndUnresolvable and errors stop the loop', () => {
    const calls: string[] = [];
    const f = make([
      post('Stop', () => ({ result: null, status: Status.unresolvable('hopeless') }), calls),
      post('Never', () => ({ result: null, status: null }), calls),
    ]);
    const r = settled(f.runPostFilterPlugins(new CycleState(), pod(), new NodeToStatus()));
    assert.deepEqual(calls, ['Stop']);
    assert.equal(r.status.code, Code.UnschedulableAndUnresolvable);
    assert.equal(r.status.plugin, 'Stop');

    const f2 = make([post('Err', () => ({ result: { nominatedNodeName: 'n' }, status: Status.error('api down') }), [])]);
    const r2 = settled(f2.runPostFilterPlugins(new CycleState(), pod(), new NodeToStatus()));
    assert.equal(r2.status.code, Code.Error);
    assert.equal(r2.status.plugin, 'Err');
    assert.equal(r2.result, null);
  });
});

describe('Framework: RunScorePlugins', () => {
  const nodes = ['n1', 'n2', 'n3'].map(node);
  const byNode = (scores: Record<string, number>) => (_s: CycleState, _p: PodInfo, ni: NodeInfo) => scores[ni.name]!;

  it('applies NormalizeScore, then the weights, and sums per node', () => {
    const a: AnyPlugin = { name: 'A', score: byNode({ n1: 10, n2: 20, n3: 30 }) };
    const b: AnyPlugin = {
      name: 'B',
      score: byNode({ n1: 1, n2: 2, n3: 4 }),
      // Scale so the highest is 100.
      scoreExtensions: () => ({ normalizeScore: (_s: CycleState, _p: PodInfo, scores: NodeScore[]) => {
        let max = 0;
        for (const s of scores) max = Math.max(max, s.score);
        for (const s of scores) s.score = Math.trunc((s.score * 100) / max);
        return null;
      } }),
    };
    const f = newFramework([queueSort(), binder(), a, b], withBasics({ score: { enabled: [{ name: 'A', weight: 2 }, { name: 'B', weight: 3 }] } }));
    const out = scoresOf(f, new CycleState(), pod(), nodes);
    assert.ok(Array.isArray(out));
    assert.deepEqual(out, [
      { name: 'n1', scores: [{ name: 'A', score: 20 }, { name: 'B', score: 75 }], totalScore: 95 },
      { name: 'n2', scores: [{ name: 'A', score: 40 }, { name: 'B', score: 150 }], totalScore: 190 },
      { name: 'n3', scores: [{ name: 'A', score: 60 }, { name: 'B', score: 300 }], totalScore: 360 },
    ]);
  });

  it('scoreNodesInto, scoreNodes and score give the same totals, with and without NormalizeScore', () => {
    const want = { n1: 10, n2: 20, n3: 30 };
    const into = (name: string, normalize: boolean): AnyPlugin => ({
      name,
      score: () => assert.fail('score must not run when scoreNodesInto exists'),
      scoreNodesInto: (_s: CycleState, _p: PodInfo, ns: readonly NodeInfo[], scores: Float64Array) => {
        ns.forEach((n, i) => (scores[i] = want[n.name as keyof typeof want]));
        return null;
      },
      ...(normalize ? { scoreExtensions: () => ({ normalizeScore: halve }) } : {}),
    });
    // NormalizeScore sees the node names and the scores Score gave.
    const halve = (_s: CycleState, _p: PodInfo, scores: NodeScore[]) => {
      for (const e of scores) e.score = want[e.name as keyof typeof want] === e.score ? e.score / 2 : -1;
      return null;
    };
    const batch: AnyPlugin = {
      name: 'Batch',
      score: () => 0,
      scoreNodes: (_s: CycleState, _p: PodInfo, ns: readonly NodeInfo[], out: NodeScore[]) => {
        ns.forEach((n, i) => (out[i]!.score = want[n.name as keyof typeof want]));
        return null;
      },
    };
    const perNode: AnyPlugin = { name: 'PerNode', score: byNode(want), scoreExtensions: () => ({ normalizeScore: halve }) };
    const plugins = [into('Into', false), into('IntoNormalized', true), batch, perNode];
    const f = newFramework([queueSort(), binder(), ...plugins], withBasics({ score: { enabled: plugins.map((p) => ({ name: p.name })) } }));
    const hot = new Float64Array(3);
    assert.equal(f.runScorePlugins(new CycleState(), pod(), nodes, hot, null), null);
    assert.deepEqual([...hot], [10 + 5 + 10 + 5, 20 + 10 + 20 + 10, 30 + 15 + 30 + 15]);
    const out = scoresOf(f, new CycleState(), pod(), nodes);
    assert.ok(Array.isArray(out));
    assert.deepEqual(out.map((o) => o.totalScore), [...hot]);
    assert.deepEqual(out[2]!.scores, [{ name: 'Into', score: 30 }, { name: 'IntoNormalized', score: 15 }, { name: 'Batch', score: 30 }, { name: 'PerNode', score: 15 }]);
  });

  it('leaves out plugins whose PreScore returned Skip', () => {
    const a: AnyPlugin = { name: 'A', preScore: () => Status.skip(), score: () => { throw new Error('must not run'); } };
    const b: AnyPlugin = { name: 'B', preScore: () => null, score: () => 7 };
    const f = newFramework([queueSort(), binder(), a, b], withBasics({ preScore: { enabled: [{ name: 'A' }, { name: 'B' }] }, score: { enabled: [{ name: 'A' }, { name: 'B' }] } }));
    const state = new CycleState();
    assert.equal(f.runPreScorePlugins(state, pod(), nodes), null);
    assert.deepEqual([...state.skipScorePlugins], ['A']);
    const out = scoresOf(f, state, pod(), nodes);
    assert.ok(Array.isArray(out));
    assert.deepEqual(out[0], { name: 'n1', scores: [{ name: 'B', score: 7 }], totalScore: 7 });
  });

  it('rejects a score outside [0, 100] after normalizing', () => {
    const bad: AnyPlugin = { name: 'Bad', score: byNode({ n1: 0, n2: 101, n3: 0 }) };
    const f = newFramework([queueSort(), binder(), bad], withBasics({ score: { enabled: [{ name: 'Bad' }] } }));
    const out = scoresOf(f, new CycleState(), pod(), nodes);
    assert.ok(out instanceof Status);
    assert.equal(out.code, Code.Error);
    assert.equal(out.message(), 'applying score defaultWeights on Score plugins: plugin "Bad" returns an invalid score 101, it should in the range of [0, 100] after normalizing');
    const neg: AnyPlugin = { name: 'Neg', score: () => 5, scoreExtensions: () => ({ normalizeScore: (_s: CycleState, _p: PodInfo, l: NodeScore[]) => { l[0]!.score = -1; return null; } }) };
    const f2 = newFramework([queueSort(), binder(), neg], withBasics({ score: { enabled: [{ name: 'Neg' }] } }));
    const out2 = scoresOf(f2, new CycleState(), pod(), nodes);
    assert.ok(out2 instanceof Status);
    assert.match(out2.message(), /invalid score -1/);
  });

  it('wraps Score, NormalizeScore and PreScore errors with the plugin name', () => {
    const failing: AnyPlugin = { name: 'Failing', score: () => Status.error('no data') };
    const f = newFramework([queueSort(), binder(), failing], withBasics({ score: { enabled: [{ name: 'Failing' }] } }));
    const out = scoresOf(f, new CycleState(), pod(), nodes);
    assert.ok(out instanceof Status);
    assert.equal(out.message(), 'running Score plugins: plugin "Failing" failed with: no data');

    const norm: AnyPlugin = { name: 'Norm', score: () => 1, scoreExtensions: () => ({ normalizeScore: () => Status.error('cannot normalize') }) };
    const f2 = newFramework([queueSort(), binder(), norm], withBasics({ score: { enabled: [{ name: 'Norm' }] } }));
    const out2 = scoresOf(f2, new CycleState(), pod(), nodes);
    assert.ok(out2 instanceof Status);
    assert.equal(out2.message(), 'running Normalize on Score plugins: plugin "Norm" failed with: cannot normalize');

    const pre: AnyPlugin = { name: 'Pre', preScore: () => Status.error('x') };
    const f3 = newFramework([queueSort(), binder(), pre], withBasics({ preScore: { enabled: [{ name: 'Pre' }] } }));
    assert.equal(f3.runPreScorePlugins(new CycleState(), pod(), nodes)?.message(), 'running PreScore plugin "Pre": x');
  });

  describe('a plugin whose score is the same on every node (uniformScore)', () => {
    // Scores 40 everywhere; counts how often Score runs.
    const uniform = (answer: number | null | (() => number | null)) => {
      const calls = { score: 0 };
      const plugin: AnyPlugin = {
        name: 'Uniform',
        score: () => (calls.score++, 40),
        uniformScore: () => (typeof answer === 'function' ? answer() : answer),
      };
      return { plugin, calls };
    };
    const varying: AnyPlugin = { name: 'Varying', score: byNode({ n1: 10, n2: 20, n3: 30 }) };
    const config = withBasics({ score: { enabled: [{ name: 'Uniform', weight: 3 }, { name: 'Varying', weight: 2 }] } });
    const totalsOf = (f: Framework, state: CycleState) => {
      const totals = new Float64Array(nodes.length);
      assert.equal(f.runScorePlugins(state, pod(), nodes, totals, null), null);
      return [...totals];
    };

    it('is not run when no scores are kept, and every total is what running it gives', () => {
      const { plugin, calls } = uniform(40);
      const f = newFramework([queueSort(), binder(), plugin, varying], config);
      assert.deepEqual(totalsOf(f, new CycleState()), [140, 160, 180]);
      assert.equal(calls.score, 0);
      // Kept scores (explain) and sampled plugin metrics run it as usual, with the same totals.
      const kept = scoresOf(f, new CycleState(), pod(), nodes);
      assert.ok(Array.isArray(kept));
      assert.deepEqual(kept.map((n) => n.totalScore), [140, 160, 180]);
      assert.deepEqual(kept[0]!.scores, [{ name: 'Uniform', score: 120 }, { name: 'Varying', score: 20 }]);
      assert.equal(calls.score, 3);
      const timed = new CycleState();
      timed.recordPluginMetrics = true;
      assert.deepEqual(totalsOf(f, timed), [140, 160, 180]);
      assert.equal(calls.score, 6);
    });

    it('runs Score when the plugin cannot say (null)', () => {
      const { plugin, calls } = uniform(null);
      const f = newFramework([queueSort(), binder(), plugin, varying], config);
      assert.deepEqual(totalsOf(f, new CycleState()), [140, 160, 180]);
      assert.equal(calls.score, 3);
    });

    it('refuses an answer outside [0, 100] and reports a throw as a Score error', () => {
      const { plugin } = uniform(101);
      const totals = new Float64Array(nodes.length);
      const out = newFramework([queueSort(), binder(), plugin, varying], config).runScorePlugins(new CycleState(), pod(), nodes, totals, null);
      assert.match(out?.message() ?? '', /plugin "Uniform" returns an invalid score 101/);
      const thrower = uniform(() => {
        throw new Error('boom');
      });
      const out2 = newFramework([queueSort(), binder(), thrower.plugin, varying], config).runScorePlugins(new CycleState(), pod(), nodes, totals, null);
      assert.equal(out2?.message(), 'running Score plugins: plugin "Uniform" failed with: boom');
    });
  });
});

describe('Framework: Reserve and Unreserve', () => {
  it('runs Unreserve in reverse order of Reserve and stops Reserve at a rejection', () => {
    const calls: string[] = [];
    const reserve = (name: string, s: Status | null = null): AnyPlugin => ({
      name,
      reserve: () => (calls.push(`reserve ${name}`), s),
      unreserve: () => void calls.push(`unreserve ${name}`),
    });
    const f = newFramework([queueSort(), binder(), reserve('A'), reserve('B', Status.unschedulable('full')), reserve('C')],
      withBasics({ reserve: { enabled: [{ name: 'A' }, { name: 'B' }, { name: 'C' }] } }));
    const s = f.runReservePluginsReserve(new CycleState(), pod(), 'n1');
    assert.equal(s?.code, Code.Unschedulable);
    assert.equal(s?.plugin, 'B');
    f.runReservePluginsUnreserve(new CycleState(), pod(), 'n1');
    assert.deepEqual(calls, ['reserve A', 'reserve B', 'unreserve C', 'unreserve B', 'unreserve A']);
  });

  it('wraps a Reserve error', () => {
    const f = newFramework([queueSort(), binder(), { name: 'R', reserve: () => Status.error('oops'), unreserve: () => {} }], withBasics({ reserve: { enabled: [{ name: 'R' }] } }));
    assert.equal(f.runReservePluginsReserve(new CycleState(), pod(), 'n1')?.message(), 'running Reserve plugin "R": oops');
  });
});

describe('Framework: Permit and WaitOnPermit', () => {
  const permit = (name: string, out: () => PermitOutcome): AnyPlugin => ({ name, permit: out });
  const waitFor = (ms: number) => () => ({ status: Status.wait(), timeoutMs: ms });
  const make = (plugins: AnyPlugin[], clock = new FakeClock()) =>
    newFramework([queueSort(), binder(), ...plugins], withBasics({ permit: { enabled: plugins.map((p) => ({ name: p.name })) } }), { clock });

  it('waits until every waiting plugin allows', async () => {
    const f = make([permit('W1', waitFor(10_000)), permit('W2', waitFor(10_000)), permit('Ok', () => ({ status: null, timeoutMs: 0 }))]);
    const p = pod('p');
    const s = f.runPermitPlugins(new CycleState(), p, 'n1');
    assert.equal(s?.code, Code.Wait);
    assert.deepEqual(s?.reasons, ['one or more plugins asked to wait and no plugin rejected pod "p"']);
    const wp = f.getWaitingPod(p.uid)!;
    assert.deepEqual(wp.pendingPlugins().sort(), ['W1', 'W2']);
    let seen = 0;
    f.iterateOverWaitingPods(() => seen++);
    assert.equal(seen, 1);
    wp.allow('W1');
    assert.deepEqual(wp.pendingPlugins(), ['W2']);
    wp.allow('W2');
    assert.equal(await f.waitOnPermit(p), null);
    assert.equal(f.getWaitingPod(p.uid), undefined);
  });

  it('a reject while waiting fails the pod with the rejecting plugin', async () => {
    const f = make([permit('W', waitFor(10_000))]);
    const p = pod('p');
    f.runPermitPlugins(new CycleState(), p, 'n1');
    f.getWaitingPod(p.uid)!.reject('W', 'gang incomplete');
    const s = await f.waitOnPermit(p);
    assert.equal(s?.code, Code.Unschedulable);
    assert.equal(s?.plugin, 'W');
    assert.deepEqual(s?.reasons, ['gang incomplete']);
  });

  it('times out on the injected clock, with the wait capped at 15 minutes', async () => {
    const clock = new FakeClock();
    const f = make([permit('Short', waitFor(30_000)), permit('Long', waitFor(60 * 60 * 1000))], clock);
    const p = pod('p');
    f.runPermitPlugins(new CycleState(), p, 'n1');
    const wp = f.getWaitingPod(p.uid)!;
    wp.allow('Short');
    clock.advance(15 * 60 * 1000 - 1);
    assert.equal(f.getWaitingPod(p.uid), wp, 'still waiting just before the cap');
    clock.advance(1);
    const s = await f.waitOnPermit(p);
    assert.equal(s?.code, Code.Unschedulable);
    assert.equal(s?.plugin, 'Long');
    assert.deepEqual(s?.reasons, ['rejected due to timeout after waiting 15m0s at plugin Long']);
  });

  it('formats the timeout as Go prints durations', async () => {
    const clock = new FakeClock();
    const f = make([permit('W', waitFor(10_000))], clock);
    const p = pod('p');
    f.runPermitPlugins(new CycleState(), p, 'n1');
    clock.advance(10_000);
    assert.deepEqual((await f.waitOnPermit(p))?.reasons, ['rejected due to timeout after waiting 10s at plugin W']);
  });

  it('rejectWaitingPod rejects with "removed"', async () => {
    const f = make([permit('W', waitFor(10_000))]);
    const p = pod('p');
    f.runPermitPlugins(new CycleState(), p, 'n1');
    assert.equal(f.rejectWaitingPod(p.uid), true);
    assert.equal(f.rejectWaitingPod('unknown'), false);
    const s = await f.waitOnPermit(p);
    assert.deepEqual(s?.reasons, ['removed']);
  });

  it('a rejection at Permit wins over waits; an error is wrapped', () => {
    const f = make([permit('W', waitFor(10_000)), permit('No', () => ({ status: Status.unschedulable('denied'), timeoutMs: 0 }))]);
    const s = f.runPermitPlugins(new CycleState(), pod(), 'n1');
    assert.equal(s?.code, Code.Unschedulable);
    assert.equal(s?.plugin, 'No');
    const f2 = make([permit('E', () => ({ status: Status.error('bad'), timeoutMs: 0 }))]);
    const s2 = f2.runPermitPlugins(new CycleState(), pod(), 'n1');
    assert.equal(s2?.code, Code.Error);
    assert.equal(s2?.message(), 'running Permit plugin "E": bad');
    assert.equal(s2?.plugin, 'E');
  });

  it('a pod that never waited passes WaitOnPermit at once', async () => {
    const f = make([permit('Ok', () => ({ status: null, timeoutMs: 0 }))]);
    assert.equal(f.runPermitPlugins(new CycleState(), pod(), 'n1'), null);
    assert.equal(await f.waitOnPermit(pod()), null);
  });
});

describe('Framework: PreBind and Bind', () => {
  it('Bind runs until a plugin does not Skip', async () => {
    const calls: string[] = [];
    const b = (name: string, s: () => Status | null): AnyPlugin => ({ name, bind: async () => (calls.push(name), s()) });
    const f = newFramework([queueSort(), b('Skip1', () => Status.skip()), b('Binds', () => null), b('Never', () => null)],
      { queueSort: { enabled: [{ name: 'QueueSort' }] }, bind: { enabled: [{ name: 'Skip1' }, { name: 'Binds' }, { name: 'Never' }] } });
    const s = await f.runBindPlugins(new CycleState(), pod(), 'n1');
    assert.equal(s.code, Code.Success);
    assert.equal(s.plugin, 'Binds');
    assert.deepEqual(calls, ['Skip1', 'Binds']);
  });

  it('every plugin skipping leaves Skip', async () => {
    const f = newFramework([queueSort(), binder('S1', () => Status.skip()), binder('S2', () => Status.skip())],
      { queueSort: { enabled: [{ name: 'QueueSort' }] }, bind: { enabled: [{ name: 'S1' }, { name: 'S2' }] } });
    assert.equal((await f.runBindPlugins(new CycleState(), pod(), 'n1')).code, Code.Skip);
  });

  it('a Bind rejection is returned as is; an error is wrapped', async () => {
    const f = newFramework([queueSort(), binder('B', () => Status.unschedulable('node gone'))], { queueSort: { enabled: [{ name: 'QueueSort' }] }, bind: { enabled: [{ name: 'B' }] } });
    const s = await f.runBindPlugins(new CycleState(), pod(), 'n1');
    assert.equal(s.code, Code.Unschedulable);
    assert.equal(s.plugin, 'B');
    const f2 = newFramework([queueSort(), binder('B', () => Status.error('409 conflict'))], { queueSort: { enabled: [{ name: 'QueueSort' }] }, bind: { enabled: [{ name: 'B' }] } });
    const s2 = await f2.runBindPlugins(new CycleState(), pod(), 'n1');
    assert.equal(s2.code, Code.Error);
    assert.equal(s2.message(), 'running Bind plugin "B": 409 conflict');
  });

  it('PreBind stops at the first failure: rejections as is, errors wrapped', async () => {
    const calls: string[] = [];
    const pb = (name: string, s: () => Status | null): AnyPlugin => ({ name, preBind: async () => (calls.push(name), s()) });
    const f = newFramework([queueSort(), binder(), pb('Ok', () => null), pb('No', () => Status.unschedulable('volume gone')), pb('Never', () => null)],
      withBasics({ preBind: { enabled: [{ name: 'Ok' }, { name: 'No' }, { name: 'Never' }] } }));
    const s = await f.runPreBindPlugins(new CycleState(), pod(), 'n1');
    assert.equal(s?.code, Code.Unschedulable);
    assert.equal(s?.plugin, 'No');
    assert.deepEqual(calls, ['Ok', 'No']);
    const f2 = newFramework([queueSort(), binder(), pb('E', () => Status.error('attach failed'))], withBasics({ preBind: { enabled: [{ name: 'E' }] } }));
    assert.equal((await f2.runPreBindPlugins(new CycleState(), pod(), 'n1'))?.message(), 'running PreBind plugin "E": attach failed');
  });
});

describe('Framework: PreEnqueue', () => {
  it('returns the first rejection with its plugin', () => {
    const gate: AnyPlugin = { name: 'Gate', preEnqueue: () => Status.unresolvable('waiting for scheduling gates: [a]') };
    const f = newFramework([queueSort(), binder(), { name: 'Open', preEnqueue: () => null }, gate],
      withBasics({ preEnqueue: { enabled: [{ name: 'Open' }, { name: 'Gate' }] } }));
    const s = f.runPreEnqueuePlugins(makePod('p'));
    assert.equal(s?.plugin, 'Gate');
    assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
  });
});

describe('PreBind pre-flights and parallel PreBind', () => {
  const log: string[] = [];
  const preBindPlugin = (name: string, preFlight: Status | null | 'none', parallel = false): AnyPlugin => ({
    name,
    ...(preFlight === 'none' ? {} : { preBindPreFlight: () => ({ result: { allowParallel: parallel }, status: preFlight }) }),
    preBind: async () => {
      log.push(`start ${name}`);
      await Promise.resolve();
      log.push(`end ${name}`);
      return null;
    },
  });
  const run = async (plugins: AnyPlugin[]) => {
    log.length = 0;
    const fwk = newFramework([queueSort(), binder(), ...plugins], withBasics({ preBind: { enabled: plugins.map((p) => ({ name: p.name })) } }));
    const state = new CycleState();
    const pod = new PodInfo(makePod('p'));
    const preFlight = fwk.runPreBindPreFlights(state, pod, 'n1');
    const preBind = preFlight === null || preFlight.code === Code.Skip ? await fwk.runPreBindPlugins(state, pod, 'n1') : null;
    return { preFlight, preBind, log: [...log] };
  };

  it('skips the plugins whose pre-flight skips, and runs neighbours that allow it at the same time', async () => {
    const out = await run([preBindPlugin('A', new Status(Code.Skip)), preBindPlugin('B', null, true), preBindPlugin('C', null, true), preBindPlugin('D', 'none')]);
    assert.equal(out.preFlight, null);
    assert.equal(out.preBind, null);
    assert.deepEqual(out.log, ['start B', 'start C', 'end B', 'end C', 'start D', 'end D']);
  });

  it('is Skip when every plugin skips, and then no PreBind plugin runs', async () => {
    const out = await run([preBindPlugin('A', new Status(Code.Skip), true), preBindPlugin('B', new Status(Code.Skip))]);
    assert.equal(out.preFlight?.code, Code.Skip);
    assert.deepEqual(out.log, []);
  });

  for (const tc of [
    { name: 'an error', status: Status.error('boom'), want: 'running PreBindPreFlight "E": boom' },
    { name: 'a rejection', status: Status.unschedulable('no'), want: 'PreBindPreFlight E returned "Unschedulable", which is unsupported. It is supposed to return Success, Skip, or Error status' },
  ]) {
    it(`turns ${tc.name} into an Error status naming the plugin`, async () => {
      const out = await run([preBindPlugin('B', null), preBindPlugin('E', tc.status)]);
      assert.deepEqual([out.preFlight?.code, out.preFlight?.message(), out.preFlight?.plugin], [Code.Error, tc.want, 'E']);
    });
  }
});

describe('PlacementGenerate and PlacementScore (TopologyAwareWorkloadScheduling)', () => {
  const group = { kind: 'PodGroup', metadata: { name: 'g', namespace: 'default' }, spec: { schedulingPolicy: { basic: {} } } } as const;
  const nodes = ['n1', 'n2'].map((n) => { const ni = new NodeInfo(); ni.setNode(makeNode(n)); return ni; });
  const placements = [{ name: 'a', nodes: nodes.slice(0, 1) }, { name: 'b', nodes: nodes.slice(1) }];
  const assignments = placements.map((placement, i) => ({ placement, proposedAssignments: Array.from({ length: i + 1 }, () => ({ podInfo: pod(), nodeName: placement.nodes[0]!.name })) }));
  const states = [new CycleState(), new CycleState()];
  const counter = (name: string, normalize: boolean): AnyPlugin => ({
    name,
    scorePlacement: (_s, _g, a) => a.proposedAssignments.length * 10,
    ...(normalize ? { normalizePlacementScore: (_s, _g, scores) => { for (const s of scores) s.score *= 2; return null; } } : {}),
  });

  it('without a generator, one placement of every node', () => {
    const f = newFramework([queueSort(), binder()], withBasics({}));
    const r = f.runPlacementGeneratePlugins(new CycleState(), group, nodes);
    assert.equal(r.status, null);
    assert.deepEqual(r.placements.map((p) => p.nodes.map((n) => n.name)), [['n1', 'n2']]);
  });

  it('a generator proposing nothing makes the group unschedulable', () => {
    const gen: AnyPlugin = { name: 'Gen', generatePlacements: () => ({ placements: [] }) };
    const f = newFramework([queueSort(), binder(), gen], withBasics({ placementGenerate: { enabled: [{ name: 'Gen' }] } }));
    const r = f.runPlacementGeneratePlugins(new CycleState(), group, nodes);
    assert.deepEqual([r.status?.code, r.status?.message(), r.status?.plugin], [Code.Unschedulable, 'no feasible placements found', 'Gen']);
  });

  it('normalizes, weights and sums each placement\'s scores; multiPoint weights count', () => {
    const f = newFramework([queueSort(), binder(), counter('A', true), counter('B', false)], withBasics({
      placementScore: { enabled: [{ name: 'A', weight: 3 }] },
      multiPoint: { enabled: [{ name: 'B', weight: 2 }] },
    }));
    assert.deepEqual(names(f.placementScorePlugins), ['B', 'A']);
    const r = f.runPlacementScorePlugins(new CycleState(), group, assignments, states);
    assert.equal(r.status, null);
    // A: 10→20, 20→40 weighted 3; B: 10, 20 weighted 2.
    assert.deepEqual(r.totals, [20 * 3 + 10 * 2, 40 * 3 + 20 * 2]);
  });

  it('refuses a score outside [0, 100] after normalizing, and a failing plugin', () => {
    const big: AnyPlugin = { name: 'Big', scorePlacement: () => 101 };
    const f = newFramework([queueSort(), binder(), big], withBasics({ placementScore: { enabled: [{ name: 'Big' }] } }));
    assert.equal(
      f.runPlacementScorePlugins(new CycleState(), group, assignments, states).status?.message(),
      'applying score defaultWeights on PlacementScore plugins: plugin "Big" returns an invalid score 101, it should in the range of [0, 100] after normalizing',
    );
    const failing: AnyPlugin = { name: 'Failing', scorePlacement: () => Status.error('boom') };
    const g = newFramework([queueSort(), binder(), failing], withBasics({ placementScore: { enabled: [{ name: 'Failing' }] } }));
    assert.equal(g.runPlacementScorePlugins(new CycleState(), group, assignments, states).status?.message(), 'running PlacementScore plugins: plugin "Failing" failed with: boom');
  });
});
