// Scenarios of upstream's podtopologyspread/filtering_test.go: PreFilter state, AddPod/RemovePod and Filter.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod, TopologySpreadConstraint } from '../../api/types.js';
import { defaultFeatures } from '../../framework/features.js';
import { Code, Status } from '../../framework/status.js';
import type { PodTopologySpreadArgs } from './args.js';
import { CriticalPaths, ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch, PreFilterState, preFilterStateKey } from './filtering.js';
import { barSelector, domainEntries, fooSelector, info, newState, node, pod, setup, spread, unschedulableTaint } from './test_helpers.js';

const maxInt32 = 2147483647;
const zn = (name: string, zone: string, extra: Record<string, string> = {}): Node => node(name, { zone, node: name, ...extra });

/** Critical paths as [[value, num], [value, num]], equal numbers ordered by value as upstream's test does. */
function pathsOf(p: CriticalPaths): [string, number][] {
  const out: [string, number][] = [[p.value0, p.num0], [p.value1, p.num1]];
  if (out[0]![1] === out[1]![1] && out[0]![0] > out[1]![0]) {
    const v = out[0]![0];
    out[0]![0] = out[1]![0];
    out[1]![0] = v;
  }
  return out;
}

interface WantState {
  /** Topology keys of the kept (hard) constraints, in order. */
  keys: string[];
  counts: Record<string, number>[];
  paths: [string, number][][];
}

function assertState(s: PreFilterState, want: WantState): void {
  assert.deepEqual(s.constraints.map((c) => c.topologyKey), want.keys);
  assert.deepEqual(s.tpValueToMatchNum.map((m) => Object.fromEntries(domainEntries(m).sort())), want.counts);
  assert.deepEqual(s.criticalPaths.map(pathsOf), want.paths);
}

function runPreFilter(p: Pod, nodes: Node[], existing: Pod[], args?: PodTopologySpreadArgs, objects?: KubeObject[]) {
  const { plugin, handle } = setup(existing, nodes, args, objects);
  const state = newState();
  const out = plugin.preFilter(state, info(p), handle.snapshot.list());
  return { plugin, handle, state, out, s: state.read<PreFilterState>(preFilterStateKey) };
}

const fourNodes = (): Node[] => [zn('node-a', 'zone1'), zn('node-b', 'zone1'), zn('node-x', 'zone2'), zn('node-y', 'zone2')];
const foo = (name: string, nodeName: string, extra: Record<string, string> = {}, namespace?: string): Pod =>
  pod(name, { node: nodeName, labels: { foo: '', ...extra }, ...(namespace ? { namespace } : {}) });
const bar = (name: string, nodeName: string): Pod => pod(name, { node: nodeName, labels: { bar: '' } });

