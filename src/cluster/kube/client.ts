// The ClusterClient over a real API server: informers (list+watch) for the kinds the scheduler uses,
// binding through pods/binding, pod status through a strategic-merge patch of pods/status, victim
// deletion and events.k8s.io/v1 Events (scheduler.go informers, framework/plugins/defaultbinder,
// pkg/scheduler/util/utils.go PatchPodStatus/DeletePod).
import type { PodGroup } from '../../api/scheduling.js';
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim, Pod, PodCondition } from '../../api/types.js';
import type { ResourceClaim } from '../../api/dra_types.js';
import type { Logger } from '../../log/logger.js';
import type { Clock } from '../../util/clock.js';
import { ApiError, type ClusterClient, type ClusterEventRecord, type PodStatusPatch, type WatchEvent, type WatchHandler } from '../types.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { isNotFound } from './errors.js';
import { EventSink } from './events.js';
import { InformerHealth } from './informer_health.js';
import type { Listed } from './list.js';
import { Reflector, type ReflectorOptions, type ReflectorStatus } from './reflector.js';
import { informerDropsManagedFields, inTableOrder, listKeyOf, podPath, resourceClaimPath, resourceSpec, watchedResourcesFor, type ResourceSpec } from './resources.js';
import { writeTimeoutMs, type RestTransport } from './rest.js';

export interface KubeClusterClientOptions {
  transport: RestTransport;
  /** Events go through their own client (and rate limiter) upstream; defaults to `transport`. */
  eventTransport?: RestTransport;
  clock: Clock;
  log: Logger;
  /** For events' reportingInstance. */
  host?: string;
  /** Reporting controller of events about objects that are not our pods. */
  defaultSchedulerName?: string;
  /** The kinds to watch; by default those of `gateEnabled` (or of the pinned defaults). */
  resources?: readonly ResourceSpec[];
  /** The --feature-gates values: a kind behind an off gate gets no informer. */
  gateEnabled?: (gate: string) => boolean;
  random?: () => number;
  /** Reconnect backoff of the watches (client-go's 800ms doubling to 30s by default). */
  backoff?: BackoffOptions;
  /**
   * First lists already asked for before the client existed (`run` sends them while its modules
   * load), by `listKeyOf` their spec; a kind without one lists as usual.
   */
  firstLists?: ReadonlyMap<string, Promise<Listed>>;
  /** List and watch timeouts of the reflectors (tests shorten them). */
  reflector?: Pick<ReflectorOptions, 'listTimeoutMs' | 'minWatchTimeoutMs' | 'watchGraceMs' | 'pageSize'>;
}

const isTerminalPod = (o: KubeObject): boolean => {
  const phase = (o as Pod).status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
};

/** A read that confirms a binding gives up after this long; the caller retries it. */
const readPodTimeoutMs = 10_000;

/** Retries of a status patch (retry.DefaultBackoff: 4 steps from 10ms, factor 5). */
const patchRetryDelaysMs = [10, 50, 250];

function retriable(err: unknown): boolean {
  if (err instanceof ApiError) return err.code === 500 || err.code === 503 || err.code === 504 || err.code === 429;
  const code = (err as { code?: unknown }).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET';
}

export class KubeClusterClient implements ClusterClient {
  private reflectors: Reflector[] = [];
  /** Kinds watched beyond `resources` for the plugins that read them (PluginDefinition.watches). */
  private pluginResources: ResourceSpec[] = [];
  private podReflector: Reflector | undefined;
  private nodeReflector: Reflector | undefined;
  private readonly events: EventSink;
  private readonly health: InformerHealth;
  private stopped = false;
  /** True once the initial lists have been delivered. */
  synced = false;

  constructor(private readonly o: KubeClusterClientOptions) {
    this.events = new EventSink({ transport: o.eventTransport ?? o.transport, clock: o.clock, log: o.log.withName('events'), host: o.host ?? 'localhost' });
    this.health = new InformerHealth(o.clock, o.log);
  }

