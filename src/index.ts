// The public API of kube-scheduler-ts as a library (the package's root entry point): the plugin
// contract of ./plugin.ts, the Registry and in-tree plugins, configuration, the scheduler and the
// embedded cluster for simulations. The test kit is kube-scheduler-ts/testing (./testing/index.ts).

// The plugin contract (also its own entry point, kube-scheduler-ts/plugin).
export * from './plugin.js';
// What embedding the scheduler adds to it; the framework runtime itself stays internal.
export { Registry } from './framework/registry.js';
export { FitError, Diagnosis } from './framework/runtime/fit_error.js';
export { MapObjectLister } from './framework/object_lister.js';
export { pluginMetricsSamplePercent } from './framework/metrics_recorder.js';

// In-tree plugins and configuration.
export { inTreeRegistry, notYetAvailablePlugins } from './plugins/registry.js';
export { loadConfigFile, parseConfig, configFromObject, defaultConfiguration, ConfigError, type DefaultedConfiguration, type KubeSchedulerConfiguration } from './config/index.js';
export { FeatureGates, FeatureGateError } from './config/feature_gates.js';

// Scheduler extenders: the HTTP client (KubeSchedulerConfiguration `extenders`).
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

// The base class of every error caused by bad input (configuration, scenario, flags, plugin modules).
export { BadInputError } from './util/bad_input.js';

// Time and randomness, injectable for deterministic runs.
export { RealClock, FakeClock, seededRandom, type Clock } from './util/clock.js';
