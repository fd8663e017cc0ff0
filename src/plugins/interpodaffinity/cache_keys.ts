// Keys of the counts cached between attempts: two incoming pods get the same key only when every
// input their counts depend on is equal (pods of one workload share them, so they hit).
import type { Labels } from '../../api/labels.js';
import type { Pod } from '../../api/types.js';
import type { AffinityTerm, WeightedAffinityTerm } from '../../framework/pod_info.js';
import { CacheKey } from '../../framework/topology/cache_key.js';
import { podNamespace } from './terms.js';
import type { TermLabelKeys } from './term_label_keys.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** Only the labels some existing pod's term selects on, in the vocabulary's order. */
function addProjectedLabels(key: CacheKey, labels: Labels, vocabulary: TermLabelKeys): CacheKey {
  key.num(vocabulary.version).open();
  const keys = vocabulary.keys;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (labels === undefined || labels === null || !hasOwn.call(labels, k)) {
      key.none();
      continue;
    }
    const v: unknown = labels[k];
    if (typeof v === 'string') key.str(v);
    else key.json(v);
  }
  return key.close();
}

function addTerms(key: CacheKey, terms: readonly (AffinityTerm | WeightedAffinityTerm)[]): CacheKey {
  key.open();
  for (const t of terms) {
    const weight = (t as Partial<WeightedAffinityTerm>).weight ?? 0;
    key.str(t.topologyKey).selector(t.selector).selector(t.namespaceSelector).num(weight).open();
    // In the set's order, as the label maps: pods of one workload list them alike.
    for (const ns of t.namespaces) key.str(ns);
    key.close();
  }
  return key.close();
}

/**
 * What existing pods' terms are matched against: the pod's namespace, the labels they select on,
 * its namespace's labels (matched by namespaceSelectors, kept whole).
 */
function addIncomingPod(key: CacheKey, pod: Pod, nsLabels: Labels, vocabulary: TermLabelKeys): CacheKey {
  key.str(podNamespace(pod));
  return addProjectedLabels(key, pod.metadata.labels, vocabulary).labels(nsLabels);
}

/** Key of a list of terms (the incoming pod's, namespaceSelector already unrolled). */
export function termsKey(terms: readonly AffinityTerm[]): string {
  return addTerms(new CacheKey(), terms).text;
}

/**
 * Key of what existing pods' terms are matched against: the incoming pod's namespace, the labels
 * `vocabulary` (synced with the snapshot) lists, and its namespace's labels (a Namespace
 * relabelled gives a new key).
 */
export function incomingPodKey(pod: Pod, nsLabels: Labels, vocabulary: TermLabelKeys): string {
  return addIncomingPod(new CacheKey(), pod, nsLabels, vocabulary).text;
}

/** Key of PreScore's counts: the incoming pod as existing pods see it, and its preferred terms. */
export function preScoreKey(
  pod: Pod,
  nsLabels: Labels,
  vocabulary: TermLabelKeys,
  allPods: boolean,
  preferredAffinityTerms: readonly WeightedAffinityTerm[],
  preferredAntiAffinityTerms: readonly WeightedAffinityTerm[],
): string {
  const key = addIncomingPod(new CacheKey(), pod, nsLabels, vocabulary).num(allPods ? 1 : 0);
  return addTerms(addTerms(key, preferredAffinityTerms), preferredAntiAffinityTerms).text;
}
