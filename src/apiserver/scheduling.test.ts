// The pod-group kinds through the embedded API server: scheduling.k8s.io/v1beta1 Workloads and
// PodGroups only with GenericWorkload on (absent from discovery and 404 without, as
// kube-apiserver v1.37.2), their strategies and printers, and scheduler-plugins' PodGroup served
// as its CRD would be.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { podGroupCrd } from '../api/crds.js';
import type { KubeObject } from '../api/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { populateCluster } from '../sim/scenario/embedded.js';
import type { Scenario } from '../sim/scenario/scenario.js';
import { FakeClock } from '../util/clock.js';
import { ApiServer } from './server.js';
import { startTestServer, type TestServer } from './test_helpers.js';

interface Answer {
  code: number;
  body: Record<string, unknown>;
}

const v1beta1 = '/apis/scheduling.k8s.io/v1beta1';
const ns = `${v1beta1}/namespaces/default`;
const xk8s = '/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default';

const workload = { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'Workload', metadata: { name: 'train' }, spec: { podGroupTemplates: [{ name: 'workers', schedulingPolicy: { gang: { minCount: 4 } } }] } };
const podGroup = (name: string) => ({
  apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name },
  spec: { workloadRef: { workloadName: 'train', templateName: 'workers' }, schedulingPolicy: { gang: { minCount: 4 } } },
  status: { conditions: [{ type: 'PodGroupInitiallyScheduled', status: 'True', reason: 'Scheduled', lastTransitionTime: '2026-01-01T00:00:00Z', message: '' }] },
});
const gang = { apiVersion: 'scheduling.x-k8s.io/v1alpha1', kind: 'PodGroup', metadata: { name: 'gang' }, spec: { minMember: 3, scheduleTimeoutSeconds: 10 }, status: { phase: 'Running' } };

