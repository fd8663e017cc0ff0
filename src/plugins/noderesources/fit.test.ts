// Scenarios of upstream's fit_test.go (framework/plugins/noderesources), with v1.34 status codes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod, ResourceList } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, codeName } from '../../framework/status.js';
import { LeastAllocated, MostAllocated, RequestedToCapacityRatio, type NodeResourcesFitArgs, type ScoringStrategy } from './args.js';
import { Fit, fitsRequest, type FitFeatures, type InsufficientResource } from './fit.js';
import {
  capacityNode,
  reqPod,
  resourcePod,
  runScore,
  withInitContainers,
  withOverhead,
  withPodLevelRequests,
  type Usage,
} from './test_helpers.js';

const extA = 'example.com/aaa';
const extB = 'example.com/bbb';
const k8sIOA = 'kubernetes.io/something';
const k8sIOB = 'subdomain.kubernetes.io/something';
const hugeA = 'hugepages-2Mi';

const defaultResources = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

function fitArgs(o: Partial<NodeResourcesFitArgs> = {}): NodeResourcesFitArgs {
  return {
    ignoredResources: o.ignoredResources ?? [],
    ignoredResourceGroups: o.ignoredResourceGroups ?? [],
    scoringStrategy: o.scoringStrategy ?? { type: LeastAllocated, resources: defaultResources },
  };
}

/** makeAllocatableResources(milliCPU, memory, pods, extendedA, storage, hugePageA). */
function allocatable(milliCPU: number, memory: number, pods: number, extendedA: number, storage: number, hugePageA: number): ResourceList {
  return {
    cpu: `${milliCPU}m`,
    memory: `${memory}`,
    pods: `${pods}`,
    [extA]: `${extendedA}`,
    'ephemeral-storage': `${storage}`,
    [hugeA]: `${hugePageA}`,
  };
}

function nodeInfoWith(list: ResourceList, ...existing: Usage[]): NodeInfo {
  const node: Node = { metadata: { name: 'node' }, status: { capacity: list, allocatable: list } };
  const ni = new NodeInfo(node);
  for (const u of existing) ni.addPod(new PodInfo(resourcePod(u)));
  return ni;
}

const insufficient = (
  resourceName: string,
  requested: number,
  used: number,
  capacity: number,
  unresolvable = false,
): InsufficientResource => ({
  resourceName,
  reason: resourceName === 'pods' ? 'Too many pods' : `Insufficient ${resourceName}`,
  requested,
  used,
  capacity,
  unresolvable,
});

interface FilterCase {
  name: string;
  pod: Pod;
  existing: Usage;
  args?: Partial<NodeResourcesFitArgs>;
  /** null when the pod fits. */
  want: { code: Code; reasons: string[] } | null;
  wantInsufficient: InsufficientResource[];
}

function runFilter(tc: FilterCase, node: ResourceList): void {
  const ni = nodeInfoWith(node, tc.existing);
  const plugin = new Fit(fitArgs(tc.args));
  const state = new CycleState();
  const pod = new PodInfo(tc.pod);
  assert.equal(plugin.preFilter(state, pod), null);
  const status = plugin.filter(state, pod, ni);
  if (tc.want === null) {
    assert.equal(status, null);
  } else {
    assert.ok(status, 'expected a rejection');
    assert.equal(codeName(status.code), codeName(tc.want.code));
    assert.deepEqual([...status.reasons], tc.want.reasons);
  }
  const got = fitsRequest(pod.requests.resource, ni, plugin.ignoredResources, plugin.ignoredResourceGroups);
  assert.deepEqual(got, tc.wantInsufficient);
}

const U = Code.Unschedulable;
const UU = Code.UnschedulableAndUnresolvable;

