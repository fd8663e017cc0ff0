// A pod's score table in the report, stored by column so that every scored node of every pod
// fits in a file a browser opens (1,000 nodes × 10,000 pods): a column whose values are all
// equal is one number, the others are typed values (the narrowest type that holds them) in one
// byte buffer the report carries beside its JSON. Weighted scores are normalized × weight, and
// totals their sum, so neither is stored unless a row says otherwise (an extender's score).
// Pure: the front end bundles it to decode the selected pod only.
import type { ExplainScore } from '../explain/explain.js';

/** A constant, or `[type, byte offset]` of `rows` values in the column bytes. */
type Column = number | [ColumnType, number];

/** 1: uint8, 2: uint16, 3: int32, 4: float64 (little-endian). */
type ColumnType = 1 | 2 | 3 | 4;
const widths: Record<ColumnType, number> = { 1: 1, 2: 2, 3: 4, 4: 8 };

interface PluginColumns {
  plugin: string;
  /** Weighted scores; absent when each is `normalized × weight`. */
  weighted?: Column;
  /** With the score details (diagnosed runs): Score's answer, NormalizeScore's, and the weight. */
  raw?: Column;
  normalized?: Column;
  weight?: number;
}

export interface ScoreColumns {
  rows: number;
  /** Node indices ascending, as differences from the previous one (the first from -1: all nodes is the constant 1). */
  nodes: Column;
  /** Totals; absent when each is the sum of the row's weighted scores. */
  total?: Column;
  plugins: PluginColumns[];
}

/** A row of scores in the explain record's shape: weighted score per plugin, and `total`. */
type ScoreRow = Readonly<Record<string, number>>;

/** Appends columns to one growing byte buffer. */
export class ColumnWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  private length = 0;

  get bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  column(values: ArrayLike<number>): Column {
    const n = values.length;
    if (n === 0) return 0;
    let min = values[0]!;
    let max = min;
    let integers = true;
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
      if (integers && !Number.isInteger(v)) integers = false;
    }
    if (min === max) return min;
    const type: ColumnType = !integers ? 4 : min >= 0 && max <= 0xff ? 1 : min >= 0 && max <= 0xffff ? 2 : min >= -0x80000000 && max <= 0x7fffffff ? 3 : 4;
    const offset = this.reserve(n * widths[type]);
    const v = this.view;
    for (let i = 0; i < n; i++) {
      const x = values[i]!;
      if (type === 1) v.setUint8(offset + i, x);
      else if (type === 2) v.setUint16(offset + 2 * i, x, true);
      else if (type === 3) v.setInt32(offset + 4 * i, x, true);
      else v.setFloat64(offset + 8 * i, x, true);
    }
    return [type, offset];
  }

  private reserve(size: number): number {
    const at = this.length;
    if (at + size > this.buf.length) {
      let capacity = this.buf.length * 2;
      while (capacity < at + size) capacity *= 2;
      const next = new Uint8Array(capacity);
      next.set(this.buf.subarray(0, at));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    this.length = at + size;
    return at;
  }
}

export function readColumn(c: Column, rows: number, bytes: DataView): number[] {
  if (typeof c === 'number') return new Array<number>(rows).fill(c);
  const [type, offset] = c;
  const out = new Array<number>(rows);
  for (let i = 0; i < rows; i++) {
    if (type === 1) out[i] = bytes.getUint8(offset + i);
    else if (type === 2) out[i] = bytes.getUint16(offset + 2 * i, true);
    else if (type === 3) out[i] = bytes.getInt32(offset + 4 * i, true);
    else out[i] = bytes.getFloat64(offset + 8 * i, true);
  }
  return out;
}

/**
 * The `limit` best-scored nodes of an explain record's scores: highest total first, ties by
 * name, except that `chosen` (the node the pod went to, drawn among the best by lot) is kept in
 * place of the last when the tie put it past the limit.
 */
export function bestScoredNodes(scores: Readonly<Record<string, ScoreRow>>, limit: number, chosen = ''): string[] {
  const byTotalThenName = (a: string, b: string) => (scores[b]!.total ?? 0) - (scores[a]!.total ?? 0) || (a < b ? -1 : a > b ? 1 : 0);
  const nodes = Object.keys(scores).sort(byTotalThenName);
  if (nodes.length <= limit) return nodes;
  const best = nodes.slice(0, limit);
  if (limit > 0 && chosen && scores[chosen] && !best.includes(chosen)) {
    best[limit - 1] = chosen;
    best.sort(byTotalThenName);
  }
  return best;
}

