// `bench`: upstream's scheduler_perf workloads on the embedded scheduler (see src/bench/).
import { FeatureGates } from '../../config/feature_gates.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defaultConfiguration, loadConfigFile } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseReport, renderComparison, renderJson, renderTable } from '../../bench/report.js';
import { profileFileName, runWorkload, selectWorkloads, type BenchReport, type SizeOverrides } from '../../bench/runner.js';
import { skippedTestCases } from '../../bench/workloads.js';
import { checks, commandHelp, parseCommand, type CommandSpec } from '../command_spec.js';
import { UsageError, type CliIO } from '../io.js';

const nonNegative = { type: 'string', value: 'N', check: checks.nonNegativeInteger } as const;

/** `bench`, declared once: its flags, checks and help. */
export const benchSpec = {
  name: 'bench',
  summary: { args: '[filter]', text: "Run upstream's scheduler_perf workloads on the embedded scheduler (--json, --compare)" },
  usage: 'bench [filter] [options]   (this text: bench help)',
  about: `Runs upstream's scheduler_perf workloads (SchedulingBasic/5000Nodes, ...) on the embedded scheduler
and reports SchedulingThroughput (pods/s over 1-second windows), attempt durations and memory.
[filter] is a regular expression matched against "TestCase/Workload".`,
  flags: [
    { name: 'label', type: 'string', value: 'L', help: "Upstream label to select: default (500/5000-node runs), performance\n(upstream's threshold runs), integration-test (tiny), or all" },
    { name: 'nodes', ...nonNegative, help: "Override the workloads' initNodes (nodesWithDRA for DRA workloads)" },
    { name: 'init-pods', ...nonNegative, help: "Override the workloads' initPods" },
    { name: 'measure-pods', ...nonNegative, help: "Override the workloads' measurePods" },
    { name: 'json', type: 'string', value: 'FILE', help: 'Also write the results to FILE' },
    { name: 'compare', type: 'string', value: 'OLD.json', help: "Print each workload's throughput ratio against an earlier --json file" },
    { name: 'config', type: 'string', value: 'FILE', help: "KubeSchedulerConfiguration to run with (default: upstream's defaults)" },
    { name: 'seed', ...nonNegative, help: 'Seed of the random source; default 1' },
    { name: 'feature-gates', type: 'string', multiple: true, value: 'A=true,B=false', help: "Feature gates of the pinned release (v1.37.2), as kube-scheduler's" },
    { name: 'timeout', ...nonNegative, value: 'SECONDS', help: "Longest wait for one op's pods; default 600" },
    { name: 'cpu-profile', type: 'string', value: 'DIR', help: "Write a V8 CPU profile of each workload's measured op to DIR" },
    { name: 'list', type: 'boolean', help: "List the selected workloads, and upstream's test cases not run yet, and exit" },
  ],
  maxPositionals: 1,
  tooManyPositionals: (p) => `bench takes one filter, got: ${p.join(' ')}`,
} as const satisfies CommandSpec;

const benchUsage = commandHelp(benchSpec);

const optionalInt = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

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
  const opts = { registry, config, notYetAvailable: notYetAvailablePlugins, featureGates, seed, opTimeoutMs: timeout * 1000 };

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
