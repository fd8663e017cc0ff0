import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../../api/types.js';
import { StatusError } from './errors.js';
import { ClusterImportError, importCluster, importedResources } from './import.js';
import { HttpTransport, type RestRequest, type RestTransport } from './rest.js';

/** A transport answering lists from `objects` by path, paged by `limit`; `fail` answers a path with an error instead. */
class FakeLists implements RestTransport {
  readonly requests: RestRequest[] = [];
  constructor(
    private readonly objects: Record<string, KubeObject[]>,
    private readonly fail: (req: RestRequest) => Error | null = () => null,
  ) {}

  request<T>(req: RestRequest): Promise<T> {
    this.requests.push(req);
    const err = this.fail(req);
    if (err) return Promise.reject(err);
    const all = this.objects[req.path] ?? [];
    const start = Number(req.query?.continue ?? '0');
    const limit = Number(req.query?.limit ?? '0');
    const end = limit > 0 ? Math.min(all.length, start + limit) : all.length;
    const metadata = end < all.length ? { continue: String(end) } : {};
    return Promise.resolve({ items: structuredClone(all.slice(start, end)), metadata } as T);
  }

  watch(): never {
    throw new Error('imports do not watch');
  }
}

const node = (name: string): KubeObject => ({ metadata: { name, uid: `uid-${name}`, resourceVersion: '7', managedFields: [{ manager: 'kubelet' }] } as KubeObject['metadata'] });
const pod = (name: string, phase = 'Running', namespace = 'default'): KubeObject =>
  ({ metadata: { name, namespace, uid: `uid-${name}`, creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { nodeName: 'n1' }, status: { phase } }) as KubeObject;
const names = (objs: readonly KubeObject[], kind: string) => objs.filter((o) => o.kind === kind).map((o) => o.metadata?.name);
const server = 'https://10.0.0.1:6443';

test('imports every kind page by page, sets kinds, keeps uids and drops server-managed fields', async () => {
  const nodes = Array.from({ length: 5 }, (_, i) => node(`n${i}`));
  const t = new FakeLists({ '/api/v1/nodes': nodes, '/api/v1/pods': [pod('a'), pod('b')] });
  const { objects, skipped } = await importCluster({ transport: t, server, pageSize: 2 });
  assert.deepEqual(skipped, []);
  assert.deepEqual(names(objects, 'Node'), ['n0', 'n1', 'n2', 'n3', 'n4']);
  const n0 = objects.find((o) => o.metadata?.name === 'n0')!;
  assert.equal(n0.apiVersion, 'v1');
  assert.deepEqual(n0.metadata, { name: 'n0', uid: 'uid-n0' });
  // Five nodes in pages of two: three requests, the last two with the previous page's token.
  const nodeLists = t.requests.filter((r) => r.path === '/api/v1/nodes');
  assert.deepEqual(nodeLists.map((r) => [r.query?.limit, r.query?.continue]), [['2', undefined], ['2', '2'], ['2', '4']]);
  // Every kind was asked for once at least, pods last.
  assert.deepEqual([...new Set(t.requests.map((r) => r.path))], importedResources.map((r) => r.path));
});

test('pods: finished ones are left out, selectors are passed, namespaces are read one by one', async () => {
  const t = new FakeLists({
    '/api/v1/namespaces/a/pods': [pod('run', 'Running', 'a'), pod('done', 'Succeeded', 'a'), pod('failed', 'Failed', 'a')],
    '/api/v1/namespaces/b/pods': [pod('pending', 'Pending', 'b')],
    '/api/v1/nodes': [node('n1')],
  });
  const { objects } = await importCluster({ transport: t, server, namespaces: ['a', 'b'], labelSelector: 'app=web', fieldSelector: 'spec.schedulerName=x' });
  assert.deepEqual(names(objects, 'Pod'), ['run', 'pending']);
  const podList = t.requests.find((r) => r.path === '/api/v1/namespaces/a/pods')!;
  assert.equal(podList.query?.labelSelector, 'app=web');
  assert.equal(podList.query?.fieldSelector, 'status.phase!=Succeeded,status.phase!=Failed,spec.schedulerName=x');
  // Cluster-scoped kinds come whole; namespaced kinds only from the namespaces asked for.
  assert.ok(t.requests.some((r) => r.path === '/api/v1/persistentvolumes'));
  assert.ok(t.requests.some((r) => r.path === '/apis/apps/v1/namespaces/b/replicasets'));
  assert.ok(!t.requests.some((r) => r.path === '/apis/apps/v1/replicasets'));
});

test('pod groups of both APIs are imported where served, and skipped quietly where not (gate off, no CRD)', async () => {
  const warnings: string[] = [];
  const gang = { metadata: { name: 'gang', namespace: 'default' }, spec: { minMember: 2 } } as KubeObject;
  const notServed = (req: RestRequest) => (req.path.startsWith('/apis/scheduling.k8s.io/v1beta1/') || req.path.startsWith('/apis/scheduling.k8s.io/v1alpha3/') ? new StatusError(404, 'the server could not find the requested resource', 'NotFound') : null);
  const t = new FakeLists({ '/apis/scheduling.x-k8s.io/v1alpha1/podgroups': [gang] }, notServed);
  const { objects, skipped } = await importCluster({ transport: t, server, warn: (m) => warnings.push(m) });
  assert.deepEqual(skipped, ['Workload', 'CompositePodGroup', 'PodGroup']);
  assert.deepEqual(warnings, []);
  const imported = objects.find((o) => o.metadata?.name === 'gang')!;
  assert.deepEqual([imported.apiVersion, imported.kind], ['scheduling.x-k8s.io/v1alpha1', 'PodGroup']);
  const later: string[] = [];
  const none = await importCluster({ transport: new FakeLists({}, (req) => (req.path.includes('podgroups') ? new StatusError(404, 'not found', 'NotFound') : null)), server, warn: (m) => later.push(m) });
  assert.deepEqual(none.skipped, ['CompositePodGroup', 'PodGroup', 'PodGroup.scheduling.x-k8s.io']);
  assert.deepEqual(later, []);
});

test('a kind the server does not serve is skipped with a warning', async () => {
  const warnings: string[] = [];
  const t = new FakeLists({ '/api/v1/nodes': [node('n1')] }, (req) => (req.path.startsWith('/apis/resource.k8s.io/') ? new StatusError(404, 'the server could not find the requested resource', 'NotFound') : null));
  const { objects, skipped } = await importCluster({ transport: t, server, warn: (m) => warnings.push(m) });
  assert.deepEqual(skipped, ['DeviceClass', 'DeviceTaintRule', 'ResourceSlice', 'ResourceClaim', 'ResourceClaimTemplate']);
  assert.equal(warnings[0], 'the API server does not serve resource.k8s.io/v1 deviceclasses: no DeviceClass objects imported');
  assert.deepEqual(names(objects, 'Node'), ['n1']);
});

test('an expired continue token falls back to one full list', async () => {
  const nodes = Array.from({ length: 3 }, (_, i) => node(`n${i}`));
  const t = new FakeLists({ '/api/v1/nodes': nodes }, (req) => (req.path === '/api/v1/nodes' && req.query?.continue ? new StatusError(410, 'continue token expired', 'Expired') : null));
  const { objects } = await importCluster({ transport: t, server, pageSize: 2 });
  assert.deepEqual(names(objects, 'Node'), ['n0', 'n1', 'n2']);
});

test('errors say what to fix', async () => {
  const cases: { name: string; fail: (req: RestRequest) => Error | null; namespaces?: string[]; want: string }[] = [
    {
      name: '403 on a cluster-scoped kind names the grant',
      fail: (req) => (req.path === '/api/v1/persistentvolumes' ? new StatusError(403, 'forbidden', 'Forbidden') : null),
      want: "cannot list persistentvolumes at the cluster scope: grant get/list on persistentvolumes (deploy/rbac.yaml's ClusterRole kube-scheduler-ts-import has every kind an import reads)",
    },
    {
      name: '403 in a namespace names the namespace and the group',
      fail: (req) => (req.path === '/apis/apps/v1/namespaces/team/statefulsets' ? new StatusError(403, 'forbidden', 'Forbidden') : null),
      namespaces: ['team'],
      want: "cannot list statefulsets in namespace \"team\": grant get/list on statefulsets.apps (deploy/rbac.yaml's ClusterRole kube-scheduler-ts-import has every kind an import reads)",
    },
    {
      name: '403 on a kind only simulations read names the same import role',
      fail: (req) => (req.path === '/apis/scheduling.k8s.io/v1/priorityclasses' ? new StatusError(403, 'forbidden', 'Forbidden') : null),
      want: 'cannot list priorityclasses at the cluster scope: grant get/list on priorityclasses.scheduling.k8s.io (deploy/rbac.yaml\'s ClusterRole kube-scheduler-ts-import has every kind an import reads)',
    },
    {
      name: '401 points at the credentials',
      fail: () => new StatusError(401, 'Unauthorized', 'Unauthorized'),
      want: "the API server at https://10.0.0.1:6443 did not accept our credentials (401 Unauthorized): check the kubeconfig's user (token, client certificate)",
    },
    {
      name: 'another server error is passed on with its code',
      fail: (req) => (req.path === '/api/v1/nodes' ? new StatusError(500, 'etcd is down', 'InternalError') : null),
      want: 'cannot list nodes at the cluster scope: 500 etcd is down',
    },
  ];
  for (const c of cases) {
    await assert.rejects(importCluster({ transport: new FakeLists({}, c.fail), server, namespaces: c.namespaces }), (err: Error) => {
      assert.ok(err instanceof ClusterImportError, c.name);
      assert.equal(err.message, c.want, c.name);
      return true;
    });
  }
});

test('an unreachable API server is named with the connection error', async () => {
  // A port that was just free: nothing listens there.
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const kc = new KubeConfig();
  kc.loadFromOptions({ clusters: [{ name: 'c', server: url }], users: [{ name: 'u' }], contexts: [{ name: 'c', cluster: 'c', user: 'u' }], currentContext: 'c' });
  const transport = new HttpTransport(kc);
  try {
    await assert.rejects(importCluster({ transport, server: url }), { name: 'ClusterImportError', message: `cannot reach the API server at ${url}: connect ECONNREFUSED 127.0.0.1:${port}` });
  } finally {
    transport.destroy();
  }
});
