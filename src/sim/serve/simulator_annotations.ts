// Mirrors kubernetes-sigs/kube-scheduler-simulator simulator/scheduler/plugin/resultstore/store.go
// and storereflector/storereflector.go: one scheduling attempt's results as the simulator's pod
// annotations (JSON maps node → plugin → message or score), and its result-history.
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import type { Status } from '../../framework/status.js';

const prefix = 'kube-scheduler-simulator.sigs.k8s.io/';
export const simulatorAnnotationKeys = {
  preFilterStatus: `${prefix}prefilter-result-status`,
  preFilter: `${prefix}prefilter-result`,
  filter: `${prefix}filter-result`,
  postFilter: `${prefix}postfilter-result`,
  preScore: `${prefix}prescore-result`,
  score: `${prefix}score-result`,
  finalScore: `${prefix}finalscore-result`,
  reserve: `${prefix}reserve-result`,
  permit: `${prefix}permit-result`,
  permitTimeout: `${prefix}permit-result-timeout`,
  preBind: `${prefix}prebind-result`,
  bind: `${prefix}bind-result`,
  selectedNode: `${prefix}selected-node`,
  history: `${prefix}result-history`,
} as const;

/** Ours, not the simulator's: set when results had to be cut to fit, saying what was cut. */
export const truncatedAnnotationKey = 'kube-scheduler-ts/simulator-results-truncated';

/** The API server's limit on a pod's annotations, keys and values together (TotalAnnotationSizeLimitB). */
const annotationSizeLimitBytes = 256 * 1024;

/** The simulator's messages for a plugin that passed, succeeded, or whose PostFilter nominated the node. */
const passedMessage = 'passed';
const successMessage = 'success';
const nominatedMessage = 'preemption victim';

/** The plugins of the pod's profile, per extension point, in order. */
export interface ProfilePlugins {
  preFilter: readonly string[];
  filter: readonly string[];
  postFilter: readonly string[];
  preScore: readonly string[];
  score: readonly string[];
  reserve: readonly string[];
  permit: readonly string[];
  preBind: readonly string[];
  bind: readonly string[];
}

type NodePluginMap = Record<string, Record<string, string>>;

/** The per-node maps, in the order they are written. */
const nodeMapKeys = ['filter', 'postFilter', 'score', 'finalScore'] as const;

/** One attempt's results, each per-node map's rows already encoded so that it can be cut to fewer nodes cheaply. */
export interface SimulatorResult {
  /** Selected node first, then the nominated one, then by name: the order nodes are kept in when cut. */
  nodes: string[];
  /** Per map, node → its row as JSON. */
  rows: Record<(typeof nodeMapKeys)[number], Map<string, string>>;
  /** The annotations without per-node maps, already encoded. */
  fixed: Record<string, string>;
}

function message(s: Status): string {
  return s.reasons.join(', ');
}

function pluginMap(plugins: readonly string[], value: string): Record<string, string> {
  const m: Record<string, string> = {};
  for (const p of plugins) m[p] = value;
  return m;
}

/** A flat map as Go's encoding/json writes it: keys sorted. */
function encodeFlat(m: Readonly<Record<string, string>>): string {
  const out: Record<string, string> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k]!;
  return JSON.stringify(out);
}

function encodeRows(m: NodePluginMap): Map<string, string> {
  const rows = new Map<string, string>();
  // Rows shared by many nodes (every passed node's) are encoded once.
  const seen = new Map<Record<string, string>, string>();
  for (const node of Object.keys(m)) {
    const row = m[node]!;
    let text = seen.get(row);
    if (text === undefined) seen.set(row, (text = encodeFlat(row)));
    rows.set(node, text);
  }
  return rows;
}

/**
 * What the simulator's wrapped plugins would have recorded for this attempt, from what our
 * diagnosed cycle kept. A rejected node lists its Filter plugins up to the first that rejected
 * it (the framework stops there); PreScore and Score plugins that skipped get an empty message.
 */
