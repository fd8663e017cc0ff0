// MostAllocated scoring strategy: favors nodes with more requested capacity (bin packing)
// (framework/plugins/noderesources/most_allocated.go).
import { MaxNodeScore } from '../../framework/interfaces.js';
import type { ResourceSpec } from './args.js';
import type { ResourceScorer } from './resource_allocation.js';

/** (requested * MaxNodeScore) / capacity in int64 arithmetic, requested capped at capacity. */
function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  // Requested can exceed capacity because pods without requests count as 100m / 200Mi.
  const r = requested > capacity ? capacity : requested;
  return Math.trunc((r * MaxNodeScore) / capacity);
}

/** Weighted mean of the per-resource scores over the resources the node has. */
export function mostResourceScorer(resources: readonly ResourceSpec[]): ResourceScorer {
  const weights = Float64Array.from(resources, (r) => r.weight);
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      nodeScore += mostRequestedScore(requested[i]!, allocatable[i]!) * weights[i]!;
      weightSum += weights[i]!;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
}
