// The row pass on worker threads (framework/row_pass.ts), as upstream's Filter walk and Score run
// over `parallelism` goroutines (schedule_one.go findNodesThatPassFilters, parallelize.Until). The
// main thread publishes a job in shared memory and computes chunks itself; workers that are awake
// claim the others. The main thread never waits for a worker to wake up, only for chunks a worker
// already claimed, so a slow or missing worker costs time, never a result.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { NodeRows } from '../../framework/node_rows.js';
import { RowPassResult, type RowPassRunner, type RowResourceCheck, type RowScorerSpec, type RowScoring } from '../../framework/row_pass.js';
import { RowScorer } from '../../plugins/noderesources/row_arithmetic.js';
import { MemoStride, runRowPassChunk } from './row_pass_kernel.js';
import {
  ClaimClosed, ControlWords, CtlChunkRows, CtlChunks, CtlClaim, CtlCount, CtlDone, CtlFirst, CtlOutCapacity, CtlOutEpoch,
  CtlMemoVersions, CtlScorers, CtlSeq, CtlSpecIds, CtlStop, CtlTableEpoch, MaxResources, MaxScorers, ParamCPU, ParamEphemeral, ParamMemory,
  ParamEpochs, ParamRequests, ParamWords, SeqMask, type RowPassMessage, type RowPassWorkerData,
} from './row_pass_shared.js';

export interface RowPassPoolOptions {
  /** Worker threads beside the main thread; 0 runs every pass on the main thread alone. */
  readonly workers?: number;
  /** Stretches of fewer rows are walked as before (handing work over costs ~15 µs); default 1,000. */
  readonly minRows?: number;
  /** Rows per claimed chunk. */
  readonly chunkRows?: number;
  /** A worker's busy-wait iterations before it sleeps between jobs. */
  readonly spin?: number;
  /** Atomics.wait rounds of 1 ms the main thread gives a worker's claimed chunk before computing it itself. */
  readonly patienceMs?: number;
  /** The worker module; by default the one beside this module (or beside the bundled core). */
  readonly workerUrl?: URL;
  /** false: the main thread leaves every chunk to the workers (tests of the workers' results). */
  readonly mainComputes?: boolean;
}

/**
 * Walks visiting fewer nodes stay on the main thread: handing a stretch over and back costs more
 * than computing it there (a cycle at 5,000 nodes visits 500).
 */
const defaultRowPassMinRows = 1000;

/**
 * The scheduler's pool: none unless asked for (`options`), because on the 2-core machine of
 * docs/performance.md a worker made the scheduler slower, and larger machines were not measured.
 * Asked for without a count, as many workers as `parallelism` (KubeSchedulerConfiguration) allows
 * beside the main thread and the machine has other cores.
 */
export function rowPassPool(parallelism: number, options?: RowPassPoolOptions | null): RowPassPool | null {
  if (options == null) return null;
  const workers = options.workers ?? Math.min(parallelism - 1, availableParallelism() - 1);
  if (workers < 0) return null;
  return new RowPassPool({ ...options, workers });
}

/** The worker module beside this one: the TypeScript source under tsx, the bundle's own file in dist/. */
function defaultRowPassWorkerUrl(): URL {
  const here = import.meta.url;
  // In dist/, every module is bundled into dist/core.js, whose URL this is; the worker is its own file.
  return here.endsWith('.ts') ? new URL('./row_pass_worker.ts', here) : new URL('./scheduler/parallel/row_pass_worker.js', here);
}

/**
 * A worker running `url`. A TypeScript module (the sources under tsx: tests, bench:scale) needs tsx
 * registered in the worker first, which it does not inherit.
 */
