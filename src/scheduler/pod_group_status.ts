// The PodGroupInitiallyScheduled condition the scheduler writes on a group after each of its
// cycles (schedule_one_podgroup.go updatePodGroupCondition, with apimeta.SetStatusCondition's
// rules): once True it stays; an unchanged condition is not written.
import { PodGroupInitiallyScheduled, PodGroupReasonSchedulerError, PodGroupReasonUnschedulable, type Condition, type PodGroup } from '../api/scheduling.js';
import { Code, type Status } from '../framework/status.js';

/** The condition a group's cycle ends with: its verdict, null for success. */
export function initiallyScheduledCondition(status: Status | null, now: string): Condition {
  if (status === null) return { type: PodGroupInitiallyScheduled, status: 'True', reason: 'Scheduled', message: '', lastTransitionTime: now };
  const rejected = status.code === Code.Unschedulable || status.code === Code.UnschedulableAndUnresolvable;
  return {
    type: PodGroupInitiallyScheduled,
    status: 'False',
    reason: rejected ? PodGroupReasonUnschedulable : PodGroupReasonSchedulerError,
    message: rejected ? status.message() : (status.error?.message ?? status.message()),
    lastTransitionTime: now,
  };
}

/** The group's status with the condition set, or null when nothing would change. */
export function withCondition(pg: PodGroup, condition: Condition): PodGroup['status'] | null {
  const conditions = pg.status?.conditions ?? [];
  const existing = conditions.find((c) => c.type === condition.type);
  if (existing?.status === 'True' && condition.status !== 'True') return null;
  const next: Condition = { ...condition, observedGeneration: pg.metadata.generation ?? 0 };
  if (existing) {
    if (existing.status === next.status && existing.reason === next.reason && existing.message === next.message && existing.observedGeneration === next.observedGeneration) return null;
    // The transition time moves only when the status does.
    if (existing.status === next.status) next.lastTransitionTime = existing.lastTransitionTime;
  }
  return { ...pg.status, conditions: [...conditions.filter((c) => c.type !== condition.type), next] };
}
