// What DynamicResources needs from the structured allocator (k8s.io/dynamic-resource-allocation/
// structured: NewAllocator, Allocator.Allocate), in one place, so the plugin and its tests use one
// shape and the allocator of src/dra/structured is plugged in by the plugin definition.
import type { Node } from '../../api/types.js';
import type { AllocationResult, DeviceClass, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import { FailedAllocationOnNodeError, type AllocatedState, type LaterResults } from '../../dra/structured/index.js';
import type { AllocatorFeatures } from './features.js';

export interface AllocatorInputs {
  readonly features: AllocatorFeatures;
  readonly allocatedState: AllocatedState;
  readonly classLister: { get(name: string): DeviceClass | undefined };
  readonly slices: readonly ResourceSlice[];
}

export interface Allocator {
  /**
   * One allocation per claim, in order, or null when the node cannot satisfy them all; throws
   * for broken claims or classes (CEL runtime errors, ...), a FailedAllocationOnNodeError for
   * trouble limited to this node. `slot` is the node's place in the node list (NodeInfo.position),
   * a hint for finding what the allocator kept for it. `keptMissed`: the caller has just asked
   * `kept` with the same node, claims and slot and got undefined, so the search starts at once.
   */
  allocate(node: Node, claims: readonly ResourceClaim[], slot?: number, keptMissed?: boolean): AllocationResult[] | null;
  /**
   * The answer allocate would give from what it kept, without searching, or undefined when it
   * would search (optional: allocators that keep nothing leave it out).
   */
  kept?(node: Node, claims: readonly ResourceClaim[], slot?: number): AllocationResult[] | null | undefined;
  /**
   * `kept`, but results with new share IDs may come as a function writing them when first called
   * (optional): Filter keeps every node's answer, Reserve reads one.
   */
  keptLater?(node: Node, claims: readonly ResourceClaim[], slot?: number): AllocationResult[] | null | LaterResults | undefined;
}

export type NewAllocator = (inputs: AllocatorInputs) => Allocator;

/** A problem limited to one node (structured.ErrFailedAllocationOnNode): other nodes may work. */
export function isFailedOnNode(err: unknown): boolean {
  return err instanceof FailedAllocationOnNodeError;
}
