// The flags that read a live cluster instead of a scenario file (`--from-cluster` of simulate,
// explain, serve, capacity and compare; `snapshot`; declared in specs.ts), parsed and checked; kept
// apart from the client so that commands reading files do not load @kubernetes/client-node.
import { idleWorkloadsWarning } from '../../sim/scenario/idle_workloads.js';
import type { DefaultedConfiguration } from '../../config/index.js';
import type { Registry } from '../../framework/registry.js';
import type { ResolvedConfig } from '../../scheduler/scheduler.js';
import type { FeatureGates } from '../../config/feature_gates.js';
import { loadScenario, type Scenario, type ScenarioLoadOptions } from '../../sim/scenario/scenario.js';
import { clusterGates } from '../../sim/scenario/embedded.js';
import { podGroupFieldGates } from '../../cluster/memory/store.js';
import { resolveConfiguration } from '../configuration.js';
import { defaultScenarioPath } from '../default_scenario.js';
import { UsageError, type CliIO } from '../io.js';
import type { ClusterFlags } from './from_cluster.js';


interface ClusterFlagValues {
  kubeconfig?: string;
  namespace?: string[];
  selector?: string;
  'field-selector'?: string;
  'kube-api-qps'?: string;
  'kube-api-burst'?: string;
  'page-size'?: string;
}

/** A flag's positive number (or integer), `dflt` when absent; a usage error otherwise. */
export function positive(flag: string, v: string | undefined, dflt: number, integer: boolean): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${flag} must be a positive ${integer ? 'integer' : 'number'}, got "${v}"`);
  }
  return n;
}

function parseClusterFlags(values: ClusterFlagValues): ClusterFlags {
  return {
    kubeconfig: values.kubeconfig,
    namespaces: (values.namespace ?? []).flatMap((n) => n.split(',')).map((n) => n.trim()).filter(Boolean),
    labelSelector: values.selector,
    fieldSelector: values['field-selector'],
    qps: positive('kube-api-qps', values['kube-api-qps'], 50, false),
    burst: positive('kube-api-burst', values['kube-api-burst'], 100, true),
    pageSize: positive('page-size', values['page-size'], 500, true),
  };
}

/** The cluster flags only make sense with --from-cluster (snapshot always reads a cluster). */
function checkClusterFlagsUsed(values: ClusterFlagValues & { 'from-cluster'?: boolean }, positionals: readonly string[]): boolean {
  const fromCluster = values['from-cluster'] ?? false;
  if (fromCluster && positionals.length > 0) throw new UsageError(`--from-cluster reads the cluster instead of a scenario file; drop "${positionals[0]}"`);
  if (!fromCluster) {
    const stray = (['kubeconfig', 'namespace', 'selector', 'field-selector', 'kube-api-qps', 'kube-api-burst', 'page-size'] as const).find((k) => values[k] !== undefined);
    if (stray) throw new UsageError(`--${stray} needs --from-cluster`);
  }
  return fromCluster;
}

/**
 * The scenario file (the bundled default when none is named) or, with --from-cluster, the live
 * cluster, whose unbound pods come along when one of `schedulerNames` schedules them.
 */
export async function loadScenarioOrCluster(
  values: ClusterFlagValues & { 'from-cluster'?: boolean },
  positionals: readonly string[],
  schedulerNames: readonly string[],
  io: CliIO,
  featureGates?: FeatureGates,
): Promise<Scenario> {
  if (!checkClusterFlagsUsed(values, positionals)) return loadScenario(positionals[0] ?? defaultScenarioPath(), loadOptions(featureGates));
  // Loaded on use: @kubernetes/client-node takes over a second to import.
  const { scenarioFromCluster } = await import('./from_cluster.js');
  return scenarioFromCluster(parseClusterFlags(values), schedulerNames, io);
}

/** The scenario (file or cluster) and the configuration: --config, else the scenario's own, else the defaults. */
export async function loadScenarioAndConfig(
  values: ClusterFlagValues & { 'from-cluster'?: boolean; config?: string },
  positionals: readonly string[],
  registry: Registry,
  io: CliIO,
  featureGates?: FeatureGates,
): Promise<{ scenario: Scenario; config: ResolvedConfig & DefaultedConfiguration }> {
  if (!checkClusterFlagsUsed(values, positionals)) {
    const scenario = loadScenario(positionals[0] ?? defaultScenarioPath(), loadOptions(featureGates));
    const idle = idleWorkloadsWarning(scenario);
    if (idle !== null) io.stderr(`warning: ${idle}\n`);
    return { scenario, config: resolveConfiguration({ scenario, configPath: values.config, registry }) };
  }
  const config = resolveConfiguration({ configPath: values.config, registry });
  const scenario = await loadScenarioOrCluster(values, positionals, config.profiles.map((p) => p.schedulerName), io, featureGates);
  return { scenario, config };
}

/** A scenario's PodGroups and Workloads lose the fields of the run's gates that are off, as kube-apiserver drops them. */
export function loadOptions(featureGates: FeatureGates | undefined): ScenarioLoadOptions {
  return featureGates === undefined ? {} : { gates: podGroupFieldGates(clusterGates(featureGates)) };
}
