// MostAllocated scoring strategy: favors nodes with more requested capacity (bin packing)
// (framework/plugins/noderesources/most_allocated.go).
import { MaxNodeScore } from '../../framework/interfaces.js';
import type { ResourceSpec } from './args.js';
import { weightedMeanScorer, type ResourceScorer } from './resource_allocation.js';

/** (requested * MaxNodeScore) / capacity in int64 arithmetic, requested capped at capacity. */
function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  // Requested can exceed capacity because pods without requests count as 100m / 200Mi.
  const r = requested > capacity ? capacity : requested;
  return Math.trunc((r * MaxNodeScore) / capacity);
}

export function mostResourceScorer(resources: readonly ResourceSpec[]): ResourceScorer {
  return weightedMeanScorer(resources, mostRequestedScore);
}
