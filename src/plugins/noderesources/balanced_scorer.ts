// NodeResourcesBalancedAllocation's node score (framework/plugins/noderesources/balanced_allocation.go:
// balancedResourceScorer), a module of its own: the row-pass workers import it without the plugin.
import { MaxNodeScore } from '../../framework/interfaces.js';

/** A resource's fraction in use, capped at 1. */
function capped(fraction: number): number {
  return fraction > 1 ? 1 : fraction;
}

/**
 * How much placing the pod improves the node's balance (v1.37's balancedResourceScorer): the
 * balance with the pod against the balance before it, mapped back onto [50, 100] so that no change
 * scores 75, a better balance up to 100 and a worse one down to 50.
 */
export function balancedResourceScorer(requested: Float64Array, allocatable: Float64Array, podRequests: Float64Array): number {
  // One walk computes both balances: this runs for every pod on every scored node. The arithmetic
  // is the same, operation for operation, as computing each balance on its own.
  let count = 0;
  let totalWith = 0;
  let totalWithout = 0;
  let firstWith = 0;
  let secondWith = 0;
  let firstWithout = 0;
  let secondWithout = 0;
  for (let i = 0; i < requested.length; i++) {
    const alloc = allocatable[i]!;
    if (alloc === 0) continue;
    const withPod = capped(requested[i]! / alloc);
    const withoutPod = capped((requested[i]! - podRequests[i]!) / alloc);
    totalWith += withPod;
    totalWithout += withoutPod;
    if (count === 0) {
      firstWith = withPod;
      firstWithout = withoutPod;
    } else if (count === 1) {
      secondWith = withPod;
      secondWithout = withoutPod;
    }
    count++;
  }
  let stdWith = 0;
  let stdWithout = 0;
  if (count === 2) {
    // Two resources use the |f0 - f1| / 2 shortcut, as upstream does, so results match bit for bit.
    stdWith = Math.abs((firstWith - secondWith) / 2);
    stdWithout = Math.abs((firstWithout - secondWithout) / 2);
  } else if (count > 2) {
    const meanWith = totalWith / count;
    const meanWithout = totalWithout / count;
    let sumWith = 0;
    let sumWithout = 0;
    for (let i = 0; i < requested.length; i++) {
      const alloc = allocatable[i]!;
      if (alloc === 0) continue;
      const withPod = capped(requested[i]! / alloc);
      const withoutPod = capped((requested[i]! - podRequests[i]!) / alloc);
      sumWith = sumWith + (withPod - meanWith) * (withPod - meanWith);
      sumWithout = sumWithout + (withoutPod - meanWithout) * (withoutPod - meanWithout);
    }
    stdWith = Math.sqrt(sumWith / count);
    stdWithout = Math.sqrt(sumWithout / count);
  }
  // (1 - std) * MaxNodeScore, truncated, for each; then mapped as the comment above says.
  const scoreWith = Math.trunc((1 - stdWith) * MaxNodeScore);
  const scoreWithout = Math.trunc((1 - stdWithout) * MaxNodeScore);
  return MaxNodeScore / 2 + Math.trunc((MaxNodeScore / 2 + scoreWith - scoreWithout) / 2);
}
