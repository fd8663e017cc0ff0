// `simulate` and `explain`: run a scenario on the embedded cluster.
import { writeFileSync } from 'node:fs';
import { FeatureGates } from '../../config/feature_gates.js';
import { admitPod } from '../../cluster/memory/admission.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { runExplain, runExplainTimeline } from '../../sim/explain/explain.js';
import { renderExplainText } from '../../sim/explain/explain_text.js';
import { memberKeys } from '../../sim/explain/explain_groups.js';
import { runSimulation } from '../../sim/simulate/simulate.js';
import { ReportCollector } from '../../sim/report/report_data.js';
import { renderReportHtml } from '../../sim/report/report.js';
import { UsageError, type CliIO } from '../io.js';
import { renderSimulationText } from '../output.js';
import { registryWithPlugins } from '../plugins.js';
import { optionalInt, parseCommand, type ValuesOf } from '../command_spec.js';
import { loadScenarioAndConfig } from './cluster_flags.js';
import { explainSpec, simulateSpec, type clusterFlags, type scenarioFlags } from './specs.js';








/** The scenario, the configuration and the run options the shared flags give. */
async function prepare(values: ValuesOf<typeof scenarioFlags> & ValuesOf<typeof clusterFlags>, positionals: readonly string[], io: CliIO, rowWorkers?: number) {
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  const featureGates = FeatureGates.parse(values['feature-gates'] ?? []);
  const registry = await registryWithPlugins(values.plugins ?? []);
  const { scenario, config } = await loadScenarioAndConfig(values, positionals, registry, io, featureGates);
  const opts = { config, registry, notYetAvailable: notYetAvailablePlugins, featureGates, seed, tieBreakByName: values['tie-break'] === 'name', admitPod, rowWorkers };
  return { scenario, opts };
}

/** `--report-scores N|all` (checked by its declaration): the best-scored rows each pod's score table keeps. */
function reportScores(value: string | undefined): number | 'all' | undefined {
  return value === undefined || value === 'all' ? value : Number(value);
}

export async function simulateCommand(argv: string[], io: CliIO): Promise<number> {
  if (argv.includes('--serve')) return (await import('./serve.js')).serveCommand(argv, io);
  const { values, positionals } = parseCommand(simulateSpec, argv);
  if (values['report-scores'] !== undefined && values.report === undefined) throw new UsageError('--report-scores needs --report FILE');
  const { scenario, opts } = await prepare(values, positionals, io, optionalInt(values['row-workers']));
  const { output, report: reportPath } = values;
  const scoreLimit = reportScores(values['report-scores']);
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
  const { values, positionals } = parseCommand(explainSpec, argv);
  const { scenario, opts } = await prepare(values, positionals, io);
  const output = values.output;
  const explain = { pod: values.pod, allNodes: values['all-nodes'] ?? false, width: values.width === undefined ? undefined : Number(values.width), timeline: values.timeline ?? false };
  const terminal = io.terminal?.() ?? null;
  const diagnosed = { ...opts, diagnose: true };
  const { pods, groups = [], trees = [] } = explain.timeline ? await runExplainTimeline(scenario, diagnosed) : await runExplain(scenario, diagnosed);
  const named = (key: string) => key === explain.pod || key.slice(key.indexOf('/') + 1) === explain.pod;
  const shown = explain.pod === undefined ? pods : pods.filter((p) => named(p.pod));
  // --pod keeps the group the pod is a member of (a waiting member has no pod entry of its own).
  const shownGroups = explain.pod === undefined ? groups : groups.filter((g) => g.members.some((m) => named(m.pod)));
  // --pod keeps the tree the pod's group hangs under too.
  const shownTrees = explain.pod === undefined ? trees : trees.filter((t) => memberKeys(t).some(named));
  if (explain.pod !== undefined && shown.length === 0 && shownGroups.length === 0) throw new UsageError(`no pod "${explain.pod}" was explained (give namespace/name or name of a pending pod)`);
  if ((output ?? (terminal ? 'text' : 'json')) === 'json') {
    const json = { pods: shown, ...(shownGroups.length > 0 ? { groups: shownGroups } : {}), ...(shownTrees.length > 0 ? { trees: shownTrees } : {}) };
    io.stdout(JSON.stringify(json, null, 2) + '\n');
    return 0;
  }
  io.stdout(renderExplainText(shown, {
    width: explain.width ?? terminal?.columns ?? Infinity,
    color: terminal?.color ?? false,
    allNodes: explain.allNodes,
  }, shownGroups, shownTrees));
  return 0;
}
