// `npm run bench:upstream WORKLOAD [--label L] [--timeout S] [--json FILE] [--side S] [--cpus N,M] [--docs FILE]`: runs the selected
// scheduler_perf workloads on our embedded scheduler (the built CLI's `bench`) and on the pinned
// release's own scheduler_perf (a `go test -c` binary of its topic's package, built from
// upstream/'s module, with its in-process API server and an etcd of upstream/bin on loopback), and
// prints both SchedulingThroughput averages side by side with their ratio and the load average at
// each run's start. `--side ours|upstream` runs one side only (upstream's runs are slow: start them
// early, run ours on the final build later). Our own test cases (label kube-scheduler-ts) run on
// upstream's misc or dra topic binary from a config written for them (own_config.ts). Needs Go.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus as machineCpus, loadavg, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parseArgs } from 'node:util';
import { ownSource } from '../../src/bench/own_workloads.js';
import { selectWorkloads, type SelectedWorkload } from '../../src/bench/runner.js';
import { writeOwnConfig } from './own_config.js';
import { freePort } from '../e2e/control_plane.js';
import { writeBlock } from '../bench/docs_block.js';
import { binDir, findGo, upstreamDir } from './harness.js';
import { renderMarkdown, renderText, type Side, type SideBySideRun } from './side_by_side.js';

const usage = `Usage: npm run bench:upstream -- FILTER [--label L] [--timeout SECONDS] [--json FILE] [--side ours|upstream|both]
                                        [--cpus N,M,...] [--docs FILE]
       npm run bench:upstream -- --render A.json,B.json --docs FILE
FILTER is a regular expression over "TestCase/Workload", as bench's; --label as bench's (default: default).
--cpus 1,2 runs each workload once per core count, both sides pinned to the first N cores (taskset).
--docs FILE rewrites FILE's "bench:upstream table" block (the README's performance section) with the
table; --render makes it from earlier --json files without running anything.`;

const sides = ['ours', 'upstream', 'both'] as const;

/** One DataItem of scheduler_perf's JSON output (test/integration/scheduler_perf/util.go). */
interface DataItem {
  data: Record<string, number>;
  unit: string;
  labels?: Record<string, string>;
}

const repoDir = join(upstreamDir, '..');

