// The embedded cluster at scale: memory per node and per pod (heap after GC), then throughput and
// attempt percentiles of SchedulingBasic's pods on the filled cluster, at each size. The cluster
// and the scheduler are the built package's (dist/, the bundle `kube-scheduler-ts` runs), as a user
// runs them; npm run bench:scale builds it first. Each size runs in a process of its own.
// Run: npm run bench:scale [-- --sizes 5000x50000,50000x500000,100000x1000000] [--warm-pods 1000] [--measure-pods 5000] [--json FILE]
//        [--docs FILE: rewrite the table between FILE's bench:scale markers]
//        [--render A.json,B.json --docs FILE: the table from earlier --json runs, without running]
//        [--cpu-profile PREFIX]   (a V8 profile of each size's measured pods: PREFIX-<nodes>.cpuprofile)
// (node --expose-gc, heap limit 8 GiB: a size that does not fit fails with V8's out-of-memory error.)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBlock } from './docs_block.js';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { cpuUsage, memoryUsage } from 'node:process';
import { parseArgs } from 'node:util';
import os from 'node:os';
import type { Node, Pod } from '../../src/api/types.js';
import { percentile } from '../../src/bench/metrics.js';
import { template } from '../../src/bench/templates.js';
import { admitPod, defaultConfiguration, inTreeRegistry, MemoryCluster, notYetAvailablePlugins, RealClock, Scheduler, seededRandom } from 'kube-scheduler-ts';

const usage = `usage: npm run bench:scale [-- --sizes 5000x50000,50000x500000,100000x1000000] [--warm-pods 1000] [--measure-pods 5000] [--json FILE]
         [--docs FILE] [--render A.json,B.json --docs FILE] [--cpu-profile PREFIX] [--parallelism N]
  --sizes          nodes x bound pods per size, comma-separated
  --warm-pods      SchedulingBasic pods scheduled first on each filled cluster, timed on their own
                   (the first pods after a start) and not measured, as scheduler_perf's init pods
  --measure-pods   SchedulingBasic pods scheduled and timed on each filled cluster after those
  --json FILE      the figures as JSON
  --docs FILE      rewrite the table between FILE's bench:scale markers
  --render LIST    the table from earlier --json runs (with --docs), without running
  --cpu-profile P  a V8 profile of each size's measured pods: P-<nodes>.cpuprofile
  --parallelism N  the configuration's parallelism (default 16)
  --row-workers N  worker threads for long Filter walks (none by default; 0: the row pass on the
                   main thread alone; auto: min(parallelism, cores) - 1)
  --row-spin N     a worker's busy-wait iterations between jobs (default 20000)`;

