// The per-pod state of DynamicResources from PreFilter to PreBind (dynamicresources.go stateData).
import type { AllocationResult, ResourceClaim } from '../../api/resource.js';
import type { NodeSelectorMatcher } from '../../api/nodeselector.js';
import type { StateData } from '../../framework/cycle_state.js';
import type { Allocator } from './allocator.js';

/** What PreFilter learned about one claim. */
export interface ClaimInfo {
  /** The allocation's node selector, for claims already allocated (null: any node). */
  availableOnNodes: NodeSelectorMatcher | null;
  /** Set by Reserve, written by PreBind. */
  allocation: AllocationResult | null;
}

/**
 * Per-pod state from PreFilter on (stateData). Shared, not copied, by clone: Filter records what
 * it found per node and Reserve/PreBind update the claims, as upstream keeps a pointer.
 */
export class DynamicResourcesState implements StateData {
  /** Unavailable claims' indexes, found by Filter; PostFilter may free one of them. */
  readonly unavailableClaims = new Set<number>();
  /** Allocations Filter found per node, in the order of the unallocated claims. */
  readonly nodeAllocations = new Map<string, AllocationResult[]>();

  constructor(
    /** The pod's claims in spec order; replaced one by one when PreBind writes them. */
    readonly claims: ResourceClaim[],
    readonly infos: ClaimInfo[],
    readonly allocator: Allocator | null,
  ) {}

  clone(): DynamicResourcesState {
    return this;
  }

  get empty(): boolean {
    return this.claims.length === 0;
  }
}

