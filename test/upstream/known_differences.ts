// Where our scheduler still decides differently from the pinned upstream release, each with the
// upstream change behind it. A difference listed here is reported as known, not as a failure;
// each entry names the code that has to change to remove it.
import type { ExplainPod } from '../../src/sim/explain.js';

export interface KnownDifference {
  id: string;
  /** The upstream change, and where ours has to follow it. */
  why: string;
  /**
   * Upstream's answer rewritten as upstream would have answered without this change, when the
   * change explains (part of) the disagreement; else null.
   */
  undo(upstream: ExplainPod, ours: ExplainPod): ExplainPod | null;
}

export const knownDifferences: readonly KnownDifference[] = [];
