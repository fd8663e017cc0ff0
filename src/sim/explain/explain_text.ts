// `explain --output text`: each pod's decision for a person at a terminal. The outcome and
// upstream's message, the Filter verdicts as a nodes × plugins table with identical rows grouped
// (so 5,000 nodes make a handful of rows), the top nodes with each plugin's score, the
// preemption summary and the attempts. Lines are cut to the width; colour only when asked.
import type { ExplainCandidate, ExplainPod, ExplainPreemption, ExplainStatus } from './explain.js';
import type { ExplainGroup, ExplainTree } from './explain_groups.js';

export interface ExplainTextOptions {
  /** Lines longer than this are cut (Infinity: never). */
  width: number;
  color: boolean;
  /** Name every node of a group instead of the first few. */
  allNodes: boolean;
  /** How many top-scored nodes to show. */
  topNodes: number;
}

const defaultExplainTextOptions: ExplainTextOptions = { width: Infinity, color: false, allNodes: false, topNodes: 3 };

/** Node names shown per group unless every one is asked for. */
const namesPerGroup = 3;
/** The widest a table cell grows before it is cut; narrowed when the table would not fit. */
const maxCellWidth = 80;
const minCellWidth = 8;
/** What a flexible last column (node names) is sure to keep when cells are narrowed. */
const flexibleRoom = 20;

type Style = 'bold' | 'dim' | 'green' | 'red' | 'yellow';
interface Segment {
  readonly text: string;
  readonly style: Style | null;
}
type Line = Segment[];

const ansi: Record<Style, string> = { bold: '1', dim: '2', green: '32', red: '31', yellow: '33' };

const seg = (text: string, style: Style | null = null): Segment => ({ text, style });

export function renderExplainText(pods: readonly ExplainPod[], options: Partial<ExplainTextOptions> = {}, groups: readonly ExplainGroup[] = [], trees: readonly ExplainTree[] = []): string {
  const o = { ...defaultExplainTextOptions, ...options };
  const lines: Line[] = [];
  for (const [i, p] of pods.entries()) {
    if (i > 0) lines.push([]);
    renderPod(p, o, lines);
  }
  if (pods.length === 0 && groups.length === 0) lines.push([seg('No pending pods to explain.')]);
  for (const g of groups) {
    if (lines.length > 0) lines.push([]);
    renderGroup(g, o, lines);
  }
  for (const t of trees) {
    if (lines.length > 0) lines.push([]);
    const [head, ...rest] = treeLines(t);
    lines.push([seg(head!, 'bold')], ...rest.map((l) => [seg(l)]));
  }
  return lines.map((l) => renderLine(cut(l, o.width), o.color)).join('\n') + '\n';
}

function renderPod(p: ExplainPod, o: ExplainTextOptions, out: Line[]): void {
  const outcomeStyle: Style = p.outcome === 'Scheduled' ? 'green' : p.outcome === 'Error' ? 'red' : 'yellow';
  const head: Line = [seg(p.pod, 'bold'), seg('  '), seg(p.outcome, outcomeStyle)];
  if (p.outcome === 'Scheduled') head.push(seg(` on ${p.node}`));
  if (p.nominatedNode) head.push(seg(`, nominated to ${p.nominatedNode}`));
  out.push(head);
  // Upstream's message is the one thing worth every word: wrapped, never cut.
  paragraph(out, '', p.message, o.width);
  if (p.preFilter) {
    out.push([]);
    paragraph(out, 'PreFilter: ', `${p.preFilter.plugin} rejected the pod before any node was filtered: ${p.preFilter.reasons.join(', ')}`, o.width);
  }
  renderRejections(p, o, out);
  renderScores(p, o, out);
  if (p.preemption) renderPreemption(p, p.preemption, o, out);
  renderAttempts(p, out);
}

/** The verdicts per node: every plugin's when diagnosed, else the first rejecting plugin's. */
function verdictsByNode(p: ExplainPod): { nodes: [string, ExplainStatus[]][]; complete: boolean } {
  const complete = Object.keys(p.allFilters ?? {}).length > 0;
  const nodes: [string, ExplainStatus[]][] = [];
  for (const [node, first] of Object.entries(p.filter)) nodes.push([node, complete ? (p.allFilters[node] ?? [first]) : [first]]);
  return { nodes, complete };
}

