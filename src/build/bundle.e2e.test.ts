// The built CLI (src/build/bundle.ts's output) as users start it: `run` in a process of its own,
// reaching an API server through a kubeconfig, which exercises the bundled part of
// @kubernetes/client-node (KubeConfig without the generated API).
import { after, describe, it } from 'node:test';
import { isAscii } from 'node:buffer';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Pod } from '../api/types.js';
import { ApiServer } from '../apiserver/server.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { makeNode, makePod } from '../testing/builders.js';
import { RealClock } from '../util/clock.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'cli', 'bin.js');
const dir = mkdtempSync(join(tmpdir(), 'kst-bundle-e2e-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const needsBuild = existsSync(bin) ? false : 'needs the built CLI (npm run build)';

describe('the built CLI', { skip: needsBuild, timeout: 60_000 }, () => {
  it('bundles only KubeConfig of @kubernetes/client-node, not its generated API models, once for the core and run\'s first lists', () => {
    const read = (...path: string[]) => readFileSync(join(root, 'dist', ...path), 'utf8');
    const kubeConfig = read('vendor', 'kube_config.body.cjs');
    assert.match(kubeConfig, /client-node\/dist\/config\.js/);
    assert.doesNotMatch(kubeConfig, /client-node\/dist\/gen\/models\//);
    for (const [file, vendor] of [[['core.js'], './vendor/'], [['cli', 'commands', 'run_first_lists.js'], '../../vendor/']] as const) {
      const text = read(...file);
      assert.doesNotMatch(text, /client-node\/dist\/|node_modules\/yaml\//, `${file.join('/')} has its own copy`);
      assert.ok(text.includes(`from "${vendor}kube_config.js"`) && text.includes(`from "${vendor}yaml.js"`), `${file.join('/')} imports the shared copies`);
    }
    assert.doesNotMatch(read('core.body.cjs'), /client-node\/dist\/|node_modules\/yaml\//, 'the core\'s body has its own copy');
    for (const body of [['core.body.cjs'], ['vendor', 'kube_config.body.cjs'], ['vendor', 'yaml.body.cjs']]) {
      assert.ok(isAscii(readFileSync(join(root, 'dist', ...body))), `${body.join('/')} is ASCII, read without decoding UTF-8`);
      assert.ok(read(...body).startsWith('"use strict";\n'), `${body.join('/')} runs in strict mode, as the ES modules it is built from`);
    }
  });

  it('loads KubeConfig\'s proxy agents and fetch on first use, as the packages\' own classes', () => {
    const { NODE_OPTIONS: _tsx, ...env } = process.env;
    const kubeConfig = pathToFileURL(join(root, 'dist', 'vendor', 'kube_config.js')).href;
    const agentOf = (proxy: string) => `(async () => { const kc = new KubeConfig(); kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:1', proxyUrl: ${JSON.stringify(proxy)} }], users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
      const o = {}; await kc.applyToHTTPSOptions(o); return o.agent.constructor.name + (o.agent.proxy ? ' with its proxy' : ''); })()`;
    const script = `const { KubeConfig } = await import(${JSON.stringify(kubeConfig)});
const names = [await ${agentOf('socks5://127.0.0.1:2')}, await ${agentOf('http://127.0.0.1:3')}];
const headers = await new KubeConfig().applyToFetchOptions({}).then((o) => typeof o.headers.raw, (e) => e.message);
console.log(JSON.stringify({ names, headers }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
    const got = JSON.parse(out) as { names: string[]; headers: string };
    // The bundle may rename a package's class (SocksProxyAgent2) beside the stand-in of the same name.
    assert.match(got.names[0]!, /^SocksProxyAgent\d* with its proxy$/);
    assert.match(got.names[1]!, /^HttpsProxyAgent\d* with its proxy$/);
    assert.equal(got.headers, 'function', 'node-fetch\'s Headers (with raw())');
  });

  it('leaves code caches of the core and the vendor packages that a plain node start uses as they are', () => {
    const caches = [['core.body.v8cache'], ['vendor', 'kube_config.body.v8cache'], ['vendor', 'yaml.body.v8cache']].map((p) => join(root, 'dist', ...p));
    const before = caches.map((c) => readFileSync(c));
    const { NODE_OPTIONS: _tsx, ...env } = process.env;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'plugin.js')).href)}); console.log(typeof m.Status);`], { env, encoding: 'utf8' });
    assert.equal(out.trim(), 'function');
    caches.forEach((c, i) => assert.deepEqual(readFileSync(c), before[i], `${c}: a rejected or stale cache would have been rewritten`));
  });

  it('run binds a pod through a kubeconfig with a bearer token, and exits 0 on SIGTERM', async () => {
    const cluster = new MemoryCluster({ clock: new RealClock() });
    cluster.create(makeNode('a', { allocatable: { cpu: '4', memory: '8Gi', pods: '10' } }));
    cluster.create({ ...makePod('p', { requests: { cpu: '100m' } }), metadata: { name: 'p', namespace: 'default' } });
    const api = await ApiServer.start({ cluster, port: 0 });
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, `apiVersion: v1
kind: Config
clusters: [{ name: embedded, cluster: { server: "${api.url}" } }]
users: [{ name: scheduler, user: { token: not-checked } }]
contexts: [{ name: embedded, context: { cluster: embedded, user: scheduler } }]
current-context: embedded
`);
    const config = join(dir, 'config.yaml');
    writeFileSync(config, 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection: { leaderElect: false }\n');
    const child = spawn(process.execPath, [bin, 'run', '--kubeconfig', kubeconfig, '--config', config, '--secure-port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const end = Date.now() + 30_000;
      while (cluster.get<Pod>('Pod', 'default', 'p')?.spec.nodeName === undefined) {
        if (Date.now() > end || child.exitCode !== null) assert.fail(`pod not bound; stderr:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(cluster.get<Pod>('Pod', 'default', 'p')?.spec.nodeName, 'a');
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr);
    } finally {
      child.kill('SIGKILL');
      await api.close();
    }
  });
});