  /** Each informer's state: synced, healthy (watching), its last error, lists and watches (soak tests, logs). */
  informerStatus(): ReflectorStatus[] {
    return this.reflectors.map((r) => r.status());
  }

  /** For /readyz: an error while the informers have not synced or some are out of sync with the API server. */
  checkInformers(): Error | null {
    if (!this.synced) return new Error('informers have not synced yet');
    return this.health.check();
  }

  private reflectorOf(kind: string): Reflector | undefined {
    return this.reflectors.find((r) => r.kind === kind);
  }

  /** Relists after 410 Gone, by kind (for tests and logs). */
  relistCount(kind: string): number {
    return this.reflectorOf(kind)?.relists ?? 0;
  }

  /** Adds informers for these kind keys (the plugins' `watches`) to those started by `start`. */
  watchAlso(keys: Iterable<string>): void {
    for (const key of keys) if (!this.pluginResources.some((r) => r.key === key)) this.pluginResources.push(resourceSpec(key));
  }

  async start(handler: WatchHandler): Promise<void> {
    const log = this.o.log;
    const deliver = (e: WatchEvent) => {
      try {
        handler(e);
      } catch (err) {
        log.error(err, 'Event handler failed', { kind: e.kind, type: e.type, object: `${e.object.metadata?.namespace ?? ''}/${e.object.metadata?.name ?? ''}` });
      }
    };
    const watched = inTableOrder([...(this.o.resources ?? watchedResourcesFor(this.o.gateEnabled ?? (() => true))), ...this.pluginResources]);
    this.reflectors = watched.map((spec) => new Reflector({
      spec,
      transport: this.o.transport,
      clock: this.o.clock,
      log: log.withName('reflector'),
      handler: deliver,
      keep: spec.kind === 'Pod' ? (p) => !isTerminalPod(p) : undefined,
      // Less to keep, and at the first list less to parse and for the GC to copy.
      trimManagedFields: informerDropsManagedFields(spec.kind),
      random: this.o.random,
      backoff: new Backoff(this.o.clock, { random: this.o.random, ...this.o.backoff }),
      onHealth: (kind, err) => this.health.update(kind, err),
      firstList: this.o.firstLists?.get(listKeyOf(spec)),
      ...this.o.reflector,
    }));
    this.podReflector = this.reflectorOf('Pod');
    this.nodeReflector = this.reflectorOf('Node');
    // Lists run together; each kind's objects are delivered once it and every kind before it have
    // come in (the objects plugins read before the pods that need them), except that nodes and
    // pods go in whichever order their lists come in, as upstream's informers run side by side:
    // the pending pods need no node, and the cache takes a pod before its node. So the list that
    // comes in first is handled while the other is still on its way.
    const lists = this.reflectors.map((r) => r.listUntilSynced());
    // Every list has a handler from now on: a later one failing while an earlier one is awaited
    // is start's failure, as with Promise.all, not an unhandled rejection.
    void Promise.allSettled(lists);
    for (let i = 0; i < this.reflectors.length; i++) {
      const pair = this.reflectors[i]!.kind === 'Node' && this.reflectors[i + 1]?.kind === 'Pod';
      const order = pair ? await Promise.race([lists[i]!.then(() => [i, i + 1]), lists[i + 1]!.then(() => [i + 1, i])]) : [i];
      for (const k of order) {
        const l = await lists[k]!;
        if (this.stopped) return;
        if (l) this.reflectors[k]!.replace(l.items, l.resourceVersion);
      }
      i += order.length - 1;
    }
    // The watches open on the next turn of the event loop, after what the caller does at once on
    // sync (`run`'s first scheduling cycle and its binding's request): otherwise they would take
    // every connection the lists left open, and the first binding would wait for a new one's TLS
    // handshake (~30 ms at 5,000 nodes). Each resumes from its list's resourceVersion: nothing is missed.
    setImmediate(() => {
      for (const r of this.reflectors) {
        r.run().catch((err: unknown) => log.error(err, 'Reflector stopped on an unexpected error', { kind: r.kind }));
      }
    });
    this.synced = true;
    log.v(3).info('Caches synced', { kinds: this.reflectors.length });
  }

