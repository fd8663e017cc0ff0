// Scenarios of upstream's balanced_allocation_test.go (framework/plugins/noderesources) as of
// v1.37: the score of the balance's improvement, and PreScore Skip for best-effort pods. The
// comments give each node's balance score before -> after the pod.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod, ResourceList } from '../../api/types.js';
import { Code } from '../../framework/status.js';
import { seededRandom } from '../../util/clock.js';
import type { ResourceSpec } from './args.js';
import { BalancedAllocation, balancedResourceScorer } from './balanced_allocation.js';
import { emptyContainersPod, makeNode, reqPod, runScore } from './test_helpers.js';

const defaultResources: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];
const gpu = 'nvidia.com/gpu';

const onNode = (node: string, ...containers: ResourceList[]): Pod => reqPod({ node }, ...containers);
const cpuOnly = (node: string) => onNode(node, { cpu: '1000m', memory: '0' }, { cpu: '2000m', memory: '0' });
const cpuAndMemory = (node: string) => onNode(node, { cpu: '1000m', memory: '2000' }, { cpu: '2000m', memory: '3000' });
const cpuAndMemoryAndGPU = (node: string) => onNode(node, { cpu: '1000m', memory: '2000' }, { cpu: '2000m', memory: '3000', [gpu]: '3' });
const unbound = (p: Pod): Pod => ({ ...p, spec: { ...p.spec, nodeName: undefined } });

interface Case {
  name: string;
  pod: Pod;
  nodes: Node[];
  existing?: Pod[];
  resources?: ResourceSpec[];
  runPreScore?: boolean;
  /** Expected scores; absent when PreScore skips the pod. */
  want?: number[];
}

const cases: Case[] = [
  {
    name: 'nothing scheduled, nothing requested, skip in PreScore',
    pod: reqPod(),
    nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 4000, 10000)],
  },
  // node1: 100 -> 87 (cpu 0.75, memory 0.5) = 68; node2: 100 -> 100 (0.5, 0.5) = 75.
  {
    name: 'nothing scheduled, resources requested, differently sized nodes',
    pod: unbound(cpuAndMemory('')),
    nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 6000, 10000)],
    want: [68, 75],
  },
  {
    name: 'no resources requested, pods without container scheduled, skip in PreScore',
    pod: reqPod(),
    nodes: [makeNode('node1', 4000, 10000), makeNode('node2', 4000, 10000)],
    existing: [reqPod({ node: 'node1' }), reqPod({ node: 'node1' }), reqPod({ node: 'node2' }), reqPod({ node: 'node2' })],
  },
  {
    name: 'no resources requested, pods with container scheduled, skip in PreScore',
    pod: reqPod(),
    nodes: [makeNode('node1', 250, 1000 * 1024 * 1024), makeNode('node2', 250, 1000 * 1024 * 1024)],
    existing: [emptyContainersPod(1, 'node1'), emptyContainersPod(1, 'node1')],
  },
  {
    name: 'best-effort pod scores 0 if PreScore not called',
    pod: emptyContainersPod(1),
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    existing: [cpuOnly('node1'), cpuAndMemory('node2')],
    runPreScore: false,
    want: [0, 0],
  },
  // node1: 85 -> 82 (cpu 0.6, memory 0.25) = 73; node2: 97 -> 95 (0.6, 0.5) = 74.
  {
    name: 'resources requested, pods scheduled with resources',
    pod: unbound(cpuAndMemory('')),
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    existing: [cpuOnly('node1'), cpuAndMemory('node2')],
    want: [73, 74],
  },
  // node2: 90 -> 80 (cpu 0.6, memory 10000/50000 = 0.2) = 70.
  {
    name: 'resources requested, pods scheduled with resources, differently sized nodes',
    pod: unbound(cpuAndMemory('')),
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 50000)],
    existing: [cpuOnly('node1'), cpuAndMemory('node2')],
    want: [73, 70],
  },
  // node1: 50 -> 100 (cpu 1, memory 0 -> 1) = 100; node2: 100 -> 50 (cpu 0, memory 0 -> 1) = 50.
  {
    name: 'resources requested, pods scheduled with resources, nodes to reach min/max score',
    pod: reqPod({}, { memory: '2000' }, { memory: '3000' }),
    nodes: [makeNode('node1', 3000, 5000), makeNode('node2', 3000, 5000)],
    existing: [cpuOnly('node1')],
    want: [100, 50],
  },
  // node1: 75 -> 50 (cpu 0.5 -> 1, memory 0) = 62; node2: 100 -> 75 (cpu 0.5 -> 1, memory 0.5) = 62.
  {
    name: 'requested resources at node capacity',
    pod: unbound(cpuOnly('')),
    nodes: [makeNode('node1', 6000, 10000), makeNode('node2', 6000, 10000)],
    existing: [cpuOnly('node1'), cpuAndMemory('node2')],
    want: [62, 62],
  },
  {
    name: 'zero node resources, pods scheduled with resources, skip in PreScore',
    pod: reqPod(),
    nodes: [makeNode('node1', 0, 0), makeNode('node2', 0, 0)],
    existing: [cpuOnly('node1'), cpuAndMemory('node2')],
  },
  // node1: 69 -> 70 (cpu 3000/3500, memory 5000/40000, gpu 3/8 -> 4/8) = 75;
  // node2: 62 -> 65 (gpu 0 -> 1/8) = 76.
  {
    name: 'include scalar resource on a node for balanced resource allocation',
    pod: reqPod({}, { memory: '0', [gpu]: '1' }),
    nodes: [makeNode('node1', 3500, 40000, { [gpu]: 8 }), makeNode('node2', 3500, 40000, { [gpu]: 8 })],
    existing: [cpuAndMemory('node2'), cpuAndMemoryAndGPU('node1')],
    resources: [...defaultResources, { name: gpu, weight: 1 }],
    want: [75, 76],
  },
  // The pod does not request the gpu, so it is left out: 100 -> 63 (cpu 0.857, memory 0.125) = 56.
  {
    name: 'node without the scalar resource should skip the scalar resource',
    pod: unbound(cpuAndMemory('')),
    nodes: [makeNode('node1', 3500, 40000, { [gpu]: 8 }), makeNode('node2', 3500, 40000)],
    resources: [...defaultResources, { name: gpu, weight: 1 }],
    want: [56, 56],
  },
  {
    name: 'resources requested, pods scheduled with resources if PreScore not called',
    pod: unbound(cpuAndMemory('')),
    nodes: [makeNode('node1', 10000, 20000), makeNode('node2', 10000, 20000)],
    existing: [cpuOnly('node1'), cpuAndMemory('node2')],
    runPreScore: false,
    want: [73, 74],
  },
];

