// `simulate --serve [--port N] [--plugins FILE] [scenario]`: serves the scenario's embedded
// cluster over the Kubernetes API on loopback while the embedded scheduler schedules what clients
// create.
import { readFileSync } from 'node:fs';
import { FeatureGates } from '../../config/feature_gates.js';
import { admitPod } from '../../cluster/memory/admission.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { serveScenario, type Serving } from '../../sim/serve/serve.js';
import { parseDurationNanos } from '../../util/duration.js';
import { parseCommand } from '../command_spec.js';
import type { CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { loadScenarioAndConfig } from './cluster_flags.js';
import { serveSpec } from './specs.js';

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