describe('NodeResourcesFit Filter: enough requests', () => {
  const node = allocatable(10, 20, 32, 5, 20, 5);
  const cases: FilterCase[] = [
    { name: 'no resources requested always fits', pod: reqPod(), existing: { milliCPU: 10, memory: 20 }, want: null, wantInsufficient: [] },
    {
      name: 'too many resources fails',
      pod: resourcePod({ milliCPU: 1, memory: 1 }),
      existing: { milliCPU: 10, memory: 20 },
      want: { code: U, reasons: ['Insufficient cpu', 'Insufficient memory'] },
      wantInsufficient: [insufficient('cpu', 1, 10, 10), insufficient('memory', 1, 20, 20)],
    },
    {
      name: 'too many resources fails due to init container cpu',
      pod: withInitContainers(resourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 3, memory: 1 }),
      existing: { milliCPU: 8, memory: 19 },
      want: { code: U, reasons: ['Insufficient cpu'] },
      wantInsufficient: [insufficient('cpu', 3, 8, 10)],
    },
    {
      name: 'too many resources fails due to highest init container cpu',
      pod: withInitContainers(resourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 3, memory: 1 }, { milliCPU: 2, memory: 1 }),
      existing: { milliCPU: 8, memory: 19 },
      want: { code: U, reasons: ['Insufficient cpu'] },
      wantInsufficient: [insufficient('cpu', 3, 8, 10)],
    },
    {
      name: 'too many resources fails due to init container memory',
      pod: withInitContainers(resourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 3 }),
      existing: { milliCPU: 9, memory: 19 },
      want: { code: U, reasons: ['Insufficient memory'] },
      wantInsufficient: [insufficient('memory', 3, 19, 20)],
    },
    {
      name: 'too many resources fails due to highest init container memory',
      pod: withInitContainers(resourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 3 }, { milliCPU: 1, memory: 2 }),
      existing: { milliCPU: 9, memory: 19 },
      want: { code: U, reasons: ['Insufficient memory'] },
      wantInsufficient: [insufficient('memory', 3, 19, 20)],
    },
    {
      name: "init container fits because it's the max, not sum, of containers and init containers",
      pod: withInitContainers(resourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 1 }),
      existing: { milliCPU: 9, memory: 19 },
      want: null,
      wantInsufficient: [],
    },
    {
      name: "multiple init containers fit because it's the max, not sum, of containers and init containers",
      pod: withInitContainers(resourcePod({ milliCPU: 1, memory: 1 }), { milliCPU: 1, memory: 1 }, { milliCPU: 1, memory: 1 }),
      existing: { milliCPU: 9, memory: 19 },
      want: null,
      wantInsufficient: [],
    },
    { name: 'both resources fit', pod: resourcePod({ milliCPU: 1, memory: 1 }), existing: { milliCPU: 5, memory: 5 }, want: null, wantInsufficient: [] },
    {
      name: 'one resource memory fits',
      pod: resourcePod({ milliCPU: 2, memory: 1 }),
      existing: { milliCPU: 9, memory: 5 },
      want: { code: U, reasons: ['Insufficient cpu'] },
      wantInsufficient: [insufficient('cpu', 2, 9, 10)],
    },
    {
      name: 'one resource cpu fits',
      pod: resourcePod({ milliCPU: 1, memory: 2 }),
      existing: { milliCPU: 5, memory: 19 },
      want: { code: U, reasons: ['Insufficient memory'] },
      wantInsufficient: [insufficient('memory', 2, 19, 20)],
    },
    { name: 'equal edge case', pod: resourcePod({ milliCPU: 5, memory: 1 }), existing: { milliCPU: 5, memory: 19 }, want: null, wantInsufficient: [] },
    {
      name: 'equal edge case for init container',
      pod: withInitContainers(resourcePod({ milliCPU: 4, memory: 1 }), { milliCPU: 5, memory: 1 }),
      existing: { milliCPU: 5, memory: 19 },
      want: null,
      wantInsufficient: [],
    },
    { name: 'extended resource fits', pod: resourcePod({ scalar: { [extA]: 1 } }), existing: {}, want: null, wantInsufficient: [] },
    {
      name: 'extended resource fits for init container',
      pod: withInitContainers(resourcePod({}), { scalar: { [extA]: 1 } }),
      existing: {},
      want: null,
      wantInsufficient: [],
    },
    {
      name: 'extended resource capacity enforced',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [extA]: 10 } }),
      existing: { scalar: { [extA]: 0 } },
      want: { code: UU, reasons: [`Insufficient ${extA}`] },
      wantInsufficient: [insufficient(extA, 10, 0, 5, true)],
    },
    {
      name: 'extended resource capacity enforced for init container',
      pod: withInitContainers(resourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extA]: 10 } }),
      existing: { scalar: { [extA]: 0 } },
      want: { code: UU, reasons: [`Insufficient ${extA}`] },
      wantInsufficient: [insufficient(extA, 10, 0, 5, true)],
    },
    {
      name: 'extended resource allocatable enforced',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [extA]: 1 } }),
      existing: { scalar: { [extA]: 5 } },
      want: { code: U, reasons: [`Insufficient ${extA}`] },
      wantInsufficient: [insufficient(extA, 1, 5, 5)],
    },
    {
      name: 'extended resource allocatable enforced for init container',
      pod: withInitContainers(resourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extA]: 1 } }),
      existing: { scalar: { [extA]: 5 } },
      want: { code: U, reasons: [`Insufficient ${extA}`] },
      wantInsufficient: [insufficient(extA, 1, 5, 5)],
    },
    {
      name: 'extended resource allocatable enforced for multiple containers',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [extA]: 3 } }, { milliCPU: 1, memory: 1, scalar: { [extA]: 3 } }),
      existing: { scalar: { [extA]: 2 } },
      want: { code: UU, reasons: [`Insufficient ${extA}`] },
      wantInsufficient: [insufficient(extA, 6, 2, 5, true)],
    },
    {
      name: 'extended resource allocatable admits multiple init containers',
      pod: withInitContainers(resourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extA]: 3 } }, { milliCPU: 1, memory: 1, scalar: { [extA]: 3 } }),
      existing: { scalar: { [extA]: 2 } },
      want: null,
      wantInsufficient: [],
    },
    {
      name: 'extended resource allocatable enforced for multiple init containers',
      pod: withInitContainers(resourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extA]: 6 } }, { milliCPU: 1, memory: 1, scalar: { [extA]: 3 } }),
      existing: { scalar: { [extA]: 2 } },
      want: { code: UU, reasons: [`Insufficient ${extA}`] },
      wantInsufficient: [insufficient(extA, 6, 2, 5, true)],
    },
    {
      name: 'extended resource allocatable enforced for unknown resource',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [extB]: 1 } }),
      existing: {},
      want: { code: UU, reasons: [`Insufficient ${extB}`] },
      wantInsufficient: [insufficient(extB, 1, 0, 0, true)],
    },
    {
      name: 'extended resource allocatable enforced for unknown resource for init container',
      pod: withInitContainers(resourcePod({}), { milliCPU: 1, memory: 1, scalar: { [extB]: 1 } }),
      existing: {},
      want: { code: UU, reasons: [`Insufficient ${extB}`] },
      wantInsufficient: [insufficient(extB, 1, 0, 0, true)],
    },
    {
      name: 'kubernetes.io resource capacity enforced',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [k8sIOA]: 10 } }),
      existing: {},
      want: { code: UU, reasons: [`Insufficient ${k8sIOA}`] },
      wantInsufficient: [insufficient(k8sIOA, 10, 0, 0, true)],
    },
    {
      name: 'kubernetes.io resource capacity enforced for init container',
      pod: withInitContainers(resourcePod({}), { milliCPU: 1, memory: 1, scalar: { [k8sIOB]: 10 } }),
      existing: {},
      want: { code: UU, reasons: [`Insufficient ${k8sIOB}`] },
      wantInsufficient: [insufficient(k8sIOB, 10, 0, 0, true)],
    },
    {
      name: 'hugepages resource capacity enforced',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [hugeA]: 10 } }),
      existing: { scalar: { [hugeA]: 0 } },
      want: { code: UU, reasons: [`Insufficient ${hugeA}`] },
      wantInsufficient: [insufficient(hugeA, 10, 0, 5, true)],
    },
    {
      name: 'hugepages resource capacity enforced for init container',
      pod: withInitContainers(resourcePod({}), { milliCPU: 1, memory: 1, scalar: { [hugeA]: 10 } }),
      existing: { scalar: { [hugeA]: 0 } },
      want: { code: UU, reasons: [`Insufficient ${hugeA}`] },
      wantInsufficient: [insufficient(hugeA, 10, 0, 5, true)],
    },
    {
      name: 'hugepages resource allocatable enforced for multiple containers',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [hugeA]: 3 } }, { milliCPU: 1, memory: 1, scalar: { [hugeA]: 3 } }),
      existing: { scalar: { [hugeA]: 2 } },
      want: { code: UU, reasons: [`Insufficient ${hugeA}`] },
      wantInsufficient: [insufficient(hugeA, 6, 2, 5, true)],
    },
    {
      name: 'skip checking ignored extended resource',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [extB]: 1 } }),
      existing: {},
      args: { ignoredResources: [extB] },
      want: null,
      wantInsufficient: [],
    },
    {
      name: 'resources + pod overhead fits',
      pod: withOverhead(resourcePod({ milliCPU: 1, memory: 1 }), { cpu: '3m', memory: '13' }),
      existing: { milliCPU: 5, memory: 5 },
      want: null,
      wantInsufficient: [],
    },
    {
      name: 'requests + overhead does not fit for memory',
      pod: withOverhead(resourcePod({ milliCPU: 1, memory: 1 }), { cpu: '1m', memory: '15' }),
      existing: { milliCPU: 5, memory: 5 },
      want: { code: U, reasons: ['Insufficient memory'] },
      wantInsufficient: [insufficient('memory', 16, 5, 20)],
    },
    {
      name: 'skip checking ignored extended resource via resource groups',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [extB]: 1, [k8sIOA]: 1 } }),
      existing: {},
      args: { ignoredResourceGroups: ['example.com'] },
      want: { code: UU, reasons: [`Insufficient ${k8sIOA}`] },
      wantInsufficient: [insufficient(k8sIOA, 1, 0, 0, true)],
    },
    {
      name: 'skip checking extended resource request with quantity zero via resource groups',
      pod: resourcePod({ milliCPU: 1, memory: 1, scalar: { [extA]: 0 } }),
      existing: { scalar: { [extA]: 6 } },
      want: null,
      wantInsufficient: [],
    },
    {
      name: 'skip checking resource request with quantity zero',
      pod: resourcePod({ scalar: { [extA]: 1 } }),
      existing: { milliCPU: 20, memory: 30, scalar: { [extA]: 1 } },
      want: null,
      wantInsufficient: [],
    },
    {
      name: 'both pod-level and container-level resources fit',
      pod: withPodLevelRequests(resourcePod({ milliCPU: 1, memory: 1 }), { cpu: '1m', memory: '2' }),
      existing: { milliCPU: 5, memory: 5 },
      want: null,
      wantInsufficient: [],
    },
    {
      name: 'pod-level cpu resource not fit',
      pod: withPodLevelRequests(resourcePod({ milliCPU: 1, memory: 1 }), { cpu: '7m', memory: '2' }),
      existing: { milliCPU: 5, memory: 5 },
      want: { code: U, reasons: ['Insufficient cpu'] },
      wantInsufficient: [insufficient('cpu', 7, 5, 10)],
    },
    {
      name: 'pod-level memory resource not fit',
      pod: withPodLevelRequests(resourcePod({ milliCPU: 1, memory: 1 }), { cpu: '3m', memory: '2' }),
      existing: { milliCPU: 5, memory: 19 },
      want: { code: U, reasons: ['Insufficient memory'] },
      wantInsufficient: [insufficient('memory', 2, 19, 20)],
    },
    {
      name: 'one pod-level cpu resource fits and all init and non-init containers resources fit',
      pod: withInitContainers(withPodLevelRequests(resourcePod({ milliCPU: 1, memory: 1 }), { cpu: '3m', memory: '2' }), { milliCPU: 1, memory: 1 }),
      existing: { milliCPU: 5, memory: 19 },
      want: { code: U, reasons: ['Insufficient memory'] },
      wantInsufficient: [insufficient('memory', 2, 19, 20)],
    },
  ];
  for (const tc of cases) it(tc.name, () => runFilter(tc, node));
});

