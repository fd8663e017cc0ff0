// KubeSchedulerConfiguration in its kubescheduler.config.k8s.io/v1 JSON shape
// (staging/src/k8s.io/kube-scheduler/config/v1/types.go), plus the defaulted form the runtime reads.

import { pluginSetNames, podExtensionPoints, type ExtensionPointName, type PluginSetName } from '../api/extension_points.js';
import type { PluginConfig, PluginRef, PluginSet, Plugins } from '../api/plugin_sets.js';

export type { PluginConfig, PluginRef, PluginSet, Plugins };

export const SchedulerConfigAPIVersion = 'kubescheduler.config.k8s.io/v1';
export const SchedulerConfigKind = 'KubeSchedulerConfiguration';
/** The profile name pods get when they do not set spec.schedulerName (v1.DefaultSchedulerName). */
export const DefaultSchedulerName = 'default-scheduler';
/** 0 means adaptive: 50% of nodes minus nodes/125, at least 5% (config.DefaultPercentageOfNodesToScore). */
export const DefaultPercentageOfNodesToScore = 0;

/** The pod extension points a profile configures, in the order of the v1 Plugins struct (api/extension_points.ts). */
export const ExtensionPoints: readonly ExtensionPointName[] = podExtensionPoints.map((p) => p.name);
export type { PluginSetName };
/** Every key of `profiles[].plugins`, in the v1 Plugins struct's order. */
export const PluginSetNames: readonly PluginSetName[] = pluginSetNames;

export interface KubeSchedulerProfile {
  schedulerName?: string;
  percentageOfNodesToScore?: number;
  plugins?: Plugins;
  pluginConfig?: PluginConfig[];
}

interface LeaderElectionConfiguration {
  leaderElect?: boolean;
  /** Go durations as strings ("15s", "1m30s"). */
  leaseDuration?: string;
  renewDeadline?: string;
  retryPeriod?: string;
  resourceLock?: string;
  resourceName?: string;
  resourceNamespace?: string;
}

interface ClientConnectionConfiguration {
  kubeconfig?: string;
  acceptContentTypes?: string;
  contentType?: string;
  qps?: number;
  burst?: number;
}

interface ExtenderManagedResource {
  name: string;
  ignoredByScheduler?: boolean;
}

export interface ExtenderTLSConfig {
  insecure?: boolean;
  serverName?: string;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
  /** PEM bytes, base64-encoded as Go encodes []byte in JSON. */
  certData?: string;
  keyData?: string;
  caData?: string;
}

export interface Extender {
  urlPrefix: string;
  filterVerb?: string;
  preemptVerb?: string;
  prioritizeVerb?: string;
  weight?: number;
  bindVerb?: string;
  enableHTTPS?: boolean;
  tlsConfig?: ExtenderTLSConfig;
  /** Go duration string; unset or zero means the extender client's default timeout. */
  httpTimeout?: string;
  nodeCacheCapable?: boolean;
  managedResources?: ExtenderManagedResource[];
  ignorable?: boolean;
}

/** The configuration as written in a file (every field optional). */
export interface KubeSchedulerConfiguration {
  apiVersion?: string;
  kind?: string;
  parallelism?: number;
  leaderElection?: LeaderElectionConfiguration;
  clientConnection?: ClientConnectionConfiguration;
  /**
   * Deprecated: not part of the v1 file format (a v1 file that sets it is rejected as an unknown
   * field, as upstream does); kept so flags can carry it, like upstream's internal config.
   */
  healthzBindAddress?: string;
  /** Deprecated: see healthzBindAddress. */
  metricsBindAddress?: string;
  enableProfiling?: boolean;
  enableContentionProfiling?: boolean;
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  profiles?: KubeSchedulerProfile[];
  extenders?: Extender[];
  delayCacheUntilActive?: boolean;
}

/** A plugin set after defaulting: both lists always present. */
export interface DefaultedPluginSet {
  enabled: PluginRef[];
  disabled: { name: string }[];
}

export type DefaultedPlugins = Record<PluginSetName, DefaultedPluginSet>;

export interface DefaultedProfile {
  /** Empty only when several profiles leave it unset (validation then rejects the config). */
  schedulerName: string;
  /** Profile override of the global percentage; null when unset. */
  percentageOfNodesToScore: number | null;
  /** Defaults merged with the user's sets; the default plugins are in `multiPoint`. */
  plugins: DefaultedPlugins;
  /** The user's entries (args defaulted) first, then defaulted args of enabled plugins, by name. */
  pluginConfig: PluginConfig[];
}

export type DefaultedLeaderElection = Required<LeaderElectionConfiguration>;
export type DefaultedClientConnection = Required<ClientConnectionConfiguration>;

/** The configuration after upstream's v1 defaulting (SetDefaults_KubeSchedulerConfiguration). */
export interface DefaultedConfiguration {
  apiVersion: string;
  kind: string;
  parallelism: number;
  leaderElection: DefaultedLeaderElection;
  clientConnection: DefaultedClientConnection;
  healthzBindAddress?: string;
  metricsBindAddress?: string;
  enableProfiling: boolean;
  enableContentionProfiling: boolean;
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  profiles: DefaultedProfile[];
  extenders: Extender[];
  delayCacheUntilActive: boolean;
}
