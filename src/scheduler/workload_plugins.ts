// The plugins GenericWorkload adds to every profile's multiPoint, as upstream's default plugins do
// with the gate on (apis/config/v1/default_plugins.go applyGangScheduling, and with
// TopologyAwareWorkloadScheduling applyTopologyAwareWorkloadScheduling), unless the profile
// disables them there.
import type { Features } from '../framework/features.js';
import type { PluginRef } from '../api/plugin_sets.js';
import type { ProfileConfig } from '../framework/runtime/profile_plugins.js';

export function withWorkloadPlugins(profile: ProfileConfig, features: Features): ProfileConfig {
  if (!features.enableGenericWorkload) return profile;
  const added: PluginRef[] = [{ name: 'GangScheduling' }];
  // applyTopologyAwareWorkloadScheduling
  if (features.enableTopologyAwareWorkloadScheduling) added.push({ name: 'TopologyPlacementGenerator' }, { name: 'PodGroupPodsCount', weight: 1 });
  const multiPoint = profile.plugins.multiPoint;
  const disabled = new Set((multiPoint?.disabled ?? []).map((d) => d.name));
  const enabled = multiPoint?.enabled ?? [];
  if (disabled.has('*')) return profile;
  const missing = added.filter((a) => !disabled.has(a.name) && !enabled.some((p) => p.name === a.name));
  if (missing.length === 0) return profile;
  return { ...profile, plugins: { ...profile.plugins, multiPoint: { ...multiPoint, enabled: [...enabled, ...missing] } } };
}
