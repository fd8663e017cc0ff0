// Upstream's scheduler_perf test cases as data (test/integration/scheduler_perf/*/performance-config.yaml,
// and dra/ in dra_workloads.ts): the same ops and templates, with the workloads (parameters,
// labels, thresholds, feature gates) taken from the generated upstream_catalog.ts. We add the
// label `default` to the 500- and 5000-node workloads `npm run bench` runs when no label is given;
// `integration-test` marks upstream's tiny ones. skippedTestCases names the cases we cannot run yet.
import { draSkipped, draTestCases } from './dra_workloads.js';
import { eventHandlingTestCases } from './event_handling_workloads.js';
import { ownTestCases } from './own_workloads.js';
import type { CreatePodGroupsOp, CreatePodsOp, Op, SkippedTestCase, TemplateParam, TestCase } from './types.js';
import { upstreamWorkloads as upstream } from './upstream_workloads.js';

/** workload_preemption/templates/, as the cases name them. */
const preemption = 'workload_preemption/templates/';

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
const d500_5000 = ['500Nodes', '5000Nodes'];

/** Init pods in $initNamespaces labelled namespaces, measured pods in one more, selected by the pods' namespaceSelector. */
function nsSelectorTemplate(zoneLabelled: boolean): Op[] {
  return [
    zoneLabelled
      ? { opcode: 'createNodes', countParam: '$initNodes', labelNodePrepareStrategy: zoneLabels(['zone1']) }
      : { opcode: 'createNodes', countParam: '$initNodes' },
    { opcode: 'createNamespaces', prefix: 'init-ns', countParam: '$initNamespaces', namespaceTemplatePath: 'namespace-with-labels.yaml' },
    { opcode: 'createNamespaces', prefix: 'measure-ns', count: 1, namespaceTemplatePath: 'namespace-with-labels.yaml' },
    { opcode: 'createPodSets', countParam: '$initNamespaces', namespacePrefix: 'init-ns', createPodsOp: { opcode: 'createPods', countParam: '$initPodsPerNamespace' } },
    { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true, namespace: 'measure-ns-0' },
  ];
}

/** batching/scheduler-config-no-topology.yaml: no default spreading, so every pod can be signed and batched. */
const noTopologyConfig = {
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'PodTopologySpread', args: { defaultingType: 'List', defaultConstraints: [] } }] }],
};

/** The batching test cases: pods sharing a signature in runs of $signatureBatchSize, one node each. */
function batchingCase(name: string, podTemplate: string): TestCase {
  return {
    // 10 or 20000 nodes: none in the default set.
    ...upstream(name),
    schedulerConfig: noTopologyConfig,
    defaultPodTemplatePath: podTemplate,
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml' },
      { opcode: 'createPods', signatureBatchSizeParam: '$signatureBatchSize', countParam: '$measurePods', collectMetrics: true },
    ],
  };
}

