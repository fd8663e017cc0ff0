// The web UI of `simulate --serve` in headless Chromium, used as a person would: load a scenario,
// open a Pending pod and read its rejection table, fix the node in the YAML editor and watch the
// pod get scheduled; a write the API server refuses shows its reason under the editor. Over a DRA
// scenario: device use per node and pool, a pod's devices per claim, why nodes had none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { parse, stringify } from 'yaml';
import { admitPod } from '../cluster/memory/admission.js';
import { defaultConfiguration } from '../config/index.js';
import { inTreeRegistry } from '../plugins/registry.js';
import { loadScenario, parseScenario } from '../sim/scenario/scenario.js';
import { FeatureGates } from '../config/feature_gates.js';
import { podGroupFieldGates } from '../cluster/memory/store.js';
import { clusterGates } from '../sim/scenario/embedded.js';
import { serveScenario, type Serving } from '../sim/serve/serve.js';
import { launchBrowser, noBrowser } from './browser.js';

const fixture = fileURLToPath(new URL('./fixtures/workbench.yaml', import.meta.url));
const draFixture = fileURLToPath(new URL('../../test/fixtures/scenarios/dra/gpu-claims.yaml', import.meta.url));
/** Upper bound for anything the page waits for (the scheduler retries after a backoff of 1-2 s). */
const waitMs = 15_000;

/** Replaces the YAML editor's text as a person pasting would. */
async function replaceEditorText(page: Page, text: string): Promise<void> {
  await page.locator('[data-testid=yaml-editor] .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

async function editorText(page: Page): Promise<string> {
  return page.locator('[data-testid=yaml-editor] .cm-content').evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent ?? '').join('\n'));
}

/** Serves the scenario file and opens its workbench in a new page of a new browser. */
async function openWorkbench(file: string): Promise<{ serving: Serving; browser: Browser; page: Page }> {
  const registry = inTreeRegistry();
  const serving = await serveScenario(loadScenario(file), { config: defaultConfiguration(registry), registry, admitPod, port: 0 });
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(waitMs);
  await page.goto(`${serving.url}/ui/`);
  return { serving, browser, page };
}

