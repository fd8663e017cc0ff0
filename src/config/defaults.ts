// Defaulting of KubeSchedulerConfiguration v1 (pkg/scheduler/apis/config/v1/defaults.go
// SetDefaults_KubeSchedulerConfiguration, component-base RecommendedDefaultLeaderElectionConfiguration).
import { fieldInvalid, type FieldError } from '../api/field_errors.js';
import { enabledPluginNames, getDefaultPlugins, mergePlugins } from './default_plugins.js';
import { parseDurationNanos } from '../util/duration.js';
import { ConfigError } from './errors.js';
import type { PluginArgsDefinition, PluginCatalog } from './plugin_catalog.js';
import { isPlainObject } from './schema.js';
import { DefaultLockObjectName, DefaultLockObjectNamespace } from './lease_defaults.js';
import {
  DefaultPercentageOfNodesToScore,
  DefaultSchedulerName,
  SchedulerConfigAPIVersion,
  SchedulerConfigKind,
  type DefaultedClientConnection,
  type DefaultedConfiguration,
  type DefaultedLeaderElection,
  type DefaultedProfile,
  type KubeSchedulerConfiguration,
  type KubeSchedulerProfile,
  type PluginConfig,
} from './types.js';

const DefaultParallelism = 16;
const DefaultPodInitialBackoffSeconds = 1;
const DefaultPodMaxBackoffSeconds = 10;
const DefaultLeaseDuration = '15s';
const DefaultRenewDeadline = '10s';
const DefaultRetryPeriod = '2s';
const DefaultResourceLock = 'leases';
const DefaultContentType = 'application/vnd.kubernetes.protobuf';
const DefaultQPS = 50;
const DefaultBurst = 100;

/** Whether a plugin takes args, so an enabled one without pluginConfig gets its defaults. */
function takesArgs(def: PluginArgsDefinition | undefined): def is PluginArgsDefinition {
  return def !== undefined && (def.argsKind !== undefined || def.defaultArgs !== undefined);
}

/** Runs the plugin's args defaulting on a copy of what the user gave; a throw becomes a field error. */
function defaultArgs(def: PluginArgsDefinition | undefined, given: unknown, path: string, errors: FieldError[]): unknown {
  if (def?.defaultArgs === undefined) return given;
  const input = isPlainObject(given) ? (structuredClone(given) as Record<string, unknown>) : {};
  try {
    return def.defaultArgs(input);
  } catch (err) {
    errors.push(fieldInvalid(path, given ?? {}, err instanceof Error ? err.message : String(err)));
    return given;
  }
}

function defaultProfile(prof: KubeSchedulerProfile, schedulerName: string, registry: PluginCatalog, errors: FieldError[], index: number): DefaultedProfile {
  const plugins = mergePlugins(getDefaultPlugins(), prof.plugins);

  const pluginConfig: PluginConfig[] = [];
  const configured = new Set<string>();
  const given = prof.pluginConfig ?? [];
  for (let j = 0; j < given.length; j++) {
    const pc = given[j]!;
    configured.add(pc.name);
    const args = defaultArgs(registry.get(pc.name), pc.args, `profiles[${index}].pluginConfig[${j}].args`, errors);
    pluginConfig.push(args === undefined ? { name: pc.name } : { name: pc.name, args });
  }
  // Enabled plugins that take args and were not configured get their default args, by name.
  for (const name of enabledPluginNames(plugins)) {
    if (configured.has(name)) continue;
    const def = registry.get(name);
    if (!takesArgs(def)) continue;
    const path = `profiles[${index}].pluginConfig[${pluginConfig.length}].args`;
    pluginConfig.push({ name, args: defaultArgs(def, {}, path, errors) ?? {} });
  }

  return {
    schedulerName,
    percentageOfNodesToScore: prof.percentageOfNodesToScore ?? null,
    plugins,
    pluginConfig,
  };
}

/** A zero or unset duration takes the default, as component-base compares with metav1.Duration{}. */
function durationOrDefault(value: string | undefined, def: string): string {
  if (value === undefined) return def;
  try {
    return parseDurationNanos(value) === 0 ? def : value;
  } catch {
    return value; // left for validation to report
  }
}

