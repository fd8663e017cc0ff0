// Bad input through the embedded API server: the Status kube-apiserver answers (400 for what does
// not decode, 403 for admission, 409 for duplicates, 422 with causes for invalid objects, 404 for
// unknown resources), never a 500, and nothing stored when a write is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryCluster } from '../cluster/memory/store.js';
import { FakeClock } from '../util/clock.js';
import { ApiServer } from './server.js';

interface Answer {
  code: number;
  body: Record<string, unknown>;
}

describe('embedded API server: bad input', { timeout: 20_000 }, () => {
  let server: ApiServer;
  let cluster: MemoryCluster;

  async function call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
    const res = await fetch(server.url + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': contentType },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { code: res.status, body: JSON.parse(text) as Record<string, unknown> };
  }

  const pod = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } });
  const node = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, ...extra });

  before(async () => {
    cluster = new MemoryCluster({ clock: new FakeClock(0), volumeController: false });
    server = await ApiServer.start({ cluster, port: 0, clock: new FakeClock(0) });
    assert.equal((await call('POST', '/api/v1/nodes', node('n1', { status: { allocatable: { cpu: '4' } } }))).code, 201);
  });
  after(async () => {
    await server.close();
  });

  it('answers 400 for a value of the wrong type, as Go decoding does, and stores nothing', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/pods', pod('p', { containers: 5 }));
    assert.equal(r.code, 400);
    assert.equal(r.body.reason, 'BadRequest');
    assert.equal(r.body.message, 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type []v1.Container');
    assert.equal(cluster.get('Pod', 'default', 'p'), undefined);
  });

  it('answers 400 for an unparsable quantity', async () => {
    const r = await call('POST', '/api/v1/nodes', node('n2', { status: { allocatable: { cpu: '4x' } } }));
    assert.equal(r.code, 400);
    assert.equal(r.body.message, `Node in version "v1" cannot be handled as a Node: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    assert.equal(cluster.get('Node', '', 'n2'), undefined);
  });

  it('answers 422 Invalid with one cause per field error, and stores nothing', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/pods', pod('p', { topologySpreadConstraints: [{ maxSkew: 1, whenUnsatisfiable: 'Sometimes' }] }));
    assert.equal(r.code, 422);
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.message, 'Pod "p" is invalid: [spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty, ' +
      'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"]');
    assert.deepEqual((r.body.details as { causes: unknown[] }).causes, [
      { reason: 'FieldValueRequired', message: 'Required value: can not be empty', field: 'spec.topologySpreadConstraints[0].topologyKey' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"', field: 'spec.topologySpreadConstraints[0].whenUnsatisfiable' },
    ]);
    assert.equal(cluster.get('Pod', 'default', 'p'), undefined);
  });

  it('stores a null taint as an empty one, which validation refuses', async () => {
    const r = await call('POST', '/api/v1/nodes', node('n3', { spec: { taints: [null] } }));
    assert.equal(r.code, 422);
    assert.deepEqual((r.body.details as { causes: { field: string }[] }).causes.map((c) => c.field), ['metadata.taints[0].key', 'metadata.taints[0].key', 'metadata.taints[0].effect']);
    assert.equal(cluster.get('Node', '', 'n3'), undefined);
  });

  it('answers 409 AlreadyExists for a second object with one name', async () => {
    const r = await call('POST', '/api/v1/nodes', node('n1'));
    assert.equal(r.code, 409);
    assert.equal(r.body.reason, 'AlreadyExists');
    assert.equal(r.body.message, 'nodes "n1" already exists');
  });

  it('answers 403 when Priority admission finds no such class', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/pods', pod('p', { priorityClassName: 'gold' }));
    assert.equal(r.code, 403);
    assert.equal(r.body.reason, 'Forbidden');
    assert.equal(r.body.message, 'pods "p" is forbidden: no PriorityClass with name gold was found');
    assert.equal(cluster.get('Pod', 'default', 'p'), undefined);
  });

  it('refuses an update or a patch that makes an object invalid, and keeps the stored one', async () => {
    const before = cluster.get('Node', '', 'n1');
    const put = await call('PUT', '/api/v1/nodes/n1/status', node('n1', { status: { allocatable: { cpu: '-1' } } }));
    assert.equal(put.code, 422);
    assert.equal(put.body.message, 'Node "n1" is invalid: status.allocatable.cpu: Invalid value: "-1": must be greater than or equal to 0');
    const patch = await call('PATCH', '/api/v1/nodes/n1', { spec: { taints: [{ key: 'a', effect: 'Never' }] } }, 'application/merge-patch+json');
    assert.equal(patch.code, 422);
    const typed = await call('PATCH', '/api/v1/nodes/n1', { spec: { unschedulable: 'yes' } }, 'application/strategic-merge-patch+json');
    assert.equal(typed.code, 400);
    assert.equal(typed.body.message, 'Node in version "v1" cannot be handled as a Node: json: cannot unmarshal string into Go struct field NodeSpec.spec.unschedulable of type bool');
    assert.equal(cluster.get('Node', '', 'n1'), before);
  });

  it('answers 400 for malformed patches and bodies', async () => {
    const table: [string, string, string][] = [
      ['application/json-patch+json', '[5]', 'json: cannot unmarshal non-object into Go value of type jsonpatch.Operation'],
      ['application/json-patch+json', '[{"op":"add"}]', 'add operation does not apply: doc is missing path: ""'],
      ['application/json-patch+json', '[{"op":"copy","from":"/constructor","path":"/x"}]', 'copy operation does not apply: doc is missing path: "/constructor"'],
      ['application/json-patch+json', '[{"op":"add","path":"/metadata/__proto__/x","value":1}]', 'path "/metadata/__proto__/x" is not allowed'],
      ['application/merge-patch+json', '{"spec":', 'error decoding patch: Unexpected end of JSON input'],
      ['application/merge-patch+json', '{"metadata":{"labels":{"__proto__":{"a":"b"}}}}', 'error decoding patch: field "__proto__" is not allowed'],
    ];
    for (const [type, body, message] of table) {
      const r = await call('PATCH', '/api/v1/nodes/n1', body, type);
      assert.equal(r.code, 400, body);
      assert.equal(r.body.message, message, body);
    }
    const deep = await call('POST', '/api/v1/nodes', `{"metadata":{"name":"deep"},"x":${'['.repeat(500)}${']'.repeat(500)}}`);
    assert.equal(deep.code, 400);
    assert.equal(deep.body.message, 'the body of the request could not be decoded as JSON: exceeded max depth of 100 nested objects and arrays');
  });

  it('answers 400 for a broken URL escape and 404 for an unknown resource', async () => {
    const bad = await call('GET', '/api/v1/namespaces/default/pods/%E0%A4%A');
    assert.equal(bad.code, 400);
    assert.equal(bad.body.reason, 'BadRequest');
    const unknown = await call('GET', '/api/v1/frobnicators');
    assert.equal(unknown.code, 404);
    assert.equal(unknown.body.reason, 'NotFound');
  });

  it('clears a nominatedNodeName on binding and refuses a new one on a bound pod (ClearingNominatedNodeNameAfterBinding)', async () => {
    assert.equal((await call('POST', '/api/v1/namespaces/default/pods', pod('nominated'))).code, 201);
    const status = (nominatedNodeName: string) => ({ ...pod('nominated'), status: { nominatedNodeName } });
    assert.equal((await call('PATCH', '/api/v1/namespaces/default/pods/nominated/status', { status: { nominatedNodeName: 'n1' } }, 'application/merge-patch+json')).code, 200);
    const bound = await call('POST', '/api/v1/namespaces/default/pods/nominated/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'nominated' }, target: { kind: 'Node', name: 'n1' } });
    assert.equal(bound.code, 201);
    assert.equal(cluster.getPod('default', 'nominated')?.status?.nominatedNodeName, undefined);
    const refused = await call('PUT', '/api/v1/namespaces/default/pods/nominated/status', { ...status('n2'), spec: cluster.getPod('default', 'nominated')!.spec });
    assert.equal(refused.code, 422);
    assert.equal(refused.body.message, 'Pod "nominated" is invalid: status.nominatedNodeName: Forbidden: may not be set on pods that are already bound to a node');
  });
});
