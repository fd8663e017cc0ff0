// PreFilter, its AddPod/RemovePod extensions and Filter of InterPodAffinity
// (pkg/scheduler/framework/plugins/interpodaffinity/filtering.go).
import type { Labels } from '../../api/labels.js';
import type { Node, Pod } from '../../api/types.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import type { Handle, PreFilterOutcome } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { AffinityTerm, PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { InterPodAffinity as Name } from '../../framework/names.js';
import { addMatchingAllTerms, addMatchingAnyTerm, type PositionLookup, type PreFilterCaches } from './filtering_counts.js';
import {
  affinityParseError,
  hasPodAffinitySpec,
  mergeTermsNamespaces,
  namespaceLabels,
  podMatchesAllTerms,
  podNamespace,
} from './terms.js';
import { labelValue } from '../../framework/topology/label_value.js';
import type { TopologyCounts } from '../../framework/topology/topology_counts.js';

export const preFilterStateKey = 'PreFilter' + Name;

export const ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules";
export const ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
export const ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";

const affinityNotMatched = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonAffinityRulesNotMatch);
const antiAffinityNotMatched = Status.constant(Code.Unschedulable, Name, ErrReasonAntiAffinityRulesNotMatch);
const existingAntiAffinityNotMatched = Status.constant(Code.Unschedulable, Name, ErrReasonExistingAntiAffinityRulesNotMatch);

function hasUnboundPairs(c: TopologyCounts): boolean {
  return c.table === null && c.size > 0;
}

/** What PreFilter computes once per pod; Filter only looks topology pairs up in it. */
export class PreFilterState implements StateData {
  constructor(
    /** The incoming pod. */
    readonly pod: Pod,
    /** Its required affinity terms, namespaceSelector unrolled into namespaces. */
    readonly affinityTerms: readonly AffinityTerm[],
    /** Its required anti-affinity terms, namespaceSelector unrolled into namespaces. */
    readonly antiAffinityTerms: readonly AffinityTerm[],
    /** Labels of the incoming pod's namespace, for existing pods' namespaceSelectors. */
    readonly namespaceLabels: Labels,
    /** Pairs → existing pods whose required anti-affinity terms match the incoming pod. */
    public existingAntiAffinityCounts: TopologyCounts,
    /** Pairs → existing pods matching all the incoming pod's required affinity terms. */
    public affinityCounts: TopologyCounts,
    /** Pairs → existing pods matching the incoming pod's required anti-affinity terms. */
    public antiAffinityCounts: TopologyCounts,
    /** Set when all three counts are bound to one domain table: Filter then reads them by node position. */
    readonly byPosition: PositionLookup | null,
  ) {}

  /**
   * Whether the counts may be shared (with the caches kept between attempts, or other states):
   * the first AddPod/RemovePod then writes to copies (copies on write themselves).
   */
  private shared = true;
  /** Set once AddPod/RemovePod gave pairs to counts not bound to the table (PreFilter had none). */
  private unbound = false;

  /** The node's position in the domain table, or -1 when Filter must look its labels up. */
  positionOf(ni: NodeInfo): number {
    return this.byPosition !== null && !this.unbound ? this.byPosition.table.position(ni) : -1;
  }

  clone(): PreFilterState {
    this.shared = true;
    const c = new PreFilterState(
      this.pod,
      this.affinityTerms,
      this.antiAffinityTerms,
      this.namespaceLabels,
      this.existingAntiAffinityCounts,
      this.affinityCounts,
      this.antiAffinityCounts,
      this.byPosition,
    );
    c.unbound = this.unbound;
    return c;
  }

  /** Counts `other` (placed on `node`) in (multiplier 1) or out (-1), for preemption and nominated pods. */
  updateWithPod(other: PodInfo, node: Node, multiplier: number): void {
    if (this.shared) {
      this.existingAntiAffinityCounts = this.existingAntiAffinityCounts.clone();
      this.affinityCounts = this.affinityCounts.clone();
      this.antiAffinityCounts = this.antiAffinityCounts.clone();
      this.shared = false;
    }
    const labels = node.metadata.labels;
    addMatchingAnyTerm(this.existingAntiAffinityCounts, other.requiredAntiAffinityTerms, this.pod, this.namespaceLabels, labels, multiplier);
    addMatchingAllTerms(this.affinityCounts, this.affinityTerms, other.pod, labels, multiplier);
    addMatchingAnyTerm(this.antiAffinityCounts, this.antiAffinityTerms, other.pod, undefined, labels, multiplier);
    if (hasUnboundPairs(this.existingAntiAffinityCounts) || hasUnboundPairs(this.affinityCounts) || hasUnboundPairs(this.antiAffinityCounts)) this.unbound = true;
  }
}