describe('PodTopologySpread PreFilter state', () => {
  interface Case {
    name: string;
    pod: Pod;
    nodes?: Node[];
    existing?: Pod[];
    args?: PodTopologySpreadArgs;
    objects?: KubeObject[];
    want?: WantState;
    wantSkip?: boolean;
  }
  const hard = (...cs: TopologySpreadConstraint[]) => cs;
  const cases: Case[] = [
    {
      name: 'clean cluster with one spreadConstraint',
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(5, 'zone', 'DoNotSchedule', { matchLabels: { foo: 'bar' } })) }),
      nodes: fourNodes(),
      want: { keys: ['zone'], counts: [{ zone1: 0, zone2: 0 }], paths: [[['zone1', 0], ['zone2', 0]]] },
    },
    {
      name: 'normal case with one spreadConstraint',
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector)) }),
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y')],
      want: { keys: ['zone'], counts: [{ zone1: 3, zone2: 2 }], paths: [[['zone2', 2], ['zone1', 3]]] },
    },
    {
      name: 'normal case with null label selector',
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', undefined)) }),
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y')],
      want: { keys: ['zone'], counts: [{ zone1: 0, zone2: 0 }], paths: [[['zone1', 0], ['zone2', 0]]] },
    },
    {
      name: 'normal case with one spreadConstraint, on a 3-zone cluster',
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector)) }),
      nodes: [...fourNodes(), zn('node-o', 'zone3'), zn('node-p', 'zone3')],
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y')],
      want: { keys: ['zone'], counts: [{ zone1: 3, zone2: 2, zone3: 0 }], paths: [[['zone3', 0], ['zone2', 2]]] },
    },
    {
      name: "namespace mismatch doesn't count",
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector)) }),
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a', {}, 'ns1'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y', {}, 'ns2'), foo('p-y2', 'node-y')],
      want: { keys: ['zone'], counts: [{ zone1: 2, zone2: 1 }], paths: [[['zone2', 1], ['zone1', 2]]] },
    },
    {
      name: 'normal case with two spreadConstraints',
      pod: pod('p', {
        labels: { foo: '' },
        constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)),
      }),
      nodes: fourNodes(),
      existing: [
        foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'),
        foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'), foo('p-y4', 'node-y'),
      ],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 3, zone2: 4 }, { 'node-a': 2, 'node-b': 1, 'node-x': 0, 'node-y': 4 }],
        paths: [[['zone1', 3], ['zone2', 4]], [['node-x', 0], ['node-b', 1]]],
      },
    },
    {
      name: 'soft spreadConstraints should be bypassed',
      pod: pod('p', {
        labels: { foo: '' },
        constraints: hard(
          spread(1, 'zone', 'ScheduleAnyway', fooSelector),
          spread(1, 'zone', 'DoNotSchedule', fooSelector),
          spread(1, 'node', 'ScheduleAnyway', fooSelector),
          spread(1, 'node', 'DoNotSchedule', fooSelector),
        ),
      }),
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1'), zn('node-y', 'zone2')],
      existing: [
        foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'),
        foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'), foo('p-y4', 'node-y'),
      ],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 3, zone2: 4 }, { 'node-a': 2, 'node-b': 1, 'node-y': 4 }],
        paths: [[['zone1', 3], ['zone2', 4]], [['node-b', 1], ['node-a', 2]]],
      },
    },
    {
      name: 'different labelSelectors - simple version',
      pod: pod('p', {
        labels: { foo: '', bar: '' },
        constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)),
      }),
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1'), zn('node-y', 'zone2')],
      existing: [foo('p-a', 'node-a'), bar('p-b', 'node-b')],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 1, zone2: 0 }, { 'node-a': 0, 'node-b': 1, 'node-y': 0 }],
        paths: [[['zone2', 0], ['zone1', 1]], [['node-a', 0], ['node-y', 0]]],
      },
    },
    {
      name: 'different labelSelectors - complex pods',
      pod: pod('p', {
        labels: { foo: '', bar: '' },
        constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)),
      }),
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1'), zn('node-y', 'zone2')],
      existing: [
        foo('p-a1', 'node-a'), foo('p-a2', 'node-a', { bar: '' }), foo('p-b1', 'node-b'),
        foo('p-y1', 'node-y'), foo('p-y2', 'node-y', { bar: '' }), foo('p-y3', 'node-y'), foo('p-y4', 'node-y', { bar: '' }),
      ],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 3, zone2: 4 }, { 'node-a': 1, 'node-b': 0, 'node-y': 2 }],
        paths: [[['zone1', 3], ['zone2', 4]], [['node-b', 0], ['node-a', 1]]],
      },
    },
    {
      name: 'two spreadConstraints, and with podAffinity',
      pod: pod('p', {
        labels: { foo: '' },
        nodeAffinity: [{ key: 'node', operator: 'NotIn', values: ['node-x'] }],
        constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)),
      }),
      nodes: fourNodes(),
      existing: [
        foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'),
        foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'), foo('p-y4', 'node-y'),
      ],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 3, zone2: 4 }, { 'node-a': 2, 'node-b': 1, 'node-y': 4 }],
        paths: [[['zone1', 3], ['zone2', 4]], [['node-b', 1], ['node-a', 2]]],
      },
    },
    {
      name: 'default constraints and a service',
      pod: pod('p', { labels: { foo: 'bar', baz: 'kar' } }),
      args: {
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 3, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' },
          { maxSkew: 5, topologyKey: 'rack', whenUnsatisfiable: 'DoNotSchedule' },
        ],
      },
      objects: [{ kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector: { foo: 'bar' } } } as KubeObject],
      want: { keys: ['node', 'rack'], counts: [{}, {}], paths: [[['', maxInt32], ['', maxInt32]], [['', maxInt32], ['', maxInt32]]] },
    },
    {
      name: "default constraints and a service that doesn't match",
      pod: pod('p', { labels: { foo: 'bar' } }),
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 3, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' }] },
      objects: [{ kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector: { baz: 'kep' } } } as KubeObject],
      wantSkip: true,
    },
    {
      name: 'default constraints and a service, but pod has constraints',
      pod: pod('p', {
        labels: { foo: 'bar', baz: 'tar' },
        constraints: hard(
          spread(1, 'zone', 'DoNotSchedule', { matchLabels: { baz: 'tar' } }),
          spread(2, 'planet', 'ScheduleAnyway', { matchLabels: { fot: 'rok' } }),
        ),
      }),
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' }] },
      objects: [{ kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector: { foo: 'bar' } } } as KubeObject],
      want: { keys: ['zone'], counts: [{}], paths: [[['', maxInt32], ['', maxInt32]]] },
    },
    {
      name: 'default soft constraints and a service',
      pod: pod('p', { labels: { foo: 'bar' } }),
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway' }] },
      objects: [{ kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector: { foo: 'bar' } } } as KubeObject],
      wantSkip: true,
    },
    {
      name: 'NodeAffinityPolicy honored with labelSelectors',
      pod: pod('p', { labels: { foo: '' }, nodeSelector: { foo: '' }, constraints: hard(spread(1, 'node', 'DoNotSchedule', barSelector)) }),
      nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c', bar: '' })],
      existing: [bar('p-a', 'node-a'), bar('p-b', 'node-b'), bar('p-c', 'node-b'), pod('p-d', { node: 'node-c' })],
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 2 }], paths: [[['node-a', 1], ['node-b', 2]]] },
    },
    {
      name: 'NodeAffinityPolicy ignored with labelSelectors',
      pod: pod('p', {
        labels: { foo: '' },
        nodeSelector: { foo: '' },
        constraints: hard(spread(1, 'node', 'DoNotSchedule', barSelector, { nodeAffinityPolicy: 'Ignore' })),
      }),
      nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c', bar: '' })],
      existing: [bar('p-a', 'node-a'), bar('p-b', 'node-b'), bar('p-c', 'node-b'), pod('p-d', { node: 'node-c' })],
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 2, 'node-c': 0 }], paths: [[['node-c', 0], ['node-a', 1]]] },
    },
    {
      name: 'NodeAffinityPolicy honored with nodeAffinity',
      pod: pod('p', {
        labels: { foo: '' },
        nodeAffinity: [{ key: 'foo', operator: 'In', values: [''] }],
        constraints: hard(spread(1, 'node', 'DoNotSchedule', barSelector)),
      }),
      nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c', bar: '' })],
      existing: [bar('p-a', 'node-a'), bar('p-c', 'node-b'), bar('p-d', 'node-b'), pod('p-e', { node: 'node-c' })],
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 2 }], paths: [[['node-a', 1], ['node-b', 2]]] },
    },
    {
      name: 'NodeAffinityPolicy ignored with nodeAffinity',
      pod: pod('p', {
        labels: { foo: '' },
        nodeAffinity: [{ key: 'foo', operator: 'In', values: [''] }],
        constraints: hard(spread(1, 'node', 'DoNotSchedule', barSelector, { nodeAffinityPolicy: 'Ignore' })),
      }),
      nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c', bar: '' })],
      existing: [bar('p-a', 'node-a'), bar('p-b', 'node-b'), bar('p-c', 'node-b'), pod('p-d', { node: 'node-c' })],
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 2, 'node-c': 0 }], paths: [[['node-c', 0], ['node-a', 1]]] },
    },
    {
      name: 'NodeTaintsPolicy ignored',
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(1, 'node', 'DoNotSchedule', barSelector)) }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c', bar: '' }, [unschedulableTaint])],
      existing: [bar('p-a', 'node-a'), bar('p-b', 'node-b'), bar('p-c', 'node-b'), pod('p-d', { node: 'node-c' })],
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 2, 'node-c': 0 }], paths: [[['node-c', 0], ['node-a', 1]]] },
    },
    {
      name: 'NodeTaintsPolicy honored',
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(1, 'node', 'DoNotSchedule', barSelector, { nodeTaintsPolicy: 'Honor' })) }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c', bar: '' }, [unschedulableTaint])],
      existing: [bar('p-a', 'node-a'), bar('p-b', 'node-b'), bar('p-c', 'node-b'), pod('p-d', { node: 'node-c' })],
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 2 }], paths: [[['node-a', 1], ['node-b', 2]]] },
    },
    {
      name: 'NodeTaintsPolicy honored with tolerated taints',
      pod: pod('p', {
        labels: { foo: '' },
        tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }],
        constraints: hard(spread(1, 'node', 'DoNotSchedule', barSelector, { nodeTaintsPolicy: 'Honor' })),
      }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c', bar: '' }, [unschedulableTaint])],
      existing: [bar('p-a', 'node-a'), bar('p-b', 'node-b'), bar('p-c', 'node-b'), pod('p-d', { node: 'node-c' })],
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 2, 'node-c': 0 }], paths: [[['node-c', 0], ['node-a', 1]]] },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore',
      pod: pod('p', {
        labels: { foo: '' },
        nodeSelector: { foo: '' },
        constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector, { nodeAffinityPolicy: 'Ignore' })),
      }),
      nodes: [zn('node-a', 'zone1', { foo: '' }), zn('node-b', 'zone1'), zn('node-x', 'zone2', { foo: '' })],
      existing: [foo('p-b1', 'node-b'), foo('p-b2', 'node-b'), foo('p-x1', 'node-x')],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 0, zone2: 1 }, { 'node-a': 0, 'node-b': 2, 'node-x': 1 }],
        paths: [[['zone1', 0], ['zone2', 1]], [['node-a', 0], ['node-x', 1]]],
      },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/honor, node: honor/ignore',
      pod: pod('p', {
        labels: { foo: '' },
        constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector, { nodeTaintsPolicy: 'Honor' }), spread(1, 'node', 'DoNotSchedule', fooSelector)),
      }),
      nodes: [zn('node-a', 'zone1', { foo: '' }), node('node-b', { zone: 'zone1', node: 'node-b' }, [unschedulableTaint]), zn('node-x', 'zone2', { foo: '' })],
      existing: [foo('p-b1', 'node-b'), foo('p-b2', 'node-b'), foo('p-x1', 'node-x')],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 0, zone2: 1 }, { 'node-a': 0, 'node-b': 2, 'node-x': 1 }],
        paths: [[['zone1', 0], ['zone2', 1]], [['node-a', 0], ['node-x', 1]]],
      },
    },
    {
      name: 'two node inclusion Constraints, zone: honor/ignore, node: honor/ignore (node selector)',
      pod: pod('p', {
        labels: { foo: '' },
        nodeSelector: { foo: '' },
        constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)),
      }),
      nodes: [
        zn('node-a', 'zone1'),
        node('node-b', { zone: 'zone1', node: 'node-b', foo: '' }, [unschedulableTaint]),
        zn('node-x', 'zone2', { foo: '' }),
        zn('node-y', 'zone2'),
      ],
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-x1', 'node-x'), foo('p-y1', 'node-y')],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 0, zone2: 1 }, { 'node-b': 0, 'node-x': 1 }],
        paths: [[['zone1', 0], ['zone2', 1]], [['node-b', 0], ['node-x', 1]]],
      },
    },
    {
      name: 'two node inclusion Constraints, zone: ignore/ignore, node: honor/honor',
      pod: pod('p', {
        labels: { foo: '' },
        nodeSelector: { foo: '' },
        constraints: hard(
          spread(1, 'zone', 'DoNotSchedule', fooSelector, { nodeAffinityPolicy: 'Ignore' }),
          spread(1, 'node', 'DoNotSchedule', fooSelector, { nodeTaintsPolicy: 'Honor' }),
        ),
      }),
      nodes: [
        zn('node-a', 'zone1'),
        node('node-b', { zone: 'zone1', node: 'node-b', foo: '' }, [unschedulableTaint]),
        zn('node-x', 'zone2', { foo: '' }),
        zn('node-y', 'zone2', { foo: '' }),
      ],
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-x1', 'node-x'), foo('p-x2', 'node-x'), foo('p-y1', 'node-y')],
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 2, zone2: 3 }, { 'node-x': 2, 'node-y': 1 }],
        paths: [[['zone1', 2], ['zone2', 3]], [['node-y', 1], ['node-x', 2]]],
      },
    },
    {
      name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
      pod: pod('p', { labels: { foo: '', bar: 'a' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector, { matchLabelKeys: ['bar'] })) }),
      nodes: fourNodes(),
      existing: [
        foo('p-a1', 'node-a'), foo('p-a2', 'node-a', { bar: 'a' }), foo('p-b1', 'node-b'),
        foo('p-y1', 'node-y', { bar: 'a' }), pod('p-y2', { node: 'node-y', labels: { bar: '' } }),
      ],
      want: { keys: ['zone'], counts: [{ zone1: 1, zone2: 1 }], paths: [[['zone1', 1], ['zone2', 1]]] },
    },
    {
      name: 'matchLabelKeys ANDed with LabelSelector when LabelSelector is empty',
      pod: pod('p', { labels: { foo: 'a' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', {}, { matchLabelKeys: ['foo'] })) }),
      nodes: fourNodes(),
      existing: ['p-a1', 'p-a2', 'p-b1', 'p-y1', 'p-y2'].map((n) => pod(n, { node: n === 'p-b1' ? 'node-b' : n.startsWith('p-a') ? 'node-a' : 'node-y', labels: { foo: 'a' } })),
      want: { keys: ['zone'], counts: [{ zone1: 3, zone2: 2 }], paths: [[['zone2', 2], ['zone1', 3]]] },
    },
    {
      name: 'key in matchLabelKeys is ignored when LabelSelector is nil',
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', undefined, { matchLabelKeys: ['bar'] })) }),
      nodes: fourNodes(),
      existing: ['p-a1', 'p-a2', 'p-b1', 'p-y1', 'p-y2'].map((n) => pod(n, { node: n === 'p-b1' ? 'node-b' : n.startsWith('p-a') ? 'node-a' : 'node-y', labels: { foo: 'a' } })),
      want: { keys: ['zone'], counts: [{ zone1: 0, zone2: 0 }], paths: [[['zone1', 0], ['zone2', 0]]] },
    },
    {
      name: "key in matchLabelKeys is ignored when it doesn't exist in pod.labels",
      pod: pod('p', { labels: { foo: '' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector, { matchLabelKeys: ['bar'] })) }),
      nodes: fourNodes(),
      existing: ['p-a1', 'p-a2', 'p-b1', 'p-y1', 'p-y2'].map((n) => pod(n, { node: n === 'p-b1' ? 'node-b' : n.startsWith('p-a') ? 'node-a' : 'node-y', labels: { foo: 'a' } })),
      want: { keys: ['zone'], counts: [{ zone1: 3, zone2: 2 }], paths: [[['zone2', 2], ['zone1', 3]]] },
    },
    {
      name: 'skip if not specified',
      pod: pod('p', { labels: { foo: '' } }),
      nodes: [zn('node-a', 'zone1')],
      wantSkip: true,
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const { out, s } = runPreFilter(tc.pod, tc.nodes ?? [], tc.existing ?? [], tc.args, tc.objects);
      if (tc.wantSkip) {
        assert.equal(out?.status?.code, Code.Skip);
        return;
      }
      assert.equal(out, null);
      assert.ok(s);
      assertState(s, tc.want!);
    });
  }

  it('ignores matchLabelKeys with MatchLabelKeysInPodTopologySpread off', () => {
    const p = pod('p', { labels: { foo: '', bar: 'a' }, constraints: hard(spread(1, 'zone', 'DoNotSchedule', fooSelector, { matchLabelKeys: ['bar'] })) });
    const existing = [foo('p-a1', 'node-a'), foo('p-a2', 'node-a', { bar: 'a' }), foo('p-b1', 'node-b'), foo('p-y1', 'node-y', { bar: 'a' })];
    const { plugin, handle } = setup(existing, fourNodes(), undefined, [], { ...defaultFeatures, enableMatchLabelKeysInPodTopologySpread: false });
    const state = newState();
    assert.equal(plugin.preFilter(state, info(p), handle.snapshot.list()), null);
    assertState(state.read<PreFilterState>(preFilterStateKey)!, { keys: ['zone'], counts: [{ zone1: 3, zone2: 1 }], paths: [[['zone2', 1], ['zone1', 3]]] });
  });

  it('defaults minDomains to 1 and the inclusion policies to Honor/Ignore', () => {
    const { s } = runPreFilter(pod('p', { constraints: [spread(2, 'zone', 'DoNotSchedule', fooSelector)] }), fourNodes(), []);
    const c = s!.constraints[0]!;
    assert.deepEqual([c.maxSkew, c.minDomains, c.nodeAffinityPolicy, c.nodeTaintsPolicy], [2, 1, 'Honor', 'Ignore']);
  });

  it('an invalid label selector is an Error', () => {
    const bad = pod('p', { constraints: [spread(1, 'zone', 'DoNotSchedule', { matchExpressions: [{ key: 'foo', operator: 'In', values: [] }] })] });
    const { out } = runPreFilter(bad, fourNodes(), []);
    assert.equal(out?.status?.code, Code.Error);
    assert.match(out!.status!.message(), /^get constraints from pod: obtaining pod's hard topology spread constraints: /);
  });
});

