// LeastAllocated scoring strategy: favors nodes with more unrequested capacity
// (framework/plugins/noderesources/least_allocated.go).
import { MaxNodeScore } from '../../framework/interfaces.js';
import type { ResourceSpec } from './args.js';
import type { ResourceScorer } from './resource_allocation.js';

/** ((capacity - requested) * MaxNodeScore) / capacity in int64 arithmetic; 0 when over capacity. */
function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MaxNodeScore) / capacity);
}

/** Weighted mean of the per-resource scores over the resources the node has. */
export function leastResourceScorer(resources: readonly ResourceSpec[]): ResourceScorer {
  const weights = Float64Array.from(resources, (r) => r.weight);
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      nodeScore += leastRequestedScore(requested[i]!, allocatable[i]!) * weights[i]!;
      weightSum += weights[i]!;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
}
