// `--row-workers N` on simulate: the long Filter walks' resource check and scores on
// worker threads, with the decisions of one thread (the same output, pod by pod and score by score).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { seededRandom } from '../../util/clock.js';
import { runCli } from '../main.js';

/** 1,200 nodes of varied sizes and use, and pods that fit some of them: walks of 1,000+ rows. */
function scenarioJson(): string {
  const random = seededRandom(11);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const nodes = Array.from({ length: 1200 }, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `node-${String(i).padStart(4, '0')}`, labels: { 'kubernetes.io/hostname': `node-${i}`, 'topology.kubernetes.io/zone': `zone-${i % 3}` } },
    status: { capacity: { cpu: pick(['4', '8', '16', '32']), memory: pick(['8Gi', '16Gi', '64Gi']), pods: pick(['8', '110']) } },
  }));
  const pod = (name: string, node?: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      ...(node === undefined ? {} : { nodeName: node }),
      containers: [{ name: 'c', image: 'app', resources: { requests: { cpu: pick(['100m', '1', '3', '7']), memory: pick(['256Mi', '2Gi', '12Gi']) } } }],
    },
  });
  const pods = Array.from({ length: 600 }, (_, i) => pod(`bound-${i}`, nodes[Math.floor(random() * nodes.length)]!.metadata.name));
  const pending = Array.from({ length: 80 }, (_, i) => pod(`pending-${i}`));
  // Larger than any node: refused by every node of the walk, with a FitError counting the reasons.
  for (let i = 0; i < 4; i++) pending.push({ ...pod(`huge-${i}`), spec: { containers: [{ name: 'c', image: 'app', resources: { requests: { cpu: '40', memory: '1Gi' } } }] } });
  return JSON.stringify({ metadata: { name: 'row-workers' }, objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }], nodes, pods, pending });
}

// Every node visited, so each walk is one stretch of 1,200 rows; MostAllocated, so scores differ by node.
const config = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 100
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
`;

/** A run's decisions: its output without the wall-clock figures. */
function decisions(json: string): unknown {
  const { pods, summary, nodes } = JSON.parse(json) as { pods: unknown; nodes: unknown; summary: Record<string, unknown> };
  const { wallSeconds: _wall, podsPerSecond: _rate, ...rest } = summary;
  return { pods, nodes, summary: rest };
}

async function cli(args: string[]): Promise<string> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  assert.equal(code, 0, err);
  return out;
}

test('simulate --row-workers decides as one thread: the same JSON, with the pass on the main thread alone and with workers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'row-workers-'));
  try {
    const scenario = join(dir, 'scenario.json');
    const configFile = join(dir, 'config.yaml');
    writeFileSync(scenario, scenarioJson());
    writeFileSync(configFile, config);
    const plain = await cli(['simulate', scenario, '--config', configFile, '--output', 'json']);
    const report = JSON.parse(plain) as { summary: { scheduled: number; unschedulable: number } };
    assert.ok(report.summary.scheduled > 600 && report.summary.unschedulable === 4, `the pending pods placed, the huge ones refused (${JSON.stringify(report.summary)})`);
    for (const workers of ['0', '1']) {
      assert.deepEqual(decisions(await cli(['simulate', scenario, '--config', configFile, '--output', 'json', '--row-workers', workers])), decisions(plain), `simulate --row-workers ${workers}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--row-workers takes a non-negative integer, and is simulate\'s, not explain\'s', async () => {
  for (const bad of ['-1', 'two', '1.5']) {
    let err = '';
    const code = await runCli(['simulate', `--row-workers=${bad}`], { stdout: () => undefined, stderr: (t) => (err += t) });
    assert.equal(code, 2, bad);
    assert.match(err, /--row-workers.*must be a non-negative integer/, bad);
  }
  let err = '';
  assert.equal(await runCli(['explain', '--row-workers', '1'], { stdout: () => undefined, stderr: (t) => (err += t) }), 2);
  assert.match(err, /row-workers/);
});
