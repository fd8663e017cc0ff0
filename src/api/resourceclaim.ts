// Which claim an entry names, whom a ResourceClaim belongs to and is reserved for, with claims
// shared by a PodGroup (k8s.io/dynamic-resource-allocation/resourceclaim Name, NameFromPodGroup,
// IsForPod, IsForPodGroup, isForPodGroupByPod, IsReservedForPod, BindTo): shared by the
// scheduler's DynamicResources and the resourceclaim controller.
import type { ResourceClaim, ResourceClaimConsumerReference, PodResourceClaim } from './dra_types.js';
import type { PodGroup } from './scheduling.js';
import type { Pod } from './types.js';

/** The finalizer the scheduler adds before writing an allocation, and the controller removes (resourceapi.Finalizer). */
export const ClaimFinalizer = 'resource.kubernetes.io/delete-protection';

/** The API group of PodGroups, which reservations for a group name (schedulingapi.GroupName). */
export const SchedulingGroup = 'scheduling.k8s.io';

const podGroupNameOf = (pod: Pod): string | undefined => pod.spec.schedulingGroup?.podGroupName ?? undefined;
const podKey = (pod: Pod): string => `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;

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
 * The claim one entry uses: `name` null when the entry's template intentionally produced none;
 * `mustCheckOwner` for a generated claim, whose owner must be checked before it is used.
 */
export interface ClaimName {
  name: string | null;
  mustCheckOwner: boolean;
}

/** The claim a pod's entry uses (resourceclaim.Name); a string is the error (not made yet, or neither field set). */
export function podClaimName(pod: Pod, entry: PodResourceClaim): ClaimName | string {
  if (entry.resourceClaimName !== undefined) return { name: entry.resourceClaimName, mustCheckOwner: false };
  if (entry.resourceClaimTemplateName !== undefined) {
    for (const s of pod.status?.resourceClaimStatuses ?? []) if (s.name === entry.name) return { name: s.resourceClaimName ?? null, mustCheckOwner: true };
    return `pod "${podKey(pod)}": ResourceClaim not created yet`;
  }
  return `pod "${podKey(pod)}", spec.resourceClaim ${JSON.stringify(entry.name)}: none of the supported fields are set`;
}

/** The claim a PodGroup's entry uses (resourceclaim.NameFromPodGroup); a string is the error, as podClaimName's. */
export function podGroupClaimName(pg: PodGroup, entry: PodResourceClaim): ClaimName | string {
  const ref = `${pg.metadata.namespace ?? ''}/${pg.metadata.name ?? ''}`;
  if (entry.resourceClaimName !== undefined) return { name: entry.resourceClaimName, mustCheckOwner: false };
  if (entry.resourceClaimTemplateName !== undefined) {
    for (const s of pg.status?.resourceClaimStatuses ?? []) if (s.name === entry.name) return { name: s.resourceClaimName ?? null, mustCheckOwner: true };
    return `PodGroup ${ref}: ResourceClaim not created yet`;
  }
  return `PodGroup ${ref}, spec.resourceClaim ${entry.name}: none of the supported fields are set`;
}

/**
 * Why a generated claim is not the pod's, or null: it must be controlled by the pod or, with
 * `acceptPodGroupOwner` (DRAWorkloadResourceClaims), by the pod's PodGroup (resourceclaim.IsForPod).
 */
export function claimIsNotForPod(pod: Pod, claim: ResourceClaim, acceptPodGroupOwner: boolean): string | null {
  const c = claim.metadata;
  if ((c.namespace ?? '') !== (pod.metadata.namespace ?? '')) {
    return `ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} is not in the same namespace as Pod ${podKey(pod)}`;
  }
  if ((c.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pod.metadata.uid)) return null;
  const group = podGroupNameOf(pod);
  if (acceptPodGroupOwner && group !== undefined) {
    if (isForPodGroupByPod(pod, claim)) return null;
    return `ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for Pod ${podKey(pod)} (neither Pod nor PodGroup ${group} is the owner)`;
  }
  return `ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for Pod ${podKey(pod)} (Pod is not owner)`;
}

/** Why a claim generated for a PodGroup is not the group's, or null (resourceclaim.IsForPodGroup). */
export function claimIsNotForPodGroup(pg: PodGroup, claim: ResourceClaim): string | null {
  const c = claim.metadata;
  const ns = pg.metadata.namespace ?? '';
  if ((c.namespace ?? '') !== ns) return `ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} is not in the same namespace as PodGroup ${ns}/${pg.metadata.name ?? ''}`;
  if (!(c.ownerReferences ?? []).some((r) => r.controller === true && r.uid === pg.metadata.uid)) {
    return `ResourceClaim ${c.namespace ?? ''}/${c.name ?? ''} was not created for PodGroup ${ns}/${pg.metadata.name ?? ''} (PodGroup is not owner)`;
  }
  return null;
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

/** The consumer entry that reserves a claim for the pod. */
export function podConsumerReference(pod: Pod): ResourceClaimConsumerReference {
  return { resource: 'pods', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
}

/** Whether a consumer entry names a PodGroup (isPodGroupClaim). */
export function isPodGroupReference(ref: ResourceClaimConsumerReference): boolean {
  return ref.apiGroup === SchedulingGroup && ref.resource === 'podgroups';
}

/**
 * Whom the pod's entry binds its claim to (resourceclaim.BindTo): the PodGroup when the group
 * lists an entry with the same name, claim name and template name, else the pod; a string is the
 * error. `pg` is null for a pod outside any group (and in the scheduler with the gate off).
 */
export function bindTo(pod: Pod, pg: PodGroup | null, entry: PodResourceClaim): ResourceClaimConsumerReference | string {
  if (entry.resourceClaimName === undefined && entry.resourceClaimTemplateName === undefined) {
    return `Pod ${podKey(pod)} claim ${entry.name}: none of the supported fields are set`;
  }
  if (pg !== null) {
    const group = podGroupNameOf(pod);
    const pgNs = pg.metadata.namespace ?? '';
    const pgName = pg.metadata.name ?? '';
    if (group === undefined) return `Pod ${podKey(pod)} does not belong to a PodGroup`;
    if ((pod.metadata.namespace ?? '') !== pgNs || group !== pgName) {
      return `Pod ${podKey(pod)} belongs to PodGroup ${pod.metadata.namespace ?? ''}/${group}, not PodGroup ${pgNs}/${pgName}`;
    }
    for (const c of pg.spec.resourceClaims ?? []) {
      if (c.resourceClaimName === undefined && c.resourceClaimTemplateName === undefined) {
        return `PodGroup ${pgNs}/${pgName} claim ${c.name}: none of the supported fields are set`;
      }
      if (c.name === entry.name && c.resourceClaimName === entry.resourceClaimName && c.resourceClaimTemplateName === entry.resourceClaimTemplateName) {
        return { apiGroup: SchedulingGroup, resource: 'podgroups', name: pgName, uid: pg.metadata.uid ?? '' };
      }
    }
  }
  return podConsumerReference(pod);
}
