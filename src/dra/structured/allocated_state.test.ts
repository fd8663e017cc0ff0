// The allocated state the plugin gathers from claims, as upstream's foreachAllocatedDevice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addAllocation, isDeviceAllocated, makeDeviceID, newAllocatedState, type DeviceID, type MutableAllocatedState } from './index.js';

const gib = 1024n ** 3n * 1_000_000_000n;

test('allocated state: exclusive devices, shares with their capacity, admin access left out', () => {
  const state: MutableAllocatedState = newAllocatedState();
  addAllocation(
    state,
    {
      devices: {
        results: [
          { request: 'r', driver: 'd', pool: 'p', device: 'a' },
          { request: 'r', driver: 'd', pool: 'p', device: 'admin', adminAccess: true },
          { request: 'r', driver: 'd', pool: 'p', device: 's', shareID: 'u1', consumedCapacity: { memory: '1Gi' } },
        ],
      },
    },
    true,
  );
  addAllocation(state, { devices: { results: [{ request: 'r', driver: 'd', pool: 'p', device: 's', shareID: 'u2', consumedCapacity: { memory: '2Gi' } }] } }, true);
  addAllocation(state, undefined, true);
  assert.deepEqual([...state.allocatedDevices], [makeDeviceID('d', 'p', 'a')]);
  assert.deepEqual([...state.allocatedSharedDeviceIDs], ['d/p/s#u1', 'd/p/s#u2']);
  const shared: DeviceID = makeDeviceID('d', 'p', 's');
  assert.deepEqual(state.aggregatedCapacity.get(shared), new Map([['memory', 3n * gib]]));
  assert.equal(isDeviceAllocated('d/p/s', state), true);
  assert.equal(isDeviceAllocated('d/p/admin', state), false);
});

test('allocated state: without consumable capacity a share holds its device exclusively', () => {
  const state = newAllocatedState();
  addAllocation(state, { devices: { results: [{ request: 'r', driver: 'd', pool: 'p', device: 's', shareID: 'u1' }] } }, false);
  assert.deepEqual([...state.allocatedDevices], ['d/p/s']);
  assert.equal(state.allocatedSharedDeviceIDs.size, 0);
});
