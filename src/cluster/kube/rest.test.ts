import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { KubeConfig } from '@kubernetes/client-node';
import { FakeClock } from '../../util/clock.js';
import { StatusError } from './errors.js';
import { HttpTransport, KubeConfigError, loadKubeConfig } from './rest.js';

const kubeconfigText = (cluster: string) => `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: ${cluster}
users:
- name: u
  user: {}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`;

test('kubeconfig problems are one clear KubeConfigError naming the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-kc-'));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const cases: { name: string; path: string; want: RegExp }[] = [
    { name: 'missing file', path: join(dir, 'missing'), want: /^\/.*\/missing: no such file$/ },
    { name: 'empty file', path: file('empty', ''), want: /empty: empty file$/ },
    { name: 'not YAML', path: file('garbage', '{{{ nope: ['), want: /garbage: not a valid kubeconfig: unexpected end of the stream/ },
    { name: 'cluster without a server', path: file('noserver', kubeconfigText('{}')), want: /noserver: cluster 0 has no server \(clusters\[0\]\.cluster\.server\)$/ },
    { name: 'no cluster at all', path: file('nocluster', 'apiVersion: v1\nkind: Config\n'), want: /nocluster: no cluster to talk to/ },
    { name: 'server not a URL', path: file('badurl', kubeconfigText('{server: "::nope"}')), want: /badurl: cluster "c" has an invalid server URL "::nope"$/ },
  ];
  for (const c of cases) {
    assert.throws(() => loadKubeConfig(c.path), (err: unknown) => err instanceof KubeConfigError && c.want.test(err.message), c.name);
  }
  const ok = loadKubeConfig(file('ok', kubeconfigText('{server: "https://127.0.0.1:6443"}')));
  assert.equal(ok.getCurrentCluster()?.server, 'https://127.0.0.1:6443');
  assert.equal(loadKubeConfig(file('master', kubeconfigText('{server: "https://127.0.0.1:6443"}')), 'http://127.0.0.1:8080').getCurrentCluster()?.server, 'http://127.0.0.1:8080');
});

function kubeconfigFor(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
    currentContext: 'c',
  });
  return kc;
}

