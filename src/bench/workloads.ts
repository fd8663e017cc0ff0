// Upstream's scheduler_perf test cases as data (test/integration/scheduler_perf/{misc,affinity,
// topology_spreading,volumes}/performance-config.yaml, and dra/ in dra_workloads.ts): the same
// ops, templates, parameters, labels and thresholds. We add the label `default` to the 500- and
// 5000-node workloads `npm run bench` runs when no label is given; `integration-test` marks
// upstream's tiny ones.
import { draTestCases } from './dra_workloads.js';
import type { Op, TestCase } from './types.js';

const zoneLabels = (values: string[]) => ({ labelKey: 'topology.kubernetes.io/zone', labelValues: values });

/** createNodes → createPods $initPods → createPods $measurePods (collectMetrics). */
function basicTemplate(o: { nodes?: Op; namespaces?: boolean; initTemplate?: string; measureTemplate?: string } = {}): Op[] {
  const ops: Op[] = [o.nodes ?? { opcode: 'createNodes', countParam: '$initNodes' }];
  if (o.namespaces) {
    ops.push({ opcode: 'createNamespaces', prefix: 'sched', count: 2 });
    ops.push({ opcode: 'createPods', countParam: '$initPods', namespace: 'sched-0', podTemplatePath: o.initTemplate });
    ops.push({ opcode: 'createPods', countParam: '$measurePods', namespace: 'sched-1', podTemplatePath: o.measureTemplate, collectMetrics: true });
  } else {
    ops.push({ opcode: 'createPods', countParam: '$initPods', podTemplatePath: o.initTemplate });
    ops.push({ opcode: 'createPods', countParam: '$measurePods', podTemplatePath: o.measureTemplate, collectMetrics: true });
  }
  return ops;
}

const p = (initNodes: number, initPods: number, measurePods: number) => ({ initNodes, initPods, measurePods });

/** The plugins upstream's volumes/performance-config.yaml exercises. */
const volumePlugins = ['VolumeBinding', 'VolumeRestrictions', 'NodeVolumeLimits', 'VolumeZone'];

/**
 * Nodes (with 39 attachable EBS volumes through CSI when `migrated` is given), then init and
 * measured pods each with its own bound PV made from `pvTemplate`.
 */
function volumeTemplate(pvTemplate: string, migrated?: string[]): Op[] {
  const volumes = { persistentVolumeTemplatePath: pvTemplate, persistentVolumeClaimTemplatePath: 'pvc.yaml' };
  const nodes: Op = migrated === undefined
    ? { opcode: 'createNodes', countParam: '$initNodes' }
    : {
      opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml',
      nodeAllocatableStrategy: {
        nodeAllocatable: { 'attachable-volumes-csi-ebs.csi.aws.com': '39' },
        csiNodeAllocatable: { 'ebs.csi.aws.com': { count: 39 } },
        ...(migrated.length > 0 ? { migratedPlugins: migrated } : {}),
      },
    };
  return [
    nodes,
    { opcode: 'createPods', countParam: '$initPods', ...volumes },
    { opcode: 'createPods', countParam: '$measurePods', ...volumes, collectMetrics: true },
  ];
}
const smoke = ['integration-test', 'short'];
const perf = ['performance'];
const dflt = ['default'];

