// GPU training jobs as CompositePodGroup trees (issue #26's done-when, for composites): each job is
// a composite constrained to one superpod over gangs constrained to one rack each, or a job over
// such a superpod composite. The nodes (gpu_gangs.ts's, 8 GPUs each, cpu:memory 1:4) are sized so
// that every decision is unique: one superpod is feasible for each tree, the two racks a gang can
// take score differently (NodeResourcesFit's MostAllocated over the rack), and no two nodes score
// alike for any worker (LeastAllocated).
import { makeNode } from '../../src/testing/builders.js';
import type { GroupScenario, Job } from './every_mode.js';
import { container, gpuNode, loadPod, rackKey } from './gpu_gangs.js';

type Obj = Record<string, unknown>;

const superpodKey = 'topology.example.com/superpod';
const sp = (name: string) => ({ [superpodKey]: name });

/** sp-1: rack-a (64 + 48 cores), rack-b (96 + 32); sp-2: rack-c (64 + 32), rack-d (80); a CPU node on neither. */
const nodes: Obj[] = [
  gpuNode('gpu-a1', 'rack-a', 64, sp('sp-1')),
  gpuNode('gpu-a2', 'rack-a', 48, sp('sp-1')),
  gpuNode('gpu-b1', 'rack-b', 96, sp('sp-1')),
  gpuNode('gpu-b2', 'rack-b', 32, sp('sp-1')),
  gpuNode('gpu-c1', 'rack-c', 64, sp('sp-2')),
  gpuNode('gpu-c2', 'rack-c', 32, sp('sp-2')),
  gpuNode('gpu-d1', 'rack-d', 80, sp('sp-2')),
  { ...makeNode('cpu-1', { allocatable: { cpu: '16', memory: '64Gi', pods: '110' } }) },
];

const load = (schedulerName: string): Obj[] => [loadPod('etl-0', 'gpu-a1', 4, schedulerName)];

const v1alpha3 = 'scheduling.k8s.io/v1alpha3';
const v1beta1 = 'scheduling.k8s.io/v1beta1';
const workload = 'training';
const ref = (templateName: string) => ({ workloadName: workload, templateName });

/** The Workload the trees refer to: a job over rack gangs, and a job over a superpod over rack gangs. */
const trainingWorkload: Obj = {
  apiVersion: v1beta1, kind: 'Workload', metadata: { name: workload, namespace: 'default' },
  spec: {
    compositePodGroupTemplates: [
      { name: 'job', schedulingPolicy: { gang: { minGroupCount: 2 } }, schedulingConstraints: { topology: [{ key: superpodKey }] }, podGroupTemplates: [{ name: 'rack', schedulingPolicy: { gang: { minCount: 2 } } }] },
      {
        name: 'nested-job', schedulingPolicy: { gang: { minGroupCount: 1 } },
        compositePodGroupTemplates: [{ name: 'superpod', schedulingPolicy: { gang: { minGroupCount: 2 } }, podGroupTemplates: [{ name: 'superpod-rack', schedulingPolicy: { gang: { minCount: 1 } } }] }],
      },
    ],
  },
};

const composite = (name: string, template: string, minGroupCount: number, superpod: boolean, parent?: string): Obj => ({
  apiVersion: v1alpha3, kind: 'CompositePodGroup', metadata: { name, namespace: 'default' },
  spec: {
    workloadRef: ref(template), schedulingPolicy: { gang: { minGroupCount } },
    ...(superpod ? { schedulingConstraints: { topology: [{ key: superpodKey }] } } : {}),
    ...(parent !== undefined ? { parentCompositePodGroupName: parent } : {}),
  },
});

/** A gang of `workers` on one rack, under `parent`. */
interface RackGang {
  readonly name: string;
  readonly template: string;
  readonly parent: string;
  readonly workers: number;
  readonly cpu: number;
}

const rackGroup = (g: RackGang): Obj => ({
  apiVersion: v1beta1, kind: 'PodGroup', metadata: { name: g.name, namespace: 'default' },
  spec: {
    workloadRef: ref(g.template), parentCompositePodGroupName: g.parent,
    schedulingPolicy: { gang: { minCount: g.workers } }, schedulingConstraints: { topology: [{ key: rackKey }] },
  },
});

/** Every worker takes a whole node's 8 GPUs. */
const workers = (g: RackGang, schedulerName: string): Obj[] => Array.from({ length: g.workers }, (_, i) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: `${g.name}-${i}`, namespace: 'default', labels: { job: g.parent } },
  spec: { schedulerName, schedulingGroup: { podGroupName: g.name }, containers: [container(g.cpu, 8)] },
}));

const job = (composites: Obj[], gangs: RackGang[]): Job => ({
  groups: [...composites, ...gangs.map(rackGroup)],
  members: (schedulerName) => gangs.flatMap((g) => workers(g, schedulerName)),
});

const llm = [0, 1].map((i): RackGang => ({ name: `llm-${i}`, template: 'rack', parent: 'llm', workers: 2, cpu: 16 }));
const vision = [0, 1].map((i): RackGang => ({ name: `vision-pod-${i}`, template: 'superpod-rack', parent: 'vision-pod', workers: 1, cpu: 16 }));
const finetune: RackGang = { name: 'finetune-0', template: 'rack', parent: 'finetune', workers: 2, cpu: 8 };

/**
 * In order: `llm` (two gangs of two workers, each on a rack of one superpod) fits sp-1 only (sp-2
 * has one rack of two nodes); `vision` (a job over a superpod composite over two one-worker gangs)
 * then fits sp-2 only; `finetune` (one gang of two) finds one GPU node left and waits.
 */
const jobs: readonly Job[] = [
  job([composite('llm', 'job', 2, true)], llm),
  job([composite('vision', 'nested-job', 1, false), composite('vision-pod', 'superpod', 2, true, 'vision')], vision),
  job([composite('finetune', 'job', 1, true)], [finetune]),
];

const expected: Readonly<Record<string, string>> = {
  // llm-0: rack-a (cpu 4+32 of 112: 32) over rack-b (32 of 128: 25); gpu-a1 (68) before gpu-a2
  // (66), then a1 is out of GPUs. llm-1: rack-b, the only one left: gpu-b1 (83), then gpu-b2.
  'llm-0-0': 'gpu-a1',
  'llm-0-1': 'gpu-a2',
  'llm-1-0': 'gpu-b1',
  'llm-1-1': 'gpu-b2',
  // vision-pod-0: rack-d (16 of 80: 20) over rack-c (16 of 96: 16); vision-pod-1: rack-c, gpu-c1 (75) over gpu-c2 (50).
  'vision-pod-0-0': 'gpu-d1',
  'vision-pod-1-0': 'gpu-c1',
  'finetune-0-0': '',
  'finetune-0-1': '',
};

export const compositeGangs: GroupScenario = {
  title: 'GPU training jobs as composite trees',
  gates: 'GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true',
  runtimeConfig: 'scheduling.k8s.io/v1alpha3=true,scheduling.k8s.io/v1beta1=true',
  nodes,
  load,
  shared: [trainingWorkload],
  jobs,
  expected,
};
