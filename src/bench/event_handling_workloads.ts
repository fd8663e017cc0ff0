// Upstream's scheduler_perf test cases measured over a window of several ops, or built on
// upstream's YAML templates (src/bench/upstream_templates.ts): event_handling/, the starvation
// cases (independent and pod-group) and nodedeclaredfeatures/ of the pinned release, op for op.
import type { BarrierOp, CreateNodesOp, CreatePodsOp, Op, TestCase, UpdateAnyOp } from './types.js';
import { upstreamWorkloads as upstream } from './upstream_workloads.js';

const eh = (file: string) => `event_handling/${file}.yaml`;
const attempted = (labelSelector?: Record<string, string>): BarrierOp => ({ opcode: 'barrier', stageRequirement: 'Attempted', ...(labelSelector ? { labelSelector } : {}) });
const scheduled = (labelSelector?: Record<string, string>): BarrierOp => ({ opcode: 'barrier', ...(labelSelector ? { labelSelector } : {}) });
const unsched = { type: 'unsched' };

function nodes(template: string, count: number | `$${string}`): CreateNodesOp {
  return typeof count === 'number' ? { opcode: 'createNodes', count, nodeTemplatePath: template } : { opcode: 'createNodes', countParam: count, nodeTemplatePath: template };
}

/** Pods made without waiting for them (the window's barriers wait). */
function pending(template: string, namespace: string, countParam: `$${string}`, more: Partial<CreatePodsOp> = {}): CreatePodsOp {
  return { opcode: 'createPods', countParam, podTemplatePath: template, skipWaitToCompletion: true, namespace, ...more };
}

function update(template: string, countParam: `$${string}`, namespace?: string, subresources?: string[]): UpdateAnyOp {
  return { opcode: 'updateAny', countParam, templatePath: template, updatePerSecond: 100, ...(namespace ? { namespace } : {}), ...(subresources ? { subresources } : {}) };
}

const csiVolume = { persistentVolumeTemplatePath: 'pv-csi.yaml', persistentVolumeClaimTemplatePath: 'pvc.yaml' };

/** Blocked pods freed by deleting the pods that block them. */
const podDelete: Op[] = [
  {
    opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'node-default.yaml',
    nodeAllocatableStrategy: { nodeAllocatable: { 'attachable-volumes-csi-ebs.csi.aws.com': '20' }, csiNodeAllocatable: { 'ebs.csi.aws.com': { count: 20 } } },
  },
  { opcode: 'createPods', countParam: '$blockerPods', podTemplatePath: eh('poddelete-pod-blocker-topology-ports-resources'), ...csiVolume, namespace: 'blockertopologyportsresources' },
  {
    opcode: 'createPods', countParam: '$blockerPods', podTemplatePath: eh('poddelete-pod-blocker-affinity'),
    persistentVolumeTemplatePath: 'pv-csi.yaml', persistentVolumeClaimTemplatePath: 'pvc-once-pod.yaml', namespace: 'blockeraffinity',
  },
  {
    opcode: 'startCollectingMetrics', name: 'unschedPods',
    namespaces: ['blockertopologyportsresources', 'blockeraffinity', 'nodeports', 'noderesources', 'nodevolumelimits', 'interpodaffinity'], labelSelector: unsched,
  },
  pending(eh('poddelete-pod-podtopologyspread'), 'blockertopologyportsresources', '$measurePods'),
  pending(eh('poddelete-pod-volumerestrictions'), 'blockeraffinity', '$blockerPods'),
  pending(eh('poddelete-pod-nodeports'), 'nodeports', '$measurePods'),
  pending(eh('poddelete-pod-noderesources'), 'noderesources', '$measurePods'),
  pending(eh('poddelete-pod-nodevolumelimits'), 'nodevolumelimits', '$blockerPods', csiVolume),
  pending(eh('poddelete-pod-interpodaffinity'), 'interpodaffinity', '$measurePods'),
  attempted(unsched),
  { opcode: 'deletePods', deletePodsPerSecond: 100, namespace: 'blockertopologyportsresources', labelSelector: { type: 'blocker' }, skipWaitToCompletion: true },
  { opcode: 'deletePods', deletePodsPerSecond: 100, namespace: 'blockeraffinity', labelSelector: { type: 'blocker' }, skipWaitToCompletion: true },
  scheduled(unsched),
  { opcode: 'stopCollectingMetrics' },
];

