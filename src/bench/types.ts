// The shape of benchmark test cases, as upstream's performance-config.yaml files describe them
// (test/integration/scheduler_perf/scheduler_perf.go: testCase, workload, op types).

/** A count given directly or by a workload parameter (`$initNodes`). */
export interface Counted {
  count?: number;
  countParam?: `$${string}`;
}

/**
 * A template parameter of an op: a value, or a workload parameter given as `$name`, optionally
 * with a default after a bar (`$numPCIRoots|2`; `$selectors|` defaults to none), as upstream's.
 */
export type TemplateParam = WorkloadParam | `$${string}`;

export interface CreateNodesOp extends Counted {
  opcode: 'createNodes';
  /** Template path; defaults to node-default.yaml. */
  nodeTemplatePath?: string;
  /** Labels each node with `labelKey`, taking `labelValues` round robin. */
  labelNodePrepareStrategy?: { labelKey: string; labelValues: string[] };
  /**
   * A CSINode per node with these drivers' volume limits and the in-tree plugins marked as
   * migrated to CSI (upstream's NodeAllocatableStrategy). Its `nodeAllocatable` never reaches the
   * node in upstream's scheduler_perf (the API server drops a status change made through the Node
   * itself), so it does not here either: put extended resources in the node template's capacity.
   */
  nodeAllocatableStrategy?: {
    nodeAllocatable?: Record<string, string>;
    csiNodeAllocatable?: Record<string, { count: number }>;
    migratedPlugins?: string[];
  };
}

export interface CreateNamespacesOp extends Counted {
  opcode: 'createNamespaces';
  /** Namespaces are named `<prefix>-<i>`. */
  prefix: string;
  /** A Namespace template (its labels); a bare namespace when absent. */
  namespaceTemplatePath?: string;
}

/** One copy of createPodsOp in each namespace `<namespacePrefix>-<i>`, i < count (unrolled before the run, as upstream). */
interface CreatePodSetsOp extends Counted {
  opcode: 'createPodSets';
  namespacePrefix: string;
  createPodsOp: CreatePodsOp;
}

export interface CreatePodsOp extends Counted {
  opcode: 'createPods';
  /**
   * Steady state (`$param` naming a boolean): keep `count` pods pending for `durationParam`,
   * deleting each pod once it is bound and creating another (upstream's createPodsSteadily).
   */
  steadyStateParam?: `$${string}`;
  /** How long a steady-state op runs: a workload parameter such as `10s`. */
  durationParam?: `$${string}`;
  /** Defaults to `namespace-<op index>`. */
  namespace?: string;
  /** Defaults to the test case's defaultPodTemplatePath. */
  podTemplatePath?: string;
  /**
   * Pods from a template get the label `signature: signature-label-<i / size>`, so that many
   * consecutive pods share one (upstream's signatureBatchSizeParam, a workload parameter; default 1).
   */
  signatureBatchSizeParam?: `$${string}`;
  /** Measure scheduling of these pods (throughput, attempt durations, memory). */
  collectMetrics?: boolean;
  /** Go on to the next op without waiting for these pods to be scheduled. */
  skipWaitToCompletion?: boolean;
  /**
   * With both: each pod gets its own PersistentVolumeClaim `pvc-<i>`, already bound to a
   * PersistentVolume `<namespace>-vol-<i>` made from the PV template (CreatePodWithPersistentVolume).
   */
  persistentVolumeTemplatePath?: string;
  persistentVolumeClaimTemplatePath?: string;
  /** Creates `count` times this workload parameter's pods (members of `count` pod groups). */
  countMultiplierParam?: `$${string}`;
  /** Parameters of a parameterized template, resolved against the workload's and given over them. */
  templateParams?: Record<string, TemplateParam>;
}

/** PodGroups from a template, index 0..count-1, in `namespace` (upstream's createPodGroups). */
export interface CreatePodGroupsOp extends Counted {
  opcode: 'createPodGroups';
  namespace: string;
  templatePath: string;
  templateParams?: Record<string, TemplateParam>;
}

export interface CreateAnyOp extends Counted {
  opcode: 'createAny';
  templatePath: string;
  namespace?: string;
  /** Parameters of a parameterized template (the DRA ones), resolved against the workload's. */
  templateParams?: Record<string, TemplateParam>;
}

/**
 * Allocates every unallocated ResourceClaim of the namespace on a random node that can hold it,
 * outside the scheduler, as a quick way to fill the cluster (upstream's allocResourceClaims, dra.go).
 */
export interface AllocResourceClaimsOp {
  opcode: 'allocResourceClaims';
  namespace: string;
}

export interface ChurnOp {
  opcode: 'churn';
  /** create: create objects every interval (up to `number`, 0 = unlimited); recreate: create, then delete the oldest of `number` slots. */
  mode: 'create' | 'recreate';
  number?: number;
  /** Default 500 ms, as upstream. */
  intervalMilliseconds?: number;
  /** Defaults to `namespace-<op index>`. */
  namespace?: string;
  templatePaths: string[];
}

