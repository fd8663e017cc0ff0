// The binding cycle (schedule_one.go bindingCycle, bind, extendersBinding,
// handleBindingCycleError): WaitOnPermit, PreBind, Bind, PostBind, run beside the next pods'
// scheduling cycles; a failure unreserves, forgets the assumed pod and requeues it.
import { ActionType } from '../framework/events.js';
import type { PodInfo } from '../framework/pod_info.js';
import { thrownMessage } from '../framework/runtime/thrown.js';
import { Code, Status, isSuccess } from '../framework/status.js';
import { clearNominatedNode } from '../queue/nominator.js';
import { podKey, type Pod } from '../api/types.js';
import { bindingMayHaveLanded } from './binding_confirmation.js';
import { attemptRecord, finishAttempt, rejectionAsFitError, type Attempt, type CycleContext } from './attempt.js';
import { handleSchedulingFailure } from './failure_handler.js';
import type { ScheduleResult } from './schedule_pod.js';

/**
 * How the bind of a binding cycle ended: bound; failed (the pod is retried); not ours (deleted,
 * or bound to another node by another binder, while its binding was unconfirmed: nothing to
 * retry); or stopped (the scheduler stopped before the binding was confirmed).
 */
type BindEnd =
  | { readonly kind: 'bound' }
  | { readonly kind: 'failed'; readonly status: Status }
  | { readonly kind: 'notOurs'; readonly status: Status }
  | { readonly kind: 'stopped' };

const bound: BindEnd = { kind: 'bound' };
const failed = (status: Status): BindEnd => ({ kind: 'failed', status });

/** Forgetting an assumed pod frees its node's resources, as a deleted assigned pod would. */
const assignedPodDelete = { resource: 'AssignedPod', actionType: ActionType.Delete, label: 'AssignedPodDelete' } as const;

/** Runs the binding cycle of a reserved pod in the background, tracked in ctx.bindings. */
export function startBindingCycle(ctx: CycleContext, attempt: Attempt, result: ScheduleResult, assumed: PodInfo): void {
  ctx.onBindingStart?.(attemptRecord(ctx, attempt, null, result, null, ctx.monotonicSeconds() - attempt.start));
  const p = bindingCycle(ctx, attempt, result, assumed)
    .catch((err: unknown) => ctx.log(1, `binding cycle of pod ${attempt.qp.podInfo.key}: ${thrownMessage(err)}`))
    .finally(() => ctx.bindings.delete(p));
  ctx.bindings.add(p);
}

