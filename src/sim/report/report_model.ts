// The data shape `simulate --report` embeds and the workbench renders, and the pure helpers both
// sides share (no Node.js or DOM imports: the front end bundles this file).
import type { ExplainAttempt, ExplainPod, ExplainPreemption, ExplainPreemptionNode, ExplainScore, ExplainStatus } from '../explain/explain.js';
import type { DeviceReport, ExplainDevice } from './dra_report.js';
import type { RequestShortfall } from '../../plugins/dynamicresources/index.js';
import { bestScoredNodes, decodeScores, type ScoreColumns } from './report_scores.js';

/** Fields the panels have tables for; anything else a newer explain adds is passed through as `extra`. */
export const knownExplainFields: ReadonlySet<string> = new Set([
  'pod', 'outcome', 'node', 'message', 'filter', 'preFilter', 'scores', 'bestNodes', 'nominatedNode', 'victims',
  'filterPlugins', 'allFilters', 'scoreDetails', 'preemption', 'attempts', 'devices', 'deviceDiagnosis',
]);

// The diagnosis fields of the explain schema (scenarios README, "Explain output"), optional here
// so that records written before them render as before.
type ScoreDetail = ExplainScore;
type PreemptionNode = ExplainPreemptionNode;
type AttemptSummary = ExplainAttempt;
type Preemption<N> = Omit<ExplainPreemption, 'nodes'> & { nodes: N };

export type ExplainDiagnosis = Partial<Pick<ExplainPod, 'filterPlugins' | 'allFilters' | 'scoreDetails' | 'preemption' | 'attempts' | 'devices' | 'deviceDiagnosis'>>;

/** Nodes that every Filter plugin judged alike: the plugins that rejected them, in order. */
export interface AllFiltersGroup<N = string> {
  rejections: ExplainStatus[];
  nodes: N[];
}

/** Nodes that fell short of devices alike (DRA): the requests they could not serve. */
export interface DeviceGroup<N = string> {
  shortfalls: RequestShortfall[];
  nodes: N[];
}

/** Nodes that preemption judged alike. */
export interface PreemptionGroup<N = string> {
  verdict: string;
  status: ExplainStatus | null;
  stillRejectedBy: ExplainStatus[];
  nodes: N[];
}

/** Groups the keys of `record` by `keyOf` of their values, the largest group first, keys sorted. */
function groupNodes<T, G extends { nodes: string[] }>(record: Readonly<Record<string, T>>, keyOf: (v: T) => string, make: (v: T) => G): G[] {
  const byKey = new Map<string, G>();
  for (const node of Object.keys(record)) {
    const v = record[node]!;
    const k = keyOf(v);
    let g = byKey.get(k);
    if (!g) byKey.set(k, (g = make(v)));
    g.nodes.push(node);
  }
  const groups = [...byKey.values()];
  for (const g of groups) g.nodes.sort();
  return groups.sort((a, b) => b.nodes.length - a.nodes.length);
}

const statusKey = (s: ExplainStatus | null) => (s ? `${s.plugin}\u0000${s.code}\u0000${s.reasons.join('\u0000')}` : '');

export function groupAllFilters(allFilters: Readonly<Record<string, ExplainStatus[]>>): AllFiltersGroup[] {
  return groupNodes(allFilters, (list) => list.map(statusKey).join('\u0001'), (list) => ({ rejections: list, nodes: [] as string[] }));
}

export function groupDeviceDiagnosis(diagnosis: Readonly<Record<string, RequestShortfall[]>>): DeviceGroup[] {
  return groupNodes(diagnosis, (list) => JSON.stringify(list), (list) => ({ shortfalls: list, nodes: [] as string[] }));
}

export function groupPreemptionNodes(nodes: Readonly<Record<string, PreemptionNode>>): PreemptionGroup[] {
  return groupNodes(nodes, (n) => `${n.verdict}\u0001${statusKey(n.status)}\u0001${n.stillRejectedBy.map(statusKey).join('\u0002')}`,
    (n) => ({ verdict: n.verdict, status: n.status, stillRejectedBy: n.stillRejectedBy, nodes: [] as string[] }));
}

