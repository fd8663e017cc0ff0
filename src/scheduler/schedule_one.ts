// The scheduling cycle (schedule_one.go ScheduleOne, schedulingCycle): pop a pod, run the
// algorithm on a fresh snapshot, PostFilter when no node fits, then assume, Reserve and Permit
// and hand the pod to its binding cycle. Synchronous unless an extender or a PostFilter plugin
// waits for I/O.
import type { Pod } from '../api/types.js';
import { podKey } from '../api/types.js';
import { CycleDiagnosis } from '../framework/cycle_diagnosis.js';
import { CycleState } from '../framework/cycle_state.js';
import { ErrNoNodesAvailable, FitError } from '../framework/runtime/fit_error.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';
import { andThen, type MaybePromise } from '../util/maybe_promise.js';
import { shallowCopy } from '../util/shallow_copy.js';
import { pluginMetricsSamplePercent } from '../framework/metrics_recorder.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Framework, PostFilterRunResult } from '../framework/runtime/framework.js';
import { Code, Status, isSuccess } from '../framework/status.js';
import { thrownMessage } from '../framework/runtime/thrown.js';
import { clearNominatedNode, type NominatingInfo } from '../queue/nominator.js';
import { finishAttempt, rejectionAsFitError, type Attempt, type CycleContext } from './attempt.js';
import { startBindingCycle } from './binding_cycle.js';
import { handleSchedulingFailure } from './failure_handler.js';
import { schedulePod, type ScheduleResult } from './schedule_pod.js';

/** What a scheduling cycle ends with: a reserved pod to bind, or the status it failed with. */
export interface CycleOutcome {
  result: ScheduleResult | null;
  assumed: PodInfo | null;
  status: Status | null;
  nominating: NominatingInfo | null;
}

/**
 * Pops one pod and runs its scheduling cycle; the binding cycle goes on in the background.
 * False when there was no pod, a promise while the cycle waits for I/O (the loop pops nothing
 * meanwhile), else true. Nothing the cycle throws escapes: the pod is retried.
 */
export function scheduleOne(ctx: CycleContext): boolean | Promise<void> {
  const qp = ctx.queue.pop();
  if (!qp) return false;
  if (qp.group && ctx.scheduleGroup !== null) {
    const group = ctx.scheduleGroup(qp);
    return group instanceof Promise ? group : true;
  }
  let cycle: MaybePromise<void>;
  try {
    cycle = schedulingCycle(ctx, qp, true);
  } catch (err) {
    cycleCrashed(ctx, qp, err);
    return true;
  }
  return cycle instanceof Promise ? cycle.catch((err: unknown) => cycleCrashed(ctx, qp, err)) : true;
}

/** One attempt for a pod outside the queue's order (explain); a failed pod is not requeued. */
export function attemptOnce(ctx: CycleContext, pod: Pod): MaybePromise<void> {
  const qp: QueuedPodInfo = {
    podInfo: new PodInfo(pod),
    timestamp: ctx.clock.now(),
    attempts: 1,
    initialAttemptTimestamp: ctx.clock.now(),
    unschedulablePlugins: new Set(),
    pendingPlugins: new Set(),
    gatingPlugin: null,
  };
  // It counts as a cycle, as a pop would: batching reuses rankings between consecutive ones.
  ctx.queue.schedulingCycle++;
  return schedulingCycle(ctx, qp, false);
}

/** The scheduling cycle: synchronous unless an extender is asked (then a promise). */
function schedulingCycle(ctx: CycleContext, qp: QueuedPodInfo, requeue: boolean): MaybePromise<void> {
  const fwk = startAttempt(ctx, qp);
  if (fwk === null) return;
  const attempt: Attempt = { qp, fwk, state: new CycleState(), start: ctx.monotonicSeconds(), requeue, victims: [] };
  // Plugin calls are timed in a sample of cycles, drawn only when metrics are on so that
  // simulations keep their random sequence; not while the recorder would drop their durations
  // (then the cycle walks as an unsampled one).
  if (ctx.metrics !== null) attempt.state.recordPluginMetrics = ctx.random() * 100 < pluginMetricsSamplePercent && ctx.metrics.pluginDurationWanted();
  if (ctx.diagnose) attempt.state.diagnosis = new CycleDiagnosis();
  // No other scheduling cycle runs until this one ends, so the snapshot stays as found.
  ctx.cache.updateSnapshot(ctx.snapshot);
  let found: MaybePromise<ScheduleResult>;
  try {
    found = schedulePod(ctx.alg, fwk, attempt.state, qp.podInfo, ctx.snapshot, ctx.extenders, ctx.queue.schedulingCycle);
  } catch (err) {
    return andThen(algorithmFailed(ctx, attempt, err), (o) => finishSchedulingCycle(ctx, attempt, o));
  }
  if (found instanceof Promise) {
    return found.then(
      (r) => finishSchedulingCycle(ctx, attempt, assumeAndReserve(ctx, attempt, r)),
      (err: unknown) => andThen(algorithmFailed(ctx, attempt, err), (o) => finishSchedulingCycle(ctx, attempt, o)),
    );
  }
  return finishSchedulingCycle(ctx, attempt, assumeAndReserve(ctx, attempt, found));
}

