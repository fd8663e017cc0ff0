// scheduling.k8s.io/v1alpha3 CompositePodGroups through the embedded API server: served only with
// the CompositePodGroup gate (absent from discovery and 404 without, as kube-apiserver v1.37.2),
// beside v1alpha3's Workload and PodGroup (v1beta1's objects under another version),
// defaulted, admitted and validated as its strategy does, with its status subresource and printer;
// and a Workload's composite templates, kept with the gate and dropped without.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryCluster } from '../cluster/memory/store.js';
import { FakeClock } from '../util/clock.js';
import { ApiServer } from './server.js';

const v1alpha3 = '/apis/scheduling.k8s.io/v1alpha3';
const ns = `${v1alpha3}/namespaces/default`;
const betaNs = '/apis/scheduling.k8s.io/v1beta1/namespaces/default';

const composite = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'scheduling.k8s.io/v1alpha3', kind: 'CompositePodGroup', metadata: { name },
  spec: { workloadRef: { workloadName: 'train', templateName: 'slice' }, schedulingPolicy: { gang: { minGroupCount: 2 } }, ...spec },
});
const compositeWorkload = {
  apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'Workload', metadata: { name: 'train' },
  spec: { compositePodGroupTemplates: [{ name: 'slice', schedulingPolicy: { gang: { minGroupCount: 2 } }, podGroupTemplates: [{ name: 'workers', schedulingPolicy: { gang: { minCount: 4 } } }] }] },
};

interface Served {
  server: ApiServer;
  cluster: MemoryCluster;
  call: (method: string, path: string, body?: unknown, accept?: string) => Promise<{ code: number; body: Record<string, unknown> }>;
}