/** A loopback server answering each request with the next scripted reply. */
async function scriptedServer(replies: ((res: http.ServerResponse) => void)[]) {
  const seen: string[] = [];
  const encodings: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    encodings.push(req.headers['accept-encoding']);
    (replies.shift() ?? ((r) => r.writeHead(500).end()))(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, encodings, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** Waits (bounded) until the transport has set a timer on the fake clock, then fires it. */
async function fireNextTimer(clock: FakeClock): Promise<number> {
  for (let i = 0; i < 1000 && clock.nextTimerAt() === undefined; i++) await new Promise<void>((r) => setImmediate(r));
  const at = clock.nextTimerAt();
  assert.ok(at !== undefined, 'a retry was scheduled');
  const waited = at - clock.now();
  clock.runUntil(at);
  return waited;
}

const json = (code: number, body: unknown, headers: Record<string, string> = {}) => (res: http.ServerResponse) => {
  res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

test('a 429 or 5xx with Retry-After is sent again after that wait; without it the Status error is returned', async () => {
  const s = await scriptedServer([
    json(429, { kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'slow down' }, { 'Retry-After': '3' }),
    json(503, { kind: 'Status', code: 503, reason: 'ServiceUnavailable', message: 'starting' }, { 'Retry-After': '1' }),
    json(201, { kind: 'Binding' }),
    json(500, { kind: 'Status', code: 500, reason: 'InternalError', message: 'boom', details: { causes: [{ message: 'boom' }] } }),
  ]);
  const clock = new FakeClock(0);
  const t = new HttpTransport(kubeconfigFor(s.url), { clock });
  try {
    const answer = t.request({ method: 'POST', path: '/api/v1/namespaces/d/pods/p/binding', body: {} });
    assert.equal(await fireNextTimer(clock), 3000);
    assert.equal(await fireNextTimer(clock), 1000);
    assert.deepEqual(await answer, { kind: 'Binding' });
    await assert.rejects(t.request({ method: 'GET', path: '/api/v1/pods' }), (err: unknown) => err instanceof StatusError && err.code === 500 && err.reason === 'InternalError' && err.message === 'boom');
    assert.equal(s.seen.length, 4);
  } finally {
    t.destroy();
    await s.close();
  }
});

test('answers are asked for gzipped, as client-go does, and a gzipped answer or Status is inflated', async () => {
  const gzipped = (code: number, body: unknown) => (res: http.ServerResponse) => {
    res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    res.end(gzipSync(JSON.stringify(body)));
  };
  // About 700 kB inflated: several of the transport's inflate chunks, joined in order.
  const items = Array.from({ length: 20000 }, (_, i) => ({ metadata: { name: `node-${i}` } }));
  const s = await scriptedServer([
    gzipped(200, { kind: 'NodeList', items }),
    json(201, { kind: 'Binding' }),
    gzipped(409, { kind: 'Status', code: 409, reason: 'Conflict', message: 'taken' }),
    (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end('not gzip at all');
    },
  ]);
  const t = new HttpTransport(kubeconfigFor(s.url));
  try {
    assert.deepEqual(await t.request({ method: 'GET', path: '/api/v1/nodes' }), { kind: 'NodeList', items });
    assert.deepEqual(await t.request({ method: 'POST', path: '/api/v1/namespaces/d/pods/p/binding', body: {} }), { kind: 'Binding' });
    await assert.rejects(t.request({ method: 'POST', path: '/api/v1/namespaces/d/pods/p/binding', body: {} }), (err: unknown) => err instanceof StatusError && err.code === 409 && err.message === 'taken');
    await assert.rejects(t.request({ method: 'GET', path: '/api/v1/pods' }), /incorrect header check/);
    assert.deepEqual(s.encodings, ['gzip', 'gzip', 'gzip', 'gzip']);
  } finally {
    t.destroy();
    await s.close();
  }
});

test("a kubeconfig cluster's disable-compression leaves gzip out of that cluster's requests only", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-kc-gzip-'));
  const s = await scriptedServer([json(200, { kind: 'NodeList', items: [] }), json(200, { kind: 'NodeList', items: [] }), json(200, { kind: 'NodeList', items: [] })]);
  // Two clusters at the same server; only "plain" turns compression off.
  const config = (current: string, flag: string) => {
    const p = join(dir, `${current}-${flag}`);
    writeFileSync(p, `apiVersion: v1
kind: Config
clusters:
- name: plain
  cluster: {server: "${s.url}", disable-compression: ${flag}}
- name: zipped
  cluster: {server: "${s.url}"}
users:
- name: u
  user: {}
contexts:
- name: plain
  context: {cluster: plain, user: u}
- name: zipped
  context: {cluster: zipped, user: u}
current-context: ${current}
`);
    return p;
  };
  const transports = [config('plain', 'true'), config('zipped', 'true'), config('plain', 'false')].map((p) => new HttpTransport(loadKubeConfig(p)));
  try {
    for (const t of transports) await t.request({ method: 'GET', path: '/api/v1/nodes' });
    assert.deepEqual(s.encodings, [undefined, 'gzip', 'gzip']);
  } finally {
    for (const t of transports) t.destroy();
    await s.close();
  }
});

test('a GET whose connection breaks is retried after a second; a write is not repeated', async () => {
  const cut = (res: http.ServerResponse) => res.socket?.destroy();
  const s = await scriptedServer([cut, json(200, { items: [] }), cut]);
  const clock = new FakeClock(0);
  const t = new HttpTransport(kubeconfigFor(s.url), { clock });
  try {
    const list = t.request({ method: 'GET', path: '/api/v1/pods' });
    assert.equal(await fireNextTimer(clock), 1000);
    assert.deepEqual(await list, { items: [] });
    await assert.rejects(t.request({ method: 'POST', path: '/api/v1/namespaces/d/pods/p/binding', body: {} }), /socket hang up|ECONNRESET|aborted/);
    assert.equal(s.seen.length, 3);
  } finally {
    t.destroy();
    await s.close();
  }
});

test('a watch tells when the server accepted it, and a refused one carries the Status and Retry-After', async () => {
  const s = await scriptedServer([
    json(504, { kind: 'Status', code: 504, reason: 'Timeout', message: 'Timeout: Too large resource version: 9, current: 3', details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 } }, { 'Retry-After': '1' }),
    (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '4' } } })}\n`);
      res.end();
    },
  ]);
  const t = new HttpTransport(kubeconfigFor(s.url));
  try {
    const refused = await new Promise<Error | null>((resolve) => t.watch('/api/v1/pods', { resourceVersion: '9' }, () => undefined, resolve, () => resolve(new Error('opened'))));
    assert.ok(refused instanceof StatusError);
    assert.equal(refused.code, 504);
    assert.deepEqual(refused.causes, [{ reason: 'ResourceVersionTooLarge' }]);
    assert.equal(refused.retryAfterSeconds, 1);
    const seen: string[] = [];
    const closed = await new Promise<Error | null>((resolve) => t.watch('/api/v1/pods', { resourceVersion: '3' }, (e) => seen.push(`${e.type} ${String((e.object.metadata as { name: string }).name)}`), resolve, () => seen.push('open')));
    assert.equal(closed, null);
    assert.deepEqual(seen, ['open', 'ADDED a']);
    assert.match(s.seen[1]!, /watch=true/);
  } finally {
    t.destroy();
    await s.close();
  }
});

test("the kubeconfig's credentials are asked for once a second at most; a rotated token is used after that, and a failure is not kept", async () => {
  const authorizations: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A kubeconfig whose token rotates on every ask, as an exec plugin's or a token file's may.
  let asked = 0;
  let failNext = false;
  class RotatingKubeConfig extends KubeConfig {
    override applyToHTTPSOptions(opts: https.RequestOptions): Promise<void> {
      asked++;
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('exec plugin failed'));
      }
      opts.headers = { ...opts.headers, Authorization: `Bearer token-${asked}` };
      return Promise.resolve();
    }
  }
  const kc = new RotatingKubeConfig();
  kc.loadFromOptions({ clusters: [{ name: 'c', server: url, skipTLSVerify: true }], users: [{ name: 'u' }], contexts: [{ name: 'c', cluster: 'c', user: 'u' }], currentContext: 'c' });
  const clock = new FakeClock(0);
  const t = new HttpTransport(kc, { clock });
  try {
    await Promise.all(Array.from({ length: 5 }, () => t.request({ method: 'GET', path: '/api/v1/pods' })));
    clock.advance(999);
    await t.request({ method: 'GET', path: '/api/v1/pods' });
    assert.equal(asked, 1, 'six requests within a second: asked once');
    clock.advance(1);
    await t.request({ method: 'GET', path: '/api/v1/pods' });
    assert.equal(asked, 2);
    assert.deepEqual(authorizations, [...Array(6).fill('Bearer token-1'), 'Bearer token-2']);
    clock.advance(1000);
    failNext = true;
    await assert.rejects(t.request({ method: 'GET', path: '/api/v1/pods' }), /exec plugin failed/);
    await t.request({ method: 'GET', path: '/api/v1/pods' });
    assert.equal(asked, 4, 'the failed ask is not kept');
    assert.equal(authorizations.at(-1), 'Bearer token-4');
  } finally {
    t.destroy();
    await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  }
});

test('a list asked for without managedFields is decoded without them; other answers keep theirs', async () => {
  const mf = [{ manager: 'kubelet', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': {} } }];
  const items = Array.from({ length: 3 }, (_, i) => ({ metadata: { name: `node-${i}`, uid: `u${i}`, managedFields: mf }, spec: {}, status: {} }));
  const s = await scriptedServer([json(200, { kind: 'NodeList', items }), json(200, { kind: 'NodeList', items })]);
  const t = new HttpTransport(kubeconfigFor(s.url));
  try {
    const trimmed = await t.request<{ items: { metadata: Record<string, unknown> }[] }>({ method: 'GET', path: '/api/v1/nodes', withoutManagedFields: true });
    assert.deepEqual(trimmed.items.map((it) => Object.keys(it.metadata)), [['name', 'uid'], ['name', 'uid'], ['name', 'uid']]);
    assert.deepEqual(await t.request({ method: 'GET', path: '/api/v1/nodes' }), { kind: 'NodeList', items });
  } finally {
    t.destroy();
    await s.close();
  }
});
