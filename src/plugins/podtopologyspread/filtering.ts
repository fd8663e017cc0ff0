// Mirrors upstream pkg/scheduler/framework/plugins/podtopologyspread/filtering.go (v1.34: per-constraint
// counts and two critical paths).
import type { Labels } from '../../api/labels.js';
import type { Node, Pod } from '../../api/types.js';
import { RequiredNodeAffinity } from '../../api/nodeselector.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { PodTopologySpread as Name } from '../../framework/names.js';
import { matchNodeInclusionPolicies, nodeLabelsMatchSpreadConstraints, type SpreadConstraint } from './common.js';
import { type CountingSpec, MissingKey, type NodeColumns, type SpreadCounts } from './counting.js';
import { TopologyCounts } from '../../framework/topology/topology_counts.js';
import { labelValue } from '../../framework/topology/label_value.js';

export const preFilterStateKey = 'PreFilterPodTopologySpread';

export const ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
export const ErrReasonNodeLabelNotMatch = `${ErrReasonConstraintsNotMatch} (missing required label)`;

const constraintsNotMatched = Status.constant(Code.Unschedulable, Name, ErrReasonConstraintsNotMatch);
const nodeLabelMissing = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonNodeLabelNotMatch);

const maxInt32 = 2147483647;

/**
 * The two domains with the fewest matching pods for one constraint. `num0` is always the minimum;
 * `num1` is >= num0 but not guaranteed to be the second minimum once AddPod/RemovePod ran (enough
 * for preemption, which changes one node at a time on its own copy of the state).
 */
export class CriticalPaths {
  value0 = '';
  num0 = maxInt32;
  value1 = '';
  num1 = maxInt32;

  update(tpVal: string, num: number): void {
    if (tpVal === this.value0 || tpVal === this.value1) {
      if (tpVal === this.value0) this.num0 = num;
      else this.num1 = num;
      if (this.num0 > this.num1) this.swap();
    } else if (num < this.num0) {
      this.value1 = this.value0;
      this.num1 = this.num0;
      this.value0 = tpVal;
      this.num0 = num;
    } else if (num < this.num1) {
      this.value1 = tpVal;
      this.num1 = num;
    }
  }

  private swap(): void {
    const v = this.value0;
    const n = this.num0;
    this.value0 = this.value1;
    this.num0 = this.num1;
    this.value1 = v;
    this.num1 = n;
  }

  clone(): CriticalPaths {
    const c = new CriticalPaths();
    c.value0 = this.value0;
    c.num0 = this.num0;
    c.value1 = this.value1;
    c.num1 = this.num1;
    return c;
  }
}

/** What PreFilter computes once per pod: matching pods per domain, per hard constraint. */
export class PreFilterState implements StateData {
  constructor(
    /** Shared between clones: never changes after PreFilter. */
    readonly constraints: readonly SpreadConstraint[],
    /**
     * Indexed by constraint: topology value → matching pods in that domain (the constraint's key
     * only), domains in insertion order; copies on write of the kept counts.
     */
    readonly tpValueToMatchNum: TopologyCounts[],
    /** Indexed by constraint: the domain table's index of its topology key. */
    readonly tableKeys: Int32Array,
    /** Indexed by constraint. */
    readonly criticalPaths: CriticalPaths[],
    /** The incoming pod's required node affinity, for AddPod/RemovePod; null when there are no constraints. */
    readonly requiredNodeAffinity: RequiredNodeAffinity | null,
    /** Each node's domain per constraint, in the ids of tpValueToMatchNum; null when not tracked. */
    readonly nodeColumns: NodeColumns | null = null,
  ) {}

  private selfMatchKnown = false;
  private selfMatchLabels: Labels = undefined;
  private selfMatch: number[] = [];

  /** Per constraint, 1 when its selector matches `podLabels` (the pod being filtered), else 0. */
  selfMatchNums(podLabels: Labels): readonly number[] {
    // Filter asks once per node with the same pod: match its labels once.
    if (!this.selfMatchKnown || podLabels !== this.selfMatchLabels) {
      const constraints = this.constraints;
      const out = new Array<number>(constraints.length);
      for (let i = 0; i < constraints.length; i++) out[i] = constraints[i]!.selector.matches(podLabels) ? 1 : 0;
      this.selfMatch = out;
      this.selfMatchLabels = podLabels;
      this.selfMatchKnown = true;
    }
    return this.selfMatch;
  }

  /** The global minimum used for skew, 0 while fewer than minDomains domains are eligible. */
  minMatchNum(constraintID: number, minDomains: number): number {
    if (this.tpValueToMatchNum[constraintID]!.size < minDomains) return 0;
    return this.criticalPaths[constraintID]!.num0;
  }

