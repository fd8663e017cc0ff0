// matchLabelKeys / mismatchLabelKeys of pod (anti-)affinity terms. Upstream applies them in the
// kube-apiserver when a pod is created (pkg/registry/core/pod/strategy.go mutatePodAffinity,
// MatchLabelKeysInPodAffinity, GA and on by default): the scheduler only sees the merged selector.
import type { LabelSelector, LabelSelectorRequirement, Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../types.js';

/**
 * Returns `pod` with each (anti-)affinity term's labelSelector extended by `key In (value)` for
 * every matchLabelKeys key and `key NotIn (value)` for every mismatchLabelKeys key, value taken
 * from the pod's own labels (keys the pod lacks are skipped). Terms without a labelSelector are
 * left alone: a nil selector matches nothing anyway. Call it once, when the pod is created: the
 * API server does not re-apply it on update. The input is not changed.
 */
export function applyMatchLabelKeysToAffinity(pod: Pod): Pod {
  const affinity = pod.spec?.affinity;
  if (!affinity || (!affinity.podAffinity && !affinity.podAntiAffinity)) return pod;
  const labels = pod.metadata?.labels ?? {};
  const { podAffinity, podAntiAffinity } = affinity;
  if (!needsMerge(podAffinity) && !needsMerge(podAntiAffinity)) return pod;
  return {
    ...pod,
    spec: {
      ...pod.spec,
      affinity: {
        ...affinity,
        ...(isObject(podAffinity) ? { podAffinity: mergeGroup(podAffinity, labels) } : {}),
        ...(isObject(podAntiAffinity) ? { podAntiAffinity: mergeGroup(podAntiAffinity, labels) } : {}),
      },
    },
  };
}

interface TermGroup {
  requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
  preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list of terms as decoding would give it; anything else (a pod that skipped validation) is left alone. */
function termsOf<T>(list: readonly T[] | undefined): readonly T[] {
  return Array.isArray(list) ? list : [];
}

function needsMerge(group: TermGroup | undefined): boolean {
  if (!isObject(group)) return false;
  for (const t of termsOf(group.requiredDuringSchedulingIgnoredDuringExecution)) if (termNeedsMerge(t)) return true;
  for (const t of termsOf(group.preferredDuringSchedulingIgnoredDuringExecution)) if (isObject(t) && termNeedsMerge(t.podAffinityTerm)) return true;
  return false;
}

function termNeedsMerge(t: PodAffinityTerm | undefined): boolean {
  if (!isObject(t) || !isObject(t.labelSelector)) return false;
  const exprs = t.labelSelector.matchExpressions;
  if (exprs !== undefined && exprs !== null && !Array.isArray(exprs)) return false;
  const keys = (t.matchLabelKeys?.length ?? 0) + (t.mismatchLabelKeys?.length ?? 0);
  return Array.isArray(t.matchLabelKeys ?? []) && Array.isArray(t.mismatchLabelKeys ?? []) && keys > 0;
}

function mergeGroup<G extends TermGroup>(group: G, labels: Record<string, string>): G {
  const out: G = { ...group };
  if (Array.isArray(group.requiredDuringSchedulingIgnoredDuringExecution)) {
    out.requiredDuringSchedulingIgnoredDuringExecution = group.requiredDuringSchedulingIgnoredDuringExecution.map((t) => mergeTerm(t, labels));
  }
  if (Array.isArray(group.preferredDuringSchedulingIgnoredDuringExecution)) {
    out.preferredDuringSchedulingIgnoredDuringExecution = group.preferredDuringSchedulingIgnoredDuringExecution.map((w) =>
      isObject(w) ? { ...w, podAffinityTerm: mergeTerm(w.podAffinityTerm, labels) } : w);
  }
  return out;
}

function mergeTerm(term: PodAffinityTerm, labels: Record<string, string>): PodAffinityTerm {
  if (!termNeedsMerge(term)) return term;
  const selector: LabelSelector = { ...term.labelSelector };
  const exprs: LabelSelectorRequirement[] = [...(selector.matchExpressions ?? [])];
  appendRequirements(exprs, term.matchLabelKeys, 'In', labels);
  appendRequirements(exprs, term.mismatchLabelKeys, 'NotIn', labels);
  selector.matchExpressions = exprs;
  return { ...term, labelSelector: selector };
}

function appendRequirements(
  exprs: LabelSelectorRequirement[],
  keys: readonly string[] | undefined,
  operator: 'In' | 'NotIn',
  labels: Record<string, string>,
): void {
  for (const key of keys ?? []) {
    if (typeof key === 'string' && Object.prototype.hasOwnProperty.call(labels, key)) exprs.push({ key, operator, values: [labels[key]!] });
  }
}
