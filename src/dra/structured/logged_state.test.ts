// Views of the live allocated sets: they show the moment they were taken, whatever changes later,
// without copying the sets while nothing changed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { addOverlayCapacity, isDeviceAllocated, LoggedDeviceSets, makeDeviceID, makeSharedDeviceID, type AllocatedState, type Overlay } from './index.js';
import type { PoolDependent } from './types.js';

const gi = 1024n ** 3n * 1_000_000_000n;
const dev = (name: string) => makeDeviceID('d', 'p', name);
/** An answer depending on the pools. */
const dep = (...poolKeys: string[]): PoolDependent => ({ poolKeys, stale: false, inFlightView: 0 });

/** Everything a view shows, in a comparable shape. */
function shown(s: AllocatedState) {
  // The two plain sets a search reads (allocatedDeviceSets) hold the same devices as the union.
  const [base, inFlight] = s.allocatedDeviceSets!();
  assert.deepEqual([...new Set([...base, ...inFlight])].sort(), [...s.allocatedDevices].sort());
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
    const onP = dep('d/p');
    const onOther = dep('d/other');
    const noPools = dep();
    assert.equal(before.watchPools!(onP), true);
    assert.equal(before.watchPools!(onOther), true);
    assert.equal(before.watchPools!(noPools), true);
    assert.equal(before.dependentHolds!(onP), true);

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
    assert.equal(onP.stale, true, 'the change of its pool marked it');
    assert.equal(onOther.stale, false);
    assert.deepEqual(shown(after), { devices: [dev('b')], size: 1, shares: [], capacity: [], hasShareS: false, allocatedA: false, allocatedB: true, plainA: false, plainS: false, allocatedS: false });
    assert.equal(after.dependentHolds!(onP), false);
    assert.equal(after.dependentHolds!(onOther), true, 'another pool changed');
    assert.equal(before.dependentHolds!(onOther), false, 'a view older than a change trusts no answer');
    assert.equal(before.dependentHolds!(noPools), true, 'no pools: nothing to change');
    assert.equal(before.watchPools!(dep('d/q')), false, 'a view older than a change registers nothing');
    const again = dep('d/p');
    assert.equal(after.watchPools!(again), true);
    assert.equal(after.dependentHolds!(again), true);
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
    assert.equal(v.watchPools!(dep('d/q', 'd/p')), false, 'an answer of a pool in flight is not kept');
    assert.equal(v.watchPools!(dep('d/q')), true);
    // Registered before the allocation went in flight: it holds in no view that has it in flight.
    const sets2 = new LoggedDeviceSets();
    const onP = dep('d/p');
    const onQ = dep('d/q');
    assert.equal(sets2.view().watchPools!(onP), true);
    assert.equal(sets2.view().watchPools!(onQ), true);
    const inFlight = sets2.view(overlay);
    assert.equal(inFlight.dependentHolds!(onP), false);
    assert.equal(inFlight.dependentHolds!(onQ), true);
    const newer = sets2.view();
    assert.equal(newer.dependentHolds!(onP), true, 'no longer in flight (unreserved)');
    assert.equal(inFlight.dependentHolds!(onP), false, 'the older view still has it in flight');
    assert.equal(inFlight.watchPools!(dep('d/q')), false, 'only the newest view registers answers');
    // Dropped answers leave the pool's list as it grows.
    const many = Array.from({ length: 100 }, () => dep('d/r'));
    for (const d of many) {
      assert.equal(newer.watchPools!(d), true);
      d.stale = true;
    }
    const watches = (sets2 as unknown as { watches: Map<string, { dependents: PoolDependent[] }> }).watches;
    assert.ok(watches.get('d/r')!.dependents.length <= 16, `${watches.get('d/r')!.dependents.length} kept`);
    // The live capacity is untouched by the overlay.
    assert.deepEqual(sets.capacityOf(dev('s')), new Map([['memory', gi]]));
  });
});
