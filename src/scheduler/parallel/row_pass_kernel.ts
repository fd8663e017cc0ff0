// One chunk of a row pass (framework/row_pass.ts): the same function on the main thread and on the
// worker threads, so that a row's verdict and scores do not depend on which thread computed them.
import type { NodeRows } from '../../framework/node_rows.js';
import { MaxNodeScore, MinNodeScore } from '../../framework/interfaces.js';
import { NoPassedScore, type RowResourceCheck } from '../../framework/row_pass.js';
import { fitsRow, type RowScorer } from '../../plugins/noderesources/row_arithmetic.js';

/** Numbers per memo entry: the row's generation, the epoch of the scorer's requests, the score. */
export const MemoStride = 3;

/**
 * Rows first + from .. first + to - 1: `verdicts[k]` 1 when row first + k has its Node and passes
 * `check`, else 0; `columns[s][k]` scorer s's score of a passing row (a node score: an integer
 * from 0 to 100), NoPassedScore for the others and for a score that is not a node score. A score
 * is kept in `memos[s]` at the row's position with its generation and `epochs[s]` (the scorer's
 * requests): a row unchanged since it was last scored for the same requests is not scored again.
 * Each thread has memos of its own (a chunk may be computed twice, by a worker and by the main
 * thread that stopped waiting for it).
 */
export function runRowPassChunk(
  rows: NodeRows,
  first: number,
  from: number,
  to: number,
  check: RowResourceCheck,
  scorers: readonly RowScorer[],
  podRequests: readonly Float64Array[],
  verdicts: Uint8Array,
  columns: readonly Uint8Array[],
  memos: readonly Float64Array[],
  epochs: readonly number[],
): void {
  for (let k = from; k < to; k++) {
    const at = first + k;
    if (!rows.hasNode(at) || !fitsRow(rows, at, check)) {
      verdicts[k] = 0;
      for (let s = 0; s < scorers.length; s++) columns[s]![k] = NoPassedScore;
      continue;
    }
    verdicts[k] = 1;
    const generation = rows.generation(at);
    const slot = at * MemoStride;
    for (let s = 0; s < scorers.length; s++) {
      const memo = memos[s]!;
      const epoch = epochs[s]!;
      let score: number;
      if (memo[slot] === generation && memo[slot + 1] === epoch) {
        score = memo[slot + 2]!;
      } else {
        score = scorers[s]!.score(rows, at, podRequests[s]!);
        memo[slot] = generation;
        memo[slot + 1] = epoch;
        memo[slot + 2] = score;
      }
      // Anything else is left to the main thread's Score, which reports it as upstream does.
      columns[s]![k] = score >= MinNodeScore && score <= MaxNodeScore && Number.isInteger(score) ? score : NoPassedScore;
    }
  }
}