/** One row of a rejection table: the nodes one plugin rejected with the same code and reasons. */
export interface FilterGroup<N = string> {
  plugin: string;
  code: string;
  reasons: string[];
  nodes: N[];
}

/** Nodes' score breakdown: `rows[i]` is `[node, total, ...one weighted score per plugin]`. */
export interface ScoreTable<N = string> {
  plugins: string[];
  rows: [N, number, ...number[]][];
}

/** A pod's decision as the panels show it, from an explain record or from the report's compact form. */
export interface DecisionView {
  pod: string;
  outcome: string;
  node: string;
  message: string;
  preFilter: ExplainStatus | null;
  filterGroups: FilterGroup[];
  rejectedNodes: number;
  scores: ScoreTable;
  /** How many nodes were scored (the table may show only the top ones). */
  scoredNodes: number;
  bestNodes: string[];
  nominatedNode: string;
  victims: string[];
  attempts: number;
  /** The Filter plugins run for the pod, in order (diagnosed records). */
  filterPlugins: string[];
  /** Every Filter plugin's rejections per node, grouped (diagnosed records). */
  allFilterGroups: AllFiltersGroup[];
  /** Raw, normalized and weighted scores of the nodes in `scores` (diagnosed records). */
  scoreDetails: Record<string, Record<string, ScoreDetail>>;
  preemption: Preemption<PreemptionGroup[]> | null;
  attemptList: AttemptSummary[];
  /** The devices allocated to the pod's claims (DRA). */
  devices: ExplainDevice[];
  /** Why nodes DynamicResources rejected had no devices for the pod, nodes judged alike grouped. */
  deviceGroups: DeviceGroup[];
  /** Fields of a newer explain schema this view has no table for, shown as they are. */
  extra: Record<string, unknown>;
}

/** The score details of the nodes a score table keeps. */
function detailsFor(details: Readonly<Record<string, Record<string, ScoreDetail>>> | undefined, nodes: readonly string[]): Record<string, Record<string, ScoreDetail>> {
  const out: Record<string, Record<string, ScoreDetail>> = {};
  if (!details) return out;
  for (const n of nodes) if (details[n]) out[n] = details[n];
  return out;
}

function preemptionView(p: ExplainPreemption | null | undefined): Preemption<PreemptionGroup[]> | null {
  if (!p) return null;
  return { ...p, nodes: groupPreemptionNodes(p.nodes) };
}

/** Groups a per-node filter map into rows, the largest first (ties by plugin, then reasons). */
export function groupFilter(filter: Readonly<Record<string, ExplainStatus>>): FilterGroup[] {
  const byKey = new Map<string, FilterGroup>();
  for (const node of Object.keys(filter)) {
    const s = filter[node]!;
    const key = statusKey(s);
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { plugin: s.plugin, code: s.code, reasons: [...s.reasons], nodes: [] }));
    g.nodes.push(node);
  }
  const groups = [...byKey.values()];
  for (const g of groups) g.nodes.sort();
  return groups.sort((a, b) => b.nodes.length - a.nodes.length || a.plugin.localeCompare(b.plugin) || a.reasons.join().localeCompare(b.reasons.join()));
}

/** The `limit` best-scored nodes of an explain record's scores, highest total first (ties by name; `chosen` kept, see bestScoredNodes). */
export function topScores(scores: Readonly<Record<string, Readonly<Record<string, number>>>>, limit: number, chosen = ''): ScoreTable {
  const plugins = new Set<string>();
  const top = bestScoredNodes(scores, limit, chosen);
  for (const n of top) for (const p of Object.keys(scores[n]!)) if (p !== 'total') plugins.add(p);
  const names = [...plugins].sort();
  return {
    plugins: names,
    rows: top.map((n) => {
      const row = scores[n]!;
      return [n, row.total ?? 0, ...names.map((p) => row[p] ?? 0)] as [string, number, ...number[]];
    }),
  };
}

