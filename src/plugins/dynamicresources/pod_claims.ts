// A pod's ResourceClaims: which claim each spec.resourceClaims entry names and whether it may be
// used (k8s.io/dynamic-resource-allocation/resourceclaim Name, IsForPod, IsReservedForPod, BindTo,
// and the plugin's foreachPodResourceClaim).
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import { bindTo as bindToRef, isForPodGroupByPod } from '../../api/resourceclaim.js';
export { isReservedForPod, podConsumerReference } from '../../api/resourceclaim.js';
import type { PodResourceClaim, ResourceClaim, ResourceClaimConsumerReference } from '../../api/dra_types.js';

/** The finalizer the scheduler adds before writing an allocation (resourceapi.Finalizer). */
export const ClaimFinalizer = 'resource.kubernetes.io/delete-protection';

/**
 * Why a pod cannot be scheduled yet because of its claims; every such reason is unresolvable.
 * A value, not an Error: queueing hints meet it for every pending pod on every claim event, and
 * capturing a stack trace each time was most of a DRA burst's CPU.
 */
export class ClaimUnavailable {
  constructor(readonly message: string) {}
}

const podKey = (pod: Pod): string => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

/**
 * The claim name of one entry (resourceclaim.Name): null when the entry's template produced no
 * claim (the controller decided none is needed); `mustCheckOwner` for generated claims.
 */
function podClaimName(pod: Pod, entry: PodResourceClaim): { name: string | null; mustCheckOwner: boolean } | ClaimUnavailable {
  if (entry.resourceClaimName !== undefined) return { name: entry.resourceClaimName, mustCheckOwner: false };
  if (entry.resourceClaimTemplateName !== undefined) {
    for (const s of pod.status?.resourceClaimStatuses ?? []) {
      if (s.name === entry.name) return { name: s.resourceClaimName ?? null, mustCheckOwner: true };
    }
    return new ClaimUnavailable(`pod "${podKey(pod)}": ResourceClaim not created yet`);
  }
  return new ClaimUnavailable(`pod "${podKey(pod)}", spec.resourceClaim ${JSON.stringify(entry.name)}: none of the supported fields are set`);
}

/**
 * The claim a PodGroup entry uses (resourceclaim.NameFromPodGroup): null when the group's template
 * produced none; a string is the error (the claim not made yet, or neither field set).
 */
export function podGroupClaimName(pg: PodGroup, entry: PodResourceClaim): { name: string | null; mustCheckOwner: boolean } | string {
  const ref = `${pg.metadata.namespace ?? ''}/${pg.metadata.name ?? ''}`;
  if (entry.resourceClaimName !== undefined) return { name: entry.resourceClaimName, mustCheckOwner: false };
  if (entry.resourceClaimTemplateName !== undefined) {
    for (const s of pg.status?.resourceClaimStatuses ?? []) if (s.name === entry.name) return { name: s.resourceClaimName ?? null, mustCheckOwner: true };
    return `PodGroup ${ref}: ResourceClaim not created yet`;
  }
  return `PodGroup ${ref}, spec.resourceClaim ${entry.name}: none of the supported fields are set`;
}

/**
 * A generated claim must be controlled by the pod, or with `acceptPodGroupOwner`
 * (DRAWorkloadResourceClaims) by the pod's PodGroup (resourceclaim.IsForPod).
 */
export function claimIsNotForPod(pod: Pod, claim: ResourceClaim, acceptPodGroupOwner: boolean): ClaimUnavailable | null {
  const c = claim.metadata;
  if ((c.namespace ?? '') !== (pod.metadata.namespace ?? '')) {
    return new ClaimUnavailable(`ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} is not in the same namespace as Pod ${podKey(pod)}`);
  }
  const controlled = (c.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid);
  if (controlled) return null;
  const group = pod.spec.schedulingGroup?.podGroupName;
  if (acceptPodGroupOwner && group !== undefined) {
    if (isForPodGroupByPod(pod, claim)) return null;
    return new ClaimUnavailable(`ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for Pod ${podKey(pod)} (neither Pod nor PodGroup ${group} is the owner)`);
  }
  return new ClaimUnavailable(`ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for Pod ${podKey(pod)} (Pod is not owner)`);
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
    if (named instanceof ClaimUnavailable) return named;
    if (named.name === null) continue;
    const claim = get(namespace, named.name);
    if (claim === undefined) return new ClaimUnavailable(`could not find ResourceClaim "${namespace}/${named.name}"`);
    if (claim.metadata.deletionTimestamp !== undefined && claim.metadata.deletionTimestamp !== null) {
      return new ClaimUnavailable(`resourceclaim ${JSON.stringify(claim.metadata.name ?? '')} is being deleted`);
    }
    const notForPod = named.mustCheckOwner ? claimIsNotForPod(pod, claim, acceptPodGroupOwner) : null;
    if (notForPod !== null) return notForPod;
    out.push(claim);
  }
  return out;
}
