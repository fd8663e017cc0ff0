// The compare command: a side-by-side table from the command line, and usage errors (exit 2).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runCli } from '../main.js';

async function cli(argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'compare-'));
const packing = fileURLToPath(new URL('../../../test/fixtures/configs/most-allocated-cpu.yaml', import.meta.url));

describe('compare command', () => {
  it('one --config is compared with the defaults, side by side', async () => {
    const r = await cli(['compare', '--config', packing]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^ +defaults +most-allocated-cpu\.yaml\n/);
    assert.match(r.out, /\nnodes used +\d+ +\d+\n/);
    // The bundled scenario's GPU nodes: their extended resource is compared as cpu and memory are.
    assert.match(r.out, /\nnvidia\.com\/gpu requested: mean +100\.0% +100\.0%\nnvidia\.com\/gpu requested: stddev +0\.0% +0\.0%\n/);
    assert.match(r.out, /\n\d+ of \d+ pods differ:/);
  });

  it('JSON has one summary per configuration', async () => {
    const r = await cli(['compare', '--config', packing, '--config', packing, '-o', 'json']);
    assert.equal(r.code, 0, r.err);
    const c = JSON.parse(r.out) as { variants: { extended?: unknown }[]; differences: unknown[] };
    assert.equal(c.variants.length, 2);
    assert.deepEqual(c.variants[0]!.extended, [{ name: 'nvidia.com/gpu', mean: 1, stddev: 0 }]);
    assert.deepEqual(c.differences, []);
  });

  it('--report writes one self-contained page with the comparison and every node\'s load per configuration', async () => {
    const file = join(dir, 'compare.html');
    const r = await cli(['compare', '--config', packing, '--report', file, '-o', 'json']);
    assert.equal(r.code, 0, r.err);
    const html = readFileSync(file, 'utf8');
    assert.ok(!/<script[^>]+src=|<link[^>]+href=/.test(html), 'nothing loaded from elsewhere');
    const payload = /<script id="report-data"[^>]*>([^<]+)<\/script>/.exec(html)![1]!;
    const data = JSON.parse(gunzipSync(Buffer.from(payload, 'base64')).toString('utf8')) as { kind: string; comparison: unknown; nodes: string[]; load: unknown[][] };
    assert.equal(data.kind, 'comparison');
    assert.deepEqual(data.comparison, JSON.parse(r.out), 'the page holds what -o json prints');
    assert.equal(data.load.length, 2);
    for (const perNode of data.load) assert.equal(perNode.length, data.nodes.length);
  });

  const bad: [string, string[], RegExp][] = [
    ['no configuration', [], /give at least one --config to compare/],
    ['a missing configuration file', ['--config', join(dir, 'nope.yaml')], /nope\.yaml/],
    ['a bad --max-differences', ['--config', packing, '--max-differences=-1'], /--max-differences must be a non-negative integer/],
  ];
  for (const [name, args, want] of bad) {
    it(`${name}: exit 2`, async () => {
      const r = await cli(['compare', ...args]);
      assert.equal(r.code, 2, r.out);
      assert.match(r.err, want);
    });
  }
});
