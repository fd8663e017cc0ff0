// What every allocated claim holds, kept as live sets with an undo log, so a scheduling cycle's
// AllocatedState is a view and not a copy (no upstream counterpart: upstream's
// GatherAllocatedState clones the allocated-device set for every pod, which at thousands of
// devices costs more than the allocation itself).
import { parseQuantity } from '../../api/quantity.js';
import { sharedDeviceIDDevice, type AllocatedState, type ConsumedCapacity, type DeviceID, type SharedDeviceID } from './types.js';

/** Capacity consumed per device, in nano-units. */
type CapacityByDevice = Map<DeviceID, ConsumedCapacity>;

/** A consumed-capacity record as an allocation result carries it. */
type Consumed = Readonly<Record<string, string | number>>;

const enum Kind {
  Device,
  Share,
  Capacity,
}

/**
 * One change of the live sets. Changes are linked oldest to newest; a view keeps the change that
 * was newest when it was taken, so the changes after it stay reachable (and collectable once no
 * view needs them) and can be undone to rebuild what the view saw.
 */
interface Change {
  readonly kind: Kind;
  readonly id: string;
  /** Added (or capacity added); false: removed (or capacity taken back). */
  readonly added: boolean;
  readonly consumed: Consumed | null;
  next: Change | null;
}

function addCapacity(into: CapacityByDevice, id: DeviceID, consumed: Consumed, sign: 1n | -1n): void {
  let m = into.get(id);
  if (!m) into.set(id, (m = new Map()));
  for (const [name, q] of Object.entries(consumed)) {
    const next = (m.get(name) ?? 0n) + sign * parseQuantity(q).nanoValue();
    if (next === 0n) m.delete(name);
    else m.set(name, next);
  }
  if (m.size === 0) into.delete(id);
}

function cloneCapacity(c: ReadonlyMap<DeviceID, ConsumedCapacity>): CapacityByDevice {
  const out: CapacityByDevice = new Map();
  for (const [id, m] of c) out.set(id, new Map(m));
  return out;
}

/** The three collections of an allocated state, plus which devices have a share. */
interface Sets {
  readonly devices: ReadonlySet<DeviceID>;
  readonly shares: ReadonlySet<SharedDeviceID>;
  readonly capacity: ReadonlyMap<DeviceID, ConsumedCapacity>;
  readonly sharedDevices: ReadonlyMap<DeviceID, number>;
}

/** What in-flight allocations add on top of the live sets, fixed when a view is taken. */
export interface Overlay {
  readonly devices: ReadonlySet<DeviceID>;
  readonly shares: ReadonlySet<SharedDeviceID>;
  /** Full consumed capacity (live plus in flight) of the devices in-flight shares consume. */
  readonly capacity: ReadonlyMap<DeviceID, ConsumedCapacity>;
  /** Pools (`driver/pool`) an in-flight allocation touches. */
  readonly pools: ReadonlySet<string>;
}

const noOverlay: Overlay = { devices: new Set(), shares: new Set(), capacity: new Map(), pools: new Set() };

/** Live device sets changed in place; `view` hands out what they hold now. */
export class LoggedDeviceSets {
  private readonly devices = new Set<DeviceID>();
  private readonly shares = new Set<SharedDeviceID>();
  private readonly capacity: CapacityByDevice = new Map();
  /** Number of shares per device (derived from `shares`). */
  private readonly sharedDevices = new Map<DeviceID, number>();
  /** Per pool, the change count at its last change (see AllocatedState.poolStamp). */
  private readonly poolChanged = new Map<string, number>();
  private changes = 0;
  private tail: Change = { kind: Kind.Device, id: '', added: true, consumed: null, next: null };
  private readonly live: Sets = { devices: this.devices, shares: this.shares, capacity: this.capacity, sharedDevices: this.sharedDevices };

  /** Starts a new stamp generation (one per claim change): every view taken before sees no stamps afterwards. */
  bump(): void {
    this.changes++;
  }

  /** Marks a pool as changed in the current generation. */
  touchPool(key: string): void {
    this.poolChanged.set(key, this.changes);
  }

  /** The consumed capacity of a device now (read only). */
  capacityOf(id: DeviceID): ConsumedCapacity | undefined {
    return this.capacity.get(id);
  }

