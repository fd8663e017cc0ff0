// One scheduling attempt as schedule_one.go carries it through the scheduling and binding cycles,
// what those cycles need of the Scheduler, and how an attempt's outcome is reported.
import type { Pod } from '../api/types.js';
import type { Cache } from '../cache/cache.js';
import type { Snapshot } from '../cache/snapshot.js';
import type { ClusterClient } from '../cluster/types.js';
import type { CycleState } from '../framework/cycle_state.js';
import type { PreemptionDiagnosis } from '../framework/cycle_diagnosis.js';
import { Diagnosis, FitError } from '../framework/runtime/fit_error.js';
import type { QueuedPodInfo, RequeueCause } from '../framework/interfaces.js';
import type { Framework } from '../framework/runtime/framework.js';
import { Status } from '../framework/status.js';
import type { NominatingInfo } from '../queue/nominator.js';
import type { SchedulingQueue } from '../queue/scheduling_queue.js';
import type { Clock } from '../util/clock.js';
import type { MaybePromise } from '../util/maybe_promise.js';
import type { BindingConfirmations } from './binding_confirmation.js';
import type { AttemptResult, SchedulerMetricsRecorder } from './metrics_recorder.js';
import type { AlgorithmState, ExtenderSet, ScheduleResult } from './schedule_pod.js';
import type { CompositePlacementRecord } from './composite_algorithm.js';

/** What one scheduling attempt found, for explain and reports. */
export interface AttemptRecord {
  readonly pod: Pod;
  readonly outcome: 'Scheduled' | 'Unschedulable' | 'Error';
  readonly node: string;
  readonly message: string;
  readonly result: ScheduleResult | null;
  readonly diagnosis: Diagnosis | null;
  readonly nominatedNode: string;
  /** The pods the attempt's preemption evicts (namespace/name), from PostFilter's result. */
  readonly victims: readonly string[];
  /** What preemption found per node (a diagnosed attempt that ran PostFilter), else null. */
  readonly preemption: PreemptionDiagnosis | null;
  /** What requeued the pod for this attempt; null for its first. */
  readonly requeuedBy: RequeueCause | null;
  readonly attempt: number;
  readonly time: number;
  /** From the start of the scheduling cycle to the end of the attempt (binding included), in seconds. */
  readonly durationSeconds: number;
  /** The plugin the failing status names ('' when none, or when scheduled). */
  readonly plugin?: string;
}

/** One attempt in flight: its pod, profile, cycle state and what it has found so far. */
export interface Attempt {
  readonly qp: QueuedPodInfo;
  readonly fwk: Framework;
  readonly state: CycleState;
  /** Monotonic seconds at the start of the scheduling cycle. */
  readonly start: number;
  /** False for explain's single attempts: a failed pod is not put back in the queue. */
  readonly requeue: boolean;
  /** The victims of the preemption PostFilter started for this pod (its result), else empty. */
  victims: readonly string[];
}

/** What the scheduling and binding cycles read and write through the cluster client. */
type CycleClient = Pick<ClusterClient, 'getPod' | 'updatePodStatus' | 'updatePodGroupStatus'>;

/** What the scheduling and binding cycles use of the Scheduler that runs them. */
export interface CycleContext {
  readonly cache: Cache;
  readonly queue: SchedulingQueue;
  readonly snapshot: Snapshot;
  readonly profiles: ReadonlyMap<string, Framework>;
  readonly alg: AlgorithmState;
  readonly extenders: ExtenderSet;
  readonly metrics: SchedulerMetricsRecorder | null;
  readonly monotonicSeconds: () => number;
  readonly clock: Clock;
  /** The writes of the cycles; pod status patches go through the API dispatcher's metrics when it records them. */
  readonly client: CycleClient;
  readonly random: () => number;
  /** NominatedNodeNameForExpectation: the binding cycle nominates a pod that will wait for Permit or PreBind. */
  readonly nominateInBindingCycle: boolean;
  /** Diagnose every attempt (SchedulerDeps.diagnose). */
  readonly diagnose: boolean;
  readonly onAttempt: ((a: AttemptRecord) => void) | undefined;
  /** A scheduled attempt's record as its binding cycle starts (SchedulerDeps.onBindingStart). */
  readonly onBindingStart: ((a: AttemptRecord) => void) | undefined;
  /** Each composite's placements as its cycle tries them (SchedulerDeps.onCompositePlacements). */
  readonly onCompositePlacements: ((r: CompositePlacementRecord) => void) | undefined;
  /** Bindings whose answer was lost, until the API server or the informer says where the pod is. */
  readonly confirmations: BindingConfirmations;
  /** Binding cycles in flight. */
  readonly bindings: Set<Promise<void>>;
  /** A pod group's cycle (GenericWorkload), set once the scheduler has built it; null without the gate. */
  scheduleGroup: ((entity: QueuedPodInfo) => MaybePromise<void>) | null;
  log(level: number, msg: string): void;
}

/** Reports an attempt's final outcome: metrics, then the onAttempt record. */
export function finishAttempt(ctx: CycleContext, attempt: Attempt, status: Status | null, result: ScheduleResult | null, nominating: NominatingInfo | null): void {
  const seconds = ctx.monotonicSeconds() - attempt.start;
  const outcome = outcomeOf(status);
  if (ctx.metrics !== null) {
    const r: AttemptResult = outcome === 'Scheduled' ? 'scheduled' : outcome === 'Unschedulable' ? 'unschedulable' : 'error';
    ctx.metrics.observeAttempt(r, attempt.fwk.profileName, seconds);
  }
  ctx.onAttempt?.(attemptRecord(ctx, attempt, status, result, nominating, seconds));
}

const outcomeOf = (status: Status | null): AttemptRecord['outcome'] => (status === null ? 'Scheduled' : status.isRejected() ? 'Unschedulable' : 'Error');

/** What an attempt found, as onAttempt and onBindingStart report it. */
export function attemptRecord(ctx: CycleContext, attempt: Attempt, status: Status | null, result: ScheduleResult | null, nominating: NominatingInfo | null, seconds: number): AttemptRecord {
  const err = status?.error;
  return {
    pod: attempt.qp.podInfo.pod,
    outcome: outcomeOf(status),
    node: status === null ? result!.suggestedHost : '',
    message: status === null ? '' : status.message(),
    result,
    diagnosis: result?.diagnosis ?? (err instanceof FitError ? err.diagnosis : null),
    nominatedNode: nominating?.mode === 'Override' ? nominating.nominatedNodeName : '',
    victims: attempt.victims,
    preemption: attempt.state.diagnosis?.preemption ?? null,
    requeuedBy: attempt.qp.requeuedBy ?? null,
    attempt: attempt.qp.attempts,
    time: ctx.clock.now(),
    durationSeconds: seconds,
    plugin: status?.plugin ?? '',
  };
}

/** A rejection at Reserve/Permit/WaitOnPermit is reported as a FitError on that one node. */
export function rejectionAsFitError(pod: Pod, host: string, s: Status): Status {
  if (!s.isRejected()) return s;
  const d = new Diagnosis();
  d.nodeToStatus.set(host, s);
  d.addPluginStatus(s);
  const fe = new FitError(pod, 1, d);
  return new Status(s.code, [fe.message], fe).withPlugin(s.plugin);
}
