// resource.k8s.io/v1 through the embedded API server: discovery, CRUD with the API server's
// defaults and validation, the ResourceClaim status subresource (strategy as upstream's), tables.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryCluster } from '../cluster/memory/store.js';
import { FakeClock } from '../util/clock.js';
import { ApiServer } from './server.js';

interface Answer {
  code: number;
  body: Record<string, unknown>;
}

const base = '/apis/resource.k8s.io/v1';
const claimsPath = `${base}/namespaces/default/resourceclaims`;

describe('embedded API server: resource.k8s.io/v1', { timeout: 20_000 }, () => {
  let server: ApiServer;
  let cluster: MemoryCluster;

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(server.url + path, {
      method,
      headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { code: res.status, body: JSON.parse(await res.text()) as Record<string, unknown> };
  }

  const claim = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } }, ...extra,
  });
  const allocation = { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] } };

  before(async () => {
    cluster = new MemoryCluster({ clock: new FakeClock(0), volumeController: false, resourceClaimController: false });
    server = await ApiServer.start({ cluster, port: 0, clock: new FakeClock(0) });
  });
  after(async () => {
    await server.close();
  });

  it('lists the group and its resources, with the claims\' status subresource', async () => {
    const groups = await call('GET', '/apis');
    assert.ok((groups.body.groups as { name: string }[]).some((g) => g.name === 'resource.k8s.io'));
    const list = await call('GET', base);
    const names = (list.body.resources as { name: string }[]).map((r) => r.name);
    for (const n of ['deviceclasses', 'devicetaintrules', 'devicetaintrules/status', 'resourceclaims', 'resourceclaims/status', 'resourceclaimtemplates', 'resourceslices']) {
      assert.ok(names.includes(n), n);
    }
    assert.ok(!names.includes('resourceslices/status'));
  });

  it('creates a claim with upstream\'s defaults and without the status a client sent', async () => {
    const r = await call('POST', claimsPath, claim('c1', { status: { allocation } }));
    assert.equal(r.code, 201, JSON.stringify(r.body));
    const spec = r.body.spec as { devices: { requests: { exactly: Record<string, unknown> }[] } };
    assert.deepEqual(spec.devices.requests[0]!.exactly, { deviceClassName: 'gpu.example.com', allocationMode: 'ExactCount', count: 1 });
    assert.equal(r.body.status, undefined);
  });

  it('refuses an invalid claim with 422 and upstream\'s causes', async () => {
    const r = await call('POST', claimsPath, claim('bad', { spec: { devices: { requests: [{ name: 'gpu' }] } } }));
    assert.equal(r.code, 422);
    assert.equal(r.body.message, 'ResourceClaim.resource.k8s.io "bad" is invalid: spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required');
  });

  it('writes status only through resourceclaims/status, ignoring spec and labels there', async () => {
    const cur = (await call('GET', `${claimsPath}/c1`)).body as { metadata: Record<string, unknown>; spec: unknown };
    const written = await call('PUT', `${claimsPath}/c1/status`, {
      ...cur, metadata: { ...cur.metadata, labels: { x: 'y' } }, spec: { devices: { requests: [] } },
      status: { allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] },
    });
    assert.equal(written.code, 200, JSON.stringify(written.body));
    assert.deepEqual(written.body.spec, cur.spec);
    assert.equal((written.body.metadata as { labels?: unknown }).labels, undefined);
    assert.equal((written.body.status as { reservedFor: unknown[] }).reservedFor.length, 1);
    // The main resource keeps the stored status.
    const main = await call('PUT', `${claimsPath}/c1`, { ...written.body, metadata: { ...(written.body.metadata as object), labels: { a: 'b' } }, status: {} });
    assert.equal(main.code, 200, JSON.stringify(main.body));
    assert.deepEqual(main.body.status, written.body.status);
    assert.deepEqual((main.body.metadata as { labels: unknown }).labels, { a: 'b' });
  });

  it('merges reservedFor by UID in a strategic merge patch of the status, as the scheduler\'s unreserve sends it', async () => {
    const add = await fetch(`${server.url}${claimsPath}/c1/status`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: JSON.stringify({ status: { reservedFor: [{ resource: 'pods', name: 'q', uid: 'u2' }] } }),
    });
    assert.equal(add.status, 200);
    assert.deepEqual(((await add.json()) as { status: { reservedFor: { uid: string }[] } }).status.reservedFor.map((r) => r.uid), ['u1', 'u2']);
    const drop = await fetch(`${server.url}${claimsPath}/c1/status`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
      body: JSON.stringify({ status: { reservedFor: [{ $patch: 'delete', uid: 'u2' }] } }),
    });
    assert.equal(drop.status, 200);
    assert.deepEqual(((await drop.json()) as { status: { reservedFor: { uid: string }[] } }).status.reservedFor.map((r) => r.uid), ['u1']);
  });

  it('answers 409 for a stale resourceVersion and 422 for a changed allocation or spec', async () => {
    const cur = (await call('GET', `${claimsPath}/c1`)).body as { metadata: Record<string, unknown> };
    const stale = await call('PUT', `${claimsPath}/c1/status`, { ...cur, metadata: { ...cur.metadata, resourceVersion: '1' } });
    assert.equal(stale.code, 409);
    assert.equal(stale.body.message, 'Operation cannot be fulfilled on resourceclaims.resource.k8s.io "c1": the object has been modified; please apply your changes to the latest version and try again');
    const moved = await call('PUT', `${claimsPath}/c1/status`, { ...cur, status: { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-1' }] } } } });
    assert.equal(moved.code, 422);
    assert.match(String(moved.body.message), /status\.allocation: Invalid value: .*field is immutable/);
    const respec = await call('PUT', `${claimsPath}/c1`, { ...cur, spec: { devices: { requests: [{ name: 'other', exactly: { deviceClassName: 'x' } }] } } });
    assert.equal(respec.code, 422);
    assert.match(String(respec.body.message), /spec: Invalid value: .*field is immutable/);
  });

  it('prints claims with their state and slices with node, driver and pool', async () => {
    const table = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
    const claims = await call('GET', claimsPath, undefined, table);
    assert.deepEqual((claims.body.columnDefinitions as { name: string }[]).map((c) => c.name), ['Name', 'State', 'Age']);
    assert.deepEqual((claims.body.rows as { cells: unknown[] }[]).map((r) => r.cells.slice(0, 2)), [['c1', 'allocated,reserved']]);
    const slice = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: 's1' },
      spec: { driver: 'gpu.example.com', pool: { name: 'node-1', generation: 1, resourceSliceCount: 1 }, nodeName: 'node-1', devices: [{ name: 'gpu-0' }] } };
    assert.equal((await call('POST', `${base}/resourceslices`, slice)).code, 201);
    const slices = await call('GET', `${base}/resourceslices`, undefined, table);
    assert.deepEqual((slices.body.columnDefinitions as { name: string }[]).map((c) => c.name), ['Name', 'Node', 'Driver', 'Pool', 'Age']);
    assert.deepEqual((slices.body.rows as { cells: unknown[] }[])[0]!.cells.slice(0, 4), ['s1', 'node-1', 'gpu.example.com', 'node-1']);
    const onNode2 = await call('GET', `${base}/resourceslices?fieldSelector=spec.nodeName%3Dnode-2`);
    assert.deepEqual(onNode2.body.items, []);
    const stored = await call('GET', `${base}/resourceslices/s1`);
    assert.equal((stored.body.metadata as { generation: number }).generation, 1);
  });

  it('deletes a claim with a finalizer only once the finalizer is gone', async () => {
    const created = await call('POST', claimsPath, claim('c2', { metadata: { name: 'c2', finalizers: ['resource.kubernetes.io/delete-protection'] } }));
    assert.equal(created.code, 201);
    const del = await call('DELETE', `${claimsPath}/c2`);
    assert.equal(del.code, 200);
    const marked = await call('GET', `${claimsPath}/c2`);
    assert.ok((marked.body.metadata as { deletionTimestamp?: string }).deletionTimestamp);
    const cleared = await call('PUT', `${claimsPath}/c2`, { ...marked.body, metadata: { ...(marked.body.metadata as object), finalizers: [] } });
    assert.equal(cleared.code, 200);
    assert.equal((await call('GET', `${claimsPath}/c2`)).code, 404);
  });
});
