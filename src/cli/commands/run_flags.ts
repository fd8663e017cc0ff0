// The flags of `run` (cmd/kube-scheduler/app/options: Options.initFlags with the secure serving,
// delegated authentication and authorization flag sets of k8s.io/apiserver's options), parsed and
// checked: every bad value is a UsageError naming its flag.
import { FeatureGates } from '../../config/feature_gates.js';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { defaultConfiguration, loadConfigFile, parseDuration, type DefaultedConfiguration } from '../../config/index.js';
import type { Registry } from '../../framework/registry.js';
import type { LogFormat } from '../../log/logger.js';
import { defaultAlwaysAllowPaths } from '../../metrics/authz.js';
import { UsageError } from '../io.js';

/** kube-scheduler's secure port (config.DefaultKubeSchedulerPort). */
export const DefaultSchedulerPort = 10259;

export const runUsage = `Usage: kube-scheduler-ts run [options]

Schedules the pods of a Kubernetes cluster whose schedulerName is one of the profiles'.

Options:
  --config FILE                      KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)
  --plugins FILE                     Out-of-tree plugins: a module (.mjs, .js or .ts) exporting plugins (repeatable)
  --feature-gates A=true,B=false     Feature gates of the pinned release (v1.37.2), as kube-scheduler's (repeatable)
  --kubeconfig FILE                  kubeconfig of the cluster; the in-cluster service account when omitted
  --master URL                       API server address (overrides the kubeconfig's)
  --leader-elect true|false          Overrides leaderElection.leaderElect
  --leader-elect-resource-name NAME  Overrides leaderElection.resourceName
  --leader-elect-resource-namespace NS  Overrides leaderElection.resourceNamespace
  -v, --v N                          Log verbosity (klog levels: 2 decisions, 4 debugging and stack traces)
  --logging-format text|json         Log format (default text)

Secure serving of /healthz, /livez, /readyz and /metrics (HTTPS):
  --bind-address IP                  Address to listen on (default 0.0.0.0)
  --secure-port N                    Port (default 10259; 0 turns the endpoints off)
  --tls-cert-file FILE               Serving certificate (PEM, with its chain); a self-signed one
  --tls-private-key-file FILE          made in memory at start-up when both are omitted

Delegated authentication and authorization (TokenReview / SubjectAccessReview):
  --client-ca-file FILE              Accept client certificates signed by these CAs (CN = user, O = groups)
  --authentication-kubeconfig FILE   Where TokenReviews go (default: the cluster's kubeconfig)
  --authorization-kubeconfig FILE    Where SubjectAccessReviews go (default: the cluster's kubeconfig)
  --authentication-skip-lookup       Do not read the client CA from kube-system/extension-apiserver-authentication
  --authentication-tolerate-lookup-failure  Start even if that lookup fails (default true)
  --authentication-token-webhook-cache-ttl D       How long TokenReview answers are reused (default 10s)
  --authorization-webhook-cache-authorized-ttl D   How long allows are reused (default 10s)
  --authorization-webhook-cache-unauthorized-ttl D How long denies are reused (default 10s)
  --authorization-always-allow-paths P,...  Paths served without authorization (default /healthz,/readyz,/livez)
`;

