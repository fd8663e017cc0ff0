// The kube-scheduler-ts command: simulate, explain (and, as they land, run and bench).
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadScenario, ScenarioError, type Scenario } from '../sim/scenario.js';
import { runSimulation } from '../sim/simulate.js';
import { runExplain } from '../sim/explain.js';
import { renderSimulationText } from './output.js';
import { resolveConfiguration, ConfigError } from './configuration.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { admitPod } from '../cluster/memory/admission.js';

export const ExitBadInput = 2;

const usage = `Usage: kube-scheduler-ts <command> [options]

Commands:
  simulate [scenario]   Schedule a scenario on an embedded cluster and report the result
  explain [scenario]    Schedule each pending pod once and explain every node's verdict and score

Options:
  --config FILE         KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), YAML or JSON
  --seed N              Seed of the random source (tie-breaking among top nodes); default 1
  --output text|json    Output format (simulate: text by default; explain: json)
  --tie-break name      explain: pick the first top-scored node by name instead of sampling
  -h, --help            Show this help

With no scenario, the bundled scenarios/default.yaml is used.`;

function defaultScenarioPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const p of [join(here, '../../scenarios/default.yaml'), join(here, '../../../scenarios/default.yaml')]) if (existsSync(p)) return p;
  return join(here, '../../scenarios/default.yaml');
}

class UsageError extends Error {}

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIO: CliIO = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

async function main(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      seed: { type: 'string' },
      output: { type: 'string', short: 'o' },
      'tie-break': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, scenarioArg, ...extra] = positionals;
  if (values.help || !command) {
    io.stdout(usage + '\n');
    return values.help ? 0 : ExitBadInput;
  }
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  const tieBreak = values['tie-break'];
  if (tieBreak !== undefined && tieBreak !== 'name') throw new UsageError(`--tie-break accepts only "name"`);

  switch (command) {
    case 'simulate':
    case 'explain': {
      const output = values.output ?? (command === 'explain' ? 'json' : 'text');
      if (output !== 'text' && output !== 'json') throw new UsageError(`--output must be text or json`);
      const scenario: Scenario = loadScenario(scenarioArg ?? defaultScenarioPath());
      const registry = inTreeRegistry();
      const config = resolveConfiguration({ scenario, configPath: values.config, registry });
      const opts = { config, registry, notYetAvailable: notYetAvailablePlugins, seed, tieBreakByName: tieBreak === 'name', admitPod };
      if (command === 'explain') {
        const report = await runExplain(scenario, opts);
        io.stdout(JSON.stringify(report, null, 2) + '\n');
        return 0;
      }
      const report = await runSimulation(scenario, opts);
      if (output === 'json') {
        const { pods, summary, nodes } = report;
        io.stdout(JSON.stringify({ pods, summary, nodes }, null, 2) + '\n');
      } else {
        io.stdout(renderSimulationText(report));
      }
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"\n\n${usage}`);
  }
}

export async function runCli(argv: string[], io: CliIO = processIO): Promise<number> {
  try {
    return await main(argv, io);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof ScenarioError || err instanceof UsageError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      io.stderr(`error: ${(err as Error).message}\n`);
      return ExitBadInput;
    }
    throw err;
  }
}