/** An explain record whose diagnosis fields may be missing (records written before them). */
type ExplainRecord = Omit<ExplainPod, keyof ExplainDiagnosis> & ExplainDiagnosis;

/**
 * The view of an explain record (the UI's endpoint returns these); `scoredNodes` when the
 * record's scores were cut to the best nodes.
 */
export function decisionFromExplain(e: ExplainRecord, attempts = 0, scoreLimit = 50, scoredNodes = Object.keys(e.scores).length): DecisionView {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) if (!knownExplainFields.has(k)) extra[k] = v;
  const scores = topScores(e.scores, scoreLimit, e.node);
  return {
    pod: e.pod,
    outcome: e.outcome,
    node: e.node,
    message: e.message,
    preFilter: e.preFilter,
    filterGroups: groupFilter(e.filter),
    rejectedNodes: Object.keys(e.filter).length,
    scores,
    scoredNodes,
    bestNodes: e.bestNodes,
    nominatedNode: e.nominatedNode,
    victims: e.victims,
    attempts,
    filterPlugins: e.filterPlugins ?? [],
    allFilterGroups: groupAllFilters(e.allFilters ?? {}),
    scoreDetails: detailsFor(e.scoreDetails, scores.rows.map((r) => r[0])),
    preemption: preemptionView(e.preemption),
    attemptList: e.attempts ?? [],
    devices: e.devices ?? [],
    deviceGroups: groupDeviceDiagnosis(e.deviceDiagnosis ?? {}),
    extra,
  };
}

/** Sorted non-negative integers as runs: `[start, length, start, length, ...]`. */
export function encodeRuns(sorted: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i]!;
    let len = 1;
    while (i + len < sorted.length && sorted[i + len] === start + len) len++;
    out.push(start, len);
    i += len;
  }
  return out;
}

export function decodeRuns(runs: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < runs.length; i += 2) for (let k = 0; k < runs[i + 1]!; k++) out.push(runs[i]! + k);
  return out;
}

// ---- the report's embedded data ----

export const reportOutcomes = ['Scheduled', 'Unschedulable', 'Gated', 'Preempted', 'Deleted', 'Pending', 'Error'] as const;
export type ReportOutcome = (typeof reportOutcomes)[number];

/**
 * One node: `[name, zone index, cpu requested (m), cpu allocatable (m), memory requested,
 * memory allocatable, pods, pods allocatable, devices allocated, devices]`.
 */
export type ReportNode = [string, number, number, number, number, number, number, number, number, number];

/** One pod: `[namespace/name, outcome index, node index or -1, attempts, decision index or -1]`. */
type ReportPod = [string, number, number, number, number];

/** A pod's last decision with nodes as indices, messages and rejection tables shared between pods. */
export interface ReportDecision {
  outcome: string;
  node: number;
  message: number;
  preFilter: ExplainStatus | null;
  /** Index into `filterTables`, -1 when no node was rejected. */
  filterTable: number;
  rejectedNodes: number;
  /** The kept score rows (`ReportData.scoreLimit`), by column; their bytes are the report's column bytes. */
  scores: ScoreColumns;
  scoredNodes: number;
  bestNodes: number[];
  nominatedNode: number;
  victims: string[];
  filterPlugins?: string[];
  /** Index into `allFiltersTables`, -1 (or absent) when the record has no such diagnosis. */
  allFiltersTable?: number;
  preemption?: Preemption<PreemptionGroup<number>[]> | null;
  attempts?: AttemptSummary[];
  devices?: ExplainDevice[];
  /** Device shortfalls per group of nodes, the nodes as runs of node indices. */
  deviceGroups?: DeviceGroup<number>[];
  extra?: Record<string, unknown>;
}

export interface ReportPreemption {
  preemptor: string;
  node: string;
  victims: string[];
  time: number;
}

