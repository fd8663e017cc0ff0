// Benchmark output: the results table, the JSON file, and the comparison with an earlier run.
import type { BenchReport, WorkloadResult } from './runner.js';
import type { TestCase, Workload } from './types.js';
import { testCases } from './workloads.js';

const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(0);
const ms = (seconds: number) => (seconds * 1000).toFixed(2);
const rate = (v: number) => v.toFixed(0);

/** The catalog's test case and workload for a result, by full name ("TestCase/Workload"). */
function catalogEntry(name: string, cases: readonly TestCase[] = testCases): { testCase: TestCase; workload: Workload } | undefined {
  const slash = name.indexOf('/');
  const testCase = cases.find((c) => c.name === name.slice(0, slash));
  const workload = testCase?.workloads.find((w) => w.name === name.slice(slash + 1));
  return testCase && workload ? { testCase, workload } : undefined;
}

/**
 * Upstream's threshold for the workload; for a workload without one, "(n)": the threshold of the
 * test case's first `performance` workload (more pods, same test case), shown for scale.
 */
export function thresholdCell(name: string): string {
  const e = catalogEntry(name);
  if (!e) return '';
  if (e.workload.threshold !== undefined) return String(e.workload.threshold);
  const ref = e.testCase.workloads.find((w) => w.threshold !== undefined);
  return ref ? `(${ref.threshold})` : '';
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

export function renderTable(report: BenchReport): string {
  const header = ['workload', 'nodes', 'init', 'measured', 'avg pods/s', 'p50', 'p90', 'p95', 'p99', 'pods/cpu-s', 'attempt ms p50/p90/p99', 'peak RSS MB', 'heap MB', 'upstream min', 'target'];
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const r of report.workloads) {
    const target = catalogEntry(r.name)?.workload.target;
    const ref = [thresholdCell(r.name), target !== undefined ? String(target) : ''];
    if (r.skipped) {
      rows.push([r.name, String(r.nodes), String(r.initPods), String(r.measuredPods), 'skipped', '', '', '', '', '', '', '', '', ...ref]);
      notes.push(`${r.name}: skipped: ${r.skipped}`);
      continue;
    }
    const t = r.throughput;
    const a = r.attemptSeconds;
    rows.push([
      r.name, String(r.nodes), String(r.initPods), String(r.measuredPods),
      rate(t.average), rate(t.p50), rate(t.p90), rate(t.p95), rate(t.p99),
      r.measuredCpuSeconds > 0 ? rate(r.measuredPods / r.measuredCpuSeconds) : '',
      `${ms(a.p50)}/${ms(a.p90)}/${ms(a.p99)}`, mb(r.peakRssBytes), mb(r.peakHeapUsedBytes), ...ref,
    ]);
    if (r.measuredPods === 0) notes.push(`${r.name}: no pod in the window: the scheduler took its ops' objects in within ${r.measuredSeconds.toFixed(2)}s (${r.measuredCpuSeconds.toFixed(2)}s of CPU)`);
    else if (r.throughputSamples === 0) notes.push(`${r.name}: measured in ${r.measuredSeconds.toFixed(2)}s, too short for 1-second windows: the figures are the whole op's average`);
    if (r.note) notes.push(`${r.name}: ${r.note}`);
  }
  notes.push("upstream min: the workload's threshold in upstream's performance-config.yaml (pods/s, SchedulingThroughput average); (n): the test case's threshold for its larger performance workload, for scale");
  return table(header, rows) + '\n' + notes.map((n) => `* ${n}`).join('\n') + '\n';
}

export function renderJson(report: BenchReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}

/** Reads a report written by --json; throws with the file and the reason when it is not one. */
export function parseReport(text: string, file: string): BenchReport {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON: ${(err as Error).message}`);
  }
  const workloads = (v as { workloads?: unknown }).workloads;
  if (!Array.isArray(workloads)) throw new Error(`${file}: expected { "workloads": [...] }`);
  workloads.forEach((w, i) => {
    const ok = typeof w === 'object' && w !== null && typeof (w as WorkloadResult).name === 'string' &&
      typeof (w as WorkloadResult).throughput?.average === 'number';
    if (!ok) throw new Error(`${file}: workloads[${i}]: expected a name and throughput.average`);
  });
  return v as BenchReport;
}

/** Pods per CPU-second of the measured op, or NaN for results without it. */
function podsPerCpuSecond(r: WorkloadResult): number {
  return r.measuredCpuSeconds > 0 ? r.measuredPods / r.measuredCpuSeconds : NaN;
}

/**
 * new / old for each workload present in both runs: throughput and pods per CPU-second (higher is
 * better), attempt p99 (lower is better).
 */
export function renderComparison(current: BenchReport, old: BenchReport): string {
  const byName = new Map(old.workloads.map((w) => [w.name, w]));
  const rows: string[][] = [];
  for (const r of current.workloads) {
    const o = byName.get(r.name);
    if (!o) {
      rows.push([r.name, '', rate(r.throughput.average), '', '', '', 'not in old run']);
      continue;
    }
    if (r.skipped || o.skipped) {
      rows.push([r.name, rate(o.throughput.average), rate(r.throughput.average), '', '', '', 'skipped']);
      continue;
    }
    const ratio = (a: number, b: number) => (Number.isFinite(a) && b > 0 ? (a / b).toFixed(2) : '');
    const sizes = r.nodes !== o.nodes || r.initPods !== o.initPods || r.measuredPods !== o.measuredPods ? 'sizes differ' : '';
    rows.push([
      r.name, rate(o.throughput.average), rate(r.throughput.average), ratio(r.throughput.average, o.throughput.average),
      ratio(podsPerCpuSecond(r), podsPerCpuSecond(o)), ratio(r.attemptSeconds.p99, o.attemptSeconds.p99), sizes,
    ]);
  }
  return table(['workload', 'old pods/s', 'new pods/s', 'new/old', 'pods/cpu-s new/old', 'attempt p99 new/old', ''], rows);
}
