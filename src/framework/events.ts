// Cluster events and queueing hints (framework/types.go ClusterEvent, EnqueueExtensions).
import type { EventKindName } from '../api/kinds.js';
import type { Pod } from '../api/types.js';
import { labelsEqual } from '../api/equality.js';
import { computePodResourceRequests, type Resource } from '../api/resource_requests.js';

/**
 * What a cluster event is about: a kind of `api/kinds.ts` whose changes are events, a pod split by
 * whether it is bound (AssignedPod, UnscheduledPod), or any resource (WildCard).
 */
export type EventResource = EventKindName | 'AssignedPod' | 'UnscheduledPod' | 'WildCard';

/** Bit flags of what happened (framework.ActionType). */
export const ActionType = {
  Add: 1 << 0,
  Delete: 1 << 1,
  UpdateNodeAllocatable: 1 << 2,
  UpdateNodeLabel: 1 << 3,
  UpdateNodeTaint: 1 << 4,
  UpdateNodeCondition: 1 << 5,
  UpdateNodeAnnotation: 1 << 6,
  UpdatePodLabel: 1 << 7,
  UpdatePodScaleDown: 1 << 8,
  UpdatePodToleration: 1 << 9,
  UpdatePodSchedulingGatesEliminated: 1 << 10,
  UpdatePodGeneratedResourceClaim: 1 << 11,
  UpdateNodeDeclaredFeature: 1 << 12,
  UpdatePodOther: 1 << 13,
  UpdateNodeOther: 1 << 14,
} as const;
export const ActionTypeUpdate =
  ActionType.UpdateNodeAllocatable | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint |
  ActionType.UpdateNodeCondition | ActionType.UpdateNodeAnnotation | ActionType.UpdatePodLabel |
  ActionType.UpdatePodScaleDown | ActionType.UpdatePodToleration | ActionType.UpdatePodSchedulingGatesEliminated |
  ActionType.UpdatePodGeneratedResourceClaim | ActionType.UpdateNodeDeclaredFeature | ActionType.UpdatePodOther |
  ActionType.UpdateNodeOther;
export const ActionTypeAll = ActionType.Add | ActionType.Delete | ActionTypeUpdate;

export interface ClusterEvent {
  readonly resource: EventResource;
  /** A bitwise OR of ActionType flags. */
  readonly actionType: number;
  /** A label for metrics (scheduler_queue_incoming_pods_total{event}). */
  readonly label?: string;
}

/** A queueing hint's answer for one event and one pod a plugin rejected. */
export enum QueueingHint {
  /** The event cannot make the pod schedulable: it stays in the unschedulable pool. */
  QueueSkip = 0,
  /** The event may make the pod schedulable: it is requeued (after its backoff, or at once when the plugin said Pending). */
  Queue = 1,
}

/**
 * Decides whether an event may make `pod` schedulable; old/new are the changed object (see
 * eventObjectsAs). Called for every pod the plugin rejected on every matching event, so it must
 * be cheap; a hint that throws counts as Queue, so a bug never strands a pod.
 */
export type QueueingHintFn = (pod: Pod, oldObj: unknown, newObj: unknown) => QueueingHint;

/**
 * Which pending pods an event can concern, declared beside a hint so the queue asks the hint only
 * of those: it indexes each unschedulable pod under `podKeys` and, for an event, looks up
 * `eventKeys`. The contract: when `eventKeys` returns a list sharing no key with `podKeys(pod)`,
 * the hint must answer QueueSkip for that pod and event; null means any pod may be concerned.
 * Ignored on WildCard registrations and on registrations without a hint.
 */
export interface EventPodIndex {
  /** The keys of a pod (for DynamicResources: the claims it names). */
  podKeys(pod: Pod): readonly string[];
  /** The keys of the pods the event can concern, or null for every pod. */
  eventKeys(oldObj: unknown, newObj: unknown): readonly string[] | null;
}

/** An event a plugin registers, with the hint that filters it per pod (none: every such event requeues). */
export interface ClusterEventWithHint {
  readonly event: ClusterEvent;
  readonly queueingHintFn?: QueueingHintFn;
  /** Optional pre-filter of the pods the hint is asked about (see EventPodIndex). */
  readonly podIndex?: EventPodIndex;
}

/** True when `registered` covers `incoming` (resource equal or wildcard, action bits overlap). */
export function eventMatches(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  if (registered.resource === 'WildCard') return (registered.actionType & incoming.actionType) !== 0;
  const sameResource =
    registered.resource === incoming.resource ||
    (registered.resource === 'Pod' && (incoming.resource === 'AssignedPod' || incoming.resource === 'UnscheduledPod'));
  return sameResource && (registered.actionType & incoming.actionType) !== 0;
}

