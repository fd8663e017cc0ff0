// Workloads of our own (no upstream scheduler_perf counterpart), built from upstream's templates
// (dra_templates.ts, templates.ts): a GPU cluster as capacity planners model it, with DRA and
// with a device plugin. They carry the
// label `kube-scheduler-ts` and a source that names them as ours, never an upstream file.
import type { TestCase } from './types.js';

/** The source every test case of ours names. */
export const ownSource = 'kube-scheduler-ts (ours)';

export const ownTestCases: readonly TestCase[] = [
  {
    // Nodes with 8 GPUs each (the test driver's basic devices), one claim per pod from a template,
    // pods created at once: the shape of a training cluster filling up.
    name: 'GPUClusterClaimTemplate',
    source: ownSource,
    workloadTemplate: [
      { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', countParam: '$nodesWithDRA' },
      { opcode: 'createAny', templatePath: 'dra/resourceslice-basic-devices.yaml', countParam: '$nodesWithDRA', templateParams: { numDevices: '$devicesPerNode' } },
      { opcode: 'createAny', templatePath: 'dra/deviceclass.yaml' },
      { opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate.yaml', namespace: 'test', templateParams: { numRequests: 1 } },
      { opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'dra/pod-with-claim-template.yaml', collectMetrics: true },
    ],
    workloads: [
      { name: 'fast', labels: ['kube-scheduler-ts', 'integration-test'], params: { nodesWithDRA: 4, devicesPerNode: 8, measurePods: 20 } },
      // A smaller cluster of the same shape, small enough for upstream's scheduler_perf (bench:upstream).
      { name: '1000nodes_8devices_2000pods', labels: ['kube-scheduler-ts'], params: { nodesWithDRA: 1000, devicesPerNode: 8, measurePods: 2000 } },
      { name: '5000nodes_8devices_10000pods', labels: ['kube-scheduler-ts'], target: 2000, params: { nodesWithDRA: 5000, devicesPerNode: 8, measurePods: 10000 } },
    ],
  },
  {
    // The same cluster as most run it today: 8 GPUs per node from a device plugin (an extended
    // resource in allocatable), 90% taken by one-GPU pods, then more of them: as it fills, each
    // pod walks past more full nodes ("Insufficient nvidia.com/gpu").
    name: 'GPUClusterDevicePlugin',
    source: ownSource,
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'ours/node-with-8-gpus.yaml' },
      { opcode: 'createPods', namespace: 'init', countParam: '$initPods', podTemplatePath: 'ours/pod-with-one-gpu.yaml' },
      { opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'ours/pod-with-one-gpu.yaml', collectMetrics: true },
    ],
    workloads: [
      { name: 'fast', labels: ['kube-scheduler-ts', 'integration-test'], params: { initNodes: 4, initPods: 28, measurePods: 4 } },
      // Small enough for upstream's scheduler_perf to fill in seconds (bench:upstream).
      { name: '1000nodes_8gpus_6000initPods_2000pods', labels: ['kube-scheduler-ts'], params: { initNodes: 1000, initPods: 6000, measurePods: 2000 } },
      { name: '5000nodes_8gpus_36000initPods_3000pods', labels: ['kube-scheduler-ts'], params: { initNodes: 5000, initPods: 36000, measurePods: 3000 } },
    ],
  },
];