async function startServer(compositePodGroup: boolean): Promise<Served> {
  const gates = { genericWorkload: true, topologyAwareWorkloadScheduling: true, podGroupPreemptionPolicy: true, compositePodGroup };
  const cluster = new MemoryCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')), gates });
  const server = await ApiServer.start({
    cluster, port: 0, clock: new FakeClock(Date.parse('2026-01-01T00:01:00Z')), featureGate: (g) => g !== 'CompositePodGroup' || compositePodGroup,
  });
  const call: Served['call'] = async (method, path, body, accept = 'application/json') => {
    const headers: Record<string, string> = { Accept: accept };
    if (body !== undefined) headers['Content-Type'] = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { code: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
  };
  return { server, cluster, call };
}

describe('scheduling.k8s.io/v1alpha3 with CompositePodGroup off', () => {
  let s: Served;
  before(async () => {
    s = await startServer(false);
  });
  after(() => s.server.close());

  it('is absent from discovery and answers 404', async () => {
    const versions = ((await s.call('GET', '/apis/scheduling.k8s.io')).body.versions as { version: string }[]).map((v) => v.version);
    assert.deepEqual(versions, ['v1', 'v1beta1']);
    assert.equal((await s.call('GET', v1alpha3)).code, 404);
    assert.equal((await s.call('GET', `${ns}/podgroups`)).code, 404);
    assert.equal((await s.call('POST', `${ns}/compositepodgroups`, composite('c'))).code, 404);
  });

  it('drops a Workload\'s composite templates, so it has no templates at all', async () => {
    const r = await s.call('POST', `${betaNs}/workloads`, compositeWorkload);
    assert.equal(r.code, 422);
    assert.match(String(r.body.message), /spec: Invalid value: "": must specify one of: `podGroupTemplates`, `compositePodGroupTemplates`/);
  });
});

describe('scheduling.k8s.io/v1alpha3 with CompositePodGroup on', () => {
  let s: Served;
  before(async () => {
    s = await startServer(true);
  });
  after(() => s.server.close());

  it('discovery lists v1alpha3 after v1beta1, with workloads, podgroups and compositepodgroups', async () => {
    const versions = ((await s.call('GET', '/apis/scheduling.k8s.io')).body.versions as { version: string }[]).map((v) => v.version);
    assert.deepEqual(versions, ['v1', 'v1beta1', 'v1alpha3']);
    const names = ((await s.call('GET', v1alpha3)).body.resources as { name: string }[]).map((r) => r.name);
    assert.deepEqual(names, ['compositepodgroups', 'compositepodgroups/status', 'podgroups', 'podgroups/status', 'workloads']);
  });

  it('serves a PodGroup under v1alpha3 and v1beta1 alike, stored as v1beta1', async () => {
    const created = await s.call('POST', `${ns}/podgroups`, {
      apiVersion: 'scheduling.k8s.io/v1alpha3', kind: 'PodGroup', metadata: { name: 'alpha' }, spec: { schedulingPolicy: { basic: {} } },
    });
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.equal(created.body.apiVersion, 'scheduling.k8s.io/v1alpha3');
    assert.equal(s.cluster.get('PodGroup', 'default', 'alpha')?.apiVersion, 'scheduling.k8s.io/v1beta1');
    assert.equal((await s.call('GET', `${betaNs}/podgroups/alpha`)).body.apiVersion, 'scheduling.k8s.io/v1beta1');
    assert.equal((await s.call('DELETE', `${ns}/podgroups/alpha`)).code, 200);
  });

  it('creates a composite group with v1alpha3 defaults and the computed priority, without status', async () => {
    const r = await s.call('POST', `${ns}/compositepodgroups`, { ...composite('slice-0'), status: { conditions: [] } });
    assert.equal(r.code, 201, JSON.stringify(r.body));
    const spec = r.body.spec as Record<string, unknown>;
    assert.deepEqual(spec.disruptionMode, { single: {} });
    assert.equal(spec.priority, 0);
    assert.equal(spec.preemptionPolicy, 'PreemptLowerPriority');
    assert.equal(r.body.status, undefined);
    assert.equal(s.cluster.list('CompositePodGroup').length, 1);
  });

  it('refuses an invalid one with kube-apiserver\'s message, and a stated priority admission did not compute', async () => {
    const bad = await s.call('POST', `${ns}/compositepodgroups`, composite('bad', { schedulingPolicy: { gang: { minGroupCount: 0 } } }));
    assert.equal(bad.code, 422);
    assert.equal(bad.body.message, 'CompositePodGroup.scheduling.k8s.io "bad" is invalid: spec.schedulingPolicy.gang.minGroupCount: Required value');
    const high = await s.call('POST', `${ns}/compositepodgroups`, composite('high', { priority: 7 }));
    assert.equal(high.code, 403);
    assert.equal(high.body.message, 'compositepodgroups.scheduling.k8s.io "high" is forbidden: priority set in the composite pod group (7) must match the priority computed (0) based on the priority class set in the spec');
  });

  it('keeps the spec on status writes and refuses spec changes', async () => {
    const status = await s.call('PATCH', `${ns}/compositepodgroups/slice-0/status`, {
      spec: { priorityClassName: 'ignored' },
      status: { conditions: [{ type: 'PodGroupInitiallyScheduled', status: 'True', reason: 'Scheduled', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    });
    assert.equal(status.code, 200, JSON.stringify(status.body));
    assert.equal((status.body.spec as { priorityClassName?: string }).priorityClassName, undefined);
    assert.equal((status.body.status as { conditions: unknown[] }).conditions.length, 1);
    const change = await s.call('PATCH', `${ns}/compositepodgroups/slice-0`, { spec: { schedulingPolicy: { gang: { minGroupCount: 3 } } } });
    assert.equal(change.code, 422);
    assert.match(String(change.body.message), /spec\.schedulingPolicy: Invalid value: null: field is immutable/);
  });

  it('kubectl get prints Policy and Workload', async () => {
    const table = (await s.call('GET', `${ns}/compositepodgroups`, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io')).body;
    assert.deepEqual((table.columnDefinitions as { name: string }[]).map((c) => c.name), ['Name', 'Policy', 'Workload', 'Age']);
    assert.deepEqual((table.rows as { cells: unknown[] }[])[0]!.cells, ['slice-0', 'Gang', 'train', '60s']);
  });

  it('keeps a Workload\'s composite templates and a PodGroup\'s parent', async () => {
    const w = await s.call('POST', `${betaNs}/workloads`, compositeWorkload);
    assert.equal(w.code, 201, JSON.stringify(w.body));
    assert.deepEqual(w.body.spec, compositeWorkload.spec);
    const pg = await s.call('POST', `${betaNs}/podgroups`, {
      apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'workers-0' },
      spec: { parentCompositePodGroupName: 'slice-0', workloadRef: { workloadName: 'train', templateName: 'workers' }, schedulingPolicy: { gang: { minCount: 4 } } },
    });
    assert.equal(pg.code, 201, JSON.stringify(pg.body));
    assert.equal((pg.body.spec as { parentCompositePodGroupName?: string }).parentCompositePodGroupName, 'slice-0');
  });

  it('deletes', async () => {
    assert.equal((await s.call('DELETE', `${ns}/compositepodgroups/slice-0`)).code, 200);
    assert.equal(s.cluster.list('CompositePodGroup').length, 0);
  });
});
