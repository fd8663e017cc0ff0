// The per-pod state of DynamicResources from PreFilter to PreBind (dynamicresources.go stateData,
// claims.go claimStore).
import type { ContainerExtendedResourceRequest, Node } from '../../api/types.js';
import type { AllocationResult, ResourceClaim, ResourceClaimConsumerReference } from '../../api/dra_types.js';
import type { LaterResults } from '../../dra/structured/index.js';
import type { NodeSelectorMatcher } from '../../api/nodeselector.js';
import type { StateData } from '../../framework/cycle_state.js';
import type { Allocator } from './allocator_interface.js';

/** What PreFilter learned about one claim. */
export interface ClaimInfo {
  /** The allocation's node selector, for claims already allocated (null: any node). */
  availableOnNodes: NodeSelectorMatcher | null;
  /**
   * Set by Reserve, written by PreBind; set by PreFilter already when an earlier member of the
   * pod's group reserved it in this group cycle (a pending allocation the pod shares).
   */
  allocation: AllocationResult | null;
}

/**
 * What DynamicResources keeps for one pod-group scheduling cycle (podGroupStateData), in the
 * group's cycle state: the UIDs of the claims members reserved in this cycle, so the next member
 * reuses the allocation instead of waiting for it.
 */
export class PodGroupClaimsState implements StateData {
  readonly pendingAllocations = new Set<string>();
  /** Each member's state, by "namespace/name", for PodGroupPostFilter. */
  readonly podStates = new Map<string, DynamicResourcesState>();

  clone(): PodGroupClaimsState {
    return this;
  }
}

/** What Filter found for one node (nodeAllocation). */
export interface NodeAllocation {
  /** The allocations of the unallocated claims, in the claims' order. */
  readonly results: AllocationResult[];
  /** The node's variant of the extended-resources claim: its requests for what devices serve here. */
  readonly extendedResourceClaim: ResourceClaim | null;
  /** Which request serves each container's extended resource, for the pod's status. */
  readonly requestMappings: ContainerExtendedResourceRequest[];
}

/** The node's variant of the extended-resources claim and the container mappings. */
export interface NodeExtendedResourceClaim {
  readonly claim: ResourceClaim;
  readonly mappings: ContainerExtendedResourceRequest[];
}

/** NodeAllocations' storage: three columns, entry i of each for the i-th node recorded. */
interface Columns {
  readonly nodes: Node[];
  /** Each node's results, or (a kept answer with new share IDs) the function that writes them. */
  readonly results: (AllocationResult[] | LaterResults)[];
  readonly extended: (NodeExtendedResourceClaim | null)[];
}

/**
 * Columns of pods whose PreBind is over, for the next pods' Filter: at thousands of nodes a pod
 * records hundreds, and columns grown anew for each pod were a GPU cluster's largest allocation.
 * Entries past a user's count are stale and overwritten as it records.
 */
const spareColumns: Columns[] = [];
const maxSpareColumns = 8;

/**
 * What Filter found per node, by node name. Filter records it for hundreds of nodes per pod and
 * Reserve reads one: the node objects and results are appended to columns (no record object and
 * no read of the node's name per node), and the map by name is made on the third read.
 */
export class NodeAllocations {
  private columns: Columns | null = null;
  private count = 0;
  private byName: Map<string, NodeAllocation> | null = null;
  /** Lookups answered by scanning; past two (Score asks per node), the map is made. */
  private scans = 0;
  /**
   * The last lookup's name and answer: Reserve and PreBind ask for the chosen node three times,
   * which counted as three scans made the map of every node (one record per node) for nothing.
   */
  private lastName: string | null = null;
  private last: NodeAllocation | undefined = undefined;

  add(node: Node, results: AllocationResult[] | LaterResults, extended: NodeExtendedResourceClaim | null): void {
    this.lastName = null;
    if (this.byName !== null) {
      this.byName.set(node.metadata.name ?? '', record(results, extended));
      return;
    }
    const c = (this.columns ??= spareColumns.pop() ?? { nodes: [], results: [], extended: [] });
    const i = this.count++;
    c.nodes[i] = node;
    c.results[i] = results;
    c.extended[i] = extended;
  }

