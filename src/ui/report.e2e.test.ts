// The HTML report of `simulate --report` opened from a file in headless Chromium: it renders
// offline, its screenshot has the page's dimensions, and sampled regions show what the data says
// (heat map cells coloured by each node's utilisation, the charts' bars and lines drawn); the
// drill-down shows a pod's rejection table; a DRA scenario's report shows device use per node and
// pool, the devices a pod got per claim and why the nodes had none for the pod left out.
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
import { renderReportHtml } from '../sim/report/report.js';
import { ReportCollector, type ReportOptions } from '../sim/report/report_data.js';
import type { ReportData } from '../sim/report/report_model.js';
import { loadScenario } from '../sim/scenario/scenario.js';
import { runSimulation } from '../sim/simulate/simulate.js';
import { launchBrowser, noBrowser } from './browser.js';
import { countColor, decodePng, pixel } from './test_helpers.js';

const scenarioPath = new URL('../../scenarios/default.yaml', import.meta.url);
const draScenarioPath = new URL('../../test/fixtures/scenarios/dra/gpu-claims.yaml', import.meta.url);

/** Simulates a scenario with the report collected and writes the report into `dir`. */
async function writeReport(path: URL, dir: string, options: Partial<ReportOptions> = {}): Promise<{ data: ReportData; file: string }> {
  const registry = inTreeRegistry();
  const scenario = loadScenario(path.pathname);
  const collector = new ReportCollector({ title: scenario.name, ...options }, scenario.pods.length + scenario.pending.length);
  const sim = await runSimulation(scenario, { config: defaultConfiguration(registry), registry, admitPod, recordScores: true, diagnose: true }, collector);
  const built = collector.build(sim);
  const file = join(dir, `${scenario.name}.html`);
  writeFileSync(file, renderReportHtml(built.data, built.columns));
  return { data: built.data, file };
}

/** Opens a report file; any request leaving the file fails the test. */
async function openReport(browser: Browser, file: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  page.setDefaultTimeout(15_000);
  const requests: string[] = [];
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
  await page.goto(pathToFileURL(file).href);
  await page.getByTestId('summary').waitFor();
  assert.deepEqual(requests, []);
  return page;
}

async function selectPod(page: Page, pod: string): Promise<void> {
  await page.getByTestId('pod-search').fill(pod);
  await page.getByTestId('pod-list').locator('.vrow').first().locator('div').click();
  await page.getByTestId('decision').filter({ hasText: pod }).waitFor();
}

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
    dir = mkdtempSync(join(tmpdir(), 'report-e2e-'));
    const report = await writeReport(scenarioPath, dir);
    data = report.data;
    browser = await launchBrowser();
    page = await openReport(browser, report.file);
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
    await selectPod(page, 'web-0');
    const scores = page.getByTestId('score-table');
    await scores.waitFor();
    assert.match(await scores.locator('thead').innerText(), /node\s+total\s+.*NodeResourcesFit/s);
  });
});

describe('the HTML report of a DRA scenario in headless Chromium', { skip: noBrowser ?? false, timeout: 120_000 }, () => {
  let dir: string;
  let browser: Browser;
  let page: Page;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'report-dra-e2e-'));
    // One score row per pod: the drill-down says how many nodes were scored and where the rest are.
    const report = await writeReport(draScenarioPath, dir, { scoreLimit: 1 });
    browser = await launchBrowser();
    page = await openReport(browser, report.file);
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows device use per node (heat map, most loaded nodes) and per pool', async () => {
    await page.locator('#utilisation label', { hasText: 'devices' }).locator('input').check();
    const top = await page.getByTestId('top-nodes').locator('tbody tr').allInnerTexts();
    assert.match(top[0]!, /^node-1\s.*\s2\s+2\s+100%/);
    assert.match(top[1]!, /^node-2\s.*\s3\s+4\s+75%/);
    const pools = await page.getByTestId('device-pool-list').innerText();
    assert.match(pools, /gpu\.example\.com \/ node-1: 2 of 2 device\(s\) allocated \(100%\)/);
    assert.match(pools, /fpga\.example\.com \/ rack-r1: 1 of 2 device\(s\) allocated \(50%\)/);
    assert.ok(countColor(await clip(page, 'chart-device-pools'), [0x8a, 0x6f, 0xd1]) > 100, 'the pools\' bars');
  });

  it('shows the devices a scheduled pod got per claim, and how many of its scored nodes it keeps', async () => {
    await selectPod(page, 'default/trainer');
    const rows = await page.getByTestId('pod-devices').locator('tbody tr').allInnerTexts();
    assert.deepEqual(rows.map((r) => r.replace(/\s+/g, ' ').replace(/trainer-gpus-\w+/, 'trainer-gpus')), [
      'trainer-gpus gpus gpu.example.com node-1 gpu-0',
      'trainer-gpus gpus gpu.example.com node-1 gpu-1',
    ]);
    assert.equal(await page.getByTestId('score-table').locator('tbody tr').count(), 1);
    assert.match(await page.getByTestId('score-rows-note').innerText(), /^Showing the best 1 of 2 nodes scored; explain --pod default\/trainer lists every one\.$/);
  });

  it('shows why each node had no devices for the pod left out', async () => {
    await selectPod(page, 'default/second-trainer');
    const rows = await page.getByTestId('device-shortfalls').locator('tbody tr').allInnerTexts();
    assert.deepEqual(rows.map((r) => r.replace(/\s+/g, ' ').replace(/second-trainer-gpus-\w+/, 'claim').trim()), [
      '2 ▸ default/claim gpus 2 0 not enough matching devices',
      '1 ▸ default/claim gpus 2 0 enough matching devices, but other claims hold them',
      '1 ▸ default/claim gpus 2 1 enough matching devices, but other claims hold them',
    ]);
    await page.getByTestId('device-shortfalls').locator('button.link').first().click();
    assert.match(await page.getByTestId('device-shortfalls').innerText(), /node-3\s+node-4/);
  });
});
