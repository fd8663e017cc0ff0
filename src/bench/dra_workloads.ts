// Upstream's DRA scheduler_perf test cases as data (test/integration/scheduler_perf/dra/performance-config.yaml
// of the pinned release): the same ops, templates (dra_templates.ts), parameters, labels and
// thresholds (upstream's `dra` topic); draSkipped names the DRA cases we cannot run yet.
import type { Op, SkippedTestCase, TestCase, WorkloadParam } from './types.js';
import { upstreamWorkloads as upstream } from './upstream_workloads.js';

/** createNodes without and with the test driver, its slices, the class. */
function draCluster(devicesPerNode: WorkloadParam, pciRoots?: `$${string}`): Op[] {
  return [
    { opcode: 'createNodes', countParam: '$nodesWithoutDRA' },
    { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', countParam: '$nodesWithDRA' },
    {
      opcode: 'createAny', templatePath: 'dra/resourceslice-basic-devices.yaml', countParam: '$nodesWithDRA',
      templateParams: { ...(pciRoots ? { numPCIRoots: pciRoots } : {}), numDevices: devicesPerNode },
    },
    { opcode: 'createAny', templatePath: 'dra/deviceclass.yaml' },
  ];
}

/**
 * The partitionable cases: per node a slice of counter sets and one of devices consuming them
 * (dra/resourceslice-<slices>-countersets.yaml, -devices.yaml), pre-allocated claims, measured pods.
 */
function partitionableTemplate(slices: string, initClaim: string, claimTemplate: string, devices = slices): Op[] {
  return [
    { opcode: 'createNodes', countParam: '$nodesWithoutDRA' },
    { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', countParam: '$nodesWithDRA' },
    { opcode: 'createAny', templatePath: `dra/resourceslice-${slices}-countersets.yaml`, countParam: '$nodesWithDRA' },
    { opcode: 'createAny', templatePath: `dra/resourceslice-${devices}-devices.yaml`, countParam: '$nodesWithDRA' },
    { opcode: 'createAny', templatePath: 'dra/deviceclass.yaml' },
    { opcode: 'createAny', templatePath: `dra/${initClaim}`, namespace: 'init', countParam: '$initClaims' },
    { opcode: 'allocResourceClaims', namespace: 'init' },
    { opcode: 'createAny', templatePath: `dra/${claimTemplate}`, namespace: 'test' },
    {
      opcode: 'createPods', namespace: 'test', countParam: '$measurePods', steadyStateParam: '$steadyState', durationParam: '$duration',
      podTemplatePath: 'dra/pod-with-claim-template.yaml', collectMetrics: true,
    },
  ];
}

/** The SharedPodGroupResourceClaim cases' cluster: nodes, one single-device slice per group every DRA node sees, the class. */
const podGroupDraCluster: readonly Op[] = [
  { opcode: 'createNodes', countParam: '$nodesWithoutDRA' },
  { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', countParam: '$nodesWithDRA' },
  { opcode: 'createAny', templatePath: 'dra/resourceslice-podgroup.yaml', countParam: '$podGroups' },
  { opcode: 'createAny', templatePath: 'dra/deviceclass.yaml' },
];

export const draTestCases: readonly TestCase[] = [
  {
    // No pod: the window covers only the scheduler taking in one slice per node as a driver
    // publishes them (its event handlers, the DRA manager's slice index); the figures are the
    // window's wall and CPU time.
    ...upstream('PublishResourceSlices'),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$nodesWithoutDRA' },
      { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', countParam: '$nodesWithDRA' },
      { opcode: 'startCollectingMetrics', namespaces: ['default'] },
      { opcode: 'createAny', templatePath: 'dra/resourceslice-basic-devices.yaml', countParam: '$nodesWithDRA' },
      { opcode: 'stopCollectingMetrics' },
    ],
  },
  {
    // Each pod gets its own claim from a template; 10 devices per node, one per pod. The cluster
    // starts empty, half or nearly full (claims allocated directly), then pods come at once
    // (burst) or are replaced as they are bound for 10 s (steady state).
    // Upstream's empty_100nodes and empty_200nodes leave measurePods out (no CI runs them); 10 as the other steady ones.
    ...upstream('SchedulingWithResourceClaimTemplate', {
      defaults: ['5000pods_500nodes', 'empty_500nodes'],
      addParams: { empty_100nodes: { measurePods: 10 }, empty_200nodes: { measurePods: 10 } },
    }),
    workloadTemplate: [
      ...draCluster(10, '$numPCIRoots|2'),
      { opcode: 'createAny', templatePath: 'dra/resourceclaim.yaml', countParam: '$initClaims', namespace: 'init' },
      { opcode: 'allocResourceClaims', namespace: 'init' },
      {
        opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate.yaml', namespace: 'test',
        templateParams: { numRequests: '$numRequests|1', selectors: '$selectors|', constraints: '$constraints|' },
      },
      {
        opcode: 'createPods', namespace: 'test', countParam: '$measurePods', steadyStateParam: '$steadyState', durationParam: '$duration',
        podTemplatePath: 'dra/pod-with-claim-template.yaml', collectMetrics: true,
      },
    ],
  },
  {
    // SchedulingWithResourceClaimTemplate with list-valued attributes (DRAListTypeAttributes): 64
    // devices per node, each claim asks for 32 under one matchAttribute; the first 32 devices
    // share no value with the others, so every claim searches through them first.
    ...upstream('SchedulingWithResourceClaimTemplateListAttributes'),
    workloadTemplate: [
      { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', countParam: '$nodesWithDRA' },
      {
        opcode: 'createAny', templatePath: 'dra/resourceslice-list-attributes-devices.yaml', countParam: '$nodesWithDRA',
        templateParams: { numDevices: '$numDevices|64', numNonMatchingDevices: '$numNonMatchingDevices|32', numListValues: '$numListValues|32' },
      },
      { opcode: 'createAny', templatePath: 'dra/deviceclass.yaml' },
      {
        opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate.yaml', namespace: 'test',
        templateParams: { numRequests: '$numRequests|1', constraints: '$constraints|' },
      },
      {
        opcode: 'createPods', namespace: 'test', countParam: '$measurePods', steadyStateParam: '$steadyState', durationParam: '$duration',
        podTemplatePath: 'dra/pod-with-claim-template.yaml', collectMetrics: true,
      },
    ],
  },
  {
    // Named claims shared by five pods each; 2 devices per node.
    ...upstream('SchedulingWithResourceClaim', { defaults: ['5000pods_500nodes'] }),
    workloadTemplate: [
      ...draCluster(2),
      { opcode: 'createAny', templatePath: 'dra/resourceclaim.yaml', namespace: 'init', countParam: '$initClaims' },
      { opcode: 'createPods', namespace: 'init', countParam: '$initPods', podTemplatePath: 'dra/pod-with-claim-ref.yaml' },
      { opcode: 'createAny', templatePath: 'dra/resourceclaim.yaml', namespace: 'test', countParam: '$measureClaims' },
      { opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'dra/pod-with-claim-ref.yaml', collectMetrics: true },
    ],
  },
  {
    // Each request names a class no device matches first, then the test class.
    ...upstream('FirstAvailable'),
    workloadTemplate: [
      ...draCluster(10),
      { opcode: 'createAny', templatePath: 'dra/deviceclass-no-devices.yaml' },
      { opcode: 'createAny', templatePath: 'dra/resourceclaim.yaml', countParam: '$initClaims', namespace: 'init' },
      { opcode: 'allocResourceClaims', namespace: 'init' },
      { opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate-first-available.yaml', namespace: 'test' },
      { opcode: 'createPods', namespace: 'test', count: 10, podTemplatePath: 'dra/pod-with-claim-template.yaml', collectMetrics: true },
    ],
  },
  {
    // A DeviceTaintRule taints every device; every claim tolerates it.
    ...upstream('DeviceTaintToleration'),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$nodesWithoutDRA' },
      { opcode: 'createAny', templatePath: 'dra/devicetaintrule.yaml' },
      ...draCluster(10).slice(1),
      { opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate-toleration.yaml', namespace: 'init' },
      { opcode: 'createPods', namespace: 'init', countParam: '$initPods', podTemplatePath: 'dra/pod-with-claim-template.yaml' },
      { opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate-toleration.yaml', namespace: 'test' },
      { opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'dra/pod-with-claim-template.yaml', collectMetrics: true },
    ],
  },
  {
    // Four shareable devices per node; each claim takes 2.5G of bandwidth from two distinct ones.
    ...upstream('ConsumableCapacity', { defaults: ['empty_500nodes'] }),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$nodesWithoutDRA' },
      { opcode: 'createNodes', nodeTemplatePath: 'dra/node-with-dra-test-driver.yaml', countParam: '$nodesWithDRA' },
      { opcode: 'createAny', templatePath: 'dra/resourceslice-consumablecapacity.yaml', countParam: '$nodesWithDRA' },
      { opcode: 'createAny', templatePath: 'dra/deviceclass-consumablecapacity.yaml' },
      { opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate-consumablecapacity.yaml', namespace: 'test' },
      { opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate-consumablecapacity.yaml', namespace: 'init' },
      { opcode: 'createPods', namespace: 'init', countParam: '$initPods', podTemplatePath: 'dra/pod-with-claim-template.yaml' },
      {
        opcode: 'createPods', namespace: 'test', countParam: '$measurePods', steadyStateParam: '$steadyState', durationParam: '$duration',
        podTemplatePath: 'dra/pod-with-claim-template.yaml', collectMetrics: true,
      },
    ],
  },
  {
    // Two partitions of one device per node (a counter set in its own slice); each claim takes both.
    ...upstream('Partitionable', { defaults: ['empty_500nodes'] }),
    workloadTemplate: partitionableTemplate('partitionable', 'resourceclaim-partitionable.yaml', 'resourceclaimtemplate-for-two-devices.yaml'),
  },
  {
    // Partitionable with both partitions in the compatibility group "mig" (DRADeviceCompatibilityGroups):
    // each claim takes both, which the groups allow.
    ...upstream('CompatibilityGroups'),
    workloadTemplate: partitionableTemplate('partitionable', 'resourceclaim-partitionable.yaml', 'resourceclaimtemplate-for-two-devices.yaml', 'compatibilitygroups'),
  },
  {
    // Each claim wants 7 of 8 partitions whose memory counters fit only without the first device.
    ...upstream('PartitionableBacktracking', { defaults: ['empty_500nodes'] }),
    workloadTemplate: partitionableTemplate('partitionable-backtracking', 'resourceclaim-partitionable-backtracking.yaml', 'resourceclaimtemplate-backtracking.yaml'),
  },
  {
    // Pods ask for extended resources that DeviceClasses map to the test driver's devices (pod i: class i mod $classes).
    ...upstream('ExtendedResource', { defaults: ['Explicit_25classes_5000pods_500nodes'] }),
    workloadTemplate: [
      ...draCluster(10).slice(0, 3),
      { opcode: 'createAny', templatePath: 'dra/deviceclass-extended-resource.yaml', countParam: '$classes', templateParams: { class: '$class' } },
      { opcode: 'createPods', namespace: 'init', countParam: '$initPods', podTemplatePath: 'dra/pod-with-extended-resource.yaml' },
      { opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'dra/pod-with-extended-resource.yaml', collectMetrics: true },
    ],
  },
  {
    // Every pod asks for example.com/gpu, which every class provides; NodeResourcesFit scores it (dra/extendedresource/scoring/scheduler-config.yaml).
    ...upstream('ExtendedResourceScoring', { defaults: ['2000pods_200nodes'] }),
    schedulerConfig: {
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [{
        schedulerName: 'default-scheduler',
        pluginConfig: [{
          name: 'NodeResourcesFit',
          args: { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }, { name: 'example.com/gpu', weight: 1 }] } },
        }],
      }],
    },
    workloadTemplate: [
      ...draCluster(10).slice(0, 3),
      { opcode: 'createAny', templatePath: 'dra/deviceclass-extended-resource-scoring.yaml', countParam: '$classes' },
      { opcode: 'createPods', namespace: 'init', countParam: '$initPods', podTemplatePath: 'dra/pod-with-extended-resource-scoring.yaml' },
      { opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'dra/pod-with-extended-resource-scoring.yaml', collectMetrics: true },
    ],
  },
  {
    // Each PodGroup lists one claim (by name here, from a template below) that all its members
    // share: one device per group, one slice per group that every DRA node sees
    // (dra/workloadresourceclaims/performance-config.yaml).
    ...upstream('SharedPodGroupResourceClaim'),
    workloadTemplate: [
      ...podGroupDraCluster,
      { opcode: 'createAny', templatePath: 'dra/resourceclaim.yaml', countParam: '$podGroups', namespace: 'test' },
      { opcode: 'createPodGroups', templatePath: 'dra/podgroup-with-claim-ref.yaml', namespace: 'test', countParam: '$podGroups' },
      {
        opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'dra/pod-in-podgroup-with-claim-ref.yaml',
        templateParams: { PodGroupCount: '$podGroups' }, collectMetrics: true,
      },
    ],
  },
  {
    ...upstream('SharedPodGroupResourceClaimTemplate'),
    workloadTemplate: [
      ...podGroupDraCluster,
      { opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate.yaml', namespace: 'init' },
      { opcode: 'allocResourceClaims', namespace: 'init' },
      { opcode: 'createAny', templatePath: 'dra/resourceclaimtemplate.yaml', namespace: 'test' },
      { opcode: 'createPodGroups', templatePath: 'dra/podgroup-with-claim-template.yaml', namespace: 'test', countParam: '$podGroups' },
      {
        opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'dra/pod-in-podgroup-with-claim-template.yaml',
        templateParams: { PodGroupCount: '$podGroups' }, collectMetrics: true,
      },
    ],
  },
];


/** Upstream's DRA test cases bench does not run yet, each with the reason. */
export const draSkipped: readonly SkippedTestCase[] = [
];
