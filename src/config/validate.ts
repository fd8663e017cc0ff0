// Validation of a defaulted KubeSchedulerConfiguration (pkg/scheduler/apis/config/validation/
// validation.go, component-base config/validation), then each plugin's args through the registry.
import { isDeepStrictEqual } from 'node:util';
import { childPath, fieldDuplicate, fieldInvalid, fieldRequired, indexPath, Unquoted, type FieldError } from '../api/field_errors.js';
import { qualifiedNameErrors } from '../api/labels.js';
import { pluginTypeOf } from '../api/extension_points.js';
import { AllPlugins, InTreePluginNames, RemovedPluginNames } from './default_plugins.js';
import { DurationError, parseDurationNanos } from '../util/duration.js';
import type { PluginCatalog } from './plugin_catalog.js';
import {
  ExtensionPoints,
  PluginSetNames,
  type DefaultedConfiguration,
  type DefaultedLeaderElection,
  type DefaultedPluginSet,
  type DefaultedProfile,
  type Extender,
  type KubeSchedulerConfiguration,
} from './types.js';

function validatePercentage(path: string, value: number | null, errs: FieldError[]): void {
  if (value !== null && (value < 0 || value > 100)) errs.push(fieldInvalid(path, value, 'not in valid range [0-100]'));
}

/** Parses a duration for validation; an unparsable one is reported and reads as undefined. */
function durationNanos(path: string, value: string, errs: FieldError[]): number | undefined {
  try {
    return parseDurationNanos(value);
  } catch (err) {
    if (!(err instanceof DurationError)) throw err;
    errs.push(fieldInvalid(path, value, err.message));
    return undefined;
  }
}

function validateLeaderElection(le: DefaultedLeaderElection, errs: FieldError[]): void {
  if (!le.leaderElect) return;
  const path = 'leaderElection';
  const lease = durationNanos(childPath(path, 'leaseDuration'), le.leaseDuration, errs);
  const renew = durationNanos(childPath(path, 'renewDeadline'), le.renewDeadline, errs);
  const retry = durationNanos(childPath(path, 'retryPeriod'), le.retryPeriod, errs);
  const positive = (name: string, nanos: number | undefined, text: string): void => {
    if (nanos !== undefined && nanos <= 0) errs.push(fieldInvalid(childPath(path, name), new Unquoted(text), 'must be greater than zero'));
  };
  positive('leaseDuration', lease, le.leaseDuration);
  positive('renewDeadline', renew, le.renewDeadline);
  positive('retryPeriod', retry, le.retryPeriod);
  if (lease !== undefined && renew !== undefined && lease < renew) {
    errs.push(fieldInvalid(childPath(path, 'leaseDuration'), new Unquoted(le.renewDeadline), 'LeaseDuration must be greater than RenewDeadline'));
  }
  if (le.resourceLock === '') errs.push(fieldInvalid(childPath(path, 'resourceLock'), '', 'resourceLock is required'));
  if (le.resourceNamespace === '') errs.push(fieldInvalid(childPath(path, 'resourceNamespace'), '', 'resourceNamespace is required'));
  if (le.resourceName === '') errs.push(fieldInvalid(childPath(path, 'resourceName'), '', 'resourceName is required'));
  // Only Lease locks remain supported.
  if (le.resourceLock !== 'leases') {
    errs.push(fieldInvalid(childPath(path, 'resourceLock'), le.resourceLock, 'resourceLock value must be "leases"'));
  }
}

function removedPluginMessage(apiVersion: string): string {
  return `was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version ${JSON.stringify(apiVersion)})`;
}

/** The points whose plugins upstream checks for removed ones: not multiPoint nor the placement points. */
const removedPluginPoints = [...ExtensionPoints, 'podGroupPostFilter'] as const;

function validatePluginConfig(path: string, apiVersion: string, profile: DefaultedProfile, registry: PluginCatalog, errs: FieldError[]): void {
  // Removed plugins, per extension point (multiPoint is not checked here, as upstream).
  for (const point of removedPluginPoints) {
    const enabled = profile.plugins[point].enabled;
    for (let i = 0; i < enabled.length; i++) {
      const name = enabled[i]!.name;
      if (RemovedPluginNames.has(name)) {
        errs.push(fieldInvalid(indexPath(`${path}.plugins.${point}.enabled`, i), name, removedPluginMessage(apiVersion)));
      }
    }
  }

  const seen = new Set<string>();
  for (let i = 0; i < profile.pluginConfig.length; i++) {
    const pc = profile.pluginConfig[i]!;
    const pcPath = indexPath(`${path}.pluginConfig`, i);
    if (seen.has(pc.name)) errs.push(fieldDuplicate(pcPath, pc.name));
    else seen.add(pc.name);
    if (RemovedPluginNames.has(pc.name)) {
      errs.push(fieldInvalid(pcPath, pc.name, removedPluginMessage(apiVersion)));
      continue;
    }
    const def = registry.get(pc.name);
    if (def?.validateArgs === undefined || pc.args === undefined) continue;
    const argsPath = `${pcPath}.args`;
    try {
      errs.push(...def.validateArgs(pc.args, argsPath));
    } catch (err) {
      errs.push(fieldInvalid(argsPath, pc.args, err instanceof Error ? err.message : String(err)));
    }
  }
}

