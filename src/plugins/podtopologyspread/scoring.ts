// Mirrors upstream pkg/scheduler/framework/plugins/podtopologyspread/scoring.go.
import { RequiredNodeAffinity } from '../../api/nodeselector.js';
import { MaxNodeScore, type NodeScore } from '../../framework/interfaces.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import { countPodsMatchSelector, LabelHostname, nodeLabelsMatchSpreadConstraints, type SpreadConstraint } from './common.js';
import type { CountingSpec, NodeColumns, SpreadCounts } from './counting.js';
import type { DomainCounts } from '../../framework/topology/domain_counts.js';
import { labelValue } from '../../framework/topology/label_value.js';

export const preScoreStateKey = 'PreScorePodTopologySpread';
const invalidScore = -1;

/**
 * Raw scores PreScore already worked out for its filtered nodes, valid for a node while it is
 * the same NodeInfo at the same generation, scored for a pod of the same namespace.
 */
export interface PrecomputedScores {
  readonly namespace: string;
  readonly nodes: readonly NodeInfo[];
  readonly generations: Float64Array;
  readonly scores: Float64Array;
}

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
    readonly precomputed: PrecomputedScores | null = null,
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
 * What the soft constraints' counts depend on. Hostname constraints are counted per node in
 * Score, so only the others are counted here; with `requireAllTopologies` (false only for the
 * system defaults, so nodes without a zone label still get hostname spreading) a node counts
 * only when it carries every constraint's key.
 */
export function preScoreCountingSpec(pod: PodInfo, constraints: readonly SpreadConstraint[], requireAllTopologies: boolean): CountingSpec {
  const counted: SpreadConstraint[] = [];
  for (const c of constraints) if (c.topologyKey !== LabelHostname) counted.push(c);
  return {
    mode: 'score',
    constraints: counted,
    allConstraints: constraints,
    requireAllTopologies,
    pod: pod.pod,
    namespace: pod.namespace,
    required: RequiredNodeAffinity.fromPod(pod.pod),
  };
}

/**
 * Builds the PreScore state from the counts of preScoreCountingSpec over all nodes (kept or
 * fresh): only the domains of the filtered nodes are kept, each with its count over the cluster.
 */
export function calPreScoreState(
  pod: PodInfo,
  constraints: readonly SpreadConstraint[],
  filteredNodes: readonly NodeInfo[],
  counts: SpreadCounts,
  requireAllTopologies: boolean,
): PreScoreState {
  const columns = counts.columns;
  if (columns !== null) {
    const s = preScoreFromColumns(pod, constraints, filteredNodes, counts, columns, requireAllTopologies);
    if (s !== null) return s;
  }
  const n = constraints.length;
  const ignoredNodes = new Set<string>();
  const domainCounts = new Array<Map<string, number>>(n);
  const tables = new Array<DomainCounts | null>(n);
  for (let i = 0, k = 0; i < n; i++) {
    domainCounts[i] = new Map();
    tables[i] = constraints[i]!.topologyKey === LabelHostname ? null : counts.tables[k++]!;
  }

  for (let j = 0; j < filteredNodes.length; j++) {
    const nodeInfo = filteredNodes[j]!;
    const labels = nodeInfo.node?.metadata.labels;
    if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) {
      ignoredNodes.add(nodeInfo.name);
      continue;
    }
    for (let i = 0; i < n; i++) {
      const table = tables[i]!;
      if (table === null) continue;
      // A missing key reads as "" (Go map semantics): the system defaults then seed a "" domain.
      const value = labelValue(labels, constraints[i]!.topologyKey) ?? '';
      const m = domainCounts[i]!;
      if (!m.has(value)) {
        const id = table.idOf(value);
        m.set(value, id < 0 ? 0 : table.totals[id]!);
      }
    }
  }
  return new PreScoreState(constraints, ignoredNodes, domainCounts, normalizingWeights(constraints, domainCounts, filteredNodes.length - ignoredNodes.size));
}

/** Per constraint, the weight of its topology: hostname ones have one domain per scored node. */
function normalizingWeights(constraints: readonly SpreadConstraint[], domainCounts: readonly Map<string, number>[], scoredNodes: number): number[] {
  const weights = new Array<number>(constraints.length);
  for (let i = 0; i < constraints.length; i++) {
    const size = constraints[i]!.topologyKey === LabelHostname ? scoredNodes : domainCounts[i]!.size;
    weights[i] = topologyNormalizingWeight(size);
  }
  return weights;
}

/**
 * calPreScoreState through the per-node columns, which also give each filtered node's raw score
 * (what scoreNode would return) without reading its labels or pods. Null when a filtered node is
 * not described by the columns.
 */
