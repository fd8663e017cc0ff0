// Nodes' allocation answers kept across scheduling cycles: reused only while the node, its
// pools' allocations, the slices, the classes and the claims' specs are the same.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AllocationResult, DeviceClass, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import { CelCache } from '../../api/cel/index.js';
import { AllocatedDevices } from './allocated_devices.js';
import { AllocationResultCache, Allocator, DefaultFeatures } from '../../dra/structured/index.js';
import { classA, claim, device, deviceClass, driverA, exactly, node, slice } from '../../dra/structured/test_helpers.js';

const nodes = [node('node-1'), node('node-2')];
const slices: ResourceSlice[] = [
  slice('s1', 'node-1', 'pool-1', driverA, [device('d1'), device('d2')]),
  slice('s2', 'node-2', 'pool-2', driverA, [device('d1')]),
];
const celCache = new CelCache(10, { consumableCapacity: DefaultFeatures.consumableCapacity, listTypeAttributes: DefaultFeatures.listTypeAttributes });

/** One scheduling cycle's allocator over the shared cache. */
function cycle(cache: AllocationResultCache, devices: AllocatedDevices, o: { inFlight?: ResourceClaim[]; classes?: DeviceClass[] } = {}): Allocator {
  const classes = new Map((o.classes ?? [theClass]).map((c) => [c.metadata.name!, c]));
  return new Allocator({
    features: DefaultFeatures,
    allocatedState: devices.gather(o.inFlight ?? []),
    classLister: (name) => classes.get(name),
    slices,
    celCache,
    resultCache: cache,
  });
}

const theClass = deviceClass(classA, driverA);
/** Two pods' claims from one template: different names, one spec. */
const podClaim = (name: string) => claim(name, [exactly('req-0', classA)]);
const allocatedOn = (name: string, pool: string, dev: string): ResourceClaim => ({
  ...podClaim(name),
  status: { allocation: { devices: { results: [{ request: 'req-0', driver: driverA, pool, device: dev }] } } },
});
const deviceOf = (r: ReturnType<Allocator['kept']>) => r?.[0]?.devices?.results?.[0]?.device;
/** A linear congruential sequence: each call a number below `n`. */
function seededBelow(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
}

