// Measures the workbench on a generated cluster (`npm run workbench:scale -- --nodes 5000 --pods
// 1000 --bound 100000 [--report-only | --serve-only]`: pods to schedule, pods already running): the report's collection (CPU seconds, memory), build,
// size, and in headless Chromium its time to first render and to a pod's drill-down; the live UI
// over `simulate --serve` while it schedules (the page's long tasks) and once idle (time to list
// every pod, to a pod's decision, to the nodes' heat map, the page's memory). Figures for the
// README; nothing asserts on them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { admitPod } from '../cluster/memory/admission.js';
import { defaultConfiguration } from '../config/index.js';
import { inTreeRegistry } from '../plugins/registry.js';
import { renderReportHtml } from '../sim/report/report.js';
import { ReportCollector } from '../sim/report/report_data.js';
import { serveScenario } from '../sim/serve/serve.js';
import { runSimulation } from '../sim/simulate/simulate.js';
import { launchBrowser } from './browser.js';
import { scaleScenario } from './scale_scenario.js';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000' },
    pods: { type: 'string', default: '1000' },
    bound: { type: 'string', default: '100000' },
    'report-only': { type: 'boolean' },
    'serve-only': { type: 'boolean' },
    'report-scores': { type: 'string' },
  },
});
const size = { nodes: Number(values.nodes), pods: Number(values.pods), bound: Number(values.bound), preemption: true, volumes: true };
const registry = inTreeRegistry();
const config = defaultConfiguration(registry);
/** Anything the page waits for at this size (listing 100,000 pods takes a while on a loaded machine). */
const waitMs = 600_000;

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return ((u.user + u.system) / 1e6).toFixed(1);
};
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const report = (line: string) => process.stdout.write(`${line}\n`);

async function timed(what: string, f: () => Promise<unknown>): Promise<void> {
  const start = performance.now();
  await f();
  report(`  ${what}: ${seconds(performance.now() - start)}`);
}

async function pageMemory(page: Page): Promise<string> {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = await session.send('Runtime.getHeapUsage');
  return mib(usedSize);
}

async function measureReport(dir: string): Promise<void> {
  const scoreLimit = values['report-scores'] === undefined ? undefined : values['report-scores'] === 'all' ? 'all' : Number(values['report-scores']);
  const scenario = scaleScenario(size);
  report(`report of ${scenario.name}:`);
  const cpu = process.cpuUsage();
  const collector = new ReportCollector({ title: scenario.name, ...(scoreLimit !== undefined ? { scoreLimit } : {}) }, scenario.pods.length + scenario.pending.length);
  const sim = await runSimulation(scenario, { config, registry, admitPod, recordScores: true, diagnose: true }, collector);
  report(`  simulate with the report collected: ${cpuSeconds(cpu)} CPU s, ${sim.summary.scheduled} scheduled, ${sim.summary.unschedulable} unschedulable, ${sim.summary.preempted} preempted; heap ${mib(process.memoryUsage().heapUsed)}, rss ${mib(process.memoryUsage().rss)}`);
  const buildCpu = process.cpuUsage();
  const built = collector.build(sim);
  const html = renderReportHtml(built.data, built.columns);
  report(`  build and render: ${cpuSeconds(buildCpu)} CPU s; score limit ${built.data.scoreLimit}; column bytes ${mib(built.columns.length)}; file ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB`);
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(waitMs);
    await timed('open to the summary', async () => {
      await page.goto(pathToFileURL(file).href);
      await page.getByTestId('summary').waitFor();
    });
    await timed('queue chart drawn', () => page.getByTestId('chart-queue').locator('canvas').waitFor());
    const unschedulable = built.data.pods.find((p) => p[1] === 1)?.[0] ?? built.data.pods[0]![0];
    await timed(`search and drill down to ${unschedulable}`, async () => {
      await page.getByTestId('pod-search').fill(unschedulable);
      await page.getByTestId('pod-list').locator('.vrow').first().locator('div').click();
      await page.getByTestId('decision').filter({ hasText: unschedulable }).waitFor();
    });
    const scheduled = built.data.pods.find((p) => p[1] === 0 && p[4] >= 0)?.[0] ?? '';
    await timed(`search and drill down to ${scheduled} (score table)`, async () => {
      await page.getByTestId('pod-search').fill(scheduled);
      await page.getByTestId('pod-list').locator('.vrow').first().locator('div').click();
      await page.getByTestId('score-table').waitFor();
    });
    report(`  page heap after the drill-downs: ${await pageMemory(page)}`);
  } finally {
    await browser.close();
  }
}

async function measureServe(): Promise<void> {
  const scenario = scaleScenario(size);
  report(`serve of ${scenario.name}:`);
  const serving = await serveScenario(scenario, { config, registry, admitPod, port: 0 });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(waitMs);
    await page.addInitScript(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) w.longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
    });
    const total = scenario.pods.length + scenario.pending.length;
    const start = performance.now();
    await page.goto(`${serving.url}/ui/`);
    // While the scheduler works through the pods: how long the page was busy in one go.
    const bound = () => serving.cluster.list('Pod').filter((p) => (p as { spec?: { nodeName?: string } }).spec?.nodeName).length;
    let last = -1;
    for (let i = 0; i < 600; i++) {
      const now = bound();
      if (now === last) break;
      last = now;
      await new Promise((r) => setTimeout(r, 3000));
    }
    report(`  scheduled ${last} of ${total} pods in ${seconds(performance.now() - start)} with the page open`);
    const tasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    report(`  page long tasks meanwhile: ${tasks.length}, longest ${Math.max(0, ...tasks).toFixed(0)} ms, total ${seconds(tasks.reduce((s, t) => s + t, 0))}`);
    // Preemption victims are gone: the page lists what the cluster holds.
    const listed = `${scenario.nodes.length} nodes · ${serving.cluster.list('Pod').length} pods`;
    await page.getByTestId('status-line').filter({ hasText: listed }).waitFor();
    await timed('reload to every pod listed', async () => {
      await page.reload();
      await page.getByTestId('status-line').filter({ hasText: listed }).waitFor();
      await page.getByTestId('pod-list').locator('.vrow').first().waitFor();
    });
    await timed('search and a pod\'s decision', async () => {
      await page.getByTestId('pod-search').fill('huge-00096');
      await page.getByTestId('pod-row-default/huge-00096').click();
      await page.getByTestId('rejection-table').waitFor();
    });
    await timed('nodes tab with its heat map', async () => {
      await page.getByTestId('tab-Nodes').click();
      await page.getByTestId('node-heatmap').waitFor();
    });
    report(`  page heap: ${await pageMemory(page)}; server rss ${mib(process.memoryUsage().rss)}`);
  } finally {
    await browser.close();
    await serving.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'workbench-scale-'));
try {
  if (!values['serve-only']) await measureReport(dir);
  if (!values['report-only']) await measureServe();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
