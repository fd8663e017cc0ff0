// Prometheus metrics with upstream's names, help texts, labels and buckets
// (pkg/scheduler/metrics/metrics.go, profile_metrics.go; client-go leader election's
// leader_election_master_status), in a registry of their own.
import { Counter, Gauge, Histogram, Registry, exponentialBuckets } from 'prom-client';
import type { BatchAttemptResult, BatchFlushReason, ExtensionPointLabel } from '../framework/metrics_recorder.js';
import type { CodeName } from '../framework/status.js';
import { AsyncRecorderBuffer } from './async_recorder_buffer.js';
import { SeriesCounter } from './series_counter.js';
import { SeriesHistogram } from './series_histogram.js';
import type { APICallResult, APICallType, AttemptResult, IncomingQueue, PlacementEvaluationResult, SchedulerMetricsRecorder } from '../scheduler/metrics_recorder.js';

export type { AttemptResult } from '../scheduler/metrics_recorder.js';

/** Values the scrape reads from the running scheduler. */
export interface MetricsSources {
  pendingCounts(): { active: number; backoff: number; unschedulable: number; gated: number };
  bindingsInFlight(): number;
  cacheSize(): { nodes: number; pods: number };
}

/** Attempts label of pod_scheduling_sli_duration_seconds: 15 and more are one bucket (getAttemptsLabel). */
export function attemptsLabel(attempts: number): string {
  return attempts >= 15 ? '15+' : String(attempts);
}

/** The Prometheus registry of the scheduler's metrics; it is the recorder the scheduler and its frameworks report to. */
export class SchedulerMetrics implements SchedulerMetricsRecorder {
  readonly registry = new Registry();
  private sources: MetricsSources | null = null;
  private readonly asyncBuffer: AsyncRecorderBuffer;

  readonly scheduleAttempts = new SeriesCounter({
    name: 'scheduler_schedule_attempts_total',
    help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
    labelNames: ['result', 'profile'] as const,
    registers: [this.registry],
  });

  readonly schedulingAttemptDuration = new SeriesHistogram({
    name: 'scheduler_scheduling_attempt_duration_seconds',
    help: 'Scheduling attempt latency in seconds (scheduling algorithm + binding)',
    labelNames: ['result', 'profile'] as const,
    buckets: exponentialBuckets(0.001, 2, 15),
    registers: [this.registry],
  });

  readonly schedulingAlgorithmDuration = new SeriesHistogram({
    name: 'scheduler_scheduling_algorithm_duration_seconds',
    help: 'Scheduling algorithm latency in seconds',
    buckets: exponentialBuckets(0.001, 2, 15),
    registers: [this.registry],
  });

  readonly preemptionVictims = new Histogram({
    name: 'scheduler_preemption_victims',
    help: 'Number of selected preemption victims for preemption initiated by a single pod',
    buckets: exponentialBuckets(1, 2, 7),
    registers: [this.registry],
  });

  readonly preemptionExecutionDuration = new Histogram({
    name: 'scheduler_preemption_execution_duration_seconds',
    help: 'Duration in seconds for preempting the target preemption victims. With async preemption enabled, preemption execution does not block the scheduling of other pods.',
    labelNames: ['preemptor', 'result'] as const,
    buckets: exponentialBuckets(0.001, 2, 16),
    registers: [this.registry],
  });

  readonly preemptionGoroutinesDuration = new Histogram({
    name: 'scheduler_preemption_goroutines_duration_seconds',
    help: 'Duration in seconds for running goroutines for the preemption.',
    labelNames: ['result'] as const,
    buckets: exponentialBuckets(0.01, 2, 20),
    registers: [this.registry],
  });

