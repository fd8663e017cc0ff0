// `capacity` and `compare` read a live cluster (`--from-cluster`, here the embedded API server on
// loopback) and answer as they do for the same state in a file; their progress line goes to stderr
// only on a terminal or with --progress, never into JSON on stdout.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { admitPod } from '../../cluster/memory/admission.js';
import { configFromObject } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseScenario } from '../../sim/scenario/scenario.js';
import { serveScenario, type Serving } from '../../sim/serve/serve.js';
import type { CliIO } from '../io.js';
import { runCli } from '../main.js';

const scenarioText = `
nodes:
- metadata: { name: n1, labels: { kubernetes.io/hostname: n1 } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "20" }, capacity: { cpu: "4", memory: 8Gi, pods: "20" } }
- metadata: { name: n2, labels: { kubernetes.io/hostname: n2 } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "20" }, capacity: { cpu: "4", memory: 8Gi, pods: "20" } }
pods:
- metadata: { name: a, creationTimestamp: "2026-01-01T00:00:00Z" }
  spec: { nodeName: n1, containers: [ { name: c, image: x, resources: { requests: { cpu: "1" } } } ] }
- metadata: { name: b, creationTimestamp: "2026-01-01T00:00:01Z" }
  spec: { nodeName: n2, containers: [ { name: c, image: x, resources: { requests: { cpu: "3" } } } ] }
pending:
- metadata: { name: c, creationTimestamp: "2026-01-01T00:00:02Z" }
  spec: { containers: [ { name: c, image: x, resources: { requests: { cpu: "2" } } } ] }
- metadata: { name: d, creationTimestamp: "2026-01-01T00:00:03Z" }
  spec: { containers: [ { name: c, image: x, resources: { requests: { cpu: "3" } } } ] }
`;

const registry = inTreeRegistry();
let serving: Serving;
let dir: string;
let kubeconfig: string;
let podFile: string;
let packing: string;

before(async () => {
  // `serve` schedules what it serves: its only profile is another scheduler's, so the pending pods
  // stay pending (a cluster whose default scheduler is down) and every read sees the same state.
  const config = configFromObject({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', profiles: [{ schedulerName: 'nobody' }] }, 'test', registry);
  serving = await serveScenario(parseScenario(scenarioText, 'served.yaml'), { config, registry, notYetAvailable: notYetAvailablePlugins, admitPod, seed: 1, port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'what-if-cluster-'));
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, `apiVersion: v1
kind: Config
clusters: [ { name: c, cluster: { server: ${serving.url} } } ]
users: [ { name: me, user: {} } ]
contexts: [ { name: c, context: { cluster: c, user: me } } ]
current-context: c
`);
  podFile = join(dir, 'pod.yaml');
  writeFileSync(podFile, 'kind: Pod\nmetadata: { name: w }\nspec: { containers: [{ name: c, image: x, resources: { requests: { cpu: "1" } } }] }\n');
  packing = fileURLToPath(new URL('../../../test/fixtures/configs/most-allocated-cpu.yaml', import.meta.url));
});

after(async () => {
  await serving.close();
});

async function cli(argv: string[], o: { stderrIsTerminal?: boolean } = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (t) => (out += t), stderr: (t) => (err += t), stderrIsTerminal: () => o.stderrIsTerminal ?? false };
  const code = await runCli(argv, io);
  return { code, out, err };
}

/** The served cluster as a file: what `snapshot` writes, so both read the same state. */
async function snapshotFile(): Promise<string> {
  const file = join(dir, 'snapshot.yaml');
  const r = await cli(['snapshot', '--kubeconfig', kubeconfig, '-o', file]);
  assert.equal(r.code, 0, r.err);
  return file;
}

test('capacity --from-cluster answers its three questions as for the same state in a file', { timeout: 60_000 }, async () => {
  const file = await snapshotFile();
  const questions: [string, string[]][] = [
    ['--pod', ['--pod', podFile]],
    ['--add-nodes-like', ['--add-nodes-like', 'n1']],
    ['--removable', ['--removable']],
  ];
  const answers = new Map<string, unknown>();
  for (const [name, args] of questions) {
    const live = await cli(['capacity', '--from-cluster', '--kubeconfig', kubeconfig, ...args, '-o', 'json']);
    assert.equal(live.code, 0, `${name}: ${live.err}`);
    const fromFile = await cli(['capacity', file, ...args, '-o', 'json']);
    assert.equal(fromFile.code, 0, `${name}: ${fromFile.err}`);
    answers.set(name, JSON.parse(live.out));
    assert.deepEqual(answers.get(name), JSON.parse(fromFile.out), name);
  }
  // 8 cpu, 4 used by the bound pods, 2 by pending c (d, 3 cpu, fits nowhere): 2 more 1-cpu copies.
  const { stoppedBy, free, ...counted } = answers.get('--pod') as { stoppedBy: { message: string }; free: { resource: string; free: number }[] };
  assert.deepEqual(counted, { pod: 'default/w', fits: 2, placements: [{ node: 'n1', copies: 1 }, { node: 'n2', copies: 1 }], pending: { scheduled: 1, unschedulable: 1 } });
  // Nothing left once the copies are placed: 8 cpu, all requested.
  assert.equal(free.find((f) => f.resource === 'cpu')?.free, 0);
  assert.equal(stoppedBy.message, '0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.');
});

test('compare --from-cluster compares configurations on the cluster\'s state', { timeout: 60_000 }, async () => {
  const r = await cli(['compare', '--from-cluster', '--kubeconfig', kubeconfig, '--config', packing, '-o', 'json']);
  assert.equal(r.code, 0, r.err);
  const c = JSON.parse(r.out) as { variants: { name: string; scheduled: number; unschedulable: number }[]; pods: number };
  assert.deepEqual(c.variants.map((v) => [v.name, v.scheduled, v.unschedulable]), [['defaults', 3, 1], ['most-allocated-cpu.yaml', 3, 1]]);
  assert.equal(c.pods, 4);
  const stray = await cli(['compare', '--config', packing, '--selector', 'app=x']);
  assert.equal(stray.code, 2);
  assert.match(stray.err, /--selector needs --from-cluster/);
});

test('the progress line: on a terminal or with --progress, on stderr only, ended by a newline', async () => {
  const file = await snapshotFile();
  const quiet = await cli(['capacity', file, '--removable', '-o', 'json']);
  assert.equal(quiet.code, 0, quiet.err);
  assert.equal(quiet.err, '');

  const onTerminal = await cli(['capacity', file, '--removable', '-o', 'json'], { stderrIsTerminal: true });
  assert.equal(onTerminal.code, 0, onTerminal.err);
  const redraw = '\r\u001b[K';
  assert.ok(onTerminal.err.includes(`${redraw}nodes tried: 0/2 (0%)`), onTerminal.err);
  assert.ok(onTerminal.err.endsWith(`${redraw}nodes tried: 2/2 (100%)\n`), onTerminal.err);
  assert.deepEqual(JSON.parse(onTerminal.out), JSON.parse(quiet.out), 'stdout holds the same JSON');

  const asked = await cli(['compare', file, '--config', packing, '--progress', '-o', 'json']);
  assert.equal(asked.code, 0, asked.err);
  assert.match(asked.err, /configuration 1\/2 \(defaults\): pods attempted: 1/);
  assert.match(asked.err, /configuration 2\/2 \(most-allocated-cpu\.yaml\): pods attempted: 1/);
  assert.ok(asked.err.endsWith('\n'));
  assert.ok(!asked.out.includes('\r'));
  JSON.parse(asked.out);
});
