// What every allocated claim holds, kept as live sets with an undo log, so a scheduling cycle's
// AllocatedState is a view and not a copy (no upstream counterpart: upstream's
// GatherAllocatedState clones the allocated-device set for every pod, which at thousands of
// devices costs more than the allocation itself).
import { parseQuantity } from '../../api/quantity.js';
import { sharedDeviceIDDevice, type AllocatedState, type ConsumedCapacity, type DeviceID, type PoolDependent, type SharedDeviceID } from './types.js';

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

/** The answers registered on one pool, marked stale at its next change. */
interface PoolWatch {
  dependents: PoolDependent[];
  /** Past this length, stale dependents (registered on other pools too, or dropped) are cleared out first. */
  compactAt: number;
}

const minCompactAt = 16;

/** Live device sets changed in place; `view` hands out what they hold now. */
export class LoggedDeviceSets {
  private readonly devices = new Set<DeviceID>();
  private readonly shares = new Set<SharedDeviceID>();
  private readonly capacity: CapacityByDevice = new Map();
  /** Number of shares per device (derived from `shares`). */
  private readonly sharedDevices = new Map<DeviceID, number>();
  /** Per pool, the answers that depend on it (see AllocatedState.watchPools). */
  private readonly watches = new Map<string, PoolWatch>();
  private changes = 0;
  /** The serial of the newest view: only it registers answers and marks them in flight. */
  private newestView = 0;
  private tail: Change = { kind: Kind.Device, id: '', added: true, consumed: null, next: null };
  private readonly live: Sets = { devices: this.devices, shares: this.shares, capacity: this.capacity, sharedDevices: this.sharedDevices };

  /** Starts a new stamp generation (one per claim change): every view taken before sees no stamps afterwards. */
  bump(): void {
    this.changes++;
  }

  /** Marks a pool as changed: every answer registered on it is stale from now on. */
  touchPool(key: string): void {
    const w = this.watches.get(key);
    if (w === undefined || w.dependents.length === 0) return;
    for (const d of w.dependents) d.stale = true;
    w.dependents = [];
    w.compactAt = minCompactAt;
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
    const serial = ++this.newestView;
    // The answers of pools in flight do not hold in this view: marked once here, not looked up per node.
    for (const key of overlay.pools) {
      const w = this.watches.get(key);
      if (w !== undefined) for (const d of w.dependents) d.inFlightView = serial;
    }
    return new View(this, this.tail, this.changes, serial, overlay);
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

  /** Whether a view taken at change count `asOf` with serial `serial` may register answers (and they are its own). */
  isNewest(asOf: number, serial: number): boolean {
    return this.changes === asOf && this.newestView === serial;
  }

  /** Whether nothing changed since change count `asOf`. */
  unchangedSince(asOf: number): boolean {
    return this.changes === asOf;
  }

  /** Registers `d` on each of its pools. */
  watch(d: PoolDependent): void {
    for (const key of d.poolKeys) {
      let w = this.watches.get(key);
      if (w === undefined) this.watches.set(key, (w = { dependents: [], compactAt: minCompactAt }));
      if (w.dependents.length >= w.compactAt) {
        w.dependents = w.dependents.filter((x) => !x.stale);
        w.compactAt = Math.max(minCompactAt, 2 * w.dependents.length);
      }
      w.dependents.push(d);
    }
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
  readonly allocatedDevices: ReadonlySet<DeviceID>;
  readonly allocatedSharedDeviceIDs: ReadonlySet<SharedDeviceID>;
  readonly aggregatedCapacity: ReadonlyMap<DeviceID, ConsumedCapacity>;

  constructor(
    private readonly sets: LoggedDeviceSets,
    private readonly asOf: Change,
    /** The change count when taken. */
    private readonly changesAsOf: number,
    private readonly serial: number,
    private readonly overlay: Overlay,
  ) {
    this.allocatedDevices = new UnionSet(() => this.base().devices, overlay.devices);
    this.allocatedSharedDeviceIDs = new UnionSet(() => this.base().shares, overlay.shares);
    this.aggregatedCapacity = new OverMap(() => this.base().capacity, overlay.capacity);
  }

  watchPools(d: PoolDependent): boolean {
    if (d.poolKeys.length === 0) return true;
    // An older view's answer may be of pools a newer view found in flight (and did not mark it).
    if (!this.sets.isNewest(this.changesAsOf, this.serial)) return false;
    for (const key of d.poolKeys) if (this.overlay.pools.has(key)) return false;
    this.sets.watch(d);
    return true;
  }

  dependentHolds(d: PoolDependent): boolean {
    if (d.stale) return false;
    // Stale flags tell changes up to now: only a view that saw them all may trust them. A node
    // without pools depends on no allocation: its answer holds whatever changed.
    if (!this.sets.unchangedSince(this.changesAsOf)) return d.poolKeys.length === 0;
    const inFlight = this.overlay.pools;
    if (inFlight.size === 0) return true;
    if (d.inFlightView === this.serial) return false;
    // The marks of an older view may have been overwritten by a newer one: looked up instead.
    if (this.sets.isNewest(this.changesAsOf, this.serial)) return true;
    for (const key of d.poolKeys) if (inFlight.has(key)) return false;
    return true;
  }

  marksSerial(): number {
    return this.sets.isNewest(this.changesAsOf, this.serial) ? this.serial : 0;
  }

  private base(): Sets {
    if (this.own !== null) return this.own;
    const live = this.sets.liveAsOf(this.asOf);
    if (live !== null) return live;
    this.own = this.sets.rebuild(this.asOf);
    return this.own;
  }

  allocatedDeviceSets(): readonly [ReadonlySet<DeviceID>, ReadonlySet<DeviceID>] {
    return [this.base().devices, this.overlay.devices];
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
