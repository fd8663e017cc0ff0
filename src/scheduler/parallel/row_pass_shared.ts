// The words the row pass's main thread and workers share (row_pass_pool.ts, row_pass_worker.ts):
// where each number lives in the control and parameter arrays, and the messages that hand a worker
// the shared buffers a job names.
import type { MessagePort } from 'node:worker_threads';
import type { RowScorerSpec } from '../../framework/row_pass.js';

// Int32 control words.
/** The job sequence number (15 bits): bumped and notified to wake the workers. */
export const CtlSeq = 0;
/** (seq << 16) | the next chunk to claim; chunk ClaimClosed once the main thread has the results. */
export const CtlClaim = 1;
/** 1: the workers exit. */
export const CtlStop = 2;
export const CtlTableEpoch = 3;
/** Which of the OutputSlots the job writes, and the epoch of that slot's buffers. */
export const CtlOutSlot = 4;
export const CtlOutEpoch = 5;
export const CtlOutCapacity = 6;
export const CtlFirst = 7;
export const CtlCount = 8;
export const CtlChunkRows = 9;
export const CtlChunks = 10;
export const CtlScorers = 11;
/** The scorers' spec ids, MaxScorers of them. */
export const CtlSpecIds = 12;
export const MaxScorers = 4;
export const ControlWords = CtlSpecIds + MaxScorers;
/** Jobs alternate between two sets of output buffers, so a late worker writes into an older job's. */
export const OutputSlots = 2;

export const ClaimClosed = 0xffff;
/** Sequence numbers wrap within 15 bits, so (seq << 16) stays a positive int32. */
export const SeqMask = 0x7fff;

// Float64 parameters: the check, each scorer's pod requests (MaxResources each), each scorer's memo epoch.
export const ParamCPU = 0;
export const ParamMemory = 1;
export const ParamEphemeral = 2;
export const ParamRequests = 3;
export const MaxResources = 8;
export const ParamEpochs = ParamRequests + MaxScorers * MaxResources;
export const ParamWords = ParamEpochs + MaxScorers;

/** What a worker is started with. */
export interface RowPassWorkerData {
  readonly control: SharedArrayBuffer;
  readonly params: SharedArrayBuffer;
  /** Busy-wait iterations before sleeping between jobs. */
  readonly spin: number;
  /** Where the main thread's messages arrive. */
  readonly port: MessagePort;
}

/**
 * One output slot's buffers: verdicts, MaxScorers columns of scores, a finished flag per chunk,
 * and how many chunks workers finished in them (a late worker counts in the buffers it wrote).
 */
export interface OutputBuffers {
  readonly verdicts: Uint8Array;
  readonly columns: Uint8Array;
  readonly finished: Uint8Array;
  readonly finishedCount: Int32Array;
}

/** Messages to a worker, read synchronously (receiveMessageOnPort) when a job names what it lacks. */
export type RowPassMessage =
  | { readonly kind: 'table'; readonly epoch: number; readonly table: Float64Array; readonly length: number }
  | { readonly kind: 'out'; readonly slot: number; readonly epoch: number; readonly buffers: OutputBuffers }
  | { readonly kind: 'spec'; readonly id: number; readonly spec: RowScorerSpec };
