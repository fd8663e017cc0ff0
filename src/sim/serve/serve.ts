// `simulate --serve`: the scenario's embedded cluster served over the Kubernetes API, with the
// embedded scheduler running on a real clock and scheduling the pods clients create.
import { FeatureGates } from '../../config/feature_gates.js';
import { hostname } from 'node:os';
import { stringify as stringifyYaml } from 'yaml';
import { ApiServer } from '../../apiserver/server.js';
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim, Pod } from '../../api/types.js';
import type { ResourceClaim } from '../../api/dra_types.js';
import { toEventObject } from '../../cluster/kube/events.js';
import { PodGC } from '../../cluster/memory/controllers/pod_gc.js';
import { TtlAfterFinished } from '../../cluster/memory/controllers/ttl_after_finished.js';
import { EventExpiry } from '../../cluster/memory/event_expiry.js';
import { Kubelet } from '../../cluster/memory/kubelet.js';
import { MemoryCluster } from '../../cluster/memory/store.js';
import type { ClusterClient, ClusterEventRecord, PodStatusPatch, WatchHandler } from '../../cluster/types.js';
import { Scheduler, type AttemptRecord, type ResolvedConfig } from '../../scheduler/scheduler.js';
import { RealClock, seededRandom, type Clock } from '../../util/clock.js';
import { dryRunSchedule, dryRunSchedulePath, podGroupOfRequest, podsOfRequest, treeOfRequest } from './dryrun.js';
import { clusterGates, embeddedDeps, installCrds, populateCluster, type EmbeddedOptions } from '../scenario/embedded.js';
import { pluginKinds } from '../../scheduler/plugin_kinds.js';
import type { Scenario } from '../scenario/scenario.js';
import { profilePlugins, SimulatorAnnotationWriter } from './simulator_annotation_writer.js';
import { defaultConfigText, Workbench } from './workbench.js';

export interface ServeOptions extends Omit<EmbeddedOptions, 'onAttempt' | 'tieBreakByName'> {
  host?: string;
  /** 6443 by default; 0 picks a free port. */
  port?: number;
  bookmarkIntervalMs?: number;
  watchHistorySize?: number;
  clock?: Clock;
  onRequest?: (method: string, path: string, code: number) => void;
  /** The configuration's text as the user wrote it, for the web UI's editor (default: the scenario's). */
  configText?: string;
  /** Writes each pod's results as kube-scheduler-simulator's annotations after its attempts. */
  simulatorAnnotations?: boolean;
  /** How long after its binding the kubelet stand-in runs a pod (default 0). */
  podStartDelayMs?: number;
  /** Run the kubelet stand-in (default true); off, pods stay Pending and nodes as given (API tests). */
  kubelet?: boolean;
  /** How long an Event is kept after its last write (kube-apiserver's --event-ttl; default 1h). */
  eventTtlMs?: number;
}

export interface Serving {
  readonly server: ApiServer;
  readonly cluster: MemoryCluster;
  /** The running scheduler (the web UI replaces it when the configuration changes). */
  readonly scheduler: Scheduler;
  readonly url: string;
  close(): Promise<void>;
}

/** Repeats series of the same event (same object, reason, action and note) within this window. */
const eventSeriesWindowMs = 6 * 60 * 1000;

/**
 * The embedded cluster as the scheduler's client, with its events written as events.k8s.io/v1
 * Event objects (so `kubectl describe` and `kubectl get events` show them).
 */
class EventWritingClient implements ClusterClient {
  private readonly series = new Map<string, { namespace: string; name: string; at: number }>();
  /** The series' size at which entries past the window are swept out. */
  private seriesSweepAt = 1024;
  private seq = 0;
  private readonly instance = `default-scheduler-${hostname()}`;

  constructor(private readonly cluster: MemoryCluster, private readonly clock: Clock) {}

  start(handler: WatchHandler): Promise<void> {
    return this.cluster.start(handler);
  }

  stop(): void {
    this.cluster.stop();
  }

