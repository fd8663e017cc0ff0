// Views of the live allocated sets: they show the moment they were taken, whatever changes later,
// without copying the sets while nothing changed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addOverlayCapacity, isDeviceAllocated, LoggedDeviceSets, makeDeviceID, makeSharedDeviceID, type AllocatedState, type Overlay } from './index.js';

const gi = 1024n ** 3n * 1_000_000_000n;
const dev = (name: string) => makeDeviceID('d', 'p', name);

/** Everything a view shows, in a comparable shape. */
function shown(s: AllocatedState) {
  return {
    devices: [...s.allocatedDevices].sort(),
    size: s.allocatedDevices.size,
    shares: [...s.allocatedSharedDeviceIDs].sort(),
    capacity: [...s.aggregatedCapacity].map(([id, m]) => [id, [...m]] as const).sort(),
    hasShareS: s.deviceHasShare!(dev('s')),
    allocatedA: isDeviceAllocated(dev('a'), s),
    allocatedB: isDeviceAllocated(dev('b'), s),
    // The same through the three collections (what a state without isAllocated answers).
    plainA: isDeviceAllocated(dev('a'), { ...s, isAllocated: undefined, deviceHasShare: undefined }),
    plainS: isDeviceAllocated(dev('s'), { ...s, isAllocated: undefined, deviceHasShare: undefined }),
    allocatedS: isDeviceAllocated(dev('s'), s),
  };
}

describe('LoggedDeviceSets views', () => {
  it('keep showing their moment through later adds and removes, as a copy taken then would', () => {
    const sets = new LoggedDeviceSets();
    sets.bump();
    sets.device(dev('a'), true);
    sets.share(makeSharedDeviceID(dev('s'), 'u1'), true);
    sets.consume(dev('s'), { memory: '1Gi' }, true);
    const before = sets.view();
    const expected = {
      devices: [dev('a')],
      size: 1,
      shares: [`${dev('s')}#u1`],
      capacity: [[dev('s'), [['memory', gi]]]] as const,
      hasShareS: true,
      allocatedA: true,
      allocatedB: false,
      plainA: true,
      plainS: true,
      allocatedS: true,
    };
    assert.deepEqual(shown(before), expected);
    const stampBefore = before.poolStamp!('d/p');
    assert.equal(stampBefore, 0);

    // Every kind of change, including one undone again (a device freed and taken back).
    sets.bump();
    sets.touchPool('d/p');
    sets.device(dev('a'), false);
    sets.device(dev('b'), true);
    sets.device(dev('b'), true); // already there: no change
    sets.share(makeSharedDeviceID(dev('s'), 'u1'), false);
    sets.consume(dev('s'), { memory: '1Gi' }, false);
    sets.device(dev('a'), true);
    sets.device(dev('a'), false);
    const after = sets.view();

    assert.deepEqual(shown(before), expected);
    assert.equal(before.poolStamp!('d/p'), null, 'a view older than a change has no stamps');
    assert.deepEqual(shown(after), { devices: [dev('b')], size: 1, shares: [], capacity: [], hasShareS: false, allocatedA: false, allocatedB: true, plainA: false, plainS: false, allocatedS: false });
    assert.equal(after.poolStamp!('d/p'), 2);
    assert.equal(after.poolStamp!('d/other'), 0);
    // The batch check answers as poolStamp per pool does.
    assert.equal(before.poolStampsHold!(['d/p'], [0]), false, 'a view older than a change holds no stamps');
    assert.equal(before.poolStampsHold!([], []), true, 'no pools: nothing to change');
    assert.equal(after.poolStampsHold!(['d/p', 'd/other'], [2, 0]), true);
    assert.equal(after.poolStampsHold!(['d/p', 'd/other'], [2, 1]), false);
    assert.equal(after.poolStampsHold!(['d/p'], [0]), false);
  });

  it('add an overlay of in-flight allocations that hides the stamps of its pools', () => {
    const sets = new LoggedDeviceSets();
    sets.bump();
    sets.consume(dev('s'), { memory: '1Gi' }, true);
    const capacity = new Map();
    addOverlayCapacity(capacity, sets, dev('s'), { memory: '2Gi' });
    const overlay: Overlay = { devices: new Set([dev('b')]), shares: new Set([makeSharedDeviceID(dev('s'), 'u9')]), capacity, pools: new Set(['d/p']) };
    const v = sets.view(overlay);
    assert.deepEqual(shown(v), {
      devices: [dev('b')],
      size: 1,
      shares: [`${dev('s')}#u9`],
      capacity: [[dev('s'), [['memory', 3n * gi]]]],
      hasShareS: true,
      allocatedA: false,
      allocatedB: true,
      plainA: false,
      plainS: true,
      allocatedS: true,
    });
    assert.equal(v.poolStamp!('d/p'), null);
    assert.equal(v.poolStamp!('d/q'), 0);
    assert.equal(v.poolStampsHold!(['d/q'], [0]), true);
    assert.equal(v.poolStampsHold!(['d/q', 'd/p'], [0, 0]), false, 'a pool in flight holds no stamp');
    // The live capacity is untouched by the overlay.
    assert.deepEqual(sets.capacityOf(dev('s')), new Map([['memory', gi]]));
  });
});
