// Scenarios of upstream's nodeaffinity/node_affinity_test.go and of ValidateNodeAffinityArgs
// (validation_pluginargs_test.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertStatus } from '../../testing/assert_status.js';
import type { Affinity, Node, NodeAffinity as NodeAffinitySpec, NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import type { NodeScore } from '../../framework/interfaces.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makePod } from '../../testing/builders.js';
import {
  ErrReasonPod,
  NodeAffinity,
  defaultNodeAffinityArgs,
  errReasonConflict,
  errReasonEnforced,
  nodeAffinityDefinition,
  validateNodeAffinityArgs,
  type NodeAffinityArgs,
} from './index.js';

const noArgs: NodeAffinityArgs = { addedAffinity: null };

function node(name: string, labels: Record<string, string> = {}): Node {
  return { metadata: { name, labels }, spec: {}, status: {} };
}

function podWith(spec: { nodeSelector?: Record<string, string>; affinity?: Affinity } = {}): Pod {
  return makePod('p', { spec: { containers: [{ name: 'c' }], ...spec } });
}

const expr = (key: string, operator: string, values?: string[]): NodeSelectorRequirement => ({
  key,
  operator,
  ...(values ? { values } : {}),
});
const nameIn = (...values: string[]): NodeSelectorRequirement => expr('metadata.name', 'In', values);

function requiredTerms(...terms: NodeSelectorTerm[]): Affinity {
  return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } };
}