async function bindingCycle(ctx: CycleContext, attempt: Attempt, result: ScheduleResult, assumed: PodInfo): Promise<void> {
  const { fwk, state, qp } = attempt;
  const host = result.suggestedHost;
  let end: BindEnd;
  try {
    end = await bind(ctx, attempt, assumed, host);
  } catch (err) {
    // Not from a plugin (the runtime contains those): still, the pod must not stay assumed.
    end = failed(Status.fromThrown(err));
  }
  switch (end.kind) {
    case 'failed':
      handleBindingCycleError(ctx, attempt, assumed, result, end.status);
      return;
    case 'notOurs':
      releaseUnconfirmedBinding(ctx, attempt, assumed, result, end.status);
      return;
    case 'stopped':
      return;
    case 'bound':
      break;
  }
  ctx.cache.finishBinding(assumed.pod);
  finishAttempt(ctx, attempt, null, result, null);
  ctx.metrics?.observePodScheduled(qp.attempts, qp.initialAttemptTimestamp === null ? null : (ctx.clock.now() - qp.initialAttemptTimestamp) / 1000);
  fwk.eventRecorder().event(qp.podInfo.pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${qp.podInfo.key} to ${host}`);
  fwk.runPostBindPlugins(state, assumed, host);
  if (state.podsToActivate.size > 0) ctx.queue.activate(state.podsToActivate.values() as Iterable<Pod>);
}

/**
 * With NominatedNodeNameForExpectation, PreBind's pre-flight and the nomination of a pod that
 * will wait; then WaitOnPermit, PreBind and Bind.
 */
async function bind(ctx: CycleContext, attempt: Attempt, assumed: PodInfo, host: string): Promise<BindEnd> {
  const { fwk, state, qp } = attempt;
  // Without the gate there is no pre-flight: every PreBind plugin runs, as if each had work.
  let preFlight: Status | null = null;
  if (ctx.nominateInBindingCycle) {
    preFlight = fwk.runPreBindPreFlights(state, assumed, host);
    // A rejection is not a pre-flight answer: it counts as an error too.
    if (preFlight !== null && (preFlight.code === Code.Error || preFlight.isRejected())) return failed(preFlight);
    if (preFlight === null || fwk.willWaitOnPermit(assumed)) nominateBeforeBinding(ctx, qp.podInfo.pod, host);
  }
  let status: Status | null = await fwk.waitOnPermit(assumed);
  if (status !== null) return failed(rejectionAsFitError(qp.podInfo.pod, host, status));
  // Past Permit the pod can no longer be found unschedulable: a PreBind or Bind failure is an
  // error retried after backoff, so the queue stops recording events for it now.
  ctx.queue.done(qp.podInfo.uid);
  // While a PreBind with work runs, preemption cancels the binding instead of deleting the pod.
  const inPreBind = preFlight === null ? fwk.addPodInPreBind(qp.podInfo.uid) : null;
  try {
    // Preemption aborts the signal: the plugins stop waiting at once, as upstream cancels their context.
    status = await fwk.runPreBindPlugins(state, assumed, host, inPreBind?.signal);
    if (!isSuccess(status)) return failed(status!);
    if (inPreBind !== null && !inPreBind.markPrebound()) return failed(Status.error(inPreBind.cancelled!));
  } finally {
    if (inPreBind !== null) fwk.removePodInPreBind(qp.podInfo.uid);
  }
  return bindAfterPreBind(ctx, attempt, assumed, host);
}

/** Bind (an extender's or the Bind plugins'), confirming a Bind whose answer was lost. */
async function bindAfterPreBind(ctx: CycleContext, attempt: Attempt, assumed: PodInfo, host: string): Promise<BindEnd> {
  const b = (await bindByExtender(ctx, assumed, host)) ?? (await attempt.fwk.runBindPlugins(attempt.state, assumed, host));
  if (b.code === Code.Success) return bound;
  if (!bindingMayHaveLanded(b)) return failed(b);
  return confirmBinding(ctx, assumed, host, b);
}

/**
 * Writes the pod's nominatedNodeName before Permit's wait or PreBind's work, so that others (an
 * autoscaler) see where it is going. A failed write does not stop the binding.
 */
function nominateBeforeBinding(ctx: CycleContext, pod: Pod, host: string): void {
  if ((pod.status?.nominatedNodeName ?? '') === host) return;
  ctx.client.updatePodStatus(pod, { nominatedNodeName: host }).catch((err: unknown) => {
    ctx.log(1, `Failed to update the nominated node name in the binding cycle: pod ${podKey(pod)}, nominatedNodeName ${host}: ${thrownMessage(err)}`);
  });
}

/**
 * The Bind step got no answer it can trust (a broken connection, a timeout, a 5xx): the pod may
 * be bound. It stays assumed, its room taken, until a read of the pod or the informer tells.
 */
async function confirmBinding(ctx: CycleContext, assumed: PodInfo, host: string, status: Status): Promise<BindEnd> {
  ctx.log(2, `binding pod ${assumed.key} to ${host} got no trustworthy answer (${status.message()}); confirming with the API server`);
  const outcome = await ctx.confirmations.confirm(assumed.pod, host);
  switch (outcome.kind) {
    case 'bound':
      ctx.log(2, `pod ${assumed.key} is bound to ${host}: the binding landed although its answer was lost`);
      return bound;
    case 'unbound':
      return failed(status);
    case 'gone':
      return { kind: 'notOurs', status: Status.error(`pod ${assumed.key} was deleted before its binding to ${host} was confirmed`) };
    case 'boundElsewhere': {
      const msg = `pod ${assumed.key} is bound to ${outcome.node}, not ${host}: another binder bound it while its binding was unconfirmed`;
      ctx.log(1, msg);
      return { kind: 'notOurs', status: Status.error(msg) };
    }
    case 'stopped':
      return outcome;
  }
}

/**
 * The first interested extender with a bind verb binds the pod instead of the Bind plugins
 * (extendersBinding); null when none does. An ignorable extender's failure passes to the next.
 */
async function bindByExtender(ctx: CycleContext, assumed: PodInfo, host: string): Promise<Status | null> {
  const pod = assumed.pod;
  for (const extender of ctx.extenders.extenders) {
    if (!extender.isBinder() || !extender.isInterested(pod)) continue;
    try {
      await extender.bind({ podName: pod.metadata.name ?? '', podNamespace: pod.metadata.namespace ?? 'default', podUID: pod.metadata.uid ?? '', node: host });
      return new Status(Code.Success);
    } catch (err) {
      if (extender.isIgnorable()) {
        ctx.log(2, `Skipping extender ${extender.name()} in bind as it returned error and has ignorable flag set: ${thrownMessage(err)}`);
        continue;
      }
      return Status.fromThrown(err);
    }
  }
  return null;
}

/**
 * The pod was deleted, or bound elsewhere by another binder, before its binding was confirmed:
 * Unreserve and free its room here (unless the informer already settled the cache); nothing to retry.
 */
function releaseUnconfirmedBinding(ctx: CycleContext, attempt: Attempt, assumed: PodInfo, result: ScheduleResult, status: Status): void {
  const { fwk, state } = attempt;
  finishAttempt(ctx, attempt, status, result, null);
  fwk.runReservePluginsUnreserve(state, assumed, assumed.pod.spec.nodeName!);
  if (!ctx.cache.isAssumedPod(assumed.pod)) return;
  ctx.cache.forgetPod(assumed.pod);
  ctx.queue.moveAllToActiveOrBackoffQueue(assignedPodDelete, assumed.pod, null);
}

/** Unreserve, forget the assumed pod, wake pods its resources may help, requeue it (handleBindingCycleError). */
function handleBindingCycleError(ctx: CycleContext, attempt: Attempt, assumed: PodInfo, result: ScheduleResult, status: Status): void {
  const { fwk, state } = attempt;
  const host = assumed.pod.spec.nodeName!;
  finishAttempt(ctx, attempt, status, result, clearNominatedNode);
  fwk.runReservePluginsUnreserve(state, assumed, host);
  let forgotten = true;
  try {
    ctx.cache.forgetPod(assumed.pod);
  } catch (err) {
    forgotten = false;
    ctx.log(1, `forget pod ${assumed.key}: ${thrownMessage(err)}`);
  }
  if (forgotten && !status.isRejected()) ctx.queue.moveAllToActiveOrBackoffQueue(assignedPodDelete, assumed.pod, null);
  handleSchedulingFailure(ctx, attempt, status, clearNominatedNode);
  // A rejected pod is moved after it is back in the queue and without itself, so this event
  // does not count as one that arrived while it was in flight.
  if (forgotten && status.isRejected()) {
    ctx.queue.moveAllToActiveOrBackoffQueue(assignedPodDelete, assumed.pod, null, (p) => p.metadata.uid !== assumed.uid);
  }
}
