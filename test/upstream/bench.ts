// `npm run bench:upstream WORKLOAD [--label L] [--timeout S] [--json FILE] [--side S]`: runs the selected
// scheduler_perf workloads on our embedded scheduler (the built CLI's `bench`) and on the pinned
// release's own scheduler_perf (a `go test -c` binary of its topic's package, built from
// upstream/'s module, with its in-process API server and an etcd of upstream/bin on loopback), and
// prints both SchedulingThroughput averages side by side with their ratio and the load average at
// each run's start. `--side ours|upstream` runs one side only (upstream's runs are slow: start them
// early, run ours on the final build later). Needs Go.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parseArgs } from 'node:util';
import { selectWorkloads, type SelectedWorkload } from '../../src/bench/runner.js';
import { freePort } from '../e2e/control_plane.js';
import { binDir, findGo, upstreamDir } from './harness.js';

const usage = `Usage: npm run bench:upstream -- FILTER [--label L] [--timeout SECONDS] [--json FILE] [--side ours|upstream|both]
FILTER is a regular expression over "TestCase/Workload", as bench's; --label as bench's (default: default).`;

interface Side {
  pods: number;
  average: number;
  /** The 1-minute load average when the run started. */
  load?: number;
  error?: string;
  /** Said under the table beside a figure that stands (upstream failing its own threshold). */
  note?: string;
}
interface Row {
  name: string;
  ours: Side | null;
  upstream: Side | null;
}

const sides = ['ours', 'upstream', 'both'] as const;

/** One DataItem of scheduler_perf's JSON output (test/integration/scheduler_perf/util.go). */
interface DataItem {
  data: Record<string, number>;
  unit: string;
  labels?: Record<string, string>;
}

const repoDir = join(upstreamDir, '..');

/** The Go package of a test case's topic: its performance-config.yaml's folder. */
function topicPackage(sw: SelectedWorkload): { pkg: string; binary: string } {
  const folder = sw.testCase.source.slice(0, sw.testCase.source.lastIndexOf('/'));
  return { pkg: `k8s.io/kubernetes/test/integration/scheduler_perf/${folder}`, binary: join(binDir, 'scheduler_perf', `${folder.replaceAll('/', '_')}.test`) };
}

/** Builds the topic's test binary unless one newer than upstream/go.sum exists (Go relinks a cached build in seconds, not none). */
function buildTopic(go: string, pkg: string, binary: string): void {
  if (existsSync(binary) && statSync(binary).mtimeMs > statSync(join(upstreamDir, 'go.sum')).mtimeMs) return;
  mkdirSync(join(binDir, 'scheduler_perf'), { recursive: true });
  const started = Date.now();
  process.stderr.write(`building ${pkg} (a cold build takes minutes) ...\n`);
  execFileSync('nice', ['-n', '15', go, 'test', '-c', '-o', binary, pkg], { cwd: upstreamDir, stdio: ['ignore', 'inherit', 'inherit'] });
  process.stderr.write(`built ${binary} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

/** `-test.bench` matches each level of a sub-benchmark name by its own expression. */
function benchPattern(fullName: string): string {
  return ['BenchmarkPerfScheduling', ...fullName.split('/')].map((part) => `^${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`).join('/');
}

function measuredPods(sw: SelectedWorkload): number {
  const v = sw.workload.params.measurePods;
  return typeof v === 'number' ? v : 0;
}

async function runUpstream(go: string, sw: SelectedWorkload, timeoutSeconds: number): Promise<Side> {
  const { pkg, binary } = topicPackage(sw);
  buildTopic(go, pkg, binary);
  const dir = execFileSync(go, ['list', '-f', '{{.Dir}}', pkg], { cwd: upstreamDir, encoding: 'utf8' }).trim();
  const out = mkdtempSync(join(tmpdir(), 'bench-upstream-'));
  try {
    const started = Date.now();
    const r = spawnSync(binary, [
      '-test.run=^$', `-test.bench=${benchPattern(sw.fullName)}`, '-test.benchtime=1x', `-test.timeout=${timeoutSeconds}s`,
      '-perf-scheduling-label-filter=', `-data-items-dir=${out}`,
    ], {
      // The package reads its performance-config.yaml and templates relative to its folder.
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      timeout: (timeoutSeconds + 60) * 1000,
      env: {
        ...process.env,
        PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`,
        // A port nobody listens on: scheduler_perf then starts its own etcd instead of joining one it finds.
        KUBE_INTEGRATION_ETCD_URL: `http://127.0.0.1:${await freePort()}`,
        KUBE_CACHE_MUTATION_DETECTOR: 'false',
        ARTIFACTS: out,
      },
    });
    const files = readdirSync(out).filter((f) => f.endsWith('.json'));
    const items = files.flatMap((f) => (JSON.parse(readFileSync(join(out, f), 'utf8')) as { dataItems?: DataItem[] }).dataItems ?? []);
    const throughput = items.find((i) => i.labels?.Metric === 'SchedulingThroughput');
    if (r.status === 0 && !throughput) {
      // Upstream samples once a second and reports nothing for an op that finished within its first window.
      return { pods: measuredPods(sw), average: 0, error: 'upstream reported no SchedulingThroughput: its measured op ended within the first 1-second window (take a larger workload)' };
    }
    const output = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
    // Below the workload's threshold scheduler_perf fails the test after writing its data items:
    // the figure stands, the failure is only that check (scheduler_perf.go's "to be higher").
    const belowThreshold = output.split('\n').find((l) => l.includes('to be higher: got'));
    if (r.status === 1 && throughput && belowThreshold !== undefined) {
      return { pods: measuredPods(sw), average: throughput.data.Average ?? 0, note: `upstream failed its own threshold: ${belowThreshold.trim()}` };
    }
    if (r.status !== 0 || !throughput) {
      const tail = output.trim().split('\n').filter((l) => /FAIL|Error|error|panic|SKIP|timed out/.test(l)).slice(-5).join(' | ');
      return { pods: measuredPods(sw), average: 0, error: `exit ${r.status ?? r.signal} after ${((Date.now() - started) / 1000).toFixed(0)} s${throughput ? '' : ', no SchedulingThroughput'}: ${tail || 'no output'}` };
    }
    return { pods: measuredPods(sw), average: throughput.data.Average ?? 0 };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Ours as a user runs it: the built CLI's bench, one process per workload. */
