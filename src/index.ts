// The public API of kube-scheduler-ts as a library: the plugin SDK (framework types, Status,
// CycleState, NodeInfo/PodInfo, the Registry), the in-tree plugins, configuration, the scheduler
// and the embedded cluster for simulations.

// Kubernetes objects and the helpers plugins use on them.
export type * from './api/types.js';
export { podKey } from './api/types.js';
// Dynamic Resource Allocation objects (resource.k8s.io/v1), which plugins read through the lister.
export type * from './api/dra_types.js';
export { parseQuantity, quantityValue, quantityMilliValue, Quantity, QuantityError } from './api/quantity.js';
export { Resource, computePodResourceRequests, type PodResourceRequests } from './api/resource_requests.js';
export { Selector, SelectorError, type Labels } from './api/labels.js';
export { NodeSelectorMatcher, PreferredTermsScorer, RequiredNodeAffinity, MatchResult } from './api/nodeselector.js';
export { toleratesTaint, taintToleratedBy, findUntoleratedTaint, taintForMessage } from './api/taints.js';
export { labelsEqual, taintsEqual, tolerationsEqual, resourceListsEqual, quantitiesEqual, topologySelectorTermsEqual } from './api/equality.js';

// The plugin SDK.
export * from './framework/interfaces.js';
export { Status, Code, codeName, isSuccess, isSkip, isRejected, type CodeName } from './framework/status.js';
export { CycleState, type StateData } from './framework/cycle_state.js';
export { NodeInfo, HostPortInfo, type ImageStateSummary } from './framework/node_info.js';
export { PodInfo, affinityTermMatches, type AffinityTerm, type WeightedAffinityTerm } from './framework/pod_info.js';
export * from './framework/events.js';
export { eventObjectsAs, type EventObjects, type EventObjectKinds } from './framework/event_objects.js';
export { Registry, type PluginDefinition, type AnyPluginDefinition } from './framework/registry.js';
export { defaultFeatures, type Features } from './framework/features.js';
export * from './api/field_errors.js';
export { defaultNormalizeScore } from './framework/helpers/normalize.js';
export { FitError, Diagnosis } from './framework/runtime/fit_error.js';
export { Framework, type ProfileConfig, type NodePluginScores } from './framework/runtime/framework.js';
export { MapObjectLister } from './framework/object_lister.js';
export { pluginMetricsSamplePercent, type MetricsRecorder, type ExtensionPointLabel } from './framework/metrics_recorder.js';
export type { MaybePromise } from './util/maybe_promise.js';

// In-tree plugins and configuration.
export { inTreeRegistry, notYetAvailablePlugins } from './plugins/registry.js';
export * as PluginNames from './framework/names.js';
export { loadConfigFile, parseConfig, configFromObject, defaultConfiguration, ConfigError, type DefaultedConfiguration, type KubeSchedulerConfiguration } from './config/index.js';
export { FeatureGates, FeatureGateError } from './config/feature_gates.js';

// Scheduler extenders: the contract and the HTTP client (KubeSchedulerConfiguration `extenders`).
export * from './framework/extender.js';
export * from './extender/index.js';
export { setUpExtenders, type ExtenderSetup } from './extender/setup.js';

// The scheduler, the cluster boundary and the embedded cluster.
export { Scheduler, type ResolvedConfig, type SchedulerDeps, type AttemptRecord } from './scheduler/scheduler.js';
export { SchedulingLoop } from './scheduler/loop.js';
export type { SchedulerMetricsRecorder, AttemptResult } from './scheduler/metrics_recorder.js';
export type { ClusterClient, WatchEvent, WatchHandler, PodStatusPatch, ClusterEventRecord } from './cluster/types.js';
export { ApiError } from './cluster/types.js';
export { MemoryCluster } from './cluster/memory/store.js';
export { admitPod } from './cluster/memory/admission.js';

// Simulations.
export { loadScenario, parseScenario, ScenarioError, type Scenario } from './sim/scenario/scenario.js';
export { createEmbedded, type EmbeddedOptions } from './sim/scenario/embedded.js';
export { runSimulation, type SimReport, type SimPod } from './sim/simulate/simulate.js';
export { runExplain, runExplainTimeline, type ExplainPod, type ExplainAttempt, type ExplainPreemption, type ExplainPreemptionNode, type ExplainCandidate, type ExplainScore, type ExplainStatus } from './sim/explain/explain.js';
export { renderExplainText, type ExplainTextOptions } from './sim/explain/explain_text.js';

// Time and randomness, injectable for deterministic runs.
export { RealClock, FakeClock, seededRandom, type Clock } from './util/clock.js';
