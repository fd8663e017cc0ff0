// Scenarios of upstream's requested_to_capacity_ratio_test.go (framework/plugins/noderesources).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import { buildBrokenLinearFunction } from '../../framework/helpers/shape_score.js';
import { RequestedToCapacityRatio, validateNodeResourcesFitArgs, type ResourceSpec, type UtilizationShapePoint } from './args.js';
import { Fit } from './fit.js';
import { capacityNode, makeNode, reqPod, runScore } from './test_helpers.js';

const defaultResources: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

function rtcrFit(resources: ResourceSpec[], shape: UtilizationShapePoint[]): Fit {
  const args = {
    ignoredResources: [],
    ignoredResourceGroups: [],
    scoringStrategy: { type: RequestedToCapacityRatio, resources, requestedToCapacityRatio: { shape } },
  };
  assert.deepEqual(validateNodeResourcesFitArgs(args, ''), []);
  return new Fit(args);
}

describe('RequestedToCapacityRatio scoring strategy', () => {
  const shape = [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
  const cases: { name: string; pod: Pod; nodes: Node[]; existing: Pod[]; want: number[] }[] = [
    {
      name: 'nothing scheduled, nothing requested (default - least requested nodes have priority)',
      pod: reqPod(),
      nodes: [capacityNode('node1', { cpu: '4000', memory: '10000' }), capacityNode('node2', { cpu: '4000', memory: '10000' })],
      existing: [reqPod({ node: 'node1' }), reqPod({ node: 'node1' })],
      want: [100, 100],
    },
    {
      name: 'nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)',
      pod: reqPod({}, { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' }),
      nodes: [capacityNode('node1', { cpu: '4000', memory: '10000' }), capacityNode('node2', { cpu: '6000', memory: '10000' })],
      existing: [reqPod({ node: 'node1' }), reqPod({ node: 'node1' })],
      want: [38, 50],
    },
    {
      name: 'no resources requested, pods scheduled with resources (default - least requested nodes have priority)',
      pod: reqPod(),
      nodes: [capacityNode('node1', { cpu: '4000', memory: '10000' }), capacityNode('node2', { cpu: '6000', memory: '10000' })],
      existing: [reqPod({ node: 'node1' }, { cpu: '3000', memory: '5000' }), reqPod({ node: 'node2' }, { cpu: '3000', memory: '5000' })],
      want: [38, 50],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const got = runScore(rtcrFit(defaultResources, shape), tc.pod, tc.nodes, tc.existing);
      assert.deepEqual(got.errors, [null, null]);
      assert.deepEqual(got.scores, tc.want);
    });
  }
});

describe('broken linear function', () => {
  const cases: { points: UtilizationShapePoint[]; assertions: [number, number][] }[] = [
    {
      points: [
        { utilization: 10, score: 1 },
        { utilization: 90, score: 9 },
      ],
      assertions: [[-10, 1], [0, 1], [9, 1], [10, 1], [15, 1], [19, 1], [20, 2], [89, 8], [90, 9], [99, 9], [100, 9], [110, 9]],
    },
    {
      points: [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 10 },
        { utilization: 100, score: 0 },
      ],
      assertions: [[-10, 2], [0, 2], [20, 6], [30, 8], [40, 10], [70, 5], [100, 0], [110, 0]],
    },
    {
      points: [
        { utilization: 0, score: 2 },
        { utilization: 40, score: 2 },
        { utilization: 100, score: 2 },
      ],
      assertions: [[-10, 2], [0, 2], [20, 2], [30, 2], [40, 2], [70, 2], [100, 2], [110, 2]],
    },
    {
      // A falling segment truncates toward zero, as Go's integer division does: 10 + (-10*45)/100 = 10 - 4.
      points: [
        { utilization: 0, score: 10 },
        { utilization: 100, score: 0 },
      ],
      assertions: [[45, 6], [99, 1], [1, 10]],
    },
  ];
  cases.forEach((tc, i) => {
    it(`case_${i}`, () => {
      const f = buildBrokenLinearFunction(tc.points);
      for (const [p, want] of tc.assertions) assert.equal(f(p), want, `p=${p}`);
    });
  });
});

describe('bin packing on a single extended resource', () => {
  const foo = 'intel.com/foo';
  const nodes = () => [makeNode('node1', 4000, 10000 * 1024 * 1024, { [foo]: 8 }), makeNode('node2', 4000, 10000 * 1024 * 1024, { [foo]: 4 })];
  const shape = [
    { utilization: 0, score: 0 },
    { utilization: 100, score: 1 },
  ];
  const cases: { name: string; pod: Pod; existing: Pod[]; want: number[] }[] = [
    { name: 'nothing scheduled, nothing requested', pod: reqPod(), existing: [], want: [0, 0] },
    // node1: 2/8 -> utilization 25 -> 2; node2: 2/4 -> 50 -> 5.
    { name: 'resources requested, pods scheduled with less resources', pod: reqPod({}, { [foo]: '2' }), existing: [reqPod()], want: [2, 5] },
    // node2 already has 2 in use: 4/4 -> 10.
    {
      name: 'resources requested, pods scheduled with resources, on node with existing pod running',
      pod: reqPod({}, { [foo]: '2' }),
      existing: [reqPod({ node: 'node2' }, { [foo]: '2' })],
      want: [2, 10],
    },
    { name: 'resources requested, pods scheduled with more resources', pod: reqPod({}, { [foo]: '4' }), existing: [reqPod()], want: [5, 10] },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const got = runScore(rtcrFit([{ name: foo, weight: 1 }], shape), tc.pod, nodes(), tc.existing);
      assert.deepEqual(got.errors, [null, null]);
      assert.deepEqual(got.scores, tc.want);
    });
  }
});

