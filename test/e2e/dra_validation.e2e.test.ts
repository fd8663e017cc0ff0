// Our validation of resource.k8s.io/v1 objects against the pinned kube-apiserver's: each object is
// sent to the real API server as a dry run and checked by ours, and the answers must be the same
// (accepted, or refused with the same field errors). Skipped, saying why, when the binaries are not built.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateFieldErrors, checkCreate, kindValidation } from '../../src/api/validation/index.js';
import { ControlPlane, errorLines, missingBinaries } from './control_plane.js';

const skip = missingBinaries();
const v1 = 'resource.k8s.io/v1';
const request = (exactly: Record<string, unknown>, name = 'gpu') => ({ name, exactly: { deviceClassName: 'gpu.example.com', ...exactly } });
const claim = (name: string, devices: Record<string, unknown>) => ({ apiVersion: v1, kind: 'ResourceClaim', metadata: { name }, spec: { devices } });
const slice = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: v1, kind: 'ResourceSlice', metadata: { name }, spec: { driver: 'gpu.example.com', pool: { name: 'node-1', generation: 1, resourceSliceCount: 1 }, ...spec },
});

const objects: { path: string; obj: Record<string, unknown> & { kind: string } }[] = [
  ...[
    claim('ok', { requests: [request({})] }),
    claim('no-kind-of-request', { requests: [{ name: 'gpu' }] }),
    claim('both-kinds', { requests: [{ name: 'gpu', exactly: { deviceClassName: 'c' }, firstAvailable: [{ name: 'a', deviceClassName: 'c' }] }] }),
    claim('bad-names', { requests: [request({}, 'GPU'), request({}), request({})] }),
    claim('no-class', { requests: [{ name: 'gpu', exactly: { deviceClassName: '' } }] }),
    claim('all-with-count', { requests: [request({ allocationMode: 'All', count: 2 })] }),
    claim('negative-count', { requests: [request({ count: -1 })] }),
    claim('unknown-mode', { requests: [request({ allocationMode: 'Some' })] }),
    claim('selector-without-cel', { requests: [request({ selectors: [{}] })] }),
    claim('duplicate-subrequests', { requests: [{ name: 'gpu', firstAvailable: [{ name: 'big', deviceClassName: 'c' }, { name: 'big', deviceClassName: 'c' }] }] }),
    claim('constraint-refs', { requests: [request({}, 'a'), { name: 'b', firstAvailable: [{ name: 'x', deviceClassName: 'c' }] }], constraints: [{ requests: ['a', 'b/x', 'b/y', 'c'], matchAttribute: 'example.com/numa' }] }),
    claim('constraint-attribute', { requests: [request({}, 'a')], constraints: [{ matchAttribute: 'numa' }, {}] }),
    claim('config', { requests: [request({}, 'a')], config: [{ requests: ['a'], opaque: { driver: '', parameters: [1] } }, {}] }),
    claim('tolerations', { requests: [request({ tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }, { key: 'k', effect: 'Sometimes' }] })] }),
    claim('subrequest-fields', { requests: [{ name: 'gpu', firstAvailable: [{ name: 'Big', deviceClassName: '', allocationMode: 'All', count: 3 }] }] }),
    claim('too-many-subrequests', { requests: [{ name: 'gpu', firstAvailable: Array.from({ length: 9 }, (_, i) => ({ name: `s${i}`, deviceClassName: 'c' })) }] }),
    claim('distinct-attribute', { requests: [request({}, 'a')], constraints: [{ distinctAttribute: 'example.com/numa' }, { matchAttribute: 'example.com/a', distinctAttribute: 'example.com/b' }] }),
    claim('config-refs', { requests: [request({}, 'a')], config: [{ requests: ['a', 'a', 'b/c/d'], opaque: { driver: 'Gpu.Example.com', parameters: { x: 1 } } }] }),
    claim('empty', {}),
    claim('cel-ok', { requests: [request({ selectors: [{ cel: { expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "a100"' } }] })] }),
    claim('cel-not-bool', { requests: [request({ selectors: [{ cel: { expression: '"x"' } }] })] }),
  ].map((obj) => ({ path: '/apis/resource.k8s.io/v1/namespaces/default/resourceclaims', obj })),
  ...[
    slice('ok', { nodeName: 'node-1', devices: [{ name: 'gpu-0', attributes: { model: { string: 'a100' }, 'gpu.example.com/mem': { int: 40 } }, capacity: { memory: { value: '40Gi' } } }] }),
    slice('nowhere', { devices: [] }),
    slice('twice', { nodeName: 'node-1', allNodes: true }),
    slice('all-nodes-false', { nodeName: 'node-1', allNodes: false }),
    slice('pool', { nodeName: 'node-1', pool: { name: '', generation: -1, resourceSliceCount: 0 } }),
    slice('duplicate-devices', { nodeName: 'node-1', devices: [{ name: 'gpu-0' }, { name: 'gpu-0' }] }),
    slice('attributes', { nodeName: 'node-1', devices: [{ name: 'gpu-0', attributes: { 'bad-name': { int: 1 }, empty: {}, v: { version: '1.2' } } }] }),
    slice('per-device-fields', { nodeName: 'node-1', devices: [{ name: 'gpu-0', nodeName: 'node-1' }] }),
    slice('taints', { nodeName: 'node-1', devices: [{ name: 'gpu-0', taints: [{ key: 'k', effect: 'Later' }] }] }),
    slice('two-values', { nodeName: 'node-1', devices: [{ name: 'gpu-0', attributes: { two: { int: 1, bool: true }, list: { ints: [] } } }] }),
    slice('selector-terms', { nodeSelector: { nodeSelectorTerms: [] } }),
    slice('empty-node-name', { nodeName: '' }),
    slice('counters', { nodeName: 'node-1', sharedCounters: [{ name: 'Mem', counters: {} }, { name: 'mem', counters: { 'bad_name': { value: '1' } } }] }),
    slice('consumes', { nodeName: 'node-1', devices: [{ name: 'gpu-0', consumesCounters: [{ counterSet: '', counters: {} }] }] }),
    slice('request-policy', { nodeName: 'node-1', devices: [{ name: 'gpu-0', capacity: { mem: { value: '1Gi', requestPolicy: { default: '1Gi' } } } }] }),
    slice('per-device', { perDeviceNodeSelection: true, devices: [{ name: 'a' }, { name: 'b', nodeName: 'node-1', allNodes: true }, { name: 'c', allNodes: false, nodeName: '' }] }),
    slice('domain-names', { nodeName: 'node-1', devices: [{ name: 'gpu-0', attributes: { '/x': { int: 1 }, 'example.com/': { int: 1 }, 'toolongidentifierxxxxxxxxxxxxxxxxx': { int: 1 } } }] }),
    slice('binding-conditions', { nodeName: 'node-1', devices: [{ name: 'gpu-0', bindingConditions: ['a', 'a'], bindingFailureConditions: ['a'] }] }),
  ].map((obj) => ({ path: '/apis/resource.k8s.io/v1/resourceslices', obj })),
  { path: '/apis/resource.k8s.io/v1/deviceclasses', obj: { apiVersion: v1, kind: 'DeviceClass', metadata: { name: 'c1' }, spec: { selectors: [{}], extendedResourceName: 'gpu' } } },
  { path: '/apis/resource.k8s.io/v1/deviceclasses', obj: { apiVersion: v1, kind: 'DeviceClass', metadata: { name: 'c2' }, spec: { extendedResourceName: 'example.com/gpu', config: [{ opaque: { driver: 'gpu.example.com', parameters: { a: 1 } } }] } } },
  { path: '/apis/resource.k8s.io/v1/namespaces/default/resourceclaimtemplates', obj: { apiVersion: v1, kind: 'ResourceClaimTemplate', metadata: { name: 't' }, spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: '' } }] } } } } },
  { path: '/apis/resource.k8s.io/v1/devicetaintrules', obj: { apiVersion: v1, kind: 'DeviceTaintRule', metadata: { name: 'r' }, spec: { deviceSelector: { driver: '', device: 'GPU' }, taint: { key: 'k' } } } },
  { path: '/apis/resource.k8s.io/v1/devicetaintrules', obj: { apiVersion: v1, kind: 'DeviceTaintRule', metadata: { name: 'r2' }, spec: { deviceSelector: { pool: 'a/B' }, taint: { key: 'k', value: 'not a value', effect: 'NoExecute' } } } },
  { path: '/apis/resource.k8s.io/v1/deviceclasses', obj: { apiVersion: v1, kind: 'DeviceClass', metadata: { name: 'c3' }, spec: { extendedResourceName: 'kubernetes.io/gpu', config: [{}] } } },
];

