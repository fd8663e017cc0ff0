// The Scheduler (scheduler.go New): built from a resolved configuration, with its profiles,
// cache, queue and the loop that drives its scheduling and binding cycles (schedule_one.ts,
// binding_cycle.ts).
import type { Pod } from '../api/types.js';
import { podKey } from '../api/types.js';
import { observedGenerationOf } from '../api/pod_conditions.js';
import { Cache } from '../cache/cache.js';
import { Snapshot } from '../cache/snapshot.js';
import type { ClusterClient, PodStatusPatch } from '../cluster/types.js';
import { FeatureGates } from '../config/feature_gates.js';
import type { Extender as ExtenderConfig } from '../config/types.js';
import { featuresFromGates, type Features } from '../framework/features.js';
import { setUpExtenders } from '../extender/setup.js';
import type { Extender } from '../framework/extender.js';
import type { EventRecorder, PluginClusterClient } from '../framework/interfaces.js';
import { MapObjectLister, waitForObjects } from '../framework/object_lister.js';
import type { Registry } from '../framework/registry.js';
import { Framework } from '../framework/runtime/framework.js';
import type { ProfileConfig } from '../framework/runtime/profile_plugins.js';
import { SchedulingQueue } from '../queue/scheduling_queue.js';
import type { Clock } from '../util/clock.js';
import type { AttemptRecord, CycleContext } from './attempt.js';
import type { CompositePlacementRecord } from './composite_algorithm.js';
import { EventHandlers, type EventHandlerTarget } from './event_handlers.js';
import { BindingConfirmations } from './binding_confirmation.js';
import { SchedulingLoop, type SchedulingCycles } from './loop.js';
import type { SchedulerMetricsRecorder } from './metrics_recorder.js';
import { apiCallRunner } from './async_api_calls.js';
import { attemptOnce, scheduleOne } from './schedule_one.js';
import type { AlgorithmState } from './schedule_pod.js';

export type { AttemptRecord } from './attempt.js';
import type { SharedDRAManager } from '../framework/shared_dra_manager.js';
import { newSharedDRAManager } from '../plugins/dynamicresources/shared_dra_manager.js';
import { PodGroupStates } from '../cache/pod_group_state.js';
import { groupScheduler } from './schedule_group.js';
import { withWorkloadPlugins } from './workload_plugins.js';
import { rowPassPool, RowPassPool, type RowPassPoolOptions } from './parallel/row_pass_pool.js';

/** The parts of a defaulted KubeSchedulerConfiguration a Scheduler is built from. */
export interface ResolvedConfig {
  profiles: ProfileConfig[];
  /** HTTP extenders (KubeSchedulerConfiguration `extenders`). */
  extenders?: ExtenderConfig[];
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  parallelism?: number;
}

/** What a Scheduler runs with besides its configuration. */
export interface SchedulerDeps {
  registry: Registry;
  client: ClusterClient;
  clock: Clock;
  random: () => number;
  /** In-tree plugins named by a profile but not built yet: skipped with a warning. */
  notYetAvailable?: ReadonlySet<string>;
  /** --feature-gates; the pinned release's defaults when absent. */
  featureGates?: FeatureGates;
  /** Pick the first top-scored node by name instead of sampling (exact comparisons). */
  tieBreakByName?: boolean;
  /** Keep every plugin's score per node in attempt records (explain). */
  recordScores?: boolean;
  /**
   * Diagnose every attempt (explain, the workbench): every Filter plugin runs past the first
   * rejection, scores are kept raw, normalized and weighted, preemption explains every node.
   * The decisions are the same; only the time differs.
   */
  diagnose?: boolean;
  /** Called once per attempt with its final outcome (after the binding when it got that far). */
  onAttempt?: (a: AttemptRecord) => void;
  /** A scheduled attempt's record as its binding cycle starts (explain, whose pods may stay in PreBind). */
  onBindingStart?: (a: AttemptRecord) => void;
  /** Each CompositePodGroup's placements as its cycle tries them, with their scores (explain). */
  onCompositePlacements?: (r: CompositePlacementRecord) => void;
  log?: (level: number, msg: string) => void;
  /** Metrics (the real-cluster mode); without, measuring costs nothing. */
  metrics?: SchedulerMetricsRecorder | null;
  /** Extenders to call instead of those the configuration names (tests, library use). */
  extenders?: readonly Extender[];
  /** Monotonic seconds for durations (performance.now() by default). */
  monotonicSeconds?: () => number;
  /**
   * Worker threads for long Filter walks (scheduler/parallel/row_pass_pool.ts): none by default
   * (docs/performance.md); `{}` takes as many as parallelism and the cores allow, `workers: N`
   * that many (0: the row pass on the main thread alone).
   */
  rowPass?: RowPassPoolOptions | null;
}

