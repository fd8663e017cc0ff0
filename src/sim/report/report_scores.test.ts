// The report's score columns: every table decodes back to the explain record's rows and details
// (best first, ties by name), a column of equal values costs one number, and the narrowest type
// that holds a column's values is chosen.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExplainScore } from '../explain/explain.js';
import { ColumnWriter, decodeScores, encodeScores, readColumn } from './report_scores.js';

const detail = (raw: number, normalized: number, weight: number): ExplainScore => ({ raw, normalized, weight, weighted: normalized * weight });

describe('score columns', () => {
  const nodes = ['n0', 'n1', 'n2', 'n3'];
  const index = (n: string) => nodes.indexOf(n);
  const cases: {
    name: string;
    scores: Record<string, Record<string, number>>;
    details: Record<string, Record<string, ExplainScore>>;
    limit: number;
    chosen?: string;
    want: [string, number, ...number[]][];
    stored: string[];
  }[] = [
    {
      name: 'weighted scores derived from normalized × weight, totals from their sum',
      scores: { n0: { Fit: 10, Taint: 3, total: 13 }, n1: { Fit: 20, Taint: 3, total: 23 }, n2: { Fit: 20, Taint: 3, total: 23 } },
      details: { n0: { Fit: detail(10, 10, 1), Taint: detail(0, 1, 3) }, n1: { Fit: detail(20, 20, 1), Taint: detail(0, 1, 3) }, n2: { Fit: detail(20, 20, 1), Taint: detail(0, 1, 3) } },
      limit: Infinity,
      want: [['n1', 23, 20, 3], ['n2', 23, 20, 3], ['n0', 13, 10, 3]],
      stored: ['Fit raw', 'Fit normalized'],
    },
    {
      name: 'the limit keeps the best rows, ties by name',
      scores: { n0: { Fit: 10, total: 10 }, n1: { Fit: 30, total: 30 }, n2: { Fit: 30, total: 30 }, n3: { Fit: 5, total: 5 } },
      details: {},
      limit: 2,
      want: [['n1', 30, 30], ['n2', 30, 30]],
      stored: ['nodes'],
    },
    {
      name: 'the node the pod went to stays among the kept rows when a tie put it past the limit',
      scores: { n0: { Fit: 30, total: 30 }, n1: { Fit: 30, total: 30 }, n2: { Fit: 30, total: 30 }, n3: { Fit: 5, total: 5 } },
      details: {},
      limit: 2,
      chosen: 'n2',
      want: [['n0', 30, 30], ['n2', 30, 30]],
      stored: ['nodes'],
    },
    {
      name: 'without details the weighted scores are stored; an extender\'s share keeps the totals',
      scores: { n0: { Fit: 10, total: 60 }, n3: { Fit: 300, total: 300 } },
      details: {},
      limit: Infinity,
      want: [['n3', 300, 300], ['n0', 60, 10]],
      stored: ['nodes', 'Fit weighted', 'total'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = new ColumnWriter();
      const cols = encodeScores(c.scores, c.details, c.limit, c.chosen ?? '', index, out);
      const bytes = out.bytes;
      const decoded = decodeScores(JSON.parse(JSON.stringify(cols)) as typeof cols, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), (i) => nodes[i]!);
      assert.deepEqual(decoded.rows, c.want);
      for (const [node] of c.want) assert.deepEqual(decoded.details[node] ?? {}, c.details[node] ?? {}, node);
      const stored: string[] = [];
      if (typeof cols.nodes !== 'number') stored.push('nodes');
      for (const p of cols.plugins) {
        for (const k of ['weighted', 'raw', 'normalized'] as const) if (p[k] !== undefined && typeof p[k] !== 'number') stored.push(`${p.plugin} ${k}`);
      }
      if (cols.total !== undefined) stored.push('total');
      assert.deepEqual(stored, c.stored);
    });
  }

  it('stores each column in the narrowest type that holds it', () => {
    const out = new ColumnWriter();
    const columns = [[1, 2, 255], [0, 256, 65535], [-5, 70000], [0.5, 1], [2 ** 40, 0]];
    const encoded = columns.map((v) => out.column(v));
    assert.deepEqual(encoded.map((c) => (typeof c === 'number' ? 0 : c[0])), [1, 2, 3, 4, 4]);
    assert.equal(out.bytes.length, 3 + 6 + 8 + 16 + 16);
    const view = new DataView(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength);
    encoded.forEach((c, i) => assert.deepEqual(readColumn(c, columns[i]!.length, view), columns[i]));
    assert.equal(out.column([7, 7, 7]), 7, 'a constant column is its value');
  });

  it('grows its buffer past the first 64 KiB', () => {
    const out = new ColumnWriter();
    const big = Array.from({ length: 50_000 }, (_v, i) => i % 1000);
    const a = out.column(big);
    const b = out.column(big);
    const view = new DataView(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength);
    assert.deepEqual(readColumn(a, big.length, view), big);
    assert.deepEqual(readColumn(b, big.length, view), big);
  });
});
