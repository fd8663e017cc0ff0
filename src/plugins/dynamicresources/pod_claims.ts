// A pod's ResourceClaims: which claim each spec.resourceClaims entry names and whether it may be
// used (k8s.io/dynamic-resource-allocation/resourceclaim Name, IsForPod, IsReservedForPod, BindTo,
// and the plugin's foreachPodResourceClaim).
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
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

/** The API group of PodGroups, which reservations for a group name (schedulingapi.GroupName). */
export const SchedulingGroup = 'scheduling.k8s.io';

const podGroupNameOf = (pod: Pod): string | undefined => pod.spec.schedulingGroup?.podGroupName ?? undefined;

/**
 * Whether the claim's controller is the pod's PodGroup, known by name, kind and API group since a
 * pod does not know its group's UID (isForPodGroupByPod; the version is not compared).
 */
function isForPodGroupByPod(pod: Pod, claim: ResourceClaim): boolean {
  const group = podGroupNameOf(pod);
  if (group === undefined) return false;
  const controller = (claim.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  return controller !== undefined && controller.name === group && controller.kind === 'PodGroup' && controller.apiVersion.startsWith(`${SchedulingGroup}/`);
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
  const group = podGroupNameOf(pod);
  if (acceptPodGroupOwner && group !== undefined) {
    if (isForPodGroupByPod(pod, claim)) return null;
    return new ClaimUnavailable(`ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for Pod ${podKey(pod)} (neither Pod nor PodGroup ${group} is the owner)`);
  }
  return new ClaimUnavailable(`ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for Pod ${podKey(pod)} (Pod is not owner)`);
}

/** A claim generated for a PodGroup must be controlled by it (resourceclaim.IsForPodGroup). */
export function claimIsNotForPodGroup(pg: PodGroup, claim: ResourceClaim): string | null {
  const c = claim.metadata;
  const ns = pg.metadata.namespace ?? '';
  if ((c.namespace ?? '') !== ns) return `ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} is not in the same namespace as PodGroup ${ns}/${pg.metadata.name ?? ''}`;
  if (!(c.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pg.metadata.uid)) {
    return `ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for PodGroup ${ns}/${pg.metadata.name ?? ''} (PodGroup is not owner)`;
  }
  return null;
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
 * Whether the claim's reservedFor names the pod or, with `acceptPodGroupReservation`
 * (DRAWorkloadResourceClaims), the pod's PodGroup by name (resourceclaim.IsReservedForPod).
 */
export function isReservedForPod(pod: Pod, claim: ResourceClaim, acceptPodGroupReservation = false): boolean {
  const group = acceptPodGroupReservation ? podGroupNameOf(pod) : undefined;
  for (const r of claim.status?.reservedFor ?? []) {
    if (r.uid === pod.metadata.uid) return true;
    if (group !== undefined && r.apiGroup === SchedulingGroup && r.resource === 'podgroups' && r.name === group) return true;
  }
  return false;
}

/** The consumer entry PreBind adds to reservedFor for the pod (claimStore.getBinding). */
export function podConsumerReference(pod: Pod): ResourceClaimConsumerReference {
  return { resource: 'pods', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
}

/** The consumer entry for a PodGroup sharing a claim. */
function podGroupConsumerReference(pg: PodGroup): ResourceClaimConsumerReference {
  return { apiGroup: SchedulingGroup, resource: 'podgroups', name: pg.metadata.name ?? '', uid: pg.metadata.uid ?? '' };
}

/**
 * Whom the pod's entry binds its claim to (resourceclaim.BindTo): the PodGroup when the group
 * lists an entry with the same name, claim name and template name, else the pod. `pg` is null
 * with DRAWorkloadResourceClaims off or for a pod outside any group.
 */
export function bindTo(pod: Pod, pg: PodGroup | null, entry: PodResourceClaim): ResourceClaimConsumerReference | ClaimUnavailable {
  if (entry.resourceClaimName === undefined && entry.resourceClaimTemplateName === undefined) {
    return new ClaimUnavailable(`Pod ${podKey(pod)} claim ${entry.name}: none of the supported fields are set`);
  }
  if (pg !== null) {
    const group = podGroupNameOf(pod);
    const pgNs = pg.metadata.namespace ?? '';
    const pgName = pg.metadata.name ?? '';
    if (group === undefined) return new ClaimUnavailable(`Pod ${podKey(pod)} does not belong to a PodGroup`);
    if ((pod.metadata.namespace ?? '') !== pgNs || group !== pgName) {
      return new ClaimUnavailable(`Pod ${podKey(pod)} belongs to PodGroup ${pod.metadata.namespace ?? ''}/${group}, not PodGroup ${pgNs}/${pgName}`);
    }
    for (const c of pg.spec.resourceClaims ?? []) {
      if (c.resourceClaimName === undefined && c.resourceClaimTemplateName === undefined) {
        return new ClaimUnavailable(`PodGroup ${pgNs}/${pgName} claim ${c.name}: none of the supported fields are set`);
      }
      if (c.name === entry.name && c.resourceClaimName === entry.resourceClaimName && c.resourceClaimTemplateName === entry.resourceClaimTemplateName) {
        return podGroupConsumerReference(pg);
      }
    }
  }
  return podConsumerReference(pod);
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
