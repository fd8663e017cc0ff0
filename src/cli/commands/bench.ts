// `bench`: upstream's scheduler_perf workloads on the embedded scheduler (see src/bench/).
import { FeatureGates } from '../../config/feature_gates.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defaultConfiguration, loadConfigFile } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseReport, renderComparison, renderJson, renderTable } from '../../bench/report.js';
import { profileFileName, runWorkload, selectWorkloads, type BenchReport, type SizeOverrides } from '../../bench/runner.js';
import { skippedTestCases } from '../../bench/workloads.js';
import { commandHelp, optionalInt, parseCommand } from '../command_spec.js';
import { benchSpec } from './specs.js';
import { UsageError, type CliIO } from '../io.js';



const benchUsage = commandHelp(benchSpec);

export async function benchCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(benchSpec, argv);
  const filter = positionals[0];
  if (filter === 'help') {
    io.stdout(benchUsage);
    return 0;
  }
  if (filter !== undefined) {
    try {
      new RegExp(filter);
    } catch (err) {
      throw new UsageError(`bad filter: ${(err as Error).message}`);
    }
  }
  const overrides: SizeOverrides = {
    nodes: optionalInt(values.nodes),
    initPods: optionalInt(values['init-pods']),
    measurePods: optionalInt(values['measure-pods']),
  };
  const seed = optionalInt(values.seed) ?? 1;
  const featureGates = FeatureGates.parse(values['feature-gates'] ?? []);
  const timeout = optionalInt(values.timeout) ?? 600;
  const old = values.compare !== undefined ? readReport(values.compare) : null;
  if (values['cpu-profile'] !== undefined) mkdirSync(values['cpu-profile'], { recursive: true });

  const selected = selectWorkloads({ filter, label: values.label });
  if (selected.length === 0) throw new UsageError(`no workload matches${filter ? ` "${filter}"` : ''} with label ${values.label ?? 'default'}`);
  if (values.list) {
    io.stdout(selected.map((s) => `${s.fullName}  ${JSON.stringify(s.workload.params)}\n`).join(''));
    io.stdout(`\nupstream's test cases not run yet:\n${skippedTestCases.map((s) => `  ${s.name}: ${s.reason}\n`).join('')}`);
    return 0;
  }
  const registry = inTreeRegistry();
  const config = values.config ? loadConfigFile(values.config, registry) : defaultConfiguration(registry);
  const rowWorkers = optionalInt(values['row-workers']);
  const opts = { registry, config, notYetAvailable: notYetAvailablePlugins, featureGates, seed, opTimeoutMs: timeout * 1000, rowWorkers };

  const report: BenchReport = { workloads: [] };
  for (const sw of selected) {
    io.stderr(`running ${sw.fullName} ...\n`);
    const profileDir = values['cpu-profile'];
    const cpuProfile = profileDir !== undefined ? { dir: profileDir, file: profileFileName(sw.fullName) } : undefined;
    const r = await runWorkload(sw, overrides, { ...opts, cpuProfile });
    io.stderr(r.skipped ? `  skipped: ${r.skipped}\n` : `  ${r.throughput.average.toFixed(0)} pods/s (${r.measuredPods} pods in ${r.measuredSeconds.toFixed(2)}s, ${r.measuredCpuSeconds.toFixed(2)}s of CPU)\n`);
    report.workloads.push(r);
  }
  io.stdout(renderTable(report));
  if (values.json !== undefined) writeFileSync(values.json, renderJson(report));
  if (old) io.stdout('\n' + renderComparison(report, old));
  return 0;
}

function readReport(file: string): BenchReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--compare: ${(err as Error).message}`);
  }
  try {
    return parseReport(text, file);
  } catch (err) {
    throw new UsageError(`--compare: ${(err as Error).message}`);
  }
}
