// The scheduling framework's extension points, declared once: their keys in a profile's plugins
// (staging/src/k8s.io/kube-scheduler/config/v1 Plugins struct, in its order) and the plugin type
// each names in messages (framework.PreFilterPlugin, ...). The configuration's plugin sets, its
// decoding schema and messages, and the runtime's table derive from here; the runtime adds a guard
// per point, typed so that a point without one does not compile.

interface ExtensionPointInfo {
  /** The key under `profiles[].plugins`. */
  readonly name: string;
  /** The plugin interface it calls, as upstream's messages name it. */
  readonly pluginType: string;
  /** A pod group extension point (GenericWorkload): configurable whatever the gate, run by the workload runtime. */
  readonly podGroup?: true;
}

const pods = [
  { name: 'preEnqueue', pluginType: 'PreEnqueuePlugin' },
  { name: 'queueSort', pluginType: 'QueueSortPlugin' },
  { name: 'preFilter', pluginType: 'PreFilterPlugin' },
  { name: 'filter', pluginType: 'FilterPlugin' },
  { name: 'postFilter', pluginType: 'PostFilterPlugin' },
  { name: 'preScore', pluginType: 'PreScorePlugin' },
  { name: 'score', pluginType: 'ScorePlugin' },
  { name: 'reserve', pluginType: 'ReservePlugin' },
  { name: 'permit', pluginType: 'PermitPlugin' },
  { name: 'preBind', pluginType: 'PreBindPlugin' },
  { name: 'bind', pluginType: 'BindPlugin' },
  { name: 'postBind', pluginType: 'PostBindPlugin' },
] as const satisfies readonly ExtensionPointInfo[];

/** v1.37's pod group points, after multiPoint in the v1 Plugins struct. */
const podGroups = [
  { name: 'placementGenerate', pluginType: 'PlacementGeneratePlugin', podGroup: true },
  { name: 'placementScore', pluginType: 'PlacementScorePlugin', podGroup: true },
  { name: 'podGroupPostFilter', pluginType: 'PodGroupPostFilterPlugin', podGroup: true },
] as const satisfies readonly ExtensionPointInfo[];

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
