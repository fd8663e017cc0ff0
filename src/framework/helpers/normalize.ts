// Shared score math (framework/plugins/helper/normalize_score.go).
import { MaxNodeScore, type NodeScore } from '../interfaces.js';

/**
 * Scales scores to [0, maxPriority] by the highest score; with `reverse` the best becomes the
 * lowest. All zero scores become maxPriority when reversed, as upstream does.
 */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  let maxCount = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]!.score > maxCount) maxCount = scores[i]!.score;
  if (maxCount === 0) {
    if (reverse) for (let i = 0; i < scores.length; i++) scores[i]!.score = maxPriority;
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    let s = Math.trunc((maxPriority * scores[i]!.score) / maxCount);
    if (reverse) s = maxPriority - s;
    scores[i]!.score = s;
  }
}

export { MaxNodeScore };
