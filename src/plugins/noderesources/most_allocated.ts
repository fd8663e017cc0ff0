// MostAllocated scoring strategy: favors nodes with more requested capacity (bin packing)
// (framework/plugins/noderesources/most_allocated.go).
import { MaxNodeScore } from '../../framework/interfaces.js';
import type { ResourceSpec } from './args.js';
import { weightedMeanScorer, type ExactPlacementScorer, type ResourceScorer } from './strategies.js';

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

/** mostRequestedScore in int64 (placement sums beyond a double's integers): the product wraps as Go's would. */
function mostRequestedScoreExact(requested: bigint, capacity: bigint): bigint {
  if (capacity === 0n) return 0n;
  const r = requested > capacity ? capacity : requested;
  return BigInt.asIntN(64, r * BigInt(MaxNodeScore)) / capacity;
}

/** MostAllocated's weighted mean over exact sums: the placement scorer's path for sums past 2^53. */
export function mostResourceScorerExact(resources: readonly ResourceSpec[]): ExactPlacementScorer {
  return (requested, allocatable) => {
    let nodeScore = 0n;
    let weightSum = 0n;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0n) continue;
      const weight = BigInt(resources[i]!.weight);
      nodeScore += mostRequestedScoreExact(requested[i]!, allocatable[i]!) * weight;
      weightSum += weight;
    }
    return weightSum === 0n ? 0 : Number(nodeScore / weightSum);
  };
}
