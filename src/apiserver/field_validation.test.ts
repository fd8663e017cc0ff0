// fieldValidation on writes, as kube-apiserver v1.37 answers it (handlers/create.go, update.go,
// patch.go): Strict refuses unknown fields at any depth, Warn (the default) stores the object and
// names each field in a Warning header, Ignore says nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../api/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { FakeClock } from '../util/clock.js';
import { ApiServer } from './server.js';

interface Answer {
  code: number;
  body: Record<string, unknown>;
  warnings: string[];
}

const typo = (name: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, lables: { a: 'b' } },
  spec: { containers: [{ name: 'c', image: 'x', resources: { reqests: { cpu: '1' } } }] },
});
const strictMessage = 'strict decoding error: unknown field "metadata.lables", unknown field "spec.containers[0].resources.reqests"';

describe('embedded API server: fieldValidation', { timeout: 20_000 }, () => {
  let server: ApiServer;
  let cluster: MemoryCluster;

  async function call(method: string, path: string, body: unknown, contentType = 'application/json'): Promise<Answer> {
    const res = await fetch(server.url + path, { method, headers: { 'Content-Type': contentType }, body: JSON.stringify(body) });
    const warnings = res.headers.get('warning')?.split(/, (?=299 )/) ?? [];
    return { code: res.status, body: JSON.parse(await res.text()) as Record<string, unknown>, warnings };
  }

  before(async () => {
    cluster = new MemoryCluster({ clock: new FakeClock(0), volumeController: false });
    server = await ApiServer.start({ cluster, port: 0, clock: new FakeClock(0) });
  });
  after(async () => {
    await server.close();
  });

  const cases: { name: string; query: string; want: { code: number; message?: string; warnings: string[]; stored: boolean } }[] = [
    { name: 'Strict refuses the create with 400 and every unknown path', query: '?fieldValidation=Strict',
      want: { code: 400, message: `Pod in version "v1" cannot be handled as a Pod: ${strictMessage}`, warnings: [], stored: false } },
    { name: 'no directive means Warn: stored, one Warning header per field', query: '',
      want: { code: 201, warnings: ['299 - "unknown field \\"metadata.lables\\""', '299 - "unknown field \\"spec.containers[0].resources.reqests\\""'], stored: true } },
    { name: 'Warn: stored, one Warning header per field', query: '?fieldValidation=Warn',
      want: { code: 201, warnings: ['299 - "unknown field \\"metadata.lables\\""', '299 - "unknown field \\"spec.containers[0].resources.reqests\\""'], stored: true } },
    { name: 'Ignore: stored without a word', query: '?fieldValidation=Ignore', want: { code: 201, warnings: [], stored: true } },
    { name: 'an unknown directive is refused as CreateOptions validation refuses it', query: '?fieldValidation=strict',
      want: { code: 422, message: 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"', warnings: [], stored: false } },
  ];
  cases.forEach((c, i) => {
    it(`create: ${c.name}`, async () => {
      const name = `p${i}`;
      const r = await call('POST', `/api/v1/namespaces/default/pods${c.query}`, typo(name));
      assert.equal(r.code, c.want.code, JSON.stringify(r.body));
      if (c.want.message !== undefined) assert.equal(r.body.message, c.want.message);
      assert.deepEqual(r.warnings, c.want.warnings);
      const stored = cluster.get<Pod>('Pod', 'default', name);
      assert.equal(stored !== undefined, c.want.stored);
      // What was stored was decoded: the unknown fields are gone, as from kube-apiserver's storage.
      if (stored) assert.deepEqual([Object.keys(stored.metadata).includes('lables'), stored.spec.containers[0]!.resources], [false, {}]);
    });
  });

  it('update: Strict refuses with the same 400; a known field still updates', async () => {
    const created = await call('POST', '/api/v1/namespaces/default/pods?fieldValidation=Strict', { ...typo('u'), metadata: { name: 'u' }, spec: { containers: [{ name: 'c', image: 'x' }] } });
    assert.equal(created.code, 201);
    const bad = await call('PUT', '/api/v1/namespaces/default/pods/u?fieldValidation=Strict', typo('u'));
    assert.equal(bad.code, 400);
    assert.equal(bad.body.message, `Pod in version "v1" cannot be handled as a Pod: ${strictMessage}`);
    const good = await call('PUT', '/api/v1/namespaces/default/pods/u?fieldValidation=Strict', { ...created.body, metadata: { ...(created.body.metadata as object), labels: { a: 'b' } } });
    assert.equal(good.code, 200);
  });

  it('patch: Strict refuses a strategic merge patch with 422 on "patch", the patch printed as Go prints a map', async () => {
    await call('POST', '/api/v1/namespaces/default/pods', { ...typo('s'), metadata: { name: 's' }, spec: { containers: [{ name: 'c', image: 'x' }] } });
    const r = await call('PATCH', '/api/v1/namespaces/default/pods/s?fieldValidation=Strict', { spec: { nodeSelecter: { zone: 'a' }, priority: 5 } }, 'application/strategic-merge-patch+json');
    assert.equal(r.code, 422);
    assert.equal(r.body.message, ' "" is invalid: patch: Invalid value: "map[spec:map[nodeSelecter:map[zone:a] priority:5]]": strict decoding error: unknown field "spec.nodeSelecter"');
    const warned = await call('PATCH', '/api/v1/namespaces/default/pods/s', { metadata: { labelz: { a: 'b' } } }, 'application/merge-patch+json');
    assert.equal(warned.code, 200);
    assert.deepEqual(warned.warnings, ['299 - "unknown field \\"metadata.labelz\\""']);
  });

  it('checks every kind it serves: a Deployment\'s pod template, a ResourceClaim\'s requests', async () => {
    const dep = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }], tolerashuns: [] } } },
    };
    const r = await call('POST', '/apis/apps/v1/namespaces/default/replicasets?fieldValidation=Strict', dep);
    assert.equal(r.code, 400);
    assert.match(String(r.body.message), /unknown field "spec\.template\.spec\.tolerashuns"$/);
    const claim = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c' }, spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'gpu', cout: 2 } }] } } };
    const rc = await call('POST', '/apis/resource.k8s.io/v1/namespaces/default/resourceclaims?fieldValidation=Strict', claim);
    assert.equal(rc.code, 400);
    assert.match(String(rc.body.message), /unknown field "spec\.devices\.requests\[0\]\.exactly\.cout"$/);
  });
});
