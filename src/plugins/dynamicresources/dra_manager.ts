// The scheduler's view of DRA objects (pkg/scheduler/framework/plugins/dynamicresources/dra_manager.go):
// claims through an assume cache with in-flight allocations and the allocated-devices tracker,
// slices with DeviceTaintRules applied (resourceslice/tracker), and device classes.
import type { AllocationResult, DeviceClass, DeviceTaintRule, ResourceClaim, ResourceSlice } from '../../api/resource.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import { AllocatedDevices } from './allocated_devices.js';
import { isSpecialClaimName } from './extended_resources.js';
import type { AllocatedState } from './structured/index.js';

/** The assume cache's error for a claim it does not hold (assumecache.NotFoundError). */
class ClaimNotFoundError extends Error {
  constructor(key: string) {
    super(`could not find ResourceClaim "${key}"`);
  }
}

function objectVersion(o: ResourceClaim): number {
  const rv = o.metadata.resourceVersion;
  if (rv === undefined || rv === '') return 0;
  const n = Number(rv);
  return Number.isFinite(n) ? n : 0;
}

const claimKey = (namespace: string, name: string): string => `${namespace}/${name}`;

interface InFlightAllocation {
  readonly claim: ResourceClaim;
  sharers: number;
}

interface SeenClaim {
  claim: ResourceClaim;
  stamp: number;
}

/**
 * ResourceClaims as the scheduler sees them (claimTracker): the informer's objects, replaced by
 * the scheduler's own writes until the informer catches up (assume), plus allocations made in
 * Reserve and not yet written by PreBind (in flight), so no device goes to two pods.
 */
export class ClaimTracker {
  private readonly assumed = new Map<string, ResourceClaim>();
  private readonly inFlight = new Map<string, InFlightAllocation>();
  private readonly devices: AllocatedDevices;
  /** The claim each key had when the device tracker last looked, to apply only what changed. */
  private readonly seen = new Map<string, SeenClaim>();
  private stamp = 0;
  private dirty = true;
  private readonly watched: boolean;

  constructor(
    private readonly lister: ObjectLister,
    consumableCapacity: boolean,
  ) {
    this.devices = new AllocatedDevices(consumableCapacity);
    this.watched = lister.onChange !== undefined;
    lister.onChange?.((kind) => {
      if (kind === 'ResourceClaim') this.dirty = true;
    });
  }

  /** The latest claim: the assumed one unless the informer has a newer version or lost it. */
  get(namespace: string, name: string): ResourceClaim | undefined {
    const key = claimKey(namespace, name);
    const api = this.lister.get<ResourceClaim>('ResourceClaim', namespace, name);
    const a = this.assumed.get(key);
    if (api === undefined) {
      if (a !== undefined) this.assumed.delete(key);
      return undefined;
    }
    if (a === undefined) return api;
    if (objectVersion(api) > objectVersion(a)) {
      this.assumed.delete(key);
      return api;
    }
    return a;
  }

  /** Like get, but a missing claim is the assume cache's error. */
  mustGet(namespace: string, name: string): ResourceClaim {
    const c = this.get(namespace, name);
    if (c === undefined) throw new ClaimNotFoundError(claimKey(namespace, name));
    return c;
  }

  /** Records the claim a write returned until the informer delivers it (AssumeClaimAfterAPICall). */
  assumeClaimAfterAPICall(claim: ResourceClaim): void {
    const ns = claim.metadata.namespace ?? '';
    const name = claim.metadata.name ?? '';
    const latest = this.get(ns, name);
    if (latest === undefined) throw new ClaimNotFoundError(claimKey(ns, name));
    if (objectVersion(claim) < objectVersion(latest)) {
      throw new Error(`ResourceClaim "${claimKey(ns, name)}" is out of sync (stored: ${objectVersion(latest)}, assume: ${objectVersion(claim)})`);
    }
    this.assumed.set(claimKey(ns, name), claim);
    this.dirty = true;
  }

  /** Drops an assumption, back to the informer's object (AssumedClaimRestore). */
  assumedClaimRestore(namespace: string, name: string): void {
    if (this.assumed.delete(claimKey(namespace, name))) this.dirty = true;
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
      throw new Error(`look up assumed claim ${ns}/${name}, UID=${uid}: ${new ClaimNotFoundError(claimKey(ns, name)).message}`);
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
    this.syncDevices();
    const inFlight: ResourceClaim[] = [];
    for (const f of this.inFlight.values()) inFlight.push(f.claim);
    return this.devices.gather(inFlight);
  }

  /**
   * Applies the claims that changed since the last look to the device tracker: the informer's
   * objects are replaced on change, so an identity check finds them; nothing runs when no claim
   * changed (the tracker is not rebuilt per cycle).
   */
  private syncDevices(): void {
    if (!this.dirty) return;
    const stamp = ++this.stamp;
    for (const c of this.lister.list<ResourceClaim>('ResourceClaim')) {
      const ns = c.metadata.namespace ?? '';
      const name = c.metadata.name ?? '';
      const latest = this.get(ns, name) ?? c;
      const key = claimKey(ns, name);
      const s = this.seen.get(key);
      if (s === undefined) {
        this.devices.update(undefined, latest);
        this.seen.set(key, { claim: latest, stamp });
        continue;
      }
      if (s.claim !== latest) this.devices.update(s.claim, latest);
      s.claim = latest;
      s.stamp = stamp;
    }
    for (const [key, s] of this.seen) {
      if (s.stamp === stamp) continue;
      this.devices.update(s.claim, undefined);
      this.seen.delete(key);
    }
    // Without change notifications every look has to walk the claims.
    this.dirty = !this.watched;
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