async function startServer(genericWorkload: boolean | undefined): Promise<{ server: ApiServer; cluster: MemoryCluster; call: (method: string, path: string, body?: unknown, accept?: string) => Promise<Answer> }> {
  const cluster = new MemoryCluster({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
  const server = await ApiServer.start({
    cluster, port: 0, clock: new FakeClock(Date.parse('2026-01-01T00:01:00Z')),
    ...(genericWorkload === undefined ? {} : { featureGate: (g: string) => (g === 'GenericWorkload' ? genericWorkload : g !== 'CompositePodGroup') }),
  });
  const call = async (method: string, path: string, body?: unknown, accept = 'application/json'): Promise<Answer> => {
    const headers: Record<string, string> = { Accept: accept };
    if (body !== undefined) headers['Content-Type'] = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { code: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
  };
  return { server, cluster, call };
}

const crdPath = new URL('../../deploy/charts/kube-scheduler-ts/crds/scheduling.x-k8s.io_podgroups.yaml', import.meta.url);

const groupNames = (a: Answer) => (a.body.groups as { name: string }[]).map((g) => g.name);
const resourceNames = (a: Answer) => (a.body.resources as { name: string }[]).map((r) => r.name);

for (const gate of [undefined, false]) {
  describe(`scheduling.k8s.io/v1beta1 with GenericWorkload ${gate === undefined ? 'at its default' : 'off'}`, () => {
    let s: Awaited<ReturnType<typeof startServer>>;
    before(async () => {
      s = await startServer(gate);
    });
    after(() => s.server.close());

    it('is absent from discovery and answers 404, as kube-apiserver', async () => {
      // The group stays (PriorityClasses are scheduling.k8s.io/v1), without the v1beta1 version.
      const versions = ((await s.call('GET', '/apis/scheduling.k8s.io')).body.versions as { version: string }[]).map((v) => v.version);
      assert.deepEqual(versions, ['v1']);
      assert.equal((await s.call('GET', v1beta1)).code, 404);
      assert.equal((await s.call('GET', `${ns}/podgroups`)).code, 404);
      assert.equal((await s.call('POST', `${ns}/workloads`, workload)).code, 404);
    });
  });
}

describe('scheduling.k8s.io/v1beta1 with GenericWorkload on', () => {
  let s: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    s = await startServer(true);
  });
  after(() => s.server.close());

  it('discovery lists workloads, podgroups and podgroups/status', async () => {
    const group = (await s.call('GET', '/apis/scheduling.k8s.io')).body;
    assert.ok((group.versions as { groupVersion: string }[]).some((v) => v.groupVersion === 'scheduling.k8s.io/v1beta1'));
    assert.deepEqual(resourceNames(await s.call('GET', v1beta1)), ['podgroups', 'podgroups/status', 'workloads']);
  });

  it('creates a Workload (no status, no generation) and refuses an update without resourceVersion', async () => {
    const created = await s.call('POST', `${ns}/workloads`, workload);
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.equal((created.body.metadata as { generation?: number }).generation, undefined);
    assert.equal(s.cluster.list('Workload').length, 1);
    const put = await s.call('PUT', `${ns}/workloads/train`, { ...workload, metadata: { name: 'train' } });
    assert.equal(put.code, 422);
    assert.match(String(put.body.message), /metadata\.resourceVersion: Invalid value: "0x0": must be specified for an update/);
  });

  it('refuses an invalid PodGroup with kube-apiserver\'s message', async () => {
    const bad = await s.call('POST', `${ns}/podgroups`, { ...podGroup('bad'), spec: { schedulingPolicy: { gang: { minCount: 0 } } } });
    assert.equal(bad.code, 422);
    assert.match(String(bad.body.message), /^PodGroup\.scheduling\.k8s\.io "bad" is invalid: spec\.schedulingPolicy\.gang\.minCount: Required value/);
  });

  it('a PodGroup starts without status; the status subresource writes conditions, validated', async () => {
    const created = await s.call('POST', `${ns}/podgroups`, podGroup('workers-0'));
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.equal(created.body.status, undefined);
    const rv = (created.body.metadata as { resourceVersion: string }).resourceVersion;
    const status = await s.call('PUT', `${ns}/podgroups/workers-0/status`, { ...podGroup('workers-0'), metadata: { name: 'workers-0', resourceVersion: rv } });
    assert.equal(status.code, 200, JSON.stringify(status.body));
    assert.equal(((status.body.status as { conditions: { type: string }[] }).conditions)[0]!.type, 'PodGroupInitiallyScheduled');
    const badReason = await s.call('PATCH', `${ns}/podgroups/workers-0/status`, { status: { conditions: [{ type: 'PodGroupInitiallyScheduled', status: 'Maybe', reason: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] } });
    assert.equal(badReason.code, 422);
    assert.match(String(badReason.body.message), /status\.conditions\[0\]\.status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"/);
    assert.match(String(badReason.body.message), /status\.conditions\[0\]\.reason: Required value/);
    // The main resource keeps the stored status and refuses spec changes.
    const specChange = await s.call('PATCH', `${ns}/podgroups/workers-0`, { spec: { schedulingPolicy: { basic: {} } } });
    assert.equal(specChange.code, 422);
  });

  it('kubectl get prints Policy, Workload and Status', async () => {
    const table = (await s.call('GET', `${ns}/podgroups`, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io')).body;
    assert.deepEqual((table.columnDefinitions as { name: string }[]).map((c) => c.name), ['Name', 'Policy', 'Workload', 'Status', 'Age']);
    assert.deepEqual((table.rows as { cells: unknown[] }[])[0]!.cells.slice(0, 4), ['workers-0', 'Gang', 'train', 'Scheduled']);
  });

  it('deletes', async () => {
    assert.equal((await s.call('DELETE', `${ns}/podgroups/workers-0`)).code, 200);
    assert.equal(s.cluster.list('PodGroup').length, 0);
  });
});

describe('scheduling.x-k8s.io/v1alpha1 PodGroups (scheduler-plugins\' CRD)', () => {
  let s: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    s = await startServer(undefined);
  });
  after(() => s.server.close());
  const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

  it('are not served before their CRD is installed, as kube-apiserver', async () => {
    assert.ok(!groupNames(await s.call('GET', '/apis')).includes('scheduling.x-k8s.io'));
    assert.equal((await s.call('GET', '/apis/scheduling.x-k8s.io/v1alpha1')).code, 404);
    assert.equal((await s.call('POST', `${xk8s}/podgroups`, gang)).code, 404);
  });

  it('applying the CRD of deploy/ establishes it and serves the resource', async () => {
    const crd = parseYaml(readFileSync(crdPath, 'utf8')) as Record<string, unknown>;
    const created = await s.call('POST', crds, crd);
    assert.equal(created.code, 201, JSON.stringify(created.body));
    const status = created.body.status as { conditions: { type: string; status: string }[]; acceptedNames: { kind: string }; storedVersions: string[] };
    assert.deepEqual(status.conditions.map((c) => [c.type, c.status]), [['NamesAccepted', 'True'], ['Established', 'True']]);
    assert.equal(status.acceptedNames.kind, 'PodGroup');
    assert.deepEqual(status.storedVersions, ['v1alpha1']);
    assert.ok(resourceNames(await s.call('GET', '/apis/apiextensions.k8s.io/v1')).includes('customresourcedefinitions'));
  });

  it('refuses a CRD whose name is not plural.group, with the apiextensions message', async () => {
    const bad = await s.call('POST', crds, { ...podGroupCrd, metadata: { name: 'groups.example.com' } });
    assert.equal(bad.code, 422);
    assert.match(String(bad.body.message), /metadata\.name: Invalid value: "groups\.example\.com": must be spec\.names\.plural\+"\."\+spec\.group/);
  });

  it('are served beside the built-in kinds, kept apart from scheduling.k8s.io\'s', async () => {
    assert.ok(groupNames(await s.call('GET', '/apis')).includes('scheduling.x-k8s.io'));
    const list = (await s.call('GET', '/apis/scheduling.x-k8s.io/v1alpha1')).body.resources as { name: string; shortNames?: string[] }[];
    assert.deepEqual(list.map((r) => r.name), ['podgroups', 'podgroups/status']);
    assert.deepEqual(list[0]!.shortNames, ['pg', 'pgs']);
    const created = await s.call('POST', `${xk8s}/podgroups`, gang);
    assert.equal(created.code, 201, JSON.stringify(created.body));
    assert.equal(created.body.status, undefined);
    assert.equal((created.body.metadata as { generation: number }).generation, 1);
    assert.equal(s.cluster.list('PodGroup.scheduling.x-k8s.io').length, 1);
    assert.equal(s.cluster.list('PodGroup').length, 0);
  });

  it('refuses minMember below 1 with the CRD schema\'s message', async () => {
    const bad = await s.call('POST', `${xk8s}/podgroups`, { ...gang, metadata: { name: 'bad' }, spec: { minMember: 0 } });
    assert.equal(bad.code, 422);
    assert.match(String(bad.body.message), /^PodGroup\.scheduling\.x-k8s\.io "bad" is invalid: spec\.minMember: Invalid value: 0: spec\.minMember in body should be greater than or equal to 1/);
  });

  it('status writes go through the status subresource; kubectl get prints the CRD\'s columns', async () => {
    const patched = await s.call('PATCH', `${xk8s}/podgroups/gang/status`, { status: { phase: 'Scheduling', running: 1 } });
    assert.equal(patched.code, 200, JSON.stringify(patched.body));
    const table = (await s.call('GET', `${xk8s}/podgroups`, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io')).body;
    assert.deepEqual((table.columnDefinitions as { name: string }[]).map((c) => c.name), ['Name', 'Phase', 'MinMember', 'Running', 'Succeeded', 'Failed', 'Age']);
    assert.deepEqual((table.rows as { cells: unknown[] }[])[0]!.cells, ['gang', 'Scheduling', 3, 1, null, null, '60s']);
  });

  it('deleting the CRD deletes its PodGroups and stops serving the resource', async () => {
    assert.equal((await s.call('DELETE', `${crds}/podgroups.scheduling.x-k8s.io`)).code, 200);
    assert.equal(s.cluster.list('PodGroup.scheduling.x-k8s.io').length, 0);
    assert.ok(!groupNames(await s.call('GET', '/apis')).includes('scheduling.x-k8s.io'));
    assert.equal((await s.call('GET', `${xk8s}/podgroups`)).code, 404);
  });
});

describe('Priority admission of PodGroups (GenericWorkload on)', () => {
  let server: ApiServer;
  let call: (method: string, path: string, body?: unknown) => Promise<Answer>;
  before(async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(0), gates: { genericWorkload: true, podGroupPreemptionPolicy: true } });
    cluster.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'batch' }, value: 300, preemptionPolicy: 'Never' } as never);
    server = await ApiServer.start({ cluster, port: 0, clock: new FakeClock(0), featureGate: () => true });
    call = async (method, path, body) => {
      const res = await fetch(server.url + path, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { code: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
    };
  });
  after(() => server.close());
  const group = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name }, spec: { schedulingPolicy: { basic: {} }, ...spec } });

  it('fills the priority and policy from the class', async () => {
    const r = await call('POST', `${ns}/podgroups`, group('ok', { priorityClassName: 'batch', preemptionPolicy: 'Never' }));
    assert.equal(r.code, 201);
    assert.deepEqual([(r.body.spec as { priority: number }).priority, (r.body.spec as { preemptionPolicy: string }).preemptionPolicy], [300, 'Never']);
  });

  const refused: { name: string; spec: Record<string, unknown>; want: string }[] = [
    { name: 'an unknown class', spec: { priorityClassName: 'gold' }, want: 'no PriorityClass with name gold was found' },
    { name: 'a priority unlike the class value', spec: { priorityClassName: 'batch', priority: 1, preemptionPolicy: 'Never' },
      want: 'priority set in the pod group (1) must match the priority computed (300) based on the priority class set in the spec' },
    { name: 'no policy for a class Never (defaulted to PreemptLowerPriority first)', spec: { priorityClassName: 'batch' },
      want: 'the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod group spec; priority admission controller computed Never from the given PriorityClass name' },
  ];
  it('drops the fields of gates that are off before validation (parentCompositePodGroupName without CompositePodGroup)', async () => {
    const r = await call('POST', `${ns}/podgroups`, group('child', { parentCompositePodGroupName: 'parent', schedulingConstraints: { topology: [{ key: 'rack' }] } }));
    assert.equal(r.code, 201);
    assert.deepEqual(Object.keys(r.body.spec as object).sort(), ['preemptionPolicy', 'priority', 'schedulingPolicy']);
  });

  it('drops them from an update too, and from a Workload\'s templates on create and update', async () => {
    const created = await call('POST', `${ns}/podgroups`, group('upd', {}));
    assert.equal(created.code, 201);
    const put = await call('PUT', `${ns}/podgroups/upd`, { ...created.body, spec: { ...(created.body.spec as object), schedulingConstraints: { topology: [{ key: 'rack' }] }, parentCompositePodGroupName: 'p' } });
    assert.equal(put.code, 200);
    assert.deepEqual(put.body.spec, created.body.spec);
    const tpl = { name: 'workers', schedulingPolicy: { gang: { minCount: 2 } }, schedulingConstraints: { topology: [{ key: 'rack' }] }, preemptionPolicy: 'Never' };
    const w = await call('POST', `${ns}/workloads`, { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'Workload', metadata: { name: 'w' }, spec: { podGroupTemplates: [tpl] } });
    assert.equal(w.code, 201);
    assert.deepEqual((w.body.spec as { podGroupTemplates: object[] }).podGroupTemplates, [{ name: 'workers', schedulingPolicy: { gang: { minCount: 2 } }, preemptionPolicy: 'Never' }]);
    const wput = await call('PUT', `${ns}/workloads/w`, { ...w.body, spec: { podGroupTemplates: [tpl] } });
    assert.equal(wput.code, 200);
    assert.deepEqual(wput.body.spec, w.body.spec);
  });

  for (const c of refused) {
    it(`answers 403 for ${c.name}`, async () => {
      const r = await call('POST', `${ns}/podgroups`, group('g', c.spec));
      assert.equal(r.code, 403);
      assert.equal(r.body.message, `podgroups.scheduling.k8s.io "g" is forbidden: ${c.want}`);
    });
  }
});