describe('NodeResourcesFit Filter: not enough pods', () => {
  const node = allocatable(10, 20, 1, 0, 0, 0);
  const tooMany = { code: U, reasons: ['Too many pods'] };
  const cases: FilterCase[] = [
    {
      name: "even without specified resources, predicate fails when there's no space for additional pod",
      pod: reqPod(),
      existing: { milliCPU: 10, memory: 20 },
      want: tooMany,
      wantInsufficient: [insufficient('pods', 1, 1, 1)],
    },
    {
      name: "even if both resources fit, predicate fails when there's no space for additional pod",
      pod: resourcePod({ milliCPU: 1, memory: 1 }),
      existing: { milliCPU: 5, memory: 5 },
      want: tooMany,
      wantInsufficient: [insufficient('pods', 1, 1, 1)],
    },
    {
      name: "even for equal edge case, predicate fails when there's no space for additional pod",
      pod: resourcePod({ milliCPU: 5, memory: 1 }),
      existing: { milliCPU: 5, memory: 19 },
      want: tooMany,
      wantInsufficient: [insufficient('pods', 1, 1, 1)],
    },
    {
      name: "even for equal edge case, predicate fails when there's no space for additional pod due to init container",
      pod: withInitContainers(resourcePod({ milliCPU: 5, memory: 1 }), { milliCPU: 5, memory: 1 }),
      existing: { milliCPU: 5, memory: 19 },
      want: tooMany,
      wantInsufficient: [insufficient('pods', 1, 1, 1)],
    },
  ];
  for (const tc of cases) it(tc.name, () => runFilter(tc, node));
});

