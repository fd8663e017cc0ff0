// The writes of DynamicResources: PreBind's allocation and reservation (bindClaim, retried on
// conflict), waiting for binding conditions, PostFilter's deallocation and Unreserve's release
// (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go).
import type { Pod } from '../../api/types.js';
import type { AllocationResult, ResourceClaim, ResourceClaimConsumerReference } from '../../api/dra_types.js';
import type { Handle } from '../../framework/interfaces.js';
import { Status } from '../../framework/status.js';
import { cloneJSON } from '../../util/json_clone.js';
import { rfc3339 } from '../../util/clock.js';
import { bindingReadiness, ErrDeviceBindingTimeout, hasBindingConditions } from './binding_conditions.js';
import type { ResourceClaimTracker } from '../../framework/shared_dra_manager.js';
import { bindingConditionsEnabled, type DraFeatures } from './features.js';
import { ClaimFinalizer, isReservedForPod, podConsumerReference } from './pod_claims.js';
import type { DynamicResourcesState } from './state.js';
import { isSpecialClaimName } from './extended_resources.js';
import { shallowCopy } from '../../util/shallow_copy.js';

/** How long PreBind waits for a claim it created to reach the informer (AssumeExtendedResourceTimeoutDefaultSeconds). */
const assumeExtendedResourceTimeoutMs = 120_000;

/** retry.DefaultRetry: five attempts in all. */
const conflictAttempts = 5;

const isConflict = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === 409;