/** A wildcard event moves every pod it is delivered to (ClusterEvent.IsWildCard). */
export function isWildCardEvent(e: ClusterEvent): boolean {
  return e.resource === 'WildCard' && e.actionType === ActionTypeAll;
}

/** Labels of the pod update actions, as upstream's ActionType.String() names them. */
const podUpdateActionNames: readonly [number, string][] = [
  [ActionType.UpdatePodLabel, 'UpdatePodLabel'],
  [ActionType.UpdatePodScaleDown, 'UpdatePodScaleDown'],
  [ActionType.UpdatePodSchedulingGatesEliminated, 'UpdatePodSchedulingGatesEliminated'],
  [ActionType.UpdatePodToleration, 'UpdatePodToleration'],
  [ActionType.UpdatePodGeneratedResourceClaim, 'UpdatePodGeneratedResourceClaim'],
];

/** True when the claims generated for the pod's template entries differ (resourceclaim.PodStatusEqual). */
function generatedResourceClaimsChanged(newPod: Pod, oldPod: Pod): boolean {
  const a = newPod.status?.resourceClaimStatuses ?? [];
  const b = oldPod.status?.resourceClaimStatuses ?? [];
  if (a.length !== b.length) return true;
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.name !== b[i]!.name || a[i]!.resourceClaimName !== b[i]!.resourceClaimName) return true;
  }
  return false;
}

/** True when some resource request of the pod went down or was removed (extractPodScaleDown). */
export function podRequestsScaledDown(newPod: Pod, oldPod: Pod): boolean {
  // The requests read only the spec and these status fields: an update sharing them all (a status
  // write of other fields, as the resourceclaim controller's) cannot have changed them.
  if (requestInputsShared(newPod, oldPod)) return false;
  let o: Resource;
  let n: Resource;
  try {
    o = computePodResourceRequests(oldPod).resource;
    n = computePodResourceRequests(newPod).resource;
  } catch {
    return false;
  }
  if (o.milliCPU > n.milliCPU || o.memory > n.memory || o.ephemeralStorage > n.ephemeralStorage) return true;
  if (o.scalarResources) for (const [name, v] of o.scalarResources) if (v > n.scalar(name)) return true;
  return false;
}

/** The inputs of computePodResourceRequests are the same objects in both versions. */
function requestInputsShared(a: Pod, b: Pod): boolean {
  if (a.spec !== b.spec) return false;
  const s = a.status;
  const t = b.status;
  return s === t || (s !== undefined && t !== undefined && s.containerStatuses === t.containerStatuses
    && s.initContainerStatuses === t.initContainerStatuses && s.conditions === t.conditions);
}

/**
 * The scheduling-relevant changes of a pod update, as events (framework.PodSchedulingPropertiesChange):
 * labels, a request scaled down or removed, every scheduling gate removed, a toleration added, the
 * claims generated for it recorded in its status (DynamicResourceAllocation is locked on); or,
 * when none of those changed, the "other" update, which only a general Pod/Update registration matches.
 */
export function podSchedulingPropertiesChange(newPod: Pod, oldPod: Pod): ClusterEvent[] {
  const resource: EventResource = newPod.spec.nodeName ? 'AssignedPod' : 'UnscheduledPod';
  const prefix = resource === 'AssignedPod' ? 'AssignedPod' : 'UnschedulablePod';
  const changed: number[] = [];
  if (!labelsEqual(newPod.metadata.labels, oldPod.metadata.labels)) changed.push(ActionType.UpdatePodLabel);
  if (podRequestsScaledDown(newPod, oldPod)) changed.push(ActionType.UpdatePodScaleDown);
  if ((newPod.spec.schedulingGates?.length ?? 0) === 0 && (oldPod.spec.schedulingGates?.length ?? 0) !== 0) {
    changed.push(ActionType.UpdatePodSchedulingGatesEliminated);
  }
  if ((newPod.spec.tolerations?.length ?? 0) !== (oldPod.spec.tolerations?.length ?? 0)) changed.push(ActionType.UpdatePodToleration);
  if (generatedResourceClaimsChanged(newPod, oldPod)) changed.push(ActionType.UpdatePodGeneratedResourceClaim);
  if (changed.length === 0) return [{ resource, actionType: ActionType.UpdatePodOther, label: `${prefix}Update` }];
  const out: ClusterEvent[] = [];
  for (const action of changed) {
    let name = '';
    for (const [bit, n] of podUpdateActionNames) if (bit === action) name = n;
    out.push({ resource, actionType: action, label: `${prefix}${name}` });
  }
  return out;
}
