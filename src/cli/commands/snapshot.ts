// `snapshot`: reads a live cluster, read-only, and writes what the scheduler would see as a
// scenario file that simulate, explain, serve and capacity load back to the same decisions.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { renderScenarioYaml } from '../../sim/scenario/scenario_yaml.js';
import { parseCommand } from '../command_spec.js';
import type { CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { loadScenarioAndConfig } from './cluster_flags.js';
import { snapshotSpec } from './specs.js';



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
