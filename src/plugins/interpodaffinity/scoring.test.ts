// Scenarios of upstream's interpodaffinity/scoring_test.go, in our own table form.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Affinity, Node, Pod } from '../../api/types.js';
import { MaxNodeScore, type NodeScore } from '../../framework/interfaces.js';
import { Code } from '../../framework/status.js';
import { node, pod, PodInfo, sel, setup, term, weighted, type TestPodOptions } from './test_helpers.js';

interface Case {
  name: string;
  pod: Pod;
  pods?: Pod[];
  nodes: Node[];
  args?: Record<string, unknown>;
  /** Normalized score per node in node order, or the PreScore status code expected instead. */
  want: number[] | Code;
}

function run(c: Case): void {
  const { plugin, handle, state } = setup(c.pods ?? [], c.nodes, c.args);
  const pi = new PodInfo(c.pod);
  const nodeInfos = c.nodes.map((n) => handle.snapshot.get(n.metadata.name!)!);
  const status = plugin.preScore(state, pi, nodeInfos);
  if (typeof c.want === 'number') {
    assert.equal(status?.code, c.want);
    return;
  }
  assert.equal(status, null, `PreScore: ${status?.message()}`);
  const scores: NodeScore[] = nodeInfos.map((ni) => {
    const s = plugin.score(state, pi, ni);
    assert.equal(typeof s, 'number');
    return { name: ni.name, score: s as number };
  });
  assert.equal(plugin.normalizeScore(state, pi, scores), null);
  assert.deepEqual(
    scores.map((s) => s.score),
    c.want,
  );
}

/** A pod whose spec carries `affinity` verbatim. */
function withAffinity(name: string | null, affinity: Affinity, o: TestPodOptions = {}): Pod {
  const p = pod(name, o);
  p.spec.affinity = affinity;
  return p;
}

const china = { region: 'China' };
const india = { region: 'India' };
const az1 = { az: 'az1' };
const az2 = { az: 'az2' };
const chinaAz1 = { region: 'China', az: 'az1' };
const s1 = { security: 'S1' };
const s2 = { security: 'S2' };

const stayWithS1InRegion: Affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(sel('security', 'In', ['S1']), 'region'))] } };
const stayWithS2InRegion: Affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(6, term(sel('security', 'In', ['S2']), 'region'))] } };
const affinity3: Affinity = {
  podAffinity: {
    preferredDuringSchedulingIgnoredDuringExecution: [
      weighted(8, term({ matchExpressions: [{ key: 'security', operator: 'NotIn', values: ['S1'] }, { key: 'security', operator: 'In', values: ['S2'] }] }, 'region')),
      weighted(2, term({ matchExpressions: [{ key: 'security', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, 'region')),
    ],
  },
};
const hardAffinity: Affinity = {
  podAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [
      term(sel('security', 'In', ['S1', 'value2']), 'region'),
      term({ matchExpressions: [{ key: 'security', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, 'region'),
    ],
  },
};
const awayFromS1InAz: Affinity = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(sel('security', 'In', ['S1']), 'az'))] } };
const awayFromS2InAz: Affinity = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(sel('security', 'In', ['S2']), 'az'))] } };
const stayWithS1InRegionAwayFromS2InAz: Affinity = {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(8, term(sel('security', 'In', ['S1']), 'region'))] },
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(sel('security', 'In', ['S2']), 'az'))] },
};
const team1Selector = { namespaces: ['subteam2.team2'], namespaceSelector: sel('team', 'In', ['team1']) };
const affinityNamespaceSelector: Affinity = {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(sel('security', 'In', ['S1']), 'region', team1Selector))] },
};
const antiAffinityNamespaceSelector: Affinity = {
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(sel('security', 'In', ['S1']), 'region', team1Selector))] },
};

const M = MaxNodeScore;

