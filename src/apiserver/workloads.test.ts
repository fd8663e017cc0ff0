// apps/v1 and batch/v1 through the embedded API server with the workload and disruption
// controllers on: Deployments make ReplicaSets and pods, the scale subresource, rollout status
// fields, and pods/eviction answering as kube-apiserver's eviction REST when budgets forbid.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { KubeObject, Pod } from '../api/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { FakeClock } from '../util/clock.js';
import { ApiServer } from './server.js';

interface Answer {
  code: number;
  body: Record<string, unknown> & { status?: Record<string, unknown> };
}

const apps = '/apis/apps/v1/namespaces/default';

const deployment = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

/** A bound pod as a kubelet would have reported it: Running, and Ready or not. */
function runningPod(name: string, app: string, ready: boolean): Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app } },
    spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'nginx' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

const pdb = (name: string, app: string, spec: Record<string, unknown>) => ({
  apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app } }, ...spec },
});

const eviction = (name: string) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } });

describe('embedded API server: workloads, scale and eviction', { timeout: 20_000 }, () => {
  let server: ApiServer;
  let cluster: MemoryCluster;

  async function call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
    const res = await fetch(server.url + path, { method, headers: body === undefined ? {} : { 'Content-Type': contentType }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { code: res.status, body: JSON.parse(await res.text()) as Answer['body'] };
  }

  before(async () => {
    cluster = new MemoryCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')), workloadControllers: true, disruptionController: true });
    server = await ApiServer.start({ cluster, port: 0, clock: new FakeClock(0) });
  });
  after(async () => {
    await server.close();
  });
  beforeEach(() => {
    for (const kind of ['Deployment', 'ReplicaSet', 'Pod', 'PodDisruptionBudget']) for (const o of cluster.list(kind)) cluster.remove(kind, o.metadata?.namespace ?? '', o.metadata?.name ?? '');
  });

  it('discovery lists deployments, daemonsets, jobs, the scale subresources and pods/eviction', async () => {
    const appsList = (await call('GET', '/apis/apps/v1')).body.resources as { name: string; group?: string; kind: string }[];
    for (const n of ['deployments', 'daemonsets', 'replicasets', 'statefulsets']) assert.ok(appsList.some((r) => r.name === n), n);
    assert.deepEqual(appsList.find((r) => r.name === 'deployments/scale'), {
      name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'],
    });
    assert.ok(((await call('GET', '/apis/batch/v1')).body.resources as { name: string }[]).some((r) => r.name === 'jobs'));
    const core = (await call('GET', '/api/v1')).body.resources as { name: string; group?: string; kind: string }[];
    assert.deepEqual(core.find((r) => r.name === 'pods/eviction'), { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
  });

  it('a created Deployment is defaulted and gets a ReplicaSet and its pods; status reports them', async () => {
    const created = await call('POST', `${apps}/deployments`, deployment('web', 3));
    assert.equal(created.code, 201);
    const spec = created.body.spec as Record<string, unknown>;
    assert.deepEqual([spec.revisionHistoryLimit, spec.progressDeadlineSeconds, spec.strategy], [10, 600, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }]);
    const rs = cluster.list<KubeObject & { spec: { replicas: number } }>('ReplicaSet');
    assert.equal(rs.length, 1);
    assert.match(rs[0]!.metadata!.name!, /^web-/);
    assert.equal(cluster.list<Pod>('Pod').filter((p) => p.metadata.ownerReferences?.[0]?.name === rs[0]!.metadata!.name).length, 3);
    const st = (await call('GET', `${apps}/deployments/web`)).body.status!;
    assert.deepEqual([st.observedGeneration, st.replicas, st.updatedReplicas, st.readyReplicas, st.availableReplicas, st.unavailableReplicas], [1, 3, 3, undefined, undefined, 3]);
  });

  it('the scale subresource reads and writes spec.replicas; a negative count is invalid', async () => {
    await call('POST', `${apps}/deployments`, deployment('web', 2));
    const scale = await call('GET', `${apps}/deployments/web/scale`);
    assert.equal(scale.code, 200);
    assert.deepEqual({ kind: scale.body.kind, apiVersion: scale.body.apiVersion, spec: scale.body.spec, status: scale.body.status },
      { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=web' } });
    const patched = await call('PATCH', `${apps}/deployments/web/scale`, { spec: { replicas: 4 } }, 'application/merge-patch+json');
    assert.equal(patched.code, 200);
    assert.deepEqual(patched.body.spec, { replicas: 4 });
    assert.equal(cluster.list<Pod>('Pod').length, 4);
    const d = (await call('GET', `${apps}/deployments/web`)).body;
    assert.equal((d.metadata as { generation: number }).generation, 2);
    assert.equal(d.status!.observedGeneration, 2);
    const bad = await call('PUT', `${apps}/deployments/web/scale`, { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web' }, spec: { replicas: -1 } });
    assert.equal(bad.code, 422);
    assert.equal(bad.body.message, 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('readiness reaches the ReplicaSet and Deployment status (rollout status reads it)', async () => {
    await call('POST', `${apps}/deployments`, deployment('web', 2));
    for (const p of cluster.list<Pod>('Pod')) {
      cluster.update({ ...p, spec: { ...p.spec, nodeName: 'node-a' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
    }
    await Promise.resolve();
    const st = (await call('GET', `${apps}/deployments/web`)).body.status!;
    assert.deepEqual([st.replicas, st.updatedReplicas, st.readyReplicas, st.availableReplicas, st.unavailableReplicas], [2, 2, 2, 2, undefined]);
    const progressing = (st.conditions as { type: string; reason: string }[]).find((c) => c.type === 'Progressing');
    assert.equal(progressing?.reason, 'NewReplicaSetAvailable');
  });

  it('the disruption controller keeps a budget\'s status from the pods it selects', async () => {
    for (const [i, ready] of [true, true, false].entries()) cluster.create(runningPod(`db-${i}`, 'db', ready));
    await call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', pdb('db', 'db', { minAvailable: 1 }));
    const st = (await call('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/db')).body.status!;
    assert.deepEqual([st.observedGeneration, st.disruptionsAllowed, st.currentHealthy, st.desiredHealthy, st.expectedPods], [1, 1, 2, 1, 3]);
    assert.deepEqual((st.conditions as { type: string; status: string; reason: string }[]).map((c) => [c.type, c.status, c.reason]), [['DisruptionAllowed', 'True', 'SufficientPods']]);
  });

  const evictionCases: { name: string; pods: [string, boolean][]; spec: Record<string, unknown>; evict: string; code: number; message?: string; cause?: string; remaining: number }[] = [
    { name: 'a budget with room lets the eviction through and records it', pods: [['db-0', true], ['db-1', true]], spec: { minAvailable: 1 }, evict: 'db-0', code: 201, remaining: 1 },
    { name: 'a budget at its minimum answers 429 with the healthy counts', pods: [['db-0', true], ['db-1', true]], spec: { minAvailable: 2 }, evict: 'db-0', code: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.", cause: 'The disruption budget db needs 2 healthy pods and has 2 currently', remaining: 2 },
    { name: 'maxUnavailable over pods without a controller expects none and allows nothing', pods: [['db-0', true]], spec: { maxUnavailable: 0 }, evict: 'db-0', code: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.", cause: 'The disruption budget db does not allow evicting pods currently', remaining: 1 },
    { name: 'an unready pod may go while the budget is otherwise met', pods: [['db-0', true], ['db-1', true], ['db-2', false]], spec: { minAvailable: 2 }, evict: 'db-2', code: 201, remaining: 2 },
    { name: 'an unready pod under AlwaysAllow may go even when the budget is not met', pods: [['db-0', false]], spec: { minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' }, evict: 'db-0', code: 201, remaining: 0 },
  ];
  for (const c of evictionCases) {
    it(`eviction: ${c.name}`, async () => {
      for (const [name, ready] of c.pods) cluster.create(runningPod(name, 'db', ready));
      await call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', pdb('db', 'db', c.spec));
      const res = await call('POST', `/api/v1/namespaces/default/pods/${c.evict}/eviction`, eviction(c.evict));
      assert.equal(res.code, c.code, JSON.stringify(res.body));
      if (c.code === 201) assert.deepEqual(res.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
      else assert.deepEqual(res.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: c.message, reason: 'TooManyRequests', details: { causes: [{ reason: 'DisruptionBudget', message: c.cause }] }, code: 429 });
      assert.equal(cluster.list<Pod>('Pod').length, c.remaining);
    });
  }

  it('eviction of a pending pod ignores budgets; a wrong name is a 400; two budgets are a 500 Status', async () => {
    cluster.create({ ...runningPod('p-0', 'db', true), status: { phase: 'Pending' } });
    cluster.create(runningPod('r-0', 'db', true));
    await call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', pdb('a', 'db', { maxUnavailable: 0 }));
    await call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', pdb('b', 'db', { maxUnavailable: 0 }));
    assert.equal((await call('POST', '/api/v1/namespaces/default/pods/p-0/eviction', eviction('p-0'))).code, 201);
    const wrong = await call('POST', '/api/v1/namespaces/default/pods/r-0/eviction', eviction('other'));
    assert.deepEqual([wrong.code, wrong.body.message], [400, 'name in URL does not match name in Eviction object']);
    const two = await call('POST', '/api/v1/namespaces/default/pods/r-0/eviction', eviction('r-0'));
    assert.deepEqual([two.code, two.body.code, two.body.message], [201, 500, 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.']);
    assert.ok(cluster.get('Pod', 'default', 'r-0'));
    assert.equal((await call('POST', '/api/v1/namespaces/default/pods/gone/eviction', eviction('gone'))).code, 404);
  });

  it('an allowed eviction lowers disruptionsAllowed at once and the controller recounts after the pod goes', async () => {
    for (const i of [0, 1, 2]) cluster.create(runningPod(`db-${i}`, 'db', true));
    await call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', pdb('db', 'db', { minAvailable: 1 }));
    assert.equal((await call('POST', '/api/v1/namespaces/default/pods/db-0/eviction', eviction('db-0'))).code, 201);
    const st = (await call('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/db')).body.status!;
    assert.deepEqual([st.disruptionsAllowed, st.currentHealthy, st.expectedPods, st.disruptedPods], [1, 2, 2, undefined]);
  });
});
