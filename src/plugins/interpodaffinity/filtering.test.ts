// Scenarios of upstream's interpodaffinity/filtering_test.go, in our own table form.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { Code, type Status } from '../../framework/status.js';
import {
  ErrReasonAffinityRulesNotMatch as affinityReason,
  ErrReasonAntiAffinityRulesNotMatch as antiReason,
  ErrReasonExistingAntiAffinityRulesNotMatch as existingReason,
  PreFilterState,
  preFilterStateKey,
} from './filtering.js';
import { namespace, node, pod, PodInfo, sel, setup, term, type TestPodOptions } from './test_helpers.js';

type Want = null | 'affinity' | 'anti' | 'existing';

function wantStatus(w: Want): { code: Code; reasons: string[] } | null {
  switch (w) {
    case null:
      return null;
    case 'affinity':
      return { code: Code.UnschedulableAndUnresolvable, reasons: [affinityReason] };
    case 'anti':
      return { code: Code.Unschedulable, reasons: [antiReason] };
    case 'existing':
      return { code: Code.Unschedulable, reasons: [existingReason] };
  }
}

function asPlain(s: Status | null): { code: Code; reasons: string[] } | null {
  return s === null ? null : { code: s.code, reasons: [...s.reasons] };
}

interface Case {
  name: string;
  pod: Pod;
  pods?: Pod[];
  nodes: Node[];
  /** 'skip' when PreFilter is expected to return Skip (Filter is then not run). */
  preFilter?: 'skip';
  /** One entry per node, in order. */
  want?: Want[];
}

function run(c: Case): void {
  const { plugin, handle, state } = setup(c.pods ?? [], c.nodes);
  const out = plugin.preFilter(state, new PodInfo(c.pod), handle.snapshot.list());
  if (c.preFilter === 'skip') {
    assert.equal(out.status?.code, Code.Skip);
    return;
  }
  assert.equal(out.status, null, `PreFilter: ${out.status?.message()}`);
  const got = c.nodes.map((n) => asPlain(plugin.filter(state, new PodInfo(c.pod), handle.snapshot.get(n.metadata.name!)!)));
  assert.deepEqual(got, (c.want ?? []).map(wantStatus));
}

const securityscan = { service: 'securityscan' };
const securityS1 = { security: 'S1' };

