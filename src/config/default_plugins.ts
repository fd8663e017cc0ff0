// The default plugin set and how a profile's plugin sets merge into it
// (pkg/scheduler/apis/config/v1/default_plugins.go).
import {
  PluginSetNames,
  type DefaultedPlugins,
  type DefaultedPluginSet,
  type PluginRef,
  type Plugins,
  type PluginSet,
} from './types.js';

/** Disabling "*" at an extension point disables every default plugin there. */
export const AllPlugins = '*';

/**
 * The default plugins of upstream v1.37.2 (feature gates at their defaults), all enabled through
 * multiPoint, with the score weights upstream gives them. DynamicResources is in the set because
 * DynamicResourceAllocation is locked on (weight 2 since its Score, v1.35); it sits before
 * DefaultPreemption so that PostFilter frees an idle claim before evicting pods.
 * NodeDeclaredFeatures (locked on) comes last. The gates that add DeferredPodScheduling,
 * GangScheduling and the topology-aware placement plugins are off by default.
 */
export const DefaultMultiPointPlugins: readonly Readonly<PluginRef>[] = [
  { name: 'SchedulingGates' },
  { name: 'PrioritySort' },
  { name: 'NodeName' },
  { name: 'NodeUnschedulable' },
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodePorts' },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'VolumeRestrictions' },
  { name: 'NodeVolumeLimits' },
  { name: 'VolumeBinding' },
  { name: 'VolumeZone' },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'DynamicResources', weight: 2 },
  { name: 'DefaultPreemption' },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
  { name: 'DefaultBinder' },
  { name: 'NodeDeclaredFeatures' },
];

/**
 * In upstream v1.37's registry (plugins/registry.go) but in no default profile: their gates
 * (InPlacePodVerticalScalingSchedulerPreemption, GenericWorkload, TopologyAwareWorkloadScheduling)
 * are off by default.
 */
export const GatedInTreePluginNames: readonly string[] = ['DeferredPodScheduling', 'GangScheduling', 'TopologyPlacementGenerator', 'PodGroupPodsCount'];

/** Every in-tree plugin of upstream v1.37's registry (plugins/registry.go). */
export const InTreePluginNames: ReadonlySet<string> = new Set([...DefaultMultiPointPlugins.map((p) => p.name), ...GatedInTreePluginNames]);

/** Plugins the v1 API no longer accepts (validation.go invalidPluginsByVersion). */
export const RemovedPluginNames: ReadonlySet<string> = new Set(['AzureDiskLimits', 'CinderLimits', 'EBSLimits', 'GCEPDLimits']);

const copyRef = (p: Readonly<PluginRef>): PluginRef => (p.weight === undefined ? { name: p.name } : { name: p.name, weight: p.weight });

function emptySet(): DefaultedPluginSet {
  return { enabled: [], disabled: [] };
}

/** A fresh copy of the default plugins: everything in multiPoint, other points empty. */
export function getDefaultPlugins(): DefaultedPlugins {
  const plugins = {} as DefaultedPlugins;
  for (const name of PluginSetNames) plugins[name] = emptySet();
  plugins.multiPoint.enabled = DefaultMultiPointPlugins.map(copyRef);
  return plugins;
}

/**
 * Merges a user's plugin set into a default one: disabled names (or "*") drop defaults, a user
 * entry for a default plugin replaces it in place (keeping its position), the remaining user
 * entries are appended in their order. Duplicates are kept; the framework rejects them.
 */
export function mergePluginSet(defaults: DefaultedPluginSet, custom: PluginSet | undefined): DefaultedPluginSet {
  const disabled: { name: string }[] = [];
  const disabledNames = new Set<string>();
  for (const d of custom?.disabled ?? []) {
    disabled.push({ name: d.name });
    disabledNames.add(d.name);
  }
  for (const d of defaults.disabled) {
    disabled.push({ name: d.name });
    disabledNames.add(d.name);
  }

  const customEnabled = custom?.enabled ?? [];
  // The last custom entry of a name wins, as a Go map keyed by name would keep it.
  const customIndexByName = new Map<string, number>();
  for (let i = 0; i < customEnabled.length; i++) customIndexByName.set(customEnabled[i]!.name, i);

  const enabled: PluginRef[] = [];
  const replaced = new Set<number>();
  if (!disabledNames.has(AllPlugins)) {
    for (const p of defaults.enabled) {
      if (disabledNames.has(p.name)) continue;
      const idx = customIndexByName.get(p.name);
      if (idx === undefined) {
        enabled.push(copyRef(p));
      } else {
        enabled.push(copyRef(customEnabled[idx]!));
        replaced.add(idx);
      }
    }
  }
  for (let i = 0; i < customEnabled.length; i++) {
    if (!replaced.has(i)) enabled.push(copyRef(customEnabled[i]!));
  }
  return { enabled, disabled };
}

/** Merges a profile's plugins into the defaults; an absent `plugins` keeps the defaults. */
export function mergePlugins(defaults: DefaultedPlugins, custom: Plugins | undefined): DefaultedPlugins {
  if (custom === undefined) return defaults;
  const merged = {} as DefaultedPlugins;
  for (const name of PluginSetNames) merged[name] = mergePluginSet(defaults[name], custom[name]);
  return merged;
}

/** Names enabled at any point but podGroupPostFilter, which defaults.go pluginsNames leaves out, sorted. */
export function enabledPluginNames(plugins: DefaultedPlugins): string[] {
  const names = new Set<string>();
  for (const set of PluginSetNames) if (set !== 'podGroupPostFilter') for (const p of plugins[set].enabled) names.add(p.name);
  return [...names].sort(compareStrings);
}

/** Byte-wise string order, as Go's sort of strings. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