describe('DRA validation agrees with the pinned kube-apiserver', { skip: skip ?? false, timeout: 300_000 }, () => {
  let cp: ControlPlane;
  before(async () => {
    cp = await ControlPlane.start();
  });
  after(async () => {
    await cp?.stop();
  });

  const pod = (name: string, claims: unknown[], containerClaims: unknown[]) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'x', resources: { claims: containerClaims } }], resourceClaims: claims },
  });
  const pods = [
    pod('claim-names', [{ name: 'gpu', resourceClaimName: 'Shared_GPU' }, { name: 'gpu', resourceClaimTemplateName: 't' }, { name: 'x' }], []),
    pod('references', [{ name: 'gpu', resourceClaimTemplateName: 't' }], [{ name: 'gpu', request: 'a' }, { name: 'gpu' }, { name: 'other' }]),
  ];
  for (const obj of pods) {
    it(`Pod ${obj.metadata.name}`, async () => {
      const r = await cp.api('POST', '/api/v1/namespaces/default/pods?dryRun=All', obj);
      const ours = checkCreate(kindValidation('Pod')!, obj);
      assert.equal(r.status, 422);
      assert.ok(!ours.ok);
      assert.deepEqual(errorLines(`x is invalid: ${aggregateFieldErrors(ours.errors)}`), errorLines(String((r.body as { message?: string }).message)));
    });
  }

  const statuses: { name: string; status: Record<string, unknown> }[] = [
    { name: 'reserved without allocation', status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }] } },
    { name: 'reserved twice', status: { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] } },
      reservedFor: [{ resource: 'pods', name: 'p', uid: 'u1' }, { resource: 'pods', name: 'p', uid: 'u1' }, { resource: '', name: '', uid: 'u2' }] } },
    { name: 'unknown request and bad names', status: { allocation: { devices: { results: [{ request: 'tpu', driver: '', pool: 'A', device: 'Gpu' }] } } } },
    { name: 'device status of a device not allocated', status: { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] } },
      devices: [{ driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-9' }] } },
  ];
  for (const c of statuses) {
    it(`ResourceClaim status: ${c.name}`, async () => {
      const path = '/apis/resource.k8s.io/v1/namespaces/default/resourceclaims';
      const name = `status-${statuses.indexOf(c)}`;
      const stored = await cp.create(path, claim(name, { requests: [request({})] })) as Record<string, unknown> & { kind?: string };
      const next = { ...stored, status: c.status };
      const r = await cp.api('PUT', `${path}/${name}/status?dryRun=All`, next);
      const ours = kindValidation('ResourceClaim')!.validateStatusUpdate!({ ...stored, kind: 'ResourceClaim' } as never, { ...next, kind: 'ResourceClaim' } as never);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.deepEqual(errorLines(`x is invalid: ${aggregateFieldErrors(ours)}`), errorLines(String((r.body as { message?: string }).message)));
    });
  }

  for (const { path, obj } of objects) {
    const name = (obj.metadata as { name: string }).name;
    it(`${obj.kind} ${name}`, async () => {
      const r = await cp.api('POST', `${path}?dryRun=All`, obj);
      const k = kindValidation(obj.kind)!;
      // The API server takes the namespace from the URL.
      const ours = checkCreate(k, k.namespaced ? { ...obj, metadata: { ...(obj.metadata as object), namespace: 'default' } } : obj);
      if (r.status === 201 || r.status === 200) {
        assert.ok(ours.ok, `upstream accepts it, we refuse: ${ours.ok ? '' : aggregateFieldErrors(ours.errors)}`);
        return;
      }
      const message = String((r.body as { message?: string }).message);
      assert.equal(r.status, 422, message);
      assert.ok(!ours.ok, `upstream refuses it (${message}), we accept`);
      assert.deepEqual(errorLines(`x is invalid: ${aggregateFieldErrors(ours.errors)}`), errorLines(message));
    });
  }
});
