// Queueing hints of DynamicResources (dynamicresources.go isSchedulableAfterClaimChange,
// isSchedulableAfterTargetPodUpdate).
import type { Pod } from '../../api/types.js';
import type { ResourceClaim } from '../../api/dra_types.js';
import { isDeepStrictEqual } from 'node:util';
import { type EventPodIndex, QueueingHint } from '../../framework/events.js';
import { ClaimUnavailable, podNamesClaim, podResourceClaims, type ClaimGetter } from './pod_claims.js';

/** The pod's claims, or null when one of them is not usable yet; `groupOwned`: DRAWorkloadResourceClaims. */
function claimsOrNull(pod: Pod, get: ClaimGetter, groupOwned: boolean): ResourceClaim[] | null {
  const claims = podResourceClaims(pod, get, groupOwned);
  return claims instanceof ClaimUnavailable ? null : claims;
}

/**
 * A claim was added, updated or deleted: queue the pod when a claim it uses appeared or had its
 * status changed, or when any claim's devices were freed (deallocation, deletion of an allocated one).
 */
export function isSchedulableAfterClaimChange(get: ClaimGetter, pod: Pod, oldObj: unknown, newObj: unknown, groupOwned = false): QueueingHint {
  const original = (oldObj ?? undefined) as ResourceClaim | undefined;
  const modified = (newObj ?? undefined) as ResourceClaim | undefined;
  if (modified === undefined) {
    // Deleted: only an allocated claim frees devices (the scheduler sees every allocation it makes).
    return original?.status?.allocation === undefined ? QueueingHint.QueueSkip : QueueingHint.Queue;
  }
  const deallocated = original?.status?.allocation !== undefined && modified.status?.allocation === undefined;
  // Neither freed devices nor a claim of the pod: skipped without resolving the pod's claims,
  // which every pending pod would do on every claim event.
  if (!deallocated && !podNamesClaim(pod, modified)) return QueueingHint.QueueSkip;
  const claims = claimsOrNull(pod, get, groupOwned);
  if (claims === null) return QueueingHint.QueueSkip;
  if (deallocated) return QueueingHint.Queue;
  const usesClaim = claims.some((c) => c.metadata.uid === modified.metadata.uid);
  if (!usesClaim) return QueueingHint.QueueSkip;
  if (original === undefined) return QueueingHint.Queue;
  // A change outside the status (a driver adding its finalizer, ...) does not help.
  return isDeepStrictEqual(original.status ?? {}, modified.status ?? {}) ? QueueingHint.QueueSkip : QueueingHint.Queue;
}

const claimKey = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

/**
 * The pods a claim event can concern, for the queue's index: a claim is keyed by namespace and
 * name, a pod by the claims podNamesClaim finds in it. The hint above queues a pod that names no
 * changed claim only when devices were freed, which the index answers with "every pod".
 */
export const claimEventPodIndex: EventPodIndex = {
  podKeys(pod: Pod): string[] {
    const keys: string[] = [];
    const namespace = pod.metadata.namespace;
    for (const entry of pod.spec.resourceClaims ?? []) if (entry.resourceClaimName !== undefined) keys.push(claimKey(namespace, entry.resourceClaimName));
    for (const s of pod.status?.resourceClaimStatuses ?? []) if (s.resourceClaimName !== undefined) keys.push(claimKey(namespace, s.resourceClaimName));
    return keys;
  },
  eventKeys(oldObj: unknown, newObj: unknown): readonly string[] | null {
    const original = (oldObj ?? undefined) as ResourceClaim | undefined;
    const modified = (newObj ?? undefined) as ResourceClaim | undefined;
    if (modified === undefined) return original?.status?.allocation === undefined ? [] : null;
    if (original?.status?.allocation !== undefined && modified.status?.allocation === undefined) return null;
    // A claim without a name would match entries without one: let the hint decide for every pod.
    const name = modified.metadata.name;
    return name === undefined ? null : [claimKey(modified.metadata.namespace, name)];
  },
};

/** The pod itself was updated (upstream's TargetPod event): queue it once every claim it names exists. */
export function isSchedulableAfterTargetPodUpdate(get: ClaimGetter, pod: Pod, _oldObj: unknown, newObj: unknown, groupOwned = false): QueueingHint {
  const updated = newObj as Pod;
  if (updated.metadata.uid !== pod.metadata.uid) return QueueingHint.QueueSkip;
  return claimsOrNull(updated, get, groupOwned) === null ? QueueingHint.QueueSkip : QueueingHint.Queue;
}
