// A row pass worker thread (row_pass_pool.ts starts it): claims chunks of the job the main thread
// publishes in shared memory and computes them with the main thread's own kernel.
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import { NodeRows } from '../../framework/node_rows.js';
import type { RowResourceCheck } from '../../framework/row_pass.js';
import { RowScorer } from '../../plugins/noderesources/row_arithmetic.js';
import { runRowPassChunk } from './row_pass_kernel.js';
import {
  ClaimClosed, CtlChunkRows, CtlChunks, CtlClaim, CtlCount, CtlDone, CtlFirst, CtlOutCapacity, CtlOutEpoch, CtlScorers,
  CtlMemoVersions, CtlSeq, CtlSpecIds, CtlStop, CtlTableEpoch, MaxResources, ParamEpochs, ParamCPU, ParamEphemeral, ParamMemory,
  ParamRequests, type RowPassMessage, type RowPassWorkerData,
} from './row_pass_shared.js';

const data = workerData as RowPassWorkerData;
const port = data.port;
const ctl = new Int32Array(data.control);
const params = new Float64Array(data.params);

// What the messages handed over so far: the newest table and output buffers, every spec.
let tableEpoch = -1;
let rows: NodeRows | null = null;
let outEpoch = -1;
let verdicts: Uint8Array | null = null;
let columnsBuffer: Float64Array | null = null;
const scorers = new Map<number, RowScorer | null>();
const memos = new Map<number, { readonly version: number; readonly memo: Float64Array }>();

function drain(): void {
  for (;;) {
    const m = receiveMessageOnPort(port);
    if (m === undefined) return;
    const msg = m.message as RowPassMessage;
    if (msg.kind === 'table') {
      tableEpoch = msg.epoch;
      rows = new NodeRows(new Array<object>(msg.length), msg.table);
    } else if (msg.kind === 'out') {
      outEpoch = msg.epoch;
      verdicts = msg.verdicts;
      columnsBuffer = msg.columns;
    } else if (msg.kind === 'memo') {
      memos.set(msg.id, { version: msg.version, memo: msg.memo });
    } else {
      scorers.set(msg.id, RowScorer.of(msg.spec));
    }
  }
}

/** Whether this worker holds everything the open job names (after reading its messages). */
function ready(table: number, out: number, specIds: readonly number[], memoVersions: readonly number[]): boolean {
  const have = (): boolean => tableEpoch === table && outEpoch === out &&
    specIds.every((id, s) => scorers.get(id) != null && memos.get(id)?.version === memoVersions[s]);
  if (have()) return true;
  drain();
  return have();
}

const check = { milliCPU: 0, memory: 0, ephemeralStorage: 0 } satisfies RowResourceCheck;
const jobScorers: RowScorer[] = [];
const jobRequests: Float64Array[] = [];
const jobColumns: Float64Array[] = [];
const jobMemos: Float64Array[] = [];
const jobEpochs: number[] = [];

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
    const n = ctl[CtlScorers]!;
    const specIds: number[] = [];
    const memoVersions: number[] = [];
    for (let s = 0; s < n; s++) {
      specIds.push(ctl[CtlSpecIds + s]!);
      memoVersions.push(ctl[CtlMemoVersions + s]!);
    }
    if (!ready(ctl[CtlTableEpoch]!, ctl[CtlOutEpoch]!, specIds, memoVersions)) return;
    check.milliCPU = params[ParamCPU]!;
    check.memory = params[ParamMemory]!;
    check.ephemeralStorage = params[ParamEphemeral]!;
    jobScorers.length = 0;
    jobRequests.length = 0;
    jobColumns.length = 0;
    jobMemos.length = 0;
    jobEpochs.length = 0;
    for (let s = 0; s < n; s++) {
      jobMemos.push(memos.get(specIds[s]!)!.memo);
      jobEpochs.push(params[ParamEpochs + s]!);
      const scorer = scorers.get(specIds[s]!)!;
      jobScorers.push(scorer);
      jobRequests.push(params.slice(ParamRequests + s * MaxResources, ParamRequests + (s + 1) * MaxResources));
      jobColumns.push(columnsBuffer!.subarray(s * capacity, (s + 1) * capacity));
    }
    if (Atomics.compareExchange(ctl, CtlClaim, claim, claim + 1) !== claim) continue;
    const from = chunk * chunkRows;
    runRowPassChunk(rows!, first, from, Math.min(count, from + chunkRows), check, jobScorers, jobRequests, verdicts!, jobColumns, jobMemos, jobEpochs);
    for (;;) {
      const done = Atomics.load(ctl, CtlDone);
      if (done >>> 16 !== seq) break;
      if (Atomics.compareExchange(ctl, CtlDone, done, done + 1) === done) break;
    }
    Atomics.notify(ctl, CtlDone);
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
