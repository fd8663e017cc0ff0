// Scenarios of upstream's least_allocated_test.go (framework/plugins/noderesources).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import { Code } from '../../framework/status.js';
import { LeastAllocated, validateNodeResourcesFitArgs, type ResourceSpec } from './args.js';
import { Fit } from './fit.js';
import { capacityNode, reqPod, runScore } from './test_helpers.js';

const defaultResources: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];
const extendedRes = 'abc.com/xyz';
const extendedResourceSet: ResourceSpec[] = [...defaultResources, { name: extendedRes, weight: 1 }];

interface Case {
  name: string;
  pod: Pod;
  nodes: Node[];
  existing?: Pod[];
  resources: ResourceSpec[];
  want?: number[];
  wantErrorPath?: string;
  wantScoreError?: boolean;
}

const small = () => [capacityNode('node1', { cpu: '4000', memory: '10000' }), capacityNode('node2', { cpu: '4000', memory: '10000' })];
const sized = () => [capacityNode('node1', { cpu: '4000', memory: '10000' }), capacityNode('node2', { cpu: '6000', memory: '10000' })];
const big = () => [capacityNode('node1', { cpu: '10000', memory: '20000' }), capacityNode('node2', { cpu: '10000', memory: '20000' })];
const twoContainers = () => reqPod({}, { cpu: '1000', memory: '2000' }, { cpu: '2000', memory: '3000' });

