// The structured allocator for DRA claims (k8s.io/dynamic-resource-allocation/structured at
// v0.37.2, its "incubating" implementation, which the pin's default features select).
//
// API (the contract the DynamicResources plugin codes against):
//   const allocator = new Allocator({ features, allocatedState, classLister, slices, celCache });
//   allocator.allocate(node, claims): AllocationResult[] | null
// - `features`: DefaultFeatures (the pin's DRA gates) or a variant; a feature the incubating
//   implementation does not handle (DerivedAttributes, OptionalNodeOperations) makes the
//   constructor throw, as upstream's NewAllocator finds no allocator for it; ListTypeAttributes
//   and DeviceCompatibilityGroups are taken, with the experimental implementation's behaviour
//   where it differs (set semantics in constraints, compatibility groups per counter set,
//   skipNodeOperations devices refused).
// - `allocatedState`: devices allocated to other claims (IDs from makeDeviceID), shares of
//   multi-allocation devices (makeSharedDeviceID) and their consumed capacity in nano-units.
// - `classLister(name)`: the DeviceClass or undefined.
// - `slices`: every ResourceSlice in the cluster; `celCache`: a CelCache from src/api/cel.
// - `allocate` returns one AllocationResult per claim (same order; devices, config from class
//   then claim, the node selector upstream writes), null when this node cannot satisfy them,
//   throws AllocationError with upstream's message for errors that concern the whole attempt
//   (CEL compile/runtime errors, unknown class, ...) and FailedAllocationOnNodeError (a
//   subclass) when only this node is affected (invalid pools): use its message as the node's
//   reason. The search order is upstream's, so the same devices are chosen.
// - `newShareID` (optional) makes the shareID of a multi-allocation share; inject a
//   deterministic one in simulations (upstream uses a random UUID).
// Helpers the plugin uses: newAllocatedState + addAllocation (the allocated state from claims'
// allocations, as upstream's foreachAllocatedDevice), gatherPools, nodeMatches,
// isDeviceAllocated, the ID helpers.
//
// Not built: the "experimental" implementation's other features (derived attributes and
// optional node operations: alpha, off by default), the
// per-call statistics beyond numAllocateOneInvocations, and context cancellation (the
// scheduling cycle is synchronous; the plugin's filterTimeout bounds it instead).
export { Allocator, activationOf, type AllocatorOptions } from './allocator.js';
export { AllocationResultCache, type LaterResults } from './result_cache.js';
export { addAllocation, newAllocatedState, type MutableAllocatedState } from './allocated_state.js';
export { gatherPools, nodeMatches, type Pool } from './pools.js';
export { LoggedDeviceSets, addOverlayCapacity, type Overlay } from './logged_state.js';
export {
  AllocationError,
  DefaultFeatures,
  FailedAllocationOnNodeError,
  isDeviceAllocated,
  makeDeviceID,
  makeSharedDeviceID,
  type AllocatedState,
  type ConsumedCapacity,
  type DeviceClassLister,
  type DeviceID,
  type Features,
  type PoolDependent,
} from './types.js';