export const testCases: readonly TestCase[] = [
  {
    ...upstream('SchedulingBasic', { defaults: d500_5000, targets: { '5000Nodes': 5000, '5000Nodes_10000Pods': 5000 } }),
    defaultPodTemplatePath: 'pod-default.yaml',
    workloadTemplate: basicTemplate(),
  },
  {
    ...upstream('SchedulingPodAntiAffinity', { defaults: d500_5000, targets: { '5000Nodes': 1000, '5000Nodes_2000Pods': 1000 } }),
    defaultPodTemplatePath: 'pod-with-pod-anti-affinity.yaml',
    workloadTemplate: basicTemplate({ namespaces: true }),
  },
  {
    // The measured pods carry the label the initial pods' anti-affinity rejects.
    ...upstream('SchedulingPodMatchingAntiAffinity', { defaults: ['500Nodes'] }),
    defaultPodTemplatePath: 'pod-with-pod-anti-affinity.yaml',
    workloadTemplate: basicTemplate({ namespaces: true, measureTemplate: 'pod-with-pod-anti-affinity-label.yaml' }),
  },
  {
    ...upstream('SchedulingPodAffinity', { defaults: d500_5000, targets: { '5000Nodes': 500, '5000Nodes_5000Pods': 500 } }),
    defaultPodTemplatePath: 'pod-with-pod-affinity.yaml',
    workloadTemplate: basicTemplate({
      namespaces: true,
      nodes: { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['zone1']) },
    }),
  },
  {
    ...upstream('SchedulingPreferredPodAffinity', { defaults: d500_5000 }),
    defaultPodTemplatePath: 'pod-with-preferred-pod-affinity.yaml',
    workloadTemplate: basicTemplate({ namespaces: true }),
  },
  {
    ...upstream('SchedulingPreferredPodAntiAffinity', { defaults: d500_5000 }),
    defaultPodTemplatePath: 'pod-with-preferred-pod-anti-affinity.yaml',
    workloadTemplate: basicTemplate({ namespaces: true }),
  },
  {
    ...upstream('SchedulingNodeAffinity', { defaults: d500_5000, targets: { '5000Nodes': 3000, '5000Nodes_10000Pods': 3000 } }),
    defaultPodTemplatePath: 'pod-with-node-affinity.yaml',
    workloadTemplate: basicTemplate({
      nodes: { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['zone1']) },
    }),
  },
  {
    ...upstream('SchedulingRequiredPodAntiAffinityWithNSSelector', { defaults: ['500Nodes'] }),
    defaultPodTemplatePath: 'pod-anti-affinity-ns-selector.yaml',
    workloadTemplate: nsSelectorTemplate(false),
  },
  {
    ...upstream('SchedulingPreferredAntiAffinityWithNSSelector', { defaults: ['500Nodes'] }),
    defaultPodTemplatePath: 'pod-preferred-anti-affinity-ns-selector.yaml',
    workloadTemplate: nsSelectorTemplate(false),
  },
  {
    ...upstream('SchedulingRequiredPodAffinityWithNSSelector', { defaults: ['500Nodes'] }),
    defaultPodTemplatePath: 'pod-affinity-ns-selector.yaml',
    workloadTemplate: nsSelectorTemplate(true),
  },
  {
    ...upstream('SchedulingPreferredAffinityWithNSSelector', { defaults: ['500Nodes'] }),
    defaultPodTemplatePath: 'pod-preferred-affinity-ns-selector.yaml',
    workloadTemplate: nsSelectorTemplate(false),
  },
  {
    // Gated pods with pod affinity see an AssignedPodAdded event for every measured pod bound.
    ...upstream('SchedulingGatedPodsWithPodAffinityImpactForThroughput'),
    defaultPodTemplatePath: 'pod-with-label.yaml',
    workloadTemplate: [
      { opcode: 'createNodes', count: 1, nodeTemplatePath: 'node-with-name.yaml' },
      { opcode: 'createPods', countParam: '$gatedPods', podTemplatePath: 'gated-pod-with-pod-affinity.yaml', skipWaitToCompletion: true },
      { opcode: 'barrier', stageRequirement: 'Attempted' },
      { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true },
    ],
  },
  {
    ...upstream('TopologySpreading', { defaults: d500_5000, targets: { '5000Nodes': 3000, '5000Nodes_5000Pods': 3000 } }),
    workloadTemplate: basicTemplate({
      nodes: { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['moon-1', 'moon-2', 'moon-3']) },
      initTemplate: 'pod-default.yaml',
      measureTemplate: 'pod-with-topology-spreading.yaml',
    }),
  },
  {
    ...upstream('PreferredTopologySpreading', { defaults: d500_5000 }),
    workloadTemplate: basicTemplate({
      nodes: { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['moon-1', 'moon-2', 'moon-3']) },
      initTemplate: 'pod-default.yaml',
      measureTemplate: 'pod-with-preferred-topology-spreading.yaml',
    }),
  },
  {
    // Default PodTopologySpread constraints take their selector from the Service selecting the pods.
    ...upstream('DefaultTopologySpreading', { defaults: ['500Nodes', '5000Nodes_10000Pods'] }),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml', labelNodePrepareStrategy: zoneLabels(['moon-1', 'moon-2', 'moon-3']) },
      { opcode: 'createAny', namespace: 'service-ns', templatePath: 'service.yaml' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-default.yaml' },
      { opcode: 'createPods', namespace: 'service-ns', countParam: '$measurePods', podTemplatePath: 'pod-with-label.yaml', collectMetrics: true },
    ],
  },
  {
    // Spreading over hostnames counting only the nodes the pod tolerates (a fifth are tainted).
    ...upstream('SchedulingWithNodeInclusionPolicy', { defaults: ['500Nodes'] }),
    defaultPodTemplatePath: 'pod-with-node-inclusion-policy.yaml',
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$normalNodes' },
      { opcode: 'createNodes', nodeTemplatePath: 'node-with-taint.yaml', countParam: '$taintNodes' },
      { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true },
    ],
  },
  {
    ...upstream('MixedSchedulingBasePod', { defaults: d500_5000 }),
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
  },
  {
    // Schedulable pods measured while unschedulable high-priority pods arrive at 5/s.
    ...upstream('Unschedulable', { defaults: ['500Nodes/10Init/1kPods', '5kNodes/100Init/1kPods'] }),
    usesPlugins: ['DefaultPreemption'],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createPods', countParam: '$initPods' },
      { opcode: 'churn', mode: 'create', templatePaths: ['pod-high-priority-large-cpu.yaml'], intervalMilliseconds: 200 },
      { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'pod-default.yaml', collectMetrics: true },
    ],
    defaultPodTemplatePath: 'pod-default.yaml',
  },
  {
    // Upstream's 5000-node variant is disabled (kubernetes#108308); 1000 nodes is its largest.
    ...upstream('PreemptionBasic', { defaults: ['1000Nodes_AsyncAPICallsEnabled'] }),
    requiresPlugins: ['DefaultPreemption'],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-low-priority.yaml' },
      { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'default_preemption/pod-high-priority.yaml', collectMetrics: true },
    ],
  },
  {
    // Schedulable pods measured while preemptors (a node's worth of cpu each) arrive at 5/s.
    ...upstream('PreemptionAsync', { defaults: ['500Nodes'] }),
    requiresPlugins: ['DefaultPreemption'],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-low-priority.yaml' },
      { opcode: 'churn', mode: 'create', templatePaths: ['default_preemption/pod-high-priority.yaml'], intervalMilliseconds: 200 },
      { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'pod-default.yaml', collectMetrics: true },
    ],
  },
  {
    // Measured pods while a node, an unschedulable pod and a Service are created and deleted every second.
    ...upstream('SchedulingWithMixedChurn', { defaults: ['1000Nodes', '5000Nodes'] }),
    usesPlugins: ['DefaultPreemption'],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      {
        opcode: 'churn', mode: 'recreate', number: 1, intervalMilliseconds: 1000,
        templatePaths: ['churn/node-default.yaml', 'pod-high-priority-large-cpu.yaml', 'churn/service-default.yaml'],
      },
      { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'pod-default.yaml', collectMetrics: true },
    ],
  },
  {
    // Many gated pods wait while scheduled pods are deleted at 50/s: each deletion is an event the
    // queue processes, which must not slow scheduling down with the number of gated pods.
    ...upstream('SchedulingWhileGated', { defaults: ['1Node_10000GatedPods'] }),
    defaultPodTemplatePath: 'light-pod.yaml',
    workloadTemplate: [
      { opcode: 'createNodes', count: 1, nodeTemplatePath: 'node-with-name.yaml' },
      { opcode: 'createPods', countParam: '$gatedPods', podTemplatePath: 'gated-pod.yaml', skipWaitToCompletion: true },
      { opcode: 'barrier', stageRequirement: 'Attempted' },
      { opcode: 'createPods', countParam: '$deletingPods' },
      { opcode: 'deletePods', namespace: 'namespace-3', deletePodsPerSecond: 50, skipWaitToCompletion: true },
      { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true },
    ],
  },
  {
    // Every pod goes to the one named node through NodeAffinity's PreFilterResult, as DaemonSet pods do.
    // Its large workload has 15000 nodes: not in the default set.
    ...upstream('SchedulingDaemonset'),
    defaultPodTemplatePath: 'daemonset-pod.yaml',
    workloadTemplate: [
      { opcode: 'createNodes', count: 1, nodeTemplatePath: 'node-with-name.yaml' },
      { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml' },
      { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true },
    ],
  },
  {
    // Pods held by a finalizer are deleted while pending: the queue drops them as their deletion arrives.
    ...upstream('SchedulingDeletedPodsWithFinalizers', { defaults: ['1000Node_1000DeletingPods'] }),
    defaultPodTemplatePath: 'light-pod.yaml',
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createPods', countParam: '$deletingPods', podTemplatePath: 'pod-with-finalizer.yaml', skipWaitToCompletion: true },
      { opcode: 'deletePods', namespace: 'namespace-1', deletePodsPerSecond: 100, skipWaitToCompletion: true },
      { opcode: 'createPods', countParam: '$measurePods', collectMetrics: true },
    ],
  },
  {
    // Each pod asks for one unit of its own extended resource, which one node has (DRAExtendedResource
    // makes DynamicResources check, for every pod, whether a DeviceClass provides that resource).
    ...upstream('SchedulingWithExtendedResource', { defaults: ['500pods_500nodes_DRAExtendedResourceEnabled'] }),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$nodesWithoutExtendedResource' },
      { opcode: 'createNodes', nodeTemplatePath: 'misc/node-with-extended-resource.yaml', countParam: '$nodesWithExtendedResource' },
      { opcode: 'createPods', namespace: 'test', countParam: '$measurePods', podTemplatePath: 'misc/pod-with-extended-resource.yaml', collectMetrics: true },
    ],
  },
  {
    ...upstream('SchedulingSecrets', { defaults: d500_5000 }),
    defaultPodTemplatePath: 'pod-with-secret-volume.yaml',
    usesPlugins: volumePlugins,
    workloadTemplate: basicTemplate(),
  },
  {
    ...upstream('SchedulingInTreePVs', { defaults: d500_5000 }),
    requiresPlugins: volumePlugins,
    workloadTemplate: volumeTemplate('pv-aws.yaml'),
  },
  {
    ...upstream('SchedulingMigratedInTreePVs', { defaults: d500_5000 }),
    requiresPlugins: volumePlugins,
    workloadTemplate: volumeTemplate('pv-aws.yaml', ['kubernetes.io/aws-ebs']),
  },
  {
    ...upstream('SchedulingCSIPVs', { defaults: d500_5000 }),
    requiresPlugins: volumePlugins,
    workloadTemplate: volumeTemplate('pv-csi.yaml', []),
  },
  {
    // High-priority pods, each with a bound PV, preempting low-priority ones.
    ...upstream('PreemptionPVs', { defaults: ['1000Nodes'] }),
    requiresPlugins: ['DefaultPreemption', ...volumePlugins],
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createPods', countParam: '$initPods', podTemplatePath: 'pod-low-priority.yaml' },
      {
        opcode: 'createPods', countParam: '$measurePods', podTemplatePath: 'pod-high-priority.yaml',
        persistentVolumeTemplatePath: 'pv-aws.yaml', persistentVolumeClaimTemplatePath: 'pvc.yaml', collectMetrics: true,
      },
    ],
  },
  batchingCase('HostPortConflict', 'pod-hostport-80.yaml'),
  batchingCase('ResourceSaturation', 'pod-saturation.yaml'),
  ...draTestCases,
  podGroupCase('BasicScheduling', 'basicscheduling', 'basic-pod.yaml'),
  podGroupCase('GangScheduling', 'gangscheduling', 'gang-pod.yaml'),
  podGroupCase('TopologyAwareScheduling', 'tas', 'gang-pod.yaml', 'podgroup/tas/templates/node.yaml'),
  {
    ...upstream('PreemptionPodGroupDisruptionMode'),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml' },
      {
        opcode: 'createPodGroups', countParam: '$lowPriorityGroups', namespace: 'gang-preempt-1', templatePath: 'templates/podgroup.yaml',
        templateParams: { minCount: '$podsPerGroup', priority: 1000, disruptionMode: '$disruptionMode' },
      },
      {
        opcode: 'createPods', countParam: '$lowPriorityGroups', countMultiplierParam: '$podsPerGroup', namespace: 'gang-preempt-1',
        podTemplatePath: 'default_preemption/templates/gang-pod.yaml',
        templateParams: { podsPerGroup: '$podsPerGroup', cpuRequest: '$lowPriorityCpuRequest', priority: 1000, disruptionMode: '$disruptionMode' },
      },
      { opcode: 'barrier', stageRequirement: 'Scheduled' },
      { opcode: 'createPods', collectMetrics: true, countParam: '$measurePods', namespace: 'gang-preempt-0', podTemplatePath: 'default_preemption/pod-high-priority.yaml' },
    ],
  },
  {
    ...upstream('GangPreemptionBasic'),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createNamespaces', prefix: 'gang-preempt', count: 2 },
      {
        opcode: 'createPods', countParam: '$initPods', podTemplatePath: `${preemption}pod-low-priority.yaml`, namespace: 'gang-preempt-1',
        templateParams: { nodesCount: '$initNodes', podsCount: '$initPods' },
      },
      preemptorGroups('$preemptorPodGroups'),
      preemptors('$preemptorPodGroups', 'gang-pod.yaml', { cpuRequest: '$gangCpuRequest' }),
    ],
  },
  {
    ...upstream('GangPreemptionPodGroups'),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createNamespaces', prefix: 'gang-preempt', count: 2 },
      { ...preemptorGroups('$lowPriorityGroups'), namespace: 'gang-preempt-1', templateParams: { podsPerGroup: '$podsPerGroup', priority: 1000 } },
      {
        ...preemptors('$lowPriorityGroups', 'gang-pod.yaml', { cpuRequest: '$lowPriorityCpuRequest', hostPortBase: 8000, priority: 1000 }),
        namespace: 'gang-preempt-1', collectMetrics: false,
      },
      { ...preemptorGroups('$highPriorityGroups'), templateParams: { podsPerGroup: '$podsPerGroup', priority: 9999999 } },
      preemptors('$highPriorityGroups', 'gang-pod.yaml', { cpuRequest: '$highPriorityCpuRequest', hostPortBase: 9000, priority: 9999999 }),
    ],
  },
  {
    ...upstream('GangPreemptionAffinity'),
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createNamespaces', prefix: 'gang-preempt', count: 3 },
      {
        opcode: 'createPods', countParam: '$initNodes', podTemplatePath: `${preemption}pod-anchor-high-priority.yaml`, namespace: 'gang-preempt-2',
        templateParams: { nodesCount: '$initNodes', podsCount: '$initNodes' },
      },
      {
        opcode: 'createPods', countParam: '$initPods', podTemplatePath: `${preemption}pod-low-priority.yaml`, namespace: 'gang-preempt-1',
        templateParams: { nodesCount: '$initNodes', podsCount: '$initPods' },
      },
      preemptorGroups('$preemptorPodGroups'),
      preemptors('$preemptorPodGroups', 'pod-gang-affinity.yaml', {}),
    ],
  },
  ...eventHandlingTestCases,
  ...ownTestCases,
];