const defaultMonotonicSeconds = (): number => performance.now() / 1000;

export class Scheduler implements SchedulingCycles, EventHandlerTarget {
  readonly cache: Cache;
  readonly queue: SchedulingQueue;
  readonly profiles = new Map<string, Framework>();
  readonly objects = new MapObjectLister();
  readonly snapshot = new Snapshot();
  readonly handlers: EventHandlers;
  /** The feature gates' values its plugins got (reports that re-ask a plugin's question use them too). */
  readonly features: Features;
  /** The one loop that drives this scheduler in every mode. */
  readonly loop: SchedulingLoop;
  private readonly metrics: SchedulerMetricsRecorder | null;
  private readonly monotonicSeconds: () => number;
  /** The Filter walk's worker threads, when asked for (SchedulerDeps.rowPass). */
  readonly rowPass: RowPassPool | null;
  /** What the scheduling and binding cycles use of this scheduler. */
  private readonly cycles: CycleContext;
  /** Binding cycles in flight. */
  private readonly bindings = new Set<Promise<void>>();
  /** Plugins' work started outside a cycle (asynchronous preemption's evictions). */
  private readonly background = new Set<Promise<void>>();
  /** Bindings whose answer was lost, until the API server or the informer says where the pod is. */
  private readonly confirmations: BindingConfirmations;
  /** Pod groups and their members, with GenericWorkload on. */
  readonly podGroups: PodGroupStates | null;

  /**
   * The scheduler for a resolved configuration: its extenders (and the NodeResourcesFit
   * ignoredResources they imply), profiles, backoffs, parallelism and percentageOfNodesToScore.
   */
  static fromConfig(config: ResolvedConfig, deps: SchedulerDeps): Scheduler {
    const { extenders, profiles } = deps.extenders
      ? { extenders: deps.extenders, profiles: config.profiles }
      : setUpExtenders(config.extenders ?? [], config.profiles);
    return new Scheduler(config, profiles, extenders, deps);
  }

