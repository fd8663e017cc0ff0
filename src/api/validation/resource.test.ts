// resource.k8s.io/v1 validation, table-driven after upstream's validation_*_test.go (in our words):
// each case is one object and the exact error lines kube-apiserver reports for it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import type { DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice } from '../dra_types.js';
import { checkCreate, fieldErrorString, kindValidation } from './index.js';
import { setDeviceSelectorCheck } from './resource_cel.js';
import { plainEqual, printedEqual } from './pod_update.js';

const errorsOf = (kind: string, obj: unknown): string[] => {
  const r = checkCreate(kindValidation(kind)!, obj);
  return r.ok ? [] : r.errors.map(fieldErrorString);
};

const claim = (devices: NonNullable<ResourceClaim['spec']['devices']>, name = 'claim'): ResourceClaim =>
  ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name, namespace: 'default' }, spec: { devices } });
const exactly = (extra: Record<string, unknown> = {}) => ({ deviceClassName: 'gpu.example.com', ...extra });

describe('ResourceClaim validation', () => {
  const cases: { name: string; devices: NonNullable<ResourceClaim['spec']['devices']>; want: string[] }[] = [
    { name: 'one request, defaulted to one device', devices: { requests: [{ name: 'gpu', exactly: exactly() }] }, want: [] },
    { name: 'all devices of a class', devices: { requests: [{ name: 'gpu', exactly: exactly({ allocationMode: 'All' }) }] }, want: [] },
    {
      name: 'a request needs exactly or firstAvailable',
      devices: { requests: [{ name: 'gpu' }] },
      want: ['spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required'],
    },
    {
      name: 'not both',
      devices: { requests: [{ name: 'gpu', exactly: exactly(), firstAvailable: [{ name: 'a', deviceClassName: 'c' }] }] },
      want: ['spec.devices.requests[0]: Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'],
    },
    {
      name: 'request names are DNS labels and unique',
      devices: { requests: [{ name: 'GPU', exactly: exactly() }, { name: 'gpu', exactly: exactly() }, { name: 'gpu', exactly: exactly() }] },
      want: [
        `spec.devices.requests[0].name: Invalid value: "GPU": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        'spec.devices.requests[2]: Duplicate value: {"name":"gpu","exactly":{"deviceClassName":"gpu.example.com","allocationMode":"ExactCount","count":1}}',
      ],
    },
    { name: 'a class name is required', devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: '' } }] }, want: ['spec.devices.requests[0].exactly.deviceClassName: Required value'] },
    {
      name: 'count with All',
      devices: { requests: [{ name: 'gpu', exactly: exactly({ allocationMode: 'All', count: 2 }) }] },
      want: ["spec.devices.requests[0].exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All'"],
    },
    {
      name: 'negative count',
      devices: { requests: [{ name: 'gpu', exactly: exactly({ count: -1 }) }] },
      want: ['spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero'],
    },
    {
      name: 'unknown allocation mode',
      devices: { requests: [{ name: 'gpu', exactly: exactly({ allocationMode: 'Some' }) }] },
      want: ['spec.devices.requests[0].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount"'],
    },
    {
      name: 'a selector needs cel',
      devices: { requests: [{ name: 'gpu', exactly: exactly({ selectors: [{}] }) }] },
      want: ['spec.devices.requests[0].exactly.selectors[0].cel: Required value'],
    },
    {
      name: 'subrequests are named, unique and at most 8',
      devices: { requests: [{ name: 'gpu', firstAvailable: [{ name: 'big', deviceClassName: 'c' }, { name: 'big', deviceClassName: 'c' }] }] },
      want: ['spec.devices.requests[0].firstAvailable[1]: Duplicate value: {"name":"big","deviceClassName":"c","allocationMode":"ExactCount","count":1}'],
    },
    {
      name: 'too many subrequests',
      devices: { requests: [{ name: 'gpu', firstAvailable: Array.from({ length: 9 }, (_, i) => ({ name: `s${i}`, deviceClassName: 'c' })) }] },
      want: ['spec.devices.requests[0].firstAvailable: Too many: 9: must have at most 8 items'],
    },
    {
      name: 'constraints name requests and subrequests of the claim',
      devices: {
        requests: [{ name: 'a', exactly: exactly() }, { name: 'b', firstAvailable: [{ name: 'x', deviceClassName: 'c' }] }],
        constraints: [{ requests: ['a', 'b/x', 'b/y', 'c'], matchAttribute: 'example.com/numa' }],
      },
      want: [
        "spec.devices.constraints[0].requests[2]: Invalid value: \"b/y\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'",
        "spec.devices.constraints[0].requests[3]: Invalid value: \"c\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'",
      ],
    },
    {
      name: 'a constraint needs a fully qualified attribute',
      devices: { requests: [{ name: 'a', exactly: exactly() }], constraints: [{ matchAttribute: 'numa' }, {}] },
      want: [
        'spec.devices.constraints[0].matchAttribute: Invalid value: "numa": a fully qualified name must be a domain and a name separated by a slash',
        'spec.devices.constraints[1]: Required value: exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set',
      ],
    },
    {
      name: 'opaque config needs a driver and an object',
      devices: { requests: [{ name: 'a', exactly: exactly() }], config: [{ requests: ['a'], opaque: { driver: '', parameters: [1] } }, {}] },
      want: [
        'spec.devices.config[0].opaque.driver: Required value',
        'spec.devices.config[0].opaque.parameters: Invalid value: "<value omitted>": must be a valid JSON object',
        'spec.devices.config[1].opaque: Required value',
      ],
    },
    {
      name: 'tolerations',
      devices: { requests: [{ name: 'a', exactly: exactly({ tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }, { key: 'k', effect: 'Sometimes' }] }) }] },
      want: [
        'spec.devices.requests[0].exactly.tolerations[0].value: Invalid value: "v": must be empty for operator `Exists`',
        'spec.devices.requests[0].exactly.tolerations[1].effect: Unsupported value: "Sometimes": supported values: "NoExecute", "NoSchedule", "None"',
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsOf('ResourceClaim', claim(c.devices)), c.want));

  it('decodes as Go does: a count that is not an integer is a 400', () => {
    const r = checkCreate(kindValidation('ResourceClaim')!, claim({ requests: [{ name: 'a', exactly: exactly({ count: 'two' }) }] }));
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.decode !== null);
    assert.match(!r.ok && r.decode ? r.decode.message : '', /cannot unmarshal string into Go struct field ExactDeviceRequest.spec.devices.requests.exactly.count of type int64/);
  });

  it('compiles CEL selectors in the DRA environment and refuses what does not compile, in upstream\'s words', () => {
    const selectors = (...expressions: string[]) => claim({ requests: [{ name: 'a', exactly: exactly({ selectors: expressions.map((expression) => ({ cel: { expression } })) }) }] });
    assert.deepEqual(errorsOf('ResourceClaim', selectors('device.driver == "gpu.example.com"', 'device.attributes["gpu.example.com"].model == "a100"')), []);
    const errs = errorsOf('ResourceClaim', selectors('device.driver ==', '"not a bool"'));
    assert.equal(errs.length, 2);
    assert.ok(errs[0]!.startsWith('spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: "device.driver ==": compilation failed: ERROR: <input>:'), errs[0]);
    assert.equal(errs[1], 'spec.devices.requests[0].exactly.selectors[1].cel.expression: Invalid value: "\\"not a bool\\"": must evaluate to bool or the unknown type, not string');
  });

  it('reports what the CEL environment reports, and a cost over the limit as upstream', () => {
    setDeviceSelectorCheck((expr) => (expr === 'device.driver ==' ? { error: { type: 'Invalid', detail: 'compilation failed: ERROR: <input>:1:17: Syntax error' }, maxCost: 0 } : { error: null, maxCost: 2_000_000 }));
    try {
      const errs = errorsOf('ResourceClaim', claim({ requests: [{ name: 'a', exactly: exactly({ selectors: [{ cel: { expression: 'device.driver ==' } }, { cel: { expression: 'expensive' } }] }) }] }));
      assert.deepEqual(errs, [
        'spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: "device.driver ==": compilation failed: ERROR: <input>:1:17: Syntax error',
        'spec.devices.requests[0].exactly.selectors[1].cel.expression: Forbidden: too complex, exceeds cost limit',
      ]);
    } finally {
      setDeviceSelectorCheck(null);
    }
  });

  it('keeps the spec immutable on update', () => {
    const k = kindValidation('ResourceClaim')!;
    const old = claim({ requests: [{ name: 'a', exactly: exactly() }] });
    const changed = claim({ requests: [{ name: 'a', exactly: exactly({ count: 2 }) }] });
    assert.deepEqual(k.validateUpdate!(old as KubeObject, structuredClone(old) as KubeObject), []);
    const errs = k.validateUpdate!(old as KubeObject, changed as KubeObject).map(fieldErrorString);
    assert.equal(errs.length, 1);
    assert.ok(errs[0]!.startsWith('spec: Invalid value: ') && errs[0]!.endsWith(': field is immutable'), errs[0]);
  });
});

describe('ResourceClaim status validation', () => {
  const k = kindValidation('ResourceClaim')!;
  const base = claim({ requests: [{ name: 'gpu', exactly: exactly() }] });
  const allocation = { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] } };
  const ref = (uid: string) => ({ resource: 'pods', name: `p-${uid}`, uid });
  const status = (s: ResourceClaim['status'], old: ResourceClaim['status'] = {}, deleting = false) =>
    k.validateStatusUpdate!({ ...base, status: old } as KubeObject, { ...base, metadata: { ...base.metadata, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) }, status: s } as KubeObject).map(fieldErrorString);
  const cases: { name: string; got: () => string[]; want: string[] }[] = [
    { name: 'an allocation reserved for a pod', got: () => status({ allocation, reservedFor: [ref('u1')] }), want: [] },
    { name: 'reserved without allocation', got: () => status({ reservedFor: [ref('u1')] }), want: ['status.reservedFor: Forbidden: may not be specified when `allocated` is not set'] },
    { name: 'a consumer reserved twice', got: () => status({ allocation, reservedFor: [ref('u1'), ref('u1')] }), want: ['status.reservedFor[1]: Duplicate value: {"resource":"pods","name":"p-u1","uid":"u1"}'] },
    {
      name: 'at most 256 consumers',
      got: () => status({ allocation, reservedFor: Array.from({ length: 257 }, (_, i) => ref(`u${i}`)) }),
      want: ['status.reservedFor: Too many: 257: must have at most 256 items'],
    },
    { name: 'consumer fields required', got: () => status({ allocation, reservedFor: [{ resource: '', name: '', uid: '' }] }), want: ['status.reservedFor[0].resource: Required value', 'status.reservedFor[0].name: Required value', 'status.reservedFor[0].uid: Required value'] },
    {
      name: 'no new consumers while the claim is deleted',
      got: () => status({ allocation, reservedFor: [ref('u1'), ref('u2')] }, { allocation, reservedFor: [ref('u1')] }, true),
      want: ['status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'],
    },
    { name: 'removing consumers of a deleted claim is fine', got: () => status({ allocation }, { allocation, reservedFor: [ref('u1')] }, true), want: [] },
    {
      name: 'results name requests of the claim',
      got: () => status({ allocation: { devices: { results: [{ request: 'tpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] } } }),
      want: ["status.allocation.devices.results[0].request: Invalid value: \"tpu\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"],
    },
    {
      name: 'device status only for allocated devices',
      got: () => status({ allocation, devices: [{ driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-9' }] }),
      want: ['status.devices[0]: Invalid value: {"Driver":"gpu.example.com","Pool":"node-1","Device":"gpu-9","ShareID":""}: must be an allocated device in the claim'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(c.got(), c.want));

  it('an allocation once set cannot change, only be removed', () => {
    const other = { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-1' }] } };
    const errs = status({ allocation: other }, { allocation });
    assert.equal(errs.length, 1);
    assert.ok(errs[0]!.startsWith('status.allocation: Invalid value: ') && errs[0]!.endsWith('field is immutable'));
    assert.deepEqual(status({}, { allocation }), []);
  });
});

describe('ResourceSlice validation', () => {
  const slice = (spec: Partial<ResourceSlice['spec']>): ResourceSlice => ({
    apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: 'node-1-gpu' },
    spec: { driver: 'gpu.example.com', pool: { name: 'node-1', generation: 1, resourceSliceCount: 1 }, ...spec },
  });
  const cases: { name: string; spec: Partial<ResourceSlice['spec']>; want: string[] }[] = [
    { name: 'node-local devices', spec: { nodeName: 'node-1', devices: [{ name: 'gpu-0', attributes: { model: { string: 'a100' }, 'gpu.example.com/mem': { int: 40 } }, capacity: { memory: { value: '40Gi' } } }] }, want: [] },
    { name: 'network-attached devices for all nodes', spec: { allNodes: true, devices: [{ name: 'nic-0' }] }, want: [] },
    { name: 'where devices are must be said', spec: { devices: [] }, want: ['spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required'] },
    {
      name: 'and said once',
      spec: { nodeName: 'node-1', allNodes: true },
      want: ['spec: Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set'],
    },
    { name: 'allNodes false', spec: { nodeName: 'node-1', allNodes: false }, want: ['spec.allNodes: Invalid value: false: must be either unset or set to true'] },
    {
      name: 'a node selector with one term',
      spec: { nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }] } },
      // Long values are cut in messages (field.ts): the path and the reason are what matter.
      want: ['spec.nodeSelector.nodeSelectorTerms: Invalid value: [{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]},{"matchExpressions":[{"key":"zone","operator":"In"...: must have exactly one node selector term'],
    },
    {
      name: 'pool fields',
      spec: { nodeName: 'node-1', pool: { name: '', generation: -1, resourceSliceCount: 0 } },
      want: ['spec.pool.name: Required value', 'spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero', 'spec.pool.generation: Invalid value: -1: must be greater than or equal to zero'],
    },
    {
      name: 'device names unique',
      spec: { nodeName: 'node-1', devices: [{ name: 'gpu-0' }, { name: 'gpu-0' }] },
      want: ['spec.devices[1]: Duplicate value: "gpu-0"'],
    },
    {
      name: 'attributes need exactly one value and C identifiers',
      spec: { nodeName: 'node-1', devices: [{ name: 'gpu-0', attributes: { 'bad-name': { int: 1 }, empty: {}, two: { int: 1, bool: true }, v: { version: '1.2' } } }] },
      want: [
        "spec.devices[0].attributes: Invalid value: \"bad-name\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
        'spec.devices[0].attributes[empty]: Invalid value: "": must specify one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`',
        'spec.devices[0].attributes[two]: Invalid value: "{int, bool}": must specify exactly one of: `int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`',
        'spec.devices[0].attributes[v].version: Invalid value: "1.2": must be a string compatible with semver.org spec 2.0.0',
      ],
    },
    {
      name: 'per-device node fields only with perDeviceNodeSelection',
      spec: { nodeName: 'node-1', devices: [{ name: 'gpu-0', nodeName: 'node-1' }] },
      want: ['spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec'],
    },
    {
      name: 'taints need a key and a known effect',
      spec: { nodeName: 'node-1', devices: [{ name: 'gpu-0', taints: [{ key: '', effect: 'NoSchedule' }, { key: 'k', effect: 'Later' as 'None' }] }] },
      want: ['spec.devices[0].taints[0].key: Invalid value: "": name part must be non-empty', "spec.devices[0].taints[0].key: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')", 'spec.devices[0].taints[1].effect: Unsupported value: "Later": supported values: "NoExecute", "NoSchedule", "None"'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsOf('ResourceSlice', slice(c.spec)), c.want));

  it('keeps driver, pool name and node name on update', () => {
    const k = kindValidation('ResourceSlice')!;
    const old = slice({ nodeName: 'node-1' });
    const moved = slice({ nodeName: 'node-2', driver: 'other.example.com' });
    assert.deepEqual(k.validateUpdate!(old as KubeObject, moved as KubeObject).map(fieldErrorString), [
      'spec.driver: Invalid value: "other.example.com": field is immutable',
      'spec.nodeName: Invalid value: "node-2": field is immutable',
    ]);
  });

  it('stamps taints with the time they were added only in the store, not in validation', () => {
    assert.deepEqual(errorsOf('ResourceSlice', slice({ nodeName: 'n', devices: [{ name: 'd', taints: [{ key: 'k', effect: 'NoSchedule' }] }] })), []);
  });
});

describe('DeviceClass, ResourceClaimTemplate and DeviceTaintRule validation', () => {
  it('device classes: selectors, config and extended resource names', () => {
    const c: DeviceClass = {
      apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu.example.com' },
      spec: { selectors: [{}], config: [{ opaque: { driver: 'gpu.example.com', parameters: { a: 1 } } }], extendedResourceName: 'gpu' },
    };
    assert.deepEqual(errorsOf('DeviceClass', c), [
      'spec.selectors[0].cel: Required value',
      `spec.extendedResourceName: Invalid value: "gpu": a name must be a domain-prefixed path, such as 'example.com/my-prop'`,
    ]);
    assert.deepEqual(errorsOf('DeviceClass', { ...c, spec: { ...c.spec, selectors: [], extendedResourceName: 'example.com/gpu' } }), []);
  });

  it('templates: the claim spec under spec.spec, immutable', () => {
    const t: ResourceClaimTemplate = {
      apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name: 't', namespace: 'default' },
      spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: '' } }] } } },
    };
    assert.deepEqual(errorsOf('ResourceClaimTemplate', t), ['spec.spec.devices.requests[0].exactly.deviceClassName: Required value']);
    const k = kindValidation('ResourceClaimTemplate')!;
    assert.equal(k.validateUpdate!(t as KubeObject, { ...t, spec: { spec: {} } } as KubeObject).length, 1);
  });

  it('taint rules: selector fields and the taint', () => {
    const r = { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceTaintRule', metadata: { name: 'r' }, spec: { deviceSelector: { driver: '', device: 'GPU' }, taint: { key: 'k' } } };
    assert.deepEqual(errorsOf('DeviceTaintRule', r), [
      'spec.deviceSelector.driver: Required value',
      `spec.deviceSelector.device: Invalid value: "GPU": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      'spec.taint.effect: Required value',
    ]);
  });
});

describe('pod spec.resourceClaims and container resources.claims validation', () => {
  const pod = (claims: unknown[], containerClaims: unknown[], annotations?: Record<string, string>) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'c', image: 'x', resources: { claims: containerClaims } }], resourceClaims: claims },
  });
  const cases: { name: string; claims: unknown[]; containerClaims: unknown[]; annotations?: Record<string, string>; want: string[] }[] = [
    { name: 'a template entry used by the container', claims: [{ name: 'gpu', resourceClaimTemplateName: 'one-gpu' }], containerClaims: [{ name: 'gpu' }], want: [] },
    {
      name: 'claim names must be subdomains',
      claims: [{ name: 'gpu', resourceClaimName: 'Shared_GPU' }],
      containerClaims: [],
      want: [`spec.resourceClaims[0].resourceClaimName: Invalid value: "Shared_GPU": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`],
    },
    {
      name: 'a request of a claim already referenced whole is a duplicate',
      claims: [{ name: 'gpu', resourceClaimTemplateName: 't' }],
      containerClaims: [{ name: 'gpu' }, { name: 'gpu', request: 'a' }],
      want: ['spec.containers[0].resources.claims[1]: Duplicate value: "gpu"'],
    },
    {
      name: 'the whole claim after one of its requests overlaps it',
      claims: [{ name: 'gpu', resourceClaimTemplateName: 't' }],
      containerClaims: [{ name: 'gpu', request: 'a' }, { name: 'gpu' }],
      want: ['spec.containers[0].resources.claims[1]: Duplicate value: "gpu"'],
    },
    {
      name: 'only claims of the pod',
      claims: [{ name: 'b', resourceClaimTemplateName: 't' }, { name: 'a', resourceClaimTemplateName: 't' }],
      containerClaims: [{ name: 'c' }],
      want: ['spec.containers[0].resources.claims[0]: Not found: "c": must be one of the names in pod.spec.resourceClaims: a, b'],
    },
    {
      name: 'static pods cannot use claims',
      claims: [{ name: 'gpu', resourceClaimTemplateName: 't' }],
      containerClaims: [],
      annotations: { 'kubernetes.io/config.mirror': 'x' },
      want: ['Forbidden: static pods do not support resource claims'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(errorsOf('Pod', pod(c.claims, c.containerClaims, c.annotations)), c.want));
});

describe('plainEqual (JSON values compared without printing them)', () => {
  const fn = (): number => 1;
  const date = new Date(0);
  const values: unknown[] = [
    null, true, false, 0, -0, 1, 1.5, NaN, Infinity, '', 'a', '1', [], [1], [1, 2], [2, 1], [null], [undefined], [fn],
    {}, { a: 1 }, { a: 1, b: undefined }, { b: 2, a: 1 }, { a: 1, b: 2 }, { a: 1, f: fn }, { a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] },
    { a: null }, { a: undefined }, date, { a: date }, { toJSON: () => 1 }, Object.create(null) as object,
    { devices: { results: [{ request: 'r', driver: 'd', pool: 'p', device: 'x' }] }, nodeSelector: { nodeSelectorTerms: [] } },
    { nodeSelector: { nodeSelectorTerms: [] }, devices: { results: [{ device: 'x', pool: 'p', driver: 'd', request: 'r' }] } },
    { nodeSelector: { nodeSelectorTerms: [] }, devices: { results: [{ device: 'y', pool: 'p', driver: 'd', request: 'r' }] } },
  ];
  it('never contradicts printedEqual: true and false only where it agrees, undefined leaves it to printedEqual', () => {
    for (const a of values) {
      for (const b of values) {
        const got = plainEqual(a, b);
        if (got === undefined) continue;
        assert.equal(got, printedEqual(a, b), `${String(JSON.stringify(a))} vs ${String(JSON.stringify(b))}`);
      }
    }
  });

  it('answers plain API values itself', () => {
    assert.equal(plainEqual(values[values.length - 3], values[values.length - 2]), true);
    assert.equal(plainEqual(values[values.length - 3], values[values.length - 1]), false);
    assert.equal(plainEqual({ a: 1, b: undefined }, { a: 1 }), true);
    assert.equal(plainEqual({ a: [1, 2] }, { a: [2, 1] }), false);
  });
});
