// A pod's ResourceClaims: which claim each spec.resourceClaims entry names and whether it may be
// used (k8s.io/dynamic-resource-allocation/resourceclaim Name, IsForPod, IsReservedForPod, BindTo,
// and the plugin's foreachPodResourceClaim).
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import { bindTo as bindToRef, claimIsNotForPod, podClaimName } from '../../api/resourceclaim.js';
export { ClaimFinalizer, isReservedForPod, podConsumerReference } from '../../api/resourceclaim.js';
import type { PodResourceClaim, ResourceClaim, ResourceClaimConsumerReference } from '../../api/dra_types.js';

/**
 * Why a pod cannot be scheduled yet because of its claims; every such reason is unresolvable.
 * A value, not an Error: queueing hints meet it for every pending pod on every claim event, and
 * capturing a stack trace each time was most of a DRA burst's CPU.
 */
export class ClaimUnavailable {
  constructor(readonly message: string) {}
}


/** Whether one of the pod's entries names the claim (directly or through its status), existing or not. */
export function podNamesClaim(pod: Pod, claim: ResourceClaim): boolean {
  if ((claim.metadata.namespace ?? '') !== (pod.metadata.namespace ?? '')) return false;
  const name = claim.metadata.name;
  for (const entry of pod.spec.resourceClaims ?? []) if (entry.resourceClaimName === name) return true;
  for (const s of pod.status?.resourceClaimStatuses ?? []) if (s.resourceClaimName === name) return true;
  return false;
}

/**
 * Whom the pod's entry binds its claim to (resourceclaim.BindTo): the pod, or its PodGroup for an
 * entry the group lists too.
 */
export function bindTo(pod: Pod, pg: PodGroup | null, entry: PodResourceClaim): ResourceClaimConsumerReference | ClaimUnavailable {
  const ref = bindToRef(pod, pg, entry);
  return typeof ref === 'string' ? new ClaimUnavailable(ref) : ref;
}

/** Looks a claim up by namespace and name (the assume cache's latest version). */
export type ClaimGetter = (namespace: string, name: string) => ResourceClaim | undefined;

/**
 * The pod's claims in spec order, each checked to exist, not be deleted and (generated ones) be
 * owned by the pod; entries whose template produced no claim are left out. The first problem
 * comes back as ClaimUnavailable with upstream's message.
 */
export function podResourceClaims(pod: Pod, get: ClaimGetter, acceptPodGroupOwner = false): ResourceClaim[] | ClaimUnavailable {
  const entries = pod.spec.resourceClaims ?? [];
  const out: ResourceClaim[] = [];
  const namespace = pod.metadata.namespace ?? '';
  for (const entry of entries) {
    const named = podClaimName(pod, entry);
    if (typeof named === 'string') return new ClaimUnavailable(named);
    if (named.name === null) continue;
    const claim = get(namespace, named.name);
    if (claim === undefined) return new ClaimUnavailable(`could not find ResourceClaim "${namespace}/${named.name}"`);
    if (claim.metadata.deletionTimestamp !== undefined && claim.metadata.deletionTimestamp !== null) {
      return new ClaimUnavailable(`resourceclaim ${JSON.stringify(claim.metadata.name ?? '')} is being deleted`);
    }
    const notForPod = named.mustCheckOwner ? claimIsNotForPod(pod, claim, acceptPodGroupOwner) : null;
    if (notForPod !== null) return new ClaimUnavailable(notForPod);
    out.push(claim);
  }
  return out;
}