/** The Go package of a test case's topic (`source`: its performance-config.yaml under scheduler_perf). */
function topicPackage(source: string): { pkg: string; binary: string } {
  const folder = source.slice(0, source.lastIndexOf('/'));
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

/** The command pinned to the first `cpus` cores, or as is. */
function pinnedTo(cpus: number | undefined, command: string, args: string[]): [string, string[]] {
  return cpus === undefined ? [command, args] : ['taskset', ['--cpu-list', `0-${cpus - 1}`, command, ...args]];
}

async function runUpstream(go: string, sw: SelectedWorkload, timeoutSeconds: number, cpus: number | undefined): Promise<Side> {
  const out = mkdtempSync(join(tmpdir(), 'bench-upstream-'));
  try {
    let source = sw.testCase.source;
    let dir: string | null = null;
    if (sw.testCase.source === ownSource) {
      // A test case of ours runs on its topic's binary, from a folder holding its config.
      const schedulerPerf = execFileSync(go, ['list', '-f', '{{.Dir}}', 'k8s.io/kubernetes/test/integration/scheduler_perf'], { cwd: upstreamDir, encoding: 'utf8' }).trim();
      const written = writeOwnConfig(sw.testCase, join(out, 'config'), schedulerPerf);
      if ('error' in written) return { pods: measuredPods(sw), average: 0, error: written.error };
      dir = written.dir;
      source = `${written.topic}/performance-config.yaml`;
    }
    const { pkg, binary } = topicPackage(source);
    buildTopic(go, pkg, binary);
    dir ??= execFileSync(go, ['list', '-f', '{{.Dir}}', pkg], { cwd: upstreamDir, encoding: 'utf8' }).trim();
    const started = Date.now();
    const r = spawnSync(...pinnedTo(cpus, binary, [
      '-test.run=^$', `-test.bench=${benchPattern(sw.fullName)}`, '-test.benchtime=1x', `-test.timeout=${timeoutSeconds}s`,
      '-perf-scheduling-label-filter=', `-data-items-dir=${out}`,
    ]), {
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
    const files = readdirSync(out).filter((f) => f.endsWith('.json') && statSync(join(out, f)).isFile());
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
      const want = /want ([\d.]+)/.exec(belowThreshold)?.[1];
      return { pods: measuredPods(sw), average: throughput.data.Average ?? 0, note: `upstream stayed below its own threshold${want ? ` (${Number(want)} pods/s, set for larger machines)` : ''}: scheduler_perf failed the test after writing the figure, which stands` };
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
function runOurs(sw: SelectedWorkload, timeoutSeconds: number, cpus: number | undefined): Side {
  const out = mkdtempSync(join(tmpdir(), 'bench-ours-'));
  try {
    const json = join(out, 'ours.json');
    const r = spawnSync(...pinnedTo(cpus, process.execPath, [join(repoDir, 'dist/cli/bin.js'), 'bench', `^${sw.fullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, '--label', 'all', '--json', json, '--timeout', String(timeoutSeconds)]), {
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

/** `--cpus`: core counts to pin the runs to, each at most the machine's; [undefined] unpinned. */
function coreCounts(flag: string | undefined): (number | undefined)[] | string {
  if (flag === undefined) return [undefined];
  const available = machineCpus().length;
  const counts = flag.split(',').map(Number);
  const bad = counts.find((n) => !Number.isInteger(n) || n < 1 || n > available);
  if (bad !== undefined) return `--cpus: each count must be a whole number from 1 to this machine's ${available} cores, got "${flag}"`;
  if (spawnSync('taskset', ['--version']).error) return '--cpus needs taskset (util-linux) on the PATH';
  return counts;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      label: { type: 'string' }, timeout: { type: 'string' }, json: { type: 'string' }, side: { type: 'string' },
      cpus: { type: 'string' }, docs: { type: 'string' }, render: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (values.render !== undefined) {
    if (values.docs === undefined || positionals.length > 0) {
      console.error(usage);
      return 2;
    }
    const runs = values.render.split(',').map((f) => JSON.parse(readFileSync(f, 'utf8')) as SideBySideRun);
    writeBlock(values.docs, 'bench:upstream table', renderMarkdown(runs));
    return 0;
  }
  const side = (values.side ?? 'both') as (typeof sides)[number];
  if (positionals.length !== 1 || !sides.includes(side)) {
    console.error(usage);
    return 2;
  }
  const counts = coreCounts(values.cpus);
  if (typeof counts === 'string') {
    console.error(counts);
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
  const cpuList = machineCpus();
  const run: SideBySideRun = { measuredAt: new Date().toISOString(), node: process.versions.node, machine: `${cpuList.length} × ${cpuList[0]?.model.trim() ?? 'unknown CPU'}`, workloads: [] };
  for (const sw of selected) {
    for (const cpus of counts) {
      const at = cpus === undefined ? sw.fullName : `${sw.fullName} on ${cpus} core${cpus === 1 ? '' : 's'}`;
      let ours: Side | null = null;
      let upstream: Side | null = null;
      if (side !== 'upstream') {
        process.stderr.write(`${at}: ours ...\n`);
        const load = loadavg()[0]!;
        ours = { ...runOurs(sw, timeout, cpus), load };
      }
      if (side !== 'ours') {
        process.stderr.write(`${at}: upstream ...\n`);
        const load = loadavg()[0]!;
        upstream = { ...(await runUpstream(go, sw, timeout, cpus)), load };
      }
      run.workloads.push({ name: sw.fullName, ours, upstream, ...(cpus === undefined ? {} : { cpus }) });
      // Kept after each run: upstream's take minutes, and a partial table still tells.
      if (values.json) writeFileSync(values.json, JSON.stringify(run, null, 2) + '\n');
    }
  }
  process.stdout.write(renderText(run.workloads));
  if (values.docs) writeBlock(values.docs, 'bench:upstream table', renderMarkdown([run]));
  return run.workloads.some((r) => r.ours?.error || r.upstream?.error) ? 1 : 0;
}

process.exitCode = await main();
