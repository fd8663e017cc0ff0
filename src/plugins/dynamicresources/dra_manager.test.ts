// The claim tracker: assume cache, in-flight allocations and the allocated-devices tracker, which
// must always equal a full recount (dra_manager_test.go, allocateddevices.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceClaim } from '../../api/dra_types.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { AllocatedDevices } from './allocated_devices.js';
import { makeDeviceID as deviceID } from '../../dra/structured/index.js';
import { ClaimTracker, SliceLister } from './dra_manager.js';
import { allocatedClaim, driver, nodeSlice, pendingClaim } from './test_helpers.js';
import { seededRandom } from '../../util/clock.js';

const withVersion = (c: ResourceClaim, rv: string): ResourceClaim => ({ ...c, metadata: { ...c.metadata, resourceVersion: rv } });

describe('ClaimTracker assume cache', () => {
  it('serves an assumed claim until the informer has a newer version, and restores the informer\'s object', () => {
    const lister = new MapObjectLister([withVersion(pendingClaim('c'), '1')]);
    const t = new ClaimTracker(lister, true);
    assert.throws(() => t.assumeClaimAfterAPICall(withVersion(pendingClaim('c'), '0')), /ResourceClaim "default\/c" is out of sync \(stored: 1, assume: 0\)/);
    const assumed = withVersion(allocatedClaim('c', 'n', ['d']), '2');
    t.assumeClaimAfterAPICall(assumed);
    assert.equal(t.get('default', 'c'), assumed);
    t.assumedClaimRestore('default', 'c');
    assert.equal(t.get('default', 'c')?.metadata.resourceVersion, '1');
    assert.throws(() => t.mustGet('default', 'gone'), /could not find ResourceClaim "default\/gone"/);
  });

  it('counts sharers of an in-flight allocation and drops it with the last one (or when forced)', () => {
    const lister = new MapObjectLister([pendingClaim('c')]);
    const t = new ClaimTracker(lister, true);
    const inFlight = allocatedClaim('c', 'n', ['d']);
    t.signalClaimPendingAllocation('uid-c', inFlight);
    t.signalClaimPendingAllocation('uid-c', inFlight);
    assert.deepEqual(t.getPendingAllocation('uid-c'), inFlight.status?.allocation);
    assert.equal(t.maybeRemoveClaimPendingAllocation('uid-c', false), false);
    assert.equal(t.maybeRemoveClaimPendingAllocation('uid-c', false), true);
    assert.equal(t.getPendingAllocation('uid-c'), undefined);
    t.signalClaimPendingAllocation('uid-c', inFlight);
    t.signalClaimPendingAllocation('uid-c', inFlight);
    assert.equal(t.maybeRemoveClaimPendingAllocation('uid-c', true), true);
  });

  it('does not mark a claim in flight that the cache already shows allocated', () => {
    const allocated = allocatedClaim('c', 'n', ['d']);
    const t = new ClaimTracker(new MapObjectLister([allocated]), true);
    t.signalClaimPendingAllocation('uid-c', allocated);
    assert.equal(t.getPendingAllocation('uid-c'), undefined);
  });

  it('gathers allocated devices of informer claims and in-flight ones, admin access excluded', () => {
    const admin = allocatedClaim('admin', 'n', ['dev-9']);
    admin.status!.allocation!.devices!.results![0]!.adminAccess = true;
    const lister = new MapObjectLister([allocatedClaim('a', 'n', ['dev-0']), pendingClaim('b'), admin]);
    const t = new ClaimTracker(lister, true);
    t.signalClaimPendingAllocation('uid-b', allocatedClaim('b', 'n', ['dev-1']));
    assert.deepEqual([...t.gatherAllocatedState().allocatedDevices].sort(), [deviceID(driver, 'n', 'dev-0'), deviceID(driver, 'n', 'dev-1')]);
  });
});

function recount(claims: readonly ResourceClaim[]): string[] {
  const out = new AllocatedDevices(true);
  for (const c of claims) out.update(undefined, c);
  return [...out.gather([]).allocatedDevices].sort();
}