describe('NodeAffinity PreFilter and Filter', () => {
  interface Case {
    name: string;
    pod: Pod;
    labels?: Record<string, string>;
    nodeName?: string;
    args?: NodeAffinityArgs;
    runPreFilter?: boolean;
    wantPreFilter?: { code: Code; reason?: string };
    wantNodeNames?: string[];
    wantFilter?: string;
  }
  const cases: Case[] = [
    { name: 'missing labels', pod: podWith({ nodeSelector: { foo: 'bar' } }), wantFilter: ErrReasonPod },
    { name: 'same labels', pod: podWith({ nodeSelector: { foo: 'bar' } }), labels: { foo: 'bar' } },
    { name: 'node labels are superset', pod: podWith({ nodeSelector: { foo: 'bar' } }), labels: { foo: 'bar', baz: 'blah' } },
    { name: 'node labels are subset', pod: podWith({ nodeSelector: { foo: 'bar', baz: 'blah' } }), labels: { foo: 'bar' }, wantFilter: ErrReasonPod },
    {
      name: 'matchExpressions with In matches the node',
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }) }),
      labels: { foo: 'bar' },
    },
    {
      name: 'matchExpressions with Gt matches the node',
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('kernel-version', 'Gt', ['0204'])] }) }),
      labels: { 'kernel-version': '0206' },
    },
    {
      name: 'matchExpressions with NotIn matches the node',
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('mem-type', 'NotIn', ['DDR', 'DDR2'])] }) }),
      labels: { 'mem-type': 'DDR3' },
    },
    {
      name: 'matchExpressions with Exists matches the node',
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('GPU', 'Exists')] }) }),
      labels: { GPU: 'NVIDIA-GRID-K1' },
    },
    {
      name: "affinity that doesn't match the node's labels",
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('foo', 'In', ['value1', 'value2'])] }) }),
      labels: { foo: 'bar' },
      wantFilter: ErrReasonPod,
    },
    {
      name: 'an empty matchExpressions term matches no node',
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [] }) }),
      labels: { foo: 'bar' },
      wantFilter: ErrReasonPod,
    },
    {
      name: 'an empty list of required terms matches no node',
      pod: podWith({ affinity: requiredTerms() }),
      labels: { foo: 'bar' },
      wantFilter: ErrReasonPod,
    },
    { name: 'no affinity: PreFilter skips', pod: podWith(), labels: { foo: 'bar' }, wantPreFilter: { code: Code.Skip } },
    {
      name: 'affinity without a required node selector: PreFilter skips',
      pod: podWith({ affinity: { nodeAffinity: {} } }),
      labels: { foo: 'bar' },
      wantPreFilter: { code: Code.Skip },
    },
    {
      name: 'an empty nodeSelector map does not skip, and matches',
      pod: podWith({ nodeSelector: {} }),
      labels: { foo: 'bar' },
    },
    {
      name: 'several ANDed matchExpressions match the node',
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }) }),
      labels: { GPU: 'NVIDIA-GRID-K1' },
    },
    {
      name: "several ANDed matchExpressions, one doesn't match",
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', ['AMD', 'INTER'])] }) }),
      labels: { GPU: 'NVIDIA-GRID-K1' },
      wantFilter: ErrReasonPod,
    },
    {
      name: 'ORed terms, one matches',
      pod: podWith({
        affinity: requiredTerms(
          { matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] },
          { matchExpressions: [expr('diffkey', 'In', ['wrong', 'value2'])] },
        ),
      }),
      labels: { foo: 'bar' },
    },
    {
      name: 'affinity and nodeSelector both satisfied',
      pod: podWith({ nodeSelector: { foo: 'bar' }, affinity: requiredTerms({ matchExpressions: [expr('foo', 'Exists')] }) }),
      labels: { foo: 'bar' },
    },
    {
      name: 'affinity matches but nodeSelector does not',
      pod: podWith({ nodeSelector: { foo: 'bar' }, affinity: requiredTerms({ matchExpressions: [expr('foo', 'Exists')] }) }),
      labels: { foo: 'barrrrrr' },
      wantFilter: ErrReasonPod,
    },
    {
      name: 'an invalid value in the affinity term makes the pod unschedulable, not an error',
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('foo', 'NotIn', ['invalid value: ___@#$%^'])] }) }),
      labels: { foo: 'bar' },
      wantFilter: ErrReasonPod,
    },
    {
      name: 'an invalid term is ignored when another term matches',
      pod: podWith({
        affinity: requiredTerms({ matchExpressions: [expr('foo', 'Bogus', ['x'])] }, { matchExpressions: [expr('foo', 'In', ['bar'])] }),
      }),
      labels: { foo: 'bar' },
    },
    {
      name: 'matchFields In matches the node',
      pod: podWith({ affinity: requiredTerms({ matchFields: [nameIn('node1')] }) }),
      nodeName: 'node1',
      wantNodeNames: ['node1'],
    },
    {
      name: 'matchFields In does not match the node',
      pod: podWith({ affinity: requiredTerms({ matchFields: [nameIn('node1')] }) }),
      nodeName: 'node2',
      wantNodeNames: ['node1'],
      wantFilter: ErrReasonPod,
    },
    {
      name: 'two terms: matchFields does not match but matchExpressions does',
      pod: podWith({
        affinity: requiredTerms({ matchFields: [nameIn('node1'), nameIn('node2')] }, { matchExpressions: [expr('foo', 'In', ['bar'])] }),
      }),
      nodeName: 'node2',
      labels: { foo: 'bar' },
    },
    {
      name: 'one term: matchExpressions matches but matchFields does not',
      pod: podWith({ affinity: requiredTerms({ matchFields: [nameIn('node1')], matchExpressions: [expr('foo', 'In', ['bar'])] }) }),
      nodeName: 'node2',
      labels: { foo: 'bar' },
      wantNodeNames: ['node1'],
      wantFilter: ErrReasonPod,
    },
    {
      name: 'one term: both matchFields and matchExpressions match',
      pod: podWith({ affinity: requiredTerms({ matchFields: [nameIn('node1')], matchExpressions: [expr('foo', 'In', ['bar'])] }) }),
      nodeName: 'node1',
      labels: { foo: 'bar' },
      wantNodeNames: ['node1'],
    },
    {
      name: 'two terms: neither matchFields nor matchExpressions match',
      pod: podWith({
        affinity: requiredTerms({ matchFields: [nameIn('node1')] }, { matchExpressions: [expr('foo', 'In', ['not-match-to-bar'])] }),
      }),
      nodeName: 'node2',
      labels: { foo: 'bar' },
      wantFilter: ErrReasonPod,
    },
    {
      name: 'two terms of node name affinity: the union of names',
      pod: podWith({ affinity: requiredTerms({ matchFields: [nameIn('node1')] }, { matchFields: [nameIn('node2')] }) }),
      nodeName: 'node2',
      wantNodeNames: ['node1', 'node2'],
    },
    {
      name: 'two conflicting matchFields requirements',
      pod: podWith({ affinity: requiredTerms({ matchFields: [nameIn('node1'), nameIn('node2')] }) }),
      nodeName: 'node2',
      labels: { foo: 'bar' },
      wantPreFilter: { code: Code.UnschedulableAndUnresolvable, reason: errReasonConflict },
      wantFilter: ErrReasonPod,
    },
    {
      name: "matches the added affinity and the pod's node affinity",
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('zone', 'In', ['foo'])] }) }),
      nodeName: 'node2',
      labels: { zone: 'foo' },
      args: { addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [nameIn('node2')] }] } } },
    },
    {
      name: "matches the added affinity but not the pod's node affinity",
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('zone', 'In', ['bar'])] }) }),
      nodeName: 'node2',
      labels: { zone: 'foo' },
      args: { addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [nameIn('node2')] }] } } },
      wantFilter: ErrReasonPod,
    },
    {
      name: "doesn't match the added affinity",
      pod: podWith(),
      nodeName: 'node2',
      labels: { zone: 'foo' },
      args: {
        addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr('zone', 'In', ['bar'])] }] } },
      },
      wantFilter: errReasonEnforced,
    },
    {
      name: 'matches the node selector even if PreFilter is not called',
      pod: podWith({ nodeSelector: { foo: 'bar' } }),
      labels: { foo: 'bar', baz: 'blah' },
      runPreFilter: false,
    },
    {
      name: 'matches the node affinity even if PreFilter is not called',
      pod: podWith({ affinity: requiredTerms({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }) }),
      labels: { GPU: 'NVIDIA-GRID-K1' },
      runPreFilter: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new NodeAffinity(c.args ?? noArgs);
      const pod = new PodInfo(c.pod);
      const nodeInfo = new NodeInfo(node(c.nodeName ?? '', c.labels));
      const state = new CycleState();
      if (c.runPreFilter !== false) {
        const out = pl.preFilter(state, pod);
        if (c.wantPreFilter) assertStatus(out?.status, c.wantPreFilter.code, c.wantPreFilter.reason);
        else assertStatus(out?.status, null);
        if (c.wantNodeNames) assert.deepEqual([...(out?.result?.nodeNames ?? [])].sort(), c.wantNodeNames);
        else assert.equal(out?.result ?? null, null);
      }
      const got = pl.filter(state, pod, nodeInfo);
      if (c.wantFilter) assertStatus(got, Code.UnschedulableAndUnresolvable, c.wantFilter);
      else assertStatus(got, null);
    });
  }
});