describe('the workbench web UI in headless Chromium', { skip: noBrowser ?? false, timeout: 120_000 }, () => {
  let serving: Serving;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ({ serving, browser, page } = await openWorkbench(fixture));
  });

  after(async () => {
    await browser?.close();
    await serving?.close();
  });

  it('lists the scenario live and shows a Pending pod\'s rejection table', async () => {
    await page.getByTestId('status-line').filter({ hasText: '2 nodes · 3 pods' }).waitFor();
    await page.getByTestId('pod-row-default/fast-disk').filter({ hasText: 'Unschedulable' }).click();
    const table = page.getByTestId('rejection-table');
    await table.waitFor();
    const rows = await table.locator('tbody tr').allInnerTexts();
    assert.equal(rows.length, 1);
    assert.match(rows[0]!, /NodeAffinity\s+UnschedulableAndUnresolvable\s+node\(s\) didn't match Pod's node affinity\/selector\s+2/);
    assert.match(await page.getByTestId('decision-message').innerText(), /^0\/2 nodes are available: 2 node\(s\) didn't match Pod's node affinity\/selector\./);
    // The diagnosis: every Filter plugin's verdict on both nodes, NodeAffinity the only one rejecting.
    const all = await page.getByTestId('all-filters-table').innerText();
    assert.match(all, /NodeAffinity/);
    assert.match(all, /2 ▸.*node\(s\) didn't match Pod's node affinity\/selector/s);

    await page.getByTestId('pod-row-default/huge').click();
    await page.getByTestId('rejection-table').filter({ hasText: 'Insufficient cpu' }).waitFor();
  });

  it('shows the API server\'s validation error inline when a node edit is refused', async () => {
    await page.getByTestId('tab-Nodes').click();
    await page.getByTestId('node-node-a').click();
    await page.locator('[data-testid=yaml-editor] .cm-line').filter({ hasText: 'node-a' }).first().waitFor();
    const node = parse(await editorText(page)) as { metadata: { labels: Record<string, string> } };
    node.metadata.labels.disktype = 'not a valid label value!';
    await replaceEditorText(page, stringify(node));
    await page.getByTestId('editor-apply').click();
    const error = await page.getByTestId('editor-error').innerText();
    assert.match(error, /metadata\.labels: Invalid value: "not a valid label value!"/);
  });

  it('labels a node in the YAML editor and the Pending pod is scheduled there', async () => {
    await page.getByTestId('tab-Nodes').click();
    await page.getByTestId('node-node-b').click();
    await page.locator('[data-testid=yaml-editor] .cm-line').filter({ hasText: 'node-b' }).first().waitFor();
    const node = parse(await editorText(page)) as { metadata: { name: string; labels: Record<string, string> } };
    assert.equal(node.metadata.name, 'node-b');
    node.metadata.labels.disktype = 'ssd';
    await replaceEditorText(page, stringify(node));
    await page.getByTestId('editor-apply').click();
    await page.getByTestId('editor-notice').filter({ hasText: 'Node node-b saved' }).waitFor();

    await page.getByTestId('tab-Pods').click();
    await page.getByTestId('pod-row-default/fast-disk').filter({ hasText: 'node-b' }).click();
    await page.getByTestId('decision-outcome').filter({ hasText: 'Scheduled' }).waitFor();
    assert.match(await page.getByTestId('decision').innerText(), /default\/fast-disk\s+Scheduled\s+on node-b/);
    assert.equal(serving.cluster.getPod('default', 'fast-disk')?.spec.nodeName, 'node-b');
  });

  it('shows the queue with the reason the remaining pod waits', async () => {
    await page.getByTestId('tab-Queue').click();
    const row = page.getByTestId('queue-list').locator('.vrow').filter({ hasText: 'default/huge' });
    await row.waitFor();
    assert.match(await row.innerText(), /unschedulable\s+default\/huge.*NodeResourcesFit.*Insufficient cpu/s);
  });

  it('applies a new scheduler configuration and refuses an invalid one with its reason', async () => {
    await page.getByTestId('tab-Configuration').click();
    await page.locator('[data-testid=config-editor] .cm-line').filter({ hasText: 'KubeSchedulerConfiguration' }).waitFor();
    await page.locator('[data-testid=config-editor] .cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npercentageOfNodesToScore: 500\n');
    await page.getByTestId('config-apply').click();
    const refused = page.locator('[data-testid=config-result].error');
    assert.match(await refused.innerText(), /percentageOfNodesToScore: Invalid value: 500/);

    await page.locator('[data-testid=config-editor] .cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\npodInitialBackoffSeconds: 2\n');
    await page.getByTestId('config-apply').click();
    await page.getByTestId('config-result').filter({ hasText: 'configuration applied' }).waitFor();
  });

  it('exports the cluster as a scenario and imports one back', async () => {
    const exported = await page.evaluate(async () => (await fetch('/ui/api/scenario')).text());
    const sc = parse(exported) as { nodes: { metadata: { name: string; labels: Record<string, string> } }[]; pods: unknown[]; pending: { metadata: { name: string } }[] };
    assert.deepEqual(sc.nodes.map((n) => n.metadata.name), ['node-a', 'node-b']);
    assert.equal(sc.nodes[1]!.metadata.labels.disktype, 'ssd');
    assert.equal(sc.pods.length, 2);
    assert.deepEqual(sc.pending.map((p) => p.metadata.name), ['huge']);

    // Import the original scenario through the file input: the label is gone, fast-disk pending again.
    await page.getByTestId('tab-Scenario').click();
    await page.getByTestId('scenario-import').setInputFiles(fixture);
    await page.getByTestId('scenario-result').filter({ hasText: 'imported workbench-e2e' }).waitFor();
    await page.getByTestId('tab-Pods').click();
    await page.getByTestId('pod-row-default/fast-disk').filter({ hasText: 'Unschedulable' }).waitFor();
    assert.equal(serving.cluster.getPod('default', 'fast-disk')?.spec.nodeName, undefined);
  });
});