describe('simulate --serve schedules a gang with Coscheduling over the served PodGroups', { timeout: 30_000 }, () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({
      kubelet: false,
      config: {
        apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration',
        profiles: [{ schedulerName: 'default-scheduler', plugins: { multiPoint: { enabled: [{ name: 'Coscheduling' }], disabled: [{ name: 'PrioritySort' }] } } }],
      },
    });
  });
  after(() => t.close());

  const member = (name: string) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { 'scheduling.x-k8s.io/pod-group': 'gang' } },
    spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '500m' } } }] },
  });
  const nodeOf = async (name: string) => ((await t.request('GET', `/api/v1/namespaces/default/pods/${name}`)).body.spec as { nodeName?: string }).nodeName;

  it('binds the members once minMember of them are there, not before', async () => {
    assert.equal((await t.request('POST', `${xk8s}/podgroups`, { ...gang, spec: { minMember: 2 } })).code, 201);
    assert.equal((await t.request('POST', '/api/v1/namespaces/default/pods', member('m0'))).code, 201);
    // The scheduler has tried m0 once it reports it unschedulable; it must not be bound then.
    const scheduledCondition = async () => ((await t.request('GET', '/api/v1/namespaces/default/pods/m0')).body.status as { conditions?: { type: string; status: string }[] } | undefined)
      ?.conditions?.find((c) => c.type === 'PodScheduled');
    for (let i = 0; i < 100 && (await scheduledCondition())?.status !== 'False'; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await scheduledCondition())?.status, 'False', 'm0 was attempted');
    assert.equal(await nodeOf('m0'), undefined, 'one member of two waits');
    assert.equal((await t.request('POST', '/api/v1/namespaces/default/pods', member('m1'))).code, 201);
    for (let i = 0; i < 100 && ((await nodeOf('m0')) === undefined || (await nodeOf('m1')) === undefined); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok((await nodeOf('m0')) && (await nodeOf('m1')), 'both bound');
  });
});

describe('scheduler-plugins\' PodGroup CRD in the embedded cluster', () => {
  it('the CRD the embedded cluster installs is deploy/\'s, field for field', () => {
    assert.deepEqual(parseYaml(readFileSync(crdPath, 'utf8')), podGroupCrd);
  });

  it('a scenario holding such PodGroups implies the CRD; one without does not', () => {
    const scenario = (objects: KubeObject[]): Scenario => ({ name: 't', metadata: {}, config: null, objects, pods: [], pending: [], steps: [], nodes: [] });
    const withGang = new MemoryCluster({ clock: new FakeClock(0) });
    populateCluster(withGang, scenario([gang as KubeObject]));
    assert.deepEqual(withGang.list('CustomResourceDefinition').map((c) => c.metadata?.name), ['podgroups.scheduling.x-k8s.io']);
    const without = new MemoryCluster({ clock: new FakeClock(0) });
    populateCluster(without, scenario([]));
    assert.equal(without.list('CustomResourceDefinition').length, 0);
  });
});
