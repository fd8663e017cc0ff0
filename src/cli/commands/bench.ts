// `bench`: upstream's scheduler_perf workloads on the embedded scheduler (see src/bench/).
import { FeatureGates } from '../../config/feature_gates.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultConfiguration, loadConfigFile } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseReport, renderComparison, renderJson, renderTable } from '../../bench/report.js';
import { profileFileName, runWorkload, selectWorkloads, type BenchReport, type SizeOverrides } from '../../bench/runner.js';
import { skippedTestCases } from '../../bench/workloads.js';
import { UsageError, type CliIO } from '../io.js';

export const benchUsage = `Usage: kube-scheduler-ts bench [filter] [options]   (this text: bench help)

Runs upstream's scheduler_perf workloads (SchedulingBasic/5000Nodes, ...) on the embedded scheduler
and reports SchedulingThroughput (pods/s over 1-second windows), attempt durations and memory.
[filter] is a regular expression matched against "TestCase/Workload".

Options:
  --label L             Upstream label to select: default (500/5000-node runs), performance
                        (upstream's threshold runs), integration-test (tiny), or all
  --nodes N             Override the workloads' initNodes (nodesWithDRA for DRA workloads)
  --init-pods N         Override the workloads' initPods
  --measure-pods N      Override the workloads' measurePods
  --json FILE           Also write the results to FILE
  --compare OLD.json    Print each workload's throughput ratio against an earlier --json file
  --config FILE         KubeSchedulerConfiguration to run with (default: upstream's defaults)
  --seed N              Seed of the random source; default 1
  --feature-gates A=true,B=false  Feature gates of the pinned release (v1.37.2), as kube-scheduler's
  --timeout SECONDS     Longest wait for one op's pods; default 600
  --cpu-profile DIR     Write a V8 CPU profile of each workload's measured op to DIR
  --list                List the selected workloads, and upstream's test cases not run yet, and exit
`;

function positiveInt(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a non-negative integer, got "${v}"`);
  return n;
}

export async function benchCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      label: { type: 'string' },
      nodes: { type: 'string' },
      'init-pods': { type: 'string' },
      'measure-pods': { type: 'string' },
      json: { type: 'string' },
      compare: { type: 'string' },
      config: { type: 'string' },
      seed: { type: 'string' },
      timeout: { type: 'string' },
      'cpu-profile': { type: 'string' },
      list: { type: 'boolean' },
      'feature-gates': { type: 'string', multiple: true },
    },
  });
  if (positionals.length > 1) throw new UsageError(`bench takes one filter, got: ${positionals.join(' ')}`);
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
    nodes: positiveInt(values.nodes, '--nodes'),
    initPods: positiveInt(values['init-pods'], '--init-pods'),
    measurePods: positiveInt(values['measure-pods'], '--measure-pods'),
  };
  const seed = positiveInt(values.seed, '--seed') ?? 1;
  const featureGates = FeatureGates.parse(values['feature-gates'] ?? []);
  const timeout = positiveInt(values.timeout, '--timeout') ?? 600;
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
  const opts = { registry, config, notYetAvailable: notYetAvailablePlugins, featureGates, seed, opTimeoutMs: timeout * 1000 };

  const report: BenchReport = { workloads: [] };
  for (const sw of selected) {
    io.stderr(`running ${sw.fullName} ...\n`);
    const profileDir = values['cpu-profile'];
    const cpuProfile = profileDir !== undefined ? { dir: profileDir, file: profileFileName(sw.fullName) } : undefined;
    const r = await runWorkload(sw, overrides, { ...opts, cpuProfile });
    io.stderr(r.skipped ? `  skipped: ${r.skipped}\n` : `  ${r.throughput.average.toFixed(0)} pods/s (${r.measuredPods} pods in ${r.measuredSeconds.toFixed(2)}s)\n`);
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