function startWorker(url: URL, workerData: RowPassWorkerData, transferList: MessagePort[]): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData, transferList });
  const tsx = tsxEsmApi();
  // Text for the worker to run, not a call of this module (bundle.ts refuses import() calls in the core).
  const load = 'import';
  const code = `${load}(${JSON.stringify(tsx)}).then(({ register }) => { register(); return ${load}(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { eval: true, workerData, transferList });
}

/** tsx's ES module API (its package's exports map read by hand: require would give the CommonJS build). */
function tsxEsmApi(): string {
  const pkgFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
}

interface KnownSpec {
  readonly id: number;
  readonly scorer: RowScorer | null;
  /** Scores by row position (runRowPassChunk), shared with the workers; grown with the lists. */
  memo: Float64Array;
  memoVersion: number;
  /** The requests the memo's current epoch holds scores for. */
  requests: Float64Array | null;
  epoch: number;
}

export class RowPassPool implements RowPassRunner {
  readonly minRows: number;
  private readonly workerCount: number;
  private readonly chunkRows: number;
  private readonly spin: number;
  private readonly patienceMs: number;
  private readonly workerUrl: URL;
  private readonly mainComputes: boolean;
  private readonly control = new SharedArrayBuffer(ControlWords * Int32Array.BYTES_PER_ELEMENT);
  private readonly ctl = new Int32Array(this.control);
  private readonly paramsBuffer = new SharedArrayBuffer(ParamWords * Float64Array.BYTES_PER_ELEMENT);
  private readonly params = new Float64Array(this.paramsBuffer);
  private workers: { readonly worker: Worker; readonly port: MessagePort }[] | null = null;
  private readonly workerReady: Promise<void>[] = [];
  /** A worker failed or exited: passes run on the main thread alone. */
  private broken = false;
  private seq = 0;
  private table: Float64Array | null = null;
  private tableEpoch = 0;
  private outEpoch = 0;
  private capacity = 0;
  private verdicts: Uint8Array = new Uint8Array(0);
  private columnsBuffer: Float64Array = new Float64Array(0);
  private columnViews: Float64Array[] = [];
  private readonly specs = new Map<RowScorerSpec, KnownSpec>();
  private readonly jobScorers: RowScorer[] = [];
  private readonly jobRequests: Float64Array[] = [];
  private readonly jobColumns: Float64Array[] = [];
  private readonly jobMemos: Float64Array[] = [];
  private readonly jobEpochs: number[] = [];
  /** Chunks the workers computed, and passes where the main thread stopped waiting for one (diagnostics). */
  readonly stats = { passes: 0, chunks: 0, workerChunks: 0, gaveUp: 0 };

  constructor(options: RowPassPoolOptions) {
    this.workerCount = Math.max(0, Math.trunc(options.workers ?? 0));
    this.minRows = options.minRows ?? defaultRowPassMinRows;
    this.chunkRows = Math.max(1, options.chunkRows ?? 256);
    this.spin = options.spin ?? 20_000;
    this.patienceMs = options.patienceMs ?? 200;
    this.workerUrl = options.workerUrl ?? defaultRowPassWorkerUrl();
    this.mainComputes = options.mainComputes ?? true;
    this.ctl[CtlClaim] = ClaimClosed;
  }

  run(rows: NodeRows, first: number, count: number, check: RowResourceCheck, scorings: readonly RowScoring[]): RowPassResult | null {
    const table = rows.table;
    if (!(table.buffer instanceof SharedArrayBuffer) || count <= 0 || scorings.length > MaxScorers) return null;
    const scorers = this.jobScorers;
    const requests = this.jobRequests;
    scorers.length = 0;
    requests.length = 0;
    for (let s = 0; s < scorings.length; s++) {
      const scoring = scorings[s]!;
      const known = this.specOf(scoring.spec);
      if (known.scorer === null || scoring.podRequests.length > MaxResources) return null;
      scorers.push(known.scorer);
      requests.push(scoring.podRequests);
    }
    const memos = this.jobMemos;
    const epochs = this.jobEpochs;
    memos.length = 0;
    epochs.length = 0;
    for (let s = 0; s < scorings.length; s++) {
      const known = this.specs.get(scorings[s]!.spec)!;
      this.prepareMemo(known, scorings[s]!.podRequests, rows.list.length);
      memos.push(known.memo);
      epochs.push(known.epoch);
    }
    this.ensureCapacity(count);
    const useWorkers = this.startWorkers();
    const chunkRows = this.chunkRows;
    const chunks = Math.ceil(count / chunkRows);
    const columns = this.jobColumns;
    columns.length = 0;
    for (let s = 0; s < scorings.length; s++) columns.push(this.columnViews[s]!);
    if (!useWorkers || chunks < 2) {
      runRowPassChunk(rows, first, 0, count, check, scorers, requests, this.verdicts, columns, memos, epochs);
    } else {
      this.publish(rows, first, count, chunks, check, scorings);
      let mine = 0;
      while (this.mainComputes) {
        const chunk = this.claim(chunks);
        if (chunk < 0) break;
        const from = chunk * chunkRows;
        runRowPassChunk(rows, first, from, Math.min(count, from + chunkRows), check, scorers, requests, this.verdicts, columns, memos, epochs);
        mine++;
      }
      if (!this.awaitWorkers(chunks - mine)) {
        // A claimed chunk is late (a descheduled or dead worker): compute every chunk here (a
        // late worker writes the same values), then give the next jobs fresh buffers.
        runRowPassChunk(rows, first, 0, count, check, scorers, requests, this.verdicts, columns, memos, epochs);
        this.stats.gaveUp++;
        Atomics.store(this.ctl, CtlClaim, (this.seq << 16) | ClaimClosed);
        const result = this.result(rows, first, count, scorings);
        this.replaceBuffers(this.capacity);
        // The late worker may still write memo entries: later jobs use fresh memos.
        for (const scoring of scorings) this.replaceMemo(this.specs.get(scoring.spec)!, rows.list.length, false);
        return result;
      }
      this.stats.workerChunks += chunks - mine;
      Atomics.store(this.ctl, CtlClaim, (this.seq << 16) | ClaimClosed);
    }
    this.stats.passes++;
    this.stats.chunks += chunks;
    return this.result(rows, first, count, scorings);
  }

  /** Starts the workers now; resolves once each has loaded (or at once without any). */
  async started(): Promise<void> {
    if (!this.startWorkers()) return;
    // Unref'd, the workers would not keep the process up for this wait.
    const workers = this.workers!;
    for (const { worker } of workers) worker.ref();
    try {
      await Promise.all(this.workerReady);
    } finally {
      for (const { worker } of workers) worker.unref();
    }
  }

  close(): void {
    const workers = this.workers;
    this.workers = null;
    this.broken = true;
    if (workers === null) return;
    Atomics.store(this.ctl, CtlStop, 1);
    Atomics.notify(this.ctl, CtlSeq);
    for (const { worker, port } of workers) {
      port.close();
      void worker.terminate();
    }
  }

  private result(rows: NodeRows, first: number, count: number, scorings: readonly RowScoring[]): RowPassResult {
    return new RowPassResult(rows, first, count, this.verdicts, scorings.slice(), this.jobColumns.slice());
  }

  /** Starts the workers on first use; false when there are none (or they failed). */
  private startWorkers(): boolean {
    if (this.workerCount === 0 || this.broken) return false;
    if (this.workers !== null) return true;
    const workers: { worker: Worker; port: MessagePort }[] = [];
    for (let i = 0; i < this.workerCount; i++) {
      const { port1, port2 } = new MessageChannel();
      const workerData: RowPassWorkerData = { control: this.control, params: this.paramsBuffer, spin: this.spin, port: port2 };
      const worker = startWorker(this.workerUrl, workerData, [port2]);
      // Passes go on without workers that fail: nothing waits for them to start.
      worker.on('error', () => this.close());
      worker.on('exit', () => {
        if (this.workers !== null) this.close();
      });
      this.workerReady.push(new Promise((resolve) => {
        port1.once('message', () => resolve());
        worker.once('exit', () => resolve());
      }));
      worker.unref();
      port1.unref();
      workers.push({ worker, port: port1 });
    }
    this.workers = workers;
    // What every later job assumes the workers were told.
    this.post({ kind: 'out', epoch: this.outEpoch, verdicts: this.verdicts, columns: this.columnsBuffer });
    for (const [spec, known] of this.specs) {
      this.post({ kind: 'spec', id: known.id, spec });
      this.post({ kind: 'memo', id: known.id, version: known.memoVersion, memo: known.memo });
    }
    if (this.table !== null) this.post({ kind: 'table', epoch: this.tableEpoch, table: this.table, length: this.table.length });
    return true;
  }

  private post(message: RowPassMessage): void {
    if (this.workers === null) return;
    for (const { port } of this.workers) port.postMessage(message);
  }

  private specOf(spec: RowScorerSpec): KnownSpec {
    let known = this.specs.get(spec);
    if (known === undefined) {
      known = { id: this.specs.size, scorer: RowScorer.of(spec), memo: new Float64Array(0), memoVersion: 0, requests: null, epoch: 0 };
      this.specs.set(spec, known);
      if (known.scorer !== null) this.post({ kind: 'spec', id: known.id, spec: { strategy: spec.strategy, resources: spec.resources, shape: spec.shape, useRequested: spec.useRequested } });
    }
    return known;
  }

  /** A memo covering `rows` positions, at the epoch of `podRequests` (a new one for other requests). */
  private prepareMemo(known: KnownSpec, podRequests: Float64Array, rows: number): void {
    if (known.memo.length < rows * MemoStride) this.replaceMemo(known, rows, true);
    const last = known.requests;
    let same = last !== null && last.length === podRequests.length;
    for (let i = 0; same && i < podRequests.length; i++) if (last![i] !== podRequests[i]) same = false;
    if (!same) {
      known.epoch++;
      known.requests = Float64Array.from(podRequests);
    }
  }

  /** A new memo buffer for `rows` positions (a new version the workers are told of), with the old entries when `keep`. */
  private replaceMemo(known: KnownSpec, rows: number, keep: boolean): void {
    // Generation 0 is never handed out, so a zeroed entry never hits.
    const memo = new Float64Array(new SharedArrayBuffer(Math.max(rows, 1024) * MemoStride * Float64Array.BYTES_PER_ELEMENT));
    if (keep) memo.set(known.memo);
    known.memo = memo;
    known.memoVersion++;
    this.post({ kind: 'memo', id: known.id, version: known.memoVersion, memo });
  }

  private ensureCapacity(count: number): void {
    if (this.capacity >= count) return;
    this.replaceBuffers(Math.max(count, this.capacity * 2, 1024));
  }

  /** New output buffers (a new epoch): what a late worker writes afterwards goes to the old ones. */
  private replaceBuffers(capacity: number): void {
    this.capacity = capacity;
    this.outEpoch++;
    this.verdicts = new Uint8Array(new SharedArrayBuffer(capacity));
    this.columnsBuffer = new Float64Array(new SharedArrayBuffer(capacity * MaxScorers * Float64Array.BYTES_PER_ELEMENT));
    this.columnViews = [];
    for (let s = 0; s < MaxScorers; s++) this.columnViews.push(this.columnsBuffer.subarray(s * capacity, (s + 1) * capacity));
    this.post({ kind: 'out', epoch: this.outEpoch, verdicts: this.verdicts, columns: this.columnsBuffer });
  }

  /** Writes the job, then opens it (the claim word) and wakes the workers. */
  private publish(rows: NodeRows, first: number, count: number, chunks: number, check: RowResourceCheck, scorings: readonly RowScoring[]): void {
    const ctl = this.ctl;
    if (rows.table !== this.table) {
      this.table = rows.table;
      this.tableEpoch++;
      this.post({ kind: 'table', epoch: this.tableEpoch, table: rows.table, length: rows.list.length });
    }
    ctl[CtlTableEpoch] = this.tableEpoch;
    ctl[CtlOutEpoch] = this.outEpoch;
    ctl[CtlOutCapacity] = this.capacity;
    ctl[CtlFirst] = first;
    ctl[CtlCount] = count;
    ctl[CtlChunkRows] = this.chunkRows;
    ctl[CtlChunks] = chunks;
    ctl[CtlScorers] = scorings.length;
    const params = this.params;
    params[ParamCPU] = check.milliCPU;
    params[ParamMemory] = check.memory;
    params[ParamEphemeral] = check.ephemeralStorage;
    for (let s = 0; s < scorings.length; s++) {
      const scoring = scorings[s]!;
      const known = this.specs.get(scoring.spec)!;
      ctl[CtlSpecIds + s] = known.id;
      ctl[CtlMemoVersions + s] = known.memoVersion;
      params.set(scoring.podRequests, ParamRequests + s * MaxResources);
      params[ParamEpochs + s] = known.epoch;
    }
    this.seq = (this.seq + 1) & SeqMask;
    Atomics.store(ctl, CtlDone, this.seq << 16);
    Atomics.store(ctl, CtlClaim, this.seq << 16);
    Atomics.store(ctl, CtlSeq, this.seq);
    Atomics.notify(ctl, CtlSeq);
  }

  /** The next unclaimed chunk of the open job, or -1. */
  private claim(chunks: number): number {
    const ctl = this.ctl;
    for (;;) {
      const claim = Atomics.load(ctl, CtlClaim);
      const chunk = claim & 0xffff;
      if (chunk >= chunks) return -1;
      if (Atomics.compareExchange(ctl, CtlClaim, claim, claim + 1) === claim) return chunk;
    }
  }

  /** Waits until the workers finished the `claimed` chunks they took; false when one is late. */
  private awaitWorkers(claimed: number): boolean {
    const ctl = this.ctl;
    let spins = 0;
    let waits = 0;
    for (;;) {
      const done = Atomics.load(ctl, CtlDone);
      if ((done & 0xffff) >= claimed) return true;
      if (++spins < 100_000) continue;
      if (waits++ >= this.patienceMs) return false;
      Atomics.wait(ctl, CtlDone, done, 1);
    }
  }
}
