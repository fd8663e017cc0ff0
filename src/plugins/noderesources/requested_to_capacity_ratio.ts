// RequestedToCapacityRatio scoring strategy: a user-defined piecewise-linear function of each
// resource's utilization (framework/plugins/noderesources/requested_to_capacity_ratio.go).
import { buildBrokenLinearFunction } from '../../framework/helpers/shape_score.js';
import { MaxNodeScore } from '../../framework/interfaces.js';
import { MaxCustomPriorityScore, type ResourceSpec, type UtilizationShapePoint } from './args.js';
import type { ResourceScorer } from './strategies.js';

const maxUtilization = 100;

/**
 * Shape scores are given on 0..MaxCustomPriorityScore and scaled to 0..MaxNodeScore. Only
 * resources with a positive score count, and the weighted mean is rounded (not truncated).
 */
export function requestedToCapacityRatioScorer(
  resources: readonly ResourceSpec[],
  shape: readonly UtilizationShapePoint[],
): ResourceScorer {
  const scale = Math.trunc(MaxNodeScore / MaxCustomPriorityScore);
  const raw = buildBrokenLinearFunction(shape.map((p) => ({ utilization: p.utilization, score: p.score * scale })));
  const weights = Float64Array.from(resources, (r) => r.weight);
  const resourceScore = (requested: number, capacity: number): number => {
    if (capacity === 0 || requested > capacity) return raw(maxUtilization);
    return raw(Math.trunc((requested * maxUtilization) / capacity));
  };
  return (requested, allocatable) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < requested.length; i++) {
      if (allocatable[i] === 0) continue;
      const s = resourceScore(requested[i]!, allocatable[i]!);
      if (s > 0) {
        nodeScore += s * weights[i]!;
        weightSum += weights[i]!;
      }
    }
    // Scores are non-negative, so Math.round matches Go's math.Round (half away from zero).
    return weightSum === 0 ? 0 : Math.round(nodeScore / weightSum);
  };
}
