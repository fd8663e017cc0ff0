// PodInfo: a pod with everything the hot path needs derived once (framework/types.go).
import type { ContainerPort, Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../api/types.js';
import { podKey } from '../api/types.js';
import { Selector, type Labels } from '../api/labels.js';
import { computePodResourceRequests, Resource, type PodResourceRequests } from '../api/resource_requests.js';
import { QuantityError } from '../api/quantity.js';
import { podSchedulingProblem } from '../api/validation/index.js';

/** A parsed (anti-)affinity term: namespaces resolved, selectors compiled. */
export interface AffinityTerm {
  readonly namespaces: ReadonlySet<string>;
  readonly selector: Selector;
  readonly topologyKey: string;
  readonly namespaceSelector: Selector;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

/** True when `pod` (with its namespace's labels) is selected by the term (AffinityTerm.Matches). */
export function affinityTermMatches(term: AffinityTerm, pod: Pod, nsLabels: Labels): boolean {
  const ns = pod.metadata.namespace ?? 'default';
  if (term.namespaces.has(ns) || term.namespaceSelector.matches(nsLabels)) {
    return term.selector.matches(pod.metadata.labels);
  }
  return false;
}

function newAffinityTerm(pod: Pod, term: PodAffinityTerm): AffinityTerm {
  const selector = Selector.compile(term.labelSelector);
  const namespaceSelector = Selector.compile(term.namespaceSelector);
  const namespaces = new Set(term.namespaces ?? []);
  // No namespaces and no namespaceSelector means the pod's own namespace.
  if (namespaces.size === 0 && (term.namespaceSelector === undefined || term.namespaceSelector === null)) {
    namespaces.add(pod.metadata.namespace ?? 'default');
  }
  return { namespaces, selector, topologyKey: term.topologyKey, namespaceSelector };
}

function newWeightedTerms(pod: Pod, terms: readonly WeightedPodAffinityTerm[] | undefined): WeightedAffinityTerm[] {
  const out: WeightedAffinityTerm[] = [];
  for (const t of terms ?? []) {
    if (!t.weight) continue;
    // Written out, not `{ ...term, weight }`: a spread given a new key makes a hidden class per
    // term, and scoring reads these for every node (util/shallow_copy.ts).
    const term = newAffinityTerm(pod, t.podAffinityTerm);
    out.push({ namespaces: term.namespaces, selector: term.selector, topologyKey: term.topologyKey, namespaceSelector: term.namespaceSelector, weight: t.weight });
  }
  return out;
}

function hasContainerStatuses(pod: Pod): boolean {
  const s = pod.status;
  return !!s && (!!s.containerStatuses?.length || !!s.initContainerStatuses?.length);
}

const noTerms: readonly AffinityTerm[] = Object.freeze([]);
const noWeightedTerms: readonly WeightedAffinityTerm[] = Object.freeze([]);

const noRequests: PodResourceRequests = { resource: new Resource(), nonZeroMilliCPU: 0, nonZeroMemory: 0 };

export class PodInfo {
  readonly key: string;
  readonly uid: string;
  /** A field, not a getter: per-node loops compare it for every pod of every node. */
  readonly namespace: string;
  /** spec.priority (0 when unset); a field because the queue's comparisons read it constantly. */
  readonly priority: number;
  // One shared empty list for the pods without terms (nearly all): a million pods in the cache
  // would otherwise hold four million empty arrays.
  requiredAffinityTerms: readonly AffinityTerm[] = noTerms;
  requiredAntiAffinityTerms: readonly AffinityTerm[] = noTerms;
  preferredAffinityTerms: readonly WeightedAffinityTerm[] = noWeightedTerms;
  preferredAntiAffinityTerms: readonly WeightedAffinityTerm[] = noWeightedTerms;
  requests: PodResourceRequests = noRequests;
  /**
   * Set when the pod is one the API server would have refused (a value of the wrong type, an
   * invalid quantity, selector, toleration or spread constraint): the pod is unschedulable with
   * this message (the API server's wording) and the scheduler serves everyone else.
   */
  parseError: string | null = null;
  /** The pod's host ports, filled on first use by NodeInfo (they never change for a pod). */
  hostPortsCache: readonly ContainerPort[] | null = null;

  /** @param from a PodInfo of an earlier version of the same pod whose derived data still holds. */
  constructor(readonly pod: Pod, from?: PodInfo) {
    // A later version of the same pod keeps its key string (no new string per version).
    this.key = from !== undefined && from.pod.metadata?.name === pod.metadata?.name && from.pod.metadata?.namespace === pod.metadata?.namespace ? from.key : podKey(pod);
    // Read defensively: a pod from outside the API server's validation may lack any of these.
    this.uid = pod.metadata?.uid ?? this.key;
    this.namespace = pod.metadata?.namespace ?? 'default';
    const priority = pod.spec?.priority;
    this.priority = typeof priority === 'number' ? priority : 0;
    if (from !== undefined) {
      this.requiredAffinityTerms = from.requiredAffinityTerms;
      this.requiredAntiAffinityTerms = from.requiredAntiAffinityTerms;
      this.preferredAffinityTerms = from.preferredAffinityTerms;
      this.preferredAntiAffinityTerms = from.preferredAntiAffinityTerms;
      this.requests = from.requests;
      this.parseError = from.parseError;
      this.hostPortsCache = from.hostPortsCache;
      return;
    }
    this.parseError = podSchedulingProblem(pod);
    // A pod we cannot trust gets nothing derived: it is only reported, never placed.
    if (this.parseError !== null) return;
    try {
      this.requests = computePodResourceRequests(pod);
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      // Quantities were only type-checked above: ask again for the field and upstream's reason.
      this.parseError = podSchedulingProblem(pod, true) ?? `Pod ${JSON.stringify(this.name)} is invalid: ${err.message}`;
      return;
    }
    const aff = pod.spec.affinity;
    try {
      if (aff?.podAffinity) {
        this.requiredAffinityTerms = (aff.podAffinity.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => newAffinityTerm(pod, t));
        this.preferredAffinityTerms = newWeightedTerms(pod, aff.podAffinity.preferredDuringSchedulingIgnoredDuringExecution);
      }
      if (aff?.podAntiAffinity) {
        this.requiredAntiAffinityTerms = (aff.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => newAffinityTerm(pod, t));
        this.preferredAntiAffinityTerms = newWeightedTerms(pod, aff.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution);
      }
    } catch (err) {
      // Validation refused invalid selectors already; this keeps a parse surprise to this pod.
      this.parseError = `invalid pod affinity selector in pod ${this.key}: ${(err as Error).message}`;
    }
  }

  /**
   * The same pod with a changed object (e.g. spec.nodeName set when assumed, or a status
   * update), reusing the derived data: requests and affinity do not depend on those fields.
   */
  withPod(pod: Pod): PodInfo {
    return new PodInfo(pod, this);
  }

  /**
   * A PodInfo for `pod`, a later version of `prev`'s pod: the derived data is reused when every
   * field it comes from is the same object (the store copies only what a write changes, so a
   * binding or a condition update keeps them), and computed afresh otherwise.
   */
  static derive(prev: PodInfo | undefined, pod: Pod): PodInfo {
    if (prev === undefined) return new PodInfo(pod);
    const a = prev.pod;
    const sa = a.spec;
    const sb = pod.spec;
    // Every field the derived data (or the pod's validity) depends on must be the same object.
    const sameSpecParts = sa === sb || (sa !== undefined && sb !== undefined &&
      sa.containers === sb.containers &&
      sa.initContainers === sb.initContainers &&
      sa.overhead === sb.overhead &&
      sa.resources === sb.resources &&
      sa.affinity === sb.affinity &&
      sa.tolerations === sb.tolerations &&
      sa.topologySpreadConstraints === sb.topologySpreadConstraints &&
      sa.nodeSelector === sb.nodeSelector &&
      sa.volumes === sb.volumes &&
      sa.resourceClaims === sb.resourceClaims);
    const sameDerivation =
      a.metadata?.uid === pod.metadata?.uid &&
      a.metadata?.name === pod.metadata?.name &&
      a.metadata?.namespace === pod.metadata?.namespace &&
      sameSpecParts &&
      // Container statuses (in-place resize) change requests; without any, the status does not.
      !hasContainerStatuses(a) &&
      !hasContainerStatuses(pod);
    return sameDerivation ? new PodInfo(pod, prev) : new PodInfo(pod);
  }

  get name(): string {
    return this.pod.metadata?.name ?? '';
  }

  hasAffinity(): boolean {
    const a = this.pod.spec?.affinity;
    return !!a && (!!a.podAffinity || !!a.podAntiAffinity);
  }

  hasRequiredAntiAffinity(): boolean {
    return this.requiredAntiAffinityTerms.length > 0;
  }
}
