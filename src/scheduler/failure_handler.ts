// What happens to a pod whose attempt failed (schedule_one.go handleSchedulingFailure): why it
// failed is recorded, its status updated, and it goes back to the queue.
import type { PodCondition } from '../api/types.js';
import { podKey } from '../api/types.js';
import { observedGenerationOf } from '../api/pod_conditions.js';
import { FitError } from '../framework/runtime/fit_error.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Status } from '../framework/status.js';
import type { NominatingInfo } from '../queue/nominator.js';
import type { Attempt, CycleContext } from './attempt.js';

/** Records why the pod failed, updates its status and puts it back in the queue (FailureHandler). */
export function handleSchedulingFailure(ctx: CycleContext, attempt: Attempt, status: Status, nominating: NominatingInfo | null): void {
  const { qp, fwk } = attempt;
  const pod = qp.podInfo.pod;
  const reason = status.isRejected() ? 'Unschedulable' : 'SchedulerError';
  const err = status.error;
  if (err instanceof FitError) {
    qp.unschedulablePlugins = err.diagnosis.unschedulablePlugins;
    qp.pendingPlugins = err.diagnosis.pendingPlugins;
  } else {
    qp.unschedulablePlugins = new Set();
    qp.pendingPlugins = new Set();
  }
  const cached = ctx.client.getPod(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
  if (!cached || cached.spec.nodeName) {
    ctx.queue.done(qp.podInfo.uid);
  } else if (attempt.requeue) {
    qp.podInfo = new PodInfo(cached);
    ctx.queue.addUnschedulableIfNotPresent(qp);
  } else {
    qp.podInfo = qp.podInfo.withPod(cached);
  }
  ctx.queue.addNominatedPod(qp.podInfo, nominating);
  const msg = status.message();
  fwk.eventRecorder().event(pod, 'Warning', 'FailedScheduling', 'Scheduling', truncateMessage(msg));
  if (!cached) return;
  const condition: PodCondition = {
    type: 'PodScheduled',
    ...observedGenerationOf(cached),
    status: 'False',
    reason,
    message: msg,
    lastTransitionTime: new Date(ctx.clock.now()).toISOString(),
  };
  // As upstream's updatePod: patch only what changes (the condition, or an Override nomination).
  const prev = cached.status?.conditions?.find((c) => c.type === 'PodScheduled');
  const conditionChanged = !prev || prev.status !== condition.status || prev.reason !== condition.reason || prev.message !== condition.message;
  const nnnChanged = nominating?.mode === 'Override' && (cached.status?.nominatedNodeName ?? '') !== nominating.nominatedNodeName;
  if (!conditionChanged && !nnnChanged) return;
  const patch = { condition: conditionChanged ? condition : undefined, nominatedNodeName: nnnChanged ? nominating!.nominatedNodeName : undefined };
  ctx.client.updatePodStatus(cached, patch).catch((e: Error) => {
    ctx.log(1, `error updating pod ${podKey(pod)}: ${e.message}`);
  });
}

/** Event notes are limited to 1024 characters; upstream cuts longer ones and appends " ...". */
export function truncateMessage(msg: string): string {
  const max = 1024;
  if (msg.length <= max) return msg;
  const suffix = ' ...';
  return msg.slice(0, max - suffix.length) + suffix;
}