describe('NodeResourcesFit Filter: shared rejections', () => {
  const plugin = new Fit(fitArgs());
  const verdict = (p: Pod, node: ResourceList, existing: Usage) => {
    const state = new CycleState();
    const pi = new PodInfo(p);
    plugin.preFilter(state, pi);
    return plugin.filter(state, pi, nodeInfoWith(node, existing));
  };
  const node = allocatable(10, 20, 32, 5, 20, 5);

  it('gives every node short of one resource the same status, per reason and code', () => {
    const cpu = verdict(resourcePod({ milliCPU: 8 }), node, { milliCPU: 5 });
    assert.equal(verdict(resourcePod({ milliCPU: 6 }), node, { milliCPU: 5 }), cpu);
    assert.equal(cpu?.plugin, plugin.name);
    const cpuUnresolvable = verdict(resourcePod({ milliCPU: 11 }), node, { milliCPU: 0 });
    assert.notEqual(cpuUnresolvable, cpu);
    assert.equal(cpuUnresolvable?.code, Code.UnschedulableAndUnresolvable);
    assert.deepEqual(cpuUnresolvable?.reasons, ['Insufficient cpu']);
    const memory = verdict(resourcePod({ memory: 18 }), node, { memory: 5 });
    assert.deepEqual([memory?.code, memory?.reasons], [Code.Unschedulable, ['Insufficient memory']]);
  });

  it('keeps one pod\'s scalar statuses apart by code across the nodes it walks', () => {
    const state = new CycleState();
    const pi = new PodInfo(resourcePod({ scalar: { [extA]: 3 } }));
    plugin.preFilter(state, pi);
    const onNode = (list: ResourceList, existing: Usage) => plugin.filter(state, pi, nodeInfoWith({ pods: '32', ...list }, existing));
    const busy = onNode({ [extA]: '5' }, { scalar: { [extA]: 4 } });
    const small = onNode({ [extA]: '2' }, {});
    const without = onNode({}, {});
    assert.deepEqual([busy?.code, busy?.reasons], [Code.Unschedulable, [`Insufficient ${extA}`]]);
    assert.deepEqual([small?.code, small?.reasons], [Code.UnschedulableAndUnresolvable, [`Insufficient ${extA}`]]);
    assert.equal(without, small, 'short of it past allocatable on both: the shared status');
    assert.equal(onNode({ [extA]: '5' }, { scalar: { [extA]: 3 } }), busy);
    assert.equal(onNode({ [extA]: '5' }, { scalar: { [extA]: 2 } }), null);
    // Another pod short of the same resource gets the same shared status.
    assert.equal(verdict(resourcePod({ scalar: { [extA]: 9 } }), { pods: '32', [extA]: '5' }, { scalar: { [extA]: 1 } }), small);
  });

  it('builds a status of its own when several resources are short', () => {
    const a = verdict(resourcePod({ milliCPU: 8, memory: 18 }), node, { milliCPU: 5, memory: 5 });
    const b = verdict(resourcePod({ milliCPU: 8, memory: 18 }), node, { milliCPU: 5, memory: 5 });
    assert.notEqual(a, b);
    assert.deepEqual(a?.reasons, ['Insufficient cpu', 'Insufficient memory']);
  });
});

