// The devices every allocated claim holds, kept up to date claim by claim
// (pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go).
import type { ResourceClaim } from '../../api/dra_types.js';
import { parseQuantity } from '../../api/quantity.js';
import { makeDeviceID, makeSharedDeviceID, sharedDeviceIDDevice, type AllocatedState, type ConsumedCapacity as DeviceCapacity } from '../../dra/structured/index.js';

/** Capacity consumed per device and capacity name, in nano-units (exact sums of quantities). */
type ConsumedCapacity = Map<string, DeviceCapacity>;

interface AllocatedDeviceVisitor {
  dedicated(id: string): void;
  shared(id: string): void;
  capacity(id: string, consumed: Readonly<Record<string, string | number>>): void;
}

/**
 * Calls the visitor for each device of the claim's allocation, skipping admin access (it takes
 * nothing from others); with consumable capacity a result with a share ID is a shared device.
 */
function foreachAllocatedDevice(claim: ResourceClaim, consumableCapacity: boolean, v: AllocatedDeviceVisitor): void {
  const results = claim.status?.allocation?.devices?.results;
  if (!results) return;
  for (const r of results) {
    if (r.adminAccess === true) continue;
    const id = makeDeviceID(r.driver, r.pool, r.device);
    if (consumableCapacity && r.shareID !== undefined && r.shareID !== '') {
      v.shared(makeSharedDeviceID(id, r.shareID));
      if (r.consumedCapacity) v.capacity(id, r.consumedCapacity);
      continue;
    }
    v.dedicated(id);
  }
}

function addCapacity(into: ConsumedCapacity, id: string, consumed: Readonly<Record<string, string | number>>, sign: 1n | -1n): void {
  let m = into.get(id);
  if (!m) into.set(id, (m = new Map()));
  for (const [name, q] of Object.entries(consumed)) {
    const next = (m.get(name) ?? 0n) + sign * parseQuantity(q).nanoValue();
    if (next === 0n) m.delete(name);
    else m.set(name, next);
  }
  if (m.size === 0) into.delete(id);
}

/** Copies a consumed-capacity collection (the allocator adds to its copy). */
function cloneCapacity(c: ConsumedCapacity): ConsumedCapacity {
  const out: ConsumedCapacity = new Map();
  for (const [id, m] of c) out.set(id, new Map(m));
  return out;
}

/** The allocated devices of all claims, as sets (a device freed by one claim is free, as upstream). */
export class AllocatedDevices {
  private readonly ids = new Set<string>();
  private readonly shareIDs = new Set<string>();
  private readonly capacities: ConsumedCapacity = new Map();

  constructor(private readonly consumableCapacity: boolean) {}

  /** Records the change from `before` to `after` of one claim (either may be undefined). */
  update(before: ResourceClaim | undefined, after: ResourceClaim | undefined): void {
    const had = before?.status?.allocation;
    const has = after?.status?.allocation;
    // The same allocation object: nothing changed. A different one may hide a deallocation and a
    // new allocation seen as one change (changes are looked at in batches), so both are applied.
    if (had === has) return;
    if (had !== undefined) this.apply(before!, -1);
    if (has !== undefined) this.apply(after!, 1);
  }

  private apply(claim: ResourceClaim, delta: 1 | -1): void {
    const bump = (set: Set<string>, id: string): void => {
      if (delta === 1) set.add(id);
      else set.delete(id);
    };
    foreachAllocatedDevice(claim, this.consumableCapacity, {
      dedicated: (id) => bump(this.ids, id),
      shared: (id) => bump(this.shareIDs, id),
      capacity: (id, consumed) => addCapacity(this.capacities, id, consumed, delta === 1 ? 1n : -1n),
    });
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** A fresh AllocatedState of the informer's view, with `inFlight` claims added on top. */
  gather(inFlight: Iterable<ResourceClaim>): AllocatedState {
    const allocatedDevices = new Set(this.ids);
    const allocatedSharedDeviceIDs = new Set(this.shareIDs);
    const aggregatedCapacity = cloneCapacity(this.capacities);
    if (!this.consumableCapacity) {
      // Without consumable capacity a shared allocation blocks the whole device.
      for (const s of allocatedSharedDeviceIDs) allocatedDevices.add(sharedDeviceIDDevice(s));
      allocatedSharedDeviceIDs.clear();
      aggregatedCapacity.clear();
    }
    for (const claim of inFlight) {
      foreachAllocatedDevice(claim, this.consumableCapacity, {
        dedicated: (id) => allocatedDevices.add(id),
        shared: (id) => allocatedSharedDeviceIDs.add(id),
        capacity: (id, consumed) => addCapacity(aggregatedCapacity, id, consumed, 1n),
      });
    }
    return { allocatedDevices, allocatedSharedDeviceIDs, aggregatedCapacity };
  }
}