function renderRejections(p: ExplainPod, o: ExplainTextOptions, out: Line[]): void {
  const { nodes, complete } = verdictsByNode(p);
  if (nodes.length === 0) return;
  const plugins = pluginColumns(p, nodes);
  const groups = groupBy(nodes, ([, verdicts]) => plugins.map((pl) => cellFor(verdicts, pl)).join('\u0000'));
  out.push([]);
  const title = complete ? 'every Filter plugin\'s verdict' : 'the first rejecting plugin per node';
  out.push([seg(`  Rejected on ${nodes.length} node(s) (${title}; * unresolvable: preemption cannot help):`, 'bold')]);
  const rows = groups.map((g) => [String(g.items.length), ...plugins.map((pl) => cellFor(g.items[0]![1], pl)), nodeNames(g.items.map(([n]) => n), o)]);
  table(['NODES', ...plugins, 'NODE NAMES'], rows, o, out, (cell, col) => (col > 0 && col <= plugins.length && cell !== '.' ? 'red' : null), true);
}

/** Plugins that rejected some node, in the order they ran. */
function pluginColumns(p: ExplainPod, nodes: readonly [string, ExplainStatus[]][]): string[] {
  const seen = new Set<string>();
  for (const [, verdicts] of nodes) for (const v of verdicts) seen.add(v.plugin || '(extender)');
  const order = [...(p.filterPlugins ?? [])];
  for (const name of seen) if (!order.includes(name)) order.push(name);
  return order.filter((n) => seen.has(n));
}

function cellFor(verdicts: readonly ExplainStatus[], plugin: string): string {
  const v = verdicts.find((s) => (s.plugin || '(extender)') === plugin);
  if (!v) return '.';
  return `${v.reasons.join(', ') || v.code}${v.code === 'UnschedulableAndUnresolvable' ? ' *' : ''}`;
}

/** A group's node names in name order (not the order the nodes were visited), the first few unless all are asked for. */
function nodeNames(names: readonly string[], o: ExplainTextOptions): string {
  const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (o.allNodes || sorted.length <= namesPerGroup) return sorted.join(', ');
  return `${sorted.slice(0, namesPerGroup).join(', ')}, ... (+${sorted.length - namesPerGroup})`;
}