describe('NodeResourcesFit Filter: storage requests', () => {
  const node = allocatable(10, 20, 32, 5, 20, 5);
  const cases: FilterCase[] = [
    { name: 'empty storage requested, and pod fits', pod: resourcePod({ milliCPU: 1, memory: 1 }), existing: { milliCPU: 2, memory: 10 }, want: null, wantInsufficient: [] },
    {
      name: 'storage ephemeral local storage request exceeds allocatable',
      pod: resourcePod({ ephemeralStorage: 25 }),
      existing: { milliCPU: 2, memory: 2 },
      want: { code: UU, reasons: ['Insufficient ephemeral-storage'] },
      wantInsufficient: [insufficient('ephemeral-storage', 25, 0, 20, true)],
    },
    {
      name: 'ephemeral local storage is sufficient',
      pod: resourcePod({ ephemeralStorage: 5 }),
      existing: { milliCPU: 2, memory: 2, ephemeralStorage: 10 },
      want: null,
      wantInsufficient: [],
    },
    { name: 'pod fits', pod: resourcePod({ ephemeralStorage: 10 }), existing: { milliCPU: 2, memory: 2 }, want: null, wantInsufficient: [] },
  ];
  for (const tc of cases) it(tc.name, () => runFilter(tc, node));
});

describe('NodeResourcesFit Filter without PreFilter', () => {
  it('reports an error naming the missing state', () => {
    const plugin = new Fit(fitArgs());
    const status = plugin.filter(new CycleState(), new PodInfo(reqPod()), new NodeInfo({ metadata: { name: 'n' } }));
    assert.ok(status);
    assert.equal(status.code, Code.Error);
    assert.equal(status.message(), 'error reading "PreFilterNodeResourcesFit" from cycleState: not found');
  });
});