describe('NodeAffinity PreScore, Score and NormalizeScore', () => {
  const label1 = { foo: 'bar' };
  const label2 = { key: 'value' };
  const label3 = { az: 'az1' };
  const label4 = { abc: 'az11', def: 'az22' };
  const label5 = { foo: 'bar', key: 'value', az: 'az1' };
  const affinity1: Affinity = {
    nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 2, preference: { matchExpressions: [expr('foo', 'In', ['bar'])] } }] },
  };
  const affinity2: Affinity = {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 2, preference: { matchExpressions: [expr('foo', 'In', ['bar'])] } },
        { weight: 4, preference: { matchExpressions: [expr('key', 'In', ['value'])] } },
        { weight: 5, preference: { matchExpressions: [expr('foo', 'In', ['bar']), expr('key', 'In', ['value']), expr('az', 'In', ['az1'])] } },
      ],
    },
  };
  interface Case {
    name: string;
    pod: Pod;
    nodes: Node[];
    args?: NodeAffinityArgs;
    runPreScore?: boolean;
    wantPreScore?: { code: Code; message?: string };
    want?: NodeScore[];
  }
  const cases: Case[] = [
    {
      name: 'all nodes get the same score without node affinity (PreScore not run)',
      pod: podWith(),
      nodes: [node('node1', label1), node('node2', label2), node('node3', label3)],
      runPreScore: false,
      want: [{ name: 'node1', score: 0 }, { name: 'node2', score: 0 }, { name: 'node3', score: 0 }],
    },
    { name: 'PreScore skips when the pod has no node affinity', pod: podWith(), nodes: [node('node1', label1)], wantPreScore: { code: Code.Skip } },
    {
      name: 'PreScore errors on a broken preferred affinity',
      pod: podWith({
        affinity: {
          nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 2, preference: { matchExpressions: [expr('invalid key', 'In', ['bar'])] } }] },
        },
      }),
      nodes: [node('node1', label1)],
      wantPreScore: {
        code: Code.Error,
        message:
          "pod default/p has an invalid preferred node affinity: [0].matchExpressions[0].key: Invalid value: \"invalid key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      },
    },
    {
      name: 'an empty preferred list does not skip',
      pod: podWith({ affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } } }),
      nodes: [node('node1', label1), node('node2', label2)],
      want: [{ name: 'node1', score: 0 }, { name: 'node2', score: 0 }],
    },
    {
      name: 'no node matches the preferred terms, so all scores are zero',
      pod: podWith({ affinity: affinity1 }),
      nodes: [node('node1', label4), node('node2', label2), node('node3', label3)],
      want: [{ name: 'node1', score: 0 }, { name: 'node2', score: 0 }, { name: 'node3', score: 0 }],
    },
    {
      name: 'only node1 matches the preferred terms',
      pod: podWith({ affinity: affinity1 }),
      nodes: [node('node1', label1), node('node2', label2), node('node3', label3)],
      want: [{ name: 'node1', score: 100 }, { name: 'node2', score: 0 }, { name: 'node3', score: 0 }],
    },
    {
      name: 'all nodes match the preferred terms with different weights',
      pod: podWith({ affinity: affinity2 }),
      nodes: [node('node1', label1), node('node5', label5), node('node2', label2)],
      want: [{ name: 'node1', score: 18 }, { name: 'node5', score: 100 }, { name: 'node2', score: 36 }],
    },
    {
      name: 'added affinity',
      pod: podWith(),
      nodes: [node('node1', label1), node('node2', label2)],
      args: { addedAffinity: affinity1.nodeAffinity as NodeAffinitySpec },
      want: [{ name: 'node1', score: 100 }, { name: 'node2', score: 0 }],
    },
    {
      name: 'added affinity and the pod has its own affinity',
      pod: podWith({ affinity: affinity1 }),
      nodes: [node('node1', label1), node('node2', label2), node('node3', label5)],
      args: {
        addedAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 3, preference: { matchExpressions: [expr('key', 'In', ['value'])] } }] },
      },
      want: [{ name: 'node1', score: 40 }, { name: 'node2', score: 60 }, { name: 'node3', score: 100 }],
    },
    {
      name: 'scores correctly even if PreScore is not called',
      pod: podWith({ affinity: affinity2 }),
      nodes: [node('node1', label1), node('node5', label5), node('node2', label2)],
      runPreScore: false,
      want: [{ name: 'node1', score: 18 }, { name: 'node5', score: 100 }, { name: 'node2', score: 36 }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new NodeAffinity(c.args ?? noArgs);
      const pod = new PodInfo(c.pod);
      const infos = c.nodes.map((n) => new NodeInfo(n));
      const state = new CycleState();
      if (c.runPreScore !== false) {
        const s = pl.preScore(state, pod);
        if (c.wantPreScore) {
          assertStatus(s, c.wantPreScore.code);
          if (c.wantPreScore.message !== undefined) assert.equal(s?.message(), c.wantPreScore.message);
          return;
        }
        assertStatus(s, null);
      }
      const got: NodeScore[] = [];
      for (const ni of infos) {
        const score = pl.score(state, pod, ni);
        assert.equal(typeof score, 'number');
        got.push({ name: ni.name, score: score as number });
      }
      assert.equal(pl.scoreExtensions().normalizeScore(state, pod, got), null);
      assert.deepEqual(got, c.want);
    });
  }
});