const sameRefs = (a: DefaultedPluginSet, b: DefaultedPluginSet): boolean =>
  a.enabled.length === b.enabled.length &&
  a.disabled.length === b.disabled.length &&
  a.enabled.every((p, i) => p.name === b.enabled[i]!.name && (p.weight ?? 0) === (b.enabled[i]!.weight ?? 0)) &&
  a.disabled.every((p, i) => p.name === b.disabled[i]!.name);

/** Every profile must use the same queue sort plugin with the same args. */
function validateCommonQueueSort(profiles: readonly DefaultedProfile[], errs: FieldError[]): void {
  const canon = profiles[0]!.plugins.queueSort;
  const queueSortName = canon.enabled[0]?.name ?? '';
  if (canon.enabled.length > 1) {
    errs.push(fieldInvalid('profiles[0].plugins.queueSort.enabled', canon.enabled.length, 'only one queue sort plugin can be enabled'));
  }
  let queueSortArgs: unknown;
  for (const pc of profiles[0]!.pluginConfig) if (queueSortName !== '' && pc.name === queueSortName) queueSortArgs = pc.args;
  for (let i = 1; i < profiles.length; i++) {
    const curr = profiles[i]!.plugins.queueSort;
    if (!sameRefs(canon, curr)) {
      errs.push(fieldInvalid(`profiles[${i}].plugins.queueSort`, curr, 'must be the same for all profiles'));
    }
    for (const pc of profiles[i]!.pluginConfig) {
      if (pc.name === queueSortName && !isDeepStrictEqual(queueSortArgs, pc.args)) {
        errs.push(fieldInvalid(`profiles[${i}].pluginConfig.args`, pc.args, 'queueSort must be the same for all profiles'));
      }
    }
  }
}

/** In-tree plugins that implement the extension points whose count a profile's framework checks. */
const inTreeQueueSortPlugins: ReadonlySet<string> = new Set(['PrioritySort']);
const inTreeBindPlugins: ReadonlySet<string> = new Set(['DefaultBinder']);
const inTreePlacementGeneratePlugins: ReadonlySet<string> = new Set(['TopologyPlacementGenerator']);

/** The plugins a framework will place at `point`: the point's own, then multiPoint's not disabled there. */
function pluginsAt(profile: DefaultedProfile, point: 'bind' | 'queueSort' | 'placementGenerate'): string[] {
  const set = profile.plugins[point];
  const disabled = new Set(set.disabled.map((d) => d.name));
  const names = set.enabled.map((p) => p.name);
  if (disabled.has(AllPlugins)) return names;
  for (const p of profile.plugins.multiPoint.enabled) if (!disabled.has(p.name) && !names.includes(p.name)) names.push(p.name);
  return names;
}

/**
 * What building the profile's framework would refuse and the configuration already shows: no
 * bind plugin, or no queue sort plugin (runtime/framework.go NewFramework). Out-of-tree plugins
 * may implement either, so a profile naming one is left to the framework.
 */
function validatePluginCounts(profile: DefaultedProfile, path: string, errs: FieldError[]): void {
  const bind = pluginsAt(profile, 'bind');
  if (bind.every((n) => InTreePluginNames.has(n)) && !bind.some((n) => inTreeBindPlugins.has(n))) {
    errs.push(fieldRequired(`${path}.plugins.bind`, `at least one bind plugin is needed for profile with scheduler name ${JSON.stringify(profile.schedulerName)}`));
  }
  const sort = pluginsAt(profile, 'queueSort');
  if (sort.every((n) => InTreePluginNames.has(n)) && !sort.some((n) => inTreeQueueSortPlugins.has(n))) {
    errs.push(fieldRequired(`${path}.plugins.queueSort`, `only one queue sort plugin required for profile with scheduler name ${JSON.stringify(profile.schedulerName)}, but got 0`));
  }
  // Every plugin named at placementGenerate itself is one; from multiPoint, the in-tree ones that are.
  const explicit = profile.plugins.placementGenerate.enabled.map((p) => p.name);
  const generators = pluginsAt(profile, 'placementGenerate').filter((n) => explicit.includes(n) || inTreePlacementGeneratePlugins.has(n));
  if (generators.length > 1) {
    errs.push(fieldInvalid(`${path}.plugins.placementGenerate`, generators.length, `at most one placement generate plugin is allowed for profile with scheduler name ${JSON.stringify(profile.schedulerName)}`));
  }
}

/** apimachinery's IsQualifiedName: the messages for an invalid "prefix/name" or "name". */
export const isQualifiedName = qualifiedNameErrors;

