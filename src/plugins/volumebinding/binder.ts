// The volume binder: sorts a pod's claims, finds volumes or provisioning for a node, assumes the
// choice and writes it through the API (pkg/scheduler/framework/plugins/volumebinding/binder.go).
import type { CSIStorageCapacity, Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/types.js';
import type { Handle } from '../../framework/interfaces.js';
import type { PVAssumeCache, PVCAssumeCache } from './assume_cache.js';
import { CapacityCheck } from './capacity.js';
import {
  AnnBindCompleted,
  AnnSelectedNode,
  NotSupportedProvisioner,
  checkNodeAffinity,
  claimRequestNanos,
  findMatchingVolume,
  getBindVolumeToClaim,
  getPersistentVolumeClaimClass,
  isDelayBindingMode,
  matchTopologySelectorTerms,
} from './pv_helpers.js';

export const ErrReasonBindConflict = "node(s) didn't find available persistent volumes to bind";
export const ErrReasonNodeConflict = "node(s) didn't match PersistentVolume's node affinity";
export const ErrReasonNotEnoughSpace = 'node(s) did not have enough free storage';
export const ErrReasonPVNotExist = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

/** A claim and the static volume chosen for it. */
export interface BindingInfo {
  pvc: PersistentVolumeClaim;
  pv: PersistentVolume;
}

/** What a node needs done for the pod's unbound claims (PodVolumes). */
export interface PodVolumes {
  staticBindings: BindingInfo[];
  dynamicProvisions: PersistentVolumeClaim[];
  /**
   * For each dynamic provision, in the same order, the CSIStorageCapacity that showed the node
   * can hold it (null when its driver's capacity is not tracked): what capacity scoring reads.
   */
  nodeCapacities: (CSIStorageCapacity | null)[];
}

/** A pod's claims by state, and the volumes of the delayed claims' classes (PodVolumeClaims). */
export interface PodVolumeClaims {
  boundClaims: PersistentVolumeClaim[];
  unboundClaimsDelayBinding: PersistentVolumeClaim[];
  unboundClaimsImmediate: PersistentVolumeClaim[];
  unboundVolumesDelayBinding: Map<string, PersistentVolume[]>;
}

/** The claim a volume of the pod uses, and whether it is a generic ephemeral one; null for other volumes. */
export function claimNameOf(pod: Pod, vol: Volume): { name: string; ephemeral: boolean } | null {
  if (vol.persistentVolumeClaim) return { name: vol.persistentVolumeClaim.claimName, ephemeral: false };
  if (vol.ephemeral) return { name: `${pod.metadata.name ?? ''}-${vol.name}`, ephemeral: true };
  return null;
}

/** ephemeral.VolumeIsForPod: the claim of a generic ephemeral volume must be controlled by the pod. */
export function ephemeralClaimOwnerError(pod: Pod, pvc: PersistentVolumeClaim): string | null {
  const ns = pod.metadata.namespace ?? '';
  const controlled = (pvc.metadata?.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid);
  if (pvc.metadata?.namespace === ns && controlled) return null;
  return `PVC ${pvc.metadata?.namespace ?? ''}/${pvc.metadata?.name ?? ''} was not created for pod ${ns}/${pod.metadata.name ?? ''} (pod is not owner)`;
}

type Volume = NonNullable<Pod['spec']['volumes']>[number];

const pvcKey = (pvc: PersistentVolumeClaim) => `${pvc.metadata?.namespace ?? ''}/${pvc.metadata?.name ?? ''}`;
const version = (o: { metadata?: { resourceVersion?: string } }) => Number(o.metadata?.resourceVersion ?? 0) || 0;

function isPVCFullyBound(pvc: PersistentVolumeClaim): boolean {
  return !!pvc.spec?.volumeName && Object.prototype.hasOwnProperty.call(pvc.metadata?.annotations ?? {}, AnnBindCompleted);
}

/** The result of one node check: the pod's volumes there, or the reasons it does not fit. */
export interface FindResult {
  podVolumes: PodVolumes;
  reasons: readonly string[];
}

const noReasons: readonly string[] = Object.freeze([]);
const onlyNodeConflict: readonly string[] = Object.freeze([ErrReasonNodeConflict]);
const onlyPVNotExist: readonly string[] = Object.freeze([ErrReasonPVNotExist]);

/** The reasons for the failed checks, in upstream's order; a node that passed shares one empty list. */
function reasonsFor(boundSatisfied: boolean, unboundSatisfied: boolean, sufficientStorage: boolean, boundPVsFound: boolean): readonly string[] {
  if (unboundSatisfied && sufficientStorage) {
    // The bound claims' checks stop at the first failure: at most one of them fails.
    if (!boundSatisfied) return onlyNodeConflict;
    if (!boundPVsFound) return onlyPVNotExist;
    return noReasons;
  }
  const reasons: string[] = [];
  if (!boundSatisfied) reasons.push(ErrReasonNodeConflict);
  if (!unboundSatisfied) reasons.push(ErrReasonBindConflict);
  if (!sufficientStorage) reasons.push(ErrReasonNotEnoughSpace);
  if (!boundPVsFound) reasons.push(ErrReasonPVNotExist);
  return reasons;
}

/** checkVolumeProvisions' answer: the claims to provision when every check passed. */
interface ProvisionCheck {
  provisionSatisfied: boolean;
  sufficientStorage: boolean;
  dynamicProvisions: PersistentVolumeClaim[];
  nodeCapacities: (CSIStorageCapacity | null)[];
}

export class VolumeBinder {
  private readonly capacityCheck: CapacityCheck;

  constructor(
    private readonly handle: Handle,
    readonly pvCache: PVAssumeCache,
    readonly pvcCache: PVCAssumeCache,
    /** How long PreBind waits for the claims to be bound (bindTimeoutSeconds), in ms. */
    private readonly bindTimeoutMs: number,
  ) {
    this.capacityCheck = new CapacityCheck(handle);
  }

  private storageClass(name: string): StorageClass | undefined {
    return this.handle.objects().get<StorageClass>('StorageClass', '', name);
  }

  /** isVolumeBound: [bound, claim]; the claim is null for volumes that use none. */
  private isVolumeBound(pod: Pod, vol: Volume): [boolean, PersistentVolumeClaim | null] {
    const ref = claimNameOf(pod, vol);
    if (ref === null) return [true, null];
    const key = `${pod.metadata.namespace ?? ''}/${ref.name}`;
    const pvc = this.pvcCache.get(key);
    if (pvc === undefined) throw new Error(`error getting PVC "${key}": could not find v1.${this.pvcCache.kind} "${key}"`);
    if (ref.ephemeral) {
      const err = ephemeralClaimOwnerError(pod, pvc);
      if (err !== null) throw new Error(err);
    }
    return [isPVCFullyBound(pvc), pvc];
  }

  /** True when every claim of the pod is fully bound in the cache. */
  arePodVolumesBound(pod: Pod): boolean {
    for (const vol of pod.spec.volumes ?? []) {
      try {
        if (!this.isVolumeBound(pod, vol)[0]) return false;
      } catch {
        return false;
      }
    }
    return true;
  }

  /** GetPodVolumeClaims; throws on a missing claim or a class without binding mode. */
  getPodVolumeClaims(pod: Pod): PodVolumeClaims {
    const out: PodVolumeClaims = { boundClaims: [], unboundClaimsDelayBinding: [], unboundClaimsImmediate: [], unboundVolumesDelayBinding: new Map() };
    for (const vol of pod.spec.volumes ?? []) {
      const [bound, pvc] = this.isVolumeBound(pod, vol);
      if (pvc === null) continue;
      if (bound) {
        out.boundClaims.push(pvc);
      } else if (isDelayBindingMode(pvc, (n) => this.storageClass(n)) && !pvc.spec?.volumeName) {
        out.unboundClaimsDelayBinding.push(pvc);
      } else {
        // Immediate claims, and claims pre-bound to a volume, are the PV controller's to bind.
        out.unboundClaimsImmediate.push(pvc);
      }
    }
    for (const pvc of out.unboundClaimsDelayBinding) {
      const cls = getPersistentVolumeClaimClass(pvc);
      out.unboundVolumesDelayBinding.set(cls, this.pvCache.listPVs(cls));
    }
    return out;
  }

  /** FindPodVolumes: whether the node can serve the pod's claims, and how. Throws on errors. */
  findPodVolumes(claims: PodVolumeClaims, node: Node): FindResult {
    let boundSatisfied = true;
    let boundPVsFound = true;
    let unboundSatisfied = true;
    let sufficientStorage = true;
    let staticBindings: BindingInfo[] = [];
    let dynamicProvisions: PersistentVolumeClaim[] = [];
    let nodeCapacities: (CSIStorageCapacity | null)[] = [];

    if (claims.boundClaims.length > 0) {
      const failed = this.checkBoundClaims(claims.boundClaims, node);
      boundSatisfied = failed !== ErrReasonNodeConflict;
      boundPVsFound = failed !== ErrReasonPVNotExist;
    }

    checks: if (claims.unboundClaimsDelayBinding.length > 0) {
      const toFind: PersistentVolumeClaim[] = [];
      const toProvision: PersistentVolumeClaim[] = [];
      for (const claim of claims.unboundClaimsDelayBinding) {
        const selected = claim.metadata?.annotations?.[AnnSelectedNode];
        if (selected !== undefined) {
          // Already provisioning for a node: only that node can do.
          if (selected !== node.metadata.name) {
            unboundSatisfied = false;
            break checks;
          }
          toProvision.push(claim);
        } else {
          toFind.push(claim);
        }
      }
      if (toFind.length > 0) {
        const found = this.findMatchingVolumes(toFind, claims.unboundVolumesDelayBinding, node);
        unboundSatisfied = found.foundMatches;
        staticBindings = found.bindings;
        toProvision.push(...found.unboundClaims);
      }
      // The first point where the node may turn out to lack storage.
      if (toProvision.length > 0) {
        const provisions = this.checkVolumeProvisions(toProvision, node);
        unboundSatisfied = provisions.provisionSatisfied;
        sufficientStorage = provisions.sufficientStorage;
        dynamicProvisions = provisions.dynamicProvisions;
        nodeCapacities = provisions.nodeCapacities;
      }
    }
    const reasons = reasonsFor(boundSatisfied, unboundSatisfied, sufficientStorage, boundPVsFound);
    return { podVolumes: { staticBindings, dynamicProvisions, nodeCapacities }, reasons };
  }

  /** The first bound volume's failure (missing, or not reachable from the node); null when all fit. */
  private checkBoundClaims(claims: readonly PersistentVolumeClaim[], node: Node): typeof ErrReasonPVNotExist | typeof ErrReasonNodeConflict | null {
    for (const pvc of claims) {
      const pv = this.pvCache.get(pvc.spec?.volumeName ?? '');
      if (pv === undefined) return ErrReasonPVNotExist;
      if (checkNodeAffinity(pv, node.metadata.labels) !== null) return ErrReasonNodeConflict;
    }
    return null;
  }

  /** Smallest fitting volumes for the claims, smallest claims first; the claims left need provisioning. */
  private findMatchingVolumes(claims: PersistentVolumeClaim[], volumesByClass: ReadonlyMap<string, PersistentVolume[]>, node: Node) {
    const sorted = claims
      .map((c) => ({ c, size: claimRequestNanos(c) }))
      .sort((a, b) => (a.size < b.size ? -1 : a.size > b.size ? 1 : 0))
      .map((x) => x.c);
    const chosen = new Set<string>();
    const bindings: BindingInfo[] = [];
    const unboundClaims: PersistentVolumeClaim[] = [];
    let foundMatches = true;
    for (const pvc of sorted) {
      const pvs = volumesByClass.get(getPersistentVolumeClaimClass(pvc)) ?? [];
      const pv = findMatchingVolume(pvc, pvs, node, chosen);
      if (pv === null) {
        unboundClaims.push(pvc);
        foundMatches = false;
        continue;
      }
      chosen.add(pv.metadata?.name ?? '');
      bindings.push({ pv, pvc });
    }
    return { foundMatches, bindings, unboundClaims };
  }

  /**
   * Whether the claims' classes can provision for the node (a provisioner, allowedTopologies) and
   * the node reaches enough storage capacity for each; the claims to provision when both hold.
   */
  private checkVolumeProvisions(claims: readonly PersistentVolumeClaim[], node: Node): ProvisionCheck {
    const dynamicProvisions: PersistentVolumeClaim[] = [];
    const nodeCapacities: (CSIStorageCapacity | null)[] = [];
    const none = { dynamicProvisions: [], nodeCapacities: [] };
    for (const claim of claims) {
      const className = getPersistentVolumeClaimClass(claim);
      if (className === '') throw new Error(`no class for claim "${pvcKey(claim)}"`);
      const sc = this.storageClass(className);
      if (sc === undefined) throw new Error(`failed to find storage class "${className}"`);
      const provisioner = sc.provisioner;
      if (!provisioner || provisioner === NotSupportedProvisioner) return { provisionSatisfied: false, sufficientStorage: true, ...none };
      if (!matchTopologySelectorTerms(sc.allowedTopologies, node.metadata.labels)) return { provisionSatisfied: false, sufficientStorage: true, ...none };
      const capacity = this.capacityCheck.hasEnoughCapacity(provisioner, claim, sc, node);
      if (capacity === false) return { provisionSatisfied: true, sufficientStorage: false, ...none };
      dynamicProvisions.push(claim);
      nodeCapacities.push(capacity);
    }
    return { provisionSatisfied: true, sufficientStorage: true, dynamicProvisions, nodeCapacities };
  }

  /**
   * AssumePodVolumes: records the chosen bindings and the selected node in the caches and
   * rewrites `podVolumes` with the objects to write; true when every claim is already bound.
   */
  assumePodVolumes(pod: Pod, nodeName: string, podVolumes: PodVolumes): boolean {
    if (this.arePodVolumesBound(pod)) return true;
    const newBindings: BindingInfo[] = [];
    const newProvisioned: PersistentVolumeClaim[] = [];
    try {
      for (const b of podVolumes.staticBindings) {
        const { pv, dirty } = getBindVolumeToClaim(b.pv, b.pvc);
        if (dirty) this.pvCache.assume(pv);
        newBindings.push({ pv, pvc: b.pvc });
      }
      for (const claim of podVolumes.dynamicProvisions) {
        const clone = structuredClone(claim);
        clone.metadata = { ...clone.metadata, annotations: { ...clone.metadata?.annotations, [AnnSelectedNode]: nodeName } };
        this.pvcCache.assume(clone);
        newProvisioned.push(clone);
      }
    } catch (err) {
      this.revertAssumedPVs(newBindings);
      this.revertAssumedPVCs(newProvisioned);
      throw err;
    }
    podVolumes.staticBindings = newBindings;
    podVolumes.dynamicProvisions = newProvisioned;
    return false;
  }

  revertAssumedPodVolumes(podVolumes: PodVolumes): void {
    this.revertAssumedPVs(podVolumes.staticBindings);
    this.revertAssumedPVCs(podVolumes.dynamicProvisions);
  }

  private revertAssumedPVs(bindings: readonly BindingInfo[]): void {
    for (const b of bindings) this.pvCache.restore(b.pv.metadata?.name ?? '');
  }

  private revertAssumedPVCs(claims: readonly PersistentVolumeClaim[]): void {
    for (const c of claims) this.pvcCache.restore(pvcKey(c));
  }

  /**
   * BindPodVolumes: writes the volumes' claimRefs and the claims' selected node, then waits until
   * the PV controller (or the provisioner) has bound every claim, for at most bindTimeoutSeconds,
   * or until `signal` is aborted (the binding cancelled).
   */
  async bindPodVolumes(pod: Pod, nodeName: string, podVolumes: PodVolumes, signal?: AbortSignal): Promise<void> {
    await this.bindAPIUpdate(podVolumes);
    const client = this.handle.client();
    if (!client.waitUntil) throw new Error('binding volumes: the cluster client cannot wait for volume bindings');
    let done: boolean;
    try {
      done = await client.waitUntil(() => this.checkBindings(pod, nodeName, podVolumes), this.bindTimeoutMs, signal);
    } catch (err) {
      // Upstream wraps whatever ends the wait: fmt.Errorf("binding volumes: %w", err).
      throw new Error(`binding volumes: ${(err as Error).message}`, { cause: err });
    }
    if (!done) throw new Error('binding volumes: context deadline exceeded');
  }

  private async bindAPIUpdate(podVolumes: PodVolumes): Promise<void> {
    const client = this.handle.client();
    const bindings = podVolumes.staticBindings;
    const claims = podVolumes.dynamicProvisions;
    let boundCount = 0;
    let provisionedCount = 0;
    try {
      for (const b of bindings) {
        if (!client.updatePersistentVolume) throw new Error('the cluster client cannot update PersistentVolumes');
        // Keep what the API server stored, to compare versions while waiting.
        b.pv = await client.updatePersistentVolume(b.pv);
        boundCount++;
      }
      for (let i = 0; i < claims.length; i++) {
        if (!client.updatePersistentVolumeClaim) throw new Error('the cluster client cannot update PersistentVolumeClaims');
        claims[i] = await client.updatePersistentVolumeClaim(claims[i]!);
        provisionedCount++;
      }
    } finally {
      // Assumptions whose write did not happen go back to the informer's view.
      this.revertAssumedPVs(bindings.slice(boundCount));
      this.revertAssumedPVCs(claims.slice(provisionedCount));
    }
  }

  /**
   * checkBindings: true once every written claim is fully bound (on the informer's objects, not the
   * assumed ones); throws when binding has to be retried through scheduling.
   */
  checkBindings(pod: Pod, nodeName: string, podVolumes: PodVolumes): boolean {
    const name = pod.metadata.name ?? '';
    if (this.handle.client().podExists?.(pod.metadata.namespace ?? 'default', name) === false) {
      throw new Error(`pod does not exist any more: pod "${name}" not found`);
    }
    const node = this.handle.snapshotSharedLister().nodeInfos().get(nodeName)?.node ?? null;
    if (node === null) throw new Error(`failed to get node "${nodeName}": node "${nodeName}" not found`);
    for (const b of podVolumes.staticBindings) {
      const pvName = b.pv.metadata?.name ?? '';
      const pv = this.pvCache.getAPIObj(pvName);
      if (pv === undefined) throw new Error(`failed to check binding: could not find v1.PersistentVolume "${pvName}"`);
      const pvc = this.pvcCache.getAPIObj(pvcKey(b.pvc));
      if (pvc === undefined) throw new Error(`failed to check binding: could not find v1.PersistentVolumeClaim "${pvcKey(b.pvc)}"`);
      if (version(b.pv) > version(pv)) return false;
      const mismatch = checkNodeAffinity(pv, node.metadata.labels);
      if (mismatch !== null) throw new Error(`pv "${pvName}" node affinity doesn't match node "${nodeName}": ${mismatch}`);
      if (!pv.spec?.claimRef || !pv.spec.claimRef.uid) throw new Error(`ClaimRef got reset for pv "${pvName}"`);
      if (!isPVCFullyBound(pvc)) return false;
    }
    for (const claim of podVolumes.dynamicProvisions) {
      const pvc = this.pvcCache.getAPIObj(pvcKey(claim));
      if (pvc === undefined) throw new Error(`failed to check provisioning pvc: could not find v1.PersistentVolumeClaim "${pvcKey(claim)}"`);
      if (version(claim) > version(pvc)) return false;
      const annotations = pvc.metadata?.annotations;
      if (!annotations) throw new Error(`selectedNode annotation reset for PVC "${pvc.metadata?.name ?? ''}"`);
      // A provisioner that fails removes the annotation to hand the claim back to the scheduler.
      if (annotations[AnnSelectedNode] !== nodeName) throw new Error(`provisioning failed for PVC "${pvc.metadata?.name ?? ''}"`);
      const volumeName = pvc.spec?.volumeName;
      if (volumeName) {
        const pv = this.pvCache.getAPIObj(volumeName);
        // Not there yet: the informer may be behind.
        if (pv === undefined) return false;
        const mismatch = checkNodeAffinity(pv, node.metadata.labels);
        if (mismatch !== null) throw new Error(`pv "${volumeName}" node affinity doesn't match node "${nodeName}": ${mismatch}`);
      }
      if (!isPVCFullyBound(pvc)) return false;
    }
    return true;
  }
}