describe('InterPodAffinity scoring: preferred terms', () => {
  const cases: Case[] = [
    {
      name: 'nothing to score without affinity anywhere',
      pod: pod('p', { labels: s1 }),
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: Code.Skip,
    },
    {
      name: 'affinity: the node in the topology of matching pods scores highest',
      pod: withAffinity('p', stayWithS1InRegion, { labels: s1 }),
      pods: [pod(null, { node: 'node1', labels: s1 }), pod(null, { node: 'node2', labels: s2 }), pod(null, { node: 'node3', labels: s1 })],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [M, 0, 0],
    },
    {
      name: 'affinity: every node sharing the matching pod’s topology value scores the same',
      pod: withAffinity('p', stayWithS1InRegion),
      pods: [pod(null, { node: 'node1', labels: s1 })],
      nodes: [node('node1', china), node('node2', chinaAz1), node('node3', india)],
      want: [M, M, 0],
    },
    {
      name: 'affinity: the region with more matching pods scores higher',
      pod: withAffinity('p', stayWithS2InRegion, { labels: s1 }),
      pods: ['node1', 'node1', 'node2', 'node3', 'node4', 'node5'].map((n) => pod(null, { node: n, labels: s2 })),
      nodes: [node('node1', china), node('node2', india), node('node3', china), node('node4', china), node('node5', india)],
      want: [M, 0, M, M, 0],
    },
    {
      name: 'affinity: different operators and values, some not matching',
      pod: withAffinity('p', affinity3, { labels: s1 }),
      pods: [pod(null, { node: 'node1', labels: s1 }), pod(null, { node: 'node2', labels: s2 }), pod(null, { node: 'node3', labels: s1 })],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [20, M, 0],
    },
    {
      name: 'affinity symmetry: existing pods’ preferred affinity terms count',
      pod: pod('p', { labels: s2 }),
      pods: [withAffinity(null, stayWithS1InRegion, { node: 'node1', labels: s1 }), withAffinity(null, stayWithS2InRegion, { node: 'node2', labels: s2 })],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [0, M, 0],
    },
    {
      name: 'affinity symmetry with a namespaceSelector',
      pod: pod('p', { namespace: 'subteam1.team1', labels: s1 }),
      pods: [withAffinity(null, affinityNamespaceSelector, { node: 'node1', labels: s1 }), withAffinity(null, stayWithS2InRegion, { node: 'node2', labels: s2 })],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [M, 0, 0],
    },
    {
      name: 'anti-affinity symmetry with a namespaceSelector',
      pod: pod('p', { namespace: 'subteam1.team1', labels: s1 }),
      pods: [withAffinity(null, antiAffinityNamespaceSelector, { node: 'node1', labels: s1 }), withAffinity(null, stayWithS2InRegion, { node: 'node2', labels: s2 })],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [0, M, M],
    },
    {
      name: 'affinity symmetry: existing pods’ required affinity terms count with hardPodAffinityWeight',
      pod: pod('p', { labels: s1 }),
      pods: [withAffinity(null, hardAffinity, { node: 'node1', labels: s1 }), withAffinity(null, hardAffinity, { node: 'node2', labels: s2 })],
      nodes: [node('node1', china), node('node2', india), node('node3', az1)],
      want: [M, M, 0],
    },
    {
      name: 'anti-affinity: the node without matching pods scores highest',
      pod: withAffinity('p', awayFromS1InAz, { labels: s1 }),
      pods: [pod(null, { node: 'node1', labels: s1 }), pod(null, { node: 'node2', labels: s2 })],
      nodes: [node('node1', az1), node('node2', china)],
      want: [0, M],
    },
    {
      name: 'anti-affinity: a node without the topology key scores highest',
      pod: withAffinity('p', awayFromS1InAz, { labels: s1 }),
      pods: [pod(null, { node: 'node1', labels: s1 }), pod(null, { node: 'node2', labels: s1 })],
      nodes: [node('node1', az1), node('node2', china)],
      want: [0, M],
    },
    {
      name: 'anti-affinity: the node with more matching pods scores lowest',
      pod: withAffinity('p', awayFromS1InAz, { labels: s1 }),
      pods: [pod(null, { node: 'node1', labels: s1 }), pod(null, { node: 'node1', labels: s1 }), pod(null, { node: 'node2', labels: s2 })],
      nodes: [node('node1', az1), node('node2', india)],
      want: [0, M],
    },
    {
      name: 'anti-affinity symmetry: existing pods’ preferred anti-affinity terms count',
      pod: pod('p', { labels: s2 }),
      pods: [withAffinity(null, awayFromS2InAz, { node: 'node1', labels: s1 }), withAffinity(null, awayFromS1InAz, { node: 'node2', labels: s2 })],
      nodes: [node('node1', az1), node('node2', az2)],
      want: [0, M],
    },
    {
      name: 'affinity and anti-affinity of the incoming pod together',
      pod: withAffinity('p', stayWithS1InRegionAwayFromS2InAz, { labels: s1 }),
      pods: [pod(null, { node: 'node1', labels: s1 }), pod(null, { node: 'node2', labels: s1 })],
      nodes: [node('node1', china), node('node2', az1)],
      want: [M, 0],
    },
    {
      name: 'same labels everywhere: together in the region, apart per az',
      pod: withAffinity('p', stayWithS1InRegionAwayFromS2InAz, { labels: s1 }),
      pods: ['node1', 'node1', 'node2', 'node3', 'node3', 'node4', 'node5'].map((n) => pod(null, { node: n, labels: s1 })),
      nodes: [node('node1', chinaAz1), node('node2', india), node('node3', china), node('node4', china), node('node5', india)],
      want: [M, 0, M, M, 0],
    },
    {
      name: 'affinity, anti-affinity and both symmetries together',
      pod: withAffinity('p', stayWithS1InRegionAwayFromS2InAz, { labels: s1 }),
      pods: [
        pod(null, { node: 'node1', labels: s1 }),
        pod(null, { node: 'node2', labels: s2 }),
        withAffinity(null, stayWithS1InRegionAwayFromS2InAz, { node: 'node3' }),
        withAffinity(null, awayFromS1InAz, { node: 'node4' }),
      ],
      nodes: [node('node1', china), node('node2', az1), node('node3', india), node('node4', az2)],
      want: [M, 0, M, 0],
    },
    {
      name: 'nodes of a topology without pods with affinity still get its score',
      pod: pod('p', { labels: s1 }),
      pods: [pod(null, { node: 'node1', labels: s1 }), withAffinity(null, stayWithS1InRegionAwayFromS2InAz, { node: 'node2' })],
      nodes: [node('node1', china), node('node2', china)],
      want: [0, 0],
    },
    {
      name: 'incoming preferred affinity with namespaceSelector and namespaces',
      pod: withAffinity('p', affinityNamespaceSelector, { namespace: 'subteam1.team1', labels: s1 }),
      pods: [
        pod(null, { node: 'node1', namespace: 'subteam1.team1', labels: s1 }),
        pod(null, { node: 'node1', namespace: 'subteam1.team1', labels: s1 }),
        pod(null, { node: 'node1', namespace: 'subteam1.team2', labels: s1 }),
        pod(null, { node: 'node2', namespace: 'subteam2.team1', labels: s1 }),
      ],
      nodes: [node('node1', china), node('node2', india)],
      want: [M, 0],
    },
    {
      name: 'incoming preferred affinity: pods matched through namespaces and namespaceSelector',
      pod: withAffinity('p', affinityNamespaceSelector, { namespace: 'subteam1.team1', labels: s1 }),
      pods: [
        pod(null, { node: 'node1', namespace: 'subteam1.team1', labels: s1 }),
        pod(null, { node: 'node1', namespace: 'subteam1.team1', labels: s1 }),
        pod(null, { node: 'node1', namespace: 'subteam2.team2', labels: s1 }),
        pod(null, { node: 'node2', namespace: 'subteam2.team1', labels: s1 }),
      ],
      nodes: [node('node1', china), node('node2', india)],
      want: [M, 0],
    },
    {
      name: 'incoming preferred anti-affinity with namespaceSelector',
      pod: withAffinity('p', antiAffinityNamespaceSelector, { namespace: 'subteam1.team1', labels: s1 }),
      pods: [
        pod(null, { node: 'node1', namespace: 'subteam1.team1', labels: s1 }),
        pod(null, { node: 'node1', namespace: 'subteam1.team1', labels: s1 }),
        pod(null, { node: 'node1', namespace: 'subteam1.team2', labels: s1 }),
        pod(null, { node: 'node2', namespace: 'subteam2.team1', labels: s1 }),
      ],
      nodes: [node('node1', china), node('node2', india)],
      want: [0, M],
    },
    {
      name: 'incoming preferred anti-affinity: pods matched through namespaces and namespaceSelector',
      pod: withAffinity('p', antiAffinityNamespaceSelector, { namespace: 'subteam1.team1', labels: s1 }),
      pods: [
        pod(null, { node: 'node1', namespace: 'subteam1.team1', labels: s1 }),
        pod(null, { node: 'node1', namespace: 'subteam1.team1', labels: s1 }),
        pod(null, { node: 'node1', namespace: 'subteam2.team2', labels: s1 }),
        pod(null, { node: 'node2', namespace: 'subteam2.team1', labels: s1 }),
      ],
      nodes: [node('node1', china), node('node2', india)],
      want: [0, M],
    },
    {
      name: 'ignorePreferredTermsOfExistingPods skips a pod without preferred terms',
      pod: pod('p', { labels: s2 }),
      pods: [withAffinity(null, stayWithS1InRegionAwayFromS2InAz, { node: 'node1', labels: s1 }), withAffinity(null, stayWithS2InRegion, { node: 'node2', labels: s2 })],
      nodes: [node('node1', china), node('node2', india)],
      args: { ignorePreferredTermsOfExistingPods: true },
      want: Code.Skip,
    },
    {
      name: 'existing pods’ preferred terms count by default',
      pod: pod('p', { labels: s2 }),
      pods: [withAffinity(null, stayWithS1InRegionAwayFromS2InAz, { node: 'node1', labels: s1 }), withAffinity(null, stayWithS2InRegion, { node: 'node2', labels: s2 })],
      nodes: [node('node1', china), node('node2', india)],
      want: [0, M],
    },
    {
      name: 'no nodes to score',
      pod: pod('p', { labels: s2 }),
      nodes: [],
      want: Code.Skip,
    },
  ];
  for (const c of cases) it(c.name, () => run(c));

  it('an invalid preferred selector value fails PreScore with an error', () => {
    for (const affinity of [
      { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(8, term(sel('security', 'In', ['{{.bad-value.}}']), 'region'))] } },
      { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(sel('security', 'In', ['{{.bad-value.}}']), 'az'))] } },
    ]) {
      const { plugin, handle, state } = setup([], [node('node1', china), node('node2', china)]);
      const s = plugin.preScore(state, new PodInfo(withAffinity('p', affinity)), handle.snapshot.list());
      assert.equal(s?.code, Code.Error);
      assert.match(s!.message(), /\{\{\.bad-value\.\}\}/);
    }
  });
});