/**
 * Applies upstream's v1 defaults (plugins, plugin args through the registry, leader election,
 * client connection, backoff, profiling). Problems raised by a plugin's args defaulting are
 * appended to `errors` when given, and thrown as a ConfigError otherwise.
 */
export function setDefaults(cfg: KubeSchedulerConfiguration, registry: PluginCatalog, errors?: FieldError[]): DefaultedConfiguration {
  const issues: FieldError[] = errors ?? [];

  const userProfiles = cfg.profiles && cfg.profiles.length > 0 ? cfg.profiles : [{}];
  // Only a single profile gets the default name; validation rejects several unnamed ones.
  const single = userProfiles.length === 1;
  const profiles = userProfiles.map((p, i) =>
    defaultProfile(p, p.schedulerName ?? (single ? DefaultSchedulerName : ''), registry, issues, i),
  );

  const le = cfg.leaderElection ?? {};
  const leaderElection: DefaultedLeaderElection = {
    leaderElect: le.leaderElect ?? true,
    leaseDuration: durationOrDefault(le.leaseDuration, DefaultLeaseDuration),
    renewDeadline: durationOrDefault(le.renewDeadline, DefaultRenewDeadline),
    retryPeriod: durationOrDefault(le.retryPeriod, DefaultRetryPeriod),
    resourceLock: le.resourceLock || DefaultResourceLock,
    resourceName: le.resourceName || DefaultLockObjectName,
    resourceNamespace: le.resourceNamespace || DefaultLockObjectNamespace,
  };

  const cc = cfg.clientConnection ?? {};
  const clientConnection: DefaultedClientConnection = {
    kubeconfig: cc.kubeconfig ?? '',
    acceptContentTypes: cc.acceptContentTypes ?? '',
    contentType: cc.contentType || DefaultContentType,
    qps: cc.qps || DefaultQPS,
    burst: cc.burst || DefaultBurst,
  };

  const enableProfiling = cfg.enableProfiling ?? true;
  const out: DefaultedConfiguration = {
    apiVersion: SchedulerConfigAPIVersion,
    kind: SchedulerConfigKind,
    parallelism: cfg.parallelism ?? DefaultParallelism,
    leaderElection,
    clientConnection,
    enableProfiling,
    // Contention profiling defaults on only with profiling; unset otherwise reads as false.
    enableContentionProfiling: cfg.enableContentionProfiling ?? enableProfiling,
    percentageOfNodesToScore: cfg.percentageOfNodesToScore ?? DefaultPercentageOfNodesToScore,
    podInitialBackoffSeconds: cfg.podInitialBackoffSeconds ?? DefaultPodInitialBackoffSeconds,
    podMaxBackoffSeconds: cfg.podMaxBackoffSeconds ?? DefaultPodMaxBackoffSeconds,
    profiles,
    extenders: (cfg.extenders ?? []).map((e) => ({ ...e })),
    delayCacheUntilActive: cfg.delayCacheUntilActive ?? false,
  };
  if (cfg.healthzBindAddress !== undefined) out.healthzBindAddress = cfg.healthzBindAddress;
  if (cfg.metricsBindAddress !== undefined) out.metricsBindAddress = cfg.metricsBindAddress;

  if (errors === undefined && issues.length > 0) throw new ConfigError('config', issues);
  return out;
}

/** The configuration an empty KubeSchedulerConfiguration defaults to. */
export function defaultConfiguration(registry: PluginCatalog): DefaultedConfiguration {
  return setDefaults({}, registry);
}

/** Args of each configured plugin of a profile, by plugin name. */
export function pluginArgsByName(profile: DefaultedProfile): Map<string, unknown> {
  const byName = new Map<string, unknown>();
  for (const pc of profile.pluginConfig) if (!byName.has(pc.name)) byName.set(pc.name, pc.args);
  return byName;
}

/** The weight a score plugin runs with: unset or 0 means 1 (framework getScoreWeights). */
export function effectiveScoreWeight(weight: number | undefined): number {
  return weight === undefined || weight === 0 ? 1 : weight;
}
