// The shape of a resource scoring strategy and the weighted mean LeastAllocated and MostAllocated
// share (framework/plugins/noderesources/resource_allocation.go), a leaf module: the row-pass
// workers build strategies from it without the plugins.
import type { ResourceSpec } from './args.js';

/**
 * Scores one node from per-resource `requested` (the node's requests plus the pod's) and
 * `allocatable`, in the order of the configured resources; an entry with allocatable 0 is to be
 * skipped. `podRequests` is the pod's share of `requested`, so the node's requests before the pod
 * are `requested - podRequests` (upstream's `allocated`). Must not keep the arrays.
 */
export type ResourceScorer = (requested: Float64Array, allocatable: Float64Array, podRequests: Float64Array) => number;

/**
 * A placement's score over exact sums (upstream's int64), for the rare placement whose sums or
 * their products with MaxNodeScore leave a double's exact integers.
 */
export type ExactPlacementScorer = (requested: readonly bigint[], allocatable: readonly bigint[]) => number;

/**
 * LeastAllocated's and MostAllocated's node score: the weighted mean of `resourceScore` over the
 * configured resources the node has, truncated as Go's integer division.
 */
export function weightedMeanScorer(resources: readonly ResourceSpec[], resourceScore: (requested: number, capacity: number) => number): ResourceScorer {
  const weights = Float64Array.from(resources, (r) => r.weight);
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      nodeScore += resourceScore(requested[i]!, allocatable[i]!) * weights[i]!;
      weightSum += weights[i]!;
    }
    return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
  };
}
