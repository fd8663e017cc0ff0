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
/** (seq << 16) | the chunks the workers finished. */
export const CtlDone = 2;
/** 1: the workers exit. */
export const CtlStop = 3;
export const CtlTableEpoch = 4;
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
/** The version of each scorer's memo buffer the job uses, MaxScorers of them. */
export const CtlMemoVersions = CtlSpecIds + MaxScorers;
export const ControlWords = CtlMemoVersions + MaxScorers;

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

/** Messages to a worker, read synchronously (receiveMessageOnPort) when a job names what it lacks. */
export type RowPassMessage =
  | { readonly kind: 'table'; readonly epoch: number; readonly table: Float64Array; readonly length: number }
  | { readonly kind: 'out'; readonly epoch: number; readonly verdicts: Uint8Array; readonly columns: Float64Array }
  | { readonly kind: 'spec'; readonly id: number; readonly spec: RowScorerSpec }
  | { readonly kind: 'memo'; readonly id: number; readonly version: number; readonly memo: Float64Array };
