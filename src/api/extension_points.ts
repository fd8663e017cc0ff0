// The scheduling framework's extension points, declared once: their keys in a profile's plugins
// (staging/src/k8s.io/kube-scheduler/config/v1 Plugins struct, in its order), the plugin type
// each names in messages (framework.PreFilterPlugin, ...) and the labels its durations carry in
// metrics (pkg/scheduler/metrics/metrics.go). The configuration's plugin sets, its decoding
// schema and messages, the runtime's table and the metrics' label type derive from here; the
// runtime adds a guard per point, typed so that a point without one does not compile.

interface ExtensionPointInfo {
  /** The key under `profiles[].plugins`. */
  readonly name: string;
  /** The plugin interface it calls, as upstream's messages name it. */
  readonly pluginType: string;
  /** A pod group extension point (GenericWorkload): configurable whatever the gate, run by the workload runtime. */
  readonly podGroup?: true;
  /** The extension_point labels of its calls' durations (scheduler_framework_extension_point_duration_seconds, ...). */
  readonly labels: readonly string[];
}

const pods = [
  { name: 'preEnqueue', pluginType: 'PreEnqueuePlugin', labels: [] },
  { name: 'queueSort', pluginType: 'QueueSortPlugin', labels: [] },
  { name: 'preFilter', pluginType: 'PreFilterPlugin', labels: ['PreFilter', 'PreFilterExtensionAddPod', 'PreFilterExtensionRemovePod'] },
  { name: 'filter', pluginType: 'FilterPlugin', labels: ['Filter'] },
  { name: 'postFilter', pluginType: 'PostFilterPlugin', labels: ['PostFilter'] },
  { name: 'preScore', pluginType: 'PreScorePlugin', labels: ['PreScore'] },
  { name: 'score', pluginType: 'ScorePlugin', labels: ['Score', 'ScoreExtensionNormalize'] },
  { name: 'reserve', pluginType: 'ReservePlugin', labels: ['Reserve', 'Unreserve'] },
  { name: 'permit', pluginType: 'PermitPlugin', labels: ['Permit'] },
  { name: 'preBind', pluginType: 'PreBindPlugin', labels: ['PreBind', 'PreBindPreFlight'] },
  { name: 'bind', pluginType: 'BindPlugin', labels: ['Bind'] },
  { name: 'postBind', pluginType: 'PostBindPlugin', labels: ['PostBind'] },
] as const satisfies readonly ExtensionPointInfo[];

/** v1.37's pod group points, after multiPoint in the v1 Plugins struct. */
const podGroups = [
  { name: 'placementGenerate', pluginType: 'PlacementGeneratePlugin', podGroup: true, labels: ['PlacementGenerate'] },
  { name: 'placementScore', pluginType: 'PlacementScorePlugin', podGroup: true, labels: ['PlacementScore', 'PlacementScoreExtensionNormalize'] },
  { name: 'podGroupPostFilter', pluginType: 'PodGroupPostFilterPlugin', podGroup: true, labels: ['PodGroupPostFilter'] },
] as const satisfies readonly ExtensionPointInfo[];

/**
 * Durations labelled by calls no plugin set configures: Sign (the PreFilter, Filter, PreScore and
 * Score plugins' signPod, with OpportunisticBatching) and PlacementFeasible (every plugin that
 * implements it, in a pod group's cycle).
 */
const unconfigured = [{ labels: ['Sign', 'PlacementFeasible'] }] as const;

/** An extension_point label of the duration metrics ("PreFilter", "ScoreExtensionNormalize"). */
export type ExtensionPointLabel = [...typeof pods, ...typeof podGroups, ...typeof unconfigured][number]['labels'][number];

/** Every extension_point label the duration metrics may carry, from the table. */
export const extensionPointLabels: readonly ExtensionPointLabel[] = [...pods, ...podGroups, ...unconfigured].flatMap((p) => p.labels);

/** The pod extension points, in the v1 Plugins struct's order. */
export const podExtensionPoints: readonly (typeof pods)[number][] = pods;

/**
 * The points the runtime runs for a profile: the pod points, then the placement points of a pod
 * group's cycle (TopologyAwareWorkloadScheduling). PodGroupPostFilter is DefaultPreemption's.
 */
export const runtimeExtensionPoints = [...pods, podGroups[0], podGroups[1]] as const;
/** A point the runtime runs ("preFilter", "placementScore"). */
export type RuntimeExtensionPointName = (typeof runtimeExtensionPoints)[number]['name'];

/** A pod extension point's key ("preFilter"). */
export type ExtensionPointName = (typeof pods)[number]['name'];
/** A pod group extension point's key. */
type PodGroupExtensionPointName = (typeof podGroups)[number]['name'];
/** Every key of `profiles[].plugins`. */
export type PluginSetName = ExtensionPointName | 'multiPoint' | PodGroupExtensionPointName;

/** Every key of `profiles[].plugins`, in the v1 Plugins struct's order. */
export const pluginSetNames: readonly PluginSetName[] = [...pods.map((p) => p.name), 'multiPoint', ...podGroups.map((p) => p.name)];

/** The plugin type named in messages about a plugin set; multiPoint's plugins are just "plugin". */
export function pluginTypeOf(set: PluginSetName): string {
  if (set === 'multiPoint') return 'plugin';
  for (const p of pods) if (p.name === set) return p.pluginType;
  for (const p of podGroups) if (p.name === set) return p.pluginType;
  throw new Error(`unknown plugin set ${set}`);
}