/** The flags, or the exit code when there is nothing to run (--help: 0; a bad flag: 2, with the reason). */
function readFlags() {
  try {
    const { values } = parseArgs({
      options: {
        sizes: { type: 'string', default: '5000x50000,50000x500000,100000x1000000' },
        'warm-pods': { type: 'string', default: '1000' },
        'measure-pods': { type: 'string', default: '5000' },
        json: { type: 'string' },
        'cpu-profile': { type: 'string' },
        parallelism: { type: 'string' },
        'row-workers': { type: 'string' },
        'row-spin': { type: 'string' },
        docs: { type: 'string' },
        render: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (!values.help) return values;
    console.log(usage);
    process.exit(0);
  } catch (err) {
    console.error(`bench:scale: ${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
}
const flags = readFlags();

/** One size's figures: bytes are heap used after a full GC. */
interface ScaleRow {
  nodes: number;
  pods: number;
  bytesPerNode: number;
  bytesPerPod: number;
  /** Heap after GC with every node and pod in the cluster and the scheduler's cache. */
  heapBytes: number;
  /** Heap after GC once the measured pods are bound (the snapshot built as well). */
  heapAfterRunBytes: number;
  /** CPU time of the first snapshot of the filled cluster (what the first cycle after a start pays). */
  firstSnapshotMs: number;
  /** Bound pods created per second (the store, the informer events and the cache, no scheduling). */
  fillPodsPerSecond: number;
  /** Pods scheduled before the measured ones (the code's first cycles), and their pods/s. */
  warmPods: number;
  warmPodsPerSecond: number;
  measuredPods: number;
  podsPerSecond: number;
  podsPerCpuSecond: number;
  attemptMs: { p50: number; p90: number; p99: number };
}

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench:scale does)');

function heapAfterGC(): number {
  gc!();
  gc!();
  return memoryUsage().heapUsed;
}

function nodeNamed(i: number): Node {
  const t = template('node-default.yaml') as Node;
  return { ...t, metadata: { name: `scheduler-perf-${i}` } };
}

function podNamed(name: string, nodeName: string | null): Pod {
  const t = template('pod-default.yaml') as Pod;
  return { ...t, metadata: { name, namespace: 'scale' }, spec: nodeName === null ? t.spec : { ...t.spec, nodeName } };
}

async function measureSize(nodes: number, pods: number, warm: number, measured: number): Promise<ScaleRow> {
  const clock = new RealClock();
  const registry = inTreeRegistry();
  const cluster = new MemoryCluster({ clock, admitPod });
  const attempts: number[] = [];
  const config = defaultConfiguration(registry);
  if (flags.parallelism !== undefined) config.parallelism = Number(flags.parallelism);
  const rowWorkers = flags['row-workers'];
  const rowPass = rowWorkers === undefined ? undefined : { workers: rowWorkers === 'auto' ? undefined : Number(rowWorkers), spin: flags['row-spin'] === undefined ? undefined : Number(flags['row-spin']) };
  const scheduler = Scheduler.fromConfig(config, {
    rowPass,
    registry,
    client: cluster,
    clock,
    random: seededRandom(1),
    notYetAvailable: notYetAvailablePlugins,
    onAttempt: (a) => attempts.push(a.durationSeconds),
  });
  // Bindings of pending pods, and the count at which `wake` is called.
  let bound = 0;
  let wakeAt = Infinity;
  let wake: (() => void) | null = null;
  await cluster.start((ev) => {
    if (ev.kind !== 'Pod' || ev.type !== 'MODIFIED') return;
    if ((ev.object as Pod).spec.nodeName && !(ev.oldObject as Pod | undefined)?.spec.nodeName) {
      bound++;
      if (bound >= wakeAt) wake?.();
    }
  });
  /** Creates `count` pending pods named `prefix-i` and resolves once all of them are bound. */
  const scheduleAll = (prefix: string, count: number): Promise<void> => {
    const done = new Promise<void>((resolve) => (wake = resolve));
    wakeAt = bound + count;
    for (let i = 0; i < count; i++) cluster.create(podNamed(`${prefix}-${i}`, null));
    return count === 0 ? Promise.resolve() : done;
  };
  await scheduler.start();
  cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'scale' } });
  const empty = heapAfterGC();
  for (let i = 0; i < nodes; i++) cluster.create(nodeNamed(i));
  const withNodes = heapAfterGC();
  const fillStart = performance.now();
  // Bound pods, spread evenly: what a running cluster's informers list at start.
  for (let i = 0; i < pods; i++) cluster.create(podNamed(`bound-${i}`, `scheduler-perf-${i % nodes}`));
  const fillSeconds = (performance.now() - fillStart) / 1000;
  const full = heapAfterGC();

  const snapshotCpu = cpuUsage();
  scheduler.cache.updateSnapshot(scheduler.snapshot);
  const snapshotUsed = cpuUsage(snapshotCpu);
  // The first pods after a start run code V8 has not optimized yet; scheduler_perf's init pods
  // (SchedulingBasic's 1,000 at 5,000 nodes) go through the scheduler before its measured ones too.
  scheduler.loop.start();
  const warmStart = performance.now();
  await scheduleAll('warm', warm);
  const warmSeconds = (performance.now() - warmStart) / 1000;
  await scheduler.waitForBindings();
  attempts.length = 0;
  const profiler = flags['cpu-profile'] === undefined ? null : new Session();
  if (profiler !== null) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpu = cpuUsage();
  const start = performance.now();
  await scheduleAll('pending', measured);
  const seconds = (performance.now() - start) / 1000;
  const used = cpuUsage(cpu);
  if (profiler !== null) {
    const { profile } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    writeFileSync(`${flags['cpu-profile']}-${nodes}.cpuprofile`, JSON.stringify(profile));
  }
  await scheduler.loop.stop();
  await scheduler.waitForBindings();
  if (scheduler.rowPass !== null) console.error(`row pass: ${JSON.stringify(scheduler.rowPass.stats)}`);
  scheduler.stop();
  const afterRun = heapAfterGC();
  // Also keeps the cluster and the scheduler alive through the measurement above: V8 may collect
  // what a function no longer uses, and the heap would then not hold what it is meant to.
  const stored = cluster.list<Pod>('Pod').length;
  if (stored !== pods + warm + measured || scheduler.cache.podCount < pods) throw new Error(`expected ${pods + warm + measured} pods after the run, found ${stored}`);
  attempts.sort((a, b) => a - b);
  const ms = (p: number) => percentile(attempts, p) * 1000;
  return {
    nodes,
    pods,
    bytesPerNode: (withNodes - empty) / nodes,
    bytesPerPod: (full - withNodes) / pods,
    heapBytes: full,
    heapAfterRunBytes: afterRun,
    firstSnapshotMs: (snapshotUsed.user + snapshotUsed.system) / 1000,
    fillPodsPerSecond: pods / fillSeconds,
    warmPods: warm,
    warmPodsPerSecond: warm === 0 ? 0 : warm / warmSeconds,
    measuredPods: measured,
    podsPerSecond: measured / seconds,
    podsPerCpuSecond: measured / ((used.user + used.system) / 1e6),
    attemptMs: { p50: ms(50), p90: ms(90), p99: ms(99) },
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const tableHead = [
  '| nodes | bound pods | heap after GC | after the run | bytes per node | bytes per pod | bound pods filled per s | first snapshot ms | first pods: pods/s (count) | measured pods | pods/s | pods per CPU-s | attempt p50 / p90 / p99 ms |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** The warm-up's pods/s and count; none in runs measured before there was a warm-up (--render). */
const warmCell = (r: ScaleRow): string => (r.warmPods === undefined || r.warmPods === 0 ? 'none' : `${fmt(r.warmPodsPerSecond)} (${fmt(r.warmPods)})`);

function tableRow(r: ScaleRow): string {
  return `| ${fmt(r.nodes)} | ${fmt(r.pods)} | ${fmt(r.heapBytes / 2 ** 20)} MiB | ${fmt(r.heapAfterRunBytes / 2 ** 20)} MiB | ${fmt(r.bytesPerNode)} | ${fmt(r.bytesPerPod)} | ${fmt(r.fillPodsPerSecond)} | ${fmt(r.firstSnapshotMs)} | ${warmCell(r)} | ${fmt(r.measuredPods)} | ${fmt(r.podsPerSecond)} | ${fmt(r.podsPerCpuSecond)} | ${fmt(r.attemptMs.p50, 2)} / ${fmt(r.attemptMs.p90, 2)} / ${fmt(r.attemptMs.p99, 2)} |`;
}

/** Replaces the bench:scale block of `file` with the table of `runs`. */
function writeDocs(file: string, runs: readonly ScaleRun[]): void {
  const when = runs.map((r) => `${r.measuredAt.slice(0, 10)}, Node ${r.node}, ${r.cores}, load average ${r.loadAverage.toFixed(1)} at the start`);
  const note = `Measured with \`npm run bench:scale\` (${[...new Set(when)].join('; ')}), each size in a process of its own: wall-clock pods/s and the attempt percentiles shrink with the machine's load, pods per CPU-second much less. "First pods": pending pods scheduled before the measured ones (as scheduler_perf's init pods), on code V8 has not optimized yet, timed on their own; the measured pods follow them.`;
  writeBlock(file, 'bench:scale table', [note, '', ...tableHead, ...runs.flatMap((r) => r.rows).map(tableRow)].join('\n'));
}

function measuredCores(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}`;
}

const loadAtStart = os.loadavg()[0]!;

/** What --json writes: the rows and where they were measured. */
interface ScaleRun {
  measuredAt: string;
  node: string;
  cores: string;
  loadAverage: number;
  rows: ScaleRow[];
}

/**
 * One size measured by a process of its own, so that no size's heap figures hold what an earlier
 * size left behind, nor its code what an earlier size warmed up.
 */
function measureInChild(size: string): ScaleRow {
  const out = join(mkdtempSync(join(os.tmpdir(), 'bench-scale-')), 'size.json');
  const passed = (['warm-pods', 'measure-pods', 'cpu-profile', 'parallelism', 'row-workers', 'row-spin'] as const)
    .flatMap((name) => (flags[name] === undefined ? [] : [`--${name}`, flags[name]]));
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--sizes', size, '--json', out, ...passed], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (child.status !== 0) throw new Error(`bench:scale: the run of size ${size} failed (${child.signal ?? `exit ${child.status}`})`);
  const run = JSON.parse(readFileSync(out, 'utf8')) as ScaleRun;
  rmSync(dirname(out), { recursive: true });
  return run.rows[0]!;
}

async function main(): Promise<void> {
  if (flags.render !== undefined) {
    if (flags.docs === undefined) throw new Error('--render needs --docs FILE');
    writeDocs(flags.docs, flags.render.split(',').map((f) => JSON.parse(readFileSync(f, 'utf8')) as ScaleRun));
    return;
  }
  const measured = Number(flags['measure-pods']);
  const warm = Number(flags['warm-pods']);
  if (!(measured > 0) || !(warm >= 0)) throw new Error('--measure-pods must be positive and --warm-pods not negative');
  const sizes = flags.sizes.split(',');
  for (const size of sizes) if (!/^[1-9]\d*x\d+$/.test(size)) throw new Error(`--sizes: "${size}" is not NODESxPODS`);
  const rows: ScaleRow[] = [];
  for (const line of tableHead) console.log(line);
  for (const size of sizes) {
    const [n, p] = size.split('x').map(Number) as [number, number];
    const r = sizes.length === 1 ? await measureSize(n, p, warm, measured) : measureInChild(size);
    rows.push(r);
    console.log(tableRow(r));
  }
  const run: ScaleRun = { measuredAt: new Date().toISOString(), node: process.version, cores: measuredCores(), loadAverage: loadAtStart, rows };
  if (flags.json) writeFileSync(flags.json, JSON.stringify(run, null, 2) + '\n');
  if (flags.docs) writeDocs(flags.docs, [run]);
}

await main();
