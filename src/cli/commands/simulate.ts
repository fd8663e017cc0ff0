// `simulate` and `explain`: run a scenario on the embedded cluster.
import { writeFileSync } from 'node:fs';
import { FeatureGates } from '../../config/feature_gates.js';
import { parseArgs } from 'node:util';
import { admitPod } from '../../cluster/memory/admission.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { runExplain, runExplainTimeline } from '../../sim/explain/explain.js';
import { renderExplainText } from '../../sim/explain/explain_text.js';
import { runSimulation } from '../../sim/simulate/simulate.js';
import { ReportCollector } from '../../sim/report/report_data.js';
import { renderReportHtml } from '../../sim/report/report.js';
import { UsageError, type CliIO } from '../io.js';
import { renderSimulationText } from '../output.js';
import { registryWithPlugins } from '../plugins.js';
import { clusterFlagOptions, loadScenarioAndConfig } from './cluster_flags.js';

async function parse(argv: string[], io: CliIO) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      seed: { type: 'string' },
      output: { type: 'string', short: 'o' },
      'tie-break': { type: 'string' },
      plugins: { type: 'string', multiple: true },
      'feature-gates': { type: 'string', multiple: true },
      pod: { type: 'string' },
      'all-nodes': { type: 'boolean' },
      width: { type: 'string' },
      timeline: { type: 'boolean' },
      ...clusterFlagOptions,
      report: { type: 'string' },
      'report-scores': { type: 'string' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(' ')}`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got "${values.seed}"`);
  const tieBreak = values['tie-break'];
  if (tieBreak !== undefined && tieBreak !== 'name') throw new UsageError(`--tie-break accepts only "name"`);
  const output = values.output;
  if (output !== undefined && output !== 'text' && output !== 'json') throw new UsageError(`--output must be text or json`);
  const featureGates = FeatureGates.parse(values['feature-gates'] ?? []);
  const registry = await registryWithPlugins(values.plugins ?? []);
  const { scenario, config } = await loadScenarioAndConfig(values, positionals, registry, io);
  const opts = { config, registry, notYetAvailable: notYetAvailablePlugins, featureGates, seed, tieBreakByName: tieBreak === 'name', admitPod };
  let width: number | undefined;
  if (values.width !== undefined) {
    width = Number(values.width);
    if (!Number.isInteger(width) || width < 20) throw new UsageError(`--width must be an integer of at least 20, got "${values.width}"`);
  }
  const explain = { pod: values.pod, allNodes: values['all-nodes'] ?? false, width, timeline: values.timeline ?? false };
  if (values['report-scores'] !== undefined && values.report === undefined) throw new UsageError('--report-scores needs --report FILE');
  return { scenario, opts, output, explain, report: values.report, reportScores: reportScores(values['report-scores']) };
}

/** `--report-scores N|all`: the best-scored rows each pod's score table keeps in the report. */
function reportScores(value: string | undefined): number | 'all' | undefined {
  if (value === undefined || value === 'all') return value;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--report-scores must be a positive integer or "all", got "${value}"`);
  return n;
}

export async function simulateCommand(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--serve')) return (await import('./serve.js')).serveCommand(argv, io);
  const { scenario, opts, output, report: reportPath, reportScores: scoreLimit } = await parse(argv, io);
  const collector = reportPath ? new ReportCollector({ title: scenario.name, scoreLimit }, scenario.pods.length + scenario.pending.length) : undefined;
  // The report shows each pod's decision in full: diagnosed, with every plugin's score.
  const report = await runSimulation(scenario, { ...opts, recordScores: collector !== undefined, diagnose: collector !== undefined }, collector);
  if (collector && reportPath) {
    const built = collector.build(report);
    const html = renderReportHtml(built.data, built.columns);
    writeFileSync(reportPath, html);
    io.stderr(`Report written to ${reportPath} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB)\n`);
  }
  if (output === 'json') {
    const { pods, summary, nodes, devices } = report;
    io.stdout(JSON.stringify({ pods, summary, nodes, ...(devices ? { devices } : {}) }, null, 2) + '\n');
  } else {
    io.stdout(renderSimulationText(report));
  }
  return 0;
}

/**
 * Text for a terminal, JSON otherwise (so scripts keep working), unless --output says. Every
 * attempt is diagnosed: explain is where the time for that is wanted.
 */
export async function explainCommand(argv: string[], io: CliIO): Promise<number> {
  const { scenario, opts, output, explain } = await parse(argv, io);
  const terminal = io.terminal?.() ?? null;
  const diagnosed = { ...opts, diagnose: true };
  const { pods, groups = [] } = explain.timeline ? await runExplainTimeline(scenario, diagnosed) : await runExplain(scenario, diagnosed);
  const named = (key: string) => key === explain.pod || key.slice(key.indexOf('/') + 1) === explain.pod;
  const shown = explain.pod === undefined ? pods : pods.filter((p) => named(p.pod));
  // --pod keeps the group the pod is a member of (a waiting member has no pod entry of its own).
  const shownGroups = explain.pod === undefined ? groups : groups.filter((g) => g.members.some((m) => named(m.pod)));
  if (explain.pod !== undefined && shown.length === 0 && shownGroups.length === 0) throw new UsageError(`no pod "${explain.pod}" was explained (give namespace/name or name of a pending pod)`);
  if ((output ?? (terminal ? 'text' : 'json')) === 'json') {
    io.stdout(JSON.stringify(shownGroups.length > 0 ? { pods: shown, groups: shownGroups } : { pods: shown }, null, 2) + '\n');
    return 0;
  }
  io.stdout(renderExplainText(shown, {
    width: explain.width ?? terminal?.columns ?? Infinity,
    color: terminal?.color ?? false,
    allNodes: explain.allNodes,
  }, shownGroups));
  return 0;
}