describe('the workbench web UI over a DRA scenario in headless Chromium', { skip: noBrowser ?? false, timeout: 120_000 }, () => {
  let serving: Serving;
  let browser: Browser;
  let page: Page;

  before(async () => {
    ({ serving, browser, page } = await openWorkbench(draFixture));
  });

  after(async () => {
    await browser?.close();
    await serving?.close();
  });

  it('shows a scheduled pod\'s devices per claim and why the nodes had none for the pod left out', async () => {
    await page.getByTestId('pod-row-default/trainer').filter({ hasText: 'Scheduled' }).click();
    const devices = page.getByTestId('pod-devices');
    await devices.waitFor();
    assert.deepEqual((await devices.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').replace(/trainer-gpus-\w+/, 'trainer-gpus')), [
      'trainer-gpus gpus gpu.example.com node-1 gpu-0',
      'trainer-gpus gpus gpu.example.com node-1 gpu-1',
    ]);
    await page.getByTestId('pod-row-default/second-trainer').filter({ hasText: 'Unschedulable' }).click();
    const shortfalls = page.getByTestId('device-shortfalls');
    await shortfalls.waitFor();
    const rows = (await shortfalls.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    assert.equal(rows.length, 3);
    assert.match(rows[0]!, /^2 ▸ default\/second-trainer-gpus-\w+ gpus 2 0 not enough matching devices$/);
  });

  it('shows devices allocated per node (cards, heat map) and per pool', async () => {
    await page.getByTestId('tab-Nodes').click();
    await page.getByTestId('node-node-1').filter({ hasText: 'devices 2/2 (100%)' }).waitFor();
    assert.match(await page.getByTestId('node-node-2').innerText(), /devices 3\/4 \(75%\)/);
    assert.doesNotMatch(await page.getByTestId('node-node-4').innerText(), /devices/);
    await page.getByTestId('heatmap-resource').locator('label', { hasText: 'devices' }).locator('input').check();
    await page.getByTestId('node-heatmap').waitFor();
    assert.match(await page.getByTestId('device-pool-list').innerText(), /gpu\.example\.com \/ node-2: 3 of 4 device\(s\) allocated \(75%\)/);
  });
});

describe('the workbench shows a CompositePodGroup member\'s tree', { skip: noBrowser ?? false, timeout: 120_000 }, () => {
  // Racks r1 (one node) and r2 (two); a rack-constrained tree of two 3-cpu members: only r2 holds it.
  const yaml = readFileSync(fileURLToPath(new URL('../../test/fixtures/scenarios/workloads/composite-racks.yaml', import.meta.url)), 'utf8');
  let serving: Serving;
  let browser: Browser;

  after(async () => {
    await browser?.close();
    await serving?.close();
  });

  it('lists the child groups, the racks tried and the one chosen', async () => {
    const registry = inTreeRegistry();
    const featureGates = FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true']);
    const sc = parseScenario(yaml, 'tree.yaml', { gates: podGroupFieldGates(clusterGates(featureGates)) });
    serving = await serveScenario(sc, { config: defaultConfiguration(registry), registry, admitPod, featureGates, port: 0 });
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(waitMs);
    await page.goto(`${serving.url}/ui/`);
    await page.getByTestId('pod-row-default/a0').filter({ hasText: 'Scheduled' }).click();
    const tree = await page.getByTestId('decision-tree').innerText();
    assert.match(tree, /^CompositePodGroup default\/job \(gang, minGroupCount 2\) {2}Scheduled: 2\/2 child group\(s\), 2 member\(s\) placed\n/);
    assert.match(tree, /\n {2}Placement r1 \(1 node\(s\)\): .+\n {2}Placement r2 \(2 node\(s\)\): feasible, chosen\n/);
    assert.match(tree, /\n {2}PodGroup default\/a \(gang, minCount 1\) {2}Scheduled: 1\/1 member\(s\) placed\n {4}default\/a0 {2}Scheduled on n[23]\n/);
    assert.match(tree, /\n {2}PodGroup default\/b /);
    // The pod's own decision tables are still there below it.
    await page.getByTestId('attempts').waitFor();
  });
});
