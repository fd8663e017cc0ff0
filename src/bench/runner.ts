// Selects workloads, applies size overrides, runs each one on a fresh embedded scheduler and
// collects the results (test/integration/scheduler_perf/scheduler_perf.go: RunBenchmarkPerfScheduling).
import { FeatureGateError, FeatureGates, schedulerGates } from '../config/feature_gates.js';
import { WorkloadExecutor, type HarnessOptions } from './harness.js';
import type { TestCase, Workload } from './types.js';
import { testCases } from './workloads.js';

/** One workload's figures, in the JSON shape of issue 6 (plus a few extra fields). */
export interface WorkloadResult {
  name: string;
  nodes: number;
  initPods: number;
  measuredPods: number;
  throughput: { average: number; p50: number; p90: number; p95: number; p99: number };
  attemptSeconds: { p50: number; p90: number; p99: number };
  peakRssBytes: number;
  peakHeapUsedBytes: number;
  /** Wall time of the measured op, and how many 1-second windows the throughput comes from (0: the op's average). */
  measuredSeconds: number;
  /** CPU time of the measured op: on a shared machine, measuredPods / measuredCpuSeconds is the steadier figure. */
  measuredCpuSeconds: number;
  throughputSamples: number;
  attempts: number;
  skipped?: string;
  /** Something that makes the figure not quite upstream's (e.g. a plugin not built yet). */
  note?: string;
}

export interface BenchReport {
  workloads: WorkloadResult[];
}

export interface SizeOverrides {
  nodes?: number;
  initPods?: number;
  measurePods?: number;
}

export interface Selection {
  /** Regular expression matched against "TestCase/Workload"; all when undefined. */
  filter?: string;
  /** Upstream label the workload must carry; `default` unless given. */
  label?: string;
}

export interface SelectedWorkload {
  testCase: TestCase;
  workload: Workload;
  fullName: string;
}

export function selectWorkloads(sel: Selection, cases: readonly TestCase[] = testCases): SelectedWorkload[] {
  const re = sel.filter ? new RegExp(sel.filter) : null;
  const label = sel.label ?? 'default';
  const out: SelectedWorkload[] = [];
  for (const tc of cases) {
    for (const w of tc.workloads) {
      const fullName = `${tc.name}/${w.name}`;
      if (label !== 'all' && !(w.labels ?? []).includes(label)) continue;
      if (re && !re.test(fullName)) continue;
      out.push({ testCase: tc, workload: w, fullName });
    }
  }
  return out;
}

/** The workload with --nodes / --init-pods / --measure-pods applied to the parameters it has. */
export function withOverrides(w: Workload, o: SizeOverrides): Workload {
  const params = { ...w.params };
  if (o.nodes !== undefined && 'initNodes' in params) params.initNodes = o.nodes;
  // The DRA workloads count their nodes with the test driver instead.
  if (o.nodes !== undefined && 'nodesWithDRA' in params) params.nodesWithDRA = o.nodes;
  // NodeDeclaredFeaturesEnabled and the node event-handling cases name theirs `nodes`.
  if (o.nodes !== undefined && 'nodes' in params) params.nodes = o.nodes;
  if (o.initPods !== undefined && 'initPods' in params) params.initPods = o.initPods;
  if (o.measurePods !== undefined && 'measurePods' in params) params.measurePods = o.measurePods;
  return { ...w, params };
}

/** Why the test case cannot run yet, or null. */
export function skipReason(tc: TestCase, unavailable: ReadonlySet<string>): string | null {
  if (tc.skip) return tc.skip;
  const missing = (tc.requiresPlugins ?? []).filter((p) => unavailable.has(p));
  return missing.length > 0 ? `needs ${missing.join(', ')} (not built yet)` : null;
}