export function simulatorResult(a: AttemptRecord, plugins: ProfilePlugins): SimulatorResult {
  const d = a.diagnosis;
  const scheduled = a.outcome === 'Scheduled';
  const filterPlugins = d && d.filterPlugins.length > 0 ? d.filterPlugins : plugins.filter;

  const preFilterStatus: Record<string, string> = {};
  const failed = d?.preFilterStatus ?? null;
  for (const p of plugins.preFilter) {
    if (failed && p === failed.plugin) {
      preFilterStatus[p] = message(failed);
      break;
    }
    // A plugin with a Filter the cycle did not run returned Skip from PreFilter.
    const skipped = !failed && d !== null && d.filterPlugins.length > 0 && plugins.filter.includes(p) && !d.filterPlugins.includes(p);
    preFilterStatus[p] = skipped ? '' : successMessage;
  }

  const filter: NodePluginMap = {};
  for (const [node, first] of d?.nodeToStatus.entries() ?? []) {
    const row: Record<string, string> = {};
    if (filterPlugins.includes(first.plugin)) {
      for (const p of filterPlugins) {
        if (p === first.plugin) break;
        row[p] = passedMessage;
      }
    }
    row[first.plugin] = message(first);
    filter[node] = row;
  }
  const result = a.result;
  const passedNodes = result === null ? [] : result.scores.length > 0 ? result.scores.map((s) => s.name) : [result.suggestedHost];
  const passedRow = pluginMap(filterPlugins, passedMessage);
  for (const node of passedNodes) filter[node] = passedRow;

  // Score rows are many (plugins × scored nodes): written as JSON text directly, each plugin name quoted once.
  const score = new Map<string, string>();
  const finalScore = new Map<string, string>();
  const scoredPlugins = new Set<string>();
  const quoted = new Map<string, string>();
  for (const ns of result?.scores ?? []) {
    const sorted = [...ns.scores].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    let raw = '';
    let weighted = '';
    for (const ps of sorted) {
      let name = quoted.get(ps.name);
      if (name === undefined) quoted.set(ps.name, (name = JSON.stringify(ps.name)));
      const sep = raw === '' ? '' : ',';
      raw += `${sep}${name}:"${ps.raw ?? ps.score}"`;
      weighted += `${sep}${name}:"${ps.score}"`;
      scoredPlugins.add(ps.name);
    }
    score.set(ns.name, `{${raw}}`);
    finalScore.set(ns.name, `{${weighted}}`);
  }
  // The framework runs PreScore only with more than one feasible node.
  const preScore: Record<string, string> = {};
  if (result !== null && result.feasibleNodes > 1) {
    const skipped = (p: string) => result.scores.length > 0 && plugins.score.includes(p) && !scoredPlugins.has(p);
    for (const p of plugins.preScore) preScore[p] = skipped(p) ? '' : successMessage;
  }

  const postFilter: NodePluginMap = {};
  if (a.preemption && plugins.postFilter.length > 0) {
    for (const n of a.preemption.nodes) postFilter[n.node] = {};
    if (a.nominatedNode !== '') postFilter[a.nominatedNode] = { [plugins.postFilter[0]!]: nominatedMessage };
  }

  const fixed: Record<string, string> = {
    [simulatorAnnotationKeys.preFilter]: '{}',
    [simulatorAnnotationKeys.preFilterStatus]: encodeFlat(preFilterStatus),
    [simulatorAnnotationKeys.preScore]: encodeFlat(preScore),
    [simulatorAnnotationKeys.reserve]: encodeFlat(scheduled ? pluginMap(plugins.reserve, successMessage) : {}),
    [simulatorAnnotationKeys.permit]: encodeFlat(scheduled ? pluginMap(plugins.permit, successMessage) : {}),
    [simulatorAnnotationKeys.permitTimeout]: encodeFlat(scheduled ? pluginMap(plugins.permit, '0s') : {}),
    [simulatorAnnotationKeys.preBind]: encodeFlat(scheduled ? pluginMap(plugins.preBind, successMessage) : {}),
    [simulatorAnnotationKeys.bind]: encodeFlat(scheduled ? pluginMap(plugins.bind, successMessage) : {}),
    [simulatorAnnotationKeys.selectedNode]: scheduled ? a.node : '',
  };
  const first = [a.node, a.nominatedNode].filter((n) => n !== '');
  const rest = new Set([...Object.keys(filter), ...score.keys(), ...Object.keys(postFilter)]);
  for (const n of first) rest.delete(n);
  const nodes = [...new Set(first), ...[...rest].sort()];
  const rows = { filter: encodeRows(filter), postFilter: encodeRows(postFilter), score, finalScore };
  return { nodes, rows, fixed };
}

/** The result's annotations, its per-node maps holding only `kept` nodes (all when null), nodes sorted as Go sorts map keys. */
function encodeResult(r: SimulatorResult, kept: ReadonlySet<string> | null = null): Record<string, string> {
  const out: Record<string, string> = { ...r.fixed };
  for (const m of nodeMapKeys) {
    const parts: string[] = [];
    for (const node of [...r.rows[m].keys()].sort()) if (kept === null || kept.has(node)) parts.push(`${JSON.stringify(node)}:${r.rows[m].get(node)!}`);
    out[simulatorAnnotationKeys[m]] = `{${parts.join(',')}}`;
  }
  return out;
}

