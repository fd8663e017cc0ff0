// The workbench at size in headless Chromium: 2,000 nodes and 20,000 running pods plus a few
// hundred to schedule (preemption, volumes, pods no node fits), as the report and as the live
// UI. Lists stay virtualised (a few dozen rows in the page however many pods), the heat map has a
// cell per node, a pod's 2,000-node rejection table opens, the page answers a search. How fast is
// measured by `npm run workbench:scale` (README); nothing here depends on timing.
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
import { ReportCollector } from '../sim/report/report_data.js';
import type { ReportData } from '../sim/report/report_model.js';
import { serveScenario, type Serving } from '../sim/serve/serve.js';
import { runSimulation } from '../sim/simulate/simulate.js';
import { launchBrowser, noBrowser } from './browser.js';
import { scaleScenario } from './scale_scenario.js';

const size = { nodes: 2000, pods: 300, bound: 20_000, preemption: true, volumes: true };
/** Generous: listing 20,000 pods on a loaded 2-core machine takes seconds. */
const waitMs = 60_000;
/** A virtualised list draws the rows in view and a few more, never thousands. */
const maxRowsDrawn = 100;

async function heatMapCells(page: Page): Promise<{ width: number; height: number }> {
  return page.getByTestId('node-heatmap').locator('canvas').evaluate((c: HTMLCanvasElement) => ({ width: c.width, height: c.height }));
}

describe('the workbench at 2,000 nodes and 20,000 pods in headless Chromium', { skip: noBrowser ?? false, timeout: 600_000 }, () => {
  const registry = inTreeRegistry();
  const config = defaultConfiguration(registry);
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  describe('the report', () => {
    let dir: string;
    let data: ReportData;
    let page: Page;

    before(async () => {
      const scenario = scaleScenario(size);
      const collector = new ReportCollector({ title: scenario.name }, scenario.pods.length + scenario.pending.length);
      const sim = await runSimulation(scenario, { config, registry, admitPod, recordScores: true, diagnose: true }, collector);
      const built = collector.build(sim);
      data = built.data;
      dir = mkdtempSync(join(tmpdir(), 'report-scale-e2e-'));
      const file = join(dir, 'report.html');
      writeFileSync(file, renderReportHtml(built.data, built.columns));
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(waitMs);
      await page.goto(pathToFileURL(file).href);
      await page.getByTestId('summary').waitFor();
    });

    after(async () => {
      await page?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('renders the summary, a heat map cell per node and every pod in a virtualised list', async () => {
      assert.match(await page.getByTestId('summary').innerText(), new RegExp(`nodes\\s+2000\\b.*pods\\s+${data.pods.length}\\b`, 's'));
      assert.ok(data.pods.length > 20_000);
      const cells = await heatMapCells(page);
      assert.ok(cells.width * cells.height >= 2000 * 7 * 7, `a 7-pixel cell per node: ${cells.width}×${cells.height}`);
      const list = page.getByTestId('pod-list');
      assert.ok((await list.locator('.vrow').count()) <= maxRowsDrawn);
      await list.evaluate((el) => { el.scrollTop = el.scrollHeight; });
      await list.locator('.vrow').filter({ hasText: data.pods.at(-1)![0] }).waitFor();
      assert.ok((await list.locator('.vrow').count()) <= maxRowsDrawn);
    });

    it('drills down to an unschedulable pod\'s rejection table over every node', async () => {
      const huge = data.pods.find((p) => p[0].includes('/huge-'))![0];
      await page.getByTestId('pod-search').fill(huge);
      await page.getByTestId('pod-list').locator('.vrow').first().locator('div').click();
      const table = page.getByTestId('rejection-table');
      await table.waitFor();
      const counts = (await table.locator('tbody tr td.num').allInnerTexts()).map((t) => Number.parseInt(t, 10));
      assert.equal(counts.reduce((s, n) => s + n, 0), 2000, 'every node is in the table');
      assert.match(await page.getByTestId('decision-message').innerText(), /^0\/2000 nodes are available/);
    });

    it('shows a scheduled pod\'s score rows and how many nodes were scored', async () => {
      const scheduled = data.pods.find((p) => p[0].includes('/app') && p[1] === 0)![0];
      await page.getByTestId('pod-search').fill(scheduled);
      await page.getByTestId('pod-list').locator('.vrow').first().locator('div').click();
      await page.getByTestId('score-table').waitFor();
      const rows = await page.getByTestId('score-table').locator('tbody tr').count();
      assert.ok(rows > 0 && rows <= 100, `${rows} rows drawn`);
      assert.match(await page.getByTestId('decision').innerText(), /\d+ of \d+ scored node\(s\)/i);
      const chosen = (await page.getByTestId('decision').locator('h3 b').innerText()).trim();
      assert.ok((await page.getByTestId('score-table').locator('tbody tr td:first-child').allInnerTexts()).includes(chosen), `${chosen}, where the pod went, is in the table`);
    });
  });

  describe('the live UI', () => {
    let serving: Serving;
    let page: Page;

    before(async () => {
      serving = await serveScenario(scaleScenario(size), { config, registry, admitPod, port: 0 });
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(waitMs);
      await page.goto(`${serving.url}/ui/`);
    });

    after(async () => {
      await page?.close();
      await serving?.close();
    });

    it('lists every pod, drawing only the rows in view, and finds an unschedulable pod\'s decision', async () => {
      await page.getByTestId('status-line').filter({ hasText: /^2000 nodes · 2\d{4} pods/ }).waitFor();
      assert.ok((await page.getByTestId('pod-list').locator('.vrow').count()) <= maxRowsDrawn);
      await page.getByTestId('pod-search').fill('huge-00096');
      await page.getByTestId('pod-row-default/huge-00096').filter({ hasText: 'Unschedulable' }).click();
      await page.getByTestId('rejection-table').waitFor();
      assert.match(await page.getByTestId('decision-message').innerText(), /^0\/2000 nodes are available/);
    });

    it('shows the nodes as a heat map and a virtualised list', async () => {
      await page.getByTestId('tab-Nodes').click();
      await page.getByTestId('node-heatmap').waitFor();
      const cells = await heatMapCells(page);
      assert.ok(cells.width * cells.height >= 2000 * 7 * 7);
      assert.equal(await page.locator('.node-card').count(), 0, 'no card per node at this size');
      assert.ok((await page.locator('.vlist .vrow').count()) <= maxRowsDrawn);
    });
  });
});
