// `--plugins` end to end, in real time: `run` against the embedded API server over loopback HTTP,
// `serve` answering a client, and the built CLI compiling a TypeScript plugin in a process of its
// own. The plugins are the examples/ a user starts from; they import the built package.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pod } from '../api/types.js';
import { ApiServer } from '../apiserver/server.js';
import type { Serving } from '../sim/serve/serve.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { makeNode, makePod } from '../testing/builders.js';
import { RealClock } from '../util/clock.js';
import { runCommand } from './commands/run.js';
import { serveCommand } from './commands/serve.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const example = (file: string) => join(root, 'examples', file);
const dir = mkdtempSync(join(tmpdir(), 'kst-plugins-e2e-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Polls (loopback I/O needs real time) until `pred` holds; fails after `ms`. */
async function waitFor(what: string, pred: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function writeFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const needsBuild = existsSync(join(root, 'dist/index.js')) ? false : 'the examples import the built package (npm ci builds it)';

describe('--plugins end to end', { skip: needsBuild, timeout: 60_000 }, () => {
  it('run --plugins: a filter plugin keeps every pod on the one node it allows', async () => {
    const cluster = new MemoryCluster({ clock: new RealClock() });
    // "a" is the roomier node, where the default scores would put the pods.
    cluster.create(makeNode('a', { labels: { tier: 'standard' }, allocatable: { cpu: '16', memory: '32Gi', pods: '20' } }));
    cluster.create(makeNode('b', { labels: { tier: 'premium' }, allocatable: { cpu: '4', memory: '8Gi', pods: '20' } }));
    const api = await ApiServer.start({ cluster, port: 0 });
    const kubeconfig = writeFile('kubeconfig', `apiVersion: v1
kind: Config
clusters: [{ name: embedded, cluster: { server: "${api.url}" } }]
users: [{ name: scheduler, user: {} }]
contexts: [{ name: embedded, context: { cluster: embedded, user: scheduler } }]
current-context: embedded
`);
    const config = writeFile('prefer-label-required.yaml', `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection: { leaderElect: false }
profiles:
- schedulerName: default-scheduler
  plugins: { multiPoint: { enabled: [{ name: PreferLabel }] } }
  pluginConfig: [{ name: PreferLabel, args: { key: tier, value: premium, required: true } }]
`);
    const names = ['p1', 'p2', 'p3'];
    const signals = new EventEmitter();
    let stderr = '';
    try {
      const exit = runCommand(['--kubeconfig', kubeconfig, '--config', config, '--plugins', example('prefer-label.mjs'), '--secure-port', '0'],
        { stdout: () => undefined, stderr: (t) => (stderr += t) }, signals);
      for (const name of names) {
        const p = makePod(name, { requests: { cpu: '100m' } });
        cluster.create({ ...p, metadata: { name, namespace: 'default' } });
      }
      const nodeOf = (name: string) => cluster.get<Pod>('Pod', 'default', name)?.spec.nodeName;
      await waitFor('pods bound', () => names.every((n) => nodeOf(n) !== undefined));
      assert.deepEqual(names.map(nodeOf), ['b', 'b', 'b']);
      signals.emit('SIGTERM', 'SIGTERM');
      assert.equal(await exit, 0, stderr);
    } finally {
      await api.close();
    }
  });

  it('serve --plugins with a TypeScript module: the served scheduler keeps pods out of the avoided zone', async () => {
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let serving: Serving | undefined;
    const done = serveCommand(
      [join(root, 'test/fixtures/scenarios/cli/zones.yaml'), '--port', '0', '--plugins', example('avoid-zone.ts'), '--config', example('avoid-zone-config.yaml')],
      { stdout: () => undefined, stderr: () => undefined },
      { stopSignal, onServing: (s) => (serving = s) },
    );
    try {
      await waitFor('serving', () => serving !== undefined);
      const created = await fetch(`${serving!.url}/api/v1/namespaces/default/pods`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'from-client' }, spec: { containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '1' } } }] } }),
      });
      assert.equal(created.status, 201);
      const nodeOf = async (name: string) => ((await (await fetch(`${serving!.url}/api/v1/namespaces/default/pods/${name}`)).json()) as Pod).spec.nodeName;
      const names = ['p1', 'p2', 'from-client'];
      await waitFor('pods bound', async () => (await Promise.all(names.map(nodeOf))).every((n) => n !== undefined));
      assert.deepEqual(await Promise.all(names.map(nodeOf)), ['a', 'a', 'a']);
    } finally {
      stop();
    }
    assert.equal(await done, 0);
  });

  it('the built CLI compiles a TypeScript plugin on load, even where it cannot write a temp file', async () => {
    // Nothing can create a directory in /proc, root included: a temp dir as on a read-only root
    // filesystem. No NODE_OPTIONS, so no TypeScript loader comes from this test process.
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: '/proc/kube-scheduler-ts-no-tmp' };
    delete env.NODE_OPTIONS;
    const argv = [join(root, 'dist/cli/bin.js'), 'simulate', join(root, 'test/fixtures/scenarios/cli/zones.yaml'), '--output', 'json',
      '--plugins', example('avoid-zone.ts'), '--config', example('avoid-zone-config.yaml')];
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, argv, { env, timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
    });
    assert.equal(code, 0, stderr);
    assert.deepEqual((JSON.parse(stdout) as { pods: { node: string }[] }).pods.map((p) => p.node), ['a', 'a']);
  });

  it('a .ts plugin in a package without "type": "module" is refused with what to do; as .mts it loads', async () => {
    // A user's project: a package.json of the default (CommonJS) type, kube-scheduler-ts installed.
    const project = mkdtempSync(join(tmpdir(), 'kst-cjs-project-'));
    try {
      writeFileSync(join(project, 'package.json'), '{ "name": "my-plugins" }\n');
      mkdirSync(join(project, 'node_modules'));
      symlinkSync(root, join(project, 'node_modules', 'kube-scheduler-ts'));
      copyFileSync(example('avoid-zone.ts'), join(project, 'avoid-zone.ts'));
      copyFileSync(example('avoid-zone.ts'), join(project, 'avoid-zone.mts'));
      const simulate = (plugin: string) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        const argv = [join(root, 'dist/cli/bin.js'), 'simulate', join(root, 'test/fixtures/scenarios/cli/zones.yaml'), '--output', 'json',
          '--plugins', join(project, plugin), '--config', example('avoid-zone-config.yaml')];
        const env: NodeJS.ProcessEnv = { ...process.env };
        delete env.NODE_OPTIONS;
        execFile(process.execPath, argv, { env, timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
      });
      const ts = await simulate('avoid-zone.ts');
      assert.equal(ts.code, 2, ts.stdout);
      assert.ok(ts.stderr.endsWith(`(a .ts file outside a "type": "module" package is loaded as CommonJS, which cannot import kube-scheduler-ts: rename it to .mts, or add "type": "module" to ${join(project, 'package.json')})\n`), ts.stderr);
      const mts = await simulate('avoid-zone.mts');
      assert.equal(mts.code, 0, mts.stderr);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
