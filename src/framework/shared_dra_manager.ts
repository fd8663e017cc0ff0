// The DRA state the plugins of one scheduler share (kube-scheduler/framework's SharedDRAManager,
// ResourceClaimTracker, ResourceSliceLister, DeviceClassLister, DeviceClassResolver), reached
// through Handle.sharedDRAManager(): built once per scheduler, so DynamicResources' allocations in
// flight are what NodeResourcesFit and out-of-tree plugins see.
import type { AllocationResult, DeviceClass, ResourceClaim, ResourceSlice } from '../api/dra_types.js';
import type { AllocatedState } from '../dra/structured/index.js';

/** ResourceClaims as the scheduler sees them: the informer's, its own writes, its allocations in flight. */
export interface ResourceClaimTracker {
  get(namespace: string, name: string): ResourceClaim | undefined;
  /** As get, but throws when the claim does not exist. */
  mustGet(namespace: string, name: string): ResourceClaim;
  /** Records a claim the scheduler just wrote, until the informer catches up. */
  assumeClaimAfterAPICall(claim: ResourceClaim): void;
  /** Forgets the assumed version of a claim (the write failed). */
  assumedClaimRestore(namespace: string, name: string): void;
  /** The allocation made in Reserve and not yet written, for the claim of that UID. */
  getPendingAllocation(uid: string): AllocationResult | undefined;
  signalClaimPendingAllocation(uid: string, allocatedClaim: ResourceClaim): void;
  /** Drops a pending allocation once written (or, with `force`, abandoned); true when one was dropped. */
  maybeRemoveClaimPendingAllocation(uid: string, force: boolean): boolean;
  /** Devices taken by allocated claims and allocations in flight. */
  gatherAllocatedState(): AllocatedState;
}

/** ResourceSlices with the taints of matching DeviceTaintRules applied (when that gate is on). */
export interface ResourceSliceLister {
  list(): readonly ResourceSlice[];
}

/** DeviceClasses by name. */
export interface DeviceClassLister {
  get(name: string): DeviceClass | undefined;
}

/** Which DeviceClass backs an extended resource (DRAExtendedResource). */
export interface DeviceClassResolver {
  getDeviceClass(resourceName: string): DeviceClass | undefined;
  /** True when no class exists at all. */
  readonly empty: boolean;
}

export interface SharedDRAManager {
  readonly claims: ResourceClaimTracker;
  readonly slices: ResourceSliceLister;
  readonly classes: DeviceClassLister;
  /** Null with DRAExtendedResource off. */
  readonly classResolver: DeviceClassResolver | null;
}
