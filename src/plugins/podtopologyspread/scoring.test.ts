// Scenarios of upstream's podtopologyspread/scoring_test.go: PreScore state, Score and NormalizeScore.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod } from '../../api/types.js';
import type { NodeScore } from '../../framework/interfaces.js';
import { Code, Status } from '../../framework/status.js';
import type { PodTopologySpreadArgs } from './args.js';
import { LabelHostname, LabelTopologyZone } from './common.js';
import { PreScoreState, preScoreStateKey, topologyNormalizingWeight } from './scoring.js';
import { barSelector, fooSelector, info, newState, node, pod, setup, spread, unschedulableTaint } from './test_helpers.js';

const H = LabelHostname;
const list: PodTopologySpreadArgs = { defaultingType: 'List', defaultConstraints: [] };
const system: PodTopologySpreadArgs = { defaultingType: 'System', defaultConstraints: [] };
const hn = (name: string, extra: Record<string, string> = {}): Node => node(name, { [H]: name, ...extra });
const zh = (name: string, zone: string): Node => node(name, { zone, [H]: name });
const foo = (name: string, nodeName: string, extra: Record<string, string> = {}, namespace?: string): Pod =>
  pod(name, { node: nodeName, labels: { foo: '', ...extra }, ...(namespace ? { namespace } : {}) });
const bar = (name: string, nodeName: string, extra: Record<string, string> = {}): Pod => pod(name, { node: nodeName, labels: { bar: '', ...extra } });
const rs = (name: string, selector: object): KubeObject =>
  ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: 'default' }, spec: { selector } }) as KubeObject;
const rsOwner = (name: string) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name });

/** Runs PreScore on `filtered` (all = filtered + failed) and returns the state and status. */
function runPreScore(p: Pod, filtered: Node[], failed: Node[], existing: Pod[], args: PodTopologySpreadArgs, objects: KubeObject[] = []) {
  const { plugin, handle } = setup(existing, [...filtered, ...failed], args, objects);
  const state = newState();
  const filteredInfos = filtered.map((n) => handle.snapshot.get(n.metadata.name!)!);
  const status = plugin.preScore(state, info(p), filteredInfos);
  return { plugin, state, status, filteredInfos, s: state.read<PreScoreState>(preScoreStateKey) };
}

describe('PodTopologySpread PreScore skips', () => {
  it("the pod doesn't have soft topology spread constraints", () => {
    const { status } = runPreScore(pod('p'), [hn('node-a'), hn('node-b')], [], [], list);
    assert.equal(status?.code, Code.Skip);
  });
  it("default constraints and a replicaset that doesn't match", () => {
    const p = pod('p', { labels: { foo: 'bar', baz: 'sup' }, owner: rsOwner('rs2') });
    const args: PodTopologySpreadArgs = { defaultingType: 'List', defaultConstraints: [{ maxSkew: 2, topologyKey: 'planet', whenUnsatisfiable: 'ScheduleAnyway' }] };
    const { status } = runPreScore(p, [node('node-a', { planet: 'mars' })], [], [], args, [rs('rs1', { matchExpressions: [{ key: 'tar', operator: 'Exists' }] })]);
    assert.equal(status?.code, Code.Skip);
  });
  it('a cluster without nodes', () => {
    const p = pod('p', { labels: { foo: '' }, constraints: [spread(1, H, 'ScheduleAnyway', fooSelector)] });
    assert.equal(runPreScore(p, [], [], [], list).status?.code, Code.Skip);
  });
});

