// The devices every allocated claim holds, kept up to date claim by claim
// (pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go).
import type { ResourceClaim } from '../../api/dra_types.js';
import {
  addOverlayCapacity,
  LoggedDeviceSets,
  makeDeviceID,
  makeSharedDeviceID,
  type AllocatedState,
  type ConsumedCapacity as DeviceCapacity,
  type Overlay,
} from '../../dra/structured/index.js';

interface AllocatedDeviceVisitor {
  /** The pool (`driver/pool`) of the next device visited. */
  pool?(key: string): void;
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
    v.pool?.(`${r.driver}/${r.pool}`);
    const id = makeDeviceID(r.driver, r.pool, r.device);
    if (consumableCapacity && r.shareID !== undefined && r.shareID !== '') {
      v.shared(makeSharedDeviceID(id, r.shareID));
      if (r.consumedCapacity) v.capacity(id, r.consumedCapacity);
      continue;
    }
    v.dedicated(id);
  }
}

/**
 * The allocated devices of all claims, as sets (a device freed by one claim is free, as upstream),
 * changed in place claim by claim; each cycle gets a view of them, not a copy.
 */
export class AllocatedDevices {
  private readonly sets = new LoggedDeviceSets();

  constructor(private readonly consumableCapacity: boolean) {}

  /** Records the change from `before` to `after` of one claim (either may be undefined). */
  update(before: ResourceClaim | undefined, after: ResourceClaim | undefined): void {
    const had = before?.status?.allocation;
    const has = after?.status?.allocation;
    // The same allocation object: nothing changed. A different one may hide a deallocation and a
    // new allocation seen as one change (changes are looked at in batches), so both are applied.
    if (had === has) return;
    this.sets.bump();
    if (had !== undefined) this.apply(before!, false);
    if (has !== undefined) this.apply(after!, true);
  }

  private apply(claim: ResourceClaim, add: boolean): void {
    const sets = this.sets;
    foreachAllocatedDevice(claim, this.consumableCapacity, {
      pool: (key) => sets.touchPool(key),
      dedicated: (id) => sets.device(id, add),
      shared: (id) => sets.share(id, add),
      capacity: (id, consumed) => sets.consume(id, consumed, add),
    });
  }

  has(id: string): boolean {
    return this.sets.has(id);
  }

  /**
   * The informer's view with `inFlight` claims added on top, as upstream's GatherAllocatedState;
   * it keeps showing this moment when claims change later.
   */
  gather(inFlight: Iterable<ResourceClaim>): AllocatedState {
    let overlay: MutableOverlay | undefined;
    for (const claim of inFlight) {
      const o = (overlay ??= { devices: new Set(), shares: new Set(), capacity: new Map(), pools: new Set() });
      foreachAllocatedDevice(claim, this.consumableCapacity, {
        pool: (key) => o.pools.add(key),
        dedicated: (id) => o.devices.add(id),
        shared: (id) => o.shares.add(id),
        capacity: (id, consumed) => addOverlayCapacity(o.capacity, this.sets, id, consumed),
      });
    }
    return this.sets.view(overlay);
  }
}

/** The in-flight part of a view, being filled in. */
interface MutableOverlay extends Overlay {
  readonly devices: Set<string>;
  readonly shares: Set<string>;
  readonly capacity: Map<string, DeviceCapacity>;
  readonly pools: Set<string>;
}
