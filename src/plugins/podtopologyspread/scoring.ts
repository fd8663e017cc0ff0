// Mirrors upstream pkg/scheduler/framework/plugins/podtopologyspread/scoring.go.
import { RequiredNodeAffinity } from '../../api/nodeselector.js';
import { MaxNodeScore, type NodeScore } from '../../framework/interfaces.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import {
  countPodsMatchSelector,
  LabelHostname,
  matchNodeInclusionPolicies,
  nodeLabelsMatchSpreadConstraints,
  type SpreadConstraint,
} from './common.js';

export const preScoreStateKey = 'PreScorePodTopologySpread';
const invalidScore = -1;

/** What PreScore computes once per pod for Score and NormalizeScore. */
export class PreScoreState implements StateData {
  constructor(
    readonly constraints: readonly SpreadConstraint[],
    /** Filtered nodes missing a topology key; they score 0. */
    readonly ignoredNodes: ReadonlySet<string>,
    /** Indexed by constraint: topology value → matching pods (hostname constraints stay empty). */
    readonly topologyValueToPodCounts: readonly Map<string, number>[],
    /** Indexed by constraint: log(domains + 2), so small topologies are not watered down. */
    readonly topologyNormalizingWeight: readonly number[],
  ) {}

  /** Never modified after PreScore, so sharing is safe. */
  clone(): PreScoreState {
    return this;
  }
}

/** The weight of a topology with `size` domains. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

/** A domain's contribution: its count scaled by the topology weight, softened by maxSkew - 1. */
export function scoreForCount(cnt: number, maxSkew: number, tpWeight: number): number {
  return cnt * tpWeight + (maxSkew - 1);
}

/**
 * Builds the PreScore state: seeds the domains of the filtered nodes, then counts matching pods of
 * every node in the cluster into those domains. Hostname constraints are counted per node in Score.
 * `requireAllTopologies` is false only for system-default constraints, so nodes without a zone
 * label still get hostname spreading.
 */
export function calPreScoreState(
  pod: PodInfo,
  constraints: readonly SpreadConstraint[],
  filteredNodes: readonly NodeInfo[],
  allNodes: readonly NodeInfo[],
  requireAllTopologies: boolean,
): PreScoreState {
  const n = constraints.length;
  const ignoredNodes = new Set<string>();
  const counts = new Array<Map<string, number>>(n);
  const topoSize = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) counts[i] = new Map();

  for (let j = 0; j < filteredNodes.length; j++) {
    const nodeInfo = filteredNodes[j]!;
    const labels = nodeInfo.node?.metadata.labels;
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) {
      ignoredNodes.add(nodeInfo.name);
      continue;
    }
    for (let i = 0; i < n; i++) {
      const key = constraints[i]!.topologyKey;
      if (key === LabelHostname) continue;
      // A missing key reads as "" (Go map semantics): the system defaults then seed a "" domain.
      const value = labels?.[key] ?? '';
      const m = counts[i]!;
      if (!m.has(value)) {
        m.set(value, 0);
        topoSize[i]!++;
      }
    }
  }

  const weights = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const size = constraints[i]!.topologyKey === LabelHostname ? filteredNodes.length - ignoredNodes.size : topoSize[i]!;
    weights[i] = topologyNormalizingWeight(size);
  }

  const required = RequiredNodeAffinity.fromPod(pod.pod);
  const namespace = pod.namespace;
  for (let j = 0; j < allNodes.length; j++) {
    const nodeInfo = allNodes[j]!;
    const node = nodeInfo.node;
    if (node === null) continue;
    const labels = node.metadata.labels;
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) continue;
    for (let i = 0; i < n; i++) {
      const c = constraints[i]!;
      const value = labels?.[c.topologyKey] ?? '';
      const m = counts[i]!;
      const current = m.get(value);
      // Only domains that hold a candidate node are worth counting (hostname ones never are).
      if (current === undefined || !matchNodeInclusionPolicies(c, pod.pod, node, required)) continue;
      m.set(value, current + countPodsMatchSelector(nodeInfo.pods, c.selector, namespace));
    }
  }

  return new PreScoreState(constraints, ignoredNodes, counts, weights);
}

export function getPreScoreState(state: CycleState): PreScoreState | Status {
  const s = state.read<PreScoreState>(preScoreStateKey);
  if (s === undefined) return Status.error(`error reading "${preScoreStateKey}" from cycleState: not found`);
  if (!(s instanceof PreScoreState)) return Status.error(`${String(s)}  convert to podtopologyspread.preScoreState error`);
  return s;
}

/** The raw score: the weighted count of matching pods in the node's domains (lower is better). */
export function scoreNode(s: PreScoreState, pod: PodInfo, nodeInfo: NodeInfo): number {
  if (s.ignoredNodes.has(nodeInfo.name)) return 0;
  const labels = nodeInfo.node?.metadata.labels;
  if (labels === undefined) return 0;
  const constraints = s.constraints;
  let score = 0;
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    if (!Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) continue;
    const cnt = c.topologyKey === LabelHostname
      ? countPodsMatchSelector(nodeInfo.pods, c.selector, pod.namespace)
      : (s.topologyValueToPodCounts[i]!.get(labels[c.topologyKey]!) ?? 0);
    score += scoreForCount(cnt, c.maxSkew, s.topologyNormalizingWeight[i]!);
  }
  // Scores are never negative, so rounding half up equals Go's math.Round.
  return Math.round(score);
}

/** Maps raw scores onto [0, MaxNodeScore], fewest matching pods best; ignored nodes get 0. */
export function normalizeScores(s: PreScoreState, scores: NodeScore[]): void {
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  for (let i = 0; i < scores.length; i++) {
    const ns = scores[i]!;
    if (s.ignoredNodes.has(ns.name)) {
      ns.score = invalidScore;
      continue;
    }
    if (ns.score < minScore) minScore = ns.score;
    if (ns.score > maxScore) maxScore = ns.score;
  }
  for (let i = 0; i < scores.length; i++) {
    const ns = scores[i]!;
    if (ns.score === invalidScore) {
      ns.score = 0;
    } else if (maxScore === 0) {
      ns.score = MaxNodeScore;
    } else {
      ns.score = Math.floor((MaxNodeScore * (maxScore + minScore - ns.score)) / maxScore);
    }
  }
}
