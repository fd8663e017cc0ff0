import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listKeyOf, resourceSpec } from '../../cluster/kube/resources.js';
import { loadKubeConfig } from '../../cluster/kube/rest.js';
import { startFirstLists, targetOf } from './run_first_lists.js';

const kubeconfigYaml = (server: string, user: string) => `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: '${server}'}
users:
- name: ${user}
  user: {token: ${user}-token}
contexts:
- name: c
  context: {cluster: c, user: ${user}}
current-context: c
`;

/** An API server answering every list with one object named after the path, recording the requests. */
async function listServer(): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.headers.authorization} ${decodeURIComponent(req.url ?? '')}`);
    const name = new URL(req.url ?? '/', 'http://x').pathname.split('/').at(-1);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ metadata: { resourceVersion: '42' }, items: [{ metadata: { name, resourceVersion: '41' } }] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

test('run\'s first lists go to the kubeconfig of --kubeconfig or of the configuration file, as the client would send them', async () => {
  const api = await listServer();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'first-lists-'));
    const viaFlag = join(dir, 'flag.kubeconfig');
    const viaConfig = join(dir, 'config.kubeconfig');
    writeFileSync(viaFlag, kubeconfigYaml(api.url, 'flag'));
    writeFileSync(viaConfig, kubeconfigYaml(api.url, 'config'));
    const config = join(dir, 'scheduler.yaml');
    writeFileSync(config, `apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nclientConnection:\n  kubeconfig: ${viaConfig}\n`);

    const cases = [
      { argv: ['--kubeconfig', viaFlag, '--config', config, '--leader-elect=false'], user: 'flag', kubeconfig: viaFlag },
      { argv: ['--config', config, '--leader-elect', 'false'], user: 'config', kubeconfig: viaConfig },
    ];
    for (const c of cases) {
      api.requests.length = 0;
      const first = startFirstLists(c.argv);
      assert.ok(first);
      assert.equal(first.target, targetOf(loadKubeConfig(c.kubeconfig)), 'a client of the same kubeconfig takes them');
      assert.notEqual(first.target, targetOf(loadKubeConfig(c.kubeconfig === viaFlag ? viaConfig : viaFlag)), 'another user does not');
      const nodes = await first.lists.get(listKeyOf(resourceSpec('Node')));
      const pods = await first.lists.get(listKeyOf(resourceSpec('Pod')));
      assert.deepEqual([nodes?.items[0]?.metadata?.name, nodes?.resourceVersion], ['nodes', '42']);
      assert.deepEqual([pods?.items[0]?.metadata?.name, pods?.resourceVersion], ['pods', '42']);
      assert.deepEqual(api.requests.sort(), [
        `Bearer ${c.user}-token /api/v1/nodes?resourceVersion=0&limit=500`,
        `Bearer ${c.user}-token /api/v1/pods?fieldSelector=status.phase!=Succeeded,status.phase!=Failed&resourceVersion=0&limit=500`,
      ]);
    }
    assert.equal(startFirstLists(['--no-such-flag']), null, 'bad flags send nothing');
    assert.equal(startFirstLists(['--kubeconfig', join(dir, 'missing')]), null, 'an unreadable kubeconfig sends nothing');
  } finally {
    await api.close();
  }
});

test('with leader election on, run\'s first requests read the Lease it would elect on (the flags over the configuration file), and only read it', async () => {
  const api = await listServer();
  try {
    const dir = mkdtempSync(join(tmpdir(), 'first-lease-'));
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kubeconfigYaml(api.url, 'u'));
    let files = 0;
    const configWith = (le: string) => {
      const file = join(dir, `c${files++}.yaml`);
      writeFileSync(file, `apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nclientConnection:\n  kubeconfig: ${kubeconfig}\n${le}`);
      return file;
    };
    const leasePath = (ns: string, name: string) => `Bearer u-token /apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${name}`;
    const cases = [
      { name: 'defaults', argv: ['--config', configWith('')], want: { namespace: 'kube-system', name: 'kube-scheduler' } },
      { name: 'the file names it', argv: ['--config', configWith('leaderElection:\n  resourceName: mine\n  resourceNamespace: ns1\n')], want: { namespace: 'ns1', name: 'mine' } },
      { name: 'flags over the file', argv: ['--config', configWith('leaderElection:\n  resourceName: mine\n'), '--leader-elect-resource-name', 'theirs', '--leader-elect-resource-namespace', 'ns2'], want: { namespace: 'ns2', name: 'theirs' } },
      { name: 'off in the file', argv: ['--config', configWith('leaderElection:\n  leaderElect: false\n')], want: null },
      { name: 'off in the file, on by the flag', argv: ['--config', configWith('leaderElection:\n  leaderElect: false\n'), '--leader-elect=true'], want: { namespace: 'kube-system', name: 'kube-scheduler' } },
    ];
    for (const c of cases) {
      api.requests.length = 0;
      const first = startFirstLists(c.argv);
      assert.ok(first, c.name);
      assert.deepEqual(first.lease ? { namespace: first.lease.namespace, name: first.lease.name } : null, c.want, c.name);
      await first.lease?.read;
      await Promise.all(first.lists.values());
      const leaseRequests = api.requests.filter((r) => r.includes('/leases/'));
      assert.deepEqual(leaseRequests, c.want ? [leasePath(c.want.namespace, c.want.name)] : [], c.name);
    }
  } finally {
    await api.close();
  }
});

test('`sent` resolves once the first lists\' requests are out, before any answer, and also when they cannot go out', async () => {
  // An API server that answers nothing until told: `sent` may not wait for the answers.
  const arrived: string[] = [];
  const held: http.ServerResponse[] = [];
  let allArrived!: () => void;
  const bothArrived = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  const server = http.createServer((req, res) => {
    arrived.push(new URL(req.url ?? '/', 'http://x').pathname);
    held.push(res);
    if (arrived.length === 2) allArrived();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const dir = mkdtempSync(join(tmpdir(), 'first-sent-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(`http://127.0.0.1:${port}`, 'u'));
  try {
    const first = startFirstLists(['--kubeconfig', kubeconfig, '--leader-elect=false']);
    assert.ok(first);
    let answered = false;
    const lists = Promise.all(first.lists.values()).then(() => {
      answered = true;
    });
    await first.sent;
    assert.equal(answered, false, 'sent before any answer');
    await bothArrived;
    assert.deepEqual(arrived.sort(), ['/api/v1/nodes', '/api/v1/pods']);
    for (const res of held) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ metadata: { resourceVersion: '7' }, items: [] }));
    }
    await lists;
    assert.equal(answered, true);
  } finally {
    for (const res of held) res.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }

  // Nothing listens any more: the requests fail, and `sent` resolves all the same.
  const refused = startFirstLists(['--kubeconfig', kubeconfig, '--leader-elect=false']);
  assert.ok(refused);
  await refused.sent;
  for (const listed of refused.lists.values()) await assert.rejects(listed);
});
