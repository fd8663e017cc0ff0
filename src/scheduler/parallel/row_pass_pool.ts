// The row pass on worker threads (framework/row_pass.ts), as upstream's Filter walk and Score run
// over `parallelism` goroutines (schedule_one.go findNodesThatPassFilters, parallelize.Until). The
// main thread publishes a job in shared memory and computes chunks itself; workers that are awake
// claim the others. The main thread never waits for a worker: a chunk a worker has not finished
// when the main thread runs out of chunks to claim, it computes itself (the same values), so a
// slow, descheduled or missing worker costs time, never a result.
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
import { sameNumbers } from '../../util/same_numbers.js';
import {
  ClaimClosed, ControlWords, CtlChunkRows, CtlChunks, CtlClaim, CtlCount, CtlFirst, CtlOutCapacity, CtlOutEpoch, CtlOutSlot,
  CtlScorers, CtlSeq, CtlSpecIds, CtlStop, CtlTableEpoch, MaxResources, MaxScorers, OutputSlots, ParamCPU,
  ParamEphemeral, ParamEpochs, ParamMemory, ParamRequests, ParamWords, SeqMask,
  type OutputBuffers, type RowPassMessage, type RowPassWorkerData,
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
  /** The worker module; by default the one beside this module (or beside the bundled core). */
  readonly workerUrl?: URL;
  /** false: the main thread leaves every chunk to the workers and waits for them (tests of the workers' results). */
  readonly mainComputes?: boolean;
}

/**
 * Walks visiting fewer nodes stay on the main thread: handing a stretch over and back costs more
 * than computing it there (a cycle at 5,000 nodes visits 500).
 */
const defaultRowPassMinRows = 1000;

/** The pool's options for `--row-workers N`; none (no pass) when the flag is absent. */
export function rowPassWorkers(workers: number | undefined): RowPassPoolOptions | undefined {
  return workers === undefined ? undefined : { workers };
}

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
 * A worker running `url`. A TypeScript module (the sources under tsx: tests) needs tsx
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
  /** The main thread's own memo for the spec (each worker has its own). */
  memo: Float64Array;
  /** The requests the memos' current epoch holds scores for. */
  requests: Float64Array | null;
  epoch: number;
}

/** One output slot: its buffers, and what the main thread knows of the job that last used them. */
interface OutputSlot {
  epoch: number;
  buffers: OutputBuffers;
  columnViews: Uint8Array[];
  /** Chunks workers claimed in the slot's last job: its finished count must reach it before reuse. */
  claimedByWorkers: number;
}

export class RowPassPool implements RowPassRunner {
  readonly minRows: number;
  private readonly workerCount: number;
  private readonly chunkRows: number;
  private readonly spin: number;
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
  private capacity = 0;
  private readonly slots: OutputSlot[] = [];
  private readonly specs = new Map<RowScorerSpec, KnownSpec>();
  private readonly jobScorers: RowScorer[] = [];
  private readonly jobRequests: Float64Array[] = [];
  private readonly jobColumns: Uint8Array[] = [];
  private readonly jobMemos: Float64Array[] = [];
  private readonly jobEpochs: number[] = [];
  /** Which chunks of the open job the main thread claimed. */
  private mine = new Uint8Array(64);
  /**
   * Passes and chunks; the chunks workers finished first, those the main thread computed in their
   * place (a worker had claimed them, not finished), and slots replaced because a worker was late.
   */
  readonly stats = { passes: 0, chunks: 0, workerChunks: 0, stolen: 0, replacedSlots: 0 };

  constructor(options: RowPassPoolOptions) {
    this.workerCount = Math.max(0, Math.trunc(options.workers ?? 0));
    this.minRows = options.minRows ?? defaultRowPassMinRows;
    this.chunkRows = Math.max(1, options.chunkRows ?? 128);
    this.spin = options.spin ?? 20_000;
    this.workerUrl = options.workerUrl ?? defaultRowPassWorkerUrl();
    this.mainComputes = options.mainComputes ?? true;
    this.ctl[CtlClaim] = ClaimClosed;
  }

