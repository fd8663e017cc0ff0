// `snapshot`: reads a live cluster, read-only, and writes what the scheduler would see as a
// scenario file that simulate, explain, serve and capacity load back to the same decisions.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { renderScenarioYaml } from '../../sim/scenario/scenario_yaml.js';
import { UsageError, type CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { clusterFlagOptions, clusterFlagsUsage, loadScenarioAndConfig } from './cluster_flags.js';

export const snapshotUsage = `Usage: kube-scheduler-ts snapshot [options] [-o FILE]

Reads a cluster, read-only, and writes it as a scenario file (YAML): nodes, bound pods as existing
load, unbound pods of this scheduler's profiles as pending (in namespace/name order, as a starting
kube-scheduler lists them), and every object the scheduler reads. Finished pods are left out.

Options:
  -o, --output FILE     where to write the scenario (default: standard output)
  --config FILE         KubeSchedulerConfiguration: its profiles say which pending pods are ours,
                        and it is written into the scenario
  --plugins FILE        out-of-tree plugins the configuration names (repeatable)
${clusterFlagsUsage}`;

export async function snapshotCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      output: { type: 'string', short: 'o' },
      config: { type: 'string' },
      plugins: { type: 'string', multiple: true },
      ...clusterFlagOptions,
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')} (snapshot reads the cluster; -o names the file to write)`);
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