/**
 * podgroup/<folder>/performance-config.yaml: nodes, one namespace, $initPodGroups PodGroups and
 * their $podsPerGroup members each, measured.
 */
function podGroupCase(name: string, folder: string, podTemplate: string, nodeTemplatePath?: string): TestCase {
  const ns = `${folder === 'basicscheduling' ? 'basic' : folder === 'tas' ? 'tas' : 'gang'}-ns`;
  return {
    ...upstream(name),
    workloadTemplate: [
      nodeTemplatePath ? { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath } : { opcode: 'createNodes', countParam: '$initNodes' },
      { opcode: 'createNamespaces', prefix: ns, count: 1 },
      {
        opcode: 'createPodGroups', countParam: '$initPodGroups', namespace: `${ns}-0`, templatePath: `podgroup/${folder}/templates/podgroup.yaml`,
        templateParams: { podsPerGroup: '$podsPerGroup' },
      },
      {
        opcode: 'createPods', countParam: '$initPodGroups', countMultiplierParam: '$podsPerGroup', namespace: `${ns}-0`,
        podTemplatePath: `podgroup/${folder}/templates/${podTemplate}`, collectMetrics: true, templateParams: { podsPerGroup: '$podsPerGroup' },
      },
    ],
  };
}

/** The preemptor PodGroups (gang-preempt-0, the default priority unless given). */
function preemptorGroups(countParam: `$${string}`): CreatePodGroupsOp {
  return { opcode: 'createPodGroups', countParam, namespace: 'gang-preempt-0', templatePath: `${preemption}podgroup.yaml`, templateParams: { podsPerGroup: '$podsPerGroup' } };
}

/** The preemptor groups' members, measured. */
function preemptors(countParam: `$${string}`, podTemplate: string, params: Record<string, TemplateParam>): CreatePodsOp {
  return {
    opcode: 'createPods', collectMetrics: true, countParam, countMultiplierParam: '$podsPerGroup', namespace: 'gang-preempt-0',
    podTemplatePath: `${preemption}${podTemplate}`, templateParams: { podsPerGroup: '$podsPerGroup', ...params },
  };
}

/** Upstream's test cases bench does not run, each with the reason. */
export const skippedTestCases: readonly SkippedTestCase[] = [
  ...draSkipped,
];
