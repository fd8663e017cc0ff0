// Keys of the counts cached between attempts: two incoming pods get the same key only when every
// input their counts depend on is equal (pods of one workload share them, so they hit).
import type { Labels, Selector } from '../../api/labels.js';
import type { Pod } from '../../api/types.js';
import type { AffinityTerm, WeightedAffinityTerm } from '../../framework/pod_info.js';
import { podNamespace } from './terms.js';
import type { TermLabelKeys } from './term_label_keys.js';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Builds a key as tagged, length-prefixed parts, so that distinct inputs can never give the same
 * text (no escaping needed); built per attempt, so plain concatenation rather than JSON.
 */
class KeyBuilder {
  text = '';

  str(s: string): this {
    this.text += `s${s.length}:${s}`;
    return this;
  }

  num(n: number): this {
    this.text += `n${n};`;
    return this;
  }

  open(): this {
    this.text += '[';
    return this;
  }

  close(): this {
    this.text += ']';
    return this;
  }

  /** A label map in its own order (a different order only misses the cache). */
  labels(labels: Labels): this {
    if (labels === undefined || labels === null) return this.num(-1);
    this.open();
    for (const k in labels) {
      if (!Object.prototype.hasOwnProperty.call(labels, k)) continue;
      const v: unknown = labels[k];
      this.str(k);
      if (typeof v === 'string') this.str(v);
      else this.text += `j${JSON.stringify(v) ?? 'undefined'};`;
    }
    return this.close();
  }

  /** Only the labels some existing pod's term selects on, in the vocabulary's order. */
  projectedLabels(labels: Labels, vocabulary: TermLabelKeys): this {
    this.num(vocabulary.version).open();
    const keys = vocabulary.keys;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (labels === undefined || labels === null || !hasOwn.call(labels, k)) {
        this.text += '-';
        continue;
      }
      const v: unknown = labels[k];
      if (typeof v === 'string') this.str(v);
      else this.text += `j${JSON.stringify(v) ?? 'undefined'};`;
    }
    return this.close();
  }

  selector(s: Selector): this {
    if (s.matchesNothing) return this.num(-1);
    this.open();
    for (const r of s.requirements) {
      this.str(r.key).num(r.op).open();
      for (const v of r.values) this.str(v);
      this.close();
    }
    return this.close();
  }

  terms(terms: readonly (AffinityTerm | WeightedAffinityTerm)[]): this {
    this.open();
    for (const t of terms) {
      const weight = (t as Partial<WeightedAffinityTerm>).weight ?? 0;
      this.str(t.topologyKey).selector(t.selector).selector(t.namespaceSelector).num(weight).open();
      // In the set's order, as the label maps: pods of one workload list them alike.
      for (const ns of t.namespaces) this.str(ns);
      this.close();
    }
    return this.close();
  }

  /**
   * What existing pods' terms are matched against: the pod's namespace, the labels they select
   * on, its namespace's labels (matched by namespaceSelectors, kept whole).
   */
  incomingPod(pod: Pod, nsLabels: Labels, vocabulary: TermLabelKeys): this {
    return this.str(podNamespace(pod)).projectedLabels(pod.metadata.labels, vocabulary).labels(nsLabels);
  }
}

/** Key of a list of terms (the incoming pod's, namespaceSelector already unrolled). */
export function termsKey(terms: readonly AffinityTerm[]): string {
  return new KeyBuilder().terms(terms).text;
}

/**
 * Key of what existing pods' terms are matched against: the incoming pod's namespace, the labels
 * `vocabulary` (synced with the snapshot) lists, and its namespace's labels (a Namespace
 * relabelled gives a new key).
 */
export function incomingPodKey(pod: Pod, nsLabels: Labels, vocabulary: TermLabelKeys): string {
  return new KeyBuilder().incomingPod(pod, nsLabels, vocabulary).text;
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
  return new KeyBuilder().incomingPod(pod, nsLabels, vocabulary).num(allPods ? 1 : 0).terms(preferredAffinityTerms).terms(preferredAntiAffinityTerms).text;
}
