// Scenarios of upstream's most_allocated_test.go (framework/plugins/noderesources).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import { Code } from '../../framework/status.js';
import { MostAllocated, validateNodeResourcesFitArgs, type ResourceSpec } from './args.js';
import { Fit } from './fit.js';
import { capacityNode, emptyContainersPod, reqPod, runScore } from './test_helpers.js';

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
  { name: 'nothing scheduled, nothing requested', pod: reqPod(), nodes: small(), resources: defaultResources, want: [0, 0] },
  // node1: cpu 3000*100/4000 = 75, memory 50 -> 62; node2: 50, 50 -> 50.
  { name: 'nothing scheduled, resources requested, differently sized nodes', pod: twoContainers(), nodes: sized(), resources: defaultResources, want: [62, 50] },
  { name: 'Resources not set, pods scheduled with error', pod: twoContainers(), nodes: sized(), resources: [], want: [0, 0], wantScoreError: true },
  // node1: cpu 60, memory 0 -> 30; node2: cpu 60, memory 25 -> 42.
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
    want: [30, 42],
  },
  {
    name: 'resources requested, pods scheduled with resources',
    pod: twoContainers(),
    nodes: big(),
    existing: [reqPod({ node: 'node1' }, { cpu: '3000', memory: '0' }), reqPod({ node: 'node2' }, { cpu: '3000', memory: '5000' })],
    resources: defaultResources,
    want: [42, 55],
  },
  // node1: cpu 5000/5000 -> 100, memory 90 -> 95; node2: cpu 50, memory 9000/9000 -> 100 -> 75.
  {
    name: 'resources requested equal node capacity',
    pod: reqPod({}, { cpu: '2000', memory: '4000' }, { cpu: '3000', memory: '5000' }),
    nodes: [capacityNode('node1', { cpu: '5000', memory: '10000' }), capacityNode('node2', { cpu: '10000', memory: '9000' })],
    resources: defaultResources,
    want: [95, 75],
  },
  // node1: (75*1 + 50*2) / 3 = 58; node2: (50 + 100) / 3 = 50.
  {
    name: 'nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes',
    pod: twoContainers(),
    nodes: sized(),
    resources: [
      { name: 'memory', weight: 2 },
      { name: 'cpu', weight: 1 },
    ],
    want: [58, 50],
  },
  // Containers without requests count 100m / 200Mi: node1 cpu 300/250 -> 100, memory 600Mi/1000Mi -> 60 -> 80;
  // node2 cpu 40, memory 20 -> 30.
  {
    name: 'no resources requested, pods scheduled, nonzero request for resource',
    pod: emptyContainersPod(1),
    nodes: [capacityNode('node1', { cpu: '250m', memory: '1000Mi' }), capacityNode('node2', { cpu: '250m', memory: '1000Mi' })],
    existing: [emptyContainersPod(1, 'node1'), emptyContainersPod(1, 'node1')],
    resources: defaultResources,
    want: [80, 30],
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
    resources: [{ name: 'memory', weight: 101 }],
    wantErrorPath: 'scoringStrategy.resources[0].weight',
  },
  {
    name: 'bypass extended resource if the pod does not request',
    pod: twoContainers(),
    nodes: [capacityNode('node1', { cpu: '6000', memory: '10000' }), capacityNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '4' })],
    resources: extendedResourceSet,
    want: [50, 50],
  },
  // node1: (50 + 50 + 2/4*100) / 3 = 50; node2: (50 + 50 + 20) / 3 = 40.
  {
    name: 'honor extended resource if the pod request',
    pod: reqPod({}, { cpu: '3000', memory: '5000', [extendedRes]: '2' }),
    nodes: [
      capacityNode('node1', { cpu: '6000', memory: '10000', [extendedRes]: '4' }),
      capacityNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '10' }),
    ],
    resources: extendedResourceSet,
    want: [50, 40],
  },
  {
    name: "if the node doesn't have a resource",
    pod: reqPod({}, { cpu: '3000', memory: '4000' }),
    nodes: [capacityNode('node1', { cpu: '6000', memory: '10000' }), capacityNode('node2', { cpu: '6000', memory: '10000', [extendedRes]: '4' })],
    resources: [{ name: extendedRes, weight: 2 }, ...defaultResources],
    want: [45, 45],
  },
];

describe('MostAllocated scoring strategy', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const args = { ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: { type: MostAllocated, resources: tc.resources } };
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