export function preFilter(
  handle: Handle,
  caches: PreFilterCaches,
  state: CycleState,
  podInfo: PodInfo,
  allNodes: readonly NodeInfo[],
): PreFilterOutcome {
  const pod = podInfo.pod;
  if (podInfo.parseError !== null && hasPodAffinitySpec(pod)) {
    const err = affinityParseError(pod);
    if (err !== null) return { status: Status.unresolvable(`parsing pod: ${err}`) };
  }
  const objects = handle.objects();
  const affinityTerms = mergeTermsNamespaces(podInfo.requiredAffinityTerms, objects);
  const antiAffinityTerms = mergeTermsNamespaces(podInfo.requiredAntiAffinityTerms, objects);
  const lister = handle.snapshotSharedLister().nodeInfos();
  // Nothing to count (most pods): no terms of its own, and no placed pod with required anti-affinity.
  if (affinityTerms.length === 0 && antiAffinityTerms.length === 0 && lister.havePodsWithRequiredAntiAffinityList().length === 0) {
    return { status: Status.skip() };
  }
  const nsLabels = namespaceLabels(objects, podNamespace(pod));
  const counts = caches.count(lister, allNodes, pod, nsLabels, affinityTerms, antiAffinityTerms);
  if (counts.existingAntiAffinity.size === 0 && affinityTerms.length === 0 && antiAffinityTerms.length === 0) {
    return { status: Status.skip() };
  }
  state.write(
    preFilterStateKey,
    new PreFilterState(
      pod,
      affinityTerms,
      antiAffinityTerms,
      nsLabels,
      counts.existingAntiAffinity,
      counts.affinity,
      counts.antiAffinity,
      counts.byPosition,
    ),
  );
  return { status: null };
}

function readPreFilterState(state: CycleState): PreFilterState | Status {
  const s = state.read<PreFilterState>(preFilterStateKey);
  if (s === undefined) return Status.error(`error reading "${preFilterStateKey}" from cycleState: not found`);
  return s;
}

/** AddPod (multiplier 1) and RemovePod (-1) of the PreFilter extensions. */
export function updateWithPod(state: CycleState, other: PodInfo, nodeInfo: NodeInfo, multiplier: number): Status | null {
  const s = readPreFilterState(state);
  if (s instanceof Status) return s;
  if (nodeInfo.node === null) return null;
  s.updateWithPod(other, nodeInfo.node, multiplier);
  return null;
}

/** No existing pod whose required anti-affinity matches the incoming pod shares a domain with the node. */
function satisfyExistingPodsAntiAffinity(s: PreFilterState, labels: Labels): boolean {
  return s.existingAntiAffinityCounts.size === 0 || !s.existingAntiAffinityCounts.anyPositive(labels);
}

/** No pod matching an anti-affinity term of the incoming pod is in the node's domain for that term. */
function satisfyPodAntiAffinity(s: PreFilterState, labels: Labels): boolean {
  if (s.antiAffinityCounts.size === 0) return true;
  const terms = s.antiAffinityTerms;
  for (let i = 0; i < terms.length; i++) {
    const key = terms[i]!.topologyKey;
    const value = labelValue(labels, key);
    if (value !== undefined && s.antiAffinityCounts.get(key, value) > 0) return false;
  }
  return true;
}

/**
 * The node has every topology key of the incoming pod's affinity terms and, in each of those
 * domains, a pod matching all terms; or no such pod exists anywhere and the pod matches its own
 * terms (the first pod of a group that wants to be together).
 */
function satisfyPodAffinity(s: PreFilterState, labels: Labels): boolean {
  let podsExist = true;
  const terms = s.affinityTerms;
  for (let i = 0; i < terms.length; i++) {
    const key = terms[i]!.topologyKey;
    const value = labelValue(labels, key);
    if (value === undefined) return false;
    if (s.affinityCounts.get(key, value) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  return s.affinityCounts.size === 0 && podMatchesAllTerms(terms, s.pod, undefined);
}

/** satisfyPodAffinity for the node at `pos` of the domain table. */
function satisfyPodAffinityAt(s: PreFilterState, p: PositionLookup, pos: number): boolean {
  const counts = s.affinityCounts;
  const keys = p.affinityKeys;
  let podsExist = true;
  for (let i = 0; i < keys.length; i++) {
    const d = p.table.domain(keys[i]!, pos);
    if (d < 0) return false;
    if (counts.countAt(keys[i]!, d) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  return s.affinityCounts.size === 0 && podMatchesAllTerms(s.affinityTerms, s.pod, undefined);
}

/** satisfyPodAntiAffinity for the node at `pos` of the domain table. */
function satisfyPodAntiAffinityAt(s: PreFilterState, p: PositionLookup, pos: number): boolean {
  if (s.antiAffinityCounts.size === 0) return true;
  const counts = s.antiAffinityCounts;
  const keys = p.antiAffinityKeys;
  for (let i = 0; i < keys.length; i++) {
    const d = p.table.domain(keys[i]!, pos);
    if (d >= 0 && counts.countAt(keys[i]!, d) > 0) return false;
  }
  return true;
}

export function filter(state: CycleState, nodeInfo: NodeInfo): Status | null {
  const s = readPreFilterState(state);
  if (s instanceof Status) return s;
  const node = nodeInfo.node;
  if (node === null) return Status.error('node not found');
  const pos = s.positionOf(nodeInfo);
  if (pos >= 0) {
    // The same checks in the same order, reading the counts by position (see domains.ts).
    const p = s.byPosition!;
    if (!satisfyPodAffinityAt(s, p, pos)) return affinityNotMatched;
    if (!satisfyPodAntiAffinityAt(s, p, pos)) return antiAffinityNotMatched;
    const existing = s.existingAntiAffinityCounts;
    if (existing.size > 0 && existing.anyPositiveAt(pos)) return existingAntiAffinityNotMatched;
    return null;
  }
  const labels = node.metadata.labels;
  if (!satisfyPodAffinity(s, labels)) return affinityNotMatched;
  if (!satisfyPodAntiAffinity(s, labels)) return antiAffinityNotMatched;
  if (!satisfyExistingPodsAntiAffinity(s, labels)) return existingAntiAffinityNotMatched;
  return null;
}