/** Blocked pods freed by updating them, or the pods that block them. */
const podUpdate: Op[] = [
  { opcode: 'startCollectingMetrics', namespaces: ['nodeunschedulable', 'tainttoleration', 'blocker', 'interpodaffinity', 'noderesources', 'schedulinggates'], labelSelector: unsched },
  nodes(eh('podupdate-node-unschedulable'), 1),
  pending(eh('podupdate-pod-nodeunschedulable'), 'nodeunschedulable', '$measurePods'),
  nodes(eh('podupdate-node-with-taint'), 1),
  pending(eh('podupdate-pod-tainttoleration'), 'tainttoleration', '$measurePods'),
  attempted(),
  update(eh('podupdate-pod-nodeunschedulable-update'), '$measurePods', 'nodeunschedulable'),
  update(eh('podupdate-pod-tainttoleration-update'), '$measurePods', 'tainttoleration'),
  scheduled(),
  nodes('node-with-name.yaml', 1),
  { opcode: 'createPods', countParam: '$blockerPods', podTemplatePath: eh('podupdate-pod-blocker'), namespace: 'blocker' },
  pending(eh('podupdate-pod-interpodaffinity'), 'interpodaffinity', '$measurePods'),
  pending(eh('podupdate-pod-noderesources'), 'noderesources', '$measurePods'),
  pending(eh('podupdate-pod-podtopologyspread'), 'blocker', '$blockerPods'),
  pending(eh('podupdate-pod-schedulinggates'), 'schedulinggates', '$measurePods'),
  attempted(unsched),
  update(eh('podupdate-pod-blocker-update'), '$blockerPods', 'blocker'),
  update(eh('podupdate-pod-blocker-scale-down'), '$blockerPods', 'blocker', ['resize']),
  update(eh('podupdate-pod-schedulinggates-update'), '$measurePods', 'schedulinggates'),
  scheduled(unsched),
  { opcode: 'stopCollectingMetrics' },
];

const nodeEventNamespaces = ['nodeunschedulable', 'noderesources', 'interpodaffinity', 'nodeaffinity', 'podtopologyspread', 'tainttoleration'];

/** Blocked pods freed by new nodes. */
const nodeAdd: Op[] = [
  { opcode: 'startCollectingMetrics', name: 'unschedPods', namespaces: nodeEventNamespaces },
  nodes(eh('nodeadd-node-unschedulable'), 1),
  pending(eh('nodeadd-pod-nodeunschedulable'), 'nodeunschedulable', '$measurePods'),
  attempted(),
  nodes(eh('nodeadd-node-low-capacity'), 1),
  pending(eh('nodeadd-pod-noderesources'), 'noderesources', '$measurePods'),
  attempted(),
  nodes(eh('nodeadd-node-high-capacity'), '$nodes'),
  scheduled(),
  pending(eh('nodeadd-pod-interpodaffinity'), 'interpodaffinity', '$measurePods'),
  pending(eh('nodeadd-pod-nodeaffinity'), 'nodeaffinity', '$measurePods'),
  pending(eh('nodeadd-pod-podtopologyspread'), 'podtopologyspread', '$measurePods'),
  attempted(),
  nodes(eh('nodeadd-node-with-labels'), '$nodes'),
  scheduled(),
  pending(eh('nodeadd-pod-tainttoleration'), 'tainttoleration', '$measurePods'),
  attempted(),
  nodes(eh('nodeadd-node-with-taint'), '$nodes'),
  scheduled(),
  { opcode: 'stopCollectingMetrics' },
];

/** Blocked pods freed by new pods they need. */
const podAdd: Op[] = [
  nodes(eh('podadd-node'), 2),
  { opcode: 'createPods', count: 1, podTemplatePath: eh('podadd-pod-with-label'), namespace: 'podtopologyspread' },
  { opcode: 'startCollectingMetrics', name: 'unschedPods', namespaces: ['podtopologyspread', 'interpodaffinity'], labelSelector: unsched },
  pending(eh('podadd-pod-podtopologyspread'), 'podtopologyspread', '$measurePods'),
  pending(eh('podadd-pod-interpodaffinity'), 'interpodaffinity', '$measurePods'),
  attempted(unsched),
  { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: eh('podadd-pod-unblocker-topology'), namespace: 'podtopologyspread' },
  { opcode: 'createPods', countParam: '$measurePods', podTemplatePath: eh('podadd-pod-unblocker-affinity'), namespace: 'interpodaffinity' },
  scheduled(unsched),
  { opcode: 'stopCollectingMetrics' },
];