describe('NodeResourcesFit Score per strategy', () => {
  const nodes = [capacityNode('node1', { cpu: '4000', memory: '10000' }), capacityNode('node2', { cpu: '6000', memory: '10000' })];
  const existing = [
    reqPod({ node: 'node1' }, { cpu: '2000', memory: '4000' }),
    reqPod({ node: 'node2' }, { cpu: '1000', memory: '2000' }),
  ];
  const rtcr = (shape: { utilization: number; score: number }[]): ScoringStrategy => ({
    type: RequestedToCapacityRatio,
    resources: defaultResources,
    requestedToCapacityRatio: { shape },
  });
  const cases: { name: string; pod: Pod; strategy: ScoringStrategy; want: number[] }[] = [
    {
      name: 'RequestedToCapacityRatio case1',
      pod: reqPod({}, { cpu: '3000', memory: '5000' }),
      strategy: rtcr([{ utilization: 0, score: 10 }, { utilization: 100, score: 0 }]),
      want: [10, 32],
    },
    {
      name: 'RequestedToCapacityRatio case2',
      pod: reqPod({}, { cpu: '3000', memory: '5000' }),
      strategy: rtcr([{ utilization: 0, score: 0 }, { utilization: 100, score: 10 }]),
      want: [95, 68],
    },
    { name: 'MostAllocated', pod: reqPod({}, { cpu: '1000', memory: '2000' }), strategy: { type: MostAllocated, resources: defaultResources }, want: [67, 36] },
    { name: 'LeastAllocated', pod: reqPod({}, { cpu: '1000', memory: '2000' }), strategy: { type: LeastAllocated, resources: defaultResources }, want: [32, 63] },
  ];
  for (const tc of cases) {
    for (const runPreScore of [true, false]) {
      it(`${tc.name}${runPreScore ? '' : ' if PreScore is not called'}`, () => {
        const got = runScore(new Fit(fitArgs({ scoringStrategy: tc.strategy })), tc.pod, nodes, existing, runPreScore);
        assert.deepEqual(got.errors, [null, null]);
        assert.deepEqual(got.scores, tc.want);
      });
    }
  }

  it('rejects an unknown strategy at construction', () => {
    assert.throws(() => new Fit(fitArgs({ scoringStrategy: { type: 'Random', resources: defaultResources } })), /scoring strategy Random is not supported/);
  });
});

describe('NodeResourcesFit events to register', () => {
  const cases: { name: string; features: FitFeatures; pod: number; node: number }[] = [
    {
      name: 'defaults (in-place resize and queueing hints on)',
      features: { enableInPlacePodVerticalScaling: true, enableSchedulingQueueHint: true },
      pod: ActionType.Delete | ActionType.UpdatePodScaleDown,
      node: ActionType.Add | ActionType.UpdateNodeAllocatable,
    },
    {
      name: 'in-place resize on, queueing hints off',
      features: { enableInPlacePodVerticalScaling: true, enableSchedulingQueueHint: false },
      pod: ActionType.Delete | ActionType.UpdatePodScaleDown,
      node: ActionType.Add | ActionType.UpdateNodeAllocatable | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel,
    },
    {
      name: 'queueing hints on, in-place resize off',
      features: { enableInPlacePodVerticalScaling: false, enableSchedulingQueueHint: true },
      pod: ActionType.Delete,
      node: ActionType.Add | ActionType.UpdateNodeAllocatable,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const events = new Fit(fitArgs(), tc.features).eventsToRegister();
      assert.deepEqual(
        events.map((e) => e.event),
        [
          { resource: 'Pod', actionType: tc.pod },
          { resource: 'Node', actionType: tc.node },
        ],
      );
      for (const e of events) assert.equal(typeof e.queueingHintFn, 'function');
    });
  }
});

