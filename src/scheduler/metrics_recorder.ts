// What the scheduler reports for metrics beside the framework's (schedule_one.go,
// metrics/profile_metrics.go, the queue's incoming-pods counter): one recorder serves both.
import type { MetricsRecorder } from '../framework/metrics_recorder.js';

export type AttemptResult = 'scheduled' | 'unschedulable' | 'error';
export type IncomingQueue = 'active' | 'backoff' | 'unschedulable' | 'gated';

export interface SchedulerMetricsRecorder extends MetricsRecorder {
  /**
   * Whether a plugin duration observed now would be kept. Upstream hands these to an asynchronous
   * recorder that buffers 1,000 between its flushes, once a second, and drops the rest
   * (metrics/metric_recorder.go); a sampled cycle that starts when they would be dropped is not timed.
   */
  pluginDurationWanted(): boolean;
  /** scheduler_schedule_attempts_total and scheduler_scheduling_attempt_duration_seconds */
  observeAttempt(result: AttemptResult, profile: string, seconds: number): void;
  /** scheduler_scheduling_algorithm_duration_seconds */
  observeAlgorithmDuration(seconds: number): void;
  /** scheduler_pod_scheduling_attempts and scheduler_pod_scheduling_sli_duration_seconds */
  observePodScheduled(attempts: number, sinceFirstSeconds: number | null): void;
  /** scheduler_queue_incoming_pods_total */
  observeQueueIncoming(queue: IncomingQueue, event: string): void;
  /**
   * scheduler_podgroup_schedule_attempts_total and scheduler_podgroup_scheduling_attempt_duration_seconds
   * (GenericWorkload: registered on a first pod group's cycle, as upstream registers them only with the gate on).
   */
  observePodGroupAttempt?(result: AttemptResult, profile: string, seconds: number): void;
  /** scheduler_podgroup_scheduling_algorithm_duration_seconds */
  observePodGroupAlgorithmDuration?(seconds: number): void;
  /** scheduler_generated_placements_total (TopologyAwareWorkloadScheduling) */
  observeGeneratedPlacements?(profile: string, count: number): void;
  /** scheduler_placement_evaluations_total and scheduler_placement_evaluation_duration_seconds */
  observePlacementEvaluation?(result: PlacementEvaluationResult, profile: string, seconds: number): void;
  /**
   * scheduler_async_api_call_execution_total and scheduler_async_api_call_execution_duration_seconds
   * (SchedulerAsyncAPICalls: made on a first call, as upstream registers them only with the gate on).
   */
  observeAsyncAPICall?(callType: APICallType, result: APICallResult, seconds: number): void;
  /** scheduler_pending_async_api_calls, moved by `delta`. */
  addPendingAsyncAPICalls?(callType: APICallType, delta: number): void;
}

/** The API calls upstream's dispatcher runs (pkg/scheduler/framework/api_calls). */
export type APICallType = 'pod_status_patch' | 'pod_binding';
/** How a dispatched call ended (metrics.GoroutineResultSuccess / GoroutineResultError). */
export type APICallResult = 'success' | 'error';

/** Whether the whole group fit into a placement it was tried on. */
export type PlacementEvaluationResult = 'feasible' | 'infeasible';
