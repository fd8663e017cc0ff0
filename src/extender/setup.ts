// Turns the configuration's `extenders` into the list the scheduler calls and the profiles it runs
// (scheduler.go New/buildExtenders): resources an extender manages with ignoredByScheduler become
// every profile's NodeResourcesFit ignoredResources.
import type { Extender as ExtenderConfig } from '../config/types.js';
import { NodeResourcesFit as FitPlugin } from '../framework/names.js';
import type { ProfileConfig } from '../framework/runtime/profile_plugins.js';
import { buildExtenders } from './build.js';
import type { Extender } from '../framework/extender.js';
import type { ExtenderTransport } from './transport.js';

export interface ExtenderSetup {
  readonly extenders: Extender[];
  readonly profiles: ProfileConfig[];
}

/** The extenders and the profiles adjusted for them; the profiles are returned unchanged without any. */
export function setUpExtenders(configs: readonly ExtenderConfig[], profiles: ProfileConfig[], transport?: ExtenderTransport): ExtenderSetup {
  if (configs.length === 0) return { extenders: [], profiles };
  const built = buildExtenders(configs, transport);
  if (built.ignoredResources.length === 0) return { extenders: built.extenders, profiles };
  return { extenders: built.extenders, profiles: profiles.map((p) => withIgnoredResources(p, built.ignoredResources)) };
}

/** The profile with NodeResourcesFit's ignoredResources replaced, as upstream does. */
function withIgnoredResources(profile: ProfileConfig, ignored: readonly string[]): ProfileConfig {
  const configs = profile.pluginConfig ?? [];
  const i = configs.findIndex((c) => c.name === FitPlugin);
  if (i < 0) throw new Error(`profile ${profile.schedulerName}: can't find NodeResourcesFitArgs in plugin config`);
  const pluginConfig = [...configs];
  pluginConfig[i] = { name: FitPlugin, args: { ...(configs[i]!.args as object), ignoredResources: [...ignored] } };
  return { ...profile, pluginConfig };
}