  device(id: DeviceID, add: boolean): void {
    if (add === this.devices.has(id)) return;
    if (add) this.devices.add(id);
    else this.devices.delete(id);
    this.log(Kind.Device, id, add, null);
  }

  share(id: SharedDeviceID, add: boolean): void {
    if (add === this.shares.has(id)) return;
    if (add) this.shares.add(id);
    else this.shares.delete(id);
    countShare(this.sharedDevices, id, add);
    this.log(Kind.Share, id, add, null);
  }

  consume(id: DeviceID, consumed: Consumed, add: boolean): void {
    addCapacity(this.capacity, id, consumed, add ? 1n : -1n);
    this.log(Kind.Capacity, id, add, consumed);
  }

  has(id: DeviceID): boolean {
    return this.devices.has(id);
  }

  private log(kind: Kind, id: string, added: boolean, consumed: Consumed | null): void {
    const c: Change = { kind, id, added, consumed, next: null };
    this.tail.next = c;
    this.tail = c;
  }

  /** The allocated state as of now, with `overlay` on top; it stays what it is when the sets change later. */
  view(overlay: Overlay = noOverlay): AllocatedState {
    return new View(this, this.tail, this.changes, overlay);
  }

  /** The live sets while nothing changed since `asOf`, else null. */
  liveAsOf(asOf: Change): Sets | null {
    return asOf === this.tail ? this.live : null;
  }

  /** The sets as they were at `asOf`: a copy of the live ones with the later changes undone. */
  rebuild(asOf: Change): Sets {
    const devices = new Set(this.devices);
    const shares = new Set(this.shares);
    const capacity = cloneCapacity(this.capacity);
    const sharedDevices = new Map(this.sharedDevices);
    const later: Change[] = [];
    for (let c = asOf.next; c !== null; c = c.next) later.push(c);
    for (let i = later.length - 1; i >= 0; i--) {
      const c = later[i]!;
      if (c.kind === Kind.Device) {
        if (c.added) devices.delete(c.id);
        else devices.add(c.id);
      } else if (c.kind === Kind.Share) {
        if (c.added) shares.delete(c.id);
        else shares.add(c.id);
        countShare(sharedDevices, c.id, !c.added);
      } else {
        addCapacity(capacity, c.id, c.consumed!, c.added ? -1n : 1n);
      }
    }
    return { devices, shares, capacity, sharedDevices };
  }

  /** Whether the pools' stamps for a view taken at `asOf` are `stamps` and none is in `inFlight`. */
  stampsHoldAsOf(asOf: number, keys: readonly string[], stamps: readonly number[], inFlight: ReadonlySet<string>): boolean {
    // A node without pools depends on no allocation: its answer holds whatever changed.
    if (keys.length === 0) return true;
    if (this.changes !== asOf) return false;
    const checkInFlight = inFlight.size > 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (checkInFlight && inFlight.has(key)) return false;
      if ((this.poolChanged.get(key) ?? 0) !== stamps[i]) return false;
    }
    return true;
  }

  /** The stamp of a pool for a view taken at change count `asOf` (null once anything changed since). */
  stampAsOf(asOf: number, key: string): number | null {
    return this.changes !== asOf ? null : (this.poolChanged.get(key) ?? 0);
  }
}

function countShare(counts: Map<DeviceID, number>, share: SharedDeviceID, add: boolean): void {
  const device = sharedDeviceIDDevice(share);
  const n = (counts.get(device) ?? 0) + (add ? 1 : -1);
  if (n <= 0) counts.delete(device);
  else counts.set(device, n);
}

/** An AllocatedState reading the live sets until they change, then its own rebuilt copy. */
class View implements AllocatedState {
  private own: Sets | null = null;
  private readonly stampsAsOf: number;
  readonly allocatedDevices: ReadonlySet<DeviceID>;
  readonly allocatedSharedDeviceIDs: ReadonlySet<SharedDeviceID>;
  readonly aggregatedCapacity: ReadonlyMap<DeviceID, ConsumedCapacity>;
  readonly poolStamp: (poolKey: string) => number | null;

