// `simulate --report FILE`: the usual output on stdout, and one self-contained HTML file whose
// embedded data inflates to the report of the run.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { ReportData } from '../../sim/report/report_model.js';
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

test('simulate --report-scores sets the score rows each pod keeps, and refuses what is not a count or "all", or comes without --report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-cli-'));
  try {
    const file = join(dir, 'out.html');
    const cases: { value: string; want: number | 'all' | RegExp }[] = [
      { value: 'all', want: 'all' },
      { value: '0', want: /--report-scores must be a positive integer or "all", got "0"/ },
      { value: 'some', want: /--report-scores must be a positive integer or "all", got "some"/ },
      { value: 'without --report', want: /--report-scores needs --report FILE/ },
    ];
    for (const c of cases) {
      let err = '';
      const args = c.value === 'without --report' ? ['simulate', '--report-scores', '5'] : ['simulate', '--report', file, '--report-scores', c.value];
      const code = await runCli(args, { stdout: () => undefined, stderr: (t) => (err += t) });
      if (c.want instanceof RegExp) {
        assert.notEqual(code, 0, c.value);
        assert.match(err, c.want);
        continue;
      }
      assert.equal(code, 0, err);
      const html = readFileSync(file, 'utf8');
      const payload = /<script id="report-data" [^>]*>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
      assert.equal((JSON.parse(gunzipSync(Buffer.from(payload, 'base64')).toString('utf8')) as ReportData).scoreLimit, c.want);
      assert.match(html, /<script id="report-columns" type="application\/octet-stream" data-encoding="gzip\+base64">[A-Za-z0-9+/=]+<\/script>/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
