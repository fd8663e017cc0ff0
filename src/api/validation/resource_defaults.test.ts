// hasResourceDefaults agrees with applyResourceDefaults, and validation of a defaulted object
// reads it without a copy (so it must not change it).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../types.js';
import type { ResourceClaim } from '../dra_types.js';
import { fieldErrorString, kindValidation } from './index.js';
import { applyResourceDefaults, hasResourceDefaults } from './resource_defaults.js';

const claim = (requests: unknown[], status?: unknown): KubeObject =>
  ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c', namespace: 'default' }, spec: { devices: { requests } }, ...(status ? { status } : {}) }) as KubeObject;
const exact = (extra: Record<string, unknown> = {}) => ({ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com', ...extra } });
const full = { allocationMode: 'ExactCount', count: 1 };
const allocated = (tolerations: unknown[]) => ({ allocation: { devices: { results: [{ request: 'gpu', driver: 'd', pool: 'p', device: 'd0', tolerations }] } } });

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

describe('hasResourceDefaults', () => {
  const cases: { name: string; obj: KubeObject; want: boolean }[] = [
    { name: 'no allocationMode', obj: claim([exact()]), want: false },
    { name: 'ExactCount without count', obj: claim([exact({ allocationMode: 'ExactCount' })]), want: false },
    { name: 'ExactCount with count', obj: claim([exact(full)]), want: true },
    { name: 'All needs no count', obj: claim([exact({ allocationMode: 'All' })]), want: true },
    { name: 'toleration without operator', obj: claim([exact({ ...full, tolerations: [{ key: 'k' }] })]), want: false },
    { name: 'toleration with operator', obj: claim([exact({ ...full, tolerations: [{ key: 'k', operator: 'Exists' }] })]), want: true },
    { name: 'firstAvailable subrequest without mode', obj: claim([{ name: 'r', firstAvailable: [{ name: 'a', deviceClassName: 'x' }] }]), want: false },
    { name: 'firstAvailable subrequest defaulted', obj: claim([{ name: 'r', firstAvailable: [{ name: 'a', deviceClassName: 'x', ...full }] }]), want: true },
    { name: 'allocated toleration without operator', obj: claim([exact(full)], allocated([{ key: 'k' }])), want: false },
    { name: 'allocated toleration with operator', obj: claim([exact(full)], allocated([{ key: 'k', operator: 'Equal', value: 'v' }])), want: true },
    {
      name: 'template without mode',
      obj: { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name: 't' }, spec: { spec: { devices: { requests: [exact()] } } } } as KubeObject,
      want: false,
    },
    {
      name: 'slice taint without time (left alone without now)',
      obj: { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: 's' }, spec: { devices: [{ name: 'd', taints: [{ key: 'k', effect: 'NoSchedule' }] }] } } as KubeObject,
      want: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(hasResourceDefaults(c.obj), c.want);
      // The same answer as defaulting a copy and comparing.
      const copy = structuredClone(c.obj);
      applyResourceDefaults(copy);
      assert.equal(JSON.stringify(copy) === JSON.stringify(c.obj), c.want);
    });
  }
});

describe('validation of defaulted ResourceClaims reads them without a copy', () => {
  const k = kindValidation('ResourceClaim')!;
  const stored = (): ResourceClaim => {
    const c = claim([exact({ ...full, tolerations: [{ key: 'k', operator: 'Exists' }] })]) as ResourceClaim;
    applyResourceDefaults(c);
    return c;
  };
  it('create, update and status update give the same errors on frozen objects', () => {
    const old = stored();
    const next = { ...stored(), metadata: { ...old.metadata, labels: { BAD_: 'x' } } };
    const status = { ...stored(), status: { reservedFor: [{ resource: 'pods', name: 'p', uid: '' }] } } as ResourceClaim;
    const want = {
      create: k.validate(next).map(fieldErrorString),
      update: k.validateUpdate!(old, next).map(fieldErrorString),
      status: k.validateStatusUpdate!(old, status).map(fieldErrorString),
    };
    assert.ok(want.create.length > 0 && want.status.length > 0, 'the cases must find errors');
    const [o, n, s] = [deepFreeze(structuredClone(old)), deepFreeze(structuredClone(next)), deepFreeze(structuredClone(status))];
    assert.deepEqual({
      create: k.validate(n).map(fieldErrorString),
      update: k.validateUpdate!(o, n).map(fieldErrorString),
      status: k.validateStatusUpdate!(o, s).map(fieldErrorString),
    }, want);
  });
});