  private constructor(config: ResolvedConfig, profiles: readonly ProfileConfig[], extenders: readonly Extender[], private readonly deps: SchedulerDeps) {
    const clock = deps.clock;
    this.metrics = deps.metrics ?? null;
    this.monotonicSeconds = deps.monotonicSeconds ?? defaultMonotonicSeconds;
    this.cache = new Cache(clock);
    this.confirmations = new BindingConfirmations({
      readPod: (namespace, name) => deps.client.readPod(namespace, name),
      informerView: (pod) => (this.cache.isAssumedPod(pod) ? undefined : (this.cache.getPod(pod) ?? null)),
      clock,
      log: (level, msg) => this.log(level, msg),
    });
    const alg: AlgorithmState = {
      nextStartNodeIndex: 0,
      percentageOfNodesToScore: config.percentageOfNodesToScore ?? 0,
      random: deps.random,
      tieBreakByName: deps.tieBreakByName ?? false,
      oneWorker: (config.parallelism ?? 16) === 1,
      recordScores: (deps.recordScores ?? false) || (deps.diagnose ?? false),
    };
    this.rowPass = rowPassPool(config.parallelism ?? 16, deps.rowPass);
    if (this.rowPass !== null) alg.rowPass = this.rowPass;
    const gates = deps.featureGates ?? FeatureGates.defaults;
    // The writes upstream's API dispatcher takes with SchedulerAsyncAPICalls: bindings and the
    // pod status patches (the unschedulable condition, nominations set and cleared).
    const dispatch = apiCallRunner(this.metrics, gates.enabled('SchedulerAsyncAPICalls'), this.monotonicSeconds);
    const patchPodStatus = (pod: Pod, patch: PodStatusPatch): Promise<void> =>
      dispatch ? dispatch('pod_status_patch', () => deps.client.updatePodStatus(pod, patch)) : deps.client.updatePodStatus(pod, patch);
    const pluginClient: PluginClusterClient = {
      bind: dispatch ? (pod, node) => dispatch('pod_binding', () => deps.client.bind(pod, node)) : (pod, node) => deps.client.bind(pod, node),
      deletePod: (pod, o) => this.deleteVictim(pod, o),
      clearNominatedNodeName: (pod) => patchPodStatus(pod, { nominatedNodeName: '' }),
      updatePersistentVolume: deps.client.updatePersistentVolume?.bind(deps.client),
      updatePersistentVolumeClaim: deps.client.updatePersistentVolumeClaim?.bind(deps.client),
      updateResourceClaimStatus: deps.client.updateResourceClaimStatus?.bind(deps.client),
      updateResourceClaim: deps.client.updateResourceClaim?.bind(deps.client),
      createResourceClaim: deps.client.createResourceClaim?.bind(deps.client),
      deleteResourceClaim: deps.client.deleteResourceClaim?.bind(deps.client),
      setExtendedResourceClaimStatus: (pod, status) => deps.client.updatePodStatus(pod, { extendedResourceClaimStatus: status }),
      waitUntil: (ready, timeoutMs, signal) => waitForObjects(this.objects, clock, ready, timeoutMs, signal),
      podExists: (namespace, name) => deps.client.getPod(namespace, name) !== undefined,
      getPod: (namespace, name) => deps.client.getPod(namespace, name),
    };
    const recorder: EventRecorder = {
      event: (regarding, type, reason, action, message) =>
        deps.client.recordEvent({
          regarding: {
            kind: regarding.kind ?? '',
            namespace: regarding.metadata?.namespace ?? '',
            name: regarding.metadata?.name ?? '',
            uid: regarding.metadata?.uid,
          },
          type,
          reason,
          action,
          note: message,
          time: clock.now(),
        }),
    };
    const features = featuresFromGates((gate) => gates.enabled(gate));
    this.features = features;
    // One DRA manager for every plugin of every profile (scheduler.go's NewDRAManager), built on first use.
    let draManager: SharedDRAManager | undefined;
    const sharedDRAManager = (): SharedDRAManager => (draManager ??= newSharedDRAManager(this.objects, features));
    const podGroups = features.enableGenericWorkload ? new PodGroupStates((p) => this.cache.isAssumedPod(p), (p) => this.cache.getPod(p)) : null;
    if (podGroups !== null) podGroups.compositePodGroupEnabled = features.enableCompositePodGroup;
    this.podGroups = podGroups;
    let queue: SchedulingQueue | undefined = undefined;
    for (const profile of profiles.map((p) => withWorkloadPlugins(p, features))) {
      const fwk = new Framework(profile, {
        podGroups: podGroups ?? undefined,
        registry: deps.registry,
        snapshot: () => this.snapshot,
        objects: this.objects,
        client: pluginClient,
        eventRecorder: recorder,
        nominator: {
          nominatedPodsForNode: (n) => queue!.nominator.nominatedPodsForNode(n),
          hasNominatedPods: () => queue!.nominator.hasNominatedPods(),
        },
        clock,
        random: deps.random,
        parallelism: config.parallelism ?? 16,
        features,
        notYetAvailable: deps.notYetAvailable,
        extenders,
        metrics: this.metrics,
        monotonicSeconds: this.monotonicSeconds,
        // None without a logger: the framework then builds no message (Sign's, one per pod).
        log: deps.log === undefined ? undefined : (level, msg) => this.log(level, msg),
        opportunisticBatching: gates.enabled('OpportunisticBatching'),
        activate: (pods) => queue!.activate(pods),
        runInBackground: (work) => this.runInBackground(work),
        sharedDRAManager,
      });
      this.profiles.set(profile.schedulerName, fwk);
    }
    this.loop = new SchedulingLoop(this);
    const metrics = this.metrics;
    queue = new SchedulingQueue(
      new Map([...this.profiles].map(([name, fwk]) => [name, {
        less: fwk.queueSortLess(),
        preEnqueue: (pod: Pod) => fwk.runPreEnqueuePlugins(pod),
        events: fwk.eventsToRegister(),
      }])),
      {
        clock,
        podInitialBackoffMs: (config.podInitialBackoffSeconds ?? 1) * 1000,
        podMaxBackoffMs: (config.podMaxBackoffSeconds ?? 10) * 1000,
        podLister: (namespace, name) => deps.client.getPod(namespace, name),
        onActive: () => this.loop.wake(),
        onIncoming: metrics === null ? undefined : (q, event) => metrics.observeQueueIncoming(q, event),
        podGroups: podGroups === null ? undefined : { compositePodGroupEnabled: features.enableCompositePodGroup },
        log: (level, msg) => this.log(level, msg),
      },
    );
    this.queue = queue;
    this.handlers = new EventHandlers(this, features.enableDRADeviceTaintRules);
    this.cycles = {
      cache: this.cache,
      queue,
      snapshot: this.snapshot,
      profiles: this.profiles,
      alg,
      extenders: { extenders, log: (msg) => this.log(2, msg) },
      metrics: this.metrics,
      monotonicSeconds: this.monotonicSeconds,
      clock,
      client: dispatch ? {
        getPod: (namespace, name) => deps.client.getPod(namespace, name),
        updatePodStatus: patchPodStatus,
        ...(deps.client.updatePodGroupStatus ? { updatePodGroupStatus: deps.client.updatePodGroupStatus.bind(deps.client) } : {}),
      } : deps.client,
      random: deps.random,
      nominateInBindingCycle: gates.enabled('NominatedNodeNameForExpectation'),
      diagnose: deps.diagnose ?? false,
      onAttempt: deps.onAttempt,
      onBindingStart: deps.onBindingStart,
      onCompositePlacements: deps.onCompositePlacements,
      confirmations: this.confirmations,
      bindings: this.bindings,
      log: (level, msg) => this.log(level, msg),
      scheduleGroup: null,
    };
    if (podGroups !== null) this.cycles.scheduleGroup = groupScheduler(this.cycles, podGroups);
  }

