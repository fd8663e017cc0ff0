// The allocator's shared types: features, device IDs, the allocated state and its errors
// (k8s.io/dynamic-resource-allocation/structured/internal/types.go and schedulerapi/types.go).
import type { DeviceClass } from '../../api/dra_types.js';

/** The DRA features the allocator honours (internal.Features upstream). */
export interface Features {
  readonly adminAccess: boolean;
  readonly compatibilityGroups: boolean;
  readonly consumableCapacity: boolean;
  readonly derivedAttributes: boolean;
  readonly deviceBindingAndStatus: boolean;
  readonly deviceTaints: boolean;
  readonly fractionalCapacityRange: boolean;
  readonly listTypeAttributes: boolean;
  readonly optionalNodeOperations: boolean;
  readonly partitionableDevices: boolean;
  readonly prioritizedList: boolean;
}

/**
 * The pin's defaults (pkg/features/kube_features.go at v1.37.2): DRAAdminAccess (GA),
 * DRAPrioritizedList (GA), DRAPartitionableDevices, DRADeviceTaints (GA),
 * DRADeviceBindingConditions with DRAResourceClaimDeviceStatus, DRAConsumableCapacity are on;
 * DRAFractionalCapacityRange is on only from compatibility version 1.37 while a 1.37 binary
 * defaults to 1.36, so off; the alpha gates (DerivedAttributes, DeviceCompatibilityGroups,
 * ListTypeAttributes, OptionalNodeOperations) are off. Until framework/features.ts lands, this
 * is the one place these defaults live.
 */
export const DefaultFeatures: Features = Object.freeze({
  adminAccess: true,
  compatibilityGroups: false,
  consumableCapacity: true,
  derivedAttributes: false,
  deviceBindingAndStatus: true,
  deviceTaints: true,
  fractionalCapacityRange: false,
  listTypeAttributes: false,
  optionalNodeOperations: false,
  partitionableDevices: true,
  prioritizedList: true,
});

/** `driver/pool/device`: pools may hold slashes, drivers and devices do not. */
export type DeviceID = string;
/** A device ID with the share of a multi-allocation device: `driver/pool/device#shareID`. */
export type SharedDeviceID = string;

export function makeDeviceID(driver: string, pool: string, device: string): DeviceID {
  return `${driver}/${pool}/${device}`;
}

export function makeSharedDeviceID(deviceID: DeviceID, shareID: string | undefined): SharedDeviceID {
  return shareID ? `${deviceID}#${shareID}` : deviceID;
}

/** The device a shared device ID belongs to. */
export function sharedDeviceIDDevice(id: SharedDeviceID): DeviceID {
  const hash = id.indexOf('#');
  return hash < 0 ? id : id.slice(0, hash);
}

/** Consumed capacity per capacity name, in nano-units (exact for every parsed quantity). */
export type ConsumedCapacity = Map<string, bigint>;

/**
 * What is already allocated in the cluster (AllocatedState upstream): exclusive devices,
 * shares of multi-allocation devices, and the capacity those shares consume per device.
 */
export interface AllocatedState {
  readonly allocatedDevices: ReadonlySet<DeviceID>;
  readonly allocatedSharedDeviceIDs: ReadonlySet<SharedDeviceID>;
  readonly aggregatedCapacity: ReadonlyMap<DeviceID, ConsumedCapacity>;
  /**
   * Registers an answer that depends on what is allocated in its pools, to be marked stale when
   * that changes. False (not registered: the answer is not to be kept) while one of its pools has
   * an allocation in flight, or when the state is not the newest view of the live allocations.
   * Absent, nothing is kept.
   */
  watchPools?(dependent: PoolDependent): boolean;
  /**
   * Whether a registered answer still holds in this state: none of its pools changed since, none
   * is in flight here. Asked for every node of every pod whose answer was kept, so it reads flags
   * the changes set instead of looking pools up.
   */
  dependentHolds?(dependent: PoolDependent): boolean;
  /**
   * This state's serial when the marks alone tell whether an answer holds (the newest view, and
   * nothing changed since it was taken): then it holds iff it is not stale and its inFlightView is
   * not this serial. 0 otherwise (ask dependentHolds).
   */
  marksSerial?(): number;
  /** Whether some share of the device is allocated (an index over allocatedSharedDeviceIDs); absent, the set is scanned. */
  deviceHasShare?(id: DeviceID): boolean;
  /** isDeviceAllocated in one call, for states that answer it faster than the three collections; absent, they are asked. */
  isAllocated?(id: DeviceID): boolean;
  /**
   * allocatedDevices as two plain sets (a device is allocated when either has it) that hold
   * until the state next changes: a search, which changes nothing, asks once instead of going
   * through the union per device. Absent, allocatedDevices is asked.
   */
  allocatedDeviceSets?(): readonly [ReadonlySet<DeviceID>, ReadonlySet<DeviceID>];
}

/** An answer kept while what is allocated in its pools stays the same (see AllocatedState.watchPools). */
export interface PoolDependent {
  /** The pools (`driver/pool`) the answer depends on; none: it holds whatever is allocated. */
  readonly poolKeys: readonly string[];
  /** Set when one of the pools changed after registration, or when the answer was dropped; never cleared. */
  stale: boolean;
  /** The serial of the newest view that found one of its pools in flight. */
  inFlightView: number;
}

/** Whether some share of the device is allocated. */
export function deviceHasShare(state: AllocatedState, id: DeviceID): boolean {
  if (state.deviceHasShare !== undefined) return state.deviceHasShare(id);
  for (const shared of state.allocatedSharedDeviceIDs) if (sharedDeviceIDDevice(shared) === id) return true;
  return false;
}

/** IsDeviceAllocated: allocated exclusively, as a share, or with consumed capacity. */
export function isDeviceAllocated(deviceID: DeviceID, state: AllocatedState): boolean {
  if (state.isAllocated !== undefined) return state.isAllocated(deviceID);
  if (state.allocatedDevices.has(deviceID)) return true;
  if (deviceHasShare(state, deviceID)) return true;
  return state.aggregatedCapacity.has(deviceID);
}

/** Looks up a DeviceClass by name; undefined when there is none. */
export type DeviceClassLister = (name: string) => DeviceClass | undefined;

/**
 * A fatal allocation problem (invalid input: a CEL error, an unknown class, ...): the
 * scheduler reports it instead of trying other nodes. The message is upstream's.
 */
export class AllocationError extends Error {
  override readonly name: string = 'AllocationError';
}

/**
 * An error that only concerns the node at hand (ErrFailedAllocationOnNode upstream): the
 * scheduler uses its message as the node's unschedulable reason.
 */
export class FailedAllocationOnNodeError extends AllocationError {
  override readonly name = 'FailedAllocationOnNodeError';
}