/** v1helper.IsExtendedResourceName: domain-qualified, outside kubernetes.io, quota-name safe. */
function isExtendedResourceName(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  if (native || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

function validateExtenders(extenders: readonly Extender[], errs: FieldError[]): void {
  let binders = 0;
  const managed = new Set<string>();
  for (let i = 0; i < extenders.length; i++) {
    const e = extenders[i]!;
    const path = indexPath('extenders', i);
    if ((e.prioritizeVerb ?? '') !== '' && (e.weight ?? 0) <= 0) {
      errs.push(fieldInvalid(`${path}.weight`, e.weight ?? 0, 'must have a positive weight applied to it'));
    }
    if ((e.bindVerb ?? '') !== '') binders++;
    const resources = e.managedResources ?? [];
    for (let j = 0; j < resources.length; j++) {
      const name = resources[j]!.name;
      const namePath = `${indexPath(`${path}.managedResources`, j)}.name`;
      const nameErrs = isQualifiedName(name);
      for (const msg of nameErrs) errs.push(fieldInvalid(namePath, name, msg));
      if (nameErrs.length === 0 && !isExtendedResourceName(name)) {
        errs.push(fieldInvalid(namePath, name, 'is an invalid extended resource name'));
      }
      if (managed.has(name)) errs.push(fieldInvalid(namePath, name, 'duplicate extender managed resource name'));
      managed.add(name);
    }
  }
  if (binders > 1) {
    errs.push(fieldInvalid('extenders', `found ${binders} extenders implementing bind`, 'only one extender can implement bind'));
  }
}

/**
 * Upstream's ValidateKubeSchedulerConfiguration on a defaulted configuration, plus each
 * configured plugin's args validation from the registry. Returns every problem found.
 */
export function validateConfiguration(cfg: DefaultedConfiguration, registry: PluginCatalog): FieldError[] {
  const errs: FieldError[] = [];
  if (cfg.clientConnection.burst < 0) errs.push(fieldInvalid('clientConnection.burst', cfg.clientConnection.burst, 'must be non-negative'));
  validateLeaderElection(cfg.leaderElection, errs);

  if (cfg.parallelism <= 0) errs.push(fieldInvalid('parallelism', cfg.parallelism, 'should be an integer value greater than zero'));

  if (cfg.profiles.length === 0) {
    errs.push(fieldRequired('profiles'));
  } else {
    const byName = new Map<string, number>();
    for (let i = 0; i < cfg.profiles.length; i++) {
      const profile = cfg.profiles[i]!;
      const path = indexPath('profiles', i);
      if (profile.schedulerName === '') errs.push(fieldRequired(`${path}.schedulerName`));
      validatePercentage(`${path}.percentageOfNodesToScore`, profile.percentageOfNodesToScore, errs);
      validatePluginConfig(path, cfg.apiVersion, profile, registry, errs);
      validatePluginCounts(profile, path, errs);
      const first = byName.get(profile.schedulerName);
      if (first !== undefined) {
        errs.push(fieldDuplicate(`${path}.schedulerName`, new Unquoted(`profiles[${first}].schedulerName`)));
      }
      byName.set(profile.schedulerName, i);
    }
    validateCommonQueueSort(cfg.profiles, errs);
  }

  validatePercentage('percentageOfNodesToScore', cfg.percentageOfNodesToScore, errs);
  if (cfg.podInitialBackoffSeconds <= 0) {
    errs.push(fieldInvalid('podInitialBackoffSeconds', cfg.podInitialBackoffSeconds, 'must be greater than 0'));
  }
  if (cfg.podMaxBackoffSeconds < cfg.podInitialBackoffSeconds) {
    errs.push(fieldInvalid('podMaxBackoffSeconds', cfg.podMaxBackoffSeconds, 'must be greater than or equal to PodInitialBackoffSeconds'));
  }
  validateExtenders(cfg.extenders, errs);
  return errs;
}


/**
 * Checks the plugins a user enabled, at their paths in the user's file (before defaults are
 * merged in): a name that is neither in the registry nor an upstream in-tree plugin does not exist
 * (upstream fails when building the framework), and a score weight may not be negative.
 */
export function validatePluginReferences(cfg: KubeSchedulerConfiguration, registry: PluginCatalog): FieldError[] {
  const errs: FieldError[] = [];
  const profiles = cfg.profiles ?? [];
  for (let i = 0; i < profiles.length; i++) {
    const plugins = profiles[i]!.plugins ?? {};
    for (const point of PluginSetNames) {
      const enabled = plugins[point]?.enabled ?? [];
      for (let k = 0; k < enabled.length; k++) {
        const p = enabled[k]!;
        const path = indexPath(`profiles[${i}].plugins.${point}.enabled`, k);
        // Reported as removed at the points upstream checks for that, as unknown elsewhere.
        const removedHere = RemovedPluginNames.has(p.name) && (removedPluginPoints as readonly string[]).includes(point);
        if (!removedHere && !registry.has(p.name) && !InTreePluginNames.has(p.name)) {
          errs.push(fieldInvalid(`${path}.name`, p.name ?? '', `${pluginTypeOf(point)} ${JSON.stringify(p.name ?? '')} does not exist`));
        }
        if ((point === 'score' || point === 'multiPoint' || point === 'placementScore') && p.weight !== undefined && p.weight < 0) {
          errs.push(fieldInvalid(`${path}.weight`, p.weight, 'must not be negative'));
        }
      }
    }
  }
  return errs;
}
