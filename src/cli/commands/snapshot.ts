// `snapshot`: reads a live cluster, read-only, and writes what the scheduler would see as a
// scenario file that simulate, explain, serve and capacity load back to the same decisions.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { renderScenarioYaml } from '../../sim/scenario/scenario_yaml.js';
import { parseCommand, type CommandSpec } from '../command_spec.js';
import type { CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { clusterFlags, loadScenarioAndConfig } from './cluster_flags.js';

/** `snapshot`, declared once: its flags and help. */
export const snapshotSpec = {
  name: 'snapshot',
  summary: { args: '[-o FILE] [--kubeconfig FILE]', text: 'Write a live cluster (read-only) as a scenario file' },
  usage: 'snapshot [options] [-o FILE]',
  about: `Reads a cluster, read-only, and writes it as a scenario file (YAML): nodes, bound pods as existing
load, unbound pods of this scheduler's profiles as pending (in namespace/name order, as a starting
kube-scheduler lists them), and every object the scheduler reads. Finished pods are left out.`,
  flags: [
    { name: 'output', short: 'o', type: 'string', value: 'FILE', help: 'where to write the scenario (default: standard output)' },
    { name: 'config', type: 'string', value: 'FILE', help: 'KubeSchedulerConfiguration: its profiles say which pending pods are ours,\nand it is written into the scenario' },
    { name: 'plugins', type: 'string', multiple: true, value: 'FILE', help: 'out-of-tree plugins the configuration names (repeatable)' },
    ...clusterFlags,
  ],
  maxPositionals: 0,
  tooManyPositionals: (p) => `unexpected arguments: ${p.join(' ')} (snapshot reads the cluster; -o names the file to write)`,
} as const satisfies CommandSpec;


export async function snapshotCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(snapshotSpec, argv);
  const registry = await registryWithPlugins(values.plugins ?? []);
  const { scenario } = await loadScenarioAndConfig({ ...values, 'from-cluster': true }, positionals, registry, io);
  // The configuration as written (validated above), so the snapshot schedules as this run would.
  if (values.config) scenario.config = parseYaml(readFileSync(values.config, 'utf8')) as Record<string, unknown>;
  const text = renderScenarioYaml(scenario);
  if (values.output === undefined || values.output === '-') {
    io.stdout(text);
  } else {
    writeFileSync(values.output, text);
    io.stderr(`Wrote ${values.output}: ${scenario.nodes.length} nodes, ${scenario.pods.length} bound pods, ${scenario.pending.length} pending pods, ${scenario.objects.length} other objects\n`);
  }
  return 0;
}
