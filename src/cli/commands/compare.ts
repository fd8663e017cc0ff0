// `compare`: one scenario under two or more scheduler configurations: outcomes, spread,
// fragmentation and the pods whose fate differs.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { admitPod } from '../../cluster/memory/admission.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { compareReports, runVariants, type Comparison } from '../../sim/whatif/compare.js';
import { buildComparisonReport } from '../../sim/report/compare_report.js';
import { renderReportHtml } from '../../sim/report/report.js';
import { resolveConfiguration } from '../configuration.js';
import { parseCommand } from '../command_spec.js';
import { UsageError, type CliIO } from '../io.js';
import { registryWithPlugins } from '../plugins.js';
import { loadScenarioOrCluster } from './cluster_flags.js';
import { compareSpec } from './specs.js';
import { progressLine } from './progress.js';



export async function compareCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommand(compareSpec, argv);
  const configs = values.config ?? [];
  if (configs.length === 0) throw new UsageError('give at least one --config to compare');
  const output = values.output ?? 'text';
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  const maxDiff = values['max-differences'] === undefined ? 50 : Number(values['max-differences']);
  const featureGates = FeatureGates.parse(values['feature-gates'] ?? []);
  const registry = await registryWithPlugins(values.plugins ?? []);
  const base = { registry, notYetAvailable: notYetAvailablePlugins, featureGates, seed, admitPod };
  const configured = configs.map((path) => ({ name: basename(path), config: resolveConfiguration({ configPath: path, registry }) }));
  // From a cluster, the pending pods of every compared configuration's profiles come along (the
  // defaults' scheduler too, when one --config is compared with them).
  const schedulerNames = [...new Set([...configured.flatMap((c) => c.config.profiles.map((p) => p.schedulerName)), ...(configs.length === 1 ? ['default-scheduler'] : [])])];
  const scenario = await loadScenarioOrCluster(values, positionals, schedulerNames, io, featureGates);
  const variants = configured.map((c) => ({ name: c.name, options: { ...base, config: c.config } }));
  if (variants.length === 1) {
    variants.unshift({ name: scenario.config ? 'scenario config' : 'defaults', options: { ...base, config: resolveConfiguration({ scenario, registry }) } });
  }
  const progress = progressLine(io, values.progress === true);
  let report: Comparison;
  try {
    const runs = await runVariants(scenario, variants, progress?.update);
    report = compareReports(scenario, variants, runs);
    if (values.report !== undefined) {
      const html = renderReportHtml(buildComparisonReport(scenario.name, report, runs));
      writeFileSync(values.report, html);
      io.stderr(`Report written to ${values.report} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB)\n`);
    }
  } finally {
    progress?.end();
  }
  io.stdout(output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderComparison(report, maxDiff));
  return 0;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function renderComparison(c: Comparison, maxDiff: number): string {
  const names = c.variants.map((v) => v.name);
  const rows: [string, ...string[]][] = [
    ['', ...names],
    ['scheduled', ...c.variants.map((v) => String(v.scheduled))],
    ['unschedulable', ...c.variants.map((v) => String(v.unschedulable))],
    ['pending (gated)', ...c.variants.map((v) => String(v.pending))],
    ['preempted', ...c.variants.map((v) => String(v.preempted))],
    // Pod groups (gangs), when any pod names one: placed means at least minCount members scheduled.
    ...(c.variants.some((v) => v.groups !== undefined)
      ? [['pod groups placed', ...c.variants.map((v) => (v.groups ? `${v.groups.placed} of ${v.groups.total}` : '-'))] as [string, ...string[]]]
      : []),
    ['nodes used', ...c.variants.map((v) => String(v.nodesUsed))],
    ['cpu requested: mean', ...c.variants.map((v) => pct(v.cpu.mean))],
    ['cpu requested: stddev', ...c.variants.map((v) => pct(v.cpu.stddev))],
    ['memory requested: mean', ...c.variants.map((v) => pct(v.memory.mean))],
    ['memory requested: stddev', ...c.variants.map((v) => pct(v.memory.stddev))],
    // Each extended resource (nvidia.com/gpu) any variant's nodes offer, as cpu and memory.
    ...[...new Set(c.variants.flatMap((v) => (v.extended ?? []).map((e) => e.name)))].sort().flatMap((name) => {
      const of = (v: (typeof c.variants)[number]) => v.extended?.find((e) => e.name === name);
      const mean: [string, ...string[]] = [`${name} requested: mean`, ...c.variants.map((v) => (of(v) ? pct(of(v)!.mean) : '-'))];
      const stddev: [string, ...string[]] = [`${name} requested: stddev`, ...c.variants.map((v) => (of(v) ? pct(of(v)!.stddev) : '-'))];
      return [mean, stddev];
    }),
    ['free cpu (largest on one node)', ...c.variants.map((v) => `${v.freeCpu.total}m (${v.freeCpu.largest}m)`)],
    ['free cpu fragmentation', ...c.variants.map((v) => pct(v.freeCpu.fragmentation))],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  for (const v of c.variants) {
    if (v.reasons.length === 0) continue;
    lines.push('', `Left out under ${v.name}:`);
    for (const r of v.reasons.slice(0, 5)) lines.push(`  ${r.pods} pod(s): ${r.message}`);
  }
  lines.push('', `${c.differences.length} of ${c.pods} pods differ:`);
  for (const d of c.differences.slice(0, maxDiff)) lines.push(`  ${d.pod}: ${d.fates.map((f, i) => `${names[i]}=${f}`).join('  ')}`);
  if (c.differences.length > maxDiff) lines.push(`  ... ${c.differences.length - maxDiff} more (-o json lists all)`);
  return `${lines.join('\n')}\n`;
}