export interface BarrierOp {
  opcode: 'barrier';
  /** Namespaces to wait on; all when empty. */
  namespaces?: string[];
  /** Count only the pods with these labels. */
  labelSelector?: Record<string, string>;
  /** Scheduled (default): every pod bound; Attempted: every pod tried at least once. */
  stageRequirement?: 'Scheduled' | 'Attempted';
}

/**
 * Opens the measurement window: throughput and attempt durations of the pods of these namespaces
 * (with these labels) that get bound until stopCollectingMetrics (upstream's
 * startCollectingMetricsOp, for test cases whose measured pods come from several ops).
 */
export interface StartCollectingMetricsOp {
  opcode: 'startCollectingMetrics';
  /** Appended to the workload's name in upstream's results. */
  name?: string;
  namespaces: string[];
  labelSelector?: Record<string, string>;
}

/** Closes the window startCollectingMetrics opened and records its figures. */
interface StopCollectingMetricsOp {
  opcode: 'stopCollectingMetrics';
}

/**
 * Replaces `count` existing objects by the template's (object i named by the template filled
 * with index i), at `updatePerSecond` (0: all at once), as upstream's updateAny: the object, then
 * its status; with `subresources: [resize]`, a pod's resources through its resize subresource.
 */
export interface UpdateAnyOp extends Counted {
  opcode: 'updateAny';
  templatePath: string;
  /** Empty for cluster-scoped objects. */
  namespace?: string;
  updatePerSecond?: number;
  subresources?: string[];
}

interface SleepOp {
  opcode: 'sleep';
  durationMs: number;
}

export interface DeletePodsOp {
  opcode: 'deletePods';
  namespace: string;
  labelSelector?: Record<string, string>;
  /** 0: all at once. */
  deletePodsPerSecond?: number;
  skipWaitToCompletion?: boolean;
}

export type Op = CreateNodesOp | CreateNamespacesOp | CreatePodSetsOp | CreatePodsOp | CreatePodGroupsOp | CreateAnyOp | AllocResourceClaimsOp | ChurnOp | BarrierOp | SleepOp
  | DeletePodsOp | StartCollectingMetricsOp | StopCollectingMetricsOp | UpdateAnyOp;

/** A workload parameter: counts, and for the DRA workloads flags, durations and CEL selectors or constraints. */
export type WorkloadParam = number | boolean | string | readonly Record<string, unknown>[];

export interface Workload {
  name: string;
  params: Record<string, WorkloadParam>;
  /** Upstream's labels: `performance` marks the long runs with thresholds, `integration-test` the tiny ones. */
  labels?: string[];
  /** Upstream's minimum SchedulingThroughput average (pods/s) for this workload. */
  threshold?: number;
  /** Our target for the embedded scheduler on one core (pods/s), from issue 6. */
  target?: number;
  /** Upstream's feature gates for this workload, over the test case's. */
  featureGates?: Readonly<Record<string, boolean>>;
}

export interface TestCase {
  name: string;
  /** The upstream file the test case comes from. */
  source: string;
  defaultPodTemplatePath?: string;
  workloadTemplate: Op[];
  workloads: Workload[];
  /** Plugins the test case cannot run without: skipped while any is not built. */
  requiresPlugins?: string[];
  /** Plugins the test case exercises but can run without (noted in the result when missing). */
  usesPlugins?: string[];
  /** Reason to skip regardless of plugins. */
  skip?: string;
  /** The KubeSchedulerConfiguration upstream's schedulerConfigPath names, instead of the default one. */
  schedulerConfig?: Readonly<Record<string, unknown>>;
  /** Upstream's feature gates for every workload of the test case. */
  featureGates?: Readonly<Record<string, boolean>>;
  /**
   * The workload parameter (`$numNodeDeclaredFeatures`) giving how many mock features replace the
   * feature registry, each required by pods with pod-level resources and declared by every node
   * (upstream's nodedeclaredfeatures test: its PreRunFn and NodeUpdateFn).
   */
  mockDeclaredFeaturesParam?: `$${string}`;
}

/** A test case as upstream's performance-config.yaml declares it (src/bench/upstream_catalog.ts). */
export interface UpstreamTestCase {
  name: string;
  /** Its performance-config.yaml, relative to test/integration/scheduler_perf/. */
  source: string;
  labels?: readonly string[];
  featureGates?: Readonly<Record<string, boolean>>;
  schedulerConfigPath?: string;
  /** The opcodes of its workload template. */
  opcodes: readonly string[];
  workloads: readonly {
    name: string;
    labels?: readonly string[];
    /** Pods/s; or per topic (`{ dra: 56 }`), the threshold of a run under that topic. */
    threshold?: number | Readonly<Record<string, number>>;
    featureGates?: Readonly<Record<string, boolean>>;
    params: Readonly<Record<string, unknown>>;
  }[];
}

/** An upstream test case bench does not run, and why. */
export interface SkippedTestCase {
  name: string;
  reason: string;
}