describe('InterPodAffinity scoring: hardPodAffinityWeight', () => {
  const hardPodAffinity: Affinity = {
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        term(sel('service', 'In', ['S1']), 'region', { namespaces: ['default', 'subteam2.team2'], namespaceSelector: sel('team', 'In', ['team1']) }),
      ],
    },
  };
  const nodes = [node('node1', china), node('node2', india), node('node3', az1)];
  const existing = () => [withAffinity(null, hardPodAffinity, { node: 'node1' }), withAffinity(null, hardPodAffinity, { node: 'node2' })];
  const cases: Case[] = [
    { name: 'default weight', pod: pod('p', { labels: { service: 'S1' } }), pods: existing(), nodes, want: [M, M, 0] },
    { name: 'zero weight leaves nothing to score', pod: pod('p', { labels: { service: 'S1' } }), pods: existing(), nodes, args: { hardPodAffinityWeight: 0 }, want: Code.Skip },
    { name: 'no matching namespace', pod: pod('p', { namespace: 'subteam1.team2', labels: { service: 'S1' } }), pods: existing(), nodes, want: Code.Skip },
    { name: 'namespace matched by the namespaceSelector', pod: pod('p', { namespace: 'subteam1.team1', labels: { service: 'S1' } }), pods: existing(), nodes, want: [M, M, 0] },
    { name: 'namespace listed in namespaces', pod: pod('p', { namespace: 'subteam2.team2', labels: { service: 'S1' } }), pods: existing(), nodes, want: [M, M, 0] },
  ];
  for (const c of cases) it(c.name, () => run(c));

  it('weights the existing pods’ required terms by hardPodAffinityWeight against preferred weights', () => {
    // node1 region China holds a pod requiring S1 pods (hard weight 10); node2 region India
    // holds a pod preferring S1 pods with weight 5: raw scores 10, 5, 0 normalize to 100, 50, 0.
    const preferS1: Affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term(sel('service', 'In', ['S1']), 'region'))] } };
    run({
      name: 'hard weight 10',
      pod: pod('p', { labels: { service: 'S1' } }),
      pods: [withAffinity(null, hardPodAffinity, { node: 'node1' }), withAffinity(null, preferS1, { node: 'node2' })],
      nodes,
      args: { hardPodAffinityWeight: 10 },
      want: [M, 50, 0],
    });
  });
});