describe('NodeAffinity events and hint', () => {
  it('registers node additions and label updates with a hint', () => {
    const evs = new NodeAffinity(noArgs).eventsToRegister();
    assert.equal(evs.length, 1);
    assert.equal(evs[0]!.event.resource, 'Node');
    assert.equal(evs[0]!.event.actionType, ActionType.Add | ActionType.UpdateNodeLabel);
    assert.equal(typeof evs[0]!.queueingHintFn, 'function');
  });
  const pod = podWith({ affinity: requiredTerms({ matchExpressions: [expr('foo', 'In', ['bar'])] }) });
  const enforced: NodeAffinityArgs = {
    addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr('foo', 'In', ['bar'])] }] } },
  };
  const withCapacity = (n: Node): Node => ({ ...n, status: { capacity: { cpu: '1' } } });
  const cases = [
    { name: 'backoff on a wrong new object', oldObj: null as unknown, newObj: 'not-a-node' as unknown, want: QueueingHint.Queue },
    { name: 'backoff on a wrong old object', oldObj: 'not-a-node' as unknown, newObj: node('n'), want: QueueingHint.Queue },
    { name: 'skip an added node that does not match', oldObj: null, newObj: node('n'), want: QueueingHint.QueueSkip },
    { name: 'queue an added node that matches', oldObj: null, newObj: node('n', { foo: 'bar' }), want: QueueingHint.Queue },
    { name: 'skip unrelated changes', oldObj: node('n'), newObj: withCapacity(node('n')), want: QueueingHint.QueueSkip },
    { name: 'skip unrelated label changes', oldObj: node('n'), newObj: node('n', { k: 'v' }), want: QueueingHint.QueueSkip },
    { name: 'skip a node going from suitable to unsuitable', oldObj: node('n', { foo: 'bar' }), newObj: node('n', { k: 'v' }), want: QueueingHint.QueueSkip },
    { name: 'skip a node that already matched', oldObj: node('n', { foo: 'bar' }), newObj: node('n', { foo: 'bar', k: 'v' }), want: QueueingHint.QueueSkip },
    { name: 'queue a label change that makes the pod schedulable', oldObj: node('n'), newObj: node('n', { foo: 'bar' }), want: QueueingHint.Queue },
    { name: 'skip an added node outside the enforced affinity', args: enforced, oldObj: null, newObj: node('n'), want: QueueingHint.QueueSkip },
    { name: 'queue an added node inside the enforced affinity', args: enforced, oldObj: null, newObj: node('n', { foo: 'bar' }), want: QueueingHint.Queue },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new NodeAffinity(c.args ?? noArgs);
      assert.equal(pl.isSchedulableAfterNodeChange(pod, c.oldObj, c.newObj), c.want);
    });
  }
  it('queues when the pod affinity cannot be parsed', () => {
    const broken = podWith({ affinity: requiredTerms({ matchExpressions: [expr('foo', 'Bogus', ['bar'])] }) });
    assert.equal(new NodeAffinity(noArgs).isSchedulableAfterNodeChange(broken, null, node('n')), QueueingHint.Queue);
  });
});

