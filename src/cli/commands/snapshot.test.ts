// `snapshot` and `--from-cluster` against the embedded API server on loopback: the imported
// scenario holds the served objects and schedules pending pods as the original does.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { KubeObject } from '../../api/types.js';
import { admitPod } from '../../cluster/memory/admission.js';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { loadScenario, parseScenario, type Scenario } from '../../sim/scenario/scenario.js';
import { serveScenario, type Serving } from '../../sim/serve/serve.js';
import { runSimulation } from '../../sim/simulate/simulate.js';
import { runCli } from '../main.js';
import { serveInBackground } from './test_helpers.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, admitPod, seed: 3 };

const node = (name: string, zone: string) => `
- metadata: { name: ${name}, labels: { kubernetes.io/hostname: ${name}, topology.kubernetes.io/zone: ${zone} } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "20" }, capacity: { cpu: "4", memory: 8Gi, pods: "20" } }`;

const served = parseScenario(`
metadata: { name: served }
objects:
- { apiVersion: v1, kind: Namespace, metadata: { name: team } }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 1000 }
- apiVersion: storage.k8s.io/v1
  kind: StorageClass
  metadata: { name: local }
  provisioner: kubernetes.io/no-provisioner
  volumeBindingMode: WaitForFirstConsumer
- apiVersion: v1
  kind: PersistentVolume
  metadata: { name: pv-n2 }
  spec:
    capacity: { storage: 10Gi }
    accessModes: [ReadWriteOnce]
    storageClassName: local
    local: { path: /data }
    nodeAffinity: { required: { nodeSelectorTerms: [ { matchExpressions: [ { key: kubernetes.io/hostname, operator: In, values: [n2] } ] } ] } }
  status: { phase: Available }
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: { name: data, namespace: team }
  spec: { accessModes: [ReadWriteOnce], storageClassName: local, resources: { requests: { storage: 5Gi } } }
- apiVersion: v1
  kind: Service
  metadata: { name: web, namespace: team }
  spec: { selector: { app: web }, ports: [ { port: 80 } ] }
- apiVersion: policy/v1
  kind: PodDisruptionBudget
  metadata: { name: web, namespace: team }
  spec: { minAvailable: 1, selector: { matchLabels: { app: web } } }
nodes:${node('n1', 'a')}${node('n2', 'b')}${node('n3', 'b')}
pods:
- metadata: { name: web-0, namespace: team, labels: { app: web }, creationTimestamp: "2026-01-01T00:00:00Z" }
  spec: { nodeName: n1, containers: [ { name: c, image: nginx, resources: { requests: { cpu: "2", memory: 2Gi } } } ] }
pending:
- metadata: { name: elsewhere, namespace: team }
  spec: { schedulerName: other-scheduler, containers: [ { name: c, image: nginx } ] }
`, 'served.yaml');

// Scheduled against both the served scenario and its snapshot.
const pending = parseScenario(`
objects:
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 1000 }
pending:
- metadata: { name: web-1, namespace: team, labels: { app: web } }
  spec: { containers: [ { name: c, image: nginx, resources: { requests: { cpu: "1" } } } ] }
- metadata: { name: db, namespace: team }
  spec:
    priorityClassName: high
    containers: [ { name: c, image: postgres, resources: { requests: { cpu: "1" } } } ]
    volumes: [ { name: d, persistentVolumeClaim: { claimName: data } } ]
- metadata: { name: web-2, namespace: team, labels: { app: web } }
  spec: { containers: [ { name: c, image: nginx, resources: { requests: { cpu: "3" } } } ] }
`, 'pending.yaml').pending;

const kubeconfigYaml = (server: string) => `apiVersion: v1
kind: Config
clusters: [ { name: c, cluster: { server: ${server} } } ]
users: [ { name: me, user: {} } ]
contexts: [ { name: c, context: { cluster: c, user: me } } ]
current-context: c
`;

let serving: Serving;
let dir: string;
let kubeconfig: string;

before(async () => {
  serving = await serveScenario(served, { ...opts, port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'snapshot-test-'));
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(serving.url));
});

after(async () => {
  await serving.close();
});

const keyOf = (o: KubeObject) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const keys = (sc: Scenario) => [...sc.objects, ...sc.nodes, ...sc.pods, ...sc.pending].map(keyOf).sort();

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

