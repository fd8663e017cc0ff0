// The pod a capacity probe creates in place of one that exists or of a template: unbound, never
// preempting (the question is what fits beside the current load), no status; and, when the pod
// moves off a node being removed, kept off that node even where a cordon would not keep it off.
import type { Affinity, NodeSelectorTerm, Pod } from '../../api/types.js';
import { taintToleratedBy } from '../../api/taints.js';
import type { Framework } from '../../framework/runtime/framework.js';
import { NodeUnschedulable } from '../../framework/names.js';

/** The taint a cordon stands for: NodeUnschedulable lets a pod that tolerates it through. */
const cordonTaint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' as const };

/** What decides whether a cordon keeps a pod's copy off the node it leaves. */
export interface Leaving {
  node: string;
  /** Whether the pod's profile filters with NodeUnschedulable (a cordon means nothing without it). */
  cordonFiltered: boolean;
}

/** A pod of `fwk`'s profile leaving `node`. */
export function leaving(node: string, fwk: Framework | undefined): Leaving {
  return { node, cordonFiltered: fwk?.filterPlugins.some((f) => f.name === NodeUnschedulable) ?? true };
}

/**
 * `p` re-created unbound, preemptionPolicy Never, without status, uid or resourceVersion (shallow:
 * the store copies what it is given). With `leaving`, a copy the cordon would let back onto that
 * node (it tolerates the cordon, or its profile has no NodeUnschedulable) also gets a required node
 * term excluding it; other copies are left as they are, so their scores do not change.
 */
export function recreatedCopy(p: Pod, leaving: Leaving | null = null): Pod {
  const spec = { ...p.spec, nodeName: undefined, preemptionPolicy: 'Never' };
  if (leaving !== null && (!leaving.cordonFiltered || taintToleratedBy(cordonTaint, p.spec.tolerations))) {
    spec.affinity = excludingNode(p.spec.affinity, leaving.node);
  }
  return { ...p, metadata: { ...p.metadata, uid: undefined, resourceVersion: undefined }, spec, status: {} };
}

/** `affinity` with every required node selector term (they are ORed) also excluding `node` by name. */
function excludingNode(affinity: Affinity | undefined, node: string): Affinity {
  const away = { key: 'metadata.name', operator: 'NotIn', values: [node] };
  const terms: NodeSelectorTerm[] | undefined = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const next = terms && terms.length > 0 ? terms.map((t) => ({ ...t, matchFields: [...(t.matchFields ?? []), away] })) : [{ matchFields: [away] }];
  return { ...affinity, nodeAffinity: { ...affinity?.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: next } } };
}
