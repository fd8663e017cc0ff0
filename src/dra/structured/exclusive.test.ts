// A property of the allocator over random clusters: a device that does not allow multiple
// allocations never goes to two requests, neither within one allocate call nor across calls
// whose results were committed to the allocated state; and every allocated device exists on
// the node it was allocated for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Device, DeviceRequest, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import { seededRandom } from '../../util/clock.js';
import { makeDeviceID, makeSharedDeviceID, type AllocatedState, type ConsumedCapacity } from './index.js';
import { classA, claim, deviceClass, driverA, newAllocator, node, slice } from './test_helpers.js';

function randomCluster(random: () => number, nodes: number): ResourceSlice[] {
  const slices: ResourceSlice[] = [];
  for (let n = 0; n < nodes; n++) {
    const devices: Device[] = [];
    const count = 1 + Math.floor(random() * 4);
    for (let i = 0; i < count; i++) {
      const shared = random() < 0.2;
      devices.push({
        name: `gpu-${i}`,
        attributes: { numa: { int: Math.floor(random() * 2) }, model: { string: random() < 0.5 ? 'a' : 'b' } },
        ...(shared ? { allowMultipleAllocations: true, capacity: { memory: { value: '4Gi' } } } : {}),
      });
    }
    slices.push(slice(`node-${n}-slice`, `node-${n}`, `node-${n}`, driverA, devices));
  }
  // A network-attached pool every node sees: the contended resource.
  slices.push(slice('shared-slice', undefined, 'shared', driverA, [{ name: 'nic-0', attributes: { model: { string: 'a' }, numa: { int: 0 } } }, { name: 'nic-1', attributes: { model: { string: 'b' }, numa: { int: 1 } } }], { allNodes: true }));
  return slices;
}

function randomClaim(random: () => number, name: string): ResourceClaim {
  const requests: DeviceRequest[] = [];
  const count = 1 + Math.floor(random() * 2);
  for (let r = 0; r < count; r++) {
    const selectors = random() < 0.3 ? [{ cel: { expression: `device.attributes["${driverA}"].model == "a"` } }] : [];
    const capacity = random() < 0.3 ? { requests: { memory: '1Gi' } } : undefined;
    requests.push({ name: `req-${r}`, exactly: { deviceClassName: classA, allocationMode: 'ExactCount', count: 1 + Math.floor(random() * 2), selectors, ...(capacity ? { capacity } : {}) } });
  }
  const constraints = random() < 0.3 ? [{ matchAttribute: `${driverA}/numa` }] : [];
  return claim(name, requests, constraints);
}

test('allocator property: devices without multiple allocations are never handed out twice', () => {
  for (let seed = 1; seed <= 25; seed++) {
    const random = seededRandom(seed);
    const nodes = 2 + Math.floor(random() * 3);
    const slices = randomCluster(random, nodes);
    const multi = new Set<string>();
    for (const s of slices) for (const dev of s.spec.devices ?? []) if (dev.allowMultipleAllocations) multi.add(makeDeviceID(driverA, s.spec.pool.name, dev.name));
    const allocatedDevices = new Set<string>();
    const allocatedSharedDeviceIDs = new Set<string>();
    const aggregatedCapacity = new Map<string, ConsumedCapacity>();
    const state: AllocatedState = { allocatedDevices, allocatedSharedDeviceIDs, aggregatedCapacity };
    let allocatedSomething = false;
    for (let round = 0; round < 12; round++) {
      const allocator = newAllocator({ classes: [deviceClass(classA, driverA)], slices, allocated: state });
      const target = node(`node-${Math.floor(random() * nodes)}`);
      const claims = [randomClaim(random, `c-${round}-0`), ...(random() < 0.5 ? [randomClaim(random, `c-${round}-1`)] : [])];
      const results = allocator.allocate(target, claims);
      if (results === null) continue;
      allocatedSomething = true;
      const inThisCall = new Set<string>();
      for (const result of results) {
        for (const r of result.devices?.results ?? []) {
          const id = makeDeviceID(r.driver, r.pool, r.device);
          assert.ok(r.pool === target.metadata.name || r.pool === 'shared', `seed ${seed}: ${id} is not on ${target.metadata.name}`);
          if (multi.has(id)) {
            assert.ok(r.shareID, `seed ${seed}: a share of ${id} without shareID`);
            allocatedSharedDeviceIDs.add(makeSharedDeviceID(id, r.shareID));
            const consumed = aggregatedCapacity.get(id) ?? new Map<string, bigint>();
            consumed.set('memory', (consumed.get('memory') ?? 0n) + (r.consumedCapacity?.memory === '4Gi' ? 4n : 1n) * 1024n ** 3n * 1_000_000_000n);
            aggregatedCapacity.set(id, consumed);
            continue;
          }
          assert.ok(!inThisCall.has(id), `seed ${seed}: ${id} twice in one call`);
          assert.ok(!allocatedDevices.has(id), `seed ${seed}: ${id} was already allocated`);
          inThisCall.add(id);
        }
      }
      for (const id of inThisCall) allocatedDevices.add(id);
    }
    assert.ok(allocatedSomething, `seed ${seed}: nothing was ever allocated`);
  }
});

test('allocator property: shares of a multi-allocation device never exceed its capacity', () => {
  const dev: Device = { name: 'gpu', allowMultipleAllocations: true, capacity: { memory: { value: '4Gi' } } };
  const slices = [slice('s', 'node-0', 'pool', driverA, [dev])];
  const request = (name: string): ResourceClaim => claim(name, [{ name: 'r', exactly: { deviceClassName: classA, allocationMode: 'ExactCount', count: 1, capacity: { requests: { memory: '1Gi' } } } }]);
  // Five claims of 1Gi each do not fit on a 4Gi device in one call ...
  const allocator = newAllocator({ classes: [deviceClass(classA, driverA)], slices });
  assert.equal(allocator.allocate(node('node-0'), [1, 2, 3, 4, 5].map((i) => request(`c${i}`))), null);
  // ... four do, each with its own share (the search may have used share IDs on the way).
  const results = newAllocator({ classes: [deviceClass(classA, driverA)], slices }).allocate(node('node-0'), [1, 2, 3, 4].map((i) => request(`c${i}`)));
  assert.ok(results);
  assert.deepEqual(
    results.map((r) => r.devices?.results?.[0]?.shareID),
    ['share-1', 'share-2', 'share-3', 'share-4'],
  );
  assert.deepEqual(
    results.map((r) => r.devices?.results?.[0]?.consumedCapacity),
    [1, 2, 3, 4].map(() => ({ memory: '1Gi' })),
  );
});