function runOurs(sw: SelectedWorkload, timeoutSeconds: number): Side {
  const out = mkdtempSync(join(tmpdir(), 'bench-ours-'));
  try {
    const json = join(out, 'ours.json');
    const r = spawnSync(process.execPath, [join(repoDir, 'dist/cli/bin.js'), 'bench', `^${sw.fullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, '--label', 'all', '--json', json, '--timeout', String(timeoutSeconds)], {
      encoding: 'utf8',
      timeout: (timeoutSeconds + 60) * 1000,
    });
    if (r.status !== 0 || !existsSync(json)) return { pods: measuredPods(sw), average: 0, error: `exit ${r.status ?? r.signal}: ${(r.stderr ?? '').trim().split('\n').slice(-2).join(' | ')}` };
    const [w] = (JSON.parse(readFileSync(json, 'utf8')) as { workloads: { measuredPods: number; throughput: { average: number }; skipped?: string }[] }).workloads;
    if (!w || w.skipped) return { pods: measuredPods(sw), average: 0, error: `skipped: ${w?.skipped ?? 'no result'}` };
    return { pods: w.measuredPods, average: w.throughput.average };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** A side's figure for the table: not run, failed, or pods/s. */
function figure(side: Side | null): string {
  if (side === null) return '-';
  return side.error ? 'failed' : side.average.toFixed(1);
}

function render(rows: readonly Row[]): string {
  const header = ['workload', 'ours pods/s', 'upstream pods/s', 'ours/upstream', 'load (ours, upstream)'];
  const cells = rows.map((r) => [
    r.name,
    figure(r.ours),
    figure(r.upstream),
    r.ours && r.upstream && !r.ours.error && !r.upstream.error && r.upstream.average > 0 ? `${(r.ours.average / r.upstream.average).toFixed(1)}x` : '',
    [r.ours?.load, r.upstream?.load].map((l) => (l === undefined ? '-' : l.toFixed(1))).join(', '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  const notes = rows.flatMap((r) => [
    r.ours?.error ? `* ${r.name}: ours: ${r.ours.error}` : '',
    r.upstream?.error ? `* ${r.name}: upstream: ${r.upstream.error}` : '',
    r.upstream?.note ? `* ${r.name}: ${r.upstream.note}` : '',
  ].filter(Boolean));
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line), '',
    '* pods/s: SchedulingThroughput average of the measured op (upstream: its data item; ours: bench --json), one run each on this machine;',
    '  load: the 1-minute load average when each run started',
    ...notes].join('\n') + '\n';
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { label: { type: 'string' }, timeout: { type: 'string' }, json: { type: 'string' }, side: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const side = (values.side ?? 'both') as (typeof sides)[number];
  if (positionals.length !== 1 || !sides.includes(side)) {
    console.error(usage);
    return 2;
  }
  const go = findGo();
  if (!go) {
    console.error('bench:upstream needs Go ($GO, go on PATH or /usr/local/go/bin/go)');
    return 2;
  }
  if (!existsSync(join(binDir, 'etcd'))) {
    console.error(`no ${join(binDir, 'etcd')}: run npm run upstream:build first`);
    return 2;
  }
  const timeout = Number(values.timeout ?? 900);
  const selected = selectWorkloads({ filter: positionals[0], label: values.label });
  if (selected.length === 0) {
    console.error(`no workload matches "${positionals[0]}" with label ${values.label ?? 'default'} (bench --list shows them)`);
    return 2;
  }
  const rows: Row[] = [];
  for (const sw of selected) {
    let ours: Side | null = null;
    let upstream: Side | null = null;
    if (side !== 'upstream') {
      process.stderr.write(`${sw.fullName}: ours ...\n`);
      const load = loadavg()[0]!;
      ours = { ...runOurs(sw, timeout), load };
    }
    if (side !== 'ours') {
      process.stderr.write(`${sw.fullName}: upstream ...\n`);
      const load = loadavg()[0]!;
      upstream = { ...(await runUpstream(go, sw, timeout)), load };
    }
    rows.push({ name: sw.fullName, ours, upstream });
    // Kept after each workload: upstream's runs take minutes, and a partial table still tells.
    if (values.json) writeFileSync(values.json, JSON.stringify({ workloads: rows }, null, 2) + '\n');
  }
  process.stdout.write(render(rows));
  return rows.some((r) => r.ours?.error || r.upstream?.error) ? 1 : 0;
}

process.exitCode = await main();
