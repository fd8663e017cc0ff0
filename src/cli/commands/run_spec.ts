// `run`'s flags, declared once (cmd/kube-scheduler/app/options: Options.initFlags with the secure
// serving, delegated authentication and authorization flag sets of k8s.io/apiserver's options):
// their checks and help. Apart from run_flags.ts so that the help and `run`'s first lists
// (run_first_lists.ts, loaded before the scheduler's code) read them without the configuration code.
import { isIP } from 'node:net';
import { parseDuration } from '../../util/duration.js';
import { checks, parseGoBool, sharedFlags, type CommandSpec } from '../command_spec.js';

const serving = 'Secure serving of /healthz, /livez, /readyz and /metrics (HTTPS):';
const delegated = 'Delegated authentication and authorization (TokenReview / SubjectAccessReview):';

/** Why a Go duration flag's value is refused (pflag's words), or null. */
function durationCheck(v: string): string | null {
  try {
    if (parseDuration(v) >= 0) return null;
  } catch {
    // Refused below, as pflag words it.
  }
  return `time: invalid duration "${v}"`;
}

const ttl = (name: string, help: string) => ({ name, section: delegated, type: 'string', value: 'D', check: durationCheck, pflag: true, help }) as const;

/** `run`, declared once: kube-scheduler's flags we take, their checks and help. */
export const runSpec = {
  name: 'run',
  summary: { args: '[--kubeconfig FILE] [--config FILE]', text: 'Schedule the pods of a real cluster (see README: Run as a second scheduler)' },
  usage: 'run [options]',
  about: "Schedules the pods of a Kubernetes cluster whose schedulerName is one of the profiles'.",
  flags: [
    { name: 'config', type: 'string', value: 'FILE', help: 'KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1)' },
    { name: 'plugins', type: 'string', multiple: true, value: 'FILE', help: 'Out-of-tree plugins: a module (.mjs, .js or .ts) exporting plugins (repeatable)' },
    sharedFlags.featureGates,
    sharedFlags.rowWorkers,
    { name: 'kubeconfig', type: 'string', value: 'FILE', help: 'kubeconfig of the cluster; the in-cluster service account when omitted' },
    { name: 'master', type: 'string', value: 'URL', help: "API server address (overrides the kubeconfig's)" },
    { name: 'leader-elect', type: 'string', value: 'true|false', check: (v) => (parseGoBool(v) === null ? `strconv.ParseBool: parsing "${v}": invalid syntax` : null), pflag: true, help: 'Overrides leaderElection.leaderElect' },
    { name: 'leader-elect-resource-name', type: 'string', value: 'NAME', help: 'Overrides leaderElection.resourceName' },
    { name: 'leader-elect-resource-namespace', type: 'string', value: 'NS', help: 'Overrides leaderElection.resourceNamespace' },
    { name: 'v', short: 'v', type: 'string', value: 'N', check: checks.nonNegativeInteger, help: 'Log verbosity (klog levels: 2 decisions, 4 debugging and stack traces)' },
    { name: 'logging-format', type: 'string', value: 'text|json', check: checks.oneOf('text', 'json'), help: 'Log format (default text)' },
    {
      name: 'bind-address', section: serving, type: 'string', value: 'IP', pflag: true, help: 'Address to listen on (default 0.0.0.0)',
      check: (v) => (isIP(v) === 0 ? `failed to parse IP: "${v}"` : null),
    },
    {
      name: 'secure-port', section: serving, type: 'string', value: 'N', help: 'Port (default 10259; 0 turns the endpoints off)',
      check: (v) => (Number.isInteger(Number(v)) && Number(v) >= 0 && Number(v) <= 65535 && v.trim() !== '' ? null : 'must be a port number (0 turns serving off)'),
    },
    { name: 'tls-cert-file', section: serving, type: 'string', value: 'FILE', help: 'Serving certificate (PEM, with its chain); a self-signed one is made\nin memory at start-up when both are omitted' },
    { name: 'tls-private-key-file', section: serving, type: 'string', value: 'FILE', help: "The certificate's private key (PEM)" },
    { name: 'client-ca-file', section: delegated, type: 'string', value: 'FILE', help: 'Accept client certificates signed by these CAs (CN = user, O = groups)' },
    { name: 'authentication-kubeconfig', section: delegated, type: 'string', value: 'FILE', help: "Where TokenReviews go (default: the cluster's kubeconfig)" },
    { name: 'authorization-kubeconfig', section: delegated, type: 'string', value: 'FILE', help: "Where SubjectAccessReviews go (default: the cluster's kubeconfig)" },
    { name: 'authentication-skip-lookup', section: delegated, type: 'boolean', pflag: true, help: 'Do not read the client CA from kube-system/extension-apiserver-authentication' },
    { name: 'authentication-tolerate-lookup-failure', section: delegated, type: 'boolean', pflag: true, help: 'Start even if that lookup fails (default true; =false to refuse)' },
    ttl('authentication-token-webhook-cache-ttl', 'How long TokenReview answers are reused (default 10s)'),
    ttl('authorization-webhook-cache-authorized-ttl', 'How long allows are reused (default 10s)'),
    ttl('authorization-webhook-cache-unauthorized-ttl', 'How long denies are reused (default 10s)'),
    { name: 'authorization-always-allow-paths', section: delegated, type: 'string', value: 'P,...', help: 'Paths served without authorization (default /healthz,/readyz,/livez)' },
  ],
  maxPositionals: 0,
  tooManyPositionals: (p) => `"run" does not take any arguments, got ${JSON.stringify(p)}`,
} as const satisfies CommandSpec;