/** The profile to schedule the pod with, or null when the attempt ends before it starts. */
export function startAttempt(ctx: CycleContext, qp: QueuedPodInfo): Framework | null {
  const pod = qp.podInfo.pod;
  const fwk = ctx.profiles.get(pod.spec.schedulerName ?? 'default-scheduler');
  if (!fwk) {
    ctx.queue.done(qp.podInfo.uid);
    return null;
  }
  if (pod.metadata.deletionTimestamp) {
    fwk.eventRecorder().event(pod, 'Warning', 'FailedScheduling', 'Scheduling', `skip schedule deleting pod: ${qp.podInfo.key}`);
    ctx.queue.done(qp.podInfo.uid);
    return null;
  }
  // An assumed pod can come back to the queue through an update received before it was assumed.
  if (ctx.cache.isAssumedPod(pod)) {
    ctx.queue.done(qp.podInfo.uid);
    return null;
  }
  return fwk;
}

/** A cycle that threw outside any plugin: logged, and the pod retried after backoff. */
export function cycleCrashed(ctx: CycleContext, qp: QueuedPodInfo, err: unknown): void {
  ctx.log(1, `Error scheduling pod ${qp.podInfo.key}; retrying: ${thrownMessage(err)}`);
  qp.unschedulablePlugins = new Set();
  qp.pendingPlugins = new Set();
  ctx.queue.addUnschedulableIfNotPresent(qp);
}

/** Starts the binding cycle, or reports the failure and puts the pod back. */
export function finishSchedulingCycle(ctx: CycleContext, attempt: Attempt, outcome: CycleOutcome): void {
  const { result, assumed, status, nominating } = outcome;
  if (!isSuccess(status)) {
    finishAttempt(ctx, attempt, status, result, nominating);
    handleSchedulingFailure(ctx, attempt, status!, nominating);
    return;
  }
  startBindingCycle(ctx, attempt, result!, assumed!);
}

/** The scheduling algorithm found no node (FitError: PostFilter may nominate one) or failed. */
function algorithmFailed(ctx: CycleContext, attempt: Attempt, err: unknown): MaybePromise<CycleOutcome> {
  if (err === ErrNoNodesAvailable) {
    return { result: null, assumed: null, status: new Status(Code.UnschedulableAndUnresolvable, [(err as Error).message], err as Error), nominating: clearNominatedNode };
  }
  if (!(err instanceof FitError)) {
    return { result: null, assumed: null, status: Status.fromThrown(err), nominating: clearNominatedNode };
  }
  if (!attempt.fwk.hasPostFilterPlugins()) {
    return { result: null, assumed: null, status: new Status(Code.Unschedulable, [err.message], err), nominating: clearNominatedNode };
  }
  const { fwk, state, qp } = attempt;
  return andThen(fwk.runPostFilterPlugins(state, qp.podInfo, err.diagnosis.nodeToStatus), (post) => afterPostFilter(ctx, attempt, err, post));
}

/** The FitError with PostFilter's message, the node PostFilter nominated and the victims it evicts. */
function afterPostFilter(ctx: CycleContext, attempt: Attempt, err: FitError, post: PostFilterRunResult): CycleOutcome {
  err.diagnosis.postFilterMsg = post.status.message();
  if (post.status.code === Code.Error) ctx.log(1, `PostFilter error for pod ${attempt.qp.podInfo.key}: ${post.status.message()}`);
  const victims = post.result?.victims;
  if (victims !== undefined && victims.length > 0) attempt.victims = victims.map(podKey);
  const nominating: NominatingInfo | null = post.result ? { mode: 'Override', nominatedNodeName: post.result.nominatedNodeName } : null;
  return { result: null, assumed: null, status: new Status(Code.Unschedulable, [err.message], err), nominating };
}

/** Assumes the pod on the chosen host, then Reserve and Permit (the rest of the scheduling cycle). */
export function assumeAndReserve(ctx: CycleContext, attempt: Attempt, result: ScheduleResult): CycleOutcome {
  const { qp, fwk, state } = attempt;
  const podInfo = qp.podInfo;
  ctx.metrics?.observeAlgorithmDuration(ctx.monotonicSeconds() - attempt.start);
  const host = result.suggestedHost;
  const assumedPod: Pod = { ...podInfo.pod, spec: withNodeName(podInfo.pod.spec, host) };
  const assumed = podInfo.withPod(assumedPod);
  try {
    ctx.cache.assumePod(assumed);
  } catch (err) {
    return { result, assumed, status: Status.error(err as Error), nominating: clearNominatedNode };
  }
  // The assumed pod no longer holds a nomination: it now occupies its node in the cache.
  ctx.queue.nominator.delete(assumed);
  const reserve = fwk.runReservePluginsReserve(state, assumed, host);
  if (!isSuccess(reserve)) {
    fwk.runReservePluginsUnreserve(state, assumed, host);
    ctx.cache.forgetPod(assumedPod);
    return { result, assumed, status: rejectionAsFitError(podInfo.pod, host, reserve!), nominating: clearNominatedNode };
  }
  const permit = fwk.runPermitPlugins(state, assumed, host);
  if (permit !== null && permit.code !== Code.Wait && permit.code !== Code.Success) {
    fwk.runReservePluginsUnreserve(state, assumed, host);
    ctx.cache.forgetPod(assumedPod);
    return { result, assumed, status: rejectionAsFitError(podInfo.pod, host, permit), nominating: clearNominatedNode };
  }
  if (state.podsToActivate.size > 0) {
    ctx.queue.activate(state.podsToActivate.values() as Iterable<Pod>);
    state.podsToActivate.clear();
  }
  return { result, assumed, status: null, nominating: null };
}

/**
 * The spec of a pod assumed on `nodeName`. Not `{ ...spec, nodeName }`: a spread given a key the
 * source lacks makes a hidden class per pod (util/shallow_copy.ts).
 */
export function withNodeName(spec: Pod['spec'], nodeName: string): Pod['spec'] {
  const out = shallowCopy(spec);
  out.nodeName = nodeName;
  return out;
}