/** Blocked pods freed by node updates. */
const nodeUpdate: Op[] = [
  { opcode: 'startCollectingMetrics', name: 'unschedPods', namespaces: nodeEventNamespaces },
  nodes(eh('nodeupdate-node-unschedulable'), '$nodes'),
  pending(eh('nodeupdate-pod-nodeunschedulable'), 'nodeunschedulable', '$measurePods'),
  attempted(),
  update(eh('nodeupdate-node-unschedulable-update'), '$nodes'),
  scheduled(),
  nodes(eh('nodeupdate-node-low-capacity'), '$nodes'),
  pending(eh('nodeupdate-pod-noderesources'), 'noderesources', '$measurePods'),
  attempted(),
  update(eh('nodeupdate-node-low-capacity-update'), '$nodes'),
  scheduled(),
  nodes(eh('nodeupdate-node-without-labels'), '$nodes'),
  pending(eh('nodeupdate-pod-interpodaffinity'), 'interpodaffinity', '$measurePods'),
  pending(eh('nodeupdate-pod-nodeaffinity'), 'nodeaffinity', '$measurePods'),
  pending(eh('nodeupdate-pod-podtopologyspread'), 'podtopologyspread', '$measurePods'),
  attempted(),
  update(eh('nodeupdate-node-without-labels-update'), '$nodes'),
  scheduled(),
  nodes(eh('nodeupdate-node-without-taints'), '$nodes'),
  pending(eh('nodeupdate-pod-tainttoleration'), 'tainttoleration', '$measurePods'),
  attempted(),
  update(eh('nodeupdate-node-without-taints-update'), '$nodes'),
  scheduled(),
  { opcode: 'stopCollectingMetrics' },
];

/** The starvation cases' ops: nodes, a namespace, `setup` (the pod group), churn, the cloggers, then the victims' window. */
function starvation(setup: readonly Op[], cloggerTemplate: string): Op[] {
  return [
    { opcode: 'createNodes', countParam: '$initNodes', nodeTemplatePath: 'starvation/node.yaml' },
    { opcode: 'createNamespaces', prefix: 'starvation', count: 1 },
    ...setup,
    { opcode: 'churn', mode: 'recreate', number: 600, intervalMilliseconds: 1000, namespace: 'starvation-0', templatePaths: ['starvation/churn-pod.yaml'] },
    pending(cloggerTemplate, 'starvation-0', '$cloggerPods'),
    attempted(),
    { opcode: 'startCollectingMetrics', name: 'victim', namespaces: ['starvation-0'] },
    { opcode: 'createPods', countParam: '$starvationProne', podTemplatePath: 'starvation/victim-pod.yaml', namespace: 'starvation-0' },
    { opcode: 'stopCollectingMetrics' },
  ];
}

export const eventHandlingTestCases: readonly TestCase[] = [
  { ...upstream('EventHandlingPodDelete'), workloadTemplate: podDelete },
  { ...upstream('EventHandlingPodUpdate'), workloadTemplate: podUpdate },
  { ...upstream('EventHandlingNodeAdd'), workloadTemplate: nodeAdd },
  { ...upstream('EventHandlingPodAdd'), workloadTemplate: podAdd },
  { ...upstream('EventHandlingNodeUpdate'), workloadTemplate: nodeUpdate },
  {
    // Victim pods measured while unschedulable high-priority cloggers sit in the queue and pods
    // churn every second: the victims must not starve behind the cloggers.
    ...upstream('StarvationIndependent'),
    workloadTemplate: starvation([], 'starvation/clogger-pod.yaml'),
  },
  {
    // The same with the cloggers members of one gang (GenericWorkload): podgroup-0 wants all of
    // them at once, none can be placed, and the victims must still get through.
    ...upstream('StarvationPodGroup'),
    workloadTemplate: starvation(
      [{ opcode: 'createPodGroups', namespace: 'starvation-0', templatePath: 'starvation/podgroup.yaml', countParam: '$initPodGroups', templateParams: { minCount: '$cloggerPods' } }],
      'starvation/clogger-podgroup-pod.yaml',
    ),
  },
  {
    // Every node declares N mock features that every measured pod (pod-level resources) needs.
    ...upstream('NodeDeclaredFeaturesEnabled'),
    defaultPodTemplatePath: 'nodedeclaredfeatures/pod-with-pod-level-resources.yaml',
    mockDeclaredFeaturesParam: '$numNodeDeclaredFeatures',
    workloadTemplate: [
      { opcode: 'createNodes', countParam: '$nodes', nodeTemplatePath: 'nodedeclaredfeatures/node-base.yaml' },
      { opcode: 'createPods', namespace: 'init', countParam: '$initPods' },
      { opcode: 'createPods', namespace: 'test', countParam: '$measurePods', collectMetrics: true },
    ],
  },
];
