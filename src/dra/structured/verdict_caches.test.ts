// The allocator keeps selector verdicts and the capacity fit of unused devices per device object
// across allocators (pods) and nodes: answers must not change, and runtime errors must not be kept.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceSlice } from '../../api/dra_types.js';
import { makeDeviceID, newAllocatedState } from './index.js';
import { classA, claim, device, deviceClass, driverA, exactly, newAllocator, node, slice } from './test_helpers.js';

const slices: ResourceSlice[] = [
  slice('s1', 'node-1', 'pool-1', driverA, [
    device('small', { attributes: { model: { string: 'a' } }, capacity: { memory: { value: '1Gi' } } }),
    device('big', { attributes: { model: { string: 'b' }, size: { int: 2 } }, capacity: { memory: { value: '8Gi' } } }),
  ]),
];
const bySize = exactly('req-0', classA, 1, { selectors: [{ cel: { expression: `device.attributes["${driverA}"].size > 1` } }] });

describe('allocator verdict caches', () => {
  it('give the same answer to later allocators on the same slice objects, with what is allocated taken into account', () => {
    const first = newAllocator({ classes: [deviceClass(classA, driverA)], slices, features: { consumableCapacity: true } });
    assert.throws(() => first.allocate(node('node-1'), [claim('c', [bySize])]), /CEL runtime error: no such key: size/);
    const anyModel = exactly('req-0', classA);
    const results = newAllocator({ classes: [deviceClass(classA, driverA)], slices, features: { consumableCapacity: true } }).allocate(node('node-1'), [claim('c', [anyModel])]);
    assert.equal(results?.[0]?.devices?.results?.[0]?.device, 'small');
    const allocated = newAllocatedState();
    allocated.allocatedDevices.add(makeDeviceID(driverA, 'pool-1', 'small'));
    const next = newAllocator({ classes: [deviceClass(classA, driverA)], slices, allocated, features: { consumableCapacity: true } });
    assert.equal(next.allocate(node('node-1'), [claim('c', [anyModel])])?.[0]?.devices?.results?.[0]?.device, 'big');
  });

  it('raise a selector runtime error every time, not only the first', () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const allocator = newAllocator({ classes: [deviceClass(classA, driverA)], slices });
      assert.throws(() => allocator.allocate(node('node-1'), [claim('c', [bySize])]), /selector #0 on device driver-a\/pool-1\/small: CEL runtime error/, `attempt ${attempt}`);
    }
  });
});