function podWith(name: string, o: { uid?: string; node?: string; requests?: ResourceList; podLevel?: ResourceList; labels?: Record<string, string> }): Pod {
  const p = reqPod({ name, uid: o.uid ?? name, ...(o.node ? { node: o.node } : {}) }, ...(o.requests ? [o.requests] : []));
  if (o.podLevel) withPodLevelRequests(p, o.podLevel);
  if (o.labels) p.metadata.labels = o.labels;
  return p;
}

describe('NodeResourcesFit queueing hint for pod events', () => {
  const cases: { name: string; pod: Pod; oldObj?: unknown; newObj?: unknown; inPlace?: boolean; want: QueueingHint }[] = [
    { name: 'backoff-wrong-old-object', pod: reqPod(), oldObj: 'not-a-pod', want: QueueingHint.Queue },
    { name: 'backoff-wrong-new-object', pod: reqPod(), newObj: 'not-a-pod', want: QueueingHint.Queue },
    {
      name: 'queue-on-other-pod-deleted',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      oldObj: podWith('pod2', { requests: { cpu: '1' }, node: 'fake' }),
      want: QueueingHint.Queue,
    },
    { name: 'skip-queue-on-unscheduled-pod-deleted', pod: reqPod(), oldObj: reqPod(), want: QueueingHint.QueueSkip },
    {
      name: 'queue-on-nominated-pod-deleted',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      oldObj: { ...podWith('pod2', { requests: { cpu: '1' } }), status: { nominatedNodeName: 'fake' } },
      want: QueueingHint.Queue,
    },
    {
      name: 'skip-queue-on-disable-inplace-pod-vertical-scaling',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      oldObj: podWith('pod2', { requests: { cpu: '2' }, node: 'fake' }),
      newObj: podWith('pod2', { requests: { cpu: '1' }, node: 'fake' }),
      inPlace: false,
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'skip-queue-on-other-unscheduled-pod',
      pod: podWith('pod1', { uid: 'uid0', requests: { cpu: '1' } }),
      oldObj: podWith('pod2', { uid: 'uid1', requests: { cpu: '2' } }),
      newObj: podWith('pod2', { uid: 'uid1', requests: { cpu: '1' } }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'skip-queue-on-other-pod-unrelated-resource-scaled-down',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      oldObj: podWith('pod2', { requests: { memory: '2' }, node: 'fake' }),
      newObj: podWith('pod2', { requests: { memory: '1' }, node: 'fake' }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'skip-queue-on-other-pod-unrelated-pod-level-resource-scaled-down',
      pod: podWith('pod1', { podLevel: { cpu: '1' } }),
      oldObj: podWith('pod2', { podLevel: { memory: '2' }, node: 'fake' }),
      newObj: podWith('pod2', { podLevel: { memory: '1' }, node: 'fake' }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'skip-queue-on-other-pod-non-resource-changes',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      oldObj: podWith('pod2', { requests: { cpu: '1' }, node: 'fake', labels: { k: 'v' } }),
      newObj: podWith('pod2', { requests: { cpu: '1' }, node: 'fake', labels: { foo: 'bar' } }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'skip-queue-on-other-pod-resource-scale-up',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      oldObj: podWith('pod2', { requests: { cpu: '1' }, node: 'fake' }),
      newObj: podWith('pod2', { requests: { cpu: '2' }, node: 'fake' }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'queue-on-other-pod-some-resource-scale-down',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      oldObj: podWith('pod2', { requests: { cpu: '2' }, node: 'fake' }),
      newObj: podWith('pod2', { requests: { cpu: '1' }, node: 'fake' }),
      want: QueueingHint.Queue,
    },
    {
      name: 'queue-on-other-pod-some-pod-level-resource-scale-down',
      pod: podWith('pod1', { podLevel: { cpu: '1' } }),
      oldObj: podWith('pod2', { podLevel: { cpu: '2' }, node: 'fake' }),
      newObj: podWith('pod2', { podLevel: { cpu: '1' }, node: 'fake' }),
      want: QueueingHint.Queue,
    },
    {
      name: 'queue-on-target-pod-some-resource-scale-down',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      oldObj: podWith('pod1', { requests: { cpu: '2' } }),
      newObj: podWith('pod1', { requests: { cpu: '1' } }),
      want: QueueingHint.Queue,
    },
    {
      name: 'queue-on-other-pod-scale-down-seen-in-status-resources',
      pod: podWith('pod1', { requests: { cpu: '1' } }),
      // The spec already asks for less; the kubelet's status still reports the larger amount until
      // the resize is done, so the freed cpu only shows when the status drops.
      oldObj: {
        ...podWith('pod2', { requests: { cpu: '1' }, node: 'fake' }),
        status: { containerStatuses: [{ name: 'c0', image: 'pause', imageID: '', ready: true, restartCount: 0, resources: { requests: { cpu: '2' } } }] },
      },
      newObj: {
        ...podWith('pod2', { requests: { cpu: '1' }, node: 'fake' }),
        status: { containerStatuses: [{ name: 'c0', image: 'pause', imageID: '', ready: true, restartCount: 0, resources: { requests: { cpu: '1' } } }] },
      },
      want: QueueingHint.Queue,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const plugin = new Fit(fitArgs(), { enableInPlacePodVerticalScaling: tc.inPlace ?? true, enableSchedulingQueueHint: true });
      assert.equal(plugin.isSchedulableAfterPodEvent(tc.pod, tc.oldObj, tc.newObj), tc.want);
    });
  }
});

describe('NodeResourcesFit queueing hint for node events', () => {
  const cases: { name: string; pod: Pod; oldObj?: unknown; newObj?: unknown; want: QueueingHint }[] = [
    { name: 'backoff-wrong-new-object', pod: reqPod(), newObj: 'not-a-node', want: QueueingHint.Queue },
    { name: 'backoff-wrong-old-object', pod: reqPod(), oldObj: 'not-a-node', newObj: capacityNode('n'), want: QueueingHint.Queue },
    {
      name: 'skip-queue-on-node-add-without-sufficient-resources',
      pod: resourcePod({ memory: 2 }),
      newObj: capacityNode('n', { memory: '1' }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'skip-queue-on-node-add-without-required-resource-type',
      pod: resourcePod({ scalar: { [extA]: 1 } }),
      newObj: capacityNode('n', { [extB]: '1' }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'queue-on-node-add-with-sufficient-resources',
      pod: resourcePod({ memory: 2, scalar: { [extA]: 1 } }),
      newObj: capacityNode('n', { memory: '4', [extA]: '2' }),
      want: QueueingHint.Queue,
    },
    {
      name: 'skip-queue-on-node-unrelated-changes',
      pod: resourcePod({ memory: 2, scalar: { [extA]: 1 } }),
      oldObj: capacityNode('n', { memory: '2', [extA]: '2' }),
      newObj: capacityNode('n', { memory: '2', [extA]: '1', [extB]: '2' }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'queue-on-pod-requested-resources-increase',
      pod: resourcePod({ memory: 2, scalar: { [extA]: 1 } }),
      oldObj: capacityNode('n', { memory: '2', [extA]: '1' }),
      newObj: capacityNode('n', { memory: '2', [extA]: '2' }),
      want: QueueingHint.Queue,
    },
    {
      name: 'skip-queue-on-node-changes-from-suitable-to-unsuitable',
      pod: resourcePod({ memory: 2, scalar: { [extA]: 1 } }),
      oldObj: capacityNode('n', { memory: '4', [extA]: '2' }),
      newObj: capacityNode('n', { memory: '1', [extA]: '2' }),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'queue-on-node-changes-from-unsuitable-to-suitable',
      pod: resourcePod({ memory: 2, scalar: { [extA]: 1 } }),
      oldObj: capacityNode('n', { memory: '1', [extA]: '2' }),
      newObj: capacityNode('n', { memory: '4', [extA]: '2' }),
      want: QueueingHint.Queue,
    },
    {
      name: 'queue-on-more-pod-slots',
      pod: reqPod(),
      oldObj: capacityNode('n', { pods: '0' }),
      newObj: capacityNode('n', { pods: '1' }),
      want: QueueingHint.Queue,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      assert.equal(new Fit(fitArgs()).isSchedulableAfterNodeChange(tc.pod, tc.oldObj, tc.newObj), tc.want);
    });
  }
});

describe('fitsRequest (shared with preemption)', () => {
  const cases: { name: string; request: ResourceList; node: ResourceList; want: InsufficientResource[] }[] = [
    { name: 'insufficient resource', request: { cpu: '2' }, node: { cpu: '1', pods: '32' }, want: [insufficient('cpu', 2000, 0, 1000, true)] },
    { name: 'sufficient resource', request: { cpu: '1' }, node: { cpu: '2', pods: '32' }, want: [] },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const pod = new PodInfo(reqPod({}, tc.request));
      assert.deepEqual(fitsRequest(pod.requests.resource, nodeInfoWith(tc.node)), tc.want);
    });
  }
});
