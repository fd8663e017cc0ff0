// What the framework runtime and plugins report for metrics (runtime/metrics_recorder.go and the
// framework's use of pkg/scheduler/metrics). The runtime calls it only when one is configured;
// without one, measuring costs one null check per extension point.
import type { CodeName } from './status.js';

/** Share of scheduling cycles whose plugin calls are timed (pluginMetricsSamplePercent). */
export const pluginMetricsSamplePercent = 10;

/** Extension points as upstream's metrics label them. */
export type ExtensionPointLabel =
  | 'PreFilter' | 'Filter' | 'PreFilterExtensionAddPod' | 'PreFilterExtensionRemovePod' | 'PostFilter'
  | 'PreScore' | 'Score' | 'ScoreExtensionNormalize' | 'Reserve' | 'Unreserve' | 'Permit'
  | 'PreBind' | 'Bind' | 'PostBind';

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
}