const ref = (c: ResourceClaim): string => `${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));


class BindError extends Error {
  constructor(
    message: string,
    readonly conflict: boolean,
  ) {
    super(message);
  }
}

export class ClaimBinder {
  constructor(
    private readonly handle: Handle,
    private readonly claims: ResourceClaimTracker,
    private readonly features: DraFeatures,
    private readonly bindingTimeoutMs: number,
  ) {}


  /**
   * `signal`: aborted when the binding is cancelled (upstream's PreBind context); the waits for a
   * created claim to reach the informer and for binding conditions stop then.
   */
  async preBind(state: DynamicResourcesState, pod: Pod, nodeName: string, signal?: AbortSignal): Promise<Status | null> {
    const onSuccess: (() => void)[] = [];
    for (let i = 0; i < state.claims.length; i++) {
      const claim = state.claims[i]!;
      if (isReservedForPod(pod, claim, this.features.enableDRAWorkloadResourceClaims)) continue;
      // Devices serve none of the pod's extended resources on this node: no claim to make.
      if (i === state.extendedIndex && state.infos[i]!.allocation === null && (claim.spec.devices?.requests?.length ?? 0) === 0) continue;
      // The UID the allocation went in flight under (the stand-in one for a claim made here).
      const uid = claim.metadata.uid ?? '';
      try {
        state.claims[i] = await this.bindClaim(state, i, pod, nodeName, signal);
      } catch (err) {
        return Status.error(messageOf(err));
      }
      // Binding done: the allocation is no longer in flight, it is in the claim.
      if (state.infos[i]!.allocation !== null) onSuccess.push(() => this.claims.maybeRemoveClaimPendingAllocation(uid, true));
    }
    if (bindingConditionsEnabled(this.features) && hasBindingConditions(state.claims)) {
      const failed = await this.waitForBindingConditions(state, pod, nodeName, signal);
      if (failed !== null) return failed;
    }
    for (const f of onSuccess) f();
    return null;
  }

  /**
   * Records the allocation from Reserve (with the finalizer first) and the pod in reservedFor;
   * a conflict re-reads the claim and tries again, as retry.RetryOnConflict. The
   * extended-resources claim is created first and named in the pod's status last.
   */
  private async bindClaim(state: DynamicResourcesState, index: number, pod: Pod, nodeName: string, signal: AbortSignal | undefined): Promise<ResourceClaim> {
    const allocation = state.infos[index]!.allocation;
    const isExtended = index === state.extendedIndex;
    let original = state.claims[index]!;
    if (isExtended && isSpecialClaimName(original.metadata.name)) {
      original = await this.createExtendedResourceClaim(state, nodeName);
      // Unreserve deletes it from now on.
      state.claims[index] = original;
    }
    let claim = original;
    let written: ResourceClaim | null = null;
    try {
      for (let attempt = 1; ; attempt++) {
        if (attempt > 1) {
          const latest = this.handle.objects().get<ResourceClaim>('ResourceClaim', original.metadata.namespace ?? '', original.metadata.name ?? '');
          if (latest === undefined) throw new BindError(`get updated claim ${ref(original)} after conflict: resourceclaims.resource.k8s.io "${original.metadata.name ?? ''}" not found`, false);
          claim = latest;
        }
        try {
          written = await this.writeClaim(claim, allocation, state.bindings?.[index] ?? podConsumerReference(pod));
          break;
        } catch (err) {
          if (!(err instanceof BindError) || !err.conflict || attempt >= conflictAttempts) throw err;
        }
      }
    } finally {
      if (written !== null) await this.assume(written, isExtended, signal);
    }
    if (isExtended) await this.recordExtendedResourceClaim(state, pod, written, nodeName);
    return written;
  }

  /**
   * Puts the claim a write returned into the assume cache. A claim the scheduler created may not
   * have reached the informer yet: that one is waited for (waitForExtendedClaimInAssumeCache),
   * until it arrives, two minutes pass or the binding is cancelled; none of these fails PreBind.
   */
  private async assume(claim: ResourceClaim, created: boolean, signal: AbortSignal | undefined): Promise<void> {
    const ns = claim.metadata.namespace ?? '';
    const name = claim.metadata.name ?? '';
    const client = this.handle.client();
    if (created && client.waitUntil && this.claims.get(ns, name) === undefined) {
      await client.waitUntil(() => this.claims.get(ns, name) !== undefined, assumeExtendedResourceTimeoutMs, signal).catch(() => false);
    }
    try {
      this.claims.assumeClaimAfterAPICall(claim);
    } catch {
      // A concurrent update or deletion: the informer's version wins, as upstream's assume cache.
    }
  }

  /** createExtendedResourceClaimInAPI: the node's variant of the claim, named by the API server. */
  private async createExtendedResourceClaim(state: DynamicResourcesState, nodeName: string): Promise<ResourceClaim> {
    const nodeClaim = state.nodeAllocations.get(nodeName)?.extendedResourceClaim;
    if (nodeClaim === undefined || nodeClaim === null) throw new Error(`extended resource claim not found for node ${nodeName}`);
    const client = this.handle.client();
    if (!client.createResourceClaim) throw new Error('the cluster client cannot create ResourceClaims');
    const { name: _name, uid: _uid, ...metadata } = nodeClaim.metadata;
    // Not copied deeper: a client stores a copy of what it is given (the API server a decoded one).
    const { status: _status, ...rest } = nodeClaim;
    const claim: ResourceClaim = { ...rest, metadata };
    // Counted as upstream labels it: no admin access, owned by a Pod (core group).
    const metrics = this.handle.metricsRecorder?.() ?? null;
    try {
      const created = await client.createResourceClaim(claim);
      metrics?.observeResourceClaimCreate('success', false, '', 'Pod');
      return created;
    } catch (err) {
      metrics?.observeResourceClaimCreate('failure', false, '', 'Pod');
      throw new Error(`create claim for extended resources ${ref(nodeClaim)}: ${messageOf(err)}`);
    }
  }

  /** patchPodExtendedResourceClaimStatus: the claim's name and which request serves which container. */
  private async recordExtendedResourceClaim(state: DynamicResourcesState, pod: Pod, claim: ResourceClaim, nodeName: string): Promise<void> {
    const requestMappings = state.nodeAllocations.get(nodeName)?.requestMappings ?? [];
    const podRef = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    if (requestMappings.length === 0) throw new Error(`nil or empty request mappings, no update of pod ${podRef} ExtendedResourceClaimStatus`);
    const client = this.handle.client();
    if (!client.setExtendedResourceClaimStatus) throw new Error(`update pod ${podRef} ExtendedResourceClaimStatus: the cluster client cannot update pod status`);
    try {
      await client.setExtendedResourceClaimStatus(pod, { requestMappings, resourceClaimName: claim.metadata.name ?? '' });
    } catch (err) {
      throw new Error(`update pod ${podRef} ExtendedResourceClaimStatus: ${messageOf(err)}`);
    }
  }

  /** `binding`: the pod, or its PodGroup for a claim the group shares (claimStore.getBinding). */
  private async writeClaim(current: ResourceClaim, allocation: AllocationResult | null, binding: ResourceClaimConsumerReference): Promise<ResourceClaim> {
    const client = this.handle.client();
    if (!client.updateResourceClaimStatus) throw new BindError('the cluster client cannot update ResourceClaim status', false);
    if (current.metadata.deletionTimestamp !== undefined && current.metadata.deletionTimestamp !== null) {
      throw new BindError(`claim ${ref(current)} got deleted in the meantime`, false);
    }
    // Copied where changed only: the informer's and the client's objects are shared, never
    // changed, and every client copies (or encodes) what it is given.
    let claim = current;
    if (allocation !== null) {
      if (claim.status?.allocation !== undefined) throw new BindError(`claim ${ref(claim)} got allocated elsewhere in the meantime`, false);
      // The finalizer goes in with a normal update, before the allocation is written.
      if (!(claim.metadata.finalizers ?? []).includes(ClaimFinalizer)) {
        if (!client.updateResourceClaim) throw new BindError('the cluster client cannot update ResourceClaims', false);
        // Copies that take keys they may lack without a hidden class per claim (util/shallow_copy.ts).
        const metadata = shallowCopy(claim.metadata);
        metadata.finalizers = [...(claim.metadata.finalizers ?? []), ClaimFinalizer];
        claim = { ...claim, metadata };
        try {
          claim = await client.updateResourceClaim(claim);
        } catch (err) {
          throw new BindError(`add finalizer to claim ${ref(claim)}: ${messageOf(err)}`, isConflict(err));
        }
      }
      const allocated: NonNullable<ResourceClaim['status']> = claim.status === undefined ? {} : shallowCopy(claim.status);
      allocated.allocation = allocation;
      claim = shallowCopy(claim);
      claim.status = allocated;
    }
    const status: NonNullable<ResourceClaim['status']> = claim.status === undefined ? {} : shallowCopy(claim.status);
    status.reservedFor = [...(status.reservedFor ?? []), binding];
    if (bindingConditionsEnabled(this.features)) {
      if (status.allocation === undefined) throw new BindError(`claim ${ref(claim)} got deallocated elsewhere in the meantime`, false);
      if (status.allocation.allocationTimestamp === undefined) status.allocation = { ...status.allocation, allocationTimestamp: rfc3339(this.handle.now()) };
    }
    claim = { ...claim, status };
    try {
      return await client.updateResourceClaimStatus(claim);
    } catch (err) {
      const what = allocation !== null ? 'add allocation and reservation to claim' : 'add reservation to claim';
      throw new BindError(`${what} ${ref(claim)}: ${messageOf(err)}`, isConflict(err));
    }
  }

  /** Waits until every device's binding conditions hold (or one fails, or the binding timeout passes). */
  private async waitForBindingConditions(state: DynamicResourcesState, pod: Pod, nodeName: string, signal: AbortSignal | undefined): Promise<Status | null> {
    this.handle.eventRecorder().event(pod, 'Normal', 'BindingConditionsPending', 'Scheduling', `waiting for binding conditions for device on node ${nodeName}`);
    const ready = (): boolean => {
      for (let i = 0; i < state.claims.length; i++) {
        const c = state.claims[i]!;
        const latest = this.claims.mustGet(c.metadata.namespace ?? '', c.metadata.name ?? '');
        state.claims[i] = latest;
        const r = bindingReadiness(latest, this.handle.now(), this.bindingTimeoutMs);
        if (r.failed !== null) throw new Error(r.failed);
        if (!r.ready) {
          if (r.timedOut) throw new Error(`${ErrDeviceBindingTimeout}: claim=${latest.metadata.name ?? ''}`);
          return false;
        }
      }
      return true;
    };
    const client = this.handle.client();
    try {
      const ok = client.waitUntil ? await client.waitUntil(ready, this.bindingTimeoutMs, signal) : ready();
      return ok ? null : Status.error(`${ErrDeviceBindingTimeout}: context deadline exceeded`);
    } catch (err) {
      return Status.error(messageOf(err));
    }
  }

  /** Removes allocation, reservations and device status (PostFilter's deallocation). */
  async deallocate(claim: ResourceClaim): Promise<void> {
    const client = this.handle.client();
    if (!client.updateResourceClaimStatus) throw new Error('the cluster client cannot update ResourceClaim status');
    const next = cloneJSON(claim);
    next.status = {};
    await client.updateResourceClaimStatus(next);
  }

  /** deleteClaim: drops the scheduler's finalizer (retried on conflict), then deletes the claim. */
  async deleteClaim(claim: ResourceClaim): Promise<void> {
    const client = this.handle.client();
    if (!client.updateResourceClaim || !client.deleteResourceClaim) throw new Error('the cluster client cannot delete ResourceClaims');
    const ns = claim.metadata.namespace ?? '';
    const name = claim.metadata.name ?? '';
    let current = claim;
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) {
        const latest = this.handle.objects().get<ResourceClaim>('ResourceClaim', ns, name);
        if (latest === undefined) throw new Error(`get resourceclaim ${ns}/${name}: resourceclaims.resource.k8s.io "${name}" not found`);
        current = latest;
      }
      const next = cloneJSON(current);
      next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== ClaimFinalizer);
      try {
        await client.updateResourceClaim(next);
        break;
      } catch (err) {
        if (!isConflict(err) || attempt >= conflictAttempts) throw new Error(`update resourceclaim ${ns}/${name}: ${messageOf(err)}`);
      }
    }
    try {
      await client.deleteResourceClaim(ns, name);
    } catch (err) {
      if ((err as { code?: unknown } | null)?.code !== 404) throw err;
    }
  }

  /**
   * Drops the consumer with this UID from the latest claim's reservedFor (the strategic-merge
   * patch deleting one entry); the write's promise.
   */
  dropConsumer(claim: ResourceClaim, uid: string): Promise<ResourceClaim> {
    const client = this.handle.client();
    if (!client.updateResourceClaimStatus) return Promise.reject(new Error('the cluster client cannot update ResourceClaim status'));
    const latest = this.claims.get(claim.metadata.namespace ?? '', claim.metadata.name ?? '') ?? claim;
    const next = cloneJSON(latest);
    next.status = { ...next.status, reservedFor: (next.status?.reservedFor ?? []).filter((r) => r.uid !== uid) };
    return client.updateResourceClaimStatus(next);
  }

  /** Drops the pod from the claim's reservedFor; a failure is left to the next attempt (Unreserve). */
  removeReservation(claim: ResourceClaim, pod: Pod): void {
    const client = this.handle.client();
    if (!client.updateResourceClaimStatus) return;
    const key = `${claim.metadata.namespace ?? ''}/${claim.metadata.name ?? ''}`;
    const work = this.dropConsumer(claim, pod.metadata.uid ?? '').then(
      () => undefined,
      (err: unknown) => {
        throw new Error(`unreserve: resourceclaim ${key}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      },
    );
    // The runtime logs what fails in the background; upstream logs this failure in Unreserve too.
    if (this.handle.runInBackground) this.handle.runInBackground(work);
    else work.catch(() => undefined);
  }
}
