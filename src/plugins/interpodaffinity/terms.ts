// Affinity-term helpers of the InterPodAffinity plugin (plugin.go mergeAffinityTermNamespacesIfNotEmpty,
// GetNamespaceLabelsSnapshot; filtering.go podMatchesAllAffinityTerms).
import { Selector, type Labels } from '../../api/labels.js';
import type { Namespace, Pod, PodAffinityTerm } from '../../api/types.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import { affinityTermMatches, type AffinityTerm } from '../../framework/pod_info.js';

/**
 * Unrolls an incoming pod's namespaceSelector into its namespace set, so matching the term needs
 * no namespace labels afterwards. An empty selector (all namespaces) and a nil one (none) stay as
 * they are. The PodInfo's own term is shared and never changed: a copy is returned.
 */
function mergeTermNamespaces<T extends AffinityTerm>(term: T, namespaces: readonly Namespace[]): T {
  const sel = term.namespaceSelector;
  if (sel.isEverything || sel.matchesNothing) return term;
  const merged = new Set(term.namespaces);
  for (const ns of namespaces) {
    const name = ns.metadata?.name;
    if (name !== undefined && sel.matches(ns.metadata?.labels)) merged.add(name);
  }
  return { ...term, namespaces: merged, namespaceSelector: Selector.nothing };
}

/** mergeTermNamespaces over a list, listing Namespaces only when some term needs them. */
export function mergeTermsNamespaces<T extends AffinityTerm>(terms: readonly T[], objects: ObjectLister): T[] {
  let namespaces: readonly Namespace[] | null = null;
  const out: T[] = [];
  for (const t of terms) {
    const sel = t.namespaceSelector;
    if (sel.isEverything || sel.matchesNothing) {
      out.push(t);
      continue;
    }
    namespaces ??= objects.list<Namespace>('Namespace');
    out.push(mergeTermNamespaces(t, namespaces));
  }
  return out;
}

/** Labels of a namespace; none when it is unknown (GetNamespaceLabelsSnapshot). */
export function namespaceLabels(objects: ObjectLister, namespace: string): Labels {
  return objects.get<Namespace>('Namespace', '', namespace)?.metadata?.labels;
}

export function podNamespace(pod: Pod): string {
  return pod.metadata.namespace ?? 'default';
}

/** True when the list is not empty and `pod` matches every term (affinity needs one pod for all). */
export function podMatchesAllTerms(terms: readonly AffinityTerm[], pod: Pod, nsLabels: Labels): boolean {
  if (terms.length === 0) return false;
  for (let i = 0; i < terms.length; i++) if (!affinityTermMatches(terms[i]!, pod, nsLabels)) return false;
  return true;
}

/** True when `pod` matches some term (one matching anti-affinity term is enough to repel). */
export function podMatchesAnyTerm(terms: readonly AffinityTerm[], pod: Pod, nsLabels: Labels): boolean {
  for (let i = 0; i < terms.length; i++) if (affinityTermMatches(terms[i]!, pod, nsLabels)) return true;
  return false;
}

/** True when the pod spec has pod affinity or pod anti-affinity. */
export function hasPodAffinitySpec(pod: Pod): boolean {
  const a = pod.spec.affinity;
  return !!a && (!!a.podAffinity || !!a.podAntiAffinity);
}

/**
 * The error parsing the pod's (anti-)affinity selectors, or null. Only called on the error path
 * (PodInfo.parseError set), to tell an affinity problem from a resource-quantity one.
 */
export function affinityParseError(pod: Pod): string | null {
  const a = pod.spec.affinity;
  const terms: PodAffinityTerm[] = [];
  for (const t of a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) terms.push(t);
  for (const t of a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) terms.push(t.podAffinityTerm);
  for (const t of a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) terms.push(t);
  for (const t of a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) terms.push(t.podAffinityTerm);
  for (const t of terms) {
    try {
      Selector.compile(t.labelSelector);
      Selector.compile(t.namespaceSelector);
    } catch (err) {
      return (err as Error).message;
    }
  }
  return null;
}