describe('PodTopologySpread PreScore state', () => {
  interface Case {
    name: string;
    pod: Pod;
    nodes: Node[];
    args: PodTopologySpreadArgs;
    objects?: KubeObject[];
    want: { keys: string[]; ignored: string[]; counts: Record<string, number>[]; weights: number[] };
  }
  const cases: Case[] = [
    {
      name: 'normal case',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, H, 'ScheduleAnyway', fooSelector)] }),
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-x', 'zone2')],
      args: list,
      want: { keys: ['zone', H], ignored: [], counts: [{ zone1: 0, zone2: 0 }, {}], weights: [topologyNormalizingWeight(2), topologyNormalizingWeight(3)] },
    },
    {
      name: 'null selector',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'ScheduleAnyway', undefined)] }),
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-x', 'zone2')],
      args: list,
      want: { keys: ['zone'], ignored: [], counts: [{ zone1: 0, zone2: 0 }], weights: [topologyNormalizingWeight(2)] },
    },
    {
      name: "node-x doesn't have label zone",
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, H, 'ScheduleAnyway', barSelector)] }),
      nodes: [zh('node-a', 'zone1'), zh('node-b', 'zone1'), hn('node-x')],
      args: list,
      want: { keys: ['zone', H], ignored: ['node-x'], counts: [{ zone1: 0 }, {}], weights: [topologyNormalizingWeight(1), topologyNormalizingWeight(2)] },
    },
    {
      name: 'system default constraints and a replicaset (nodes without a zone form a "" zone)',
      pod: pod('p', { labels: { foo: 'tar', baz: 'sup' }, owner: rsOwner('rs1') }),
      nodes: [hn('node-a', { [LabelTopologyZone]: 'mars' }), hn('node-b', { [LabelTopologyZone]: 'mars' }), hn('node-c'), hn('node-d')],
      args: system,
      objects: [rs('rs1', fooSelector)],
      want: { keys: [H, LabelTopologyZone], ignored: [], counts: [{}, { '': 0, mars: 0 }], weights: [topologyNormalizingWeight(4), topologyNormalizingWeight(2)] },
    },
    {
      name: 'default constraints and a replicaset',
      pod: pod('p', { labels: { foo: 'tar', baz: 'sup' }, owner: rsOwner('rs1') }),
      nodes: [node('node-a', { rack: 'rack1', [H]: 'node-a', planet: 'mars' })],
      args: {
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 1, topologyKey: H, whenUnsatisfiable: 'ScheduleAnyway' },
          { maxSkew: 2, topologyKey: 'rack', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 2, topologyKey: 'planet', whenUnsatisfiable: 'ScheduleAnyway' },
        ],
      },
      objects: [rs('rs1', fooSelector)],
      want: { keys: [H, 'planet'], ignored: [], counts: [{}, { mars: 0 }], weights: [topologyNormalizingWeight(1), topologyNormalizingWeight(1)] },
    },
    {
      name: 'default constraints and a replicaset, but pod has constraints',
      pod: pod('p', {
        labels: { foo: 'bar', baz: 'sup' },
        owner: rsOwner('rs1'),
        constraints: [spread(1, 'zone', 'DoNotSchedule', barSelector), spread(2, 'planet', 'ScheduleAnyway', { matchLabels: { baz: 'sup' } })],
      }),
      nodes: [node('node-a', { planet: 'mars', galaxy: 'andromeda' })],
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 2, topologyKey: 'galaxy', whenUnsatisfiable: 'ScheduleAnyway' }] },
      objects: [rs('rs1', fooSelector)],
      want: { keys: ['planet'], ignored: [], counts: [{ mars: 0 }], weights: [topologyNormalizingWeight(1)] },
    },
    {
      name: 'NodeAffinityPolicy honored with labelSelectors',
      pod: pod('p', { labels: { foo: '' }, nodeSelector: { foo: '' }, constraints: [spread(1, 'zone', 'ScheduleAnyway', barSelector)] }),
      nodes: [node('node-a', { zone: 'zone1', foo: '', [H]: 'node-a' }), node('node-b', { zone: 'zone1', foo: '', [H]: 'node-b' }), zh('node-x', 'zone2')],
      args: list,
      want: { keys: ['zone'], ignored: [], counts: [{ zone1: 0, zone2: 0 }], weights: [topologyNormalizingWeight(2)] },
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const { status, s } = runPreScore(tc.pod, tc.nodes, [], [], tc.args, tc.objects);
      assert.equal(status, null);
      assert.ok(s);
      assert.deepEqual(s.constraints.map((c) => c.topologyKey), tc.want.keys);
      assert.deepEqual([...s.ignoredNodes].sort(), tc.want.ignored);
      assert.deepEqual(s.topologyValueToPodCounts.map((m) => Object.fromEntries([...m].sort())), tc.want.counts);
      assert.deepEqual(s.topologyNormalizingWeight, tc.want.weights);
    });
  }
});

interface ScoreCase {
  name: string;
  pod: Pod;
  existing?: Pod[];
  nodes: Node[];
  failed?: Node[];
  objects?: KubeObject[];
  want: Record<string, number>;
}

function runScore(tc: ScoreCase, args: PodTopologySpreadArgs): Record<string, number> {
  const { plugin, state, status, filteredInfos } = runPreScore(tc.pod, tc.nodes, tc.failed ?? [], tc.existing ?? [], args, tc.objects);
  assert.equal(status, null);
  const scores: NodeScore[] = [];
  for (const ni of filteredInfos) {
    const s = plugin.score(state, info(tc.pod), ni);
    assert.equal(typeof s, 'number');
    scores.push({ name: ni.name, score: s as number });
  }
  assert.equal(plugin.normalizeScore(state, info(tc.pod), scores), null);
  return Object.fromEntries(scores.map((s) => [s.name, s.score]));
}