describe('bin packing on multiple extended resources', () => {
  const foo = 'intel.com/foo';
  const bar = 'intel.com/bar';
  const nodes = () => [
    makeNode('node1', 4000, 10000 * 1024 * 1024, { [foo]: 8, [bar]: 4 }),
    makeNode('node2', 4000, 10000 * 1024 * 1024, { [foo]: 4, [bar]: 8 }),
  ];
  const shape = [
    { utilization: 0, score: 0 },
    { utilization: 100, score: 1 },
  ];
  const resources = [
    { name: foo, weight: 3 },
    { name: bar, weight: 5 },
  ];
  const cases: { name: string; pod: Pod; existing: Pod[]; want: number[] }[] = [
    { name: 'nothing scheduled, nothing requested', pod: reqPod(), existing: [], want: [0, 0] },
    // node1: foo 2/8 -> 2, bar 2/4 -> 5: (2*3 + 5*5) / 8 = 3.875 -> 4; node2: (5*3 + 2*5) / 8 = 3.125 -> 3.
    { name: 'resources requested, pods scheduled with less resources', pod: reqPod({}, { [foo]: '2', [bar]: '2' }), existing: [reqPod()], want: [4, 3] },
    // node2: foo 4/4 -> 10, bar 4/8 -> 5: (30 + 25) / 8 = 6.875 -> 7.
    {
      name: 'resources requested, pods scheduled with resources, on node with existing pod running',
      pod: reqPod({}, { [foo]: '2', [bar]: '2' }),
      existing: [reqPod({ node: 'node2' }, { [foo]: '4', [bar]: '2' })],
      want: [4, 7],
    },
    { name: 'resources requested, pods scheduled with more resources', pod: reqPod({}, { [foo]: '4', [bar]: '2' }), existing: [reqPod()], want: [5, 5] },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const got = runScore(rtcrFit(resources, shape), tc.pod, nodes(), tc.existing);
      assert.deepEqual(got.errors, [null, null]);
      assert.deepEqual(got.scores, tc.want);
    });
  }
});
