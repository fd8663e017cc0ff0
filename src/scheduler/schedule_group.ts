// The pod-group half of upstream's pkg/scheduler/schedule_one.go (scheduleOnePodGroup): a queued
// group entity runs PodGroupCycle over the same single-pod steps as schedule_one.ts.
import type { PodGroup } from '../api/scheduling.js';
import type { PodGroupStates } from '../cache/pod_group_state.js';
import { CycleDiagnosis } from '../framework/cycle_diagnosis.js';
import { CycleState } from '../framework/cycle_state.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';
import { thrownMessage } from '../framework/runtime/thrown.js';
import type { Status } from '../framework/status.js';
import type { MaybePromise } from '../util/maybe_promise.js';
import type { Attempt, CycleContext } from './attempt.js';
import { PodGroupCycle } from './pod_group_cycle.js';
import { initiallyScheduledCondition, withCondition } from './pod_group_status.js';
import { assumeAndReserve, cycleCrashed, finishSchedulingCycle, startAttempt, type CycleOutcome } from './schedule_one.js';
import { schedulePod } from './schedule_pod.js';

/**
 * What runs a popped group entity: its cycle (a promise while it waits for evictions), and when
 * that throws outside any plugin, every member still in flight retried and the group requeued as one.
 */
export function groupScheduler(ctx: CycleContext, podGroups: PodGroupStates): (entity: QueuedPodInfo) => MaybePromise<void> {
  const cycle = newGroupCycle(ctx, podGroups);
  const crashed = (entity: QueuedPodInfo, err: unknown): void => {
    ctx.log(1, `Error scheduling pod group ${entity.group!.namespace}/${entity.group!.name}; retrying: ${thrownMessage(err)}`);
    for (const m of entity.group!.members) if (ctx.queue.whereIs(m.podInfo.uid) === 'inFlight') cycleCrashed(ctx, m, err);
    ctx.queue.addAttemptedPodGroupIfNeeded(entity, false);
  };
  return (entity) => {
    let done: MaybePromise<void>;
    try {
      done = cycle.schedule(entity);
    } catch (err) {
      crashed(entity, err);
      return;
    }
    if (done instanceof Promise) return done.catch((err: unknown) => crashed(entity, err));
  };
}

function newGroupCycle(ctx: CycleContext, podGroups: PodGroupStates): PodGroupCycle<Attempt> {
  return new PodGroupCycle<Attempt>({
    cache: ctx.cache,
    snapshot: ctx.snapshot,
    queue: ctx.queue,
    podGroups,
    profileOf: (pod) => ctx.profiles.get(pod.spec.schedulerName ?? 'default-scheduler'),
    skipMember: (qp) => startAttempt(ctx, qp) === null,
    newAttempt: (qp, fwk) => {
      const attempt: Attempt = { qp, fwk, state: new CycleState(), start: ctx.monotonicSeconds(), requeue: true, victims: [] };
      if (ctx.diagnose) attempt.state.diagnosis = new CycleDiagnosis();
      return attempt;
    },
    stateOf: (attempt) => attempt.state,
    attemptOf: (attempt) => attempt.qp,
    findNode: (attempt) => schedulePod(ctx.alg, attempt.fwk, attempt.state, attempt.qp.podInfo, ctx.snapshot, ctx.extenders, ctx.queue.schedulingCycle),
    assumeAndReserve: (attempt, result) => assumeAndReserve(ctx, attempt, result),
    finishSchedulingCycle: (attempt, outcome) => finishSchedulingCycle(ctx, attempt, outcome as CycleOutcome),
    noteVictims: (attempt, victims) => {
      attempt.victims = victims;
    },
    failMember: (attempt, status, nominating) => finishSchedulingCycle(ctx, attempt, { result: null, assumed: null, status, nominating }),
    reportGroup: (pg, status) => writeGroupCondition(ctx, podGroups, pg, status),
    monotonicSeconds: () => ctx.monotonicSeconds(),
    metrics: ctx.metrics,
    random: () => ctx.random(),
    tieBreakByName: ctx.alg.tieBreakByName,
    onCompositePlacements: ctx.onCompositePlacements,
    log: (level, msg) => ctx.log(level, msg),
  });
}

/** Writes the group's PodGroupInitiallyScheduled condition, when the client can and it changes. */
function writeGroupCondition(ctx: CycleContext, podGroups: PodGroupStates, pg: PodGroup, status: Status | null): void {
  const write = ctx.client.updatePodGroupStatus;
  if (!write) return;
  // The informer's latest copy: the queue's may predate an earlier cycle's write.
  const latest = podGroups.podGroup(pg.metadata.namespace ?? 'default', pg.metadata.name ?? '') ?? pg;
  const next = withCondition(latest, initiallyScheduledCondition(status, new Date(ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z')));
  if (next === null) return;
  write.call(ctx.client, { ...latest, status: next }).catch((e: Error) => {
    ctx.log(1, `error updating pod group ${pg.metadata.namespace ?? 'default'}/${pg.metadata.name ?? ''}: ${e.message}`);
  });
}