export const testCases: readonly TestCase[] = [
  {
    name: 'SchedulingBasic',
    source: 'misc/performance-config.yaml',
    defaultPodTemplatePath: 'pod-default.yaml',
    workloadTemplate: basicTemplate(),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: dflt, params: p(5000, 1000, 1000), target: 5000 },
      { name: '5000Nodes_10000Pods', labels: perf, threshold: 680, params: p(5000, 1000, 10000), target: 5000 },
    ],
  },
  {
    name: 'SchedulingPodAntiAffinity',
    source: 'affinity/performance-config.yaml',
    defaultPodTemplatePath: 'pod-with-pod-anti-affinity.yaml',
    workloadTemplate: basicTemplate({ namespaces: true }),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 1, 4) },
      { name: '500Nodes', labels: dflt, params: p(500, 100, 400) },
      { name: '5000Nodes', labels: dflt, params: p(5000, 1000, 1000), target: 1000 },
      { name: '5000Nodes_2000Pods', labels: perf, threshold: 60, params: p(5000, 1000, 2000), target: 1000 },
    ],
  },
  {
    name: 'SchedulingPodAffinity',
    source: 'affinity/performance-config.yaml',
    defaultPodTemplatePath: 'pod-with-pod-affinity.yaml',
    workloadTemplate: basicTemplate({
      namespaces: true,
      nodes: { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['zone1']) },
    }),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: [...perf, 'short', 'default'], params: p(5000, 5000, 1000), target: 500 },
      { name: '5000Nodes_5000Pods', labels: perf, threshold: 35, params: p(5000, 5000, 5000), target: 500 },
    ],
  },
  {
    name: 'SchedulingPreferredPodAffinity',
    source: 'affinity/performance-config.yaml',
    defaultPodTemplatePath: 'pod-with-preferred-pod-affinity.yaml',
    workloadTemplate: basicTemplate({ namespaces: true }),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: dflt, params: p(5000, 5000, 1000) },
      { name: '5000Nodes_5000Pods', labels: perf, threshold: 90, params: p(5000, 5000, 5000) },
    ],
  },
  {
    name: 'SchedulingPreferredPodAntiAffinity',
    source: 'affinity/performance-config.yaml',
    defaultPodTemplatePath: 'pod-with-preferred-pod-anti-affinity.yaml',
    workloadTemplate: basicTemplate({ namespaces: true }),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: [...perf, 'short', 'default'], params: p(5000, 5000, 1000) },
      { name: '5000Nodes_5000Pods', labels: perf, threshold: 90, params: p(5000, 5000, 5000) },
    ],
  },
  {
    name: 'SchedulingNodeAffinity',
    source: 'affinity/performance-config.yaml',
    defaultPodTemplatePath: 'pod-with-node-affinity.yaml',
    workloadTemplate: basicTemplate({
      nodes: { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['zone1']) },
    }),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: dflt, params: p(5000, 5000, 1000), target: 3000 },
      { name: '5000Nodes_10000Pods', labels: perf, threshold: 220, params: p(5000, 5000, 10000), target: 3000 },
    ],
  },
  {
    name: 'TopologySpreading',
    source: 'topology_spreading/performance-config.yaml',
    workloadTemplate: basicTemplate({
      nodes: { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['moon-1', 'moon-2', 'moon-3']) },
      initTemplate: 'pod-default.yaml',
      measureTemplate: 'pod-with-topology-spreading.yaml',
    }),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 10, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 1000, 1000) },
      { name: '5000Nodes', labels: [...perf, 'short', 'default'], params: p(5000, 5000, 2000), target: 3000 },
      { name: '5000Nodes_5000Pods', labels: perf, threshold: 460, params: p(5000, 5000, 5000), target: 3000 },
    ],
  },
  {
    name: 'PreferredTopologySpreading',
    source: 'topology_spreading/performance-config.yaml',
    workloadTemplate: basicTemplate({
      nodes: { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['moon-1', 'moon-2', 'moon-3']) },
      initTemplate: 'pod-default.yaml',
      measureTemplate: 'pod-with-preferred-topology-spreading.yaml',
    }),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 10, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 1000, 1000) },
      { name: '5000Nodes', labels: [...perf, 'default'], params: p(5000, 5000, 2000) },
      { name: '5000Nodes_5000Pods', labels: perf, threshold: 340, params: p(5000, 5000, 5000) },
    ],
  },
  {
    // Default PodTopologySpread constraints take their selector from the Service selecting the pods.
    name: 'DefaultTopologySpreading',
    source: 'topology_spreading/performance-config.yaml',
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['moon-1', 'moon-2', 'moon-3']) },
      { opcode: 'createAny', namespace: 'service-ns', templatePath: 'service.yaml' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-default.yaml' },
      { opcode: 'createPods', namespace: 'service-ns', countParam: '$measurePods', podTemplatePath: 'pod-with-label.yaml', collectMetrics: true },
    ],
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 10, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 1000, 1000) },
      { name: '5000Nodes_10000Pods', labels: [...perf, 'default'], params: p(5000, 5000, 10000) },
      { name: '5000Nodes_50000Pods', labels: perf, threshold: 160, params: p(5000, 5000, 50000) },
    ],
  },
  {
    name: 'MixedSchedulingBasePod',
    source: 'affinity/performance-config.yaml',
    defaultPodTemplatePath: 'pod-default.yaml',
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['zone1']) },
      { opcode: 'createNamespaces', prefix: 'sched', count: 1 },
      { opcode: 'createPods', countParam: '$initPods', namespace: 'sched-0' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-with-pod-affinity.yaml', namespace: 'sched-0' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-with-pod-anti-affinity.yaml', namespace: 'sched-0' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-with-preferred-pod-affinity.yaml', namespace: 'sched-0' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-with-preferred-pod-anti-affinity.yaml', namespace: 'sched-0' },
      { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true },
    ],
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 2, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 200, 1000) },
      { name: '5000Nodes', labels: dflt, params: p(5000, 2000, 1000) },
      { name: '5000Nodes_5000Pods', labels: perf, threshold: 140, params: p(5000, 2000, 5000) },
    ],
  },
  {
    // Schedulable pods measured while unschedulable high-priority pods arrive at 5/s.
    name: 'Unschedulable',
    source: 'misc/performance-config.yaml',
    usesPlugins: ['DefaultPreemption'],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createPods', countParam: '$initPods' },
      { opcode: 'churn', mode: 'create', templatePaths: ['pod-high-priority-large-cpu.yaml'], intervalMilliseconds: 200 },
      { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'pod-default.yaml', collectMetrics: true },
    ],
    defaultPodTemplatePath: 'pod-default.yaml',
    workloads: [
      { name: '5Nodes/1Init/10Pods', labels: smoke, params: p(5, 1, 10) },
      { name: '500Nodes/10Init/1kPods', labels: dflt, params: p(500, 10, 1000) },
      { name: '5kNodes/100Init/1kPods', labels: dflt, params: p(5000, 100, 1000) },
      { name: '5kNodes/100Init/10kPods', labels: perf, threshold: 590, params: p(5000, 100, 10000) },
      { name: '5kNodes/20kInit/10kPods', labels: perf, threshold: 600, params: p(5000, 20000, 10000) },
    ],
  },
  {
    name: 'PreemptionBasic',
    source: 'misc/performance-config.yaml',
    requiresPlugins: ['DefaultPreemption'],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-low-priority.yaml' },
      { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'pod-high-priority.yaml', collectMetrics: true },
    ],
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 20, 5) },
      // Upstream's 5000-node variant is disabled (kubernetes#108308); 1000 nodes is its largest.
      { name: '1000Nodes', labels: [...perf, 'short', 'default'], params: p(1000, 4000, 1000) },
    ],
  },
  {
    // Measured pods while a node, an unschedulable pod and a Service are created and deleted every second.
    name: 'SchedulingWithMixedChurn',
    source: 'misc/performance-config.yaml',
    usesPlugins: ['DefaultPreemption'],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      {
        opcode: 'churn', mode: 'recreate', number: 1, intervalMilliseconds: 1000,
        templatePaths: ['churn/node-default.yaml', 'pod-high-priority-large-cpu.yaml', 'churn/service-default.yaml'],
      },
      { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'pod-default.yaml', collectMetrics: true },
    ],
    workloads: [
      { name: '10Nodes', labels: smoke, params: { initNodes: 10, measurePods: 100 } },
      { name: '1000Nodes', labels: dflt, params: { initNodes: 1000, measurePods: 1000 } },
      { name: '5000Nodes', labels: dflt, params: { initNodes: 5000, measurePods: 2000 } },
      { name: '5000Nodes_10000Pods', labels: perf, threshold: 710, params: { initNodes: 5000, measurePods: 10000 } },
    ],
  },
  {
    // Many gated pods wait while scheduled pods are deleted at 50/s: each deletion is an event the
    // queue processes, which must not slow scheduling down with the number of gated pods.
    name: 'SchedulingWhileGated',
    source: 'misc/performance-config.yaml',
    defaultPodTemplatePath: 'light-pod.yaml',
    workloadTemplate: [
      { opcode: 'createNodes', count: 1, nodeTemplatePath: 'node-with-name.yaml' },
      { opcode: 'createPods', countParam: '$gatedPods', podTemplatePath: 'gated-pod.yaml', skipWaitToCompletion: true },
      { opcode: 'barrier', stageRequirement: 'Attempted' },
      { opcode: 'createPods', countParam: '$deletingPods' },
      { opcode: 'deletePods', namespace: 'namespace-3', deletePodsPerSecond: 50, skipWaitToCompletion: true },
      { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true },
    ],
    workloads: [
      { name: '1Node_10GatedPods', labels: smoke, params: { gatedPods: 10, deletingPods: 10, measurePods: 10 } },
      { name: '1Node_10000GatedPods', labels: [...perf, 'default'], threshold: 910, params: { gatedPods: 10000, deletingPods: 20000, measurePods: 20000 } },
    ],
  },
  {
    name: 'SchedulingSecrets',
    source: 'volumes/performance-config.yaml',
    defaultPodTemplatePath: 'pod-with-secret-volume.yaml',
    usesPlugins: volumePlugins,
    workloadTemplate: basicTemplate(),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: dflt, params: p(5000, 5000, 1000) },
      { name: '5000Nodes_10000Pods', labels: perf, threshold: 790, params: p(5000, 1000, 10000) },
    ],
  },
  {
    name: 'SchedulingInTreePVs',
    source: 'volumes/performance-config.yaml',
    requiresPlugins: volumePlugins,
    workloadTemplate: volumeTemplate('pv-aws.yaml'),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: [...perf, 'default'], params: p(5000, 5000, 1000) },
      { name: '5000Nodes_2000Pods', labels: perf, threshold: 290, params: p(5000, 1000, 2000) },
    ],
  },
  {
    name: 'SchedulingMigratedInTreePVs',
    source: 'volumes/performance-config.yaml',
    requiresPlugins: volumePlugins,
    workloadTemplate: volumeTemplate('pv-aws.yaml', ['kubernetes.io/aws-ebs']),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: [...perf, 'default'], params: p(5000, 5000, 1000) },
      { name: '5000Nodes_5000Pods', labels: perf, threshold: 100, params: p(5000, 5000, 5000) },
    ],
  },
  {
    name: 'SchedulingCSIPVs',
    source: 'volumes/performance-config.yaml',
    requiresPlugins: volumePlugins,
    workloadTemplate: volumeTemplate('pv-csi.yaml', []),
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 5, 10) },
      { name: '500Nodes', labels: dflt, params: p(500, 500, 1000) },
      { name: '5000Nodes', labels: [...perf, 'default'], params: p(5000, 5000, 1000) },
      { name: '5000Nodes_5000Pods', labels: perf, threshold: 100, params: p(5000, 5000, 5000) },
    ],
  },
  {
    // High-priority pods, each with a bound PV, preempting low-priority ones.
    name: 'PreemptionPVs',
    source: 'volumes/performance-config.yaml',
    requiresPlugins: ['DefaultPreemption', ...volumePlugins],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-low-priority.yaml' },
      {
        opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'pod-high-priority.yaml',
        persistentVolumeTemplatePath: 'pv-aws.yaml', persistentVolumeClaimTemplatePath: 'pvc.yaml', collectMetrics: true,
      },
    ],
    workloads: [
      { name: '5Nodes', labels: smoke, params: p(5, 20, 5) },
      { name: '1000Nodes', labels: [...perf, 'short'], params: p(1000, 4000, 1000) },
    ],
  },
  ...draTestCases,
];
