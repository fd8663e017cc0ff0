// The plugins GenericWorkload adds to every profile's multiPoint, as upstream's default plugins do
// with the gate on (apis/config/v1/default_plugins.go applyGangScheduling), unless the profile
// disables them there.
import type { Features } from '../framework/features.js';
import type { ProfileConfig } from '../framework/runtime/framework.js';

export function withWorkloadPlugins(profile: ProfileConfig, features: Features): ProfileConfig {
  if (!features.enableGenericWorkload) return profile;
  const multiPoint = profile.plugins.multiPoint;
  const disabled = new Set((multiPoint?.disabled ?? []).map((d) => d.name));
  const enabled = multiPoint?.enabled ?? [];
  if (disabled.has('*') || disabled.has('GangScheduling') || enabled.some((p) => p.name === 'GangScheduling')) return profile;
  return { ...profile, plugins: { ...profile.plugins, multiPoint: { ...multiPoint, enabled: [...enabled, { name: 'GangScheduling' }] } } };
}