describe('PodTopologySpread AddPod/RemovePod', () => {
  interface Case {
    name: string;
    preemptor: Pod;
    pod: Pod;
    existing: Pod[];
    nodes: Node[];
    nodeIdx: number;
    want: WantState;
  }
  const nodeOnly = pod('p', { labels: { foo: '' }, constraints: [spread(1, 'node', 'DoNotSchedule', fooSelector)] });
  const zoneAndNode = pod('p', {
    labels: { foo: '' },
    constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)],
  });
  const zoneFooNodeBar = pod('p', {
    labels: { foo: '', bar: '' },
    constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)],
  });
  const zoneOnlyNotInBar = pod('p', {
    labels: { foo: '' },
    nodeAffinity: [{ key: 'foo', operator: 'NotIn', values: ['bar'] }],
    constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector)],
  });
  const zoneOnly = pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector)] });
  const affinityNodes = (): Node[] => [zn('node-a', 'zone1', { foo: 'bar' }), zn('node-b', 'zone2', { foo: '' })];

  const addCases: Case[] = [
    {
      name: 'node a and b both impact current min match',
      preemptor: nodeOnly,
      pod: foo('p-a1', 'node-a'),
      existing: [],
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1')],
      nodeIdx: 0,
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 0 }], paths: [[['node-b', 0], ['node-a', 1]]] },
    },
    {
      name: 'only node a impacts current min match',
      preemptor: nodeOnly,
      pod: foo('p-a1', 'node-a'),
      existing: [foo('p-b1', 'node-b')],
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1')],
      nodeIdx: 0,
      want: { keys: ['node'], counts: [{ 'node-a': 1, 'node-b': 1 }], paths: [[['node-a', 1], ['node-b', 1]]] },
    },
    {
      name: "add a pod in a different namespace doesn't change the state",
      preemptor: nodeOnly,
      pod: foo('p-a1', 'node-a', {}, 'ns1'),
      existing: [foo('p-b1', 'node-b')],
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1')],
      nodeIdx: 0,
      want: { keys: ['node'], counts: [{ 'node-a': 0, 'node-b': 1 }], paths: [[['node-a', 0], ['node-b', 1]]] },
    },
    {
      name: "add pod on non-critical node won't trigger re-calculation",
      preemptor: nodeOnly,
      pod: foo('p-b2', 'node-b'),
      existing: [foo('p-b1', 'node-b')],
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1')],
      nodeIdx: 1,
      want: { keys: ['node'], counts: [{ 'node-a': 0, 'node-b': 2 }], paths: [[['node-a', 0], ['node-b', 2]]] },
    },
    {
      name: 'node a and x both impact the minimums on zone and node',
      preemptor: zoneAndNode,
      pod: foo('p-a1', 'node-a'),
      existing: [],
      nodes: [zn('node-a', 'zone1'), zn('node-x', 'zone2')],
      nodeIdx: 0,
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 1, zone2: 0 }, { 'node-a': 1, 'node-x': 0 }],
        paths: [[['zone2', 0], ['zone1', 1]], [['node-x', 0], ['node-a', 1]]],
      },
    },
    {
      name: 'only node a impacts the minimums on zone and node',
      preemptor: zoneAndNode,
      pod: foo('p-a1', 'node-a'),
      existing: [foo('p-x1', 'node-x')],
      nodes: [zn('node-a', 'zone1'), zn('node-x', 'zone2')],
      nodeIdx: 0,
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 1, zone2: 1 }, { 'node-a': 1, 'node-x': 1 }],
        paths: [[['zone1', 1], ['zone2', 1]], [['node-a', 1], ['node-x', 1]]],
      },
    },
    {
      name: 'node a impacts the minimum on node, node x the minimum on zone',
      preemptor: zoneAndNode,
      pod: foo('p-a1', 'node-a'),
      existing: [foo('p-b1', 'node-b'), foo('p-b2', 'node-b'), foo('p-x1', 'node-x')],
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1'), zn('node-x', 'zone2')],
      nodeIdx: 0,
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 3, zone2: 1 }, { 'node-a': 1, 'node-b': 2, 'node-x': 1 }],
        paths: [[['zone2', 1], ['zone1', 3]], [['node-a', 1], ['node-x', 1]]],
      },
    },
    {
      name: 'constraints hold different labelSelectors, node a impacts the minimum on zone',
      preemptor: zoneFooNodeBar,
      pod: foo('p-a1', 'node-a'),
      existing: [foo('p-b1', 'node-b', { bar: '' }), foo('p-x1', 'node-x', { bar: '' }), bar('p-x2', 'node-x')],
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1'), zn('node-x', 'zone2')],
      nodeIdx: 0,
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 2, zone2: 1 }, { 'node-a': 0, 'node-b': 1, 'node-x': 2 }],
        paths: [[['zone2', 1], ['zone1', 2]], [['node-a', 0], ['node-b', 1]]],
      },
    },
    {
      name: 'constraints hold different labelSelectors, node a impacts the minimums on both zone and node',
      preemptor: zoneFooNodeBar,
      pod: foo('p-a1', 'node-a', { bar: '' }),
      existing: [bar('p-b1', 'node-b'), foo('p-x1', 'node-x', { bar: '' }), bar('p-x2', 'node-x')],
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1'), zn('node-x', 'zone2')],
      nodeIdx: 0,
      want: {
        keys: ['zone', 'node'],
        counts: [{ zone1: 1, zone2: 1 }, { 'node-a': 1, 'node-b': 1, 'node-x': 2 }],
        paths: [[['zone1', 1], ['zone2', 1]], [['node-a', 1], ['node-b', 1]]],
      },
    },
    {
      name: 'add a pod on a node the preemptor’s node affinity excludes',
      preemptor: zoneOnlyNotInBar,
      pod: foo('p-a1', 'node-a', { zone: 'zone1' }),
      existing: [foo('p-a2', 'node-a', { zone: 'zone1' }), foo('p-b1', 'node-b', { zone: 'zone2' })],
      nodes: affinityNodes(),
      nodeIdx: 0,
      want: { keys: ['zone'], counts: [{ zone2: 1 }], paths: [[['zone2', 1], ['', maxInt32]]] },
    },
    {
      name: 'add a pod on a node the preemptor’s node affinity admits',
      preemptor: zoneOnly,
      pod: foo('p-b1', 'node-b', { zone: 'zone2' }),
      existing: [foo('p-a1', 'node-a', { zone: 'zone1' }), foo('p-b2', 'node-b', { zone: 'zone2' })],
      nodes: affinityNodes(),
      nodeIdx: 1,
      want: { keys: ['zone'], counts: [{ zone1: 1, zone2: 2 }], paths: [[['zone1', 1], ['zone2', 2]]] },
    },
  ];

  for (const tc of addCases) {
    it(`AddPod: ${tc.name}`, () => {
      const { plugin, handle, state } = runPreFilter(tc.preemptor, tc.nodes, tc.existing);
      const ni = handle.snapshot.get(tc.nodes[tc.nodeIdx]!.metadata.name!)!;
      assert.equal(plugin.addPod(state, info(tc.preemptor), info(tc.pod), ni), null);
      assertState(state.read<PreFilterState>(preFilterStateKey)!, tc.want);
    });
  }

  const removeCases: Case[] = [
    {
      name: 'pods spread as 2/1/0/3 on nodes, remove one from the fullest node',
      preemptor: nodeOnly,
      pod: foo('p-y1', 'node-y'),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y')],
      nodes: fourNodes(),
      nodeIdx: 3,
      want: { keys: ['node'], counts: [{ 'node-a': 2, 'node-b': 1, 'node-x': 0, 'node-y': 2 }], paths: [[['node-x', 0], ['node-b', 1]]] },
    },
    {
      name: 'zones 1/2: removing the only pod of zone1 lowers the minimum to 0',
      preemptor: zoneOnly,
      pod: foo('p-a1', 'node-a'),
      existing: [foo('p-a1', 'node-a'), foo('p-x1', 'node-x'), foo('p-y1', 'node-y')],
      nodes: fourNodes(),
      nodeIdx: 0,
      want: { keys: ['zone'], counts: [{ zone1: 0, zone2: 2 }], paths: [[['zone1', 0], ['zone2', 2]]] },
    },
    {
      name: 'zones 3/1: removing from zone1 updates the second path',
      preemptor: zoneOnly,
      pod: foo('p-a1', 'node-a'),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-x1', 'node-x')],
      nodes: fourNodes(),
      nodeIdx: 0,
      want: { keys: ['zone'], counts: [{ zone1: 2, zone2: 1 }], paths: [[['zone2', 1], ['zone1', 2]]] },
    },
    {
      name: 'removing a pod in another namespace changes nothing',
      preemptor: zoneOnly,
      pod: foo('p-a9', 'node-a', {}, 'ns1'),
      existing: [foo('p-a1', 'node-a'), foo('p-x1', 'node-x')],
      nodes: fourNodes(),
      nodeIdx: 0,
      want: { keys: ['zone'], counts: [{ zone1: 1, zone2: 1 }], paths: [[['zone1', 1], ['zone2', 1]]] },
    },
    {
      name: "removing a pod the selector doesn't match changes nothing",
      preemptor: zoneOnly,
      pod: bar('p-a9', 'node-a'),
      existing: [foo('p-a1', 'node-a'), foo('p-x1', 'node-x'), bar('p-a9', 'node-a')],
      nodes: fourNodes(),
      nodeIdx: 0,
      want: { keys: ['zone'], counts: [{ zone1: 1, zone2: 1 }], paths: [[['zone1', 1], ['zone2', 1]]] },
    },
    {
      name: 'remove a pod on a node the preemptor’s node affinity excludes',
      preemptor: zoneOnlyNotInBar,
      pod: foo('p-a1', 'node-a', { zone: 'zone1' }),
      existing: [foo('p-a1', 'node-a', { zone: 'zone1' }), foo('p-b1', 'node-b', { zone: 'zone2' })],
      nodes: affinityNodes(),
      nodeIdx: 0,
      want: { keys: ['zone'], counts: [{ zone2: 1 }], paths: [[['zone2', 1], ['', maxInt32]]] },
    },
    {
      name: 'remove a pod on a node the preemptor’s node affinity admits',
      preemptor: zoneOnly,
      pod: foo('p-b1', 'node-b', { zone: 'zone2' }),
      existing: [foo('p-a1', 'node-a', { zone: 'zone1' }), foo('p-b1', 'node-b', { zone: 'zone2' })],
      nodes: affinityNodes(),
      nodeIdx: 1,
      want: { keys: ['zone'], counts: [{ zone1: 1, zone2: 0 }], paths: [[['zone2', 0], ['zone1', 1]]] },
    },
  ];

  for (const tc of removeCases) {
    it(`RemovePod: ${tc.name}`, () => {
      const { plugin, handle, state } = runPreFilter(tc.preemptor, tc.nodes, tc.existing);
      const ni = handle.snapshot.get(tc.nodes[tc.nodeIdx]!.metadata.name!)!;
      assert.equal(plugin.removePod(state, info(tc.preemptor), info(tc.pod), ni), null);
      assertState(state.read<PreFilterState>(preFilterStateKey)!, tc.want);
    });
  }

  it('a clone is independent of the original', () => {
    const { plugin, handle, state } = runPreFilter(zoneOnly, fourNodes(), [foo('p-a1', 'node-a')]);
    const copy = state.clone();
    plugin.addPod(copy, info(zoneOnly), info(foo('p-x1', 'node-x')), handle.snapshot.get('node-x')!);
    assertState(state.read<PreFilterState>(preFilterStateKey)!, { keys: ['zone'], counts: [{ zone1: 1, zone2: 0 }], paths: [[['zone2', 0], ['zone1', 1]]] });
    assertState(copy.read<PreFilterState>(preFilterStateKey)!, { keys: ['zone'], counts: [{ zone1: 1, zone2: 1 }], paths: [[['zone1', 1], ['zone2', 1]]] });
  });

  it('AddPod without PreFilter state is an Error', () => {
    const { plugin, handle } = setup([], fourNodes());
    const st = plugin.addPod(newState(), info(zoneOnly), info(foo('x', 'node-a')), handle.snapshot.get('node-a')!);
    assert.ok(st instanceof Status);
    assert.equal(st.code, Code.Error);
    assert.equal(st.message(), 'reading "PreFilterPodTopologySpread" from cycleState: not found');
  });
});