function annotationBytes(a: Readonly<Record<string, string>>): number {
  let n = 0;
  for (const k of Object.keys(a)) n += Buffer.byteLength(k) + Buffer.byteLength(a[k]!);
  return n;
}

/** The history an annotation holds; an unreadable one starts afresh, as the simulator's does. */
function parseHistory(text: string | undefined): Record<string, string>[] {
  if (text === undefined) return [];
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((e): e is Record<string, string> => typeof e === 'object' && e !== null && !Array.isArray(e)) : [];
  } catch {
    return [];
  }
}

/** UTF-8 bytes of a text, and of it escaped inside a JSON string (quotes left out). */
function textBytes(text: string): [raw: number, escaped: number] {
  // Printable ASCII, the usual case: one byte a character, quotes and backslashes escaped.
  if (/^[\x20-\x7e]*$/.test(text)) {
    let esc = text.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34 || c === 92) esc++;
    }
    return [text.length, esc];
  }
  return [Buffer.byteLength(text), Buffer.byteLength(JSON.stringify(text)) - 2];
}

/**
 * What each node adds to the annotations, in the result's node order: its rows once in the maps
 * and once, escaped, in the history entry (a comma each).
 */
function nodeBytes(r: SimulatorResult): number[] {
  const rowBytes = new Map<string, [number, number]>();
  return r.nodes.map((node) => {
    const [nodeRaw, nodeEsc] = textBytes(JSON.stringify(node));
    let n = 0;
    for (const m of nodeMapKeys) {
      const row = r.rows[m].get(node);
      if (row === undefined) continue;
      let b = rowBytes.get(row);
      if (b === undefined) rowBytes.set(row, (b = textBytes(row)));
      // `"node":row,` in the map and the same escaped in the history entry.
      n += nodeRaw + b[0] + 2 + nodeEsc + b[1] + 2;
    }
    return n;
  });
}

/**
 * The pod's annotations with the results of its latest attempts (oldest first) written as the
 * simulator writes them: the last attempt's under each key, every one appended to result-history.
 * To stay under the API's limit the oldest history entries go first, then nodes (the last
 * attempt's nodes kept in `nodes` order); what was cut is said under `truncatedAnnotationKey`.
 */
export function annotateResults(existing: Readonly<Record<string, string>> | undefined, results: readonly SimulatorResult[], limitBytes = annotationSizeLimitBytes): Record<string, string> {
  const last = results[results.length - 1];
  const base: Record<string, string> = { ...existing };
  delete base[truncatedAnnotationKey];
  if (!last) return base;
  const history = [...parseHistory(base[simulatorAnnotationKeys.history]), ...results.slice(0, -1).map((r) => encodeResult(r))];
  const build = (older: readonly Record<string, string>[], kept: ReadonlySet<string> | null): Record<string, string> => {
    const current = encodeResult(last, kept);
    return { ...base, ...current, [simulatorAnnotationKeys.history]: JSON.stringify([...older, current]) };
  };
  // Room for the truncation note itself.
  const budget = limitBytes - 256;
  // The size with k nodes kept is about that with none plus the first k nodes' bytes: estimated
  // so, then checked, rather than encoding everything again for each try.
  const perNode = nodeBytes(last);
  const allNodes = perNode.reduce((a, b) => a + b, 0);
  const none = new Set<string>();
  let older = history;
  let empty = annotationBytes(build(older, none));
  // Dropping the oldest entries one by one is quadratic in a long history: halve it instead.
  while (empty + allNodes > budget && older.length > 0) {
    older = older.slice(Math.ceil(older.length / 2));
    empty = annotationBytes(build(older, none));
  }
  let keep = 0;
  for (let used = empty; keep < perNode.length && used + perNode[keep]! <= budget; keep++) used += perNode[keep]!;
  let out = build(older, keep === perNode.length ? null : new Set(last.nodes.slice(0, keep)));
  while (annotationBytes(out) > budget && keep > 0) {
    keep = Math.floor(keep * 0.9);
    out = build(older, new Set(last.nodes.slice(0, keep)));
  }
  if (annotationBytes(out) > budget) return { ...base, [truncatedAnnotationKey]: 'results not written: the pod\'s other annotations leave no room' };
  const cut: string[] = [];
  if (older.length < history.length) cut.push(`result-history: ${history.length - older.length} older attempt(s) dropped`);
  if (keep < last.nodes.length) cut.push(`per-node results: ${keep} of ${last.nodes.length} nodes kept`);
  if (cut.length > 0) out[truncatedAnnotationKey] = cut.join('; ');
  return out;
}
