// Why each node refused a pod, from its last attempt's FitError diagnosis: what `capacity` says
// stops the next copy and what the dry-run endpoint answers for a pod that does not fit.
import type { Diagnosis } from '../../framework/runtime/fit_error.js';

/** One node's refusal: the plugin that rejected the pod there and its reasons. */
export interface NodeRefusal {
  node: string;
  plugin: string;
  reasons: string[];
}

/** Every refusing node, in name order; none without a diagnosis. */
export function refusals(d: Diagnosis | null): NodeRefusal[] {
  if (d === null) return [];
  const out: NodeRefusal[] = [];
  for (const [node, s] of d.nodeToStatus.entries()) out.push({ node, plugin: s.plugin, reasons: [...s.reasons] });
  return out.sort((a, b) => a.node.localeCompare(b.node));
}