  get(nodeName: string): NodeAllocation | undefined {
    if (nodeName === this.lastName) return this.last;
    const found = this.find(nodeName);
    this.lastName = nodeName;
    this.last = found;
    return found;
  }

  /**
   * PreBind is over: nothing reads the records any more but the chosen node's, kept as the last
   * answer; the columns go to the next pod.
   */
  release(): void {
    const c = this.columns;
    if (c === null) return;
    this.columns = null;
    this.count = 0;
    if (spareColumns.length < maxSpareColumns) spareColumns.push(c);
  }

  private find(nodeName: string): NodeAllocation | undefined {
    if (this.byName === null) {
      const c = this.columns;
      if (c === null) return undefined;
      // Reserve asks once: a scan is cheaper than a map. A node filtered twice (preemption's
      // trial runs) keeps its last record, as a map would.
      if (this.scans++ < 2) {
        for (let i = this.count - 1; i >= 0; i--) {
          if ((c.nodes[i]!.metadata.name ?? '') === nodeName) return record(c.results[i]!, c.extended[i]!);
        }
        return undefined;
      }
      this.byName = new Map();
      for (let i = 0; i < this.count; i++) this.byName.set(c.nodes[i]!.metadata.name ?? '', record(c.results[i]!, c.extended[i]!));
      this.release();
    }
    return this.byName.get(nodeName);
  }
}

function record(results: AllocationResult[] | LaterResults, extended: NodeExtendedResourceClaim | null): NodeAllocation {
  // A LaterResults function returns the same array on every call.
  return { results: typeof results === 'function' ? results() : results, extendedResourceClaim: extended?.claim ?? null, requestMappings: extended?.mappings ?? [] };
}

/** The pod's extended resources that a DeviceClass may back (draExtendedResource). */
export interface ExtendedResourceRequests {
  /** The pod's scalar requests, by resource name. */
  readonly podScalarResources: ReadonlyMap<string, number>;
  /** The UID the extended-resources claim had in PreFilter (a made-up one before PreBind creates it). */
  readonly initialClaimUID: string;
}

/**
 * The pod's extended resources that are DRA-extended resource names, with a quantity, in the
 * order of podScalarResources: a node's needs are the bit mask of those it must get from devices
 * (a class backs it and the node advertises none). `fits` is false past 30 of them (no mask).
 */
export interface ExtendedNeeds {
  readonly names: readonly string[];
  /** Whether a DeviceClass backs the name. */
  readonly backed: readonly boolean[];
  readonly fits: boolean;
}

/**
 * Per-pod state from PreFilter on (stateData). Shared, not copied, by clone: Filter records what
 * it found per node and Reserve/PreBind update the claims, as upstream keeps a pointer.
 */
export class DynamicResourcesState implements StateData {
  /** Unavailable claims' indexes, found by Filter; PostFilter may free one of them. */
  readonly unavailableClaims = new Set<number>();
  /** What Filter found per node. */
  readonly nodeAllocations = new NodeAllocations();
  /** The user's claims come first; the extended-resources claim, if any, follows them. */
  readonly numUserClaims: number;
  /** claimsToAllocate(null), made on first use (Filter runs before Reserve changes a claim). */
  private toAllocate: readonly ResourceClaim[] | null = null;
  /** The extended-resources claim's node variants by what the node needs, for `variantsOf`. */
  private variants = new Map<string, NodeExtendedResourceClaim>();
  private variantsOf: ResourceClaim | null = null;
  /** The same variants by the bit mask of the pod's resources the node needs (see ExtendedNeeds), when one fits. */
  private variantsByMask: Map<number, NodeExtendedResourceClaim> | null = null;
  /**
   * What the pod asks of DRA-backed extended resources, for a node's mask: made by the attempt's
   * first Filter call that needs it (filterExtendedResources), then read per node.
   */
  extendedNeeds: ExtendedNeeds | null = null;
  /** claimsToAllocate per node variant: one array per variant, so the allocator sees the same question. */
  private readonly toAllocateWith = new Map<ResourceClaim, readonly ResourceClaim[]>();
  private firstAvailable: boolean | null = null;

