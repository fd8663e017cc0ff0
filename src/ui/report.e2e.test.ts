// The HTML report of `simulate --report` opened from a file in headless Chromium: it renders
// offline, its screenshot has the page's dimensions, and sampled regions show what the data says
// (heat map cells coloured by each node's utilisation, the charts' bars and lines drawn); the
// drill-down shows a pod's rejection table.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { admitPod } from '../cluster/memory/admission.js';
import { defaultConfiguration } from '../config/index.js';
import { inTreeRegistry } from '../plugins/registry.js';
import { renderReportHtml } from '../sim/report.js';
import { ReportCollector } from '../sim/report_data.js';
import type { ReportData } from '../sim/report_model.js';
import { loadScenario } from '../sim/scenario.js';
import { runSimulation } from '../sim/simulate.js';
import { launchBrowser, noBrowser } from './browser.js';
import { countColor, decodePng, pixel } from './test_helpers.js';

const scenarioPath = new URL('../../scenarios/default.yaml', import.meta.url);

async function clip(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  assert.ok(box, `${testId} is on the page`);
  return decodePng(await page.screenshot({ clip: box, fullPage: true }));
}

describe('the HTML report in headless Chromium', { skip: noBrowser ?? false, timeout: 120_000 }, () => {
  let dir: string;
  let data: ReportData;
  let browser: Browser;
  let page: Page;

  before(async () => {
    const registry = inTreeRegistry();
    const scenario = loadScenario(scenarioPath.pathname);
    const collector = new ReportCollector({ title: scenario.name }, scenario.pods.length + scenario.pending.length);
    const sim = await runSimulation(scenario, { config: defaultConfiguration(registry), registry, admitPod, recordScores: true }, collector);
    data = collector.build(sim);
    dir = mkdtempSync(join(tmpdir(), 'report-e2e-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, renderReportHtml(data));
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    page.setDefaultTimeout(15_000);
    // Offline: any request leaving the file fails the test.
    const requests: string[] = [];
    page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
    await page.goto(pathToFileURL(file).href);
    await page.getByTestId('summary').waitFor();
    assert.deepEqual(requests, []);
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('renders a full-page screenshot as tall as the page, with the summary the data holds', async () => {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const shot = decodePng(await page.screenshot({ fullPage: true }));
    assert.equal(shot.width, 1280);
    assert.equal(shot.height, height);
    const summary = await page.getByTestId('summary').innerText();
    assert.match(summary, new RegExp(`nodes\\s+${data.nodes.length}\\b`));
    assert.match(summary, new RegExp(`scheduled\\s+${data.summary.scheduled}\\b`));
    assert.match(summary, new RegExp(`unschedulable\\s+${data.summary.unschedulable}\\b`));
  });

  it('colours each heat map cell by its node\'s cpu utilisation', async () => {
    const map = await clip(page, 'node-heatmap');
    const cell = 22;
    const columns = Math.floor(720 / cell);
    let checked = 0;
    data.nodes.forEach((n, i) => {
      const util = n[3] > 0 ? n[2] / n[3] : 0;
      const [r, g] = pixel(map, (i % columns) * cell + cell / 2, Math.floor(i / columns) * cell + cell / 2);
      if (util >= 0.9) {
        assert.ok(r > 180 && g < 120, `${n[0]} at ${Math.round(util * 100)}% is red, got rgb(${r}, ${g})`);
        checked++;
      } else if (util <= 0.3) {
        assert.ok(g > r, `${n[0]} at ${Math.round(util * 100)}% is green, got rgb(${r}, ${g})`);
        checked++;
      }
    });
    assert.ok(checked >= 2, 'the scenario has both full and mostly empty nodes');
  });

  it('draws the charts: utilisation histogram and zone bars, and the queue\'s lines', async () => {
    assert.ok(countColor(await clip(page, 'chart-histogram'), [0x5b, 0x8d, 0xef]) > 200, 'histogram bars');
    assert.ok(countColor(await clip(page, 'chart-zones'), [0xe8, 0xa3, 0x3d]) > 200, 'zone bars');
    assert.ok(countColor(await clip(page, 'chart-queue'), [0x2f, 0x6f, 0xde], 24) > 50, 'the active queue line');
  });

  it('drills down from the unschedulable reasons to a pod\'s rejection table', async () => {
    const groups = page.getByTestId('unschedulable-groups');
    await groups.locator('button.link').first().click();
    await groups.locator('.vrow').first().locator('span').click();
    const table = page.getByTestId('rejection-table');
    await table.waitFor();
    assert.match(await table.innerText(), /TaintToleration|NodeResourcesFit|NodeAffinity/);
    assert.match(await page.getByTestId('decision-outcome').innerText(), /Unschedulable/);
  });

  it('finds a pod by name and shows its score breakdown', async () => {
    await page.getByTestId('pod-search').fill('web-0');
    await page.getByTestId('pod-list').locator('.vrow').first().locator('div').click();
    const scores = page.getByTestId('score-table');
    await scores.waitFor();
    assert.match(await scores.locator('thead').innerText(), /node\s+total\s+.*NodeResourcesFit/s);
  });
});