  bind(pod: Pod, nodeName: string): Promise<void> {
    return this.cluster.bind(pod, nodeName);
  }

  updatePodStatus(pod: Pod, patch: PodStatusPatch): Promise<void> {
    return this.cluster.updatePodStatus(pod, patch);
  }

  deletePod(pod: Pod): Promise<void> {
    return this.cluster.deletePod(pod);
  }

  updatePersistentVolume(pv: PersistentVolume): Promise<PersistentVolume> {
    return this.cluster.updatePersistentVolume(pv);
  }

  updatePersistentVolumeClaim(pvc: PersistentVolumeClaim): Promise<PersistentVolumeClaim> {
    return this.cluster.updatePersistentVolumeClaim(pvc);
  }

  updateResourceClaimStatus(claim: ResourceClaim): Promise<ResourceClaim> {
    return this.cluster.updateResourceClaimStatus(claim);
  }

  updateResourceClaim(claim: ResourceClaim): Promise<ResourceClaim> {
    return this.cluster.updateResourceClaim(claim);
  }

  createResourceClaim(claim: ResourceClaim): Promise<ResourceClaim> {
    return this.cluster.createResourceClaim(claim);
  }

  deleteResourceClaim(namespace: string, name: string): Promise<void> {
    return this.cluster.deleteResourceClaim(namespace, name);
  }

  recordEvent(e: ClusterEventRecord): void {
    this.cluster.recordEvent(e);
    const controller = (e.regarding.kind === 'Pod' ? this.getPod(e.regarding.namespace, e.regarding.name)?.spec.schedulerName : undefined) ?? 'default-scheduler';
    const key = [controller, e.regarding.kind, e.regarding.namespace, e.regarding.name, e.regarding.uid, e.action, e.reason, e.type, e.note].join('\u0000');
    const prev = this.series.get(key);
    const now = this.clock.now();
    if (prev && now - prev.at < eventSeriesWindowMs) {
      const existing = this.cluster.get<KubeObject & { series?: { count: number; lastObservedTime: string } }>('Event', prev.namespace, prev.name);
      if (existing) {
        const next = structuredClone(existing);
        next.series = { count: (existing.series?.count ?? 1) + 1, lastObservedTime: new Date(now).toISOString() };
        this.cluster.update(next);
        prev.at = now;
        return;
      }
    }
    const obj = toEventObject(e, controller, this.instance, this.seq++) as unknown as KubeObject;
    const created = this.cluster.create(obj);
    this.series.set(key, { namespace: created.metadata?.namespace ?? 'default', name: created.metadata?.name ?? '', at: now });
    if (this.series.size >= this.seriesSweepAt) this.sweepSeries(now);
  }

  /** Forgets the series no event can join any more (past the window): one per distinct event otherwise. */
  private sweepSeries(now: number): void {
    for (const [key, s] of this.series) if (now - s.at >= eventSeriesWindowMs) this.series.delete(key);
    this.seriesSweepAt = Math.max(1024, 2 * this.series.size);
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return this.cluster.getPod(namespace, name);
  }

  readPod(namespace: string, name: string): Promise<Pod | null> {
    return this.cluster.readPod(namespace, name);
  }

  listNodes(): Node[] {
    return this.cluster.listNodes();
  }
}