const cases: Case[] = [
  // (4000-0)*100/4000 = 100 for cpu and memory on both nodes.
  { name: 'nothing scheduled, nothing requested', pod: reqPod(), nodes: small(), resources: defaultResources, want: [100, 100] },
  // node1: cpu 25, memory 50 -> 37; node2: cpu 50, memory 50 -> 50.
  { name: 'nothing scheduled, resources requested, differently sized nodes', pod: twoContainers(), nodes: sized(), resources: defaultResources, want: [37, 50] },
  { name: 'Resources not set, pods scheduled with error', pod: twoContainers(), nodes: sized(), resources: [], want: [0, 0], wantScoreError: true },
  {
    name: 'no resources requested, pods scheduled',
    pod: reqPod(),
    nodes: small(),
    existing: [reqPod({ node: 'node1' }), reqPod({ node: 'node1' }), reqPod({ node: 'node2' }), reqPod({ node: 'node2' })],
    resources: defaultResources,
    want: [100, 100],
  },
  // node1: cpu (10000-6000)*100/10000 = 40, memory 100 -> 70; node2: cpu 40, memory 75 -> 57.
  {
    name: 'no resources requested, pods scheduled with resources',
    pod: reqPod(),
    nodes: big(),
    existing: [
      reqPod({ node: 'node1' }, { cpu: '3000', memory: '0' }),
      reqPod({ node: 'node1' }, { cpu: '3000', memory: '0' }),
      reqPod({ node: 'node2' }, { cpu: '3000', memory: '0' }),
      reqPod({ node: 'node2' }, { cpu: '3000', memory: '5000' }),
    ],
    resources: defaultResources,
    want: [70, 57],
  },
  {
    name: 'resources requested, pods scheduled with resources',
    pod: twoContainers(),
    nodes: big(),
    existing: [reqPod({ node: 'node1' }, { cpu: '3000', memory: '0' }), reqPod({ node: 'node2' }, { cpu: '3000', memory: '5000' })],
    resources: defaultResources,
    want: [57, 45],
  },
  {
    name: 'resources requested, pods scheduled with resources, differently sized nodes',
    pod: twoContainers(),
    nodes: [capacityNode('node1', { cpu: '10000', memory: '20000' }), capacityNode('node2', { cpu: '10000', memory: '50000' })],
    existing: [reqPod({ node: 'node1' }, { cpu: '3000', memory: '0' }), reqPod({ node: 'node2' }, { cpu: '3000', memory: '5000' })],
    resources: defaultResources,
    want: [57, 60],
  },
  // cpu over capacity scores 0: node1 (0 + 100) / 2 = 50, node2 (0 + 50) / 2 = 25.
  {
    name: 'requested resources exceed node capacity',
    pod: reqPod({}, { cpu: '3000', memory: '0' }),
    nodes: small(),
    existing: [reqPod({ node: 'node1' }, { cpu: '3000', memory: '0' }), reqPod({ node: 'node2' }, { cpu: '3000', memory: '5000' })],
    resources: defaultResources,
    want: [50, 25],
  },
  {
    name: 'zero node resources, pods scheduled with resources',
    pod: reqPod(),
    nodes: [capacityNode('node1'), capacityNode('node2')],
    existing: [reqPod({ node: 'node1' }, { cpu: '3000', memory: '0' }), reqPod({ node: 'node2' }, { cpu: '3000', memory: '5000' })],
    resources: defaultResources,
    want: [0, 0],
  },
  // node1: (25*1 + 50*2) / 3 = 41; node2: (50*1 + 50*2) / 3 = 50.
  {
    name: 'nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes',
    pod: twoContainers(),
    nodes: sized(),
    resources: [
      { name: 'memory', weight: 2 },
      { name: 'cpu', weight: 1 },
    ],
    want: [41, 50],
  },
  {
    name: 'resource with negative weight',
    pod: twoContainers(),
    nodes: small(),
    resources: [
      { name: 'memory', weight: -1 },
      { name: 'cpu', weight: 1 },
    ],
    wantErrorPath: 'scoringStrategy.resources[0].weight',
  },
  {
    name: 'resource with zero weight',
    pod: twoContainers(),
    nodes: small(),
    resources: [
      { name: 'memory', weight: 1 },
      { name: 'cpu', weight: 0 },
    ],
    wantErrorPath: 'scoringStrategy.resources[1].weight',
  },
  {
    name: 'resource weight larger than MaxNodeScore',
    pod: twoContainers(),
    nodes: small(),
    resources: [
      { name: 'memory', weight: 1 },
      { name: 'cpu', weight: 101 },
    ],
    wantErrorPath: 'scoringStrategy.resources[1].weight',
  },
  // The extended resource is left out when the pod does not request it: (50 + 50) / 2 on both.
  {
    name: 'bypass extended resource if the pod does not request',
    pod: twoContainers(),
    nodes: [capacityNode('node1', { cpu: '6000', memory: '10000' }), capacityNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '4' })],
    resources: extendedResourceSet,
    want: [50, 50],
  },
  // node1: (50 + 50 + (4-2)/4*100) / 3 = 50; node2: (50 + 50 + 80) / 3 = 60.
  {
    name: 'honor extended resource if the pod requests',
    pod: reqPod({}, { cpu: '3000', memory: '5000', [extendedRes]: '2' }),
    nodes: [
      capacityNode('node1', { cpu: '6000', memory: '10000', [extendedRes]: '4' }),
      capacityNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '10' }),
    ],
    resources: extendedResourceSet,
    want: [50, 60],
  },
  // A resource the node lacks is left out: (50 + 60) / 2 = 55 on both.
  {
    name: "if the node doesn't have a resource",
    pod: reqPod({}, { cpu: '3000', memory: '4000' }),
    nodes: [capacityNode('node1', { cpu: '6000', memory: '10000' }), capacityNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '4' })],
    resources: [{ name: extendedRes, weight: 2 }, ...defaultResources],
    want: [55, 55],
  },
];

describe('LeastAllocated scoring strategy', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const args = { ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: { type: LeastAllocated, resources: tc.resources } };
      const errs = validateNodeResourcesFitArgs(args, '');
      if (tc.wantErrorPath) {
        assert.deepEqual(errs.map((e) => e.path), [tc.wantErrorPath]);
        return;
      }
      assert.deepEqual(errs, []);
      const got = runScore(new Fit(args), tc.pod, tc.nodes, tc.existing);
      assert.equal(got.preScore, null);
      assert.deepEqual(got.scores, tc.want);
      for (const e of got.errors) {
        if (tc.wantScoreError) assert.equal(e?.code, Code.Error);
        else assert.equal(e, null);
      }
    });
  }
});
