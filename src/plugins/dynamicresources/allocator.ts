// What DynamicResources needs from the structured allocator (k8s.io/dynamic-resource-allocation/
// structured: NewAllocator, Allocator.Allocate), in one place, so the plugin and its tests use one
// shape and the allocator of ./structured is plugged in by the plugin definition.
import type { Node } from '../../api/types.js';
import type { AllocationResult, DeviceClass, ResourceClaim, ResourceSlice } from '../../api/resource.js';
import type { AllocatedState } from './allocated_devices.js';
import type { AllocatorFeatures } from './features.js';

export interface AllocatorInputs {
  readonly features: AllocatorFeatures;
  readonly allocatedState: AllocatedState;
  readonly classLister: { get(name: string): DeviceClass | undefined };
  readonly slices: readonly ResourceSlice[];
}

/** When Filter must give up on a node (filterTimeout), on the scheduler clock. */
export interface AllocationDeadline {
  readonly deadlineMs: number;
  now(): number;
}

export interface Allocator {
  /**
   * One allocation per claim, in order, or null when the node cannot satisfy them all; throws
   * for broken claims or classes (CEL runtime errors, ...), FailedOnNodeError for node-local
   * trouble, AllocationTimeoutError once the deadline passed.
   */
  allocate(node: Node, claims: readonly ResourceClaim[], deadline?: AllocationDeadline): AllocationResult[] | null;
}

export type NewAllocator = (inputs: AllocatorInputs) => Allocator;

/** A problem limited to one node (structured.ErrFailedAllocationOnNode): other nodes may work. */
export function isFailedOnNode(err: unknown): boolean {
  return err instanceof Error && (err as { failedOnNode?: unknown }).failedOnNode === true;
}

/** The allocator ran past its deadline (context.DeadlineExceeded). */
export function isAllocationTimeout(err: unknown): boolean {
  return err instanceof Error && (err as { timedOut?: unknown }).timedOut === true;
}
