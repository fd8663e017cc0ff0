// `simulate --serve [--port N] [--plugins FILE] [scenario]`: serves the scenario's embedded
// cluster over the Kubernetes API on loopback while the embedded scheduler schedules what clients
// create.
import { readFileSync } from 'node:fs';
import { FeatureGates } from '../../config/feature_gates.js';
import { parseArgs } from 'node:util';
import { admitPod } from '../../cluster/memory/admission.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { serveScenario, type Serving } from '../../sim/serve/serve.js';
import { DurationError, parseDurationNanos } from '../../util/duration.js';
import { UsageError, type CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { clusterFlagOptions, loadScenarioAndConfig } from './cluster_flags.js';

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

/** A Go duration flag ("2s", "1m30s") in milliseconds; anything else is a usage error. */
function durationMs(v: string, flag: string): number {
  try {
    const nanos = parseDurationNanos(v);
    if (nanos >= 0) return nanos / 1e6;
  } catch (err) {
    if (!(err instanceof DurationError)) throw err;
  }
  throw new UsageError(`${flag} must be a duration such as 2s or 1m30s, got "${v}"`);
}

export async function serveCommand(argv: string[], io: CliIO, control: ServeControl = {}): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      serve: { type: 'boolean' },
      port: { type: 'string' },
      address: { type: 'string' },
      config: { type: 'string' },
      seed: { type: 'string' },
      v: { type: 'string' },
      plugins: { type: 'string', multiple: true },
      'feature-gates': { type: 'string', multiple: true },
      'simulator-annotations': { type: 'boolean' },
      'pod-start-delay': { type: 'string' },
      ...clusterFlagOptions,
    },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(' ')}`);
  const port = values.port === undefined ? 6443 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (0 picks a free one), got "${values.port}"`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  const verbosity = values.v === undefined ? 0 : Number(values.v);
  const podStartDelayMs = values['pod-start-delay'] === undefined ? 0 : durationMs(values['pod-start-delay'], '--pod-start-delay');
  const featureGates = FeatureGates.parse(values['feature-gates'] ?? []);
  const registry = await registryWithPlugins(values.plugins ?? []);
  const { scenario, config } = await loadScenarioAndConfig(values, positionals, registry, io);
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