function missingNote(tc: TestCase, w: Workload, gates: FeatureGates, unavailable: ReadonlySet<string>): string | undefined {
  const missing = (tc.usesPlugins ?? []).filter((p) => unavailable.has(p));
  // A gate we take at either value but behave as off with (see feature_gates.ts).
  const offGates = Object.keys({ ...tc.featureGates, ...w.featureGates }).filter((g) => schedulerGates[g]?.support === 'always-off' && gates.enabled(g));
  const notes = [
    ...(missing.length > 0 ? [`runs without ${missing.join(', ')} (not built yet)`] : []),
    ...(offGates.length > 0 ? [`runs as if ${offGates.map((g) => `${g}=false`).join(', ')} (not built yet)`] : []),
  ];
  return notes.length > 0 ? notes.join('; ') : undefined;
}

function emptyResult(name: string, w: Workload): WorkloadResult {
  const count = (v: unknown): number => (typeof v === 'number' ? v : 0);
  return {
    name,
    nodes: count(w.params.initNodes),
    initPods: count(w.params.initPods),
    measuredPods: count(w.params.measurePods),
    throughput: { average: 0, p50: 0, p90: 0, p95: 0, p99: 0 },
    attemptSeconds: { p50: 0, p90: 0, p99: 0 },
    peakRssBytes: 0,
    peakHeapUsedBytes: 0,
    measuredSeconds: 0,
    measuredCpuSeconds: 0,
    throughputSamples: 0,
    attempts: 0,
  };
}

/** A file name for the workload's CPU profile: "SchedulingBasic/5000Nodes" → "SchedulingBasic_5000Nodes.cpuprofile". */
export function profileFileName(fullName: string): string {
  return `${fullName.replace(/[^A-Za-z0-9_.-]+/g, '_')}.cpuprofile`;
}

const gateList = (gates: Readonly<Record<string, boolean>> | undefined): string =>
  Object.entries(gates ?? {}).map(([k, v]) => `${k}=${v}`).join(',');

/**
 * The gates a workload runs with: the test case's, then the workload's (as upstream sets them),
 * then --feature-gates; a value we cannot honour is the workload's skip reason.
 */
export function workloadGates(tc: TestCase, w: Workload, given: FeatureGates | undefined): FeatureGates | string {
  try {
    return FeatureGates.parse([gateList(tc.featureGates), gateList(w.featureGates), given?.toString() ?? '']);
  } catch (err) {
    if (err instanceof FeatureGateError) return `upstream runs it with ${gateList({ ...tc.featureGates, ...w.featureGates })}: ${err.message}`;
    throw err;
  }
}

export async function runWorkload(sw: SelectedWorkload, overrides: SizeOverrides, opts: HarnessOptions): Promise<WorkloadResult> {
  const unavailable = opts.notYetAvailable ?? new Set<string>();
  const w = withOverrides(sw.workload, overrides);
  const gates = workloadGates(sw.testCase, w, opts.featureGates);
  const skipped = skipReason(sw.testCase, unavailable);
  if (skipped !== null) return { ...emptyResult(sw.fullName, w), skipped };
  if (typeof gates === 'string') return { ...emptyResult(sw.fullName, w), skipped: gates };
  const run = await WorkloadExecutor.run(sw.testCase, w, { ...opts, featureGates: gates });
  const m = run.measurement;
  const result: WorkloadResult = emptyResult(sw.fullName, w);
  result.nodes = run.nodes;
  result.initPods = run.initPods;
  if (m) {
    const t = m.throughput;
    result.measuredPods = m.measuredPods;
    result.throughput = { average: t.average, p50: t.p50, p90: t.p90, p95: t.p95, p99: t.p99 };
    result.attemptSeconds = { p50: m.attempts.p50, p90: m.attempts.p90, p99: m.attempts.p99 };
    result.peakRssBytes = m.peakRssBytes;
    result.peakHeapUsedBytes = m.peakHeapUsedBytes;
    result.measuredSeconds = m.seconds;
    result.measuredCpuSeconds = m.cpuSeconds;
    result.throughputSamples = t.samples;
    result.attempts = m.attempts.count;
  }
  const note = missingNote(sw.testCase, w, gates, unavailable);
  if (note) result.note = note;
  return result;
}
