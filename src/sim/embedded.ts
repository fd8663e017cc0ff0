// Builds an embedded cluster and a scheduler over it from a scenario and a resolved configuration.
import type { KubeObject, Pod } from '../api/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import type { Registry } from '../framework/registry.js';
import type { ProfileConfig } from '../framework/runtime/framework.js';
import { Scheduler, type AttemptRecord } from '../scheduler/scheduler.js';
import { FakeClock, seededRandom, type Clock } from '../util/clock.js';
import type { ClusterClient } from '../cluster/types.js';
import { notYetAvailablePlugins } from '../plugins/registry.js';
import type { Scenario } from './scenario.js';
import type { Extender } from '../extender/extender.js';
import { setUpExtenders } from '../extender/setup.js';
import type { Extender as ExtenderConfig } from '../config/types.js';

/** The parts of a defaulted KubeSchedulerConfiguration the embedded scheduler uses. */
export interface ResolvedConfig {
  profiles: ProfileConfig[];
  /** HTTP extenders (KubeSchedulerConfiguration `extenders`). */
  extenders?: ExtenderConfig[];
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  parallelism?: number;
}

export interface EmbeddedOptions {
  config: ResolvedConfig;
  registry: Registry;
  notYetAvailable?: ReadonlySet<string>;
  seed?: number;
  tieBreakByName?: boolean;
  /** Keep every plugin's score per node (explain). */
  recordScores?: boolean;
  onAttempt?: (a: AttemptRecord) => void;
  /** Transforms a pod as kube-apiserver's admission would (e.g. matchLabelKeys merging). */
  admitPod?: (pod: Pod) => Pod;
  /** Extenders to call instead of those the configuration names (tests, library use). */
  extenders?: readonly Extender[];
}

export interface Embedded {
  clock: FakeClock;
  cluster: MemoryCluster;
  scheduler: Scheduler;
}

/** Loads a scenario's objects, nodes and existing pods into the cluster (PriorityClasses first). */
export function populateCluster(cluster: MemoryCluster, sc: Scenario): void {
  for (const obj of sc.objects) if (obj.kind === 'PriorityClass') cluster.create(obj);
  for (const obj of sc.objects) if (obj.kind !== 'PriorityClass') cluster.create(obj);
  for (const n of sc.nodes) cluster.create(n);
  for (const p of sc.pods) cluster.create(p);
}

/** A scheduler over `client` with the resolved configuration's settings. */
export function newEmbeddedScheduler(o: EmbeddedOptions, client: ClusterClient, clock: Clock): Scheduler {
  const { extenders, profiles } = o.extenders
    ? { extenders: o.extenders, profiles: o.config.profiles }
    : setUpExtenders(o.config.extenders ?? [], o.config.profiles);
  return new Scheduler({
    profiles,
    registry: o.registry,
    client,
    clock,
    random: seededRandom(o.seed ?? 1),
    percentageOfNodesToScore: o.config.percentageOfNodesToScore,
    podInitialBackoffSeconds: o.config.podInitialBackoffSeconds,
    podMaxBackoffSeconds: o.config.podMaxBackoffSeconds,
    parallelism: o.config.parallelism,
    notYetAvailable: o.notYetAvailable ?? notYetAvailablePlugins,
    tieBreakByName: o.tieBreakByName,
    recordScores: o.recordScores,
    onAttempt: o.onAttempt,
    extenders,
  });
}

/** Creates the cluster with the scenario's objects, nodes and existing pods, and a started scheduler. */
export async function createEmbedded(sc: Scenario, o: EmbeddedOptions): Promise<Embedded> {
  const clock = new FakeClock(0);
  const cluster = new MemoryCluster({ clock, admitPod: o.admitPod });
  populateCluster(cluster, sc);
  const scheduler = newEmbeddedScheduler(o, cluster, clock);
  await scheduler.start();
  return { clock, cluster, scheduler };
}

export function objectRef(o: KubeObject): string {
  return `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`;
}