describe('allocation answers kept across cycles', () => {
  it("answers the next pod's identical claim on an unchanged node without searching, with the same devices", () => {
    const cache = new AllocationResultCache();
    const devices = new AllocatedDevices(true);
    const first = cycle(cache, devices);
    const want = first.allocate(nodes[0]!, [podClaim('a')]);
    assert.ok(first.numAllocateOneInvocations > 0);
    const second = cycle(cache, devices);
    const got = second.allocate(nodes[0]!, [podClaim('b')]);
    assert.equal(second.numAllocateOneInvocations, 0, 'answered from the cache');
    assert.deepEqual(got, want);
    assert.equal(deviceOf(got), 'd1');
    assert.ok(Object.isFrozen(got![0]!.devices!.results![0]), 'a kept answer cannot be changed by its user');
  });

  it("searches again when the node's pool changed, and keeps the other nodes' answers", () => {
    const cache = new AllocationResultCache();
    const devices = new AllocatedDevices(true);
    const first = cycle(cache, devices);
    first.allocate(nodes[0]!, [podClaim('a')]);
    first.allocate(nodes[1]!, [podClaim('a')]);
    devices.update(undefined, allocatedOn('a', 'pool-1', 'd1'));
    const next = cycle(cache, devices);
    assert.equal(deviceOf(next.allocate(nodes[1]!, [podClaim('b')])), 'd1');
    assert.equal(next.numAllocateOneInvocations, 0, 'node-2 is unchanged');
    assert.equal(deviceOf(next.allocate(nodes[0]!, [podClaim('b')])), 'd2', 'd1 of node-1 is taken now');
    assert.ok(next.numAllocateOneInvocations > 0);
  });

  it('keeps "does not fit" too, until the pool frees a device', () => {
    const cache = new AllocationResultCache();
    const devices = new AllocatedDevices(true);
    devices.update(undefined, allocatedOn('x', 'pool-2', 'd1'));
    assert.equal(cycle(cache, devices).allocate(nodes[1]!, [podClaim('a')]), null);
    const again = cycle(cache, devices);
    assert.equal(again.allocate(nodes[1]!, [podClaim('b')]), null);
    assert.equal(again.numAllocateOneInvocations, 0);
    devices.update(allocatedOn('x', 'pool-2', 'd1'), undefined);
    assert.equal(deviceOf(cycle(cache, devices).allocate(nodes[1]!, [podClaim('b')])), 'd1');
  });

  it('does not reuse an answer while an allocation in flight touches the pool, nor after the class changed, nor for another spec', () => {
    const cache = new AllocationResultCache();
    const devices = new AllocatedDevices(true);
    cycle(cache, devices).allocate(nodes[0]!, [podClaim('a')]);
    const inFlight = cycle(cache, devices, { inFlight: [allocatedOn('a', 'pool-1', 'd1')] });
    assert.equal(deviceOf(inFlight.allocate(nodes[0]!, [podClaim('b')])), 'd2');
    assert.ok(inFlight.numAllocateOneInvocations > 0);

    const renewed = cycle(cache, devices, { classes: [deviceClass(classA, driverA)] });
    renewed.allocate(nodes[0]!, [podClaim('b')]);
    assert.ok(renewed.numAllocateOneInvocations > 0, 'a new DeviceClass object');

    const two = cycle(cache, devices);
    assert.deepEqual(two.allocate(nodes[0]!, [claim('c', [exactly('req-0', classA, 2)])])?.[0]?.devices?.results?.map((r) => r.device), ['d1', 'd2']);
    assert.ok(two.numAllocateOneInvocations > 0, 'another spec is another question');
  });

  it('tells the kept answer without searching, and nothing where allocate would search', () => {
    const cache = new AllocationResultCache();
    const devices = new AllocatedDevices(true);
    const first = cycle(cache, devices);
    assert.equal(first.kept(nodes[0]!, [podClaim('a')]), undefined, 'nothing kept yet');
    const want = first.allocate(nodes[0]!, [podClaim('a')]);
    const second = cycle(cache, devices);
    assert.deepEqual(second.kept(nodes[0]!, [podClaim('b')]), want);
    assert.equal(second.kept(nodes[1]!, [podClaim('b')]), undefined, 'another node');
    assert.equal(second.numAllocateOneInvocations, 0);
    devices.update(undefined, allocatedOn('x', 'pool-1', 'd1'));
    assert.equal(cycle(cache, devices).kept(nodes[0]!, [podClaim('b')]), undefined, 'the pool changed');
  });

  it('answers from the cycle it was taken in when claims change during the cycle', () => {
    const cache = new AllocationResultCache();
    const devices = new AllocatedDevices(true);
    const current = cycle(cache, devices);
    // A claim allocated after the cycle's PreFilter: the cycle still sees d1 free, as with a copy.
    devices.update(undefined, allocatedOn('x', 'pool-1', 'd1'));
    assert.equal(deviceOf(current.allocate(nodes[0]!, [podClaim('a')])), 'd1');
    assert.equal(deviceOf(cycle(cache, devices).allocate(nodes[0]!, [podClaim('b')])), 'd2', 'and the answer was not kept for later cycles');
  });

  it("finds a node's answer by its slot, and never another node's when the slots moved", () => {
    const cache = new AllocationResultCache();
    const devices = new AllocatedDevices(true);
    devices.update(undefined, allocatedOn('x', 'pool-1', 'd1'));
    const first = cycle(cache, devices);
    assert.equal(deviceOf(first.allocate(nodes[0]!, [podClaim('a')], 0)), 'd2');
    assert.equal(deviceOf(first.allocate(nodes[1]!, [podClaim('a')], 1)), 'd1');
    const second = cycle(cache, devices);
    assert.equal(deviceOf(second.kept(nodes[0]!, [podClaim('b')], 0)), 'd2');
    // The node list changed: node-2 now sits where node-1 was, and the other way round.
    assert.equal(deviceOf(second.kept(nodes[1]!, [podClaim('b')], 0)), 'd1');
    assert.equal(deviceOf(second.kept(nodes[0]!, [podClaim('b')], 1)), 'd2');
    assert.equal(deviceOf(second.kept(nodes[0]!, [podClaim('b')], 7)), 'd2', 'a slot never used');
    assert.equal(deviceOf(second.kept(nodes[0]!, [podClaim('b')])), 'd2', 'no slot');
    assert.equal(second.numAllocateOneInvocations, 0);
    // A node object of the same name (the node changed) has no answer, whatever the slot.
    assert.equal(second.kept(node('node-1'), [podClaim('b')], 0), undefined);
  });

  it('answers again after a change of a pool the answer depends on, while another question keeps its answers', () => {
    const cache = new AllocationResultCache();
    const devices = new AllocatedDevices(true);
    const twoDevices = (name: string) => claim(name, [exactly('req-0', classA, 2)]);
    const first = cycle(cache, devices);
    first.allocate(nodes[0]!, [podClaim('a')], 0);
    assert.equal(first.allocate(nodes[1]!, [twoDevices('t')], 1), null, 'node-2 has one device');
    devices.update(undefined, allocatedOn('x', 'pool-1', 'd1'));
    const second = cycle(cache, devices);
    assert.equal(second.kept(nodes[0]!, [podClaim('b')], 0), undefined, 'pool-1 changed');
    assert.equal(second.kept(nodes[1]!, [twoDevices('u')], 1), null, 'pool-2 did not');
    assert.equal(deviceOf(second.allocate(nodes[0]!, [podClaim('b')], 0)), 'd2');
    assert.equal(deviceOf(cycle(cache, devices).kept(nodes[0]!, [podClaim('c')], 0)), 'd2', 'the new answer is kept');
  });

  it('keeps nothing when the allocated state cannot watch pools (explain, tests)', () => {
    const cache = new AllocationResultCache();
    const classes = new Map([[classA, theClass]]);
    const plain = () => new Allocator({ features: DefaultFeatures, allocatedState: { allocatedDevices: new Set(), allocatedSharedDeviceIDs: new Set(), aggregatedCapacity: new Map() }, classLister: (n) => classes.get(n), slices, celCache, resultCache: cache });
    plain().allocate(nodes[0]!, [podClaim('a')]);
    const second = plain();
    second.allocate(nodes[0]!, [podClaim('b')]);
    assert.ok(second.numAllocateOneInvocations > 0);
  });

  it('answers as a search would through seeded sequences of cycles, pool changes, allocations in flight, older cycles and moved slots', () => {
    const names = ['n-0', 'n-1', 'n-2', 'n-3'];
    const many = names.map((n) => node(n));
    const manySlices: ResourceSlice[] = names.map((n, i) => slice(`s-${i}`, n, `p-${i}`, driverA, [device('d1'), device('d2')]));
    const classes = new Map([[classA, theClass]]);
    const allocator = (cache: AllocationResultCache | undefined, state: ReturnType<AllocatedDevices['gather']>) =>
      new Allocator({ features: DefaultFeatures, allocatedState: state, classLister: (n) => classes.get(n), slices: manySlices, celCache, resultCache: cache });
    let hits = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededBelow(seed);
      const cache = new AllocationResultCache();
      const devices = new AllocatedDevices(true);
      const allocated = new Map<string, ResourceClaim>();
      let slots = [0, 1, 2, 3];
      const older: ReturnType<AllocatedDevices['gather']>[] = [];
      for (let step = 0; step < 60; step++) {
        const op = random(5);
        if (op === 0) {
          // A device of a pool is allocated or freed.
          const key = `p-${random(4)}/d${1 + random(2)}`;
          const [pool, dev] = key.split('/') as [string, string];
          const before = allocated.get(key);
          const after = before === undefined ? allocatedOn(`c-${seed}-${step}`, pool, dev) : undefined;
          devices.update(before, after);
          if (after === undefined) allocated.delete(key);
          else allocated.set(key, after);
        } else if (op === 1) {
          slots = [...slots].reverse();
        } else {
          const inFlight = random(3) === 0 ? [allocatedOn(`f-${seed}-${step}`, `p-${random(4)}`, `d${1 + random(2)}`)] : [];
          const state = op === 4 && older.length > 0 ? older[random(older.length)]! : devices.gather(inFlight);
          older.push(state);
          const cycleAllocator = allocator(cache, state);
          for (let i = 0; i < 4; i++) {
            const n = random(4);
            const want = allocator(undefined, state).allocate(many[n]!, [podClaim(`q-${step}`)]);
            const kept = cycleAllocator.kept(many[n]!, [podClaim(`q-${step}`)], slots[n]);
            if (kept !== undefined) hits++;
            assert.deepEqual(kept ?? cycleAllocator.allocate(many[n]!, [podClaim(`q-${step}`)], slots[n]), want, `seed ${seed}, step ${step}, node ${n}`);
          }
        }
      }
    }
    assert.ok(hits > 100, `kept answers were used (${hits})`);
  });

  describe('answers with shares of multi-allocation devices', () => {
    const shareable = (name: string, group: string, idx: number): ReturnType<typeof device> =>
      device(name, { allowMultipleAllocations: true, attributes: { group: { string: group }, idx: { int: idx } }, capacity: { bw: { value: '10G', requestPolicy: { default: '1G', validRange: { min: '1G' } } } } });
    /** Two requests that must share a group; only s3 (group b) serves req-1, so req-0 first tries s1 (group a) in vain. */
    const pairClaim = (name: string) =>
      claim(name, [
        exactly('req-0', classA, 1, { capacity: { requests: { bw: '4G' } } }),
        exactly('req-1', classA, 1, { capacity: { requests: { bw: '4G' } }, selectors: [{ cel: { expression: `device.attributes["${driverA}"].idx == 3` } }] }),
      ], [{ requests: ['req-0', 'req-1'], matchAttribute: `${driverA}/group` }]);
    const shareSlices = (names: readonly string[]): ResourceSlice[] =>
      names.map((n, i) => slice(`s-${i}`, n, `p-${i}`, driverA, [shareable('s1', 'a', 1), shareable('s2', 'b', 2), shareable('s3', 'b', 3)]));
    const classes = new Map([[classA, theClass]]);
    /** An allocator whose share IDs count up from `from.n` (shared, so two allocators can be compared draw for draw). */
    const counting = (cache: AllocationResultCache | undefined, state: ReturnType<AllocatedDevices['gather']>, sl: ResourceSlice[], from: { n: number }) =>
      new Allocator({ features: DefaultFeatures, allocatedState: state, classLister: (n) => classes.get(n), slices: sl, celCache, resultCache: cache, newShareID: () => `share-${++from.n}` });
    const shareIDs = (r: ReturnType<Allocator['kept']>) => r?.flatMap((a) => a.devices?.results?.map((d) => `${d.device}:${d.shareID ?? ''}`) ?? []);

    it('reuses the answer with new share IDs, drawn as many as the search drew (backtracking included)', () => {
      const sl = shareSlices(['node-1']);
      const cache = new AllocationResultCache();
      const devices = new AllocatedDevices(true);
      const ids = { n: 0 };
      const first = counting(cache, devices.gather([]), sl, ids).allocate(nodes[0]!, [pairClaim('a')], 0);
      // s1 drew share-1 before the constraint turned it down; s2 and s3 took the next two.
      assert.deepEqual(shareIDs(first), ['s2:share-2', 's3:share-3']);
      const second = counting(cache, devices.gather([]), sl, ids);
      const kept = second.allocate(nodes[0]!, [pairClaim('b')], 0);
      assert.equal(second.numAllocateOneInvocations, 0, 'answered from the cache');
      assert.deepEqual(shareIDs(kept), ['s2:share-5', 's3:share-6'], 'three new draws, in the search\'s places');
      assert.equal(ids.n, 6);
      assert.deepEqual(shareIDs(counting(cache, devices.gather([]), sl, ids).kept(nodes[0]!, [pairClaim('c')])), ['s2:share-8', 's3:share-9'], 'found by name too');
      assert.ok(Object.isFrozen(first![0]!.devices!.results![0]), 'the kept answer itself is not changed');
    });

    it('keptLater moves the source on as kept does and writes the same IDs when first asked', () => {
      const sl = shareSlices(['node-1']);
      const cache = new AllocationResultCache();
      const devices = new AllocatedDevices(true);
      counting(cache, devices.gather([]), sl, { n: 0 }).allocate(nodes[0]!, [pairClaim('a')], 0);
      const eager = { n: 10 };
      const now = counting(cache, devices.gather([]), sl, eager).kept(nodes[0]!, [pairClaim('b')], 0);
      // Later: the source (a counter here) moves past three draws at once, and gives them when asked.
      const lazy = { n: 10 };
      const laterShareIDs = (count: number) => {
        const first = lazy.n;
        lazy.n += count;
        return () => Array.from({ length: count }, (_, i) => `share-${first + i + 1}`);
      };
      const allocator = new Allocator({ features: DefaultFeatures, allocatedState: devices.gather([]), classLister: (n) => classes.get(n), slices: sl, celCache, resultCache: cache, newShareID: () => `share-${++lazy.n}`, laterShareIDs });
      const later = allocator.keptLater(nodes[0]!, [pairClaim('c')], 0);
      assert.equal(typeof later, 'function');
      assert.equal(lazy.n, eager.n, 'as many draws, at the same point');
      const results = (later as () => AllocationResult[])();
      assert.deepEqual(shareIDs(results), shareIDs(now));
      assert.equal((later as () => AllocationResult[])(), results, 'written once');
      // Without laterShareIDs keptLater answers as kept.
      const plain = counting(cache, devices.gather([]), sl, { n: 10 }).keptLater(nodes[0]!, [pairClaim('d')], 0);
      assert.deepEqual(shareIDs(plain as AllocationResult[]), shareIDs(now));
    });

    it('answers and draws as a search would through seeded sequences of share allocations and frees', () => {
      const names = ['n-0', 'n-1', 'n-2'];
      const many = names.map((n) => node(n));
      const sl = shareSlices(names);
      let hits = 0;
      for (let seed = 1; seed <= 20; seed++) {
        const random = seededBelow(seed);
        const cache = new AllocationResultCache();
        const devices = new AllocatedDevices(true);
        const allocated: ResourceClaim[] = [];
        for (let step = 0; step < 60; step++) {
          if (random(3) === 0) {
            // A share of 4G on a device is allocated, or an allocated one freed.
            if (allocated.length > 0 && random(2) === 0) {
              devices.update(allocated.splice(random(allocated.length), 1)[0], undefined);
            } else {
              const c: ResourceClaim = {
                ...pairClaim(`x-${seed}-${step}`),
                status: { allocation: { devices: { results: [{ request: 'req-0', driver: driverA, pool: `p-${random(3)}`, device: `s${1 + random(3)}`, shareID: `x-${step}`, consumedCapacity: { bw: '4G' } }] } } },
              };
              devices.update(undefined, c);
              allocated.push(c);
            }
            continue;
          }
          const state = devices.gather([]);
          const cachedIDs = { n: 100 * step };
          const freshIDs = { n: 100 * step };
          const cycleAllocator = counting(cache, state, sl, cachedIDs);
          for (let i = 0; i < 3; i++) {
            const n = random(3);
            const want = counting(undefined, state, sl, freshIDs).allocate(many[n]!, [pairClaim(`q-${step}`)]);
            const kept = cycleAllocator.kept(many[n]!, [pairClaim(`q-${step}`)], n);
            if (kept !== undefined) hits++;
            assert.deepEqual(kept ?? cycleAllocator.allocate(many[n]!, [pairClaim(`q-${step}`)], n), want, `seed ${seed}, step ${step}, node ${n}`);
            assert.equal(cachedIDs.n, freshIDs.n, `seed ${seed}, step ${step}, node ${n}: as many share IDs drawn`);
          }
        }
      }
      assert.ok(hits > 100, `kept answers were used (${hits})`);
    });
  });
});