describe('NodeAffinityArgs', () => {
  it('defaults to no added affinity and keeps a given one', () => {
    assert.deepEqual(defaultNodeAffinityArgs({}), { addedAffinity: null });
    const added = { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } };
    assert.deepEqual(defaultNodeAffinityArgs({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'NodeAffinityArgs', addedAffinity: added }), {
      addedAffinity: added,
    });
  });
  it('rejects unknown fields', () => {
    assert.throws(() => defaultNodeAffinityArgs({ addedAfinity: {} }), /unknown field "addedAfinity"/);
  });
  it('is exposed through the plugin definition', () => {
    assert.equal(nodeAffinityDefinition.name, 'NodeAffinity');
    assert.equal(nodeAffinityDefinition.argsKind, 'NodeAffinityArgs');
  });
  const cases: { name: string; args: NodeAffinityArgs; path?: string; want: string[] }[] = [
    { name: 'empty', args: { addedAffinity: null }, want: [] },
    {
      name: 'valid added affinity',
      args: {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr('label-1', 'In', ['label-1-val'])] }] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchFields: [nameIn('node-1')] } }],
        },
      },
      want: [],
    },
    {
      name: 'invalid added affinity',
      args: {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr('invalid/label/key', 'In', ['label-1-val'])] }] },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchFields: [nameIn('node-1', 'node-2')] } }],
        },
      },
      want: [
        'addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key',
        'addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values',
      ],
    },
    {
      name: 'paths start at the given args path; bad operators, values and Gt bounds',
      path: 'profiles[0].pluginConfig[2].args',
      args: {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {},
              {
                matchExpressions: [expr('a', 'Near', ['x']), expr('b', 'In'), expr('c', 'Exists', ['x']), expr('d', 'Gt', ['1.5']), expr('e', 'In', ['-bad-'])],
                matchFields: [expr('metadata.name', 'Exists')],
              },
            ],
          },
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [expr('bad key', 'In', ['x'])] } }],
        },
      },
      want: [
        'profiles[0].pluginConfig[2].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[0].operator',
        'profiles[0].pluginConfig[2].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[1].values',
        'profiles[0].pluginConfig[2].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[2].values',
        'profiles[0].pluginConfig[2].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[3].values[0]',
        'profiles[0].pluginConfig[2].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[4].values[0]',
        'profiles[0].pluginConfig[2].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchFields[0].operator',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const errs = validateNodeAffinityArgs(c.args, c.path ?? '');
      assert.deepEqual(
        errs.map((e) => e.path),
        c.want,
      );
    });
  }
  it('words errors as apimachinery does', () => {
    const errs = validateNodeAffinityArgs(
      {
        addedAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr('a', 'Near', ['x'])], matchFields: [nameIn('n1', 'n2')] }] },
        },
      },
      '',
    );
    assert.deepEqual(
      errs.map((e) => e.message),
      [
        'Unsupported value: "Near": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"',
        'Invalid value: ["n1","n2"]: must have one element',
      ],
    );
  });
});