  constructor(
    private readonly sets: LoggedDeviceSets,
    private readonly asOf: Change,
    stampsAsOf: number,
    private readonly overlay: Overlay,
  ) {
    this.stampsAsOf = stampsAsOf;
    this.allocatedDevices = new UnionSet(() => this.base().devices, overlay.devices);
    this.allocatedSharedDeviceIDs = new UnionSet(() => this.base().shares, overlay.shares);
    this.aggregatedCapacity = new OverMap(() => this.base().capacity, overlay.capacity);
    this.poolStamp = (key) => (overlay.pools.has(key) ? null : sets.stampAsOf(stampsAsOf, key));
  }

  poolStampsHold(poolKeys: readonly string[], stamps: readonly number[]): boolean {
    return this.sets.stampsHoldAsOf(this.stampsAsOf, poolKeys, stamps, this.overlay.pools);
  }

  private base(): Sets {
    if (this.own !== null) return this.own;
    const live = this.sets.liveAsOf(this.asOf);
    if (live !== null) return live;
    this.own = this.sets.rebuild(this.asOf);
    return this.own;
  }

  isAllocated(id: DeviceID): boolean {
    const base = this.base();
    if (base.devices.has(id) || base.sharedDevices.has(id) || base.capacity.has(id)) return true;
    const o = this.overlay;
    if (o.devices.size === 0 && o.shares.size === 0 && o.capacity.size === 0) return false;
    return o.devices.has(id) || o.capacity.has(id) || this.deviceHasShare(id);
  }

  deviceHasShare(id: DeviceID): boolean {
    if (this.base().sharedDevices.has(id)) return true;
    if (this.overlay.shares.size === 0) return false;
    for (const s of this.overlay.shares) if (sharedDeviceIDDevice(s) === id) return true;
    return false;
  }
}

/** A read-only union of a (possibly changing) base set and a fixed overlay. */
class UnionSet implements ReadonlySet<string> {
  constructor(
    private readonly base: () => ReadonlySet<string>,
    private readonly extra: ReadonlySet<string>,
  ) {}

  has(value: string): boolean {
    return this.base().has(value) || (this.extra.size > 0 && this.extra.has(value));
  }

  get size(): number {
    const base = this.base();
    let n = base.size;
    for (const v of this.extra) if (!base.has(v)) n++;
    return n;
  }

  *values(): SetIterator<string> {
    const base = this.base();
    yield* base;
    for (const v of this.extra) if (!base.has(v)) yield v;
  }

  keys(): SetIterator<string> {
    return this.values();
  }

  *entries(): SetIterator<[string, string]> {
    for (const v of this.values()) yield [v, v];
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.values();
  }

  forEach(fn: (value: string, key: string, set: ReadonlySet<string>) => void): void {
    for (const v of this.values()) fn(v, v, this);
  }
}

/** A read-only map whose overlay entries replace the base's. */
class OverMap implements ReadonlyMap<DeviceID, ConsumedCapacity> {
  constructor(
    private readonly base: () => ReadonlyMap<DeviceID, ConsumedCapacity>,
    private readonly over: ReadonlyMap<DeviceID, ConsumedCapacity>,
  ) {}

  get(key: DeviceID): ConsumedCapacity | undefined {
    return (this.over.size > 0 ? this.over.get(key) : undefined) ?? this.base().get(key);
  }

  has(key: DeviceID): boolean {
    return (this.over.size > 0 && this.over.has(key)) || this.base().has(key);
  }

  get size(): number {
    const base = this.base();
    let n = base.size;
    for (const k of this.over.keys()) if (!base.has(k)) n++;
    return n;
  }

  *entries(): MapIterator<[DeviceID, ConsumedCapacity]> {
    for (const [k, v] of this.base()) yield [k, this.over.get(k) ?? v];
    const base = this.base();
    for (const [k, v] of this.over) if (!base.has(k)) yield [k, v];
  }

  *keys(): MapIterator<DeviceID> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<ConsumedCapacity> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[DeviceID, ConsumedCapacity]> {
    return this.entries();
  }

  forEach(fn: (value: ConsumedCapacity, key: DeviceID, map: ReadonlyMap<DeviceID, ConsumedCapacity>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}

/** Adds an in-flight share's consumption to the full consumed capacity (live plus in flight) of its device. */
export function addOverlayCapacity(into: CapacityByDevice, live: LoggedDeviceSets, id: DeviceID, consumed: Consumed): void {
  if (!into.has(id)) {
    const current = live.capacityOf(id);
    into.set(id, current ? new Map(current) : new Map());
  }
  addCapacity(into, id, consumed, 1n);
}
