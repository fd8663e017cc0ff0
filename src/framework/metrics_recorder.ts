// What the framework runtime and plugins report for metrics (runtime/metrics_recorder.go and the
// framework's use of pkg/scheduler/metrics). The runtime calls it only when one is configured;
// without one, measuring costs one null check per extension point.
import type { ExtensionPointLabel } from '../api/extension_points.js';
import type { CodeName } from './status.js';

/** Share of scheduling cycles whose plugin calls are timed (pluginMetricsSamplePercent). */
export const pluginMetricsSamplePercent = 10;

/** Extension points as upstream's metrics label them, derived from the extension point table. */
export type { ExtensionPointLabel };

export interface MetricsRecorder {
  /** scheduler_framework_extension_point_duration_seconds */
  observeExtensionPointDuration(extensionPoint: ExtensionPointLabel, status: CodeName, profile: string, seconds: number): void;
  /** scheduler_plugin_execution_duration_seconds (sampled cycles only) */
  observePluginDuration(plugin: string, extensionPoint: ExtensionPointLabel, status: CodeName, seconds: number): void;
  /** scheduler_permit_wait_duration_seconds */
  observePermitWaitDuration(result: CodeName, seconds: number): void;
  /** scheduler_preemption_attempts_total */
  observePreemptionAttempt(): void;
  /** scheduler_preemption_victims */
  observePreemptionVictims(count: number): void;
  /** scheduler_preemption_pdb_violations_total: PodDisruptionBudgets the chosen victims violate. */
  observePreemptionPDBViolations(preemptor: string, count: number): void;
  /**
   * scheduler_preemption_execution_duration_seconds by preemptor type and result; a background
   * (asynchronous) one also counts in scheduler_preemption_goroutines_execution_total and
   * scheduler_preemption_goroutines_duration_seconds.
   */
  observePreemptionExecution(preemptor: string, result: 'success' | 'error', seconds: number, background: boolean): void;
  /**
   * dynamic_resource_allocation_resourceclaim_creates_total: a claim DynamicResources created (the
   * claim for a pod's extended resources), by outcome.
   */
  observeResourceClaimCreate(status: 'success' | 'failure', adminAccess: boolean, ownerApiGroup: string, ownerApiKind: string): void;
  /** scheduler_batch_attempts_total: what opportunistic batching did for a cycle. */
  observeBatchAttempt(profile: string, result: BatchAttemptResult): void;
  /** scheduler_batch_cache_flushed_total: why a stored ranking was not reused. */
  observeBatchCacheFlush(profile: string, reason: BatchFlushReason): void;
  /** scheduler_batch_rescore_attempts_total and scheduler_batch_rescore_duration_seconds */
  observeBatchRescore(profile: string, seconds: number): void;
  /** scheduler_get_node_hint_duration_seconds */
  observeGetNodeHint(hinted: 'hint' | 'no_hint', profile: string, seconds: number): void;
  /** scheduler_store_schedule_results_duration_seconds */
  observeStoreScheduleResults(profile: string, seconds: number): void;
}

/** scheduler_batch_attempts_total's result label. */
export type BatchAttemptResult = 'no_hint' | 'hint_used' | 'hint_not_used';

/** scheduler_batch_cache_flushed_total's reason label (metrics.BatchFlush*). */
export type BatchFlushReason =
  | 'pod_failed' | 'pod_skipped' | 'pod_nominated' | 'node_missing' | 'empty_list' | 'expired'
  | 'pod_incompatible' | 'pod_not_batchable' | 'filter_error' | 'prescore_error' | 'rescore_error' | 'normalize_error';