describe('allocated-devices tracker', () => {
  it('equals a full recount after every random add, allocation, deallocation and deletion', () => {
    const random = seededRandom(7);
    const lister = new MapObjectLister();
    const t = new ClaimTracker(lister, true);
    const names = Array.from({ length: 8 }, (_, i) => `c${i}`);
    let version = 1;
    for (let step = 0; step < 300; step++) {
      const name = names[Math.floor(random() * names.length)]!;
      const existing = lister.get<ResourceClaim>('ResourceClaim', 'default', name);
      const roll = random();
      // An allocation is immutable once set: an allocated claim is only deallocated or deleted.
      if (existing === undefined || (roll < 0.3 && existing.status?.allocation === undefined)) {
        // Devices per claim name: two live claims never hold one device, as in a consistent cluster.
        const devices = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${name}-dev-${Math.floor(random() * 4)}`);
        // A new claim (even under an old name) has a new UID.
        const uid = existing?.metadata.uid ?? `uid-${version}`;
        lister.upsert(withVersion(random() < 0.5 ? pendingClaim(name, { uid }) : allocatedClaim(name, 'n', [...new Set(devices)], { uid }), String(version++)));
      } else if (roll < 0.6) {
        lister.remove(existing);
      } else {
        lister.upsert(withVersion({ ...existing, status: {} }, String(version++)));
      }
      if (random() < 0.5) {
        const all = lister.list<ResourceClaim>('ResourceClaim');
        assert.deepEqual([...t.gatherAllocatedState().allocatedDevices].sort(), recount(all), `step ${step}`);
      }
    }
  });

  it('without consumable capacity a shared allocation blocks its whole device', () => {
    const shared = allocatedClaim('s', 'n', ['dev-0']);
    shared.status!.allocation!.devices!.results![0]!.shareID = 'abc';
    const off = new AllocatedDevices(false);
    off.update(undefined, shared);
    assert.deepEqual([...off.gather([]).allocatedDevices], [deviceID(driver, 'n', 'dev-0')]);
    const on = new AllocatedDevices(true);
    on.update(undefined, shared);
    const state = on.gather([]);
    assert.deepEqual([...state.allocatedDevices], []);
    assert.deepEqual([...state.allocatedSharedDeviceIDs], [`${deviceID(driver, 'n', 'dev-0')}#abc`]);
  });

  it('sums consumed capacity per device and takes it back on deallocation', () => {
    const mk = (name: string, share: string, q: string): ResourceClaim => {
      const c = allocatedClaim(name, 'n', ['dev-0']);
      Object.assign(c.status!.allocation!.devices!.results![0]!, { shareID: share, consumedCapacity: { memory: q } });
      return c;
    };
    const a = new AllocatedDevices(true);
    const one = mk('a', 's1', '1Gi');
    a.update(undefined, one);
    a.update(undefined, mk('b', 's2', '512Mi'));
    assert.equal(a.gather([]).aggregatedCapacity.get(deviceID(driver, 'n', 'dev-0'))?.get('memory'), BigInt(1536 * 1024 * 1024) * 1_000_000_000n);
    a.update(one, undefined);
    assert.equal(a.gather([]).aggregatedCapacity.get(deviceID(driver, 'n', 'dev-0'))?.get('memory'), BigInt(512 * 1024 * 1024) * 1_000_000_000n);
  });
});

describe('SliceLister', () => {
  it('adds the taint of each matching DeviceTaintRule, leaving the informer\'s slice untouched', () => {
    const slice = nodeSlice('n', 2);
    const rule = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceTaintRule',
      metadata: { name: 'r' },
      spec: { deviceSelector: { driver, device: 'dev-1' }, taint: { key: 'broken', effect: 'NoSchedule' as const } },
    };
    const lister = new MapObjectLister([slice, rule]);
    const slices = new SliceLister(lister, true).list();
    assert.deepEqual(slices[0]!.spec.devices!.map((d) => d.taints ?? []), [[], [{ key: 'broken', effect: 'NoSchedule' }]]);
    assert.equal(slice.spec.devices![1]!.taints, undefined);
  });
});
