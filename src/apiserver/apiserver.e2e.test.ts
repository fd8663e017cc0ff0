// The embedded API server over real HTTP on loopback, driven by @kubernetes/client-node and fetch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiException, CoordinationV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import type { Pod } from '../api/types.js';
import { collectWatch, startTestServer, testPod, type TestServer } from './test_helpers.js';

function apiCode(err: unknown): number {
  return err instanceof ApiException ? err.code : -1;
}

describe('embedded API server', { timeout: 20_000 }, () => {
  let s: TestServer;
  before(async () => {
    // The API server's own semantics: no kubelet writing pod and node status beside the test's writes.
    s = await startTestServer({ bookmarkIntervalMs: 20, kubelet: false });
  });
  after(async () => {
    await s.close();
  });

  it('serves discovery: /api, /apis, group versions with subresources, /version', async () => {
    const api = await s.request('GET', '/api');
    assert.deepEqual(api.body.versions, ['v1']);
    const v1 = await s.request('GET', '/api/v1');
    const names = (v1.body.resources as { name: string }[]).map((r) => r.name);
    for (const n of ['pods', 'pods/binding', 'pods/status', 'nodes', 'nodes/status', 'namespaces', 'events', 'services', 'persistentvolumes', 'persistentvolumeclaims', 'replicationcontrollers']) {
      assert.ok(names.includes(n), `${n} in /api/v1`);
    }
    const apis = await s.request('GET', '/apis');
    const groups = (apis.body.groups as { name: string }[]).map((g) => g.name);
    // scheduling.x-k8s.io appears only once its CRD is installed, as on kube-apiserver.
    assert.deepEqual(groups.sort(), ['apiextensions.k8s.io', 'apps', 'batch', 'coordination.k8s.io', 'events.k8s.io', 'policy', 'resource.k8s.io', 'scheduling.k8s.io', 'storage.k8s.io']);
    const coord = await s.request('GET', '/apis/coordination.k8s.io/v1');
    assert.equal((coord.body.resources as { name: string }[])[0]!.name, 'leases');
    const version = await s.request('GET', '/version');
    assert.match(String(version.body.gitVersion), /^v1\.\d+\.\d+/);
    assert.equal((await s.request('GET', '/apis/nope.k8s.io/v1')).code, 404);
  });

  it('lists nodes with client-node at the store resourceVersion', async () => {
    const list = await s.core.listNode();
    assert.deepEqual(list.items.map((n) => n.metadata?.name), ['node-a', 'node-b']);
    assert.equal(list.metadata?.resourceVersion, String(s.serving.cluster.currentResourceVersion));
  });

  it('schedules a pod created through the API and records a Scheduled event', async () => {
    const start = (await s.core.listNamespacedPod({ namespace: 'default' })).metadata!.resourceVersion!;
    await s.core.createNamespacedPod({ namespace: 'default', body: testPod('web-1') as never });
    const events = await collectWatch(s.kc, '/api/v1/namespaces/default/pods', { resourceVersion: start, fieldSelector: 'metadata.name=web-1' },
      (evs) => evs.some((e) => (e.object as Pod).spec?.nodeName));
    const bound = events.find((e) => (e.object as Pod).spec?.nodeName)!;
    assert.equal(bound.type, 'MODIFIED');
    const pod = await s.core.readNamespacedPod({ namespace: 'default', name: 'web-1' });
    assert.ok(['node-a', 'node-b'].includes(pod.spec!.nodeName!));
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
    const ev = await s.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=web-1' });
    assert.equal(ev.items.length, 1);
    assert.equal(ev.items[0]!.reason, 'Scheduled');
    assert.equal(ev.items[0]!.message, `Successfully assigned default/web-1 to ${pod.spec!.nodeName}`);
    assert.equal(ev.items[0]!.reportingComponent, 'default-scheduler');
  });

  it('watches from a resourceVersion: the changes after it, in order, then live ones', async () => {
    const rv = (await s.core.listNamespacedPod({ namespace: 'default' })).metadata!.resourceVersion!;
    await s.core.createNamespacedPod({ namespace: 'default', body: testPod('fixed', { nodeName: 'node-a' }) as never });
    await s.core.patchNamespacedPod({ namespace: 'default', name: 'fixed', body: { metadata: { labels: { tier: 'x' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    const watched = collectWatch(s.kc, '/api/v1/namespaces/default/pods', { resourceVersion: rv, fieldSelector: 'metadata.name=fixed' }, (evs) => evs.length === 3);
    await s.core.deleteNamespacedPod({ namespace: 'default', name: 'fixed' });
    const events = await watched;
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
    assert.equal(events[1]!.object.metadata?.labels?.tier, 'x');
    const rvs = events.map((e) => Number(e.object.metadata?.resourceVersion));
    assert.ok(rvs[0]! > Number(rv) && rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!, `increasing versions ${rvs.join(',')}`);
  });

  it('watches ResourceClaims, status writes included, at resource.k8s.io/v1', async () => {
    const path = '/apis/resource.k8s.io/v1/namespaces/default/resourceclaims';
    const rv = ((await s.request('GET', path)).body.metadata as { resourceVersion: string }).resourceVersion;
    const claim = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'watched' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } } };
    const watched = collectWatch(s.kc, path, { resourceVersion: rv }, (evs) => evs.length === 3);
    const created = await s.request('POST', path, claim);
    assert.equal(created.code, 201);
    const allocation = { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-a', device: 'gpu-0' }] } };
    assert.equal((await s.request('PUT', `${path}/watched/status`, { ...created.body, status: { allocation } })).code, 200);
    assert.equal((await s.request('DELETE', `${path}/watched`)).code, 200);
    const events = await watched;
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
    assert.deepEqual((events[1]!.object as unknown as { status: unknown }).status, { allocation });
  });

  it('answers a watch from a compacted resourceVersion with a 410 Expired ERROR event', async () => {
    const old = s.serving.cluster.currentResourceVersion;
    await s.core.createNamespacedPod({ namespace: 'default', body: testPod('after-compaction', { nodeName: 'node-b' }) as never });
    s.serving.cluster.compactHistory();
    const events = await collectWatch(s.kc, '/api/v1/pods', { resourceVersion: String(old) }, () => false);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'ERROR');
    assert.equal(events[0]!.object.code, 410);
    assert.equal(events[0]!.object.reason, 'Expired');
    assert.equal(events[0]!.object.message, `too old resource version: ${old} (${s.serving.cluster.currentResourceVersion})`);
  });

  it('sends bookmarks carrying the current resourceVersion when asked', async () => {
    const events = await collectWatch(s.kc, '/api/v1/nodes', { resourceVersion: String(s.serving.cluster.currentResourceVersion), allowWatchBookmarks: true },
      (evs) => evs.some((e) => e.type === 'BOOKMARK'));
    const bm = events.find((e) => e.type === 'BOOKMARK')!;
    assert.equal(bm.object.kind, 'Node');
    assert.equal(bm.object.metadata?.resourceVersion, String(s.serving.cluster.currentResourceVersion));
  });

  it('streams the initial state then an initial-events-end bookmark for sendInitialEvents', async () => {
    const events = await collectWatch(s.kc, '/api/v1/nodes', { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true },
      (evs) => evs.some((e) => e.type === 'BOOKMARK'));
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'ADDED', 'BOOKMARK']);
    assert.equal(events[2]!.object.metadata?.annotations?.['k8s.io/initial-events-end'], 'true');
  });

  it('turns a pod leaving a spec.nodeName= field selector into DELETED when it is bound', async () => {
    const rv = String(s.serving.cluster.currentResourceVersion);
    const watched = collectWatch(s.kc, '/api/v1/pods', { resourceVersion: rv, fieldSelector: 'spec.nodeName=' },
      (evs) => evs.some((e) => e.type === 'DELETED' && e.object.metadata?.name === 'unbound'));
    await s.core.createNamespacedPod({ namespace: 'default', body: testPod('unbound') as never });
    const events = (await watched).filter((e) => e.object.metadata?.name === 'unbound');
    assert.equal(events[0]!.type, 'ADDED');
    assert.equal(events[events.length - 1]!.type, 'DELETED');
    assert.equal((events[events.length - 1]!.object as Pod).spec.nodeName, undefined, 'the DELETED event carries the last matching state');
  });

  it('returns upstream Status errors: NotFound, AlreadyExists, Conflict, Invalid, missing namespace', async () => {
    const nf = await s.request('GET', '/api/v1/namespaces/default/pods/missing');
    assert.equal(nf.code, 404);
    assert.deepEqual(nf.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "missing" not found', reason: 'NotFound', details: { name: 'missing', group: '', kind: 'pods' }, code: 404 });
    const lease = await s.request('GET', '/apis/coordination.k8s.io/v1/namespaces/default/leases/missing');
    assert.equal(lease.body.message, 'leases.coordination.k8s.io "missing" not found');

    await s.request('POST', '/api/v1/namespaces/default/pods', testPod('dup', { nodeName: 'node-a' }));
    const dup = await s.request('POST', '/api/v1/namespaces/default/pods', testPod('dup', { nodeName: 'node-a' }));
    assert.equal(dup.code, 409);
    assert.equal(dup.body.reason, 'AlreadyExists');
    assert.equal(dup.body.message, 'pods "dup" already exists');

    const cur = (await s.request('GET', '/api/v1/namespaces/default/pods/dup')).body as unknown as Pod;
    const stale = { ...cur, metadata: { ...cur.metadata, resourceVersion: '1', labels: { a: 'b' } } };
    const conflict = await s.request('PUT', '/api/v1/namespaces/default/pods/dup', stale);
    assert.equal(conflict.code, 409);
    assert.equal(conflict.body.reason, 'Conflict');
    assert.equal(conflict.body.message, 'Operation cannot be fulfilled on pods "dup": the object has been modified; please apply your changes to the latest version and try again');

    const bad = await s.request('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'Bad_Name' }, spec: { containers: [{ name: 'c' }] } });
    assert.equal(bad.code, 422);
    assert.equal(bad.body.reason, 'Invalid');
    assert.match(String(bad.body.message), /^Pod "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    const causes = (bad.body.details as { causes: { field: string; reason: string }[] }).causes;
    assert.deepEqual(causes.map((c) => [c.reason, c.field]), [['FieldValueInvalid', 'metadata.name'], ['FieldValueRequired', 'spec.containers[0].image']]);

    const noNs = await s.request('POST', '/api/v1/namespaces/nope/pods', testPod('x'));
    assert.equal(noNs.code, 404);
    assert.equal(noNs.body.message, 'namespaces "nope" not found');

    const immutable = await s.request('PATCH', '/api/v1/namespaces/default/pods/dup', { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '2' } } }] } }, PatchStrategy.StrategicMergePatch);
    assert.equal(immutable.code, 422);
    assert.match(String(immutable.body.message), /^Pod "dup" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`/);

    const tooLarge = await s.request('GET', `/api/v1/pods?watch=true&resourceVersion=${s.serving.cluster.currentResourceVersion + 1000}`);
    assert.equal(tooLarge.code, 504);
  });

  it('applies merge, JSON and strategic merge patches, and status patches through pods/status', async () => {
    await s.request('POST', '/api/v1/namespaces/default/pods', testPod('patched', { nodeName: 'node-b' }));
    const path = '/api/v1/namespaces/default/pods/patched';
    const json = await s.request('PATCH', path, [{ op: 'add', path: '/metadata/annotations', value: { note: 'hi' } }], PatchStrategy.JsonPatch);
    assert.equal(json.code, 200);
    const smp = await s.request('PATCH', path, { spec: { containers: [{ name: 'c', image: 'pause:2' }] } }, PatchStrategy.StrategicMergePatch);
    const pod = smp.body as unknown as Pod;
    assert.equal(pod.spec.containers[0]!.image, 'pause:2');
    assert.deepEqual(pod.spec.containers[0]!.resources?.requests, { cpu: '100m', memory: '64Mi' }, 'containers merge by name');
    assert.equal(pod.metadata.annotations?.note, 'hi');
    const status = await s.core.patchNamespacedPodStatus({ namespace: 'default', name: 'patched', body: { status: { conditions: [{ type: 'Ready', status: 'False' }] } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch));
    assert.equal(status.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'False');
    // ClearingNominatedNodeNameAfterBinding: a bound pod may not be nominated again.
    const nominated = await s.request('PATCH', `${path}/status`, { status: { nominatedNodeName: 'node-a' } }, PatchStrategy.MergePatch);
    assert.equal(nominated.code, 422);
    assert.match(String(nominated.body.message), /status\.nominatedNodeName: Forbidden: may not be set on pods that are already bound to a node/);
    assert.equal(status.status?.phase, 'Pending', 'the status patch merges into the stored status');
    const ignored = await s.request('PATCH', `${path}/status`, { spec: { activeDeadlineSeconds: 5 } }, PatchStrategy.MergePatch);
    assert.equal((ignored.body as unknown as Pod).spec.activeDeadlineSeconds, undefined, 'the status subresource keeps the spec');
    const before = s.serving.cluster.currentResourceVersion;
    const unchanged = await s.request('PATCH', path, { metadata: { annotations: { note: 'hi' } } }, PatchStrategy.MergePatch);
    assert.equal(unchanged.code, 200);
    assert.equal(s.serving.cluster.currentResourceVersion, before, 'a patch that changes nothing writes nothing');
    const bad = await s.request('PATCH', path, { a: 1 }, 'application/xml');
    assert.equal(bad.code, 415);
  });

  it('binds through pods/binding once and refuses a second binding with Conflict', async () => {
    await s.core.createNamespacedPod({ namespace: 'default', body: testPod('manual', { schedulerName: 'someone-else' }) as never });
    const bind = await s.request('POST', '/api/v1/namespaces/default/pods/manual/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'manual' }, target: { kind: 'Node', name: 'node-b' } });
    assert.equal(bind.code, 201);
    assert.deepEqual(bind.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const pod = await s.core.readNamespacedPod({ namespace: 'default', name: 'manual' });
    assert.equal(pod.spec?.nodeName, 'node-b');
    assert.equal(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
    assert.deepEqual(s.serving.cluster.bindings, [], 'a served cluster keeps no log of bindings');
    await assert.rejects(
      s.core.createNamespacedPodBinding({ namespace: 'default', name: 'manual', body: { metadata: { name: 'manual' }, target: { kind: 'Node', name: 'node-a' } } }),
      (err) => apiCode(err) === 409 && String((err as ApiException<string>).body).includes('Operation cannot be fulfilled on pods/binding \\"manual\\": pod manual is already assigned to node \\"node-b\\"'),
    );
    s.serving.cluster.injectFault('bind', 500, 1, 'etcd is down');
    await s.core.createNamespacedPod({ namespace: 'default', body: testPod('faulty', { schedulerName: 'someone-else' }) as never });
    const faulty = await s.request('POST', '/api/v1/namespaces/default/bindings', { metadata: { name: 'faulty' }, target: { name: 'node-a' } });
    assert.equal(faulty.code, 500);
    assert.equal(faulty.body.message, 'etcd is down');
  });

  it('gives leases optimistic concurrency for leader election', async () => {
    const coord = s.kc.makeApiClient(CoordinationV1Api);
    const lease = await coord.createNamespacedLease({ namespace: 'kube-system', body: { metadata: { name: 'kube-scheduler' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } } });
    const renewed = await coord.replaceNamespacedLease({ namespace: 'kube-system', name: 'kube-scheduler', body: { ...lease, spec: { ...lease.spec, holderIdentity: 'a', renewTime: new Date() } } });
    assert.notEqual(renewed.metadata?.resourceVersion, lease.metadata?.resourceVersion);
    await assert.rejects(coord.replaceNamespacedLease({ namespace: 'kube-system', name: 'kube-scheduler', body: { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } } }), (err) => apiCode(err) === 409);
    const noRV = await s.request('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler', { metadata: { name: 'kube-scheduler' }, spec: { holderIdentity: 'b' } });
    assert.equal(noRV.code, 422);
    assert.equal(noRV.body.message, 'Lease.coordination.k8s.io "kube-scheduler" is invalid: metadata.resourceVersion: Invalid value: "0x0": must be specified for an update');
  });

  it('serves one event store through core/v1 and events.k8s.io/v1', async () => {
    const created = await s.request('POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
      metadata: { name: 'e1' }, eventTime: '2025-01-01T00:00:00.000000Z', reportingController: 'me', reportingInstance: 'me-1', action: 'Poke', reason: 'Poked', type: 'Normal', note: 'hello', regarding: { kind: 'Pod', namespace: 'default', name: 'web-1' },
    });
    assert.equal(created.code, 201);
    const core = await s.core.readNamespacedEvent({ namespace: 'default', name: 'e1' });
    assert.equal(core.message, 'hello');
    assert.equal(core.involvedObject.name, 'web-1');
    assert.equal(core.reportingComponent, 'me');
  });

  it('lists by label selector and pages with limit and continue', async () => {
    for (const n of ['p1', 'p2', 'p3']) await s.request('POST', '/api/v1/namespaces/default/pods', { ...testPod(n, { nodeName: 'node-a' }), metadata: { name: n, labels: { page: 'yes' } } });
    const first = await s.core.listNamespacedPod({ namespace: 'default', labelSelector: 'page in (yes)', limit: 2 });
    assert.deepEqual(first.items.map((p) => p.metadata?.name), ['p1', 'p2']);
    assert.equal(first.metadata?.remainingItemCount, 1);
    // Changes between two pages are not seen: every page is of the first page's state.
    await s.request('DELETE', '/api/v1/namespaces/default/pods/p3');
    await s.request('POST', '/api/v1/namespaces/default/pods', { ...testPod('p4', { nodeName: 'node-a' }), metadata: { name: 'p4', labels: { page: 'yes' } } });
    const second = await s.core.listNamespacedPod({ namespace: 'default', labelSelector: 'page=yes', limit: 2, _continue: first.metadata!._continue! });
    assert.deepEqual(second.items.map((p) => p.metadata?.name), ['p3']);
    assert.equal(second.metadata?._continue, undefined);
    assert.equal(second.metadata?.resourceVersion, first.metadata?.resourceVersion);
    // That list is finished: its token is now as stale as one from a compacted revision.
    const again = await s.request('GET', `/api/v1/namespaces/default/pods?limit=2&continue=${first.metadata!._continue!}`);
    assert.equal(again.code, 410);
    assert.match(JSON.stringify(again.body), /continue parameter is too old/);
    const none = await s.core.listNamespacedPod({ namespace: 'default', labelSelector: 'page!=yes,!app' });
    assert.ok(none.items.every((p) => p.metadata?.labels?.page !== 'yes'));
    const table = await fetch(`${s.url}/api/v1/namespaces/default/pods?labelSelector=page%3Dyes`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    const t = await table.json() as { kind: string; columnDefinitions: { name: string }[]; rows: { cells: string[] }[] };
    assert.equal(t.kind, 'Table');
    assert.deepEqual(t.columnDefinitions.map((c) => c.name), ['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    assert.deepEqual(t.rows[0]!.cells.slice(0, 3), ['p1', '0/1', 'Pending']);
    assert.equal(t.rows[0]!.cells[6], 'node-a');
  });
});