describe('PodTopologySpread Score and NormalizeScore', () => {
  const nodeFoo = (maxSkew = 1) => pod('p', { labels: { foo: '' }, constraints: [spread(maxSkew, H, 'ScheduleAnyway', fooSelector)] });
  const fourThreeTwoOne = (): Pod[] => [
    foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-a3', 'node-a'), foo('p-a4', 'node-a'),
    foo('p-b1', 'node-b'), foo('p-b2', 'node-b'), foo('p-b3', 'node-b'), foo('p-c1', 'node-c'), foo('p-c2', 'node-c'), foo('p-d1', 'node-d'),
  ];
  const twoOneZeroThree = (): Pod[] => [
    foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-d1', 'node-d'), foo('p-d2', 'node-d'), foo('p-d3', 'node-d'),
  ];
  const fourTwoOneThree = (): Pod[] => [
    foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-a3', 'node-a'), foo('p-a4', 'node-a'), foo('p-b1', 'node-b'), foo('p-b2', 'node-b'),
    foo('p-x1', 'node-x'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'),
  ];
  const abcd = (): Node[] => [hn('node-a'), hn('node-b'), hn('node-c'), hn('node-d')];
  const zones4 = (): Node[] => [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-x', 'zone2'), zh('node-y', 'zone2')];
  const nodeKeyed = (): Node[] => [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c' })];
  const twoOneOne = (): Pod[] => [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-c1', 'node-c')];
  const differentSelectors = (): Pod[] => [foo('p-a1', 'node-a'), foo('p-b1', 'node-b', { bar: '' }), foo('p-y1', 'node-y'), bar('p-y2', 'node-y')];
  const zoneFooHostBar = pod('p', {
    labels: { foo: '', bar: '' },
    constraints: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, H, 'ScheduleAnyway', barSelector)],
  });
  const mlkNodes = (): Node[] => [zh('node-a', 'zone1'), zh('node-b', 'zone1'), zh('node-c', 'zone2'), zh('node-d', 'zone2')];
  const mlkPods = (): Pod[] => [foo('p-a1', 'node-a'), foo('p-b1', 'node-b', { bar: '' }), foo('p-y1', 'node-c'), bar('p-y2', 'node-c')];

  const cases: ScoreCase[] = [
    { name: 'one constraint on node, no existing pods', pod: nodeFoo(), nodes: [hn('node-a'), hn('node-b')], want: { 'node-a': 100, 'node-b': 100 } },
    {
      name: 'one constraint on node, only one node is candidate',
      pod: nodeFoo(),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b')],
      nodes: [hn('node-a')],
      failed: [hn('node-b')],
      want: { 'node-a': 100 },
    },
    {
      name: 'one constraint on node, all nodes have the same number of matching pods',
      pod: nodeFoo(),
      existing: [foo('p-a1', 'node-a'), foo('p-b1', 'node-b')],
      nodes: [hn('node-a'), hn('node-b')],
      want: { 'node-a': 100, 'node-b': 100 },
    },
    {
      name: 'one constraint on node, all 4 nodes are candidates (2/1/0/3)',
      pod: nodeFoo(),
      existing: twoOneZeroThree(),
      nodes: abcd(),
      want: { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 },
    },
    {
      name: 'one constraint on node, null selector',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, H, 'ScheduleAnyway', undefined)] }),
      existing: twoOneZeroThree(),
      nodes: abcd(),
      want: { 'node-a': 100, 'node-b': 100, 'node-c': 100, 'node-d': 100 },
    },
    {
      name: 'one constraint on node, all 4 nodes are candidates, maxSkew=2',
      pod: nodeFoo(2),
      existing: twoOneZeroThree(),
      nodes: abcd(),
      want: { 'node-a': 33, 'node-b': 66, 'node-c': 100, 'node-d': 16 },
    },
    {
      name: 'one constraint on node, all 4 nodes are candidates, maxSkew=3 (4/3/2/1)',
      pod: nodeFoo(3),
      existing: fourThreeTwoOne(),
      nodes: abcd(),
      want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
    },
    {
      name: "system defaulting, nodes don't have zone, pods match service",
      pod: pod('p', { labels: { foo: '' } }),
      existing: fourThreeTwoOne(),
      nodes: abcd(),
      objects: [{ kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector: { foo: '' } } } as KubeObject],
      want: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 },
    },
    {
      name: 'one constraint on node, 3 out of 4 nodes are candidates (4/2/1/~3~)',
      pod: nodeFoo(),
      existing: fourTwoOneThree(),
      nodes: [hn('node-a'), hn('node-b'), hn('node-x')],
      failed: [hn('node-y')],
      want: { 'node-a': 33, 'node-b': 83, 'node-x': 100 },
    },
    {
      name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
      pod: nodeFoo(),
      existing: fourTwoOneThree(),
      nodes: [hn('node-a'), node('node-b', { n: 'node-b' }), hn('node-x')],
      failed: [hn('node-y')],
      want: { 'node-a': 16, 'node-b': 0, 'node-x': 100 },
    },
    {
      name: 'one constraint on zone, 3 out of 4 nodes are candidates',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'ScheduleAnyway', fooSelector)] }),
      existing: fourTwoOneThree(),
      nodes: zones4().slice(0, 3),
      failed: [zh('node-y', 'zone2')],
      want: { 'node-a': 75, 'node-b': 75, 'node-x': 100 },
    },
    {
      name: 'two constraints on zone and node, 2 out of 4 nodes are candidates (2/~1~/2/~4~)',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, H, 'ScheduleAnyway', fooSelector)] }),
      existing: [
        foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-x1', 'node-x'), foo('p-x2', 'node-x'),
        foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'), foo('p-y4', 'node-y'),
      ],
      nodes: [zh('node-a', 'zone1'), zh('node-x', 'zone2')],
      failed: [zh('node-b', 'zone1'), zh('node-y', 'zone2')],
      want: { 'node-a': 100, 'node-x': 63 },
    },
    {
      name: 'two constraints on zone and node, with different labelSelectors',
      pod: zoneFooHostBar,
      existing: differentSelectors(),
      nodes: zones4(),
      want: { 'node-a': 60, 'node-b': 20, 'node-x': 100, 'node-y': 60 },
    },
    {
      name: 'two constraints on zone and node, with different labelSelectors, some nodes have 0 pods',
      pod: zoneFooHostBar,
      existing: [bar('p-b1', 'node-b'), foo('p-x1', 'node-x'), foo('p-y1', 'node-y', { bar: '' })],
      nodes: zones4(),
      want: { 'node-a': 100, 'node-b': 60, 'node-x': 40, 'node-y': 0 },
    },
    {
      name: 'two constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates',
      pod: zoneFooHostBar,
      existing: differentSelectors(),
      nodes: zones4().slice(0, 3),
      failed: [zh('node-y', 'zone2')],
      want: { 'node-a': 50, 'node-b': 25, 'node-x': 100 },
    },
    {
      name: 'existing pods in a different namespace do not count',
      pod: nodeFoo(),
      existing: [foo('p-a1', 'node-a', {}, 'ns1'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-b2', 'node-b')],
      nodes: [hn('node-a'), hn('node-b')],
      want: { 'node-a': 100, 'node-b': 33 },
    },
    {
      name: 'terminating Pods should be excluded',
      pod: nodeFoo(),
      existing: [pod('p-a', { node: 'node-a', labels: { foo: '' }, terminating: true }), foo('p-b', 'node-b')],
      nodes: [hn('node-a'), hn('node-b')],
      want: { 'node-a': 100, 'node-b': 0 },
    },
    {
      name: 'minDomains has no effect when ScheduleAnyway',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(2, 'node', 'ScheduleAnyway', fooSelector, { minDomains: 10 })] }),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-b2', 'node-b'), foo('p-c1', 'node-c')],
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' })],
      want: { 'node-a': 75, 'node-b': 75, 'node-c': 100 },
    },
    {
      name: 'NodeAffinityPolicy honored with labelSelectors',
      pod: pod('p', { labels: { foo: '' }, nodeSelector: { foo: '' }, constraints: [spread(1, 'node', 'ScheduleAnyway', fooSelector)] }),
      existing: twoOneOne(),
      nodes: nodeKeyed(),
      want: { 'node-a': 0, 'node-b': 33, 'node-c': 100 },
    },
    {
      name: 'NodeAffinityPolicy ignored with labelSelectors',
      pod: pod('p', { labels: { foo: '' }, nodeSelector: { foo: '' }, constraints: [spread(1, 'node', 'ScheduleAnyway', fooSelector, { nodeAffinityPolicy: 'Ignore' })] }),
      existing: twoOneOne(),
      nodes: nodeKeyed(),
      want: { 'node-a': 66, 'node-b': 100, 'node-c': 100 },
    },
    {
      name: 'NodeAffinityPolicy honored with nodeAffinity',
      pod: pod('p', { labels: { foo: '' }, nodeAffinity: [{ key: 'foo', operator: 'In', values: [''] }], constraints: [spread(1, 'node', 'ScheduleAnyway', fooSelector)] }),
      existing: twoOneOne(),
      nodes: nodeKeyed(),
      want: { 'node-a': 0, 'node-b': 33, 'node-c': 100 },
    },
    {
      name: 'NodeAffinityPolicy ignored with nodeAffinity',
      pod: pod('p', {
        labels: { foo: '' },
        nodeAffinity: [{ key: 'foo', operator: 'In', values: [''] }],
        constraints: [spread(1, 'node', 'ScheduleAnyway', fooSelector, { nodeAffinityPolicy: 'Ignore' })],
      }),
      existing: twoOneOne(),
      nodes: nodeKeyed(),
      want: { 'node-a': 66, 'node-b': 100, 'node-c': 100 },
    },
    {
      name: 'NodeTaintsPolicy honored',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'node', 'ScheduleAnyway', fooSelector, { nodeTaintsPolicy: 'Honor' })] }),
      existing: twoOneOne(),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' }, [unschedulableTaint])],
      want: { 'node-a': 0, 'node-b': 33, 'node-c': 100 },
    },
    {
      name: 'NodeTaintsPolicy ignored',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'node', 'ScheduleAnyway', fooSelector)] }),
      existing: twoOneOne(),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' }, [unschedulableTaint])],
      want: { 'node-a': 66, 'node-b': 100, 'node-c': 100 },
    },
    {
      name: 'matchLabelKeys ANDed with LabelSelector when LabelSelector is empty',
      pod: pod('p', {
        labels: { foo: '', bar: '' },
        constraints: [spread(1, 'zone', 'ScheduleAnyway', {}, { matchLabelKeys: ['foo'] }), spread(1, H, 'ScheduleAnyway', {}, { matchLabelKeys: ['bar'] })],
      }),
      existing: mlkPods(),
      nodes: mlkNodes(),
      want: { 'node-a': 60, 'node-b': 20, 'node-c': 60, 'node-d': 100 },
    },
    {
      name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
      pod: pod('p', {
        labels: { foo: '', bar: '', baz: '' },
        constraints: [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, H, 'ScheduleAnyway', barSelector, { matchLabelKeys: ['baz'] })],
      }),
      existing: [
        foo('p-a1', 'node-a'), foo('p-b1', 'node-b', { bar: '', baz: '' }), foo('p-c1', 'node-c'), bar('p-c2', 'node-c'), bar('p-d3', 'node-c', { baz: '' }),
      ],
      nodes: mlkNodes(),
      want: { 'node-a': 60, 'node-b': 20, 'node-c': 60, 'node-d': 100 },
    },
  ];
  // Upstream runs these with the System defaulting type; pods with constraints ignore it.
  for (const tc of cases) it(tc.name, () => assert.deepEqual(runScore(tc, system), tc.want));

  it('system defaults spread a ReplicaSet by hostname even where nodes lack a zone', () => {
    const p = pod('p', { labels: { app: 'web' }, owner: rsOwner('web') });
    const existing = [pod('w1', { node: 'n1', labels: { app: 'web' } }), pod('w2', { node: 'n1', labels: { app: 'web' } }), pod('w3', { node: 'n2', labels: { app: 'web' } })];
    const got = runScore(
      { name: '', pod: p, existing, nodes: [hn('n1', { [LabelTopologyZone]: 'z1' }), hn('n2'), hn('n3')], objects: [rs('web', { matchLabels: { app: 'web' } })], want: {} },
      system,
    );
    // hostname: weight log(5), maxSkew 3; zone: domains {z1, ""}, weight log(4), maxSkew 5, z1 holds 2, "" holds 1.
    const w = Math.log(5);
    const raw = { n1: Math.round(2 * w + 2 + 2 * Math.log(4) + 4), n2: Math.round(w + 2), n3: Math.round(2) };
    const max = raw.n1;
    const min = raw.n3;
    assert.deepEqual(got, {
      n1: Math.floor((100 * (max + min - raw.n1)) / max),
      n2: Math.floor((100 * (max + min - raw.n2)) / max),
      n3: Math.floor((100 * (max + min - raw.n3)) / max),
    });
  });

  it('Score without PreScore state is an Error', () => {
    const { plugin, handle } = setup([], [hn('node-a')]);
    const s = plugin.score(newState(), info(nodeFoo()), handle.snapshot.get('node-a')!);
    assert.ok(s instanceof Status);
    assert.equal(s.code, Code.Error);
  });
});
