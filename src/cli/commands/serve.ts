// `simulate --serve [--port N] [--plugins FILE] [scenario]`: serves the scenario's embedded
// cluster over the Kubernetes API on loopback while the embedded scheduler schedules what clients
// create.
import { readFileSync } from 'node:fs';
import { FeatureGates } from '../../config/feature_gates.js';
import { admitPod } from '../../cluster/memory/admission.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { serveScenario, type Serving } from '../../sim/serve/serve.js';
import { DurationError, parseDurationNanos } from '../../util/duration.js';
import { checks, parseCommand, pastScenario, sharedFlags, type CommandSpec } from '../command_spec.js';
import type { CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { clusterFlags, loadScenarioAndConfig } from './cluster_flags.js';

export interface ServeControl {
  /** Resolves when serving should stop; SIGINT/SIGTERM by default. */
  stopSignal?: Promise<void>;
  /** Receives the running server (tests). */
  onServing?: (s: Serving) => void;
}

function signalStop(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Why a Go duration flag ("2s", "1m30s") is refused, or null. */
function durationCheck(v: string): string | null {
  try {
    if (parseDurationNanos(v) >= 0) return null;
  } catch (err) {
    if (!(err instanceof DurationError)) throw err;
  }
  return 'must be a duration such as 2s or 1m30s';
}

function portCheck(v: string): string | null {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 && n <= 65535 && v.trim() !== '' ? null : 'must be a port number (0 picks a free one)';
}

/** `serve` (and `simulate --serve`), declared once: its flags, checks and help. */
export const serveSpec = {
  name: 'serve',
  summary: { args: '[--port N] [scenario]', text: "Serve a scenario's cluster over the Kubernetes API while scheduling (= simulate --serve)" },
  usage: 'serve [scenario | --from-cluster] [options]',
  about: `Serves the scenario's cluster over the Kubernetes API (kubectl, client libraries, the web UI at
/ui/) while the embedded scheduler schedules the pods clients create; the same as simulate --serve.`,
  flags: [
    { name: 'port', type: 'string', value: 'N', check: portCheck, help: 'Port to listen on; default 6443 (0 picks a free one)' },
    { name: 'address', type: 'string', value: 'IP', help: 'Address to listen on; default 127.0.0.1' },
    { name: 'config', type: 'string', value: 'FILE', help: 'KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), YAML or JSON' },
    sharedFlags.seed,
    { name: 'plugins', type: 'string', multiple: true, value: 'FILE', help: 'out-of-tree plugins module (.mjs, .js or .ts) exporting `plugins` (repeatable)' },
    sharedFlags.featureGates,
    { name: 'pod-start-delay', type: 'string', value: 'D', check: durationCheck, help: 'How long after its binding a pod turns Running and Ready; default 0s' },
    {
      name: 'simulator-annotations', type: 'boolean',
      help: "after each attempt write the pod's results as kube-scheduler-simulator's\nannotations (kube-scheduler-simulator.sigs.k8s.io/filter-result, score-result,\n..., result-history), in batches; cut to fit the API's 256 KiB annotation limit",
    },
    { name: 'v', type: 'string', value: 'N', check: checks.nonNegativeInteger, help: 'Log verbosity: 4 logs every API request on stderr' },
    { name: 'serve', type: 'boolean', help: 'Accepted and ignored (simulate --serve passes it)' },
    ...clusterFlags,
  ],
  maxPositionals: 1,
  tooManyPositionals: pastScenario,
  footer: '\nWith no scenario, the bundled scenarios/default.yaml is used.\n',
} as const satisfies CommandSpec;


export async function serveCommand(argv: string[], io: CliIO, control: ServeControl = {}): Promise<number> {
  const { values, positionals } = parseCommand(serveSpec, argv);
  const port = values.port === undefined ? 6443 : Number(values.port);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  const verbosity = values.v === undefined ? 0 : Number(values.v);
  const podStartDelayMs = values['pod-start-delay'] === undefined ? 0 : parseDurationNanos(values['pod-start-delay']) / 1e6;
  const featureGates = FeatureGates.parse(values['feature-gates'] ?? []);
  const registry = await registryWithPlugins(values.plugins ?? []);
  const { scenario, config } = await loadScenarioAndConfig(values, positionals, registry, io, featureGates);
  const serving = await serveScenario(scenario, {
    config,
    registry,
    notYetAvailable: notYetAvailablePlugins,
    featureGates,
    seed,
    admitPod,
    configText: values.config ? readFileSync(values.config, 'utf8') : undefined,
    simulatorAnnotations: values['simulator-annotations'] ?? false,
    podStartDelayMs,
    host: values.address ?? '127.0.0.1',
    port,
    onRequest: verbosity >= 4 ? (method, path, code) => io.stderr(`${method} ${path} ${code}\n`) : undefined,
  });
  io.stdout(`Serving the embedded cluster of ${scenario.name} at ${serving.url}\n` +
    `  kubectl --server ${serving.url} get nodes\n` +
    `  web UI: ${serving.url}/ui/\n` +
    `Press Ctrl-C to stop.\n`);
  control.onServing?.(serving);
  await (control.stopSignal ?? signalStop());
  await serving.close();
  return 0;
}