  constructor(
    /** The pod's claims in spec order, then the extended-resources claim; replaced one by one when PreBind writes them. */
    readonly claims: ResourceClaim[],
    readonly infos: ClaimInfo[],
    readonly allocator: Allocator | null,
    readonly extended: ExtendedResourceRequests | null = null,
    /**
     * Whom each claim is reserved for in PreBind (claimStore.bindTo), by the index of the pod's
     * entry as upstream; null with DRAWorkloadResourceClaims off (the pod itself).
     */
    readonly bindings: readonly ResourceClaimConsumerReference[] | null = null,
    /** Claims whose allocation another member reserved in this group cycle (found by PreFilter); null: none. */
    readonly pendingShared: ReadonlySet<number> | null = null,
  ) {
    this.numUserClaims = extended === null ? claims.length : claims.length - 1;
  }

  /**
   * The unallocated claims, the node's variant of the extended-resources claim in its place; one
   * array for every node without such a variant, so the allocator sees the same question.
   */
  claimsToAllocate(nodeExtendedClaim: ResourceClaim | null): readonly ResourceClaim[] {
    if (nodeExtendedClaim === null && this.toAllocate !== null) return this.toAllocate;
    if (nodeExtendedClaim !== null) {
      const made = this.toAllocateWith.get(nodeExtendedClaim);
      if (made !== undefined) return made;
    }
    const out: ResourceClaim[] = [];
    for (let i = 0; i < this.claims.length; i++) {
      const claim = this.claims[i]!;
      if (claim.status?.allocation !== undefined || this.pendingShared?.has(i) === true) continue;
      out.push(i === this.extendedIndex && nodeExtendedClaim !== null ? nodeExtendedClaim : claim);
    }
    if (nodeExtendedClaim === null) this.toAllocate = out;
    // Kept only for variants `nodeVariant` hands out (others are made per node: no growth).
    else if (this.variantsOf !== null) this.toAllocateWith.set(nodeExtendedClaim, out);
    return out;
  }

  /** The node variant of `claim` kept for what a node needs (`key`), if any. */
  nodeVariant(claim: ResourceClaim, key: string): NodeExtendedResourceClaim | undefined {
    return this.variantsOf === claim ? this.variants.get(key) : undefined;
  }

  /** Keeps `variant` of `claim` for nodes that need `key` (and, when given, `mask`); returns it. */
  keepNodeVariant(claim: ResourceClaim, key: string, variant: NodeExtendedResourceClaim, mask = -1): NodeExtendedResourceClaim {
    if (this.variantsOf !== claim) {
      this.variantsOf = claim;
      this.variants = new Map();
      this.variantsByMask = null;
      this.toAllocateWith.clear();
    }
    this.variants.set(key, variant);
    if (mask >= 0) (this.variantsByMask ??= new Map()).set(mask, variant);
    return variant;
  }

  /** The node variant of `claim` kept for nodes whose needs have this mask, if any. */
  maskVariant(claim: ResourceClaim, mask: number): NodeExtendedResourceClaim | undefined {
    return this.variantsOf === claim ? this.variantsByMask?.get(mask) : undefined;
  }

  /** Whether a claim has a firstAvailable request (only those are scored). */
  get hasFirstAvailable(): boolean {
    this.firstAvailable ??= this.claims.some((c) => c.spec.devices?.requests?.some((r) => (r.firstAvailable?.length ?? 0) > 0) ?? false);
    return this.firstAvailable;
  }

  clone(): DynamicResourcesState {
    return this;
  }

  /** The same claims with findings of its own: Filter only adds to them, so they start empty. */
  diagnosticClone(): DynamicResourcesState {
    return new DynamicResourcesState(this.claims, this.infos, this.allocator, this.extended, this.bindings, this.pendingShared);
  }

  get empty(): boolean {
    return this.claims.length === 0;
  }

  get noUserClaim(): boolean {
    return this.numUserClaims === 0;
  }

  /** The index of the extended-resources claim, or -1. */
  get extendedIndex(): number {
    return this.extended === null ? -1 : this.numUserClaims;
  }

  /** The extended-resources claim as it is now (in memory until PreBind creates it), or null. */
  extendedResourceClaim(): ResourceClaim | null {
    return this.extended === null ? null : this.claims[this.numUserClaims]!;
  }
}