/** Loads the scenario into an embedded cluster, starts the API server (with the web UI at /ui/) and the scheduler's loop in real time. */
export async function serveScenario(sc: Scenario, o: ServeOptions): Promise<Serving> {
  const clock = o.clock ?? new RealClock();
  // A served cluster runs what kube-controller-manager runs around the scheduler, unless the
  // scenario turns the workload controllers off; uids are UUIDs, as a real API server's, from a
  // stream of their own (generated names keep theirs).
  const cluster = new MemoryCluster({
    clock, admitPod: o.admitPod, gates: clusterGates(o.featureGates), watchHistorySize: o.watchHistorySize, random: seededRandom(o.seed ?? 1), uuidRandom: seededRandom((o.seed ?? 1) ^ 0x5eed),
    workloadControllers: sc.controllers !== false, disruptionController: true,
    // Nothing reads a served cluster's log of bindings, and it would grow with every one.
    keepBindings: false,
  });
  populateCluster(cluster, sc);
  for (const p of sc.pending) cluster.create(p);
  const client = new EventWritingClient(cluster, clock);
  const annotations = o.simulatorAnnotations
    ? new SimulatorAnnotationWriter(cluster, clock, (pod) => {
      const fwk = scheduler.profiles.get(pod.spec.schedulerName ?? 'default-scheduler');
      return fwk ? profilePlugins(fwk) : null;
    })
    : null;
  // Each pod's last attempt, diagnosed and with every plugin's score, for the web UI's decision tables.
  const onAttempt = (a: AttemptRecord) => {
    workbench.recordAttempt(a);
    annotations?.record(a);
  };
  const build = (config: ResolvedConfig) =>
    Scheduler.fromConfig(config, embeddedDeps({ ...o, config, recordScores: true, diagnose: true, onAttempt, onCompositePlacements: (r) => workbench.recordCompositePlacements(r) }, client, clock));
  let scheduler = build(o.config);
  // A cluster running a plugin that reads a custom resource (Coscheduling) has its CRD installed.
  installCrds(cluster, pluginKinds(scheduler, o.registry));
  // The configuration the dry-run service answers with: the live scheduler's, as the UI changes it.
  let config = o.config;
  const host = {
    cluster,
    registry: o.registry,
    get scheduler() {
      return scheduler;
    },
    async replaceScheduler(nextConfig: ResolvedConfig, whileStopped?: () => void) {
      const next = build(nextConfig);
      await stopScheduler(scheduler);
      whileStopped?.();
      installCrds(cluster, pluginKinds(next, o.registry));
      scheduler = next;
      config = nextConfig;
      await scheduler.start();
      scheduler.loop.start();
    },
  };
  const configText = o.configText ?? (sc.config ? stringifyYaml(sc.config) : defaultConfigText);
  const workbench = new Workbench(host, configText, clock.now());
  const postEndpoints = new Map([[dryRunSchedulePath, (body: unknown) => dryRunSchedule(cluster, clock, podsOfRequest(body), { ...o, config, podGroup: podGroupOfRequest(body), tree: treeOfRequest(body) })]]);
  const gates = o.featureGates ?? FeatureGates.defaults;
  const server = await ApiServer.start({
    cluster, clock, host: o.host, port: o.port, bookmarkIntervalMs: o.bookmarkIntervalMs, onRequest: o.onRequest, mount: workbench, postEndpoints,
    featureGate: (gate) => gates.enabled(gate),
  });
  // After the API server made the system namespaces: the node leases live in kube-node-lease.
  const kubelet = o.kubelet === false ? null : new Kubelet(cluster, clock, { podStartDelayMs: o.podStartDelayMs });
  kubelet?.start();
  const eventExpiry = new EventExpiry(cluster, clock, o.eventTtlMs);
  eventExpiry.start();
  // kube-controller-manager's pod garbage collector: a deleted node's pods go 40-60 s later.
  const podGC = new PodGC(cluster, clock);
  podGC.start();
  // And its TTL-after-finished controller: a finished Job with ttlSecondsAfterFinished goes then.
  const ttlAfterFinished = new TtlAfterFinished(cluster, clock);
  ttlAfterFinished.start();
  await scheduler.start();
  scheduler.loop.start();
  let closed = false;
  return {
    server,
    cluster,
    get scheduler() {
      return scheduler;
    },
    url: server.url,
    async close() {
      if (closed) return;
      closed = true;
      await stopScheduler(scheduler);
      kubelet?.stop();
      eventExpiry.stop();
      podGC.stop();
      ttlAfterFinished.stop();
      annotations?.close();
      await server.close();
    },
  };
}

async function stopScheduler(s: Scheduler): Promise<void> {
  await s.loop.stop();
  await s.waitForBindings();
  s.stop();
}
