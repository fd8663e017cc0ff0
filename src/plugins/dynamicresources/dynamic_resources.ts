// DynamicResources: pods get the devices their ResourceClaims ask for
// (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go).
import type { Node, Pod } from '../../api/types.js';
import type { AllocationResult, ResourceClaim } from '../../api/dra_types.js';
import type { LaterResults } from '../../dra/structured/index.js';
import { NodeSelectorMatcher } from '../../api/nodeselector.js';
import type { CycleState } from '../../framework/cycle_state.js';
import { ActionType, ActionTypeUpdate, type ClusterEventWithHint } from '../../framework/events.js';
import type {
  EnqueueExtensions,
  FilterPlugin,
  Handle,
  NodeScore,
  NodeToStatusReader,
  PostFilterOutcome,
  PostFilterPlugin,
  PreBindPlugin,
  PreBindPreFlightOutcome,
  PreBindPreFlightResult,
  PreEnqueuePlugin,
  PreFilterOutcome,
  PreFilterPlugin,
  ReservePlugin,
  ScoreExtensions,
  ScorePlugin,
} from '../../framework/interfaces.js';
import { MaxNodeScore } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { defaultNormalizeScore } from '../../framework/helpers/normalize.js';
import { DynamicResources as Name } from '../../framework/names.js';
import { isFailedOnNode, type Allocator, type NewAllocator } from './allocator_interface.js';
import { timeoutMs, type DynamicResourcesArgs } from './args.js';
import { ClaimBinder } from './bind_claim.js';
import { allocatorFeatures, bindingConditionsEnabled, pinnedDraFeatures, type AllocatorFeatures, type DraFeatures } from './features.js';
import { claimEventPodIndex, isSchedulableAfterClaimChange, isSchedulableAfterTargetPodUpdate } from './hints.js';
import { bindTo, ClaimFinalizer, ClaimUnavailable, isReservedForPod, podResourceClaims, type ClaimGetter } from './pod_claims.js';
import { claimIsNotForPodGroup, podGroupClaimName } from '../../api/resourceclaim.js';
import type { MaybePromise } from '../../util/maybe_promise.js';
import { isCompositePodGroup, type PodGroup } from '../../api/scheduling.js';
import type { ResourceClaimConsumerReference } from '../../api/dra_types.js';
import { bindingReadiness } from './binding_conditions.js';
import { DynamicResourcesState, PodGroupClaimsState, type ClaimInfo, type ExtendedResourceRequests, type NodeExtendedResourceClaim } from './state.js';
import type { DeviceClassLister, DeviceClassResolver, ResourceClaimTracker, ResourceSliceLister } from '../../framework/shared_dra_manager.js';
import {
  ExtendedResourceClaimIndex,
  filterExtendedResources,
  hasDeviceClassMappedExtendedResource,
  isSpecialClaimName,
  newExtendedResourceClaim,
  SpecialClaimInMemName,
} from './extended_resources.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import type { PodGroupPostFilterContext, PodGroupPostFilterOutcome, PodGroupPostFilterPlugin } from '../../framework/pod_group_post_filter.js';
import { shallowCopy } from '../../util/shallow_copy.js';

export { Name };

const stateKey = Name;

/** Upstream's Filter reasons. */
export const ErrReasonNotAvailable = 'resourceclaim not available on the node';
export const ErrReasonCannotAllocate = 'cannot allocate all claims';
export const ErrReasonDeallocated = 'deallocation of ResourceClaim completed';
export const ErrReasonDeleted = 'deletion of ResourceClaim completed';

/**
 * Filter's two per-node rejections, shared by every node that gets one (upstream builds one per
 * node; the runner keeps a frozen status naming this plugin as it is). A claim allocated on one
 * node rejects every other node of the walk, so these were an allocation per node.
 */
const notAvailable = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonNotAvailable);
const cannotAllocate = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonCannotAllocate);

/** The most alternatives a firstAvailable request may list (FirstAvailableDeviceRequestMaxSize). */
const FirstAvailableDeviceRequestMaxSize = 8;

/** The state of every pod without claims: nothing to record, shared to cost nothing. */
const noClaims = new DynamicResourcesState([], [], null);

/**
 * The plugin's state in the pod-group cycle's state, made on first use (getOrCreatePodGroupStateData);
 * null outside a group cycle.
 */
function groupClaimsState(cs: CycleState, create: boolean): PodGroupClaimsState | null {
  const group = cs.podGroupCycle;
  if (group === null) return null;
  let s = group.read<PodGroupClaimsState>(stateKey);
  if (s === undefined && create) group.write(stateKey, (s = new PodGroupClaimsState()));
  return s ?? null;
}