test('snapshot writes the served cluster as a scenario that schedules as the original', { timeout: 60_000 }, async () => {
  const file = join(dir, 'snapshot.yaml');
  const { code, err } = await cli(['snapshot', '--kubeconfig', kubeconfig, '--page-size', '1', '-o', file]);
  assert.equal(code, 0, err);
  assert.match(err, /note: 1 unbound pod\(s\) of other schedulers left out/);
  // The embedded server serves Deployments, DaemonSets and Jobs too: nothing is skipped.
  assert.doesNotMatch(err, /does not serve/);
  const snap = loadScenario(file);
  // A served cluster has the built-in PriorityClasses, as every cluster: they come along.
  const builtin = ['PriorityClass//system-cluster-critical', 'PriorityClass//system-node-critical'];
  const want = [...keys({ ...served, pending: [] }).filter((k) => k !== 'Namespace//default'), ...builtin].sort();
  assert.deepEqual(keys(snap).filter((k) => !k.startsWith('Namespace/') || want.includes(k)), want);
  const web0 = snap.pods.find((p) => p.metadata.name === 'web-0')!;
  assert.equal(web0.spec.nodeName, 'n1');
  assert.ok(web0.metadata.uid, 'uids are kept');
  assert.equal(web0.metadata.creationTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(web0.metadata.resourceVersion, undefined);
  assert.ok(!readFileSync(file, 'utf8').includes('managedFields'));
  assert.deepEqual(snap.nodes.map((n) => n.status?.allocatable), served.nodes.map((n) => n.status?.allocatable));

  const decisions = async (sc: Scenario) => (await runSimulation({ ...sc, pending: structuredClone(pending) }, opts)).pods.map((p) => [p.pod, p.node || p.outcome, p.message]);
  const original = await decisions({ ...served, pending: [] });
  assert.deepEqual(await decisions(snap), original);
  // The claim's only volume is on n2: the import carried the PV, PVC and StorageClass.
  assert.ok(original.some(([pod, n]) => pod === 'team/db' && n === 'n2'), JSON.stringify(original));
});

test('snapshot --config: pending pods of its profiles come along, and the configuration with them', { timeout: 60_000 }, async () => {
  const config = join(dir, 'config.yaml');
  writeFileSync(config, 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: other-scheduler\n');
  const file = join(dir, 'other.yaml');
  const { code, err } = await cli(['snapshot', '--kubeconfig', kubeconfig, '--config', config, '-o', file]);
  assert.equal(code, 0, err);
  const snap = loadScenario(file);
  assert.deepEqual(snap.pending.map((p) => p.metadata.name), ['elsewhere']);
  assert.deepEqual(snap.config?.profiles, [{ schedulerName: 'other-scheduler' }]);
});

test('simulate --from-cluster reads namespaces and selectors as asked', { timeout: 60_000 }, async () => {
  const { code, out, err } = await cli(['simulate', '--from-cluster', '--kubeconfig', kubeconfig, '-n', 'default', '-l', 'app=none', '-o', 'json']);
  assert.equal(code, 0, err);
  const report = JSON.parse(out) as { nodes: { node: string; pods: { count: number } }[] };
  // Only the nodes came: web-0 is in another namespace, so no node carries a pod.
  assert.deepEqual(report.nodes.map((n) => [n.node, n.pods.count]), [['n1', 0], ['n2', 0], ['n3', 0]]);
});

test('serve --from-cluster serves a copy of the imported cluster', { timeout: 60_000 }, async () => {
  const serve = serveInBackground(['--from-cluster', '--kubeconfig', kubeconfig, '--port', '0'], { stdout: () => undefined, stderr: () => undefined });
  const copy = await serve.serving;
  assert.deepEqual(copy.cluster.listNodes().map((n) => n.metadata.name), ['n1', 'n2', 'n3']);
  assert.equal(copy.cluster.getPod('team', 'web-0')?.spec.nodeName, 'n1');
  serve.stop();
  assert.equal(await serve.done, 0);
});

test('--from-cluster refuses a scenario file and cluster flags without it', async () => {
  const both = await cli(['simulate', '--from-cluster', 'x.yaml']);
  assert.equal(both.code, 2);
  assert.match(both.err, /--from-cluster reads the cluster instead of a scenario file; drop "x.yaml"/);
  const stray = await cli(['explain', '--namespace', 'a']);
  assert.equal(stray.code, 2);
  assert.match(stray.err, /--namespace needs --from-cluster/);
  const missing = await cli(['snapshot', '--kubeconfig', '/nonexistent/kubeconfig']);
  assert.equal(missing.code, 2);
  assert.equal(missing.err, 'error: --from-cluster: /nonexistent/kubeconfig: no such file\n');
  const qps = await cli(['snapshot', '--kube-api-qps', '0']);
  assert.equal(qps.code, 2);
  assert.match(qps.err, /--kube-api-qps must be a positive number, got "0"/);
});

test('a 403 on one resource fails the import with what to grant (exit 2)', { timeout: 30_000 }, async () => {
  // The embedded server authorizes everything: a tiny server that forbids PersistentVolumes.
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url?.startsWith('/api/v1/persistentvolumes')) {
      res.statusCode = 403;
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403,
        message: 'persistentvolumes is forbidden: User "me" cannot list resource "persistentvolumes" in API group "" at the cluster scope' }));
      return;
    }
    res.end(JSON.stringify({ kind: 'List', apiVersion: 'v1', metadata: {}, items: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const file = join(dir, 'forbidden-kubeconfig');
  writeFileSync(file, kubeconfigYaml(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  try {
    const { code, err } = await cli(['snapshot', '--kubeconfig', file]);
    assert.equal(code, 2);
    assert.equal(err, "error: cannot list persistentvolumes at the cluster scope: grant get/list on persistentvolumes (deploy/rbac.yaml's ClusterRole kube-scheduler-ts-import has every kind an import reads)\n");
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('an unreachable cluster is a clear error (exit 2)', { timeout: 30_000 }, async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  const file = join(dir, 'unreachable-kubeconfig');
  writeFileSync(file, kubeconfigYaml(`http://127.0.0.1:${port}`));
  const { code, err } = await cli(['explain', '--from-cluster', '--kubeconfig', file]);
  assert.equal(code, 2);
  assert.equal(err, `error: cannot reach the API server at http://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}\n`);
});
