// The HTML page of `compare --report` opened from a file in headless Chromium: offline, the
// configurations side by side as the comparison says, each one's spread chart drawn in its colour,
// its busiest nodes and the pods it left out with why, and the pod-by-pod differences searchable.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { runCli } from '../cli/main.js';
import type { ComparisonReportData } from '../sim/report/compare_report.js';
import { launchBrowser, noBrowser } from './browser.js';
import { countColor, decodePng } from './test_helpers.js';

const scenarioPath = new URL('../../scenarios/default.yaml', import.meta.url).pathname;

async function clip(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  assert.ok(box, `${testId} is on the page`);
  return decodePng(await page.screenshot({ clip: box, fullPage: true }));
}

/** The data the page embeds: gzipped JSON in base64 inside its data script. */
async function embedded(html: string): Promise<ComparisonReportData> {
  const { gunzipSync } = await import('node:zlib');
  const payload = /<script id="report-data"[^>]*>([^<]+)<\/script>/.exec(html)![1]!;
  return JSON.parse(gunzipSync(Buffer.from(payload, 'base64')).toString('utf8')) as ComparisonReportData;
}

describe('the comparison report in headless Chromium', { skip: noBrowser ?? false, timeout: 120_000 }, () => {
  let dir: string;
  let data: ComparisonReportData;
  let browser: Browser;
  let page: Page;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'compare-report-e2e-'));
    const packing = fileURLToPath(new URL('../../test/fixtures/configs/most-allocated-cpu.yaml', import.meta.url));
    const file = join(dir, 'compare.html');
    let err = '';
    const code = await runCli(['compare', scenarioPath, '--config', packing, '--report', file, '-o', 'json'], { stdout: () => undefined, stderr: (t) => (err += t) });
    assert.equal(code, 0, err);
    assert.match(err, /^Report written to .*compare\.html \(\d+ KiB\)\n$/);
    data = await embedded(readFileSync(file, 'utf8'));
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    page.setDefaultTimeout(15_000);
    // Offline: any request leaving the file fails the test.
    const requests: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
    await page.goto(pathToFileURL(file).href);
    await page.getByTestId('comparison-summary').waitFor();
    assert.deepEqual(requests, []);
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('puts the configurations side by side with the figures the comparison holds', async () => {
    assert.deepEqual(data.comparison.variants.map((v) => v.name), ['defaults', 'most-allocated-cpu.yaml']);
    const table = await page.getByTestId('comparison-summary').innerText();
    assert.match(table, /defaults\s+most-allocated-cpu\.yaml/);
    const [a, b] = data.comparison.variants;
    assert.match(table, new RegExp(`scheduled\\s+${a!.scheduled}\\s+${b!.scheduled}\\b`));
    assert.match(table, new RegExp(`nodes used\\s+${a!.nodesUsed}\\s+${b!.nodesUsed}\\b`));
    assert.match(table, new RegExp(`free cpu fragmentation\\s+${(a!.freeCpu.fragmentation * 100).toFixed(1)}%\\s+${(b!.freeCpu.fragmentation * 100).toFixed(1)}%`));
  });

  it('draws each configuration\'s spread in its own colour and lists its busiest nodes', async () => {
    assert.ok(countColor(await clip(page, 'chart-spread-0'), [0x5b, 0x8d, 0xef]) > 200, 'first configuration\'s bars');
    assert.ok(countColor(await clip(page, 'chart-spread-1'), [0xe8, 0xa3, 0x3d]) > 200, 'second configuration\'s bars');
    for (const i of [0, 1]) {
      const rows = await page.getByTestId(`placements-${i}`).locator('tbody tr').count();
      assert.equal(rows, Math.min(10, data.nodes.length));
      // The busiest node first: its pod count is the largest of the run.
      const most = Math.max(...data.load[i]!.map((n) => n[4]));
      assert.match(await page.getByTestId(`placements-${i}`).locator('tbody tr').first().innerText(), new RegExp(`\\s${most}/\\d+\\s`));
    }
  });

  it('shows the pods each configuration left out, with upstream\'s reasons', async () => {
    for (const [i, v] of data.comparison.variants.entries()) {
      if (v.reasons.length === 0) continue;
      const text = await page.getByTestId(`reasons-${i}`).innerText();
      assert.ok(text.includes(v.reasons[0]!.message), text);
    }
    assert.ok(data.comparison.variants.some((v) => v.reasons.length > 0), 'the scenario leaves pods out');
  });

  it('lists the pods that differ, one column per configuration, and finds one by name', async () => {
    const d = data.comparison.differences;
    assert.ok(d.length > 0, 'the configurations place some pods differently');
    const first = await page.getByTestId('differences').locator('.vrow').first().innerText();
    assert.match(first, new RegExp(`${d[0]!.pod}\\s+${d[0]!.fates[0]}\\s+${d[0]!.fates[1]}`));
    const target = d.at(-1)!;
    await page.getByTestId('difference-search').fill(target.pod);
    const rows = page.getByTestId('differences').locator('.vrow');
    await page.waitForFunction((pod) => [...document.querySelectorAll('[data-testid="differences"] .vrow')].every((r) => r.textContent?.includes(pod)), target.pod);
    assert.ok((await rows.count()) >= 1);
    assert.match(await rows.first().innerText(), new RegExp(target.fates.join('\\s+')));
  });
});
