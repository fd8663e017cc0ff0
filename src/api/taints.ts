// Taints and tolerations (k8s.io/api/core/v1 toleration.go ToleratesTaint, component-helpers
// scheduling/corev1 helpers.go FindMatchingUntoleratedTaint). The Gt/Lt toleration operators of
// the TaintTolerationComparisonOperators gate (alpha, off by default) tolerate nothing here, as
// any operator other than Equal and Exists does with default gates.
import type { Taint, Toleration } from './types.js';

/** The parts of a toleration matching reads: node tolerations and DRA device tolerations share them. */
interface TolerationFields {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

/**
 * True when `toleration` tolerates `taint` (v1.Toleration.ToleratesTaint; DRA's
 * resourceclaim.ToleratesTaint for device taints is the same rule).
 */
export function toleratesTaint(toleration: TolerationFields, taint: { key: string; value?: string; effect: string }): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function taintToleratedBy(taint: Taint, tolerations: readonly Toleration[] | undefined): boolean {
  if (!tolerations) return false;
  for (let i = 0; i < tolerations.length; i++) if (toleratesTaint(tolerations[i]!, taint)) return true;
  return false;
}

/** The first taint accepted by `include` that no toleration tolerates (FindMatchingUntoleratedTaint). */
export function findUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  include: (t: Taint) => boolean,
): Taint | undefined {
  if (!taints) return undefined;
  for (let i = 0; i < taints.length; i++) {
    const t = taints[i]!;
    if (include(t) && !taintToleratedBy(t, tolerations)) return t;
  }
  return undefined;
}

/** Renders a taint the way upstream's messages do: `{key: value}`. */
export function taintForMessage(t: Taint): string {
  return `{${t.key}: ${t.value ?? ''}}`;
}