export interface RunFlags {
  config?: string;
  /** Modules of out-of-tree plugins, loaded in order. */
  plugins: string[];
  featureGates: FeatureGates;
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

/** Flags that may stand alone (`--flag`) or carry a value (`--flag=false`), as pflag's bools. */
const boolFlags = ['authentication-skip-lookup', 'authentication-tolerate-lookup-failure'] as const;
type BoolFlag = (typeof boolFlags)[number];

function parseBool(flag: string, v: string): boolean {
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new UsageError(`invalid argument "${v}" for "--${flag}" flag: strconv.ParseBool: parsing "${v}": invalid syntax`);
}

/** Accepts klog's `-v=4` and `-v 4` spellings alongside `--v=4`, and takes out the bool flags. */
function normalizeArgs(argv: string[]): { args: string[]; bools: Partial<Record<BoolFlag, boolean>> } {
  const args: string[] = [];
  const bools: Partial<Record<BoolFlag, boolean>> = {};
  for (const a of argv) {
    const [name, value] = a.startsWith('--') ? [a.slice(2).split('=')[0]!, a.includes('=') ? a.slice(a.indexOf('=') + 1) : undefined] : ['', undefined];
    const bool = boolFlags.find((b) => b === name);
    if (bool) bools[bool] = value === undefined ? true : parseBool(bool, value);
    else args.push(a.startsWith('-v=') ? `--v=${a.slice(3)}` : a === '-v' ? '--v' : a);
  }
  return { args, bools };
}

function durationFlag(flag: string, v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  try {
    const ms = parseDuration(v);
    if (ms < 0) throw new Error('negative');
    return ms;
  } catch {
    throw new UsageError(`invalid argument "${v}" for "--${flag}" flag: time: invalid duration "${v}"`);
  }
}

export function parseRunFlags(argv: string[]): RunFlags {
  const { args, bools } = normalizeArgs(argv);
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      plugins: { type: 'string', multiple: true },
      'feature-gates': { type: 'string', multiple: true },
      kubeconfig: { type: 'string' },
      master: { type: 'string' },
      'bind-address': { type: 'string' },
      'secure-port': { type: 'string' },
      v: { type: 'string' },
      'logging-format': { type: 'string' },
      'leader-elect': { type: 'string' },
      'leader-elect-resource-name': { type: 'string' },
      'leader-elect-resource-namespace': { type: 'string' },
      'tls-cert-file': { type: 'string' },
      'tls-private-key-file': { type: 'string' },
      'client-ca-file': { type: 'string' },
      'authentication-kubeconfig': { type: 'string' },
      'authorization-kubeconfig': { type: 'string' },
      'authentication-token-webhook-cache-ttl': { type: 'string' },
      'authorization-webhook-cache-authorized-ttl': { type: 'string' },
      'authorization-webhook-cache-unauthorized-ttl': { type: 'string' },
      'authorization-always-allow-paths': { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new UsageError(`"run" does not take any arguments, got ${JSON.stringify(positionals)}`);
  const securePort = values['secure-port'] === undefined ? DefaultSchedulerPort : Number(values['secure-port']);
  if (!Number.isInteger(securePort) || securePort < 0 || securePort > 65535) throw new UsageError(`--secure-port must be a port number (0 turns serving off), got "${values['secure-port']}"`);
  const bindAddress = values['bind-address'] ?? '0.0.0.0';
  if (isIP(bindAddress) === 0) throw new UsageError(`invalid argument "${bindAddress}" for "--bind-address" flag: failed to parse IP: "${bindAddress}"`);
  const verbosity = values.v === undefined ? 0 : Number(values.v);
  if (!Number.isInteger(verbosity) || verbosity < 0) throw new UsageError(`-v must be a non-negative integer, got "${values.v}"`);
  const format = values['logging-format'] ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--logging-format must be text or json, got "${format}"`);
  const certFile = values['tls-cert-file'];
  const keyFile = values['tls-private-key-file'];
  if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError('--tls-cert-file and --tls-private-key-file must be given together');
  const paths = values['authorization-always-allow-paths'];
  return {
    config: values.config,
    plugins: values.plugins ?? [],
    featureGates: FeatureGates.parse(values['feature-gates'] ?? []),
    kubeconfig: values.kubeconfig,
    master: values.master,
    bindAddress,
    securePort,
    verbosity,
    loggingFormat: format,
    leaderElect: values['leader-elect'] === undefined ? undefined : parseBool('leader-elect', values['leader-elect']),
    leaderElectResourceName: values['leader-elect-resource-name'],
    leaderElectResourceNamespace: values['leader-elect-resource-namespace'],
    tlsCertFile: certFile,
    tlsPrivateKeyFile: keyFile,
    clientCAFile: values['client-ca-file'],
    authenticationKubeconfig: values['authentication-kubeconfig'],
    authorizationKubeconfig: values['authorization-kubeconfig'],
    authenticationSkipLookup: bools['authentication-skip-lookup'] ?? false,
    authenticationTolerateLookupFailure: bools['authentication-tolerate-lookup-failure'] ?? true,
    tokenCacheTtlMs: durationFlag('authentication-token-webhook-cache-ttl', values['authentication-token-webhook-cache-ttl'], 10_000),
    authorizedCacheTtlMs: durationFlag('authorization-webhook-cache-authorized-ttl', values['authorization-webhook-cache-authorized-ttl'], 10_000),
    unauthorizedCacheTtlMs: durationFlag('authorization-webhook-cache-unauthorized-ttl', values['authorization-webhook-cache-unauthorized-ttl'], 10_000),
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