  /**
   * What a new leader does before its first pod: pods and nodes whose informer lost touch with the
   * API server (a watch that could not be reopened, a failed relist), or came back less than
   * `settledMs` ago, are read afresh, a consistent read into the cache, since bindings the previous
   * leader made meanwhile must count against their nodes. Informers watching all along are used as
   * they are, at once, as upstream's standby schedules from its synced caches. Resolves with the
   * kinds re-read.
   */
  async catchUp(settledMs: number): Promise<string[]> {
    const stale = [this.nodeReflector, this.podReflector].filter((r): r is Reflector => r !== undefined && !r.inSync(settledMs));
    await Promise.all(stale.map((r) => r.catchUp()));
    return stale.map((r) => r.kind);
  }

  stop(): void {
    this.stopped = true;
    for (const r of this.reflectors) r.stop();
    this.events.stop();
  }

  /** Waits for queued events to be written (graceful shutdown). */
  flushEvents(): Promise<void> {
    return this.events.flush();
  }

  async bind(pod: Pod, nodeName: string): Promise<void> {
    const ns = pod.metadata.namespace ?? 'default';
    const name = pod.metadata.name ?? '';
    await this.o.transport.request({
      method: 'POST',
      path: podPath(ns, name, 'binding'),
      timeoutMs: writeTimeoutMs,
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { namespace: ns, name, uid: pod.metadata.uid },
        target: { kind: 'Node', name: nodeName },
      },
    });
  }

  /** Keeps a condition's lastTransitionTime when its status does not change (UpdatePodCondition). */
  private withTransitionTime(pod: Pod, cond: PodCondition): PodCondition {
    const cur = this.getPod(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '') ?? pod;
    const prev = cur.status?.conditions?.find((c) => c.type === cond.type);
    if (prev && prev.status === cond.status && prev.lastTransitionTime) return { ...cond, lastTransitionTime: prev.lastTransitionTime };
    return cond;
  }

  async updatePodStatus(pod: Pod, patch: PodStatusPatch): Promise<void> {
    const status: Record<string, unknown> = {};
    const conditions: PodCondition[] = [];
    if (patch.condition) conditions.push(this.withTransitionTime(pod, patch.condition));
    if (patch.disruptionTarget) conditions.push(this.withTransitionTime(pod, patch.disruptionTarget));
    if (conditions.length > 0) status.conditions = conditions;
    if (patch.nominatedNodeName !== undefined) status.nominatedNodeName = patch.nominatedNodeName === '' ? null : patch.nominatedNodeName;
    if (patch.extendedResourceClaimStatus) status.extendedResourceClaimStatus = patch.extendedResourceClaimStatus;
    if (Object.keys(status).length === 0) return;
    const req = {
      method: 'PATCH' as const,
      path: podPath(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '', 'status'),
      contentType: 'application/strategic-merge-patch+json',
      body: { status },
      timeoutMs: writeTimeoutMs,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        await this.o.transport.request(req);
        return;
      } catch (err) {
        if (attempt >= patchRetryDelaysMs.length || !retriable(err)) throw err;
        await new Promise<void>((resolve) => this.o.clock.setTimeout(resolve, patchRetryDelaysMs[attempt]!));
      }
    }
  }

  async deletePod(pod: Pod): Promise<void> {
    await this.o.transport.request({ method: 'DELETE', path: podPath(pod.metadata.namespace ?? 'default', pod.metadata.name ?? ''), timeoutMs: writeTimeoutMs });
  }

  recordEvent(e: ClusterEventRecord): void {
    let controller = this.o.defaultSchedulerName ?? 'default-scheduler';
    if (e.regarding.kind === 'Pod') {
      const p = this.getPod(e.regarding.namespace, e.regarding.name);
      if (p?.spec.schedulerName) controller = p.spec.schedulerName;
    }
    this.events.record(e, controller);
  }

  getPod(namespace: string, name: string): Pod | undefined {
    return this.podReflector?.store.get(`${namespace || 'default'}/${name}`) as Pod | undefined;
  }

  async readPod(namespace: string, name: string): Promise<Pod | null> {
    try {
      return await this.o.transport.request<Pod>({ method: 'GET', path: podPath(namespace || 'default', name), timeoutMs: readPodTimeoutMs });
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  listNodes(): Node[] {
    return this.nodeReflector ? ([...this.nodeReflector.store.values()] as Node[]) : [];
  }

  updatePersistentVolume(pv: PersistentVolume): Promise<PersistentVolume> {
    const path = `/api/v1/persistentvolumes/${encodeURIComponent(pv.metadata?.name ?? '')}`;
    return this.o.transport.request<PersistentVolume>({ method: 'PUT', path, body: { ...pv, apiVersion: 'v1', kind: 'PersistentVolume' }, timeoutMs: writeTimeoutMs });
  }

  updatePersistentVolumeClaim(pvc: PersistentVolumeClaim): Promise<PersistentVolumeClaim> {
    const ns = encodeURIComponent(pvc.metadata?.namespace ?? 'default');
    const path = `/api/v1/namespaces/${ns}/persistentvolumeclaims/${encodeURIComponent(pvc.metadata?.name ?? '')}`;
    return this.o.transport.request<PersistentVolumeClaim>({ method: 'PUT', path, body: { ...pvc, apiVersion: 'v1', kind: 'PersistentVolumeClaim' }, timeoutMs: writeTimeoutMs });
  }

  updateResourceClaimStatus(claim: ResourceClaim): Promise<ResourceClaim> {
    const path = resourceClaimPath(claim.metadata.namespace ?? 'default', claim.metadata.name ?? '', 'status');
    return this.o.transport.request<ResourceClaim>({ method: 'PUT', path, body: { ...claim, apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim' }, timeoutMs: writeTimeoutMs });
  }

  /** PUT podgroups/status: the scheduler's PodGroupInitiallyScheduled condition. */
  updatePodGroupStatus(podGroup: PodGroup): Promise<PodGroup> {
    const ns = encodeURIComponent(podGroup.metadata.namespace ?? 'default');
    const path = `/apis/scheduling.k8s.io/v1beta1/namespaces/${ns}/podgroups/${encodeURIComponent(podGroup.metadata.name ?? '')}/status`;
    return this.o.transport.request<PodGroup>({ method: 'PUT', path, body: { ...podGroup, apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup' }, timeoutMs: writeTimeoutMs });
  }

  updateResourceClaim(claim: ResourceClaim): Promise<ResourceClaim> {
    const path = resourceClaimPath(claim.metadata.namespace ?? 'default', claim.metadata.name ?? '');
    return this.o.transport.request<ResourceClaim>({ method: 'PUT', path, body: { ...claim, apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim' }, timeoutMs: writeTimeoutMs });
  }

  createResourceClaim(claim: ResourceClaim): Promise<ResourceClaim> {
    const path = resourceClaimPath(claim.metadata.namespace ?? 'default');
    return this.o.transport.request<ResourceClaim>({ method: 'POST', path, body: { ...claim, apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim' }, timeoutMs: writeTimeoutMs });
  }

  async deleteResourceClaim(namespace: string, name: string): Promise<void> {
    await this.o.transport.request({ method: 'DELETE', path: resourceClaimPath(namespace, name), timeoutMs: writeTimeoutMs });
  }
}
