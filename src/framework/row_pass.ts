// The row pass: the Filter walk's resource check and the resource scorers' scores over a stretch of
// a snapshot's packed rows, described as data so that worker threads can compute them (upstream
// spreads the same walk over `parallelism` goroutines: schedule_one.go findNodesThatPassFilters,
// parallelize.Until). The results are taken in list order, so decisions are those of one thread.
import type { NodeRows, PassedScores } from './node_rows.js';
import { sameNumbers } from '../util/same_numbers.js';

/**
 * NodeResourcesFit's check of a row (the pod count, cpu, memory, ephemeral storage): a request of
 * -Infinity (cpu, memory) or 0 (ephemeral storage) is not checked, as Filter skips zero requests.
 */
export interface RowResourceCheck {
  readonly milliCPU: number;
  readonly memory: number;
  readonly ephemeralStorage: number;
}

/** A resource scoring strategy as data (NodeResourcesFit's scoringStrategy, or BalancedAllocation's). */
export interface RowScorerSpec {
  /** LeastAllocated, MostAllocated, RequestedToCapacityRatio or NodeResourcesBalancedAllocation. */
  readonly strategy: string;
  /** cpu, memory and ephemeral-storage only: the numbers a row holds. */
  readonly resources: readonly { readonly name: string; readonly weight: number }[];
  /** RequestedToCapacityRatio's shape; null for the others. */
  readonly shape: readonly { readonly utilization: number; readonly score: number }[] | null;
  /** The pods' real cpu and memory requests (BalancedAllocation), not the non-zero ones. */
  readonly useRequested: boolean;
}

/** A Score plugin's scores computed from rows: `owner` finds them again in Score, for `podRequests`. */
export interface RowScoring {
  readonly owner: object;
  readonly spec: RowScorerSpec;
  /** The pod's request of each of the spec's resources, in order. */
  readonly podRequests: Float64Array;
}

/** A column's mark for a row without a score from the pass (it did not pass, or its score is not a node score). */
export const NoPassedScore = 255;

/**
 * One row pass over rows [first, first + count) of `rows`: `verdicts[k]` is 1 when row first + k
 * has its Node and passes the check (0: the Filter plugins decide), `columns[s][k]` the score of
 * `scorings[s]` there, a node score (an integer from 0 to 100) in a byte, or NoPassedScore. Bytes,
 * because a worker's results cross to the main thread's core: a third of the cache lines that
 * doubles took. Valid for the cycle that ran it.
 */
export class RowPassResult implements PassedScores {
  constructor(
    readonly rows: NodeRows,
    readonly first: number,
    readonly count: number,
    readonly verdicts: Uint8Array,
    readonly scorings: readonly RowScoring[],
    readonly columns: readonly Uint8Array[],
  ) {}

  /** The scores of `owner` for exactly `podRequests` over these rows, or null. */
  columnOf(owner: object, podRequests: Float64Array): Uint8Array | null {
    for (let s = 0; s < this.scorings.length; s++) {
      const scoring = this.scorings[s]!;
      if (scoring.owner === owner && sameNumbers(scoring.podRequests, podRequests)) return this.columns[s]!;
    }
    return null;
  }
}

/** Runs row passes for the Filter walk; the scheduler's pool of worker threads, or none. */
export interface RowPassRunner {
  /** Stretches shorter than this are walked on the main thread as before. */
  readonly minRows: number;
  /**
   * The pass over `count` rows of `rows` from `first` (within the list: no wrapping), or null when
   * it cannot run (rows not in shared memory, a strategy it does not know).
   */
  run(rows: NodeRows, first: number, count: number, check: RowResourceCheck, scorings: readonly RowScoring[]): RowPassResult | null;
  /** Stops the workers. */
  close(): void;
}