  readonly preemptionGoroutinesExecutions = new Counter({
    name: 'scheduler_preemption_goroutines_execution_total',
    help: 'Number of preemption goroutines executed.',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly preemptionPDBViolations = new Counter({
    name: 'scheduler_preemption_pdb_violations_total',
    help: 'Total number of pod disruption budget violations caused by preemption.',
    labelNames: ['preemptor'] as const,
    registers: [this.registry],
  });

  readonly preemptionAttempts = new Counter({
    name: 'scheduler_preemption_attempts_total',
    help: 'Total preemption attempts in the cluster till now',
    registers: [this.registry],
  });

  readonly resourceClaimCreates = new Counter({
    name: 'dynamic_resource_allocation_resourceclaim_creates_total',
    help: 'Number of ResourceClaims creation requests, categorized by creation status, admin access, and owning API group and kind (either Pod or scheduling.k8s.io/PodGroup)',
    labelNames: ['status', 'admin_access', 'owner_api_group', 'owner_api_kind'] as const,
    registers: [this.registry],
  });

  readonly pendingPods: Gauge<'queue'>;
  readonly goroutines: Gauge<'operation'>;
  readonly cacheSize: Gauge<'type'>;

  readonly podSchedulingSLIDuration = new SeriesHistogram({
    name: 'scheduler_pod_scheduling_sli_duration_seconds',
    help: 'E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue and might involve multiple scheduling attempts.',
    labelNames: ['attempts'] as const,
    buckets: exponentialBuckets(0.01, 2, 20),
    registers: [this.registry],
  });

  readonly podSchedulingAttempts = new SeriesHistogram({
    name: 'scheduler_pod_scheduling_attempts',
    help: 'Number of attempts to successfully schedule a pod.',
    buckets: exponentialBuckets(1, 2, 5),
    registers: [this.registry],
  });

  readonly frameworkExtensionPointDuration = new SeriesHistogram({
    name: 'scheduler_framework_extension_point_duration_seconds',
    help: 'Latency for running all plugins of a specific extension point.',
    labelNames: ['extension_point', 'status', 'profile'] as const,
    buckets: exponentialBuckets(0.0001, 2, 12),
    registers: [this.registry],
  });

  readonly pluginExecutionDuration = new SeriesHistogram({
    name: 'scheduler_plugin_execution_duration_seconds',
    help: 'Duration for running a plugin at a specific extension point.',
    labelNames: ['plugin', 'extension_point', 'status'] as const,
    buckets: exponentialBuckets(0.00001, 1.5, 20),
    registers: [this.registry],
  });

  readonly batchAttempts = new SeriesCounter({
    name: 'scheduler_batch_attempts_total',
    help: 'Counts of results when we attempt to use batching.',
    labelNames: ['profile', 'result'] as const,
    registers: [this.registry],
  });

  readonly batchCacheFlushed = new Counter({
    name: 'scheduler_batch_cache_flushed_total',
    help: 'Counts of cache flushes by reason.',
    labelNames: ['profile', 'reason'] as const,
    registers: [this.registry],
  });

  readonly batchRescoreAttempts = new Counter({
    name: 'scheduler_batch_rescore_attempts_total',
    help: 'Counts of rescore attempts during opportunistic batching.',
    labelNames: ['profile'] as const,
    registers: [this.registry],
  });

  // Batching's latencies: from 0.01 ms, the last bucket [~20ms, Inf), as upstream's.
  readonly batchRescoreDuration = new SeriesHistogram({
    name: 'scheduler_batch_rescore_duration_seconds',
    help: 'Latency for rescoring a node during opportunistic batching.',
    labelNames: ['profile'] as const,
    buckets: exponentialBuckets(0.00001, 2, 12),
    registers: [this.registry],
  });

  readonly getNodeHintDuration = new SeriesHistogram({
    name: 'scheduler_get_node_hint_duration_seconds',
    help: 'Latency for getting a node hint.',
    labelNames: ['hinted', 'profile'] as const,
    buckets: exponentialBuckets(0.00001, 2, 12),
    registers: [this.registry],
  });

  readonly storeScheduleResultsDuration = new SeriesHistogram({
    name: 'scheduler_store_schedule_results_duration_seconds',
    help: 'Latency for storing scheduling results.',
    labelNames: ['profile'] as const,
    buckets: exponentialBuckets(0.00001, 2, 12),
    registers: [this.registry],
  });

  readonly queueIncomingPods = new SeriesCounter({
    name: 'scheduler_queue_incoming_pods_total',
    help: 'Number of pods added to scheduling queues by event and queue type.',
    labelNames: ['queue', 'event'] as const,
    registers: [this.registry],
  });

  readonly permitWaitDuration = new Histogram({
    name: 'scheduler_permit_wait_duration_seconds',
    help: 'Duration of waiting on permit.',
    labelNames: ['result'] as const,
    buckets: exponentialBuckets(0.001, 2, 15),
    registers: [this.registry],
  });

  readonly leaderElectionMasterStatus = new Gauge({
    name: 'leader_election_master_status',
    help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease. Please make sure to group by name.',
    labelNames: ['name'] as const,
    registers: [this.registry],
  });

  /** `nowMs`: a monotonic clock in milliseconds, for the asynchronous recorder's flushes. */
  constructor(nowMs: () => number = () => performance.now()) {
    this.asyncBuffer = new AsyncRecorderBuffer(nowMs);
    // Gauges read from the scheduler at scrape time rather than tracked on every queue move.
    this.pendingPods = new Gauge({
      name: 'scheduler_pending_pods',
      help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
      labelNames: ['queue'] as const,
      registers: [this.registry],
      collect: () => {
        const c = this.sources?.pendingCounts();
        if (!c) return;
        this.pendingPods.set({ queue: 'active' }, c.active);
        this.pendingPods.set({ queue: 'backoff' }, c.backoff);
        this.pendingPods.set({ queue: 'unschedulable' }, c.unschedulable);
        this.pendingPods.set({ queue: 'gated' }, c.gated);
      },
    });
    this.goroutines = new Gauge({
      name: 'scheduler_goroutines',
      help: 'Number of running goroutines split by the work they do such as binding.',
      labelNames: ['operation'] as const,
      registers: [this.registry],
      collect: () => {
        if (this.sources) this.goroutines.set({ operation: 'binding' }, this.sources.bindingsInFlight());
      },
    });
    this.cacheSize = new Gauge({
      name: 'scheduler_scheduler_cache_size',
      help: 'Number of nodes, pods, and assumed (bound) pods in the scheduler cache.',
      labelNames: ['type'] as const,
      registers: [this.registry],
      collect: () => {
        const c = this.sources?.cacheSize();
        if (!c) return;
        this.cacheSize.set({ type: 'nodes' }, c.nodes);
        this.cacheSize.set({ type: 'pods' }, c.pods);
      },
    });
  }

  /** Connects the scrape-time gauges to a running scheduler. */
  bindSources(s: MetricsSources): void {
    this.sources = s;
  }

  /** One attempt's final result (PodScheduled / PodUnschedulable / PodScheduleError). */
  observeAttempt(result: AttemptResult, profile: string, seconds: number): void {
    this.scheduleAttempts.at(result, profile).inc();
    this.schedulingAttemptDuration.at(result, profile).observe(seconds);
  }

  /** A pod was bound after `attempts` attempts, `sinceFirstSeconds` after it first entered the queue. */
  observePodScheduled(attempts: number, sinceFirstSeconds: number | null): void {
    this.podSchedulingAttempts.at().observe(attempts);
    if (sinceFirstSeconds !== null) this.podSchedulingSLIDuration.at(attemptsLabel(attempts)).observe(sinceFirstSeconds);
  }

  observeAlgorithmDuration(seconds: number): void {
    this.schedulingAlgorithmDuration.at().observe(seconds);
  }

  observeQueueIncoming(queue: IncomingQueue, event: string): void {
    this.queueIncomingPods.at(queue, event).inc();
  }

  /** The pod-group metrics, made on a first pod group's cycle (upstream registers them with GenericWorkload on). */
  private podGroupMetrics: { attempts: Counter<'result' | 'profile'>; attemptDuration: Histogram<'result' | 'profile'>; algorithmDuration: Histogram } | null = null;

  private groupMetrics(): NonNullable<SchedulerMetrics['podGroupMetrics']> {
    this.podGroupMetrics ??= {
      attempts: new Counter({
        name: 'scheduler_podgroup_schedule_attempts_total',
        help: "Number of attempts to schedule pod group, by the result. 'unschedulable' means a pod group could not be scheduled, while 'error' means an internal scheduler problem.",
        labelNames: ['result', 'profile'] as const,
        registers: [this.registry],
      }),
      attemptDuration: new Histogram({
        name: 'scheduler_podgroup_scheduling_attempt_duration_seconds',
        help: 'Pod group scheduling attempt latency in seconds',
        labelNames: ['result', 'profile'] as const,
        buckets: exponentialBuckets(0.001, 2, 15),
        registers: [this.registry],
      }),
      algorithmDuration: new Histogram({
        name: 'scheduler_podgroup_scheduling_algorithm_duration_seconds',
        help: 'Pod group scheduling algorithm latency in seconds',
        buckets: exponentialBuckets(0.001, 2, 15),
        registers: [this.registry],
      }),
    };
    return this.podGroupMetrics;
  }

  observePodGroupAttempt(result: AttemptResult, profile: string, seconds: number): void {
    const m = this.groupMetrics();
    m.attempts.inc({ result, profile });
    m.attemptDuration.observe({ result, profile }, seconds);
  }

  observePodGroupAlgorithmDuration(seconds: number): void {
    this.groupMetrics().algorithmDuration.observe(seconds);
  }

  /** The placement metrics, made on a first placement evaluation (upstream has them with TopologyAwareWorkloadScheduling on). */
  private placementMetrics: { generated: Counter<'profile'>; evaluations: Counter<'result' | 'profile'>; evaluationDuration: Histogram<'result' | 'profile'> } | null = null;

  private placementMetricSet(): NonNullable<SchedulerMetrics['placementMetrics']> {
    this.placementMetrics ??= {
      generated: new Counter({
        name: 'scheduler_generated_placements_total',
        help: 'Number of candidate placements generated when scheduling pod groups.',
        labelNames: ['profile'] as const,
        registers: [this.registry],
      }),
      evaluations: new Counter({
        name: 'scheduler_placement_evaluations_total',
        help: "Number of candidate placements evaluated when scheduling pod groups, by result. 'feasible' means the pod group fit into the placement, while 'infeasible' means it did not.",
        labelNames: ['result', 'profile'] as const,
        registers: [this.registry],
      }),
      evaluationDuration: new Histogram({
        name: 'scheduler_placement_evaluation_duration_seconds',
        help: "Latency in seconds of evaluating a single candidate placement when scheduling pod groups, by result. 'feasible' means the pod group fit into the placement, while 'infeasible' means it did not.",
        labelNames: ['result', 'profile'] as const,
        buckets: exponentialBuckets(0.001, 2, 15),
        registers: [this.registry],
      }),
    };
    return this.placementMetrics;
  }

  observeGeneratedPlacements(profile: string, count: number): void {
    this.placementMetricSet().generated.inc({ profile }, count);
  }

  observePlacementEvaluation(result: PlacementEvaluationResult, profile: string, seconds: number): void {
    const m = this.placementMetricSet();
    m.evaluations.inc({ result, profile });
    m.evaluationDuration.observe({ result, profile }, seconds);
  }

  /** The API dispatcher's metrics, made on a first call (upstream registers them with SchedulerAsyncAPICalls on). */
  private apiCallMetrics: { total: SeriesCounter<'call_type' | 'result'>; duration: SeriesHistogram<'call_type' | 'result'>; pending: Gauge<'call_type'> } | null = null;

  private apiCallMetricSet(): NonNullable<SchedulerMetrics['apiCallMetrics']> {
    this.apiCallMetrics ??= {
      total: new SeriesCounter({
        name: 'scheduler_async_api_call_execution_total',
        help: 'Total number of API calls executed by the async dispatcher.',
        labelNames: ['call_type', 'result'] as const,
        registers: [this.registry],
      }),
      duration: new SeriesHistogram({
        name: 'scheduler_async_api_call_execution_duration_seconds',
        help: 'Duration in seconds for executing API call in the async dispatcher.',
        labelNames: ['call_type', 'result'] as const,
        buckets: exponentialBuckets(0.001, 2, 15),
        registers: [this.registry],
      }),
      pending: new Gauge({
        name: 'scheduler_pending_async_api_calls',
        help: 'Number of API calls currently pending in the async queue.',
        labelNames: ['call_type'] as const,
        registers: [this.registry],
      }),
    };
    return this.apiCallMetrics;
  }

  observeAsyncAPICall(callType: APICallType, result: APICallResult, seconds: number): void {
    const m = this.apiCallMetricSet();
    m.total.at(callType, result).inc();
    m.duration.at(callType, result).observe(seconds);
  }

  addPendingAsyncAPICalls(callType: APICallType, delta: number): void {
    const pending = this.apiCallMetricSet().pending;
    if (delta >= 0) pending.inc({ call_type: callType }, delta);
    else pending.dec({ call_type: callType }, -delta);
  }


  observeExtensionPointDuration(extensionPoint: ExtensionPointLabel, status: CodeName, profile: string, seconds: number): void {
    // Sign's duration goes through upstream's asynchronous recorder (framework.go), the others not.
    if (extensionPoint === 'Sign' && !this.asyncBuffer.take()) return;
    this.frameworkExtensionPointDuration.at(extensionPoint, status, profile).observe(seconds);
  }

  observePluginDuration(plugin: string, extensionPoint: ExtensionPointLabel, status: CodeName, seconds: number): void {
    if (!this.asyncBuffer.take()) return;
    this.pluginExecutionDuration.at(plugin, extensionPoint, status).observe(seconds);
  }

  pluginDurationWanted(): boolean {
    return this.asyncBuffer.hasRoom();
  }

  observePermitWaitDuration(result: CodeName, seconds: number): void {
    this.permitWaitDuration.observe({ result }, seconds);
  }

  observePreemptionAttempt(): void {
    this.preemptionAttempts.inc();
  }

  observePreemptionVictims(count: number): void {
    this.preemptionVictims.observe(count);
  }

  observePreemptionPDBViolations(preemptor: string, count: number): void {
    this.preemptionPDBViolations.inc({ preemptor }, count);
  }

  observePreemptionExecution(preemptor: string, result: 'success' | 'error', seconds: number, background: boolean): void {
    this.preemptionExecutionDuration.observe({ preemptor, result }, seconds);
    if (!background) return;
    this.preemptionGoroutinesDuration.observe({ result }, seconds);
    this.preemptionGoroutinesExecutions.inc({ result });
  }

  observeResourceClaimCreate(status: 'success' | 'failure', adminAccess: boolean, ownerApiGroup: string, ownerApiKind: string): void {
    this.resourceClaimCreates.inc({ status, admin_access: String(adminAccess), owner_api_group: ownerApiGroup, owner_api_kind: ownerApiKind });
  }

  observeBatchAttempt(profile: string, result: BatchAttemptResult): void {
    this.batchAttempts.at(profile, result).inc();
  }

  observeBatchCacheFlush(profile: string, reason: BatchFlushReason): void {
    this.batchCacheFlushed.inc({ profile, reason });
  }

  observeBatchRescore(profile: string, seconds: number): void {
    this.batchRescoreAttempts.inc({ profile });
    this.batchRescoreDuration.at(profile).observe(seconds);
  }

  observeGetNodeHint(hinted: 'hint' | 'no_hint', profile: string, seconds: number): void {
    this.getNodeHintDuration.at(hinted, profile).observe(seconds);
  }

  observeStoreScheduleResults(profile: string, seconds: number): void {
    this.storeScheduleResultsDuration.at(profile).observe(seconds);
  }

  /** The Prometheus text exposition of every metric. */
  expose(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