/** Reads the plugin's state; a missing one is upstream's CycleState "not found" error. */
function readState(cs: CycleState): DynamicResourcesState | Status {
  return cs.read<DynamicResourcesState>(stateKey) ?? Status.error('not found');
}

/** PreBind work that may run beside other plugins' (PreBindPreFlightResult{AllowParallel: true}). */
const parallelPreBind: PreBindPreFlightResult = { allowParallel: true };

export interface DynamicResourcesOptions {
  readonly args?: DynamicResourcesArgs;
  readonly features?: DraFeatures;
  readonly newAllocator: NewAllocator;
}

export class DynamicResources
  implements PreEnqueuePlugin, PreFilterPlugin, FilterPlugin, PostFilterPlugin, ScorePlugin, ReservePlugin, PreBindPlugin, EnqueueExtensions, ScoreExtensions, SignPlugin, PodGroupPostFilterPlugin
{
  readonly name = Name;

  /** Whether a claim's devices are local to one node is not known up front: a pod with claims is not signed. */
  signPod(pod: PodInfo): readonly SignFragment[] | Status {
    if ((pod.pod.spec.resourceClaims?.length ?? 0) > 0) return new Status(Code.Unschedulable, ['pods with dra resource claims are not signable']);
    return [];
  }
  private readonly features: DraFeatures;
  /** One object for every allocator: the allocator caches pools per slice and feature set. */
  private readonly allocatorFeatures: AllocatorFeatures;
  private readonly filterTimeoutMs: number;
  readonly bindingTimeoutMs: number;
  readonly claims: ResourceClaimTracker;
  private readonly slices: ResourceSliceLister;
  private readonly classes: DeviceClassLister;
  private readonly newAllocator: NewAllocator;
  private readonly binder: ClaimBinder;
  private readonly getClaim: ClaimGetter;
  /** Which DeviceClass backs an extended resource; null with DRAExtendedResource off. */
  private readonly classResolver: DeviceClassResolver | null;
  /** Numbers the in-memory extended-resources claims' stand-in UIDs (deterministic, unlike upstream's random ones). */
  private extendedClaimSeq = 0;
  /** The extended-resources claims by owner, for PreFilter's look for one an earlier attempt created. */
  private readonly extendedClaims: ExtendedResourceClaimIndex;
  /** Filter's list of the node's unavailable claims (indexes), refilled per node. */
  private readonly unavailableScratch: number[] = [];

  constructor(
    private readonly handle: Handle,
    opts: DynamicResourcesOptions,
  ) {
    this.features = opts.features ?? pinnedDraFeatures;
    this.allocatorFeatures = allocatorFeatures(this.features);
    this.filterTimeoutMs = this.features.enableDRASchedulerFilterTimeout ? timeoutMs(opts.args?.filterTimeout) : 0;
    this.bindingTimeoutMs = timeoutMs(opts.args?.bindingTimeout);
    this.newAllocator = opts.newAllocator;
    const manager = handle.sharedDRAManager?.() ?? null;
    // The scheduler builds it once for all plugins (a plugin's own would miss the others' allocations).
    if (manager === null) throw new Error('needs the shared DRA manager of the framework handle (Handle.sharedDRAManager)');
    this.claims = manager.claims;
    this.slices = manager.slices;
    this.classes = manager.classes;
    this.classResolver = manager.classResolver;
    this.getClaim = (ns, name) => this.claims.get(ns, name);
    this.extendedClaims = new ExtendedResourceClaimIndex(handle.objects());
    this.binder = new ClaimBinder(handle, this.claims, this.features, this.bindingTimeoutMs);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      // Claims may depend on node labels (slices' node selectors, allocations' node selectors).
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeAllocatable } },
      // Allocations live in claims: any change may help.
      {
        event: { resource: 'ResourceClaim', actionType: ActionType.Add | ActionTypeUpdate | ActionType.Delete },
        queueingHintFn: (pod, o, n) => isSchedulableAfterClaimChange(this.getClaim, pod, o, n, this.features.enableDRAWorkloadResourceClaims),
        podIndex: claimEventPodIndex,
      },
      // The resourceclaim controller recording a generated claim in the pod's status.
      {
        event: { resource: 'UnscheduledPod', actionType: ActionType.UpdatePodGeneratedResourceClaim },
        queueingHintFn: (pod, o, n) => isSchedulableAfterTargetPodUpdate(this.getClaim, pod, o, n, this.features.enableDRAWorkloadResourceClaims),
      },
      { event: { resource: 'DeviceClass', actionType: ActionType.Add | ActionTypeUpdate } },
      { event: { resource: 'ResourceSlice', actionType: ActionType.Add | ActionTypeUpdate } },
    ];
  }

  /** Every claim the pod names must exist (and be usable) before it is worth an attempt. */
  preEnqueue(pod: Pod): Status | null {
    if ((pod.spec.resourceClaims?.length ?? 0) === 0) return null;
    const claims = podResourceClaims(pod, this.getClaim, this.features.enableDRAWorkloadResourceClaims);
    return claims instanceof ClaimUnavailable ? Status.unresolvable(claims.message) : null;
  }

  preFilter(state: CycleState, podInfo: PodInfo): PreFilterOutcome | null {
    const pod = podInfo.pod;
    state.write(stateKey, noClaims);
    const group = groupClaimsState(state, true);
    const podKey = group === null ? '' : podInfo.key;
    if (group !== null) group.podStates.set(podKey, noClaims);
    const withClaims = (pod.spec.resourceClaims?.length ?? 0) > 0;
    const scalars = podInfo.requests.resource.scalarResources;
    const mayUseExtended = this.classResolver !== null && scalars !== null && scalars.size > 0;
    if (!withClaims && !mayUseExtended) return { status: Status.skip() };
    let claims: ResourceClaim[] = [];
    if (withClaims) {
      const named = podResourceClaims(pod, this.getClaim, this.features.enableDRAWorkloadResourceClaims);
      if (named instanceof ClaimUnavailable) return { status: Status.unresolvable(named.message) };
      claims = named;
    }
    let extended: ExtendedResourceRequests | null = null;
    if (mayUseExtended && hasDeviceClassMappedExtendedResource(scalars, this.classResolver!)) {
      // A claim an earlier attempt created is used as it is (Filter rejects it, PostFilter deletes it).
      const found = this.extendedClaims.find(pod);
      const claim =
        found !== undefined
          ? (this.claims.get(found.metadata.namespace ?? '', found.metadata.name ?? '') ?? found)
          : newExtendedResourceClaim(pod, `${pod.metadata.uid ?? ''}/${SpecialClaimInMemName}/${++this.extendedClaimSeq}`);
      extended = { podScalarResources: scalars, initialClaimUID: claim.metadata.uid ?? '' };
      claims = [...claims, claim];
    }
    let bindings: ResourceClaimConsumerReference[] | null = null;
    if (this.features.enableDRAWorkloadResourceClaims) {
      const found = this.podResourceClaimBindings(pod);
      if (found instanceof ClaimUnavailable) return { status: Status.unschedulable(found.message) };
      bindings = found;
    }
    if (claims.length === 0) return { status: Status.skip() };

    const extendedIndex = extended === null ? -1 : claims.length - 1;
    const infos: ClaimInfo[] = [];
    let pendingShared: Set<number> | null = null;
    let toAllocate = 0;
    for (let index = 0; index < claims.length; index++) {
      const claim = claims[index]!;
      const info: ClaimInfo = { availableOnNodes: null, allocation: null };
      infos.push(info);
      const allocation = claim.status?.allocation;
      if (allocation !== undefined) {
        const selector = allocationNodeSelector(allocation);
        if (selector instanceof Status) return { status: selector };
        info.availableOnNodes = selector;
        continue;
      }
      toAllocate++;
      const uid = claim.metadata.uid ?? '';
      // A member of this group cycle reserved it already: the pod shares that allocation.
      if (group !== null && group.pendingAllocations.has(uid)) {
        const pending = this.claims.getPendingAllocation(uid);
        if (pending !== undefined) {
          const selector = allocationNodeSelector(pending);
          if (selector instanceof Status) return { status: selector };
          info.allocation = pending;
          info.availableOnNodes = selector;
          (pendingShared ??= new Set()).add(index);
          continue;
        }
      }
      // An allocation in flight for another pod: wait until PreBind wrote it.
      if (this.claims.getPendingAllocation(uid) !== undefined) {
        return { status: Status.unresolvable(`resource claim ${objectRef(claim)} is in the process of being allocated`) };
      }
      // The extended-resources claim gets its requests in Filter, per node.
      if (index === extendedIndex) continue;
      const bad = this.checkRequests(claim);
      if (bad !== null) return { status: bad };
    }

    let allocator: Allocator | null = null;
    if (toAllocate > 0) {
      try {
        allocator = this.newAllocator({
          features: this.allocatorFeatures,
          allocatedState: this.claims.gatherAllocatedState(),
          classLister: this.classes,
          slices: this.slices.list(),
        });
      } catch (err) {
        return { status: Status.fromThrown(err) };
      }
    }
    const s = new DynamicResourcesState(claims, infos, allocator, extended, bindings, pendingShared);
    state.write(stateKey, s);
    if (group !== null) group.podStates.set(podKey, s);
    return null;
  }

  /**
   * Whom each of the pod's entries reserves its claim for (podResourceClaimBindings): the pod,
   * or its PodGroup for an entry the group lists too.
   */
  private podResourceClaimBindings(pod: Pod): ResourceClaimConsumerReference[] | ClaimUnavailable {
    const pg = this.podGroupOf(pod);
    if (pg instanceof ClaimUnavailable) return pg;
    const out: ResourceClaimConsumerReference[] = [];
    for (const entry of pod.spec.resourceClaims ?? []) {
      const ref = bindTo(pod, pg, entry);
      if (ref instanceof ClaimUnavailable) return ref;
      out.push(ref);
    }
    return out;
  }

  /** The pod's PodGroup from the scheduler's view (getPodGroupSnapshot); null outside a group. */
  private podGroupOf(pod: Pod): PodGroup | null | ClaimUnavailable {
    const name = pod.spec.schedulingGroup?.podGroupName;
    if (!this.features.enableDRAWorkloadResourceClaims || name === undefined) return null;
    const groups = this.handle.podGroups?.();
    if (groups === undefined) return new ClaimUnavailable('generic workload feature gate is disabled');
    const ns = pod.metadata.namespace ?? '';
    const pg = groups.podGroup(ns, name);
    if (pg !== undefined) return pg;
    // The snapshot lister names the group by its entity key (fwk.EntityKey's String: type/namespace/name).
    const key = `podgroup/${ns}/${name}`;
    return new ClaimUnavailable(groups.allPodsCount(ns, name) > 0 ? `pod group object not found for pod group ${key}` : `pod group state not found for pod group ${key}`);
  }

  preFilterExtensions(): null {
    return null;
  }

  /** Every request's class must exist; a missing one waits for a DeviceClass event. */
  private checkRequests(claim: ResourceClaim): Status | null {
    for (const request of claim.spec.devices?.requests ?? []) {
      if (request.exactly !== undefined) {
        const s = this.checkClass(request.exactly.deviceClassName, request.name);
        if (s !== null) return s;
      } else if ((request.firstAvailable?.length ?? 0) > 0) {
        if (!this.features.enableDRAPrioritizedList) {
          return Status.unresolvable(`resource claim ${objectRef(claim)}, request ${request.name}: has subrequests, but the DRAPrioritizedList feature is disabled`);
        }
        for (const sub of request.firstAvailable!) {
          const s = this.checkClass(sub.deviceClassName, `${request.name}/${sub.name}`);
          if (s !== null) return s;
        }
      } else {
        return Status.unresolvable(`resource claim ${objectRef(claim)}, request ${request.name}: unknown request type`);
      }
    }
    return null;
  }

  private checkClass(className: string, requestName: string): Status | null {
    if (className === '') return Status.error(`request ${requestName}: unsupported request type`);
    if (this.classes.get(className) === undefined) return Status.unresolvable(`request ${requestName}: device class ${className} does not exist`);
    return null;
  }

  filter(cs: CycleState, podInfo: PodInfo, nodeInfo: NodeInfo): Status | null {
    const state = readState(cs);
    if (state instanceof Status) return state;
    if (state.empty) return null;
    const node = nodeInfo.node!;

    let nodeExtended: NodeExtendedResourceClaim | null = null;
    if (this.classResolver !== null) {
      const out = filterExtendedResources(state, podInfo.pod, nodeInfo, this.classResolver);
      if (out instanceof Status) return out;
      nodeExtended = out;
    }
    // Only extended resources, all of them advertised by the node: NodeResourcesFit checked them.
    if (nodeExtended === null && state.noUserClaim) return null;

    // Recorded for PostFilter only once allocation on this node has not failed, as upstream does.
    // The first `unavailable` entries of the plugin's scratch list (Filter runs one node at a
    // time): no array per rejected node, and no write of the list's length per node either.
    const scratch = this.unavailableScratch;
    let unavailable = 0;
    for (let i = 0; i < state.claims.length; i++) {
      const claim = state.claims[i]!;
      const selector = state.infos[i]!.availableOnNodes;
      if (selector !== null && !selector.matches(node)) {
        scratch[unavailable++] = i;
        continue;
      }
      // An allocated claim whose devices failed or timed out binding may be freed by PostFilter.
      if (claim.status?.allocation !== undefined && bindingConditionsEnabled(this.features)) {
        const r = bindingReadiness(claim, this.handle.now(), this.bindingTimeoutMs);
        if (r.failed !== null || (!r.ready && r.timedOut)) scratch[unavailable++] = i;
      }
    }

    let allocations: AllocationResult[] | LaterResults | null = null;
    if (state.allocator !== null) {
      // A kept answer (most nodes of a burst) is used without reading the results array, not
      // even its class for an instanceof: one cache miss less per node.
      const askKept = nodeExtended === null && state.pendingShared === null;
      const allocator = state.allocator;
      const kept = !askKept ? undefined
        : allocator.keptLater !== undefined ? allocator.keptLater(node, state.claimsToAllocate(null), nodeInfo.position)
        : allocator.kept?.(node, state.claimsToAllocate(null), nodeInfo.position);
      if (kept === null) return cannotAllocate;
      if (kept !== undefined) allocations = kept;
      else {
        // Asked above with the same claims: allocateOnNode goes straight to the search.
        const out = this.allocateOnNode(state, node, nodeInfo.position, nodeExtended?.claim ?? null, askKept);
        if (out instanceof Status) return out;
        allocations = out;
      }
    }
    if (unavailable > 0) {
      for (let k = 0; k < unavailable; k++) state.unavailableClaims.add(scratch[k]!);
      return notAvailable;
    }
    if (allocations !== null) state.nodeAllocations.add(node, allocations, nodeExtended);
    return null;
  }

  /**
   * The allocations of the unallocated claims on this node, or the rejection; the
   * extended-resources claim is asked for in the node's variant.
   */
  private allocateOnNode(state: DynamicResourcesState, node: Node, slot: number, nodeExtendedClaim: ResourceClaim | null, keptAsked: boolean): AllocationResult[] | Status {
    const toAllocate = state.claimsToAllocate(nodeExtendedClaim);
    const allocator = state.allocator!;
    // A kept answer takes no time: no clock reading for it (most nodes of a burst).
    // Only shared pending allocations: nothing to search for.
    let results = toAllocate.length === 0 && state.pendingShared !== null ? [] : keptAsked ? undefined : allocator.kept?.(node, toAllocate, slot);
    // Every path asks for a kept answer once: Filter, the line above, or allocate when kept is absent.
    const keptMissed = keptAsked || allocator.kept !== undefined;
    if (results === undefined) {
      // The allocator runs to the end (the cycle is synchronous); past filterTimeout on the
      // scheduler clock its answer is dropped as upstream's cancelled context would have.
      const start = this.filterTimeoutMs > 0 ? this.handle.now() : 0;
      try {
        results = allocator.allocate(node, toAllocate, slot, keptMissed);
      } catch (err) {
        if (isFailedOnNode(err)) return Status.unresolvable((err as Error).message);
        return Status.fromThrown(err);
      }
      if (this.filterTimeoutMs > 0 && this.handle.now() - start > this.filterTimeoutMs) {
        return Status.error(`node ${node.metadata.name ?? ''}: timed out trying to allocate devices`);
      }
    }
    if (results === null || results.length !== toAllocate.length) return cannotAllocate;
    // Shared pending allocations follow the new ones, as upstream appends them.
    if (state.pendingShared !== null) {
      results = [...results];
      for (let i = 0; i < state.claims.length; i++) if (state.pendingShared.has(i)) results.push(state.infos[i]!.allocation!);
    }
    return results;
  }


  /**
   * PodGroupPostFilter: no placement for the group. What PostFilter would free for each member
   * not scheduled is freed (deallocateOrDeletePodClaims); when one of them had nothing to free,
   * the group's own claims are looked at (deallocatePodGroupClaims, DRAWorkloadResourceClaims).
   * Trees of CompositePodGroups and topology-constrained groups are left alone, as upstream.
   */
  podGroupPostFilter(ctx: PodGroupPostFilterContext): MaybePromise<PodGroupPostFilterOutcome> {
    if (isCompositePodGroup(ctx.podGroup)) return { result: null, status: new Status(Code.Unschedulable, []) };
    if (this.features.enableTopologyAwareWorkloadScheduling && ctx.podGroup.spec.schedulingConstraints != null) {
      return { result: null, status: new Status(Code.Unschedulable, []) };
    }
    const group = ctx.state === undefined ? null : (ctx.state.read<PodGroupClaimsState>(stateKey) ?? null);
    const done: PodGroupPostFilterOutcome = { result: null, status: new Status(Code.Unschedulable, ['deallocation and deletion of ResourceClaims completed']) };
    const writes: Promise<Status | null>[] = [];
    let unreserveGroup = false;
    if (group !== null && group.podStates.size > 0) {
      for (const member of ctx.members) {
        const state = group.podStates.get(member.key);
        if (state === undefined) continue;
        const found = this.deallocateOrDeletePodClaims(member.pod, state);
        if (found === null) unreserveGroup = true;
        else writes.push(found);
      }
    }
    const first = ctx.members[0];
    const groupClaims = () => (unreserveGroup && this.features.enableDRAWorkloadResourceClaims && first !== undefined ? this.deallocatePodGroupClaims(group, first.pod) : null);
    if (writes.length === 0) {
      const g = groupClaims();
      return g === null ? done : g.then((s) => (s === null ? done : { result: null, status: s }));
    }
    // The members' writes run one after another upstream; an error among them is the answer.
    return Promise.all(writes).then(async (statuses) => {
      const err = statuses.find((s) => s !== null && s.code === Code.Error);
      if (err !== undefined) return { result: null, status: err };
      const s = await groupClaims();
      return s === null ? done : { result: null, status: s };
    });
  }

  /**
   * The pod's part of PostFilter (deallocateOrDeletePodClaims): null when there is nothing to
   * free, else the write's answer (Unschedulable with what was done, or the error).
   */
  private deallocateOrDeletePodClaims(pod: Pod, state: DynamicResourcesState): Promise<Status> | null {
    if (state.empty) return null;
    const failed = (err: unknown): Status => Status.fromThrown(err);
    const extended = state.extendedResourceClaim();
    const extendedCreated = extended !== null && !isSpecialClaimName(extended.metadata.name);
    for (const index of [...state.unavailableClaims].sort((a, b) => a - b)) {
      if (index === state.extendedIndex) {
        if (extendedCreated) break;
        continue;
      }
      const claim = state.claims[index]!;
      const reserved = claim.status?.reservedFor ?? [];
      if (reserved.length === 0 || (reserved.length === 1 && reserved[0]!.uid === pod.metadata.uid)) {
        return this.binder.deallocate(claim).then(() => Status.unschedulable(ErrReasonDeallocated), failed);
      }
    }
    // The extended-resources claim of an earlier attempt goes; the next attempt makes a new one.
    if (extendedCreated) return this.binder.deleteClaim(extended).then(() => Status.unschedulable(ErrReasonDeleted), failed);
    return null;
  }

  /**
   * deallocatePodGroupClaims: while no member is scheduled, frees a claim a member found
   * unavailable that nobody or only the group reserved, else removes the group's reservation of
   * one of its claims; null when there is nothing to do.
   */
  private deallocatePodGroupClaims(group: PodGroupClaimsState | null, pod: Pod): Promise<Status | null> | null {
    const name = pod.spec.schedulingGroup?.podGroupName;
    if (name === undefined) return null;
    const ns = pod.metadata.namespace ?? '';
    const lister = this.handle.podGroups?.();
    if (lister === undefined) return Promise.resolve(Status.error('generic workload feature gate is disabled'));
    if (lister.scheduledPodsCount(ns, name) > 0) return null;
    const pg = this.podGroupOf(pod);
    if (pg instanceof ClaimUnavailable) return Promise.resolve(Status.error(pg.message));
    const failed = (err: unknown): Status => Status.fromThrown(err);
    for (const state of group?.podStates.values() ?? []) {
      for (const index of [...state.unavailableClaims].sort((a, b) => a - b)) {
        const claim = state.claims[index]!;
        const reserved = claim.status?.reservedFor ?? [];
        if (reserved.length === 0 || (pg !== null && reserved.length === 1 && reserved[0]!.uid === pg.metadata.uid)) {
          return this.binder.deallocate(claim).then(() => Status.unschedulable('deallocation of PodGroup ResourceClaim completed'), failed);
        }
      }
    }
    if (pg === null) return null;
    return this.unreservePodGroupClaim(pg, pod, 0);
  }

  /** The group's claims from the `from`-th on: the first allocated one the group reserves loses that reservation. */
  private unreservePodGroupClaim(pg: PodGroup, pod: Pod, from: number): Promise<Status | null> | null {
    const entries = pg.spec.resourceClaims ?? [];
    const ns = pg.metadata.namespace ?? '';
    for (let i = from; i < entries.length; i++) {
      const named = podGroupClaimName(pg, entries[i]!);
      if (typeof named === 'string') return Promise.resolve(Status.error(named));
      if (named.name === null) continue;
      const claim = this.claims.get(ns, named.name);
      // The assume cache's own error, as upstream passes it on.
      if (claim === undefined) return Promise.resolve(Status.error(`could not find ResourceClaim "${ns}/${named.name}"`));
      if (named.mustCheckOwner && claimIsNotForPodGroup(pg, claim) !== null) continue;
      if (claim.status?.allocation === undefined || !isReservedForPod(pod, claim, this.features.enableDRAWorkloadResourceClaims)) continue;
      // A failed write is left for the next attempt; the next claim is tried.
      return this.binder.dropConsumer(claim, pg.metadata.uid ?? '').then(
        () => Status.unschedulable('ResourceClaim unreserved for PodGroup'),
        () => this.unreservePodGroupClaim(pg, pod, i + 1),
      );
    }
    return null;
  }

  postFilter(cs: CycleState, podInfo: PodInfo, _statuses: NodeToStatusReader): PostFilterOutcome | Promise<PostFilterOutcome> {
    const state = readState(cs);
    if (state instanceof Status) return { result: null, status: state };
    const found = this.deallocateOrDeletePodClaims(podInfo.pod, state);
    if (found === null) return { result: null, status: Status.unschedulable() };
    return found.then((status): PostFilterOutcome => ({ result: null, status }));
  }

  /** Prefers nodes where firstAvailable requests got an earlier alternative (DRAPrioritizedList). */
  score(cs: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    // As upstream: without prioritized lists nothing is scored, and the state is not even read.
    if (!this.features.enableDRAPrioritizedList) return 0;
    const state = readState(cs);
    if (state instanceof Status) return state;
    if (state.empty) return 0;
    // Only firstAvailable requests score: without any, every node scores 0.
    if (!state.hasFirstAvailable) return 0;
    const allocations = state.nodeAllocations.get(nodeInfo.name);
    if (allocations === undefined) return 0;
    return computeScore(state.claims, allocations.results);
  }

  /** A pod without claims (or without prioritized lists) scores 0 on every node, normalized or not. */
  uniformScore(cs: CycleState): number | null {
    if (!this.features.enableDRAPrioritizedList) return 0;
    const state = readState(cs);
    if (state instanceof Status) return null;
    return state.empty ? 0 : null;
  }

  /** Pods without claims score 0 everywhere: one read of the state for all nodes. */
  scoreNodes(cs: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null {
    if (!this.features.enableDRAPrioritizedList) {
      for (let i = 0; i < nodes.length; i++) out[i]!.score = 0;
      return null;
    }
    const state = readState(cs);
    if (state instanceof Status) return state;
    if (state.empty) {
      for (let i = 0; i < nodes.length; i++) out[i]!.score = 0;
      return null;
    }
    for (let i = 0; i < nodes.length; i++) {
      const s = this.score(cs, pod, nodes[i]!);
      if (s instanceof Status) return s;
      out[i]!.score = s;
    }
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(_cs: CycleState, _pod: PodInfo, scores: NodeScore[]): Status | null {
    defaultNormalizeScore(MaxNodeScore, false, scores);
    return null;
  }

  /** Marks the node's allocations as in flight, so no other pod gets these devices meanwhile. */
  reserve(cs: CycleState, _podInfo: PodInfo, nodeName: string): Status | null {
    const state = readState(cs);
    if (state instanceof Status) return state;
    if (state.empty || state.allocator === null) return null;
    const group = groupClaimsState(cs, false);
    let toAllocate = 0;
    let userClaimsToAllocate = false;
    for (let i = 0; i < state.claims.length; i++) {
      if (state.claims[i]!.status?.allocation !== undefined) continue;
      toAllocate++;
      if (i !== state.extendedIndex) userClaimsToAllocate = true;
    }
    if (toAllocate === 0) return null;
    const nodeAllocation = state.nodeAllocations.get(nodeName);
    if (nodeAllocation === undefined || nodeAllocation.results.length === 0) {
      // Only extended resources, and the node advertises them all: nothing to allocate.
      if (!userClaimsToAllocate) return null;
      return Status.error('claim allocation not found for node');
    }
    const allocations = nodeAllocation.results;
    if (allocations.length !== toAllocate) {
      return Status.error(`internal error, have ${allocations.length} allocations, ${toAllocate} claims to allocate, want ${toAllocate} claims`);
    }
    let k = 0;
    for (let index = 0; index < state.claims.length; index++) {
      let claim = state.claims[index]!;
      if (claim.status?.allocation !== undefined) continue;
      const allocation = allocations[k++]!;
      state.infos[index]!.allocation = allocation;
      if (index === state.extendedIndex && nodeAllocation.extendedResourceClaim !== null) claim = nodeAllocation.extendedResourceClaim;
      const finalizers = claim.metadata.finalizers ?? [];
      // Copies that take the keys they may lack without a hidden class per claim (util/shallow_copy.ts).
      const metadata = shallowCopy(claim.metadata);
      metadata.finalizers = finalizers.includes(ClaimFinalizer) ? finalizers : [...finalizers, ClaimFinalizer];
      const status: NonNullable<ResourceClaim['status']> = claim.status === undefined ? {} : shallowCopy(claim.status);
      status.allocation = allocation;
      const allocated: ResourceClaim = shallowCopy(claim);
      allocated.metadata = metadata;
      allocated.status = status;
      try {
        this.claims.signalClaimPendingAllocation(claim.metadata.uid ?? '', allocated);
      } catch (err) {
        return Status.error(`internal error, couldn't signal allocation for claim ${claim.metadata.name ?? ''}: ${(err as Error).message}`);
      }
      // The group's next members share this allocation while the group's cycle lasts.
      group?.pendingAllocations.add(claim.metadata.uid ?? '');
    }
    return null;
  }

  /** Takes back what Reserve marked and the pod's reservations; idempotent. */
  unreserve(cs: CycleState, podInfo: PodInfo, _nodeName: string): void {
    const state = cs.read<DynamicResourcesState>(stateKey);
    if (state === undefined || state.empty) return;
    const pod = podInfo.pod;
    const group = groupClaimsState(cs, false);
    for (let i = 0; i < state.numUserClaims; i++) {
      const claim = state.claims[i]!;
      const uid = claim.metadata.uid ?? '';
      // The last sharer gone: the allocation is no longer in flight, for the group either.
      if (this.claims.maybeRemoveClaimPendingAllocation(uid, false)) {
        this.claims.assumedClaimRestore(claim.metadata.namespace ?? '', claim.metadata.name ?? '');
        group?.pendingAllocations.delete(uid);
      }
      // A reservation for the group stays: other members may still use the claim.
      if (claim.status?.allocation !== undefined && isReservedForPod(pod, claim, false)) this.binder.removeReservation(claim, pod);
    }
    const extended = state.extendedResourceClaim();
    if (extended === null || state.extended === null) return;
    if (this.claims.maybeRemoveClaimPendingAllocation(state.extended.initialClaimUID, false)) {
      this.claims.assumedClaimRestore(extended.metadata.namespace ?? '', extended.metadata.name ?? '');
    }
    // Created by PreBind: delete it, or it would hold its devices with no pod to use them.
    if (!isSpecialClaimName(extended.metadata.name)) this.binder.deleteClaim(extended).catch(() => {});
  }

  /** Writes the allocations and reservations (and waits for devices' binding conditions). */
  /** Work only for a pod with claims; their binding may run beside other plugins'. */
  preBindPreFlight(cs: CycleState): PreBindPreFlightOutcome {
    const state = readState(cs);
    if (state instanceof Status) return { result: parallelPreBind, status: state };
    return { result: parallelPreBind, status: state.empty ? new Status(Code.Skip) : null };
  }

  preBind(cs: CycleState, podInfo: PodInfo, nodeName: string, signal?: AbortSignal): Promise<Status | null> {
    const state = readState(cs);
    if (state instanceof Status) return Promise.resolve(state);
    if (state.empty) return Promise.resolve(null);
    // The binding's last read of what Filter found per node: its columns go to the next pods.
    return this.binder.preBind(state, podInfo.pod, nodeName, signal).finally(() => state.nodeAllocations.release());
  }
}

/** klog.KObj's "namespace/name". */
function objectRef(o: { metadata: { namespace?: string; name?: string } }): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name ?? ''}` : (o.metadata.name ?? '');
}

/** The node selector of an allocation (null: every node), or the error for a broken one. */
function allocationNodeSelector(allocation: AllocationResult): NodeSelectorMatcher | null | Status {
  const ns = allocation.nodeSelector;
  if (ns === undefined) return null;
  const m = new NodeSelectorMatcher(ns.nodeSelectorTerms ?? []);
  if (m.error !== null) return Status.error(m.error);
  return m;
}

/**
 * Sum over firstAvailable requests of (8 - index of the chosen alternative): earlier
 * alternatives score higher (computeScore).
 */
function computeScore(claims: readonly ResourceClaim[], allocations: readonly AllocationResult[]): number | Status {
  let score = 0;
  let next = 0;
  for (const claim of claims) {
    let allocation = claim.status?.allocation;
    if (allocation === undefined) {
      if (next >= allocations.length) {
        return Status.error(`number of allocations ${allocations.length} is smaller than number of claims needing allocation`);
      }
      allocation = allocations[next++]!;
    }
    const chosen = new Set<string>();
    for (const r of allocation.devices?.results ?? []) if (r.request.split('/').length === 2) chosen.add(r.request);
    for (const req of claim.spec.devices?.requests ?? []) {
      if (req.exactly !== undefined) continue;
      const subs = req.firstAvailable ?? [];
      for (let i = 0; i < subs.length; i++) if (chosen.has(`${req.name}/${subs[i]!.name}`)) score += FirstAvailableDeviceRequestMaxSize - i;
    }
  }
  return score;
}