  /** Plugins the profiles name that are not built yet, by profile. */
  unavailablePlugins(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [name, fwk] of this.profiles) if (fwk.unavailablePlugins.length) out.set(name, fwk.unavailablePlugins);
    return out;
  }

  log(level: number, msg: string): void {
    this.deps.log?.(level, msg);
  }

  /** Lists and watches the cluster; resolves once caches are synced. */
  async start(): Promise<void> {
    await this.deps.client.start((e) => this.handlers.handle(e));
    this.queue.run();
  }

  /**
   * Stops the loop, the queue's timers and the watches (bindings in flight are not waited for;
   * those waiting for a lost answer to be confirmed end, leaving their pod assumed).
   */
  stop(): void {
    this.rowPass?.close();
    void this.loop.stop();
    this.confirmations.stop();
    this.queue.close();
    this.deps.client.stop();
  }

  responsibleForPod(pod: Pod): boolean {
    return this.profiles.has(pod.spec.schedulerName ?? 'default-scheduler');
  }

  podBindingObserved(pod: Pod, deleted: boolean): void {
    this.confirmations.observe(pod, deleted);
  }

  rejectWaitingPod(uid: string): boolean {
    let rejected = false;
    for (const fwk of this.profiles.values()) if (fwk.rejectWaitingPod(uid)) rejected = true;
    return rejected;
  }

  /** Waits for every binding cycle, and every plugin's background work (evictions), in flight. */
  async waitForBindings(): Promise<void> {
    while (this.bindings.size > 0 || this.background.size > 0) await Promise.all([...this.bindings, ...this.background]);
  }

  get bindingsInFlight(): number {
    return this.bindings.size;
  }

  get backgroundInFlight(): number {
    return this.background.size;
  }

  private runInBackground(work: Promise<void>): void {
    const p = work
      .catch((err: unknown) => this.log(1, `background work: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => this.background.delete(p));
    this.background.add(p);
  }

  /**
   * Pops one pod and runs its scheduling cycle; the binding cycle goes on in the background.
   * False when there was no pod, a promise while the cycle waits for an extender (SchedulingLoop
   * pops nothing meanwhile), else true. Nothing the cycle throws escapes: the pod is retried.
   */
  scheduleOne(): boolean | Promise<void> {
    return scheduleOne(this.cycles);
  }

  /**
   * One cycle for a pod group outside the queue's order (explain): its queued entity is popped and
   * scheduled, then the bindings are waited for. False when the group has no queued entity.
   */
  async attemptGroupOnce(namespace: string, name: string): Promise<boolean> {
    const entity = this.queue.popGroup(namespace, name);
    if (!entity) return false;
    await this.cycles.scheduleGroup!(entity);
    await this.waitForBindings();
    return true;
  }

  /**
   * One attempt for a pod outside the queue's order (explain): the same cycles, then waits for
   * the binding. A failed pod is not retried.
   */
  async attemptOnce(pod: Pod, parked?: (bindings: number) => boolean): Promise<void> {
    const uid = pod.metadata.uid ?? podKey(pod);
    this.queue.delete(pod);
    await attemptOnce(this.cycles, pod);
    if (parked) await this.waitUntilParked(parked);
    else await this.waitForBindings();
    this.queue.done(uid);
  }

  /**
   * waitForBindings, except that it returns once no background work is left and `parked` says
   * the bindings in flight all wait for what nothing will do (a volume no PV controller binds,
   * as in the differential harness's cluster).
   */
  private async waitUntilParked(parked: (bindings: number) => boolean): Promise<void> {
    // A PreBind with quick work (claims already bound) is in PreBind for a few turns too: parked
    // means still there after `settleTurns` turns of the event loop with nothing else to run.
    const settleTurns = 20;
    let turns = 0;
    while (this.bindings.size > 0 || this.background.size > 0) {
      turns = this.background.size === 0 && parked(this.bindings.size) ? turns + 1 : 0;
      if (turns >= settleTurns) return;
      await Promise.race([Promise.all([...this.bindings, ...this.background]), new Promise((resolve) => setImmediate(resolve))]);
    }
  }

  /** Deletes a preemption victim, marking it with the DisruptionTarget condition first. */
  private async deleteVictim(pod: Pod, o?: { disruptionReason?: string; message?: string }): Promise<void> {
    await this.deps.client.updatePodStatus(pod, {
      disruptionTarget: {
        type: 'DisruptionTarget',
        ...observedGenerationOf(pod),
        status: 'True',
        reason: o?.disruptionReason ?? 'PreemptionByScheduler',
        message: o?.message ?? '',
        lastTransitionTime: new Date(this.deps.clock.now()).toISOString(),
      },
    }).catch(() => undefined);
    await this.deps.client.deletePod(pod, o);
  }
}