/**
 * The `limit` best-scored nodes of an explain record (all with Infinity; `chosen` among them, see
 * bestScoredNodes) as columns, their plugins those of the kept rows; `nodeIndex` gives each
 * node's index in the report.
 */
export function encodeScores(
  scores: Readonly<Record<string, ScoreRow>>,
  details: Readonly<Record<string, Readonly<Record<string, ExplainScore>>>>,
  limit: number,
  chosen: string,
  nodeIndex: (name: string) => number,
  out: ColumnWriter,
): ScoreColumns {
  const all = Object.keys(scores);
  const kept = all.length > limit ? bestScoredNodes(scores, limit, chosen) : all;
  const rows = kept.map((name) => ({ name, index: nodeIndex(name) })).sort((a, b) => a.index - b.index);
  const names = new Set<string>();
  for (const r of rows) for (const p of Object.keys(scores[r.name]!)) if (p !== 'total') names.add(p);
  const n = rows.length;
  const deltas = new Float64Array(n);
  for (let i = 0; i < n; i++) deltas[i] = rows[i]!.index - (i > 0 ? rows[i - 1]!.index : -1);
  const sums = new Float64Array(n);
  const plugins = [...names].sort().map((plugin) => {
    const weighted = new Float64Array(n);
    const raw = new Float64Array(n);
    const normalized = new Float64Array(n);
    let weight: number | undefined;
    let derivable = true;
    for (let i = 0; i < n; i++) {
      const name = rows[i]!.name;
      weighted[i] = scores[name]![plugin] ?? 0;
      sums[i] = sums[i]! + weighted[i]!;
      const d = details[name]?.[plugin];
      if (!d || (weight !== undefined && d.weight !== weight) || d.normalized * d.weight !== weighted[i]) {
        derivable = false;
        continue;
      }
      weight = d.weight;
      raw[i] = d.raw;
      normalized[i] = d.normalized;
    }
    if (!derivable || weight === undefined) return { plugin, weighted: out.column(weighted) };
    return { plugin, raw: out.column(raw), normalized: out.column(normalized), weight };
  });
  const totals = Float64Array.from(rows, (r) => scores[r.name]!.total ?? 0);
  const columns: ScoreColumns = { rows: n, nodes: out.column(deltas), plugins };
  if (totals.some((t, i) => t !== sums[i])) columns.total = out.column(totals);
  return columns;
}

/** A decoded score table: rows `[node, total, ...weighted per plugin]`, best first, and the details. */
interface DecodedScores {
  plugins: string[];
  rows: [string, number, ...number[]][];
  details: Record<string, Record<string, ExplainScore>>;
}

export function decodeScores(c: ScoreColumns, bytes: DataView, nodeName: (index: number) => string): DecodedScores {
  const n = c.rows;
  const deltas = readColumn(c.nodes, n, bytes);
  const names: string[] = new Array<string>(n);
  for (let i = 0, at = -1; i < n; i++) names[i] = nodeName((at += deltas[i]!));
  const perPlugin = c.plugins.map((p) => {
    if (p.raw === undefined || p.normalized === undefined || p.weight === undefined) return { weighted: readColumn(p.weighted ?? 0, n, bytes), raw: null, normalized: null };
    const raw = readColumn(p.raw, n, bytes);
    const normalized = readColumn(p.normalized, n, bytes);
    return { weighted: normalized.map((x) => x * p.weight!), raw, normalized };
  });
  const totals = c.total !== undefined ? readColumn(c.total, n, bytes) : names.map((_n, i) => perPlugin.reduce((s, p) => s + p.weighted[i]!, 0));
  const details: Record<string, Record<string, ExplainScore>> = {};
  const rows = names.map((name, i) => {
    c.plugins.forEach((p, j) => {
      const col = perPlugin[j]!;
      if (col.raw && col.normalized) (details[name] ??= {})[p.plugin] = { raw: col.raw[i]!, normalized: col.normalized[i]!, weight: p.weight!, weighted: col.weighted[i]! };
    });
    return [name, totals[i]!, ...perPlugin.map((p) => p.weighted[i]!)] as [string, number, ...number[]];
  });
  rows.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { plugins: c.plugins.map((p) => p.plugin), rows, details };
}
