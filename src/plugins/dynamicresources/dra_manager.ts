// The scheduler's view of DRA objects (pkg/scheduler/framework/plugins/dynamicresources/dra_manager.go):
// claims through an assume cache with in-flight allocations and the allocated-devices tracker,
// slices with DeviceTaintRules applied (resourceslice/tracker), and device classes.
import type { AllocationResult, DeviceClass, DeviceTaintRule, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import { AssumeCache, AssumeCacheNotFoundError } from '../../framework/assume_cache.js';
import { AllocatedDevices } from './allocated_devices.js';
import { isSpecialClaimName } from './extended_resources.js';
import type { AllocatedState } from '../../dra/structured/index.js';

interface InFlightAllocation {
  readonly claim: ResourceClaim;
  sharers: number;
}

const claimKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/**
 * ResourceClaims as the scheduler sees them (claimTracker): the informer's objects, replaced by
 * the scheduler's own writes until the informer catches up (assume), plus allocations made in
 * Reserve and not yet written by PreBind (in flight), so no device goes to two pods. The
 * allocated-devices tracker hears of every change of a claim from the assume cache, so it is
 * never rebuilt.
 */
export class ClaimTracker {
  private readonly cache: AssumeCache<ResourceClaim>;
  private readonly inFlight = new Map<string, InFlightAllocation>();
  private readonly devices: AllocatedDevices;

  constructor(lister: ObjectLister, consumableCapacity: boolean) {
    this.cache = new AssumeCache<ResourceClaim>(lister, 'ResourceClaim');
    this.devices = new AllocatedDevices(consumableCapacity);
    this.cache.addEventHandler((oldClaim, newClaim) => this.devices.update(oldClaim, newClaim));
  }

  /** The latest claim: the assumed one unless the informer has a newer version or lost it. */
  get(namespace: string, name: string): ResourceClaim | undefined {
    return this.cache.get(claimKey(namespace, name));
  }

  /** Like get, but a missing claim is the assume cache's error. */
  mustGet(namespace: string, name: string): ResourceClaim {
    return this.cache.mustGet(claimKey(namespace, name));
  }

  /** Records the claim a write returned until the informer delivers it (AssumeClaimAfterAPICall). */
  assumeClaimAfterAPICall(claim: ResourceClaim): void {
    this.cache.assume(claim);
  }

  /** Drops an assumption, back to the informer's object (AssumedClaimRestore). */
  assumedClaimRestore(namespace: string, name: string): void {
    this.cache.restore(claimKey(namespace, name));
  }

  getPendingAllocation(uid: string): AllocationResult | undefined {
    return this.inFlight.get(uid)?.claim.status?.allocation;
  }

  /**
   * Marks an allocation as in flight (SignalClaimPendingAllocation): a second pod sharing the
   * claim only counts as one more sharer; a claim the cache already shows allocated is left alone.
   */
  signalClaimPendingAllocation(uid: string, allocatedClaim: ResourceClaim): void {
    const existing = this.inFlight.get(uid);
    if (existing) {
      existing.sharers++;
      return;
    }
    const ns = allocatedClaim.metadata.namespace ?? '';
    const name = allocatedClaim.metadata.name ?? '';
    // The in-memory extended-resources claim is the pod's alone and not allocated: nothing to look up.
    if (isSpecialClaimName(name)) {
      this.inFlight.set(uid, { claim: allocatedClaim, sharers: 1 });
      return;
    }
    const current = this.get(ns, name);
    if (current === undefined) {
      throw new Error(`look up assumed claim ${ns}/${name}, UID=${uid}: ${new AssumeCacheNotFoundError('ResourceClaim', claimKey(ns, name)).message}`);
    }
    if (current.metadata.uid === uid && current.status?.allocation !== undefined) return;
    this.inFlight.set(uid, { claim: allocatedClaim, sharers: 1 });
  }

  /** Drops one sharer of an in-flight allocation (all with `force`); true when it is gone. */
  maybeRemoveClaimPendingAllocation(uid: string, force: boolean): boolean {
    const f = this.inFlight.get(uid);
    if (!f) return false;
    if (force || f.sharers === 1) {
      this.inFlight.delete(uid);
      return true;
    }
    f.sharers--;
    return false;
  }

  /** Devices taken by allocated claims and in-flight allocations (GatherAllocatedState). */
  gatherAllocatedState(): AllocatedState {
    const inFlight: ResourceClaim[] = [];
    for (const f of this.inFlight.values()) inFlight.push(f.claim);
    return this.devices.gather(inFlight);
  }
}

/** ResourceSlices with the taints of matching DeviceTaintRules added (ListPatchedResourceSlices). */
export class SliceLister {
  private patched: ResourceSlice[] | null = null;
  private readonly watched: boolean;

  constructor(
    private readonly lister: ObjectLister,
    private readonly applyTaintRules: boolean,
  ) {
    this.watched = lister.onChange !== undefined;
    lister.onChange?.((kind) => {
      if (kind === 'ResourceSlice' || kind === 'DeviceTaintRule') this.patched = null;
    });
  }

  list(): readonly ResourceSlice[] {
    if (this.patched !== null && this.watched) return this.patched;
    const slices = this.lister.list<ResourceSlice>('ResourceSlice');
    const rules = this.applyTaintRules ? [...this.lister.list<DeviceTaintRule>('DeviceTaintRule')] : [];
    rules.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    this.patched = rules.length === 0 ? [...slices] : slices.map((s) => patchSlice(s, rules));
    return this.patched;
  }
}

function patchSlice(slice: ResourceSlice, rules: readonly DeviceTaintRule[]): ResourceSlice {
  let patched = slice;
  for (const rule of rules) {
    const sel = rule.spec.deviceSelector;
    if (!sel) continue;
    if (sel.driver !== undefined && sel.driver !== slice.spec.driver) continue;
    if (sel.pool !== undefined && sel.pool !== slice.spec.pool.name) continue;
    const devices = slice.spec.devices ?? [];
    for (let i = 0; i < devices.length; i++) {
      if (sel.device !== undefined && sel.device !== devices[i]!.name) continue;
      if (patched === slice) patched = { ...slice, spec: { ...slice.spec, devices: devices.map((d) => ({ ...d })) } };
      const d = patched.spec.devices![i]!;
      d.taints = [...(d.taints ?? []), rule.spec.taint];
    }
  }
  return patched;
}

/** Device classes by name (the classLister the allocator gets). */
export class DeviceClassLister {
  constructor(private readonly lister: ObjectLister) {}

  get(name: string): DeviceClass | undefined {
    return this.lister.get<DeviceClass>('DeviceClass', '', name);
  }
}