/** Queue lengths sampled over the run: parallel arrays, one entry per sample. */
export interface QueueSeries {
  attempt: number[];
  time: number[];
  active: number[];
  backoff: number[];
  unschedulable: number[];
  gated: number[];
  scheduled: number[];
}

export interface ReportData {
  title: string;
  summary: {
    scheduled: number; unschedulable: number; pending: number; preempted: number;
    simulatedSeconds: number; wallSeconds: number; podsPerSecond: number;
  };
  zones: string[];
  nodes: ReportNode[];
  pods: ReportPod[];
  decisions: ReportDecision[];
  messages: string[];
  /** Rejection tables, each a list of groups whose nodes are runs of node indices (`encodeRuns`). */
  filterTables: FilterGroup<number>[][];
  /** Every-Filter-plugin tables, each a list of groups whose nodes are runs of node indices. */
  allFiltersTables?: AllFiltersGroup<number>[][];
  preemptions: ReportPreemption[];
  queue: QueueSeries;
  /** Best-scored rows kept per pod's score table ('all': every scored node). */
  scoreLimit: number | 'all';
  /** Pod groups (gangs) placed with their quorum and not, when any pod names a group. */
  groups?: { total: number; placed: number; notPlaced: number };
  /**
   * Each extended resource some node offers (nvidia.com/gpu), its requested and allocatable
   * amounts per node, parallel to `nodes`; absent when no node offers one.
   */
  extended?: { name: string; requested: number[]; allocatable: number[] }[];
  /** Device use per pool at the end of the run, when the scenario has ResourceSlices (DRA). */
  devicePools?: DeviceReport['pools'];
  /** Explain fields left out of the decisions because they were too large, by name. */
  omittedFields: string[];
}

/**
 * Expands the report's compact decision of pod `i` into the panels' view (null when it has none);
 * `columns` are the report's column bytes (the score tables).
 */
export function decisionFromReport(data: ReportData, podIndex: number, columns: DataView): DecisionView | null {
  const pod = data.pods[podIndex];
  if (!pod || pod[4] < 0) return null;
  const d = data.decisions[pod[4]]!;
  const name = (i: number) => (i >= 0 ? (data.nodes[i]?.[0] ?? '') : '');
  const groups = d.filterTable >= 0 ? data.filterTables[d.filterTable]! : [];
  const nodeNames = (runs: number[]) => decodeRuns(runs).map(name).sort();
  const scores = decodeScores(d.scores, columns, name);
  const allGroups = d.allFiltersTable !== undefined && d.allFiltersTable >= 0 ? (data.allFiltersTables?.[d.allFiltersTable] ?? []) : [];
  return {
    pod: pod[0],
    outcome: d.outcome,
    node: name(d.node),
    message: data.messages[d.message] ?? '',
    preFilter: d.preFilter,
    filterGroups: groups.map((g) => ({ plugin: g.plugin, code: g.code, reasons: g.reasons, nodes: nodeNames(g.nodes) })),
    rejectedNodes: d.rejectedNodes,
    scores: { plugins: scores.plugins, rows: scores.rows },
    scoredNodes: d.scoredNodes,
    bestNodes: d.bestNodes.map(name),
    nominatedNode: name(d.nominatedNode),
    victims: d.victims,
    attempts: pod[3],
    filterPlugins: d.filterPlugins ?? [],
    allFilterGroups: allGroups.map((g) => ({ rejections: g.rejections, nodes: nodeNames(g.nodes) })),
    scoreDetails: scores.details,
    preemption: d.preemption ? { ...d.preemption, nodes: d.preemption.nodes.map((g) => ({ ...g, nodes: nodeNames(g.nodes) })) } : null,
    attemptList: d.attempts ?? [],
    devices: d.devices ?? [],
    deviceGroups: (d.deviceGroups ?? []).map((g) => ({ shortfalls: g.shortfalls, nodes: nodeNames(g.nodes) })),
    extra: d.extra ?? {},
  };
}