describe('InterPodAffinity Filter: one node', () => {
  const node1 = node('node1', { region: 'r1', zone: 'z11' });
  const existing = pod('existing', { labels: securityscan, node: 'node1' });
  const one = (name: string, incoming: TestPodOptions, pods: Pod[], want: Want): Case => ({
    name,
    pod: pod('incoming', incoming),
    pods,
    nodes: [node1],
    want: [want],
  });
  const cases: Case[] = [
    { name: 'a pod without required pod affinity skips the plugin', pod: pod('incoming'), nodes: [node1], preFilter: 'skip' },
    one('required affinity with In matches the existing pod', { labels: securityS1, affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region')] }, [existing], null),
    one('required affinity with NotIn matches the existing pod', { labels: securityS1, affinity: [term(sel('service', 'NotIn', ['securityscan3', 'value3']), 'region')] }, [existing], null),
    one(
      'affinity does not match a pod in another namespace',
      { labels: securityS1, affinity: [term(sel('service', 'In', ['securityscan', 'value2']), '', { namespaces: ['DiffNameSpace'] })] },
      [pod(null, { namespace: 'ns', labels: securityscan, node: 'node1' })],
      'affinity',
    ),
    one('affinity selector that no existing pod matches', { labels: securityscan, affinity: [term(sel('service', 'In', ['antivirusscan', 'value2']), '')] }, [existing], 'affinity'),
    one(
      'several affinity terms with different operators all match the existing pod',
      {
        labels: securityS1,
        affinity: [
          term({ matchExpressions: [{ key: 'service', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, 'region'),
          term({ matchExpressions: [{ key: 'service', operator: 'In', values: ['securityscan'] }, { key: 'service', operator: 'NotIn', values: ['WrongValue'] }] }, 'region'),
        ],
      },
      [existing],
      null,
    ),
    one(
      'the requirements of a selector are ANDed: one unmatched requirement fails the term',
      {
        labels: securityS1,
        affinity: [
          term({ matchExpressions: [{ key: 'service', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, 'region'),
          term({ matchExpressions: [{ key: 'service', operator: 'In', values: ['securityscan2'] }, { key: 'service', operator: 'NotIn', values: ['WrongValue'] }] }, 'region'),
        ],
      },
      [existing],
      'affinity',
    ),
    one(
      'satisfies both affinity and anti-affinity with the existing pod',
      {
        labels: securityS1,
        affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region')],
        antiAffinity: [term(sel('service', 'In', ['antivirusscan', 'value2']), 'node')],
      },
      [existing],
      null,
    ),
    one(
      "satisfies affinity, anti-affinity and the existing pod's anti-affinity",
      {
        labels: securityS1,
        affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region')],
        antiAffinity: [term(sel('service', 'In', ['antivirusscan', 'value2']), 'node')],
      },
      [pod(null, { labels: securityscan, node: 'node1', antiAffinity: [term(sel('service', 'In', ['antivirusscan', 'value2']), 'node')] })],
      null,
    ),
    one(
      'satisfies affinity but not anti-affinity',
      {
        labels: securityS1,
        affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region')],
        antiAffinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'zone')],
      },
      [existing],
      'anti',
    ),
    one(
      "satisfies its own rules but not the existing pod's anti-affinity (symmetry)",
      {
        labels: securityscan,
        affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region')],
        antiAffinity: [term(sel('service', 'In', ['antivirusscan', 'value2']), 'node')],
      },
      [pod(null, { labels: securityscan, node: 'node1', antiAffinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'zone')] })],
      'existing',
    ),
    one(
      'a pod not matching its own affinity cannot be the first of its group',
      { labels: securityscan, affinity: [term(sel('service', 'NotIn', ['securityscan', 'value2']), 'region')] },
      [pod(null, { labels: securityscan, node: 'node2' })],
      'affinity',
    ),
    one(
      "an existing pod's anti-affinity applies to a pod without any affinity",
      { labels: securityscan },
      [pod(null, { labels: securityscan, node: 'node1', antiAffinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'zone')] })],
      'existing',
    ),
    {
      name: "an existing pod's anti-affinity that does not match leaves nothing to filter",
      pod: pod('incoming', { labels: securityscan }),
      pods: [pod(null, { labels: securityscan, node: 'node1', antiAffinity: [term(sel('service', 'NotIn', ['securityscan', 'value2']), 'zone')] })],
      nodes: [node1],
      preFilter: 'skip',
    },
    one(
      "incoming anti-affinity matches the existing pod before the existing pod's own terms are checked",
      { labels: securityscan, antiAffinity: [term(sel('service', 'Exists'), 'region'), term(sel('security', 'Exists'), 'region')] },
      [pod(null, { labels: securityS1, node: 'node1', antiAffinity: [term(sel('security', 'Exists'), 'zone')] })],
      'anti',
    ),
    one(
      'symmetry a1: partial match of anti-affinity terms both ways',
      { labels: securityscan, antiAffinity: [term(sel('service', 'Exists'), 'zone'), term(sel('security', 'Exists'), 'zone')] },
      [pod(null, { labels: securityS1, node: 'node1', antiAffinity: [term(sel('security', 'Exists'), 'zone')] })],
      'anti',
    ),
    one(
      'symmetry a2: only the existing pod repels the incoming one',
      { labels: securityS1, antiAffinity: [term(sel('security', 'Exists'), 'zone')] },
      [pod(null, { labels: securityscan, node: 'node1', antiAffinity: [term(sel('service', 'Exists'), 'zone'), term(sel('security', 'Exists'), 'zone')] })],
      'existing',
    ),
    one(
      'symmetry b1: each pod matches one term of the other',
      { labels: { abc: '', xyz: '' }, antiAffinity: [term(sel('abc', 'Exists'), 'zone'), term(sel('def', 'Exists'), 'zone')] },
      [pod(null, { labels: { def: '', xyz: '' }, node: 'node1', antiAffinity: [term(sel('abc', 'Exists'), 'zone'), term(sel('def', 'Exists'), 'zone')] })],
      'anti',
    ),
    one(
      'symmetry b2: each pod matches one term of the other, labels swapped',
      { labels: { def: '', xyz: '' }, antiAffinity: [term(sel('abc', 'Exists'), 'zone'), term(sel('def', 'Exists'), 'zone')] },
      [pod(null, { labels: { abc: '', xyz: '' }, node: 'node1', antiAffinity: [term(sel('abc', 'Exists'), 'zone'), term(sel('def', 'Exists'), 'zone')] })],
      'anti',
    ),
    one(
      'affinity with a namespaceSelector matching the existing pod’s namespace',
      { labels: securityS1, affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region', { namespaceSelector: sel('team', 'In', ['team1']) })] },
      [pod(null, { namespace: 'subteam1.team1', labels: securityscan, node: 'node1' })],
      null,
    ),
    one(
      'affinity with a namespaceSelector not matching the existing pod’s namespace',
      { labels: securityS1, affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region', { namespaceSelector: sel('team', 'In', ['team1']) })] },
      [pod(null, { namespace: 'subteam1.team2', labels: securityscan, node: 'node1' })],
      'affinity',
    ),
    one(
      'anti-affinity with a matching namespaceSelector',
      { namespace: 'subteam1.team1', labels: securityS1, antiAffinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'zone', { namespaceSelector: sel('team', 'In', ['team1']) })] },
      [pod(null, { namespace: 'subteam2.team1', labels: securityscan, node: 'node1' })],
      'anti',
    ),
    one(
      'anti-affinity with an empty namespaceSelector matches every namespace',
      { namespace: 'subteam1.team1', labels: securityS1, antiAffinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'zone', { namespaceSelector: {} })] },
      [pod(null, { namespace: 'subteam2.team1', labels: securityscan, node: 'node1' })],
      'anti',
    ),
    one(
      'anti-affinity with a non-matching namespaceSelector',
      { namespace: 'subteam1.team1', labels: securityS1, antiAffinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'zone', { namespaceSelector: sel('team', 'In', ['team1']) })] },
      [pod(null, { namespace: 'subteam1.team2', labels: securityscan, node: 'node1' })],
      null,
    ),
  ];
  for (const c of cases) it(c.name, () => run(c));

  it('a pod with an invalid affinity value fails PreFilter as unresolvable', () => {
    for (const spec of [
      { affinity: [term(sel('service', 'In', ['{{.bad-value.}}']), 'region'), term(sel('service', 'In', ['antivirusscan']), 'node')] },
      { affinity: [term(sel('service', 'In', ['foo']), 'region')], antiAffinity: [term(sel('service', 'In', ['{{.bad-value.}}']), 'node')] },
    ]) {
      const { plugin, handle, state } = setup([], [node1]);
      const out = plugin.preFilter(state, new PodInfo(pod('bad', { labels: securityscan, ...spec })), handle.snapshot.list());
      assert.equal(out.status?.code, Code.UnschedulableAndUnresolvable);
      assert.match(out.status!.message(), /^parsing pod: .*\{\{\.bad-value\.\}\}/);
    }
  });
});

