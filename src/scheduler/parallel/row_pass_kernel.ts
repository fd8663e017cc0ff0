// One chunk of a row pass (framework/row_pass.ts): the same function on the main thread and on the
// worker threads, so that a row's verdict and scores do not depend on which thread computed them.
import type { NodeRows } from '../../framework/node_rows.js';
import type { RowResourceCheck } from '../../framework/row_pass.js';
import { fitsRow, type RowScorer } from '../../plugins/noderesources/row_arithmetic.js';

/** Numbers per memo entry: the row's generation, the epoch of the scorer's requests, the score. */
export const MemoStride = 3;

/**
 * Rows first + from .. first + to - 1: `verdicts[k]` 1 when row first + k has its Node and passes
 * `check`, else 0; `columns[s][k]` scorer s's score of a passing row, NaN for the others. A score
 * is kept in `memos[s]` at the row's position with its generation and `epochs[s]` (the scorer's
 * requests): a row unchanged since it was last scored for the same requests is not scored again.
 * Each row belongs to one chunk, so no two threads touch one entry at a time.
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
  columns: readonly Float64Array[],
  memos: readonly Float64Array[],
  epochs: readonly number[],
): void {
  for (let k = from; k < to; k++) {
    const at = first + k;
    if (!rows.hasNode(at) || !fitsRow(rows, at, check)) {
      verdicts[k] = 0;
      for (let s = 0; s < scorers.length; s++) columns[s]![k] = NaN;
      continue;
    }
    verdicts[k] = 1;
    const generation = rows.generation(at);
    const slot = at * MemoStride;
    for (let s = 0; s < scorers.length; s++) {
      const memo = memos[s]!;
      const epoch = epochs[s]!;
      if (memo[slot] === generation && memo[slot + 1] === epoch) {
        columns[s]![k] = memo[slot + 2]!;
        continue;
      }
      const score = scorers[s]!.score(rows, at, podRequests[s]!);
      memo[slot] = generation;
      memo[slot + 1] = epoch;
      memo[slot + 2] = score;
      columns[s]![k] = score;
    }
  }
}
