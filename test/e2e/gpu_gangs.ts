// The done-when's GPU-gang scenario (issue #26): gangs of GPU workers constrained to racks
// (GenericWorkload + TopologyAwareWorkloadScheduling), on nodes sized so that every decision is
// unique: no two nodes score alike for any worker, and of two racks that both hold a gang the
// placement scores differ (NodeResourcesFit's MostAllocated over the rack). The same objects go
// to `simulate`, to `simulate --serve` and to a real kube-apiserver, gang after gang (every_mode.ts).

import { makeNode } from '../../src/testing/builders.js';
import type { GroupScenario } from './every_mode.js';

type Obj = Record<string, unknown>;

export const rackKey = 'topology.example.com/rack';
const gpu = 'nvidia.com/gpu';

// cpu:memory is 1:4 on every node and in every pod, so NodeResourcesBalancedAllocation scores all
// nodes alike and LeastAllocated alone orders them.
export const gpuNode = (name: string, rack: string, cpu: number, labels: Record<string, string> = {}): Obj => ({
  ...makeNode(name, { labels: { ...labels, [rackKey]: rack }, allocatable: { cpu: String(cpu), memory: `${cpu * 4}Gi`, pods: '110', [gpu]: '8' } }),
});

/** rack-a: 16 GPUs on two nodes; rack-b: 24 on three; one CPU node on no rack. */
const nodes: Obj[] = [
  gpuNode('gpu-a1', 'rack-a', 64),
  gpuNode('gpu-a2', 'rack-a', 48),
  gpuNode('gpu-b1', 'rack-b', 96),
  gpuNode('gpu-b2', 'rack-b', 80),
  gpuNode('gpu-b3', 'rack-b', 32),
  { ...makeNode('cpu-1', { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } }) },
];

export const container = (cpu: number, gpus: number): Obj => {
  const requests: Record<string, string> = { cpu: String(cpu), memory: `${cpu * 4}Gi` };
  const resources: Obj = { requests };
  if (gpus > 0) {
    requests[gpu] = String(gpus);
    resources.limits = { [gpu]: String(gpus) };
  }
  return { name: 'worker', image: 'registry.example/trainer:1', resources };
};

/** A running pod of `cpu` cores (and four times as many GiB), bound to `node`. */
export const loadPod = (name: string, node: string, cpu: number, schedulerName: string): Obj => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { schedulerName, nodeName: node, containers: [container(cpu, 0)] },
});

/** Running pods (bound): some load on one node of each rack. */
const load = (schedulerName: string): Obj[] => [loadPod('etl-0', 'gpu-b1', 8, schedulerName), loadPod('etl-1', 'gpu-a1', 4, schedulerName)];

interface Gang {
  readonly name: string;
  readonly workers: number;
  readonly gpus: number;
  readonly cpu: number;
}

/**
 * In order: train-llm fits both racks and packs rack-a (the fuller placement); train-vision then
 * fits rack-b only, one whole node per worker; finetune finds no GPUs left and waits.
 */
const gangs: readonly Gang[] = [
  { name: 'train-llm', workers: 4, gpus: 4, cpu: 8 },
  { name: 'train-vision', workers: 3, gpus: 8, cpu: 16 },
  { name: 'finetune', workers: 2, gpus: 8, cpu: 8 },
];

/** The placements every mode must give (pod -> node, '' for not scheduled). */
const expected: Readonly<Record<string, string>> = {
  // rack-a scores 32 (cpu 36+32 of 112, memory alike) against rack-b's 20.
  // gpu-a2 (83) before gpu-a1 (81); then a1 81 > a2 66; a1 68 > a2 66; a1 is out of GPUs.
  'train-llm-0': 'gpu-a2',
  'train-llm-1': 'gpu-a1',
  'train-llm-2': 'gpu-a1',
  'train-llm-3': 'gpu-a2',
  // rack-b: gpu-b2 (80), gpu-b1 (75), gpu-b3 (50).
  'train-vision-0': 'gpu-b2',
  'train-vision-1': 'gpu-b1',
  'train-vision-2': 'gpu-b3',
  'finetune-0': '',
  'finetune-1': '',
};

function podGroup(g: Gang): Obj {
  return {
    apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: g.name, namespace: 'default' },
    spec: { schedulingPolicy: { gang: { minCount: g.workers } }, schedulingConstraints: { topology: [{ key: rackKey }] } },
  };
}

function members(g: Gang, schedulerName: string): Obj[] {
  return Array.from({ length: g.workers }, (_, i) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: `${g.name}-${i}`, namespace: 'default', labels: { job: g.name } },
    spec: { schedulerName, schedulingGroup: { podGroupName: g.name }, containers: [container(g.cpu, g.gpus)] },
  }));
}

export const gpuGangs: GroupScenario = {
  title: 'GPU gangs on racks',
  gates: 'GenericWorkload=true,TopologyAwareWorkloadScheduling=true',
  runtimeConfig: 'scheduling.k8s.io/v1beta1=true',
  nodes,
  load,
  shared: [],
  jobs: gangs.map((g) => ({ groups: [podGroup(g)], members: (schedulerName: string) => members(g, schedulerName) })),
  expected,
};