  run(rows: NodeRows, first: number, count: number, check: RowResourceCheck, scorings: readonly RowScoring[]): RowPassResult | null {
    const table = rows.table;
    if (!(table.buffer instanceof SharedArrayBuffer) || count <= 0 || scorings.length > MaxScorers) return null;
    const chunkRows = this.chunkRows;
    const chunks = Math.ceil(count / chunkRows);
    if (chunks >= ClaimClosed) return null;
    const scorers = this.jobScorers;
    const requests = this.jobRequests;
    const memos = this.jobMemos;
    const epochs = this.jobEpochs;
    scorers.length = 0;
    requests.length = 0;
    memos.length = 0;
    epochs.length = 0;
    for (let s = 0; s < scorings.length; s++) {
      const scoring = scorings[s]!;
      const known = this.specOf(scoring.spec);
      if (known.scorer === null || scoring.podRequests.length > MaxResources) return null;
      this.prepareMemo(known, scoring.podRequests, rows.list.length);
      scorers.push(known.scorer);
      requests.push(scoring.podRequests);
      memos.push(known.memo);
      epochs.push(known.epoch);
    }
    this.ensureCapacity(count);
    const useWorkers = this.startWorkers() && chunks > 1;
    this.seq = (this.seq + 1) & SeqMask;
    const slot = this.slotFor(this.seq % OutputSlots, chunks);
    const columns = this.jobColumns;
    columns.length = 0;
    for (let s = 0; s < scorings.length; s++) columns.push(slot.columnViews[s]!);
    const out = slot.buffers;
    if (!useWorkers) {
      runRowPassChunk(rows, first, 0, count, check, scorers, requests, out.verdicts, columns, memos, epochs);
    } else {
      this.publish(rows, first, count, chunks, check, scorings);
      if (this.mine.length < chunks) this.mine = new Uint8Array(chunks * 2);
      const mine = this.mine;
      mine.fill(0, 0, chunks);
      let mainChunks = 0;
      while (this.mainComputes) {
        const chunk = this.claim(chunks);
        if (chunk < 0) break;
        mine[chunk] = 1;
        mainChunks++;
        const from = chunk * chunkRows;
        runRowPassChunk(rows, first, from, Math.min(count, from + chunkRows), check, scorers, requests, out.verdicts, columns, memos, epochs);
      }
      if (!this.mainComputes) this.awaitEveryChunk(out.finishedCount, chunks);
      // No chunk is claimed after this: the rest were claimed by workers.
      const closed = this.closeClaims(chunks);
      slot.claimedByWorkers = closed - mainChunks;
      for (let chunk = 0; chunk < chunks; chunk++) {
        if (mine[chunk] === 1) continue;
        if (chunk < closed && Atomics.load(out.finished, chunk) === 1) {
          this.stats.workerChunks++;
          continue;
        }
        // Claimed by a worker that has not finished it (or never claimed): computed here, the
        // same values; the worker's late writes go to this slot only, which waits for them.
        const from = chunk * chunkRows;
        runRowPassChunk(rows, first, from, Math.min(count, from + chunkRows), check, scorers, requests, out.verdicts, columns, memos, epochs);
        if (chunk < closed) this.stats.stolen++;
      }
    }
    this.stats.passes++;
    this.stats.chunks += chunks;
    return new RowPassResult(rows, first, count, out.verdicts, scorings.slice(), columns.slice());
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

  /** Starts the workers on first use; false when there are none (or they failed). */
  private startWorkers(): boolean {
    if (this.workerCount === 0 || this.broken) return false;
    if (this.workers !== null) return true;
    const workers: { worker: Worker; port: MessagePort }[] = [];
    this.workers = workers;
    for (let i = 0; i < this.workerCount; i++) {
      const { port1, port2 } = new MessageChannel();
      const workerData: RowPassWorkerData = { control: this.control, params: this.paramsBuffer, spin: this.spin, port: port2 };
      let worker: Worker;
      try {
        worker = startWorker(this.workerUrl, workerData, [port2]);
      } catch {
        // No worker can start here (e.g. tsx missing for the TypeScript sources): passes go on without.
        port1.close();
        this.close();
        return false;
      }
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
    // What every later job assumes the workers were told.
    this.slots.forEach((slot, i) => this.post({ kind: 'out', slot: i, epoch: slot.epoch, buffers: slot.buffers }));
    for (const [spec, known] of this.specs) this.post({ kind: 'spec', id: known.id, spec });
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
      known = { id: this.specs.size, scorer: RowScorer.of(spec), memo: new Float64Array(0), requests: null, epoch: 0 };
      this.specs.set(spec, known);
      if (known.scorer !== null) this.post({ kind: 'spec', id: known.id, spec: { strategy: spec.strategy, resources: spec.resources, shape: spec.shape, useRequested: spec.useRequested } });
    }
    return known;
  }

  /** The main thread's memo covering `rows` positions, at the epoch of `podRequests` (a new one for other requests). */
  private prepareMemo(known: KnownSpec, podRequests: Float64Array, rows: number): void {
    if (known.memo.length < rows * MemoStride) {
      // Generation 0 is never handed out, so a zeroed entry never hits.
      const memo = new Float64Array(rows * MemoStride);
      memo.set(known.memo);
      known.memo = memo;
    }
    if (known.requests === null || !sameNumbers(known.requests, podRequests)) {
      known.epoch++;
      known.requests = Float64Array.from(podRequests);
    }
  }

  private ensureCapacity(count: number): void {
    if (this.capacity >= count) return;
    this.capacity = Math.max(count, this.capacity * 2, 1024);
    for (let i = 0; i < OutputSlots; i++) this.replaceSlot(i);
  }

  /**
   * Slot `i` for a job of `chunks` chunks: reused once every chunk workers claimed in its last job
   * is finished (no late write can land in it), else replaced by fresh buffers.
   */
  private slotFor(i: number, chunks: number): OutputSlot {
    let slot = this.slots[i]!;
    if (Atomics.load(slot.buffers.finishedCount, 0) !== slot.claimedByWorkers) {
      this.stats.replacedSlots++;
      slot = this.replaceSlot(i);
    }
    Atomics.store(slot.buffers.finishedCount, 0, 0);
    slot.claimedByWorkers = 0;
    slot.buffers.finished.fill(0, 0, chunks);
    return slot;
  }

  /** New buffers for slot `i` (a new epoch the workers are told of). */
  private replaceSlot(i: number): OutputSlot {
    const capacity = this.capacity;
    const chunks = Math.ceil(capacity / this.chunkRows);
    const buffers: OutputBuffers = {
      verdicts: new Uint8Array(new SharedArrayBuffer(capacity)),
      columns: new Uint8Array(new SharedArrayBuffer(capacity * MaxScorers)),
      finished: new Uint8Array(new SharedArrayBuffer(chunks)),
      finishedCount: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)),
    };
    const columnViews: Uint8Array[] = [];
    for (let s = 0; s < MaxScorers; s++) columnViews.push(buffers.columns.subarray(s * capacity, (s + 1) * capacity));
    const slot: OutputSlot = { epoch: (this.slots[i]?.epoch ?? 0) + 1, buffers, columnViews, claimedByWorkers: 0 };
    this.slots[i] = slot;
    this.post({ kind: 'out', slot: i, epoch: slot.epoch, buffers });
    return slot;
  }

  /** Writes the job, then opens it (the claim word) and wakes the workers. */
  private publish(rows: NodeRows, first: number, count: number, chunks: number, check: RowResourceCheck, scorings: readonly RowScoring[]): void {
    const ctl = this.ctl;
    if (rows.table !== this.table) {
      this.table = rows.table;
      this.tableEpoch++;
      this.post({ kind: 'table', epoch: this.tableEpoch, table: rows.table, length: rows.list.length });
    }
    const slot = this.seq % OutputSlots;
    ctl[CtlTableEpoch] = this.tableEpoch;
    ctl[CtlOutSlot] = slot;
    ctl[CtlOutEpoch] = this.slots[slot]!.epoch;
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
      params.set(scoring.podRequests, ParamRequests + s * MaxResources);
      params[ParamEpochs + s] = known.epoch;
    }
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

  /** Closes the open job to claims; returns how many chunks were claimed (at most `chunks`). */
  private closeClaims(chunks: number): number {
    const closed = Atomics.exchange(this.ctl, CtlClaim, (this.seq << 16) | ClaimClosed) & 0xffff;
    return Math.min(closed, chunks);
  }

  /** Tests only (mainComputes false): waits until workers claimed and finished every chunk. */
  private awaitEveryChunk(counter: Int32Array, chunks: number): void {
    for (;;) {
      const finished = Atomics.load(counter, 0);
      if (finished >= chunks) return;
      Atomics.wait(counter, 0, finished, 10);
    }
  }
}
