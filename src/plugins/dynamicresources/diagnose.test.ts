// The per-node device diagnosis explain shows: which request falls short, by how much, and which
// selector cuts the devices down.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceClaim } from '../../api/dra_types.js';
import { makeNode } from '../../testing/builders.js';
import { makeDeviceID as deviceID, newAllocatedState } from '../../dra/structured/index.js';
import { diagnoseNode, type RequestShortfall } from './diagnose.js';
import { allocatorFeatures, pinnedDraFeatures } from './features.js';
import { deviceClass, driver, FakeAllocator, nodeSlice, pendingClaim } from './test_helpers.js';

const node = makeNode('worker');
const slice = nodeSlice('worker', 0);
slice.spec.devices = [{ name: 'gpu-a-0' }, { name: 'gpu-a-1' }, { name: 'gpu-b-0' }];

function withSelectors(claim: ResourceClaim, selectors: string[]): ResourceClaim {
  const req = claim.spec.devices!.requests![0]!;
  req.exactly!.selectors = selectors.map((expression) => ({ cel: { expression } }));
  return claim;
}

function diagnose(claims: ResourceClaim[], o: { classSelector?: string; taken?: string[] } = {}): RequestShortfall[] {
  const cls = deviceClass();
  if (o.classSelector) cls.spec.selectors = [{ cel: { expression: o.classSelector } }];
  const state = newAllocatedState();
  for (const d of o.taken ?? []) state.allocatedDevices.add(deviceID(driver, 'worker', d));
  const inputs = { features: allocatorFeatures(pinnedDraFeatures), allocatedState: state, classLister: { get: (n: string) => (n === cls.metadata.name ? cls : undefined) }, slices: [slice] };
  return diagnoseNode((i) => new FakeAllocator(i), inputs, node, claims);
}

describe('diagnoseNode', () => {
  const cases: { name: string; claims: ResourceClaim[]; classSelector?: string; taken?: string[]; want: RequestShortfall[] }[] = [
    { name: 'a node with enough devices: nothing to report', claims: [pendingClaim('c', { count: 3 })], want: [] },
    { name: 'too few devices: how many the node has', claims: [pendingClaim('c', { count: 5 })], want: [{ claim: 'default/c', request: 'req-1', wanted: 5, available: 3 }] },
    {
      name: 'devices taken by others do not count, and the reason says so',
      claims: [pendingClaim('c', { count: 2 })],
      taken: ['gpu-a-0', 'gpu-b-0'],
      want: [{ claim: 'default/c', request: 'req-1', wanted: 2, available: 1, reason: 'enough matching devices, but other claims hold them' }],
    },
    {
      name: 'the request\'s selector that leaves too few devices is named',
      claims: [withSelectors(pendingClaim('c', { count: 2 }), ['gpu-b'])],
      want: [{ claim: 'default/c', request: 'req-1', wanted: 2, available: 1, selector: 'gpu-b' }],
    },
    {
      name: 'a class selector is named with its class',
      claims: [pendingClaim('c', { count: 2 })],
      classSelector: 'gpu-b',
      want: [{ claim: 'default/c', request: 'req-1', wanted: 2, available: 1, selector: 'class my-resource-class: gpu-b' }],
    },
    {
      name: 'requests that fit alone but not together are reported as a whole',
      claims: [pendingClaim('c1', { count: 2 }), pendingClaim('c2', { count: 2 })],
      want: [{ claim: 'default/c1, default/c2', request: '', wanted: 0, available: 0, reason: 'each request fits alone, but not all together (constraints, or requests competing for the same devices)' }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(diagnose(c.claims, c), c.want);
    });
  }
});
