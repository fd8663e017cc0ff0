// A pod's ResourceClaims: which claim each spec.resourceClaims entry names and whether it may be
// used (k8s.io/dynamic-resource-allocation/resourceclaim Name, IsForPod, IsReservedForPod, and the
// plugin's foreachPodResourceClaim).
import type { Pod } from '../../api/types.js';
import type { PodResourceClaim, ResourceClaim, ResourceClaimConsumerReference } from '../../api/resource.js';

/** The finalizer the scheduler adds before writing an allocation (resourceapi.Finalizer). */
export const ClaimFinalizer = 'resource.kubernetes.io/delete-protection';

/** Why a pod cannot be scheduled yet because of its claims; every such reason is unresolvable. */
export class ClaimUnavailableError extends Error {}

const podKey = (pod: Pod): string => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

/**
 * The claim name of one entry (resourceclaim.Name): null when the entry's template produced no
 * claim (the controller decided none is needed); `mustCheckOwner` for generated claims.
 */
function podClaimName(pod: Pod, entry: PodResourceClaim): { name: string | null; mustCheckOwner: boolean } {
  if (entry.resourceClaimName !== undefined) return { name: entry.resourceClaimName, mustCheckOwner: false };
  if (entry.resourceClaimTemplateName !== undefined) {
    for (const s of pod.status?.resourceClaimStatuses ?? []) {
      if (s.name === entry.name) return { name: s.resourceClaimName ?? null, mustCheckOwner: true };
    }
    throw new ClaimUnavailableError(`pod "${podKey(pod)}": ResourceClaim not created yet`);
  }
  throw new ClaimUnavailableError(`pod "${podKey(pod)}", spec.resourceClaim ${JSON.stringify(entry.name)}: none of the supported fields are set`);
}

/** A generated claim must be controlled by the pod (resourceclaim.IsForPod). */
function checkClaimIsForPod(pod: Pod, claim: ResourceClaim): void {
  const c = claim.metadata;
  if ((c.namespace ?? '') !== (pod.metadata.namespace ?? '')) {
    throw new ClaimUnavailableError(`ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} is not in the same namespace as Pod ${podKey(pod)}`);
  }
  const controlled = (c.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid);
  if (!controlled) {
    throw new ClaimUnavailableError(`ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for Pod ${podKey(pod)} (Pod is not owner)`);
  }
}

/** Whether the claim's reservedFor names the pod (resourceclaim.IsReservedForPod). */
export function isReservedForPod(pod: Pod, claim: ResourceClaim): boolean {
  for (const r of claim.status?.reservedFor ?? []) if (r.uid === pod.metadata.uid) return true;
  return false;
}

/** The consumer entry PreBind adds to reservedFor for the pod (claimStore.getBinding). */
export function podConsumerReference(pod: Pod): ResourceClaimConsumerReference {
  return { resource: 'pods', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
}

/** Looks a claim up by namespace and name; throws ClaimUnavailableError when it is missing. */
export type ClaimGetter = (namespace: string, name: string) => ResourceClaim;

/**
 * The pod's claims in spec order, each checked to exist, not be deleted and (generated ones) be
 * owned by the pod; entries whose template produced no claim are left out. Throws
 * ClaimUnavailableError with upstream's message for the first problem.
 */
export function podResourceClaims(pod: Pod, get: ClaimGetter): ResourceClaim[] {
  const entries = pod.spec.resourceClaims ?? [];
  const out: ResourceClaim[] = [];
  for (const entry of entries) {
    const { name, mustCheckOwner } = podClaimName(pod, entry);
    if (name === null) continue;
    const claim = get(pod.metadata.namespace ?? '', name);
    if (claim.metadata.deletionTimestamp !== undefined && claim.metadata.deletionTimestamp !== null) {
      throw new ClaimUnavailableError(`resourceclaim ${JSON.stringify(claim.metadata.name ?? '')} is being deleted`);
    }
    if (mustCheckOwner) checkClaimIsForPod(pod, claim);
    out.push(claim);
  }
  return out;
}
