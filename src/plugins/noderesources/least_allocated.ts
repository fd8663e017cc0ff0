// LeastAllocated scoring strategy: favors nodes with more unrequested capacity
// (framework/plugins/noderesources/least_allocated.go).
import { MaxNodeScore } from '../../framework/interfaces.js';
import type { ResourceSpec } from './args.js';
import { weightedMeanScorer, type ResourceScorer } from './strategies.js';

/** ((capacity - requested) * MaxNodeScore) / capacity in int64 arithmetic; 0 when over capacity. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MaxNodeScore) / capacity);
}

export function leastResourceScorer(resources: readonly ResourceSpec[]): ResourceScorer {
  return weightedMeanScorer(resources, leastRequestedScore);
}
