// Cluster events and queueing hints (framework/types.go ClusterEvent, EnqueueExtensions).
import type { Pod } from '../api/types.js';

export type EventResource =
  | 'Pod'
  | 'AssignedPod'
  | 'UnscheduledPod'
  | 'Node'
  | 'PersistentVolume'
  | 'PersistentVolumeClaim'
  | 'CSINode'
  | 'CSIDriver'
  | 'CSIStorageCapacity'
  | 'StorageClass'
  | 'VolumeAttachment'
  | 'Namespace'
  | 'PodDisruptionBudget'
  | 'Service'
  | 'WildCard';

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

export enum QueueingHint {
  QueueSkip = 0,
  Queue = 1,
}

/** Decides whether an event may make `pod` schedulable; old/new are the changed object. */
export type QueueingHintFn = (pod: Pod, oldObj: unknown, newObj: unknown) => QueueingHint;

export interface ClusterEventWithHint {
  readonly event: ClusterEvent;
  readonly queueingHintFn?: QueueingHintFn;
}

/** True when `registered` covers `incoming` (resource equal or wildcard, action bits overlap). */
export function eventMatches(registered: ClusterEvent, incoming: ClusterEvent): boolean {
  if (registered.resource === 'WildCard') return (registered.actionType & incoming.actionType) !== 0;
  const sameResource =
    registered.resource === incoming.resource ||
    (registered.resource === 'Pod' && (incoming.resource === 'AssignedPod' || incoming.resource === 'UnscheduledPod'));
  return sameResource && (registered.actionType & incoming.actionType) !== 0;
}