type Want = Record<string, Code>;

function runFilter(p: Pod, nodes: Node[], existing: Pod[]): Record<string, Code> {
  const { plugin, handle, state, out } = runPreFilter(p, nodes, existing);
  assert.equal(out, null);
  const got: Record<string, Code> = {};
  for (const n of nodes) {
    const st = plugin.filter(state, info(p), handle.snapshot.get(n.metadata.name!)!);
    got[n.metadata.name!] = st === null ? Code.Success : st.code;
    if (st?.code === Code.Unschedulable) assert.deepEqual(st.reasons, [ErrReasonConstraintsNotMatch]);
    if (st?.code === Code.UnschedulableAndUnresolvable) assert.deepEqual(st.reasons, [ErrReasonNodeLabelNotMatch]);
  }
  return got;
}

const S = Code.Success;
const U = Code.Unschedulable;
const UU = Code.UnschedulableAndUnresolvable;

describe('PodTopologySpread Filter with a single constraint', () => {
  interface Case { name: string; pod: Pod; nodes: Node[]; existing?: Pod[]; want: Want }
  const zoneFoo = (maxSkew = 1, o = {}) => pod('p', { labels: { foo: '' }, constraints: [spread(maxSkew, 'zone', 'DoNotSchedule', fooSelector, o)] });
  const nodeFoo = (maxSkew = 1, o = {}) => pod('p', { labels: { foo: '' }, constraints: [spread(maxSkew, 'node', 'DoNotSchedule', fooSelector, o)] });
  const spread2103 = (): Pod[] => [
    foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'),
  ];
  const nodeLabelled = (): Node[] => [
    node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }),
    node('node-x', { node: 'node-x', foo: '' }), node('node-y', { node: 'node-y' }),
  ];
  const oneOneZeroOne = (): Pod[] => [foo('p-b1', 'node-a'), foo('p-b2', 'node-b'), foo('p-y1', 'node-y')];

  const cases: Case[] = [
    { name: 'no existing pods', pod: zoneFoo(), nodes: fourNodes(), want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S } },
    {
      name: "no existing pods, incoming pod doesn't match itself",
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'DoNotSchedule', barSelector)] }),
      nodes: fourNodes(),
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    },
    {
      name: 'existing pods in a different namespace do not count',
      pod: zoneFoo(),
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a', {}, 'ns1'), foo('p-b1', 'node-a', {}, 'ns2'), foo('p-x1', 'node-x'), foo('p-y1', 'node-y')],
      want: { 'node-a': S, 'node-b': S, 'node-x': U, 'node-y': U },
    },
    {
      name: 'existing pods do not match null selector',
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'DoNotSchedule', undefined)] }),
      nodes: fourNodes(),
      existing: [foo('p-x1', 'node-x'), foo('p-y1', 'node-y')],
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    },
    {
      name: 'pods spread across zones as 3/3, all nodes fit',
      pod: zoneFoo(),
      nodes: fourNodes(),
      existing: spread2103(),
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    },
    {
      name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
      pod: zoneFoo(),
      nodes: [zn('node-a', 'zone1'), node('node-b', { zon: 'zone1', node: 'node-b' }), zn('node-x', 'zone2'), zn('node-y', 'zone2')],
      existing: [foo('p-a1', 'node-a'), foo('p-b1', 'node-b'), foo('p-x1', 'node-x'), foo('p-y1', 'node-y')],
      want: { 'node-a': S, 'node-b': UU, 'node-x': U, 'node-y': U },
    },
    {
      name: "pod cannot be scheduled as all nodes don't have label 'rack'",
      pod: pod('p', { labels: { foo: '' }, constraints: [spread(1, 'rack', 'DoNotSchedule', fooSelector)] }),
      nodes: [zn('node-a', 'zone1'), zn('node-x', 'zone2')],
      want: { 'node-a': UU, 'node-x': UU },
    },
    {
      name: 'pods spread across nodes as 2/1/0/3, only node-x fits',
      pod: nodeFoo(),
      nodes: fourNodes(),
      existing: spread2103(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit',
      pod: nodeFoo(2),
      nodes: fourNodes(),
      existing: spread2103(),
      want: { 'node-a': U, 'node-b': S, 'node-x': S, 'node-y': U },
    },
    {
      name: "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
      pod: pod('p', { labels: { bar: '' }, constraints: [spread(1, 'node', 'DoNotSchedule', fooSelector)] }),
      nodes: fourNodes(),
      existing: spread2103(),
      want: { 'node-a': U, 'node-b': S, 'node-x': S, 'node-y': U },
    },
    {
      name: 'incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits',
      pod: pod('p', {
        labels: { foo: '' },
        nodeAffinity: [{ key: 'node', operator: 'In', values: ['node-a', 'node-y'] }],
        constraints: [spread(1, 'node', 'DoNotSchedule', fooSelector)],
      }),
      nodes: fourNodes(),
      existing: spread2103(),
      // node-b and node-x would be rejected by NodeAffinity, which is not run here.
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': U },
    },
    {
      name: 'terminating Pods should be excluded',
      pod: nodeFoo(),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' })],
      existing: [pod('p-a', { node: 'node-a', labels: { foo: '' }, terminating: true }), foo('p-b', 'node-b')],
      want: { 'node-a': S, 'node-b': U },
    },
    {
      name: 'incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits',
      pod: pod('p', {
        labels: { foo: '' },
        nodeAffinity: [{ key: 'node', operator: 'NotIn', values: ['node-b'] }],
        constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector)],
      }),
      nodes: fourNodes(),
      existing: [foo('p-b1', 'node-b'), foo('p-b2', 'node-b'), foo('p-y1', 'node-y')],
      want: { 'node-a': S, 'node-b': S, 'node-x': U, 'node-y': U },
    },
    {
      name: 'pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits',
      pod: nodeFoo(2, { minDomains: 4 }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' })],
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-b2', 'node-b'), foo('p-c1', 'node-c')],
      want: { 'node-a': U, 'node-b': U, 'node-c': S },
    },
    {
      name: 'pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit',
      pod: nodeFoo(2, { minDomains: 2 }),
      nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' })],
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-b2', 'node-b'), foo('p-c1', 'node-c')],
      want: { 'node-a': S, 'node-b': S, 'node-c': S },
    },
    {
      name: 'pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit',
      pod: zoneFoo(2, { minDomains: 3 }),
      nodes: fourNodes(),
      existing: [foo('p-b1', 'node-a'), foo('p-b2', 'node-b'), foo('p-y1', 'node-y')],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit',
      pod: zoneFoo(2, { minDomains: 1 }),
      nodes: fourNodes(),
      existing: [foo('p-b1', 'node-a'), foo('p-b2', 'node-b'), foo('p-y1', 'node-y')],
      want: { 'node-a': S, 'node-b': S, 'node-x': S, 'node-y': S },
    },
    {
      name: 'NodeAffinityPolicy honored with labelSelectors (1/1/0/~0~)',
      pod: pod('p', { labels: { foo: '' }, nodeSelector: { foo: '' }, constraints: [spread(1, 'node', 'DoNotSchedule', fooSelector)] }),
      nodes: nodeLabelled(),
      existing: oneOneZeroOne(),
      // node-y would be rejected by NodeAffinity, which is not run here.
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'NodeAffinityPolicy ignored with labelSelectors (1/1/0/~1~)',
      pod: pod('p', {
        labels: { foo: '' },
        nodeSelector: { foo: '' },
        constraints: [spread(1, 'node', 'DoNotSchedule', fooSelector, { nodeAffinityPolicy: 'Ignore' })],
      }),
      nodes: nodeLabelled(),
      existing: oneOneZeroOne(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'NodeAffinityPolicy honored with nodeAffinity (1/1/0/~0~)',
      pod: pod('p', {
        labels: { foo: '' },
        nodeAffinity: [{ key: 'foo', operator: 'In', values: [''] }],
        constraints: [spread(1, 'node', 'DoNotSchedule', fooSelector)],
      }),
      nodes: nodeLabelled(),
      existing: oneOneZeroOne(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'NodeAffinityPolicy ignored with nodeAffinity (1/1/0/~1~)',
      pod: pod('p', {
        labels: { foo: '' },
        nodeAffinity: [{ key: 'foo', operator: 'In', values: [''] }],
        constraints: [spread(1, 'node', 'DoNotSchedule', fooSelector, { nodeAffinityPolicy: 'Ignore' })],
      }),
      nodes: nodeLabelled(),
      existing: oneOneZeroOne(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'NodeTaintsPolicy honored (1/1/0/~0~)',
      pod: nodeFoo(1, { nodeTaintsPolicy: 'Honor' }),
      nodes: [...nodeLabelled().slice(0, 3), node('node-y', { node: 'node-y' }, [unschedulableTaint])],
      existing: oneOneZeroOne(),
      // node-y would be rejected by TaintToleration, which is not run here.
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': S },
    },
    {
      name: 'NodeTaintsPolicy ignored (1/1/0/1)',
      pod: nodeFoo(),
      nodes: [...nodeLabelled().slice(0, 3), node('node-y', { node: 'node-y' }, [unschedulableTaint])],
      existing: oneOneZeroOne(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(runFilter(tc.pod, tc.nodes, tc.existing ?? []), tc.want));
});

describe('PodTopologySpread Filter with multiple constraints', () => {
  interface Case { name: string; pod: Pod; nodes: Node[]; existing: Pod[]; want: Want }
  const zoneNodeFoo = pod('p', {
    labels: { foo: '' },
    constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)],
  });
  const zoneFooNodeBar = (labels: Record<string, string>) =>
    pod('p', { labels, constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)] });
  const inclusionNodes = (): Node[] => [
    zn('node-a', 'zone1', { foo: '' }), zn('node-b', 'zone1', { foo: '' }), zn('node-x', 'zone2', { foo: '' }), zn('node-y', 'zone2'),
  ];
  const inclusionPods = (): Pod[] => [foo('p-a1', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y')];

  const cases: Case[] = [
    {
      name: 'two constraints on zone and node, spreads = [3/3, 2/1/0/3]',
      pod: zoneNodeFoo,
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'), foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y')],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'two constraints on zone and node, spreads = [3/4, 2/1/0/4]',
      pod: zoneNodeFoo,
      nodes: fourNodes(),
      existing: [
        foo('p-a1', 'node-a'), foo('p-a2', 'node-a'), foo('p-b1', 'node-b'),
        foo('p-y1', 'node-y'), foo('p-y2', 'node-y'), foo('p-y3', 'node-y'), foo('p-y4', 'node-y'),
      ],
      want: { 'node-a': U, 'node-b': U, 'node-x': U, 'node-y': U },
    },
    {
      name: 'constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]',
      pod: zoneFooNodeBar({ foo: '', bar: '' }),
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a'), bar('p-y1', 'node-y')],
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]',
      pod: zoneFooNodeBar({ foo: '', bar: '' }),
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a'), bar('p-x1', 'node-x'), bar('p-y1', 'node-y')],
      want: { 'node-a': U, 'node-b': U, 'node-x': U, 'node-y': U },
    },
    {
      name: 'constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]',
      pod: zoneFooNodeBar({ foo: '', bar: '' }),
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a'), foo('p-a2', 'node-a', { bar: '' }), foo('p-y1', 'node-y'), foo('p-y2', 'node-y', { bar: '' }), foo('p-y3', 'node-y')],
      want: { 'node-a': U, 'node-b': S, 'node-x': U, 'node-y': U },
    },
    {
      name: "constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
      pod: zoneFooNodeBar({ bar: '' }),
      nodes: fourNodes(),
      existing: [foo('p-a1', 'node-a'), bar('p-x1', 'node-x'), bar('p-y1', 'node-y')],
      want: { 'node-a': S, 'node-b': S, 'node-x': U, 'node-y': U },
    },
    {
      name: "two constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
      pod: zoneNodeFoo,
      nodes: [zn('node-a', 'zone1'), zn('node-b', 'zone1'), node('node-x', { zone: 'zone2' }), zn('node-y', 'zone2')],
      existing: [foo('p-a1', 'node-a'), foo('p-y3', 'node-y')],
      want: { 'node-a': U, 'node-b': S, 'node-x': UU, 'node-y': U },
    },
    {
      name: 'two node inclusion constraints, zone: honor/ignore, node: ignore/ignore',
      pod: pod('p', {
        labels: { foo: '' },
        nodeSelector: { foo: '' },
        constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector, { nodeAffinityPolicy: 'Ignore' })],
      }),
      nodes: inclusionNodes(),
      existing: inclusionPods(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'two node inclusion constraints, zone: honor/honor, node: honor/ignore',
      pod: pod('p', {
        labels: { foo: '' },
        constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector, { nodeTaintsPolicy: 'Honor' }), spread(1, 'node', 'DoNotSchedule', fooSelector)],
      }),
      nodes: [...inclusionNodes().slice(0, 3), node('node-y', { zone: 'zone2', node: 'node-y' }, [unschedulableTaint])],
      existing: inclusionPods(),
      want: { 'node-a': U, 'node-b': U, 'node-x': S, 'node-y': U },
    },
    {
      name: 'two node inclusion constraints, zone: honor/ignore, node: honor/ignore',
      pod: pod('p', {
        labels: { foo: '' },
        nodeSelector: { foo: '' },
        constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)],
      }),
      nodes: [
        zn('node-a', 'zone1', { foo: '' }), zn('node-b', 'zone1'), zn('node-x', 'zone2', { foo: '' }),
        node('node-y', { zone: 'zone2', node: 'node-y', foo: '' }, [unschedulableTaint]),
      ],
      existing: inclusionPods(),
      want: { 'node-a': U, 'node-b': S, 'node-x': S, 'node-y': U },
    },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(runFilter(tc.pod, tc.nodes, tc.existing), tc.want));

  it('Filter without PreFilter state is an Error', () => {
    const { plugin, handle } = setup([], fourNodes());
    const st = plugin.filter(newState(), info(zoneNodeFoo), handle.snapshot.get('node-a')!);
    assert.equal(st?.code, Code.Error);
  });
});