/** The top nodes as columns and each score plugin as a row, so long plugin names cost no width. */
function renderScores(p: ExplainPod, o: ExplainTextOptions, out: Line[]): void {
  const scored = Object.entries(p.scores);
  if (scored.length === 0) {
    if (p.outcome === 'Scheduled' && p.bestNodes.length === 1) out.push([], [seg(`  Only ${p.bestNodes[0]} passed the filters: not scored.`)]);
    return;
  }
  scored.sort(([a, x], [b, y]) => (y.total ?? 0) - (x.total ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  const top = scored.slice(0, o.topNodes);
  const plugins = Object.keys(scored[0]![1]).filter((k) => k !== 'total');
  const details = p.scoreDetails ?? {};
  const diagnosed = Object.keys(details).length > 0;
  const best = new Set(p.bestNodes);
  const marked = top.map(([node]) => `${node}${node === p.node ? ' (chosen)' : best.has(node) ? ' (tied)' : ''}`);
  const header = ['PLUGIN', ...(diagnosed ? ['WEIGHT'] : []), ...marked];
  const rows = plugins.map((pl) => {
    const weight = Object.values(details)[0]?.[pl]?.weight;
    return [pl, ...(diagnosed ? [weight === undefined ? '' : String(weight)] : []), ...top.map(([node, row]) => {
      const d = details[node]?.[pl];
      return d ? `${fmt(d.weighted)} (${fmt(d.raw)} -> ${fmt(d.normalized)})` : fmt(row[pl] ?? 0);
    })];
  });
  rows.push(['TOTAL', ...(diagnosed ? [''] : []), ...top.map(([, row]) => fmt(row.total ?? 0))]);
  out.push([]);
  const legend = diagnosed ? ': weighted score (raw -> normalized)' : ': weighted score';
  out.push([seg(`  Top ${top.length} of ${scored.length} scored node(s)${legend}:`, 'bold')]);
  // Node names too long for their columns (cloud names run to 45 characters) are listed in full
  // above the table, with their marks, and the columns numbered: a cut name loses what tells it apart.
  const first = header.length - top.length;
  if (naturalWidth(header, rows) > o.width) {
    marked.forEach((m, i) => out.push([seg(`    NODE ${i + 1}: `, 'dim'), seg(m)]));
    top.forEach((_, i) => (header[first + i] = `NODE ${i + 1}`));
  }
  table(header, rows, o, out, (_cell, col, row) => (row[0] === 'TOTAL' && col > 0 ? 'bold' : null), false);
}

/** The width a table's lines take with no cell narrowed (as table() lays it out). */
function naturalWidth(header: readonly string[], rows: readonly string[][]): number {
  const widths = header.map((h, c) => Math.min(maxCellWidth, Math.max(h.length, ...rows.map((r) => r[c]!.length))));
  return 4 + widths.reduce((sum, w) => sum + w + 2, 0) - 2;
}

function renderPreemption(p: ExplainPod, pre: ExplainPreemption, o: ExplainTextOptions, out: Line[]): void {
  out.push([]);
  if (pre.notEligible) {
    paragraph(out, 'Preemption: ', pre.notEligible, o.width);
    return;
  }
  if (pre.chosen) {
    const decided = pre.decidedBy === 'OnlyCandidate' ? 'the only candidate' : `decided by ${pre.decidedBy} among ${pre.candidates.length} candidates`;
    paragraph(out, 'Preemption: ', `nominated ${pre.chosen}, evicting ${p.victims.length} pod(s) (${decided}).`, o.width);
    // Candidates alike in everything the rules compare share a row, the chosen one first.
    const cost = (c: ExplainCandidate) => [
      String(c.victimCount),
      c.pdbViolations > 0 ? `${c.pdbViolations} (${c.violatedBudgets.join(', ')})` : '0',
      String(c.highestVictimPriority),
      String(c.sumOfVictimPriorities),
      c.earliestStartOfHighestPriorityVictims ?? 'not started',
      c.eliminatedBy ?? 'chosen',
    ];
    const groups = groupBy(pre.candidates, (c) => cost(c).join('\u0000')).sort((a, b) => Number(b.items[0]!.eliminatedBy === null) - Number(a.items[0]!.eliminatedBy === null));
    const rows = groups.map((g) => [String(g.items.length), ...cost(g.items[0]!), nodeNames(g.items.map((c) => c.node), o)]);
    table(['NODES', 'VICTIMS', 'PDB VIOLATIONS', 'MAX PRIORITY', 'PRIORITY SUM', 'EARLIEST START', 'RULED OUT BY', 'NODE NAMES'], rows, o, out, (_c, col, row) => (col === 6 && row[6] === 'chosen' ? 'green' : null), true);
  } else {
    paragraph(out, 'Preemption: ', 'no node can be made to fit.', o.width);
  }
  // Why the other nodes are no (better) candidates, grouped as the rejections are.
  const others = Object.entries(pre.nodes).filter(([node, n]) => node !== pre.chosen && !(n.verdict === 'Candidate' && pre.candidates.some((c) => c.node === node)));
  if (others.length === 0) return;
  const why = ([, n]: (typeof others)[number]): string => {
    switch (n.verdict) {
      case 'NotHelpful':
        return `unresolvable: ${statusText(n.status)}`;
      case 'NoLowerPriorityPods':
        return 'no lower-priority pods';
      case 'StillRejected':
        return `rejected even without lower-priority pods: ${n.stillRejectedBy.map((s) => `${s.plugin}: ${s.reasons.join(', ')}`).join('; ')}`;
      case 'Candidate':
        return `would fit by evicting ${n.candidate?.victimCount ?? 0} pod(s)${n.candidate && n.candidate.pdbViolations > 0 ? `, violating ${n.candidate.violatedBudgets.join(', ')}` : ''}`
          + (n.dryRun ? ' (found after the dry run had enough candidates)' : ' (the dry run stopped before it)');
      default:
        return `error: ${statusText(n.status)}`;
    }
  };
  const groups = groupBy(others, why);
  out.push([seg(pre.chosen ? '  The other nodes:' : '  Per node:', 'bold')]);
  table(['NODES', 'WHY NOT', 'NODE NAMES'], groups.map((g) => [String(g.items.length), g.key, nodeNames(g.items.map(([n]) => n), o)]), o, out, () => null, true);
}

function statusText(s: ExplainStatus | null): string {
  if (!s) return 'not evaluated';
  const reasons = s.reasons.join(', ');
  return s.plugin ? `${s.plugin}: ${reasons}` : reasons || s.code;
}

/** A pod group's cycle: its outcome, what stopped it, and each member's node or message. */
function renderGroup(g: ExplainGroup, o: ExplainTextOptions, out: Line[]): void {
  const style: Style = g.outcome === 'Scheduled' ? 'green' : g.outcome === 'Error' ? 'red' : 'yellow';
  const policy = g.policy === 'gang' ? `gang, minCount ${g.minCount}` : 'basic';
  out.push([seg(`Pod group ${g.group}`, 'bold'), seg(`  (${policy})  `), seg(g.outcome, style), seg(`: ${g.placed}/${g.members.length} member(s) placed`)]);
  if (g.stoppedBy !== null) paragraph(out, 'Stopped by: ', `${g.stoppedBy.plugin === '' ? '' : `${g.stoppedBy.plugin}: `}${g.stoppedBy.message}`, o.width);
  if (g.firstRejected !== null) {
    const by = g.firstRejected.plugins.length > 0 ? ` (${g.firstRejected.plugins.join(', ')})` : '';
    paragraph(out, 'First rejected: ', `${g.firstRejected.pod}${by}: ${g.firstRejected.message}`, o.width);
  }
  if (g.victims.length > 0) paragraph(out, 'Victims: ', g.victims.join(', '), o.width);
  out.push([]);
  const rows = g.members.map((m) => [m.pod, m.outcome, m.outcome === 'Scheduled' ? m.node : m.message]);
  table(['MEMBER', 'OUTCOME', 'NODE OR MESSAGE'], rows, o, out, (cell, c) => (c !== 1 ? null : cell === 'Scheduled' ? 'green' : cell === 'Error' ? 'red' : 'yellow'), true);
}

function renderAttempts(p: ExplainPod, out: Line[]): void {
  const attempts = p.attempts ?? [];
  if (attempts.length < 2 && !attempts.some((a) => a.requeuedBy)) return;
  out.push([]);
  out.push([seg('  Attempts:', 'bold')]);
  for (const a of attempts) {
    const where = a.outcome === 'Scheduled' ? ` on ${a.node}` : a.nominatedNode ? `, nominated to ${a.nominatedNode}` : '';
    const by = a.requeuedBy ? `  requeued by ${a.requeuedBy.event}${a.requeuedBy.plugin ? ` (${a.requeuedBy.plugin})` : ''}` : '';
    const why = a.outcome !== 'Scheduled' && a.message ? `: ${a.message}` : '';
    out.push([seg(`    #${a.attempt}  at ${fmt(a.time)}s  ${a.outcome}${where}${by}${why}`)]);
  }
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

interface Group<T> {
  readonly key: string;
  readonly items: T[];
}

/** Groups by key, the largest group first (ties in order of first appearance). */
function groupBy<T>(items: readonly T[], keyOf: (t: T) => string): Group<T>[] {
  const groups = new Map<string, T[]>();
  for (const it of items) {
    const k = keyOf(it);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(it);
  }
  return [...groups].map(([key, list]) => ({ key, items: list })).sort((a, b) => b.items.length - a.items.length);
}

/**
 * Appends an indented table. When the rows would not fit the line, the widest cells are narrowed
 * first; a flexible last column (node names) keeps a little room and is left to the line cut.
 */
function table(
  header: readonly string[],
  rows: readonly string[][],
  o: ExplainTextOptions,
  out: Line[],
  styleOf: (cell: string, col: number, row: readonly string[]) => Style | null,
  flexibleLast: boolean,
): void {
  const indent = '    ';
  const gap = 2;
  const last = header.length - 1;
  const widths = header.map((h, c) => Math.min(maxCellWidth, Math.max(h.length, ...rows.map((r) => r[c]!.length))));
  const narrowable = flexibleLast ? last : last + 1;
  const total = () => indent.length + widths.reduce((sum, w, c) => sum + (c === last && flexibleLast ? Math.min(w, flexibleRoom) : w + (c < last ? gap : 0)), 0);
  for (let excess = total() - o.width; excess > 0; excess--) {
    let widest = -1;
    for (let c = 0; c < narrowable; c++) if (widths[c]! > minCellWidth && (widest < 0 || widths[c]! > widths[widest]!)) widest = c;
    if (widest < 0) break;
    widths[widest]!--;
  }
  const line = (cells: readonly string[], isHeader: boolean): Line => {
    const l: Line = [seg(indent)];
    cells.forEach((cell, c) => {
      const text = flexibleLast && c === last ? cell : fit(cell, widths[c]!);
      l.push(seg(text, isHeader ? 'dim' : styleOf(cell, c, cells)));
      if (c < last) l.push(seg(' '.repeat(widths[c]! - text.length + gap)));
    });
    return l;
  };
  out.push(line(header, true));
  for (const r of rows) out.push(line(r, false));
}

/** A label and its text, wrapped to the width and indented under the pod. */
function paragraph(out: Line[], label: string, text: string, width: number): void {
  const indent = '  ';
  wrap(`${label}${text}`, width - indent.length).forEach((l, i) => {
    if (i === 0 && label !== '') out.push([seg(indent), seg(label, 'bold'), seg(l.slice(label.length))]);
    else out.push([seg(`${indent}${l}`)]);
  });
}

/** Splits text into lines of at most `width` characters at spaces (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  if (text === '') return [];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  lines.push(current);
  return lines;
}

function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 3))}...`;
}

/** Cuts a line to `width` visible characters, the last one an ellipsis when something was cut. */
function cut(line: Line, width: number): Line {
  let length = 0;
  for (const s of line) length += s.text.length;
  if (length <= width) return line;
  let left = width - 1;
  const out: Line = [];
  for (const s of line) {
    if (left <= 0) break;
    out.push(s.text.length <= left ? s : seg(s.text.slice(0, left), s.style));
    left -= s.text.length;
  }
  out.push(seg('\u2026'));
  return out;
}

function renderLine(line: Line, color: boolean): string {
  return line.map((s) => (color && s.style !== null && s.text !== '' ? `\u001b[${ansi[s.style]}m${s.text}\u001b[0m` : s.text)).join('').trimEnd();
}

/**
 * A composite tree's cycle as indented plain lines: each group with its policy, outcome and
 * placed members, what stopped it, and a PodGroup's members (node or message) under it.
 */
export function treeLines(t: ExplainTree | ExplainGroup, indent = ''): string[] {
  const stopped = t.stoppedBy === null ? [] : [`${indent}  Stopped by: ${t.stoppedBy.plugin === '' ? '' : `${t.stoppedBy.plugin}: `}${t.stoppedBy.message}`];
  if (!('children' in t)) {
    const policy = t.policy === 'gang' ? `gang, minCount ${t.minCount}` : 'basic';
    return [`${indent}PodGroup ${t.group} (${policy})  ${t.outcome}: ${t.placed}/${t.members.length} member(s) placed`, ...stopped,
      ...t.members.map((m) => `${indent}  ${m.pod}  ${m.outcome}${m.outcome === 'Scheduled' ? ` on ${m.node}` : m.message === '' ? '' : `: ${m.message}`}`)];
  }
  const policy = t.policy === 'gang' ? `gang, minGroupCount ${t.minGroupCount}` : 'basic';
  const placedChildren = t.children.filter((c) => c.outcome === 'Scheduled').length;
  const name = (p: string) => (p === '' ? 'all nodes' : p);
  const tried = (t.placements ?? []).map((p) => `${indent}  Placement ${name(p.placement)} (${p.nodes} node(s)): ${p.feasible ? `feasible${p.score === null ? '' : `, score ${p.score}`}${p.placement === t.chosenPlacement ? ', chosen' : ''}` : p.message}`);
  return [`${indent}CompositePodGroup ${t.group} (${policy})  ${t.outcome}: ${placedChildren}/${t.children.length} child group(s), ${t.placed} member(s) placed`, ...stopped, ...tried,
    ...(t.victims.length > 0 ? [`${indent}  Victims: ${t.victims.join(', ')}`] : []),
    ...t.children.flatMap((c) => treeLines(c, `${indent}  `))];
}