describe('InterPodAffinity Filter: several nodes', () => {
  const china = { region: 'China' };
  const chinaAz1 = { region: 'China', az: 'az1' };
  const india = { region: 'India' };
  const r1z1 = (n: string) => node(n, { region: 'r1', zone: 'z1', hostname: n });
  const r1z2 = (n: string) => node(n, { region: 'r1', zone: 'z2', hostname: n });
  const cases: Case[] = [
    {
      name: 'every node in the domain of a matching pod fits, the others do not',
      pod: pod('incoming', { affinity: [term(sel('foo', 'In', ['bar']), 'region')] }),
      pods: [pod('p1', { node: 'node1', labels: { foo: 'bar' } })],
      nodes: [node('node1', china), node('node2', chinaAz1), node('node3', india)],
      want: [null, null, 'affinity'],
    },
    {
      name: 'the first pod of a group with affinity to itself may go anywhere',
      pod: pod('incoming', {
        labels: { foo: 'bar', service: 'securityscan' },
        affinity: [term(sel('foo', 'In', ['bar']), 'zone'), term(sel('service', 'In', ['securityscan']), 'zone')],
      }),
      pods: [pod('p1', { node: 'nodeA', labels: { foo: 'bar' } })],
      nodes: [node('nodeA', { zone: 'az1', hostname: 'h1' }), node('nodeB', { zone: 'az2', hostname: 'h2' })],
      want: [null, null],
    },
    {
      name: 'the first pod of a group still needs nodes with the topology keys',
      pod: pod('incoming', {
        labels: { foo: 'bar', service: 'securityscan' },
        affinity: [term(sel('foo', 'In', ['bar']), 'zone'), term(sel('service', 'In', ['securityscan']), 'zone')],
      }),
      pods: [pod('p1', { node: 'nodeA', labels: { foo: 'bar' } })],
      nodes: [node('nodeA', { zoneLabel: 'az1', hostname: 'h1' }), node('nodeB', { zoneLabel: 'az2', hostname: 'h2' })],
      want: ['affinity', 'affinity'],
    },
    {
      name: 'anti-affinity keeps the pod off every node of the matching pod’s domain',
      pod: pod('incoming', { antiAffinity: [term(sel('foo', 'In', ['abc']), 'region')] }),
      pods: [pod(null, { node: 'nodeA', labels: { foo: 'abc' } })],
      nodes: [node('nodeA', { region: 'r1', hostname: 'nodeA' }), node('nodeB', { region: 'r1', hostname: 'nodeB' })],
      want: ['anti', 'anti'],
    },
    {
      name: 'anti-affinity applies when any one of its terms matches',
      pod: pod('incoming', { antiAffinity: [term(sel('foo', 'In', ['abc']), 'region'), term(sel('service', 'In', ['securityscan']), 'zone')] }),
      pods: [pod(null, { node: 'nodeA', labels: { foo: 'abc', service: 'securityscan' } })],
      nodes: [node('nodeA', { region: 'r1', zone: 'z1', hostname: 'nodeA' }), node('nodeB', { region: 'r1', zone: 'z2', hostname: 'nodeB' })],
      want: ['anti', 'anti'],
    },
    {
      name: 'anti-affinity allows nodes of other domains',
      pod: pod('incoming', { antiAffinity: [term(sel('foo', 'In', ['abc']), 'region')] }),
      pods: [pod(null, { node: 'nodeA', labels: { foo: 'abc' } })],
      nodes: [node('nodeA', china), node('nodeB', chinaAz1), node('nodeC', india)],
      want: ['anti', 'anti', null],
    },
    {
      name: "an existing pod's anti-affinity only counts in its own namespace",
      pod: pod('incoming', { namespace: 'NS1', labels: { foo: '123' }, antiAffinity: [term(sel('foo', 'In', ['bar']), 'region')] }),
      pods: [
        pod(null, { node: 'nodeA', namespace: 'NS1', labels: { foo: 'bar' } }),
        pod(null, { node: 'nodeC', namespace: 'NS2', antiAffinity: [term(sel('foo', 'In', ['123']), 'region')] }),
      ],
      nodes: [node('nodeA', china), node('nodeB', chinaAz1), node('nodeC', india)],
      want: ['anti', 'anti', null],
    },
    {
      name: "an existing pod's anti-affinity term with a key no node has matches nowhere",
      pod: pod('incoming', { labels: { foo: '' } }),
      pods: [pod(null, { node: 'nodeA', antiAffinity: [term(sel('foo', 'Exists'), 'invalid-node-label')] })],
      nodes: [r1z1('nodeA'), r1z1('nodeB')],
      preFilter: 'skip',
    },
    {
      name: "the incoming pod's anti-affinity needs the topology key as well as the selector",
      pod: pod('incoming', { node: 'nodeA', antiAffinity: [term(sel('foo', 'Exists'), 'invalid-node-label')] }),
      pods: [pod(null, { node: 'nodeA', labels: { foo: '' } })],
      nodes: [r1z1('nodeA'), r1z1('nodeB')],
      want: [null, null],
    },
    {
      name: "the incoming pod violates existing pods' anti-affinity on every node",
      pod: pod('incoming', { labels: { foo: '', bar: '' } }),
      pods: [
        pod(null, { node: 'nodeA', antiAffinity: [term(sel('foo', 'Exists'), 'zone')] }),
        pod(null, { node: 'nodeA', antiAffinity: [term(sel('bar', 'Exists'), 'region')] }),
      ],
      nodes: [r1z1('nodeA'), r1z2('nodeB')],
      want: ['existing', 'existing'],
    },
    {
      name: "the incoming pod's anti-affinity is violated on every node by one term or another",
      pod: pod('incoming', { antiAffinity: [term(sel('foo', 'Exists'), 'zone'), term(sel('bar', 'Exists'), 'region')] }),
      pods: [pod(null, { node: 'nodeA', labels: { foo: '' } }), pod(null, { node: 'nodeB', labels: { bar: '' } })],
      nodes: [r1z1('nodeA'), r1z2('nodeB')],
      want: ['anti', 'anti'],
    },
    {
      name: "existing anti-affinity: a term counts only when both selector and topology key match",
      pod: pod('incoming', { labels: { foo: '', bar: '' } }),
      pods: [pod(null, { node: 'nodeA', antiAffinity: [term(sel('foo', 'Exists'), 'invalid-node-label'), term(sel('bar', 'Exists'), 'zone')] })],
      nodes: [r1z1('nodeA'), r1z2('nodeB')],
      want: ['existing', null],
    },
    {
      name: 'incoming anti-affinity: a term counts only when both selector and topology key match',
      pod: pod('incoming', { antiAffinity: [term(sel('foo', 'Exists'), 'invalid-node-label'), term(sel('bar', 'Exists'), 'zone')] }),
      pods: [pod('podA', { node: 'nodeA', labels: { foo: '', bar: '' } })],
      nodes: [r1z1('nodeA'), r1z2('nodeB')],
      want: ['anti', null],
    },
    {
      name: 'existing anti-affinity with valid keys: the region term reaches every node',
      pod: pod('incoming', { labels: { foo: '', bar: '' } }),
      pods: [pod(null, { node: 'nodeA', antiAffinity: [term(sel('foo', 'Exists'), 'region'), term(sel('bar', 'Exists'), 'zone')] })],
      nodes: [r1z1('nodeA'), r1z2('nodeB')],
      want: ['existing', 'existing'],
    },
    {
      name: 'incoming anti-affinity with valid keys: the region term reaches every node',
      pod: pod('incoming', { antiAffinity: [term(sel('foo', 'Exists'), 'region'), term(sel('bar', 'Exists'), 'zone')] }),
      pods: [pod(null, { node: 'nodeA', labels: { foo: '', bar: '' } })],
      nodes: [r1z1('nodeA'), r1z2('nodeB')],
      want: ['anti', 'anti'],
    },
    {
      name: 'existing pods on nodeA and nodeB each repel the pod: only nodeC is left',
      pod: pod('incoming', { labels: { foo: '', bar: '' } }),
      pods: [
        pod(null, { node: 'nodeA', antiAffinity: [term(sel('foo', 'Exists'), 'zone'), term(sel('labelA', 'Exists'), 'zone')] }),
        pod(null, { node: 'nodeB', antiAffinity: [term(sel('bar', 'Exists'), 'zone'), term(sel('labelB', 'Exists'), 'zone')] }),
      ],
      nodes: [r1z1('nodeA'), r1z2('nodeB'), node('nodeC', { region: 'r1', zone: 'z3', hostname: 'nodeC' })],
      want: ['existing', 'existing', null],
    },
    {
      name: 'affinity: one pod matching all terms satisfies every topology key',
      pod: pod('incoming', { affinity: [term(sel('foo', 'Exists'), 'region'), term(sel('bar', 'Exists'), 'zone')] }),
      pods: [pod('pod1', { node: 'nodeA', labels: { foo: '', bar: '' } })],
      nodes: [r1z1('nodeA'), r1z1('nodeB')],
      want: [null, null],
    },
    {
      name: 'affinity: the terms must be matched by the same pod',
      pod: pod('incoming', { affinity: [term(sel('foo', 'Exists'), 'region'), term(sel('bar', 'Exists'), 'zone')] }),
      pods: [pod('pod1', { node: 'nodeA', labels: { foo: '' } }), pod('pod2', { node: 'nodeB', labels: { bar: '' } })],
      nodes: [r1z1('nodeA'), r1z2('nodeB')],
      want: ['affinity', 'affinity'],
    },
  ];
  for (const c of cases) it(c.name, () => run(c));
});