function preScoreFromColumns(
  pod: PodInfo,
  constraints: readonly SpreadConstraint[],
  filteredNodes: readonly NodeInfo[],
  counts: SpreadCounts,
  columns: NodeColumns,
  requireAllTopologies: boolean,
): PreScoreState | null {
  const n = constraints.length;
  const keyMasks = columns.keyMasks!;
  // Per constraint: its counted index (domains) or its own-count index (hostname), -1 otherwise.
  // Hostname and domain constraints share every operation here: the first process-wide pod with a
  // hostname constraint then runs no code without type feedback, which would deoptimise this.
  const counted = new Int32Array(n);
  const own = new Int32Array(n);
  const seeded: Uint8Array[] = [];
  for (let i = 0, k = 0, h = 0; i < n; i++) {
    const byHost = constraints[i]!.topologyKey === LabelHostname;
    own[i] = byHost ? h : -1;
    counted[i] = byHost ? -1 : k;
    h += byHost ? 1 : 0;
    if (!byHost) seeded.push(new Uint8Array(counts.tables[k++]!.totals.length));
  }
  const allKeys = (1 << n) - 1;
  const ignoredNodes = new Set<string>();
  const domainCounts = new Array<Map<string, number>>(n);
  for (let i = 0; i < n; i++) domainCounts[i] = new Map();
  const f = filteredNodes.length;
  const positions = new Int32Array(f);

  for (let x = 0; x < f; x++) {
    const nodeInfo = filteredNodes[x]!;
    const j = columns.index.position(nodeInfo);
    if (j < 0 || columns.nodeRefs[j] !== nodeInfo.node) return null;
    positions[x] = j;
    if (requireAllTopologies && keyMasks[j] !== allKeys) {
      ignoredNodes.add(nodeInfo.name);
      continue;
    }
    for (let i = 0; i < n; i++) {
      const k = counted[i]!;
      if (k < 0) continue;
      const m = domainCounts[i]!;
      const id = columns.labelDomains[k]![j]!;
      if (id >= 0) {
        if (seeded[k]![id] === 0) {
          seeded[k]![id] = 1;
          const table = counts.tables[k]!;
          m.set(table.valueOf(id), table.totals[id]!);
        }
      } else {
        // Not a domain anywhere: seeded with 0 under its name (as rare as it is, read the label).
        const value = labelValue(nodeInfo.node?.metadata.labels, constraints[i]!.topologyKey) ?? '';
        if (!m.has(value)) m.set(value, 0);
      }
    }
  }

  const weights = normalizingWeights(constraints, domainCounts, f - ignoredNodes.size);
  // Per constraint, where a node's count is read: its domain's total, or its own pods (hostname).
  const nodeColumn = new Array<Int32Array>(n);
  const domainTotals = new Array<Float64Array | null>(n);
  const { labelDomains, ownCounts } = columns;
  for (let i = 0; i < n; i++) {
    const k = counted[i]!;
    const h = own[i]!;
    const byDomain = k >= 0;
    nodeColumn[i] = (byDomain ? labelDomains : ownCounts)[byDomain ? k : h]!;
    domainTotals[i] = byDomain ? counts.tables[k]!.totals : null;
  }
  const scores = new Float64Array(f);
  const generations = new Float64Array(f);
  for (let x = 0; x < f; x++) {
    const nodeInfo = filteredNodes[x]!;
    generations[x] = nodeInfo.generation;
    if (ignoredNodes.size > 0 && ignoredNodes.has(nodeInfo.name)) continue;
    const j = positions[x]!;
    const mask = keyMasks[j]!;
    let score = 0;
    for (let i = 0; i < n; i++) {
      if ((mask & (1 << i)) === 0) continue;
      const v = nodeColumn[i]![j]!;
      const totals = domainTotals[i]!;
      const cnt = totals === null ? v : v >= 0 ? totals[v]! : 0;
      score += scoreForCount(cnt, constraints[i]!.maxSkew, weights[i]!);
    }
    scores[x] = Math.round(score);
  }
  const precomputed: PrecomputedScores = { namespace: pod.namespace, nodes: filteredNodes.slice(), generations, scores };
  return new PreScoreState(constraints, ignoredNodes, domainCounts, weights, precomputed);
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

/** scoreNode for each of `nodes` into `out`, through PreScore's precomputed scores where they hold. */
export function scoreNodes(s: PreScoreState, pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): void {
  const pre = s.precomputed;
  const usable = pre !== null && pre.namespace === pod.namespace;
  for (let i = 0; i < nodes.length; i++) {
    const nodeInfo = nodes[i]!;
    if (usable && pre.nodes[i] === nodeInfo && pre.generations[i] === nodeInfo.generation) out[i]!.score = pre.scores[i]!;
    else out[i]!.score = scoreNode(s, pod, nodeInfo);
  }
}

/** Maps raw scores onto [0, MaxNodeScore], fewest matching pods best; ignored nodes get 0. */
export function normalizeScores(s: PreScoreState, scores: NodeScore[]): void {
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  // Usually no node is ignored: then skip hashing every node's name.
  const anyIgnored = s.ignoredNodes.size > 0;
  for (let i = 0; i < scores.length; i++) {
    const ns = scores[i]!;
    if (anyIgnored && s.ignoredNodes.has(ns.name)) {
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
