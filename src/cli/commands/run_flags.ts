// The flags of `run` (cmd/kube-scheduler/app/options: Options.initFlags with the secure serving,
// delegated authentication and authorization flag sets of k8s.io/apiserver's options), parsed and
// checked: every bad value is a UsageError naming its flag.
import { FeatureGates } from '../../config/feature_gates.js';
import { defaultConfiguration, loadConfigFile, parseDuration, type DefaultedConfiguration } from '../../config/index.js';
import type { Registry } from '../../framework/registry.js';
import type { LogFormat } from '../../log/logger.js';
import { defaultAlwaysAllowPaths } from '../../metrics/authz.js';
import { optionalInt, parseCommand, parseGoBool } from '../command_spec.js';
import { UsageError } from '../io.js';
import { runSpec } from './run_spec.js';

/** kube-scheduler's secure port (config.DefaultKubeSchedulerPort). */
export const DefaultSchedulerPort = 10259;

export interface RunFlags {
  config?: string;
  /** Modules of out-of-tree plugins, loaded in order. */
  plugins: string[];
  featureGates: FeatureGates;
  /** --row-workers: worker threads for long Filter walks; none when absent. */
  rowWorkers?: number;
  kubeconfig?: string;
  master?: string;
  bindAddress: string;
  securePort: number;
  verbosity: number;
  loggingFormat: LogFormat;
  leaderElect?: boolean;
  leaderElectResourceName?: string;
  leaderElectResourceNamespace?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCAFile?: string;
  authenticationKubeconfig?: string;
  authorizationKubeconfig?: string;
  authenticationSkipLookup: boolean;
  authenticationTolerateLookupFailure: boolean;
  tokenCacheTtlMs: number;
  authorizedCacheTtlMs: number;
  unauthorizedCacheTtlMs: number;
  alwaysAllowPaths: string[];
}

/** A duration flag (checked by its declaration) in milliseconds, `dflt` when absent. */
function durationMs(v: string | undefined, dflt: number): number {
  return v === undefined ? dflt : parseDuration(v);
}

export function parseRunFlags(argv: string[]): RunFlags {
  const { values } = parseCommand(runSpec, argv);
  const securePort = values['secure-port'] === undefined ? DefaultSchedulerPort : Number(values['secure-port']);
  const bindAddress = values['bind-address'] ?? '0.0.0.0';
  const verbosity = values.v === undefined ? 0 : Number(values.v);
  // Checked by its declaration to be one of the formats.
  const format = (values['logging-format'] ?? 'text') as LogFormat;
  const certFile = values['tls-cert-file'];
  const keyFile = values['tls-private-key-file'];
  if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError('--tls-cert-file and --tls-private-key-file must be given together');
  const paths = values['authorization-always-allow-paths'];
  return {
    config: values.config,
    plugins: values.plugins ?? [],
    featureGates: FeatureGates.parse(values['feature-gates'] ?? []),
    rowWorkers: optionalInt(values['row-workers']),
    kubeconfig: values.kubeconfig,
    master: values.master,
    bindAddress,
    securePort,
    verbosity,
    loggingFormat: format,
    leaderElect: values['leader-elect'] === undefined ? undefined : parseGoBool(values['leader-elect']) === true,
    leaderElectResourceName: values['leader-elect-resource-name'],
    leaderElectResourceNamespace: values['leader-elect-resource-namespace'],
    tlsCertFile: certFile,
    tlsPrivateKeyFile: keyFile,
    clientCAFile: values['client-ca-file'],
    authenticationKubeconfig: values['authentication-kubeconfig'],
    authorizationKubeconfig: values['authorization-kubeconfig'],
    authenticationSkipLookup: values['authentication-skip-lookup'] ?? false,
    authenticationTolerateLookupFailure: values['authentication-tolerate-lookup-failure'] ?? true,
    tokenCacheTtlMs: durationMs(values['authentication-token-webhook-cache-ttl'], 10_000),
    authorizedCacheTtlMs: durationMs(values['authorization-webhook-cache-authorized-ttl'], 10_000),
    unauthorizedCacheTtlMs: durationMs(values['authorization-webhook-cache-unauthorized-ttl'], 10_000),
    alwaysAllowPaths: paths === undefined ? [...defaultAlwaysAllowPaths] : paths.split(',').map((p) => p.trim()).filter(Boolean),
  };
}

/** The configuration with the leader-election flags applied over it (ApplyLeaderElectionTo). */
export function resolveRunConfiguration(flags: RunFlags, registry: Registry): DefaultedConfiguration {
  const cfg = flags.config ? loadConfigFile(flags.config, registry) : defaultConfiguration(registry);
  const le = { ...cfg.leaderElection };
  if (flags.leaderElect !== undefined) le.leaderElect = flags.leaderElect;
  if (flags.leaderElectResourceName) le.resourceName = flags.leaderElectResourceName;
  if (flags.leaderElectResourceNamespace) le.resourceNamespace = flags.leaderElectResourceNamespace;
  const clientConnection = { ...cfg.clientConnection };
  if (flags.kubeconfig !== undefined) clientConnection.kubeconfig = flags.kubeconfig;
  return { ...cfg, leaderElection: le, clientConnection };
}