  clone(): PreFilterState {
    const counts = new Array<TopologyCounts>(this.tpValueToMatchNum.length);
    for (let i = 0; i < counts.length; i++) counts[i] = this.tpValueToMatchNum[i]!.clone();
    const paths = new Array<CriticalPaths>(this.criticalPaths.length);
    for (let i = 0; i < paths.length; i++) paths[i] = this.criticalPaths[i]!.clone();
    return new PreFilterState(this.constraints, counts, this.tableKeys, paths, this.requiredNodeAffinity, this.nodeColumns);
  }
}

/** What the hard constraints' counts depend on: every node must carry all their keys. */
export function preFilterCountingSpec(pod: PodInfo, constraints: readonly SpreadConstraint[]): CountingSpec {
  return {
    mode: 'filter',
    constraints,
    allConstraints: constraints,
    requireAllTopologies: true,
    pod: pod.pod,
    namespace: pod.namespace,
    required: RequiredNodeAffinity.fromPod(pod.pod),
  };
}

/** The PreFilter state from the counts of preFilterCountingSpec over all nodes (kept or fresh). */
export function calPreFilterState(constraints: readonly SpreadConstraint[], counts: SpreadCounts): PreFilterState {
  const n = constraints.length;
  const matchNums = new Array<TopologyCounts>(n);
  const tableKeys = new Int32Array(n);
  const paths = new Array<CriticalPaths>(n);
  for (let i = 0; i < n; i++) {
    const domains = counts.tables[i]!;
    const key = constraints[i]!.topologyKey;
    matchNums[i] = TopologyCounts.over(counts.table, key, domains);
    tableKeys[i] = counts.table.keyIndex(key);
    // Domains in first-seen order, as a recount walks its Map: ties resolve the same way.
    const p = new CriticalPaths();
    for (let w = 0; w < domains.size; w++) p.update(domains.values[w]!, domains.totals[domains.idAt(w)]!);
    paths[i] = p;
  }
  // counts.spec.required is the node affinity of the pod that made this cache entry: equal to
  // this pod's whenever a constraint honours affinity, because the cache key then includes it.
  return new PreFilterState(constraints, matchNums, tableKeys, paths, counts.spec.required, counts.columns);
}

export function getPreFilterState(state: CycleState): PreFilterState | Status {
  const s = state.read<PreFilterState>(preFilterStateKey);
  if (s === undefined) return Status.error(`reading "${preFilterStateKey}" from cycleState: not found`);
  if (!(s instanceof PreFilterState)) return Status.error(`${String(s)} convert to podtopologyspread.preFilterState error`);
  return s;
}

/** Applies one pod added to (delta 1) or removed from (delta -1) `node` to the state. */
export function updateWithPod(s: PreFilterState, updatedPod: Pod, preemptorPod: Pod, node: Node | null, delta: 1 | -1): void {
  const required = s.requiredNodeAffinity;
  if (required === null || node === null) return;
  if ((updatedPod.metadata.namespace ?? 'default') !== (preemptorPod.metadata.namespace ?? 'default')) return;
  const labels = node.metadata.labels;
  if (!nodeLabelsMatchSpreadConstraints(labels, s.constraints)) return;
  const podLabels = updatedPod.metadata.labels;
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    if (!c.selector.matches(podLabels)) continue;
    if (!matchNodeInclusionPolicies(c, preemptorPod, node, required)) continue;
    const value = labels![c.topologyKey]!;
    s.criticalPaths[i]!.update(value, s.tpValueToMatchNum[i]!.accumulate(c.topologyKey, value, delta));
  }
}

/** A label column value for "PreFilter recorded nothing for this node". */
const Unrecorded = -3;

/** Filter: for each hard constraint, matching + self-match - global minimum must not exceed maxSkew. */
export function filterNode(s: PreFilterState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
  const constraints = s.constraints;
  if (constraints.length === 0) return null;
  const selfMatch = s.selfMatchNums(pod.pod.metadata.labels);
  // Where PreFilter recorded the node's domains, they spare a walk into its labels per node.
  const recorded = s.nodeColumns;
  let j = -1;
  if (recorded !== null) {
    const at = recorded.index.position(nodeInfo);
    if (at >= 0 && recorded.nodeRefs[at] === nodeInfo.node) j = at;
  }
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    const counts = s.tpValueToMatchNum[i]!;
    const id = j < 0 ? Unrecorded : recorded!.labelDomains[i]![j]!;
    let matchNum = 0;
    if (id >= 0) {
      matchNum = counts.countAt(s.tableKeys[i]!, id);
    } else if (id === MissingKey) {
      return nodeLabelMissing;
    } else {
      // Unrecorded, or not a domain at PreFilter (AddPod may have made it one): by the label's value.
      const value = labelValue(nodeInfo.node?.metadata.labels, c.topologyKey);
      if (value === undefined) return nodeLabelMissing;
      matchNum = counts.get(c.topologyKey, value);
    }
    if (matchNum + selfMatch[i]! - s.minMatchNum(i, c.minDomains) > c.maxSkew) {
      return constraintsNotMatched;
    }
  }
  return null;
}
