// `simulate --serve`: the scenario's embedded cluster served over the Kubernetes API, with the
// embedded scheduler running on a real clock and scheduling the pods clients create.
import { hostname } from 'node:os';
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim, Pod } from '../api/types.js';
import { toEventObject } from '../cluster/kube/events.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import type { ClusterClient, ClusterEventRecord, PodStatusPatch, WatchHandler } from '../cluster/types.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { newEmbeddedScheduler, populateCluster, type EmbeddedOptions } from '../sim/embedded.js';
import type { Scenario } from '../sim/scenario.js';
import { RealClock, type Clock } from '../util/clock.js';
import { ApiServer } from './server.js';

export interface ServeOptions extends Omit<EmbeddedOptions, 'onAttempt' | 'tieBreakByName'> {
  host?: string;
  /** 6443 by default; 0 picks a free port. */
  port?: number;
  bookmarkIntervalMs?: number;
  /** How often the scheduling loop looks for pods the queue's timers moved (default 100 ms). */
  pollIntervalMs?: number;
  watchHistorySize?: number;
  clock?: Clock;
  onRequest?: (method: string, path: string, code: number) => void;
}

export interface Serving {
  readonly server: ApiServer;
  readonly cluster: MemoryCluster;
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
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return this.cluster.getPod(namespace, name);
  }

  listNodes(): Node[] {
    return this.cluster.listNodes();
  }
}

/**
 * Runs the scheduler on a real clock: a pass of scheduleOne whenever the store changes, and a
 * periodic one for pods the queue's own timers (backoff, unschedulable flush) make ready.
 */
export class SchedulingLoop {
  private pending = false;
  private stopped = false;
  private readonly unsubscribe: () => void;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly scheduler: Scheduler, cluster: MemoryCluster, pollIntervalMs = 100) {
    this.unsubscribe = cluster.subscribe(() => this.wake());
    this.timer = setInterval(() => this.wake(), pollIntervalMs);
    this.wake();
  }

  private wake(): void {
    if (this.pending || this.stopped) return;
    this.pending = true;
    setImmediate(() => this.run());
  }

  /** Schedules in batches so HTTP requests are served between them. */
  private run(): void {
    this.pending = false;
    for (let n = 0; n < 64; n++) {
      if (this.stopped || !this.scheduler.scheduleOne()) return;
      // A cycle waiting for extenders: go on once it has finished.
      if (this.scheduler.hasCycleInFlight) {
        void this.scheduler.cycleSettled().catch(() => undefined).then(() => this.wake());
        return;
      }
    }
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    clearInterval(this.timer);
  }
}

/** Loads the scenario into an embedded cluster, starts the scheduler, the loop and the API server. */
export async function serveScenario(sc: Scenario, o: ServeOptions): Promise<Serving> {
  const clock = o.clock ?? new RealClock();
  const cluster = new MemoryCluster({ clock, admitPod: o.admitPod, watchHistorySize: o.watchHistorySize });
  populateCluster(cluster, sc);
  for (const p of sc.pending) cluster.create(p);
  const server = await ApiServer.start({ cluster, clock, host: o.host, port: o.port, bookmarkIntervalMs: o.bookmarkIntervalMs, onRequest: o.onRequest });
  const scheduler = newEmbeddedScheduler(o, new EventWritingClient(cluster, clock), clock);
  await scheduler.start();
  const loop = new SchedulingLoop(scheduler, cluster, o.pollIntervalMs);
  let closed = false;
  return {
    server,
    cluster,
    scheduler,
    url: server.url,
    async close() {
      if (closed) return;
      closed = true;
      loop.stop();
      await scheduler.waitForBindings();
      scheduler.stop();
      await server.close();
    },
  };
}
