// Writes the README's screenshots (docs/*.png): the web UI of `simulate --serve` on the bundled
// scenario and the HTML report of `simulate --report`. `npm run docs:screenshots`, after a build.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { admitPod } from '../cluster/memory/admission.js';
import { defaultConfiguration } from '../config/index.js';
import { inTreeRegistry } from '../plugins/registry.js';
import { renderReportHtml } from '../sim/report/report.js';
import { ReportCollector } from '../sim/report/report_data.js';
import { loadScenario } from '../sim/scenario/scenario.js';
import { serveScenario } from '../sim/serve/serve.js';
import { runSimulation } from '../sim/simulate/simulate.js';
import { launchBrowser } from './browser.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const scenarioPath = join(root, 'scenarios', 'default.yaml');
const docs = join(root, 'docs');
const registry = inTreeRegistry();
const config = defaultConfiguration(registry);

const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: 1280, height: 820 }, deviceScaleFactor: 1 });
page.setDefaultTimeout(15_000);

const serving = await serveScenario(loadScenario(scenarioPath), { config, registry, admitPod, port: 0 });
try {
  await page.goto(`${serving.url}/ui/`);
  await page.getByTestId('pod-list').locator('.vrow').filter({ hasText: 'Unschedulable' }).first().click();
  await page.getByTestId('rejection-table').waitFor();
  await page.getByTestId('rejection-table').locator('button.link').first().click();
  await page.screenshot({ path: join(docs, 'workbench-pending-pod.png') });
  await page.getByTestId('pod-list').locator('.vrow').filter({ hasText: 'web-0' }).click();
  await page.getByTestId('score-table').waitFor();
  await page.screenshot({ path: join(docs, 'workbench-scores.png') });
  await page.getByTestId('tab-Nodes').click();
  await page.locator('.node-card').first().waitFor();
  await page.screenshot({ path: join(docs, 'workbench-nodes.png') });
  await page.locator('.node-card').nth(11).click();
  await page.locator('[data-testid=yaml-editor] .cm-line').first().waitFor();
  await page.screenshot({ path: join(docs, 'workbench-editor.png') });
} finally {
  await serving.close();
}

/** Simulates a scenario with its report collected and opens the report. */
async function openReport(path: string, dir: string): Promise<void> {
  const scenario = loadScenario(path);
  const collector = new ReportCollector({ title: scenario.name }, scenario.pods.length + scenario.pending.length);
  const built = collector.build(await runSimulation(scenario, { config, registry, admitPod, recordScores: true, diagnose: true }, collector));
  const file = join(dir, `${scenario.name}.html`);
  writeFileSync(file, renderReportHtml(built.data, built.columns));
  await page.goto(pathToFileURL(file).href);
  await page.getByTestId('summary').waitFor();
}

const dir = mkdtempSync(join(tmpdir(), 'report-shot-'));
try {
  await page.setViewportSize({ width: 1280, height: 1400 });
  await openReport(scenarioPath, dir);
  await page.screenshot({ path: join(docs, 'report.png') });
  // DRA: a pod's devices and, for the pod left out, why each node had none.
  await openReport(join(root, 'test', 'fixtures', 'scenarios', 'dra', 'gpu-claims.yaml'), dir);
  await page.getByTestId('pod-search').fill('second-trainer');
  await page.getByTestId('pod-list').locator('.vrow').first().locator('div').click();
  await page.getByTestId('device-shortfalls').waitFor();
  await page.locator('#pods').screenshot({ path: join(docs, 'report-dra.png') });
} finally {
  rmSync(dir, { recursive: true, force: true });
  await browser.close();
}
