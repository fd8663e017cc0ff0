// Mirrors upstream pkg/scheduler/framework/plugins/podtopologyspread/filtering.go (v1.34: per-constraint
// counts and two critical paths).
import type { Node, Pod } from '../../api/types.js';
import { RequiredNodeAffinity } from '../../api/nodeselector.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import {
  countPodsMatchSelector,
  matchNodeInclusionPolicies,
  nodeLabelsMatchSpreadConstraints,
  type SpreadConstraint,
} from './common.js';

export const preFilterStateKey = 'PreFilterPodTopologySpread';

export const ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
export const ErrReasonNodeLabelNotMatch = `${ErrReasonConstraintsNotMatch} (missing required label)`;

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
    /** Indexed by constraint: topology value → matching pods in that domain. */
    readonly tpValueToMatchNum: Map<string, number>[],
    /** Indexed by constraint. */
    readonly criticalPaths: CriticalPaths[],
    /** The incoming pod's required node affinity, for AddPod/RemovePod; null when there are no constraints. */
    readonly requiredNodeAffinity: RequiredNodeAffinity | null,
  ) {}

  /** The global minimum used for skew, 0 while fewer than minDomains domains are eligible. */
  minMatchNum(constraintID: number, minDomains: number): number {
    if (this.tpValueToMatchNum[constraintID]!.size < minDomains) return 0;
    return this.criticalPaths[constraintID]!.num0;
  }

  clone(): PreFilterState {
    const counts = new Array<Map<string, number>>(this.tpValueToMatchNum.length);
    for (let i = 0; i < counts.length; i++) counts[i] = new Map(this.tpValueToMatchNum[i]);
    const paths = new Array<CriticalPaths>(this.criticalPaths.length);
    for (let i = 0; i < paths.length; i++) paths[i] = this.criticalPaths[i]!.clone();
    return new PreFilterState(this.constraints, counts, paths, this.requiredNodeAffinity);
  }
}

const emptyPreFilterState = (): PreFilterState => new PreFilterState([], [], [], null);

/** Counts, over all nodes, the pods each hard constraint selects in each of its domains. */
export function calPreFilterState(pod: PodInfo, constraints: readonly SpreadConstraint[], allNodes: readonly NodeInfo[]): PreFilterState {
  if (constraints.length === 0) return emptyPreFilterState();
  const n = constraints.length;
  const counts = new Array<Map<string, number>>(n);
  for (let i = 0; i < n; i++) counts[i] = new Map();
  const required = RequiredNodeAffinity.fromPod(pod.pod);
  const namespace = pod.namespace;

  for (let j = 0; j < allNodes.length; j++) {
    const nodeInfo = allNodes[j]!;
    const node = nodeInfo.node;
    if (node === null) continue;
    const labels = node.metadata.labels;
    // A node must carry every constraint's topology key to count at all.
    if (!nodeLabelsMatchSpreadConstraints(labels, constraints)) continue;
    for (let i = 0; i < n; i++) {
      const c = constraints[i]!;
      if (!matchNodeInclusionPolicies(c, pod.pod, node, required)) continue;
      const value = labels![c.topologyKey]!;
      const m = counts[i]!;
      m.set(value, (m.get(value) ?? 0) + countPodsMatchSelector(nodeInfo.pods, c.selector, namespace));
    }
  }

  const paths = new Array<CriticalPaths>(n);
  for (let i = 0; i < n; i++) {
    const p = new CriticalPaths();
    for (const [value, num] of counts[i]!) p.update(value, num);
    paths[i] = p;
  }
  return new PreFilterState(constraints, counts, paths, required);
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
    const m = s.tpValueToMatchNum[i]!;
    const num = (m.get(value) ?? 0) + delta;
    m.set(value, num);
    s.criticalPaths[i]!.update(value, num);
  }
}

/** Filter: for each hard constraint, matching + self-match - global minimum must not exceed maxSkew. */
export function filterNode(s: PreFilterState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
  const constraints = s.constraints;
  if (constraints.length === 0) return null;
  const labels = nodeInfo.node?.metadata.labels;
  const podLabels = pod.pod.metadata.labels;
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    if (labels === undefined || !Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) {
      return Status.unresolvable(ErrReasonNodeLabelNotMatch);
    }
    const minMatchNum = s.minMatchNum(i, c.minDomains);
    const selfMatchNum = c.selector.matches(podLabels) ? 1 : 0;
    const matchNum = s.tpValueToMatchNum[i]!.get(labels[c.topologyKey]!) ?? 0;
    if (matchNum + selfMatchNum - minMatchNum > c.maxSkew) {
      return Status.unschedulable(ErrReasonConstraintsNotMatch);
    }
  }
  return null;
}