describe('NodeResourcesBalancedAllocation', () => {
  for (const tc of cases) {
    it(tc.name, () => {
      const plugin = new BalancedAllocation({ resources: tc.resources ?? defaultResources });
      const got = runScore(plugin, tc.pod, tc.nodes, tc.existing, tc.runPreScore ?? true);
      if (!tc.want) {
        assert.equal(got.preScore?.code, Code.Skip);
        return;
      }
      assert.equal(got.preScore, null);
      assert.deepEqual(got.errors, [null, null]);
      assert.deepEqual(got.scores, tc.want);
    });
  }
});

describe('balancedResourceScorer', () => {
  const cases: { name: string; requested: number[]; allocatable: number[]; pod: number[]; want: number }[] = [
    { name: 'no resources on the node: no change', requested: [0, 0], allocatable: [0, 0], pod: [0, 0], want: 75 },
    { name: 'a single resource has no deviation', requested: [5, 0], allocatable: [10, 0], pod: [5, 0], want: 75 },
    // 75 (0.5, 0) -> 75 (1 capped, 0.5): no change.
    { name: 'fractions above 1 are capped', requested: [30, 5], allocatable: [10, 10], pod: [25, 5], want: 75 },
    // before 0.1, 0.5, 0.1: std 0.1886 -> 81; after 0.1, 0.5, 0.9: std 0.3266 -> 67; 50 + (50 + 67 - 81) / 2 = 68.
    { name: 'three resources use the population standard deviation', requested: [1, 5, 9], allocatable: [10, 10, 10], pod: [0, 0, 8], want: 68 },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      assert.equal(balancedResourceScorer(Float64Array.from(tc.requested), Float64Array.from(tc.allocatable), Float64Array.from(tc.pod)), tc.want);
    });
  }

  // The formula as upstream states it, one balance at a time, with plain arrays.
  const balance = (requested: number[], allocatable: number[]) => {
    const fractions = requested.flatMap((r, i) => (allocatable[i] === 0 ? [] : [Math.min(r / allocatable[i]!, 1)]));
    let std = 0;
    if (fractions.length === 2) std = Math.abs((fractions[0]! - fractions[1]!) / 2);
    else if (fractions.length > 2) {
      const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
      std = Math.sqrt(fractions.reduce((a, f) => a + (f - mean) * (f - mean), 0) / fractions.length);
    }
    return Math.trunc((1 - std) * 100);
  };
  it('gives what computing each balance on its own gives, on random nodes of 1 to 5 resources', () => {
    const random = seededRandom(5);
    const pick = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 2000; round++) {
      const n = 1 + pick(5);
      const allocatable = Array.from({ length: n }, () => (random() < 0.2 ? 0 : 1 + pick(64_000)));
      const pod = Array.from({ length: n }, () => pick(8_000));
      const requested = pod.map((p) => p + pick(70_000));
      const withPod = balance(requested, allocatable);
      const withoutPod = balance(requested.map((r, i) => r - pod[i]!), allocatable);
      const want = 50 + Math.trunc((50 + withPod - withoutPod) / 2);
      assert.equal(balancedResourceScorer(Float64Array.from(requested), Float64Array.from(allocatable), Float64Array.from(pod)), want, JSON.stringify({ requested, allocatable, pod }));
    }
  });
});
