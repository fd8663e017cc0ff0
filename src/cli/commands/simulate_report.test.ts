// `simulate --report FILE`: the usual output on stdout, and one self-contained HTML file whose
// embedded data inflates to the report of the run.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { ReportData } from '../../sim/report_model.js';
import { runCli } from '../main.js';

test('simulate --report writes a self-contained HTML report beside the usual output', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-cli-'));
  try {
    const file = join(dir, 'out.html');
    let out = '';
    let err = '';
    const code = await runCli(['simulate', '--report', file, '--output', 'json'], { stdout: (t) => (out += t), stderr: (t) => (err += t) });
    assert.equal(code, 0, err);
    const sim = JSON.parse(out) as { summary: { scheduled: number }; pods: unknown[] };
    assert.match(err, /^Report written to .*out\.html \(\d+ KiB\)\n$/);
    const html = readFileSync(file, 'utf8');
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, 'nothing loaded from the network');
    const payload = /<script id="report-data" type="application\/octet-stream" data-encoding="gzip\+base64">([^<]*)<\/script>/.exec(html)?.[1];
    assert.ok(payload, 'the data is embedded');
    const data = JSON.parse(gunzipSync(Buffer.from(payload, 'base64')).toString('utf8')) as ReportData;
    assert.equal(data.title, 'default');
    assert.equal(data.pods.length, sim.pods.length);
    assert.equal(data.summary.scheduled, sim.summary.scheduled);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