describe('InterPodAffinity Filter without PreFilter', () => {
  it('returns an error status', () => {
    const { plugin, handle } = setup([], [node('n1')]);
    const s = plugin.filter(new CycleState(), new PodInfo(pod('p')), handle.snapshot.get('n1')!);
    assert.equal(s?.code, Code.Error);
  });
});

describe('InterPodAffinity PreFilter state', () => {
  const countsOf = (state: CycleState) => {
    const s = state.read<PreFilterState>(preFilterStateKey)!;
    return {
      existingAntiAffinity: s.existingAntiAffinityCounts.toRecord(),
      affinity: s.affinityCounts.toRecord(),
      antiAffinity: s.antiAffinityCounts.toRecord(),
    };
  };

  const label1 = { region: 'r1', zone: 'z11' };
  const label2 = { region: 'r1', zone: 'z12' };
  const label3 = { region: 'r2', zone: 'z21' };
  const fooBar = { foo: 'bar' };
  const antiFooBar = [term(sel('foo', 'In', ['bar']), 'region')];
  const complexTerms = [term(sel('foo', 'In', ['bar', 'buzz']), 'region'), term(sel('service', 'NotIn', ['bar', 'security', 'test']), 'zone')];
  const nodes = [node('nodeA', label1), node('nodeB', label2), node('nodeC', label3)];

  const addRemoveCases: {
    name: string;
    pending: Pod;
    existing: Pod[];
    added: Pod;
    wantAntiAffinity: Record<string, number>;
    wantAffinity: Record<string, number>;
  }[] = [
    {
      name: 'anti-affinity counts follow an added and removed pod',
      pending: pod('pending', { labels: fooBar, antiAffinity: antiFooBar }),
      existing: [pod('p1', { labels: fooBar, node: 'nodeA' }), pod('p2', { node: 'nodeC', antiAffinity: antiFooBar })],
      added: pod('addedPod', { labels: fooBar, node: 'nodeB', antiAffinity: antiFooBar }),
      wantAntiAffinity: { 'region=r1': 2 },
      wantAffinity: {},
    },
    {
      name: 'anti-affinity counts with several terms follow an added and removed pod',
      pending: pod('pending', { labels: fooBar, antiAffinity: complexTerms }),
      existing: [pod('p1', { labels: fooBar, node: 'nodeA' }), pod('p2', { node: 'nodeC', antiAffinity: antiFooBar })],
      added: pod('addedPod', { labels: fooBar, node: 'nodeA', antiAffinity: complexTerms }),
      wantAntiAffinity: { 'region=r1': 2, 'zone=z11': 2, 'zone=z21': 1 },
      wantAffinity: {},
    },
    {
      name: 'affinity and anti-affinity counts follow an added and removed pod',
      pending: pod('pending', { labels: fooBar, affinity: complexTerms }),
      existing: [pod('p1', { labels: fooBar, node: 'nodeA' }), pod('p2', { node: 'nodeC', antiAffinity: antiFooBar, affinity: complexTerms })],
      added: pod('addedPod', { labels: fooBar, node: 'nodeA', antiAffinity: complexTerms }),
      wantAntiAffinity: {},
      wantAffinity: { 'region=r1': 2, 'zone=z11': 2 },
    },
  ];
  for (const c of addRemoveCases) {
    it(c.name, () => {
      const prefilter = (pods: Pod[]) => {
        const { plugin, handle, state } = setup(pods, nodes);
        const out = plugin.preFilter(state, new PodInfo(c.pending), handle.snapshot.list());
        assert.equal(out.status, null);
        return { plugin, handle, state };
      };
      const all = countsOf(prefilter([...c.existing, c.added]).state);
      const { plugin, handle, state } = prefilter(c.existing);
      const before = countsOf(state);
      const nodeInfo = handle.snapshot.get(c.added.spec.nodeName!)!;

      assert.equal(plugin.addPod(state, new PodInfo(c.pending), new PodInfo(c.added), nodeInfo), null);
      const afterAdd = countsOf(state);
      assert.deepEqual(afterAdd.antiAffinity, c.wantAntiAffinity);
      assert.deepEqual(afterAdd.affinity, c.wantAffinity);
      assert.deepEqual(afterAdd, all);

      assert.equal(plugin.removePod(state, new PodInfo(c.pending), new PodInfo(c.added), nodeInfo), null);
      assert.deepEqual(countsOf(state), before);
    });
  }

  it('clone copies the counts and does not share them', () => {
    const { plugin, handle, state } = setup(
      [pod(null, { node: 'nodeA', labels: fooBar }), pod(null, { node: 'nodeC', antiAffinity: antiFooBar })],
      nodes,
    );
    plugin.preFilter(state, new PodInfo(pod('pending', { labels: fooBar, affinity: antiFooBar, antiAffinity: antiFooBar })), handle.snapshot.list());
    const original = state.read<PreFilterState>(preFilterStateKey)!;
    const copy = original.clone();
    assert.notEqual(copy, original);
    const before = countsOf(state);
    const cloned = new CycleState();
    cloned.write(preFilterStateKey, copy);
    assert.deepEqual(countsOf(cloned), before);
    copy.updateWithPod(new PodInfo(pod(null, { node: 'nodeB', labels: fooBar, antiAffinity: antiFooBar })), nodes[1]!, 1);
    assert.deepEqual(countsOf(state), before);
    assert.notDeepEqual(countsOf(cloned), before);
  });

  describe('counts of existing pods matching the incoming pod’s terms', () => {
    const nodeA = node('nodeA', { hostname: 'nodeA' });
    const normal = (...labels: string[]) => pod(null, { node: 'nodeA', labels: Object.fromEntries(labels.map((l) => [l, ''])) });
    const exists = (k: string) => term(sel(k, 'Exists'), 'hostname');
    const cases: { name: string; existing: Pod[]; incoming: Pod; wantAffinity: Record<string, number>; wantAnti: Record<string, number> }[] = [
      {
        name: 'no existing pod carries a label the incoming pod’s terms select',
        existing: [normal('bbb')],
        incoming: pod('p', { affinity: [exists('aaa')], antiAffinity: [exists('aaa')] }),
        wantAffinity: {},
        wantAnti: {},
      },
      {
        name: 'an existing pod matches the affinity and anti-affinity: one term each',
        existing: [normal('aaa')],
        incoming: pod('p', { affinity: [exists('aaa')], antiAffinity: [exists('aaa')] }),
        wantAffinity: { 'hostname=nodeA': 1 },
        wantAnti: { 'hostname=nodeA': 1 },
      },
      {
        name: 'an existing pod matching every affinity term is counted once per term',
        existing: [normal('aaa', 'bbb')],
        incoming: pod('p', { affinity: [exists('aaa'), exists('bbb')], antiAffinity: [exists('aaa')] }),
        wantAffinity: { 'hostname=nodeA': 2 },
        wantAnti: { 'hostname=nodeA': 1 },
      },
      {
        name: 'an existing pod matching only some affinity terms counts for anti-affinity only',
        existing: [normal('aaa')],
        incoming: pod('p', { affinity: [exists('aaa'), exists('bbb')], antiAffinity: [exists('aaa'), exists('bbb')] }),
        wantAffinity: {},
        wantAnti: { 'hostname=nodeA': 1 },
      },
      {
        name: 'anti-affinity with several terms, the existing pod matching one of them (1)',
        existing: [normal('aaa', 'bbb')],
        incoming: pod('p', { affinity: [exists('aaa'), exists('ccc')], antiAffinity: [exists('aaa'), exists('ccc')] }),
        wantAffinity: {},
        wantAnti: { 'hostname=nodeA': 1 },
      },
      {
        name: 'anti-affinity with several terms, the existing pod matching one of them (2)',
        existing: [normal('bbb')],
        incoming: pod('p', { affinity: [exists('aaa'), exists('bbb')], antiAffinity: [exists('aaa'), exists('bbb')] }),
        wantAffinity: {},
        wantAnti: { 'hostname=nodeA': 1 },
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const { plugin, handle, state } = setup(c.existing, [nodeA]);
        assert.equal(plugin.preFilter(state, new PodInfo(c.incoming), handle.snapshot.list()).status, null);
        const got = countsOf(state);
        assert.deepEqual(got.affinity, c.wantAffinity);
        assert.deepEqual(got.antiAffinity, c.wantAnti);
      });
    }

    it('an incoming pod without (anti-)affinity and no repelling pod skips', () => {
      const { plugin, handle, state } = setup([normal('aaa')], [nodeA]);
      assert.equal(plugin.preFilter(state, new PodInfo(pod('p')), handle.snapshot.list()).status?.code, Code.Skip);
      assert.equal(state.read(preFilterStateKey), undefined);
    });
  });

  it('resolves a namespaceSelector against the Namespace objects the handle lists', () => {
    const incoming = pod('p', { affinity: [term(sel('app', 'In', ['db']), 'zone', { namespaceSelector: sel('tier', 'In', ['data']) })] });
    const pods = [pod(null, { namespace: 'dbs', labels: { app: 'db' }, node: 'n1' })];
    const nodes2 = [node('n1', { zone: 'a' }), node('n2', { zone: 'b' })];
    const withLabel = setup(pods, nodes2, {}, [namespace('dbs', { tier: 'data' })]);
    withLabel.plugin.preFilter(withLabel.state, new PodInfo(incoming), withLabel.handle.snapshot.list());
    assert.deepEqual(countsOf(withLabel.state).affinity, { 'zone=a': 1 });
    const without = setup(pods, nodes2, {}, [namespace('dbs')]);
    without.plugin.preFilter(without.state, new PodInfo(incoming), without.handle.snapshot.list());
    assert.deepEqual(countsOf(without.state).affinity, {});
  });
});
