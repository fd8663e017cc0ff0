// A row pass worker thread (row_pass_pool.ts starts it): claims chunks of the job the main thread
// publishes in shared memory and computes them with the main thread's own kernel.
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import { NodeRows } from '../../framework/node_rows.js';
import type { RowResourceCheck } from '../../framework/row_pass.js';
import { RowScorer } from '../../plugins/noderesources/row_arithmetic.js';
import { MemoStride, runRowPassChunk } from './row_pass_kernel.js';
import {
  ClaimClosed, CtlChunkRows, CtlChunks, CtlClaim, CtlCount, CtlFirst, CtlOutCapacity, CtlOutEpoch, CtlOutSlot, CtlScorers,
  CtlSeq, CtlSpecIds, CtlStop, CtlTableEpoch, MaxResources, OutputSlots, ParamCPU, ParamEphemeral,
  ParamEpochs, ParamMemory, ParamRequests, type OutputBuffers, type RowPassMessage, type RowPassWorkerData,
} from './row_pass_shared.js';

const data = workerData as RowPassWorkerData;
const port = data.port;
const ctl = new Int32Array(data.control);
const params = new Float64Array(data.params);

// What the messages handed over so far: the newest table, each slot's buffers, every spec.
let tableEpoch = -1;
let rows: NodeRows | null = null;
const outEpochs = new Array<number>(OutputSlots).fill(-1);
const outputs = new Array<OutputBuffers | null>(OutputSlots).fill(null);
const scorers = new Map<number, RowScorer | null>();
/** This thread's own memo per spec (row position: generation, epoch, score): no other thread writes it. */
const memos = new Map<number, Float64Array>();

function drain(): void {
  for (;;) {
    const m = receiveMessageOnPort(port);
    if (m === undefined) return;
    const msg = m.message as RowPassMessage;
    if (msg.kind === 'table') {
      tableEpoch = msg.epoch;
      rows = new NodeRows(new Array<object>(msg.length), msg.table);
    } else if (msg.kind === 'out') {
      outEpochs[msg.slot] = msg.epoch;
      outputs[msg.slot] = msg.buffers;
    } else {
      scorers.set(msg.id, RowScorer.of(msg.spec));
    }
  }
}

/** Whether this worker holds everything the open job names (after reading its messages). */
function ready(table: number, slot: number, out: number, specIds: readonly number[]): boolean {
  const have = (): boolean => tableEpoch === table && outEpochs[slot] === out && specIds.every((id) => scorers.get(id) != null);
  if (have()) return true;
  drain();
  return have();
}

function memoOf(id: number, positions: number): Float64Array {
  let memo = memos.get(id);
  if (memo === undefined || memo.length < positions * MemoStride) {
    // Generation 0 is never handed out, so a zeroed entry never hits.
    const grown = new Float64Array(positions * MemoStride);
    if (memo !== undefined) grown.set(memo);
    memo = grown;
    memos.set(id, memo);
  }
  return memo;
}

const check = { milliCPU: 0, memory: 0, ephemeralStorage: 0 } satisfies RowResourceCheck;
const jobScorers: RowScorer[] = [];
const jobRequests: Float64Array[] = [];
const jobColumns: Uint8Array[] = [];
const jobMemos: Float64Array[] = [];
const jobEpochs: number[] = [];
const specIds: number[] = [];

/** Claims and computes chunks of job `seq` until none is left, or the job is no longer open. */
function work(seq: number): void {
  for (;;) {
    const claim = Atomics.load(ctl, CtlClaim);
    const chunk = claim & 0xffff;
    if (claim >>> 16 !== seq || chunk === ClaimClosed) return;
    // Read before the claim: a claim that succeeds proves the job was open (unchanged) meanwhile.
    const chunks = ctl[CtlChunks]!;
    if (chunk >= chunks) return;
    const first = ctl[CtlFirst]!;
    const count = ctl[CtlCount]!;
    const chunkRows = ctl[CtlChunkRows]!;
    const capacity = ctl[CtlOutCapacity]!;
    const slot = ctl[CtlOutSlot]!;
    const n = ctl[CtlScorers]!;
    specIds.length = 0;
    for (let s = 0; s < n; s++) specIds.push(ctl[CtlSpecIds + s]!);
    if (!ready(ctl[CtlTableEpoch]!, slot, ctl[CtlOutEpoch]!, specIds)) return;
    const out = outputs[slot]!;
    check.milliCPU = params[ParamCPU]!;
    check.memory = params[ParamMemory]!;
    check.ephemeralStorage = params[ParamEphemeral]!;
    jobScorers.length = 0;
    jobRequests.length = 0;
    jobColumns.length = 0;
    jobMemos.length = 0;
    jobEpochs.length = 0;
    for (let s = 0; s < n; s++) {
      jobScorers.push(scorers.get(specIds[s]!)!);
      jobRequests.push(params.slice(ParamRequests + s * MaxResources, ParamRequests + (s + 1) * MaxResources));
      jobColumns.push(out.columns.subarray(s * capacity, (s + 1) * capacity));
      jobMemos.push(memoOf(specIds[s]!, rows!.list.length));
      jobEpochs.push(params[ParamEpochs + s]!);
    }
    if (Atomics.compareExchange(ctl, CtlClaim, claim, claim + 1) !== claim) continue;
    const from = chunk * chunkRows;
    runRowPassChunk(rows!, first, from, Math.min(count, from + chunkRows), check, jobScorers, jobRequests, out.verdicts, jobColumns, jobMemos, jobEpochs);
    // The flag publishes the chunk's results; the count tells the main thread no write is left.
    Atomics.store(out.finished, chunk, 1);
    Atomics.add(out.finishedCount, 0, 1);
    Atomics.notify(out.finishedCount, 0);
  }
}

// The job open now, if any, is taken first: its notification may have come before this thread
// waited. Then the main thread is told the worker is up (it never waits for that; tests may).
let seen = Atomics.load(ctl, CtlSeq);
work(seen);
port.postMessage('ready');
for (;;) {
  // Cycles come back to back while pods wait: a short busy wait catches the next job without a wake-up.
  let spins = data.spin;
  while (spins-- > 0 && Atomics.load(ctl, CtlSeq) === seen) {
    // busy wait
  }
  if (Atomics.load(ctl, CtlSeq) === seen && Atomics.load(ctl, CtlStop) === 0) Atomics.wait(ctl, CtlSeq, seen);
  if (Atomics.load(ctl, CtlStop) !== 0) break;
  seen = Atomics.load(ctl, CtlSeq);
  work(seen);
}
port.close();
