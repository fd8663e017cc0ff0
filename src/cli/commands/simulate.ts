// `simulate` and `explain`: run a scenario on the embedded cluster.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { admitPod } from '../../cluster/memory/admission.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { runExplain } from '../../sim/explain.js';
import { loadScenario } from '../../sim/scenario.js';
import { runSimulation } from '../../sim/simulate.js';
import { ReportCollector } from '../../sim/report_data.js';
import { renderReportHtml } from '../../sim/report.js';
import { resolveConfiguration } from '../configuration.js';
import { defaultScenarioPath } from '../default_scenario.js';
import { UsageError, type CliIO } from '../io.js';
import { renderSimulationText } from '../output.js';
import { registryWithPlugins } from '../plugins.js';

async function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      seed: { type: 'string' },
      output: { type: 'string', short: 'o' },
      'tie-break': { type: 'string' },
      plugins: { type: 'string', multiple: true },
      report: { type: 'string' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(' ')}`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  const tieBreak = values['tie-break'];
  if (tieBreak !== undefined && tieBreak !== 'name') throw new UsageError(`--tie-break accepts only "name"`);
  const output = values.output;
  if (output !== undefined && output !== 'text' && output !== 'json') throw new UsageError(`--output must be text or json`);
  const scenario = loadScenario(positionals[0] ?? defaultScenarioPath());
  const registry = await registryWithPlugins(values.plugins ?? []);
  const config = resolveConfiguration({ scenario, configPath: values.config, registry });
  const opts = { config, registry, notYetAvailable: notYetAvailablePlugins, seed, tieBreakByName: tieBreak === 'name', admitPod };
  return { scenario, opts, output, report: values.report };
}

export async function simulateCommand(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--serve')) return (await import('./serve.js')).serveCommand(argv, io);
  const { scenario, opts, output, report: reportPath } = await parse(argv);
  const collector = reportPath ? new ReportCollector({ title: scenario.name }, scenario.pods.length + scenario.pending.length) : undefined;
  const report = await runSimulation(scenario, { ...opts, recordScores: collector !== undefined }, collector);
  if (collector && reportPath) {
    const html = renderReportHtml(collector.build(report));
    writeFileSync(reportPath, html);
    io.stderr(`Report written to ${reportPath} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB)\n`);
  }
  if (output === 'json') {
    const { pods, summary, nodes } = report;
    io.stdout(JSON.stringify({ pods, summary, nodes }, null, 2) + '\n');
  } else {
    io.stdout(renderSimulationText(report));
  }
  return 0;
}

export async function explainCommand(argv: string[], io: CliIO): Promise<number> {
  const { scenario, opts, output } = await parse(argv);
  if (output === 'text') throw new UsageError('explain prints json only');
  const report = await runExplain(scenario, opts);
  io.stdout(JSON.stringify(report, null, 2) + '\n');
  return 0;
}
