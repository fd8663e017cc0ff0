// Builds an embedded cluster and a scheduler over it from a scenario and a resolved configuration.
import { FeatureGates } from '../../config/feature_gates.js';
import { crdKind, knownCrds } from '../../api/crds.js';
import { kindKeyOf } from '../../api/kinds.js';
import type { Pod } from '../../api/types.js';
import { MemoryCluster, type ClusterGates } from '../../cluster/memory/store.js';
import type { ClusterClient } from '../../cluster/types.js';
import type { Extender } from '../../framework/extender.js';
import type { Registry } from '../../framework/registry.js';
import { notYetAvailablePlugins } from '../../plugins/registry.js';
import { Scheduler, type AttemptRecord, type ResolvedConfig, type SchedulerDeps } from '../../scheduler/scheduler.js';
import { rowPassWorkers } from '../../scheduler/parallel/row_pass_pool.js';
import type { CompositePlacementRecord } from '../../scheduler/composite_algorithm.js';
import { FakeClock, seededRandom, type Clock } from '../../util/clock.js';
import type { Scenario } from './scenario.js';


export interface EmbeddedOptions {
  config: ResolvedConfig;
  registry: Registry;
  notYetAvailable?: ReadonlySet<string>;
  /** --feature-gates; the pinned release's defaults when absent. */
  featureGates?: FeatureGates;
  seed?: number;
  tieBreakByName?: boolean;
  /** Keep every plugin's score per node (explain). */
  recordScores?: boolean;
  /** Diagnose every attempt (SchedulerDeps.diagnose). */
  diagnose?: boolean;
  onAttempt?: (a: AttemptRecord) => void;
  onBindingStart?: (a: AttemptRecord) => void;
  /** Each CompositePodGroup's placements as tried (SchedulerDeps.onCompositePlacements). */
  onCompositePlacements?: (r: CompositePlacementRecord) => void;
  /** Transforms a pod as kube-apiserver's admission would (e.g. matchLabelKeys merging). */
  admitPod?: (pod: Pod) => Pod;
  /** Extenders to call instead of those the configuration names (tests, library use). */
  extenders?: readonly Extender[];
  /** False: no PV controller binds or provisions volumes (the differential harness's cluster has none). */
  volumeController?: boolean;
  /** --row-workers: worker threads for long Filter walks (SchedulerDeps.rowPass); none when absent. */
  rowWorkers?: number;
}

export interface Embedded {
  clock: FakeClock;
  cluster: MemoryCluster;
  scheduler: Scheduler;
}

/** The gates the embedded API server's admission and controllers read, from --feature-gates. */
export function clusterGates(featureGates: FeatureGates = FeatureGates.defaults): ClusterGates {
  return {
    genericWorkload: featureGates.enabled('GenericWorkload'),
    podGroupPreemptionPolicy: featureGates.enabled('PodGroupPreemptionPolicy'),
    workloadWithJob: featureGates.enabled('WorkloadWithJob'),
    topologyAwareWorkloadScheduling: featureGates.enabled('TopologyAwareWorkloadScheduling'),
    draWorkloadResourceClaims: featureGates.enabled('DRAWorkloadResourceClaims'),
    compositePodGroup: featureGates.enabled('CompositePodGroup'),
  };
}

/** Installs the CRDs of the custom resource kinds among `keys` (api/crds.ts) that the cluster lacks. */
export function installCrds(cluster: MemoryCluster, keys: Iterable<string>): void {
  for (const key of keys) {
    const crd = knownCrds.get(key);
    if (crd !== undefined && cluster.get(crdKind, '', crd.metadata?.name ?? '') === undefined) cluster.create(structuredClone(crd));
  }
}

/**
 * Loads a scenario's objects, nodes and existing pods into the cluster (PriorityClasses first);
 * custom resources among the objects imply their CRDs.
 */
export function populateCluster(cluster: MemoryCluster, sc: Scenario): void {
  for (const obj of sc.objects) if (obj.kind === 'PriorityClass') cluster.create(obj);
  for (const obj of sc.objects) if (obj.kind !== 'PriorityClass') cluster.create(obj);
  installCrds(cluster, sc.objects.map(kindKeyOf));
  for (const n of sc.nodes) cluster.create(n);
  for (const p of sc.pods) cluster.create(p);
}

/** What an embedded run's scheduler works with over `client`: the options' settings, seeded randomness. */
export function embeddedDeps(o: EmbeddedOptions, client: ClusterClient, clock: Clock): SchedulerDeps {
  return {
    registry: o.registry,
    client,
    clock,
    random: seededRandom(o.seed ?? 1),
    notYetAvailable: o.notYetAvailable ?? notYetAvailablePlugins,
    featureGates: o.featureGates,
    tieBreakByName: o.tieBreakByName,
    recordScores: o.recordScores,
    diagnose: o.diagnose,
    onAttempt: o.onAttempt,
    onBindingStart: o.onBindingStart,
    onCompositePlacements: o.onCompositePlacements,
    extenders: o.extenders,
    rowPass: rowPassWorkers(o.rowWorkers),
  };
}

/** Creates the cluster with the scenario's objects, nodes and existing pods, and a started scheduler. */
export async function createEmbedded(sc: Scenario, o: EmbeddedOptions): Promise<Embedded> {
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({
    clock,
    admitPod: o.admitPod,
    gates: clusterGates(o.featureGates),
    workloadControllers: sc.controllers === true,
    random: seededRandom(o.seed ?? 1),
    clearingNominatedNodeNameAfterBinding: (o.featureGates ?? FeatureGates.defaults).enabled('ClearingNominatedNodeNameAfterBinding'),
    ...(o.volumeController === false ? { volumeController: false } : {}),
  });
  populateCluster(cluster, sc);
  const scheduler = Scheduler.fromConfig(o.config, embeddedDeps(o, cluster, clock));
  await scheduler.start();
  return { clock, cluster, scheduler };
}

/**
 * How long an embedded run may go without a change before it stops: once nothing has changed for
 * longer than the longest backoff (plus a margin), every retry has happened and further ones would
 * fail the same way.
 */
export function quietLimitMs(config: Pick<ResolvedConfig, 'podMaxBackoffSeconds'>): number {
  return (config.podMaxBackoffSeconds ?? 10) * 1000 + 2000;
}