describe('InterPodAffinity NormalizeScore', () => {
  it('scales from the lowest score, not from zero', () => {
    // All raw scores positive: 12, 24, 18 → 0, 100, 50.
    const prefer: Affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(6, term(sel('app', 'In', ['a']), 'zone'))] } };
    const pods = [
      ...['n1', 'n1'].map((n) => pod(null, { node: n, labels: { app: 'a' } })),
      ...['n2', 'n2', 'n2', 'n2'].map((n) => pod(null, { node: n, labels: { app: 'a' } })),
      ...['n3', 'n3', 'n3'].map((n) => pod(null, { node: n, labels: { app: 'a' } })),
    ];
    run({
      name: 'positive scores',
      pod: withAffinity('p', prefer),
      pods,
      nodes: [node('n1', { zone: 'a' }), node('n2', { zone: 'b' }), node('n3', { zone: 'c' })],
      want: [0, M, 50],
    });
  });

  it('gives every node 0 when all raw scores are equal', () => {
    const prefer: Affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(3, term(sel('app', 'In', ['a']), 'zone'))] } };
    run({
      name: 'equal',
      pod: withAffinity('p', prefer),
      pods: [pod(null, { node: 'n1', labels: { app: 'a' } }), pod(null, { node: 'n2', labels: { app: 'a' } })],
      nodes: [node('n1', { zone: 'a' }), node('n2', { zone: 'b' })],
      want: [0, 0],
    });
  });
});
