// The Scheduler: built from a resolved configuration, with its profiles, cache, queue, the
// scheduling and binding cycles, and the loop that drives them (scheduler.go New,
// schedule_one.go).
import type { Pod, PodCondition } from '../api/types.js';
import { podKey } from '../api/types.js';
import { Cache } from '../cache/cache.js';
import { Snapshot } from '../cache/snapshot.js';
import type { ClusterClient } from '../cluster/types.js';
import { FeatureGates } from '../config/feature_gates.js';
import type { Extender as ExtenderConfig } from '../config/types.js';
import { featuresFromGates, type Features } from '../framework/features.js';
import { setUpExtenders } from '../extender/setup.js';
import { CycleDiagnosis, type PreemptionDiagnosis } from '../framework/cycle_diagnosis.js';
import { CycleState } from '../framework/cycle_state.js';
import { ActionType } from '../framework/events.js';
import type { Extender } from '../framework/extender.js';
import { Diagnosis, ErrNoNodesAvailable, FitError } from '../framework/runtime/fit_error.js';
import type { EventRecorder, PluginClusterClient, QueuedPodInfo, RequeueCause } from '../framework/interfaces.js';
import { andThen, type MaybePromise } from '../util/maybe_promise.js';
import { thrownMessage } from '../framework/runtime/thrown.js';
import { pluginMetricsSamplePercent } from '../framework/metrics_recorder.js';
import { MapObjectLister, waitForObjects } from '../framework/object_lister.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Registry } from '../framework/registry.js';
import { Framework, type PostFilterRunResult, type ProfileConfig } from '../framework/runtime/framework.js';
import { Code, Status, isSuccess } from '../framework/status.js';
import { clearNominatedNode, type NominatingInfo } from '../queue/nominator.js';
import { SchedulingQueue } from '../queue/scheduling_queue.js';
import type { Clock } from '../util/clock.js';
import { EventHandlers, type EventHandlerTarget } from './event_handlers.js';
import { BindingConfirmations, bindingMayHaveLanded } from './binding_confirmation.js';
import { SchedulingLoop, type SchedulingCycles } from './loop.js';
import type { AttemptResult, SchedulerMetricsRecorder } from './metrics_recorder.js';
import { schedulePod, type AlgorithmState, type ExtenderSet, type ScheduleResult } from './schedule_pod.js';

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
  log?: (level: number, msg: string) => void;
  /** Metrics (the real-cluster mode); without, measuring costs nothing. */
  metrics?: SchedulerMetricsRecorder | null;
  /** Extenders to call instead of those the configuration names (tests, library use). */
  extenders?: readonly Extender[];
  /** Monotonic seconds for durations (performance.now() by default). */
  monotonicSeconds?: () => number;
}

/** What one scheduling attempt found, for explain and reports. */
export interface AttemptRecord {
  readonly pod: Pod;
  readonly outcome: 'Scheduled' | 'Unschedulable' | 'Error';
  readonly node: string;
  readonly message: string;
  readonly result: ScheduleResult | null;
  readonly diagnosis: Diagnosis | null;
  readonly nominatedNode: string;
  readonly victims: string[];
  /** What preemption found per node (a diagnosed attempt that ran PostFilter), else null. */
  readonly preemption: PreemptionDiagnosis | null;
  /** What requeued the pod for this attempt; null for its first. */
  readonly requeuedBy: RequeueCause | null;
  readonly attempt: number;
  readonly time: number;
  /** From the start of the scheduling cycle to the end of the attempt (binding included), in seconds. */
  readonly durationSeconds: number;
}

/** One attempt in flight: its pod, profile, cycle state and what it has found so far. */
interface Attempt {
  readonly qp: QueuedPodInfo;
  readonly fwk: Framework;
  readonly state: CycleState;
  /** Monotonic seconds at the start of the scheduling cycle. */
  readonly start: number;
  /** False for explain's single attempts: a failed pod is not put back in the queue. */
  readonly requeue: boolean;
  /** Preemption victims deleted during the scheduling cycle. */
  readonly victims: string[];
}

/** What a scheduling cycle ends with: a reserved pod to bind, or the status it failed with. */
interface CycleOutcome {
  result: ScheduleResult | null;
  assumed: PodInfo | null;
  status: Status | null;
  nominating: NominatingInfo | null;
}

/**
 * How the bind of a binding cycle ended: bound; failed (the pod is retried); not ours (deleted,
 * or bound to another node by another binder, while its binding was unconfirmed: nothing to
 * retry); or stopped (the scheduler stopped before the binding was confirmed).
 */
type BindEnd =
  | { readonly kind: 'bound' }
  | { readonly kind: 'failed'; readonly status: Status }
  | { readonly kind: 'notOurs'; readonly status: Status }
  | { readonly kind: 'stopped' };

const bound: BindEnd = { kind: 'bound' };
const failed = (status: Status): BindEnd => ({ kind: 'failed', status });

/** Forgetting an assumed pod frees its node's resources, as a deleted assigned pod would. */
const assignedPodDelete = { resource: 'AssignedPod', actionType: ActionType.Delete, label: 'AssignedPodDelete' } as const;

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
  private readonly alg: AlgorithmState;
  private readonly extenders: ExtenderSet;
  private readonly metrics: SchedulerMetricsRecorder | null;
  private readonly monotonicSeconds: () => number;
  /** Binding cycles in flight. */
  private readonly bindings = new Set<Promise<void>>();
  /** Bindings whose answer was lost, until the API server or the informer says where the pod is. */
  private readonly confirmations: BindingConfirmations;
  /** Where preemption victims of the current scheduling cycle are noted (one cycle at a time). */
  private cycleVictims: string[] = [];

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
    this.extenders = { extenders, log: (msg) => this.log(2, msg) };
    this.cache = new Cache(clock);
    this.confirmations = new BindingConfirmations({
      readPod: (namespace, name) => deps.client.readPod(namespace, name),
      informerView: (pod) => (this.cache.isAssumedPod(pod) ? undefined : (this.cache.getPod(pod) ?? null)),
      clock,
      log: (level, msg) => this.log(level, msg),
    });
    this.alg = {
      nextStartNodeIndex: 0,
      percentageOfNodesToScore: config.percentageOfNodesToScore ?? 0,
      random: deps.random,
      tieBreakByName: deps.tieBreakByName ?? false,
      recordScores: (deps.recordScores ?? false) || (deps.diagnose ?? false),
    };
    const pluginClient: PluginClusterClient = {
      bind: (pod, node) => deps.client.bind(pod, node),
      deletePod: (pod, o) => this.deleteVictim(pod, o),
      clearNominatedNodeName: (pod) => deps.client.updatePodStatus(pod, { nominatedNodeName: '' }),
      updatePersistentVolume: deps.client.updatePersistentVolume?.bind(deps.client),
      updatePersistentVolumeClaim: deps.client.updatePersistentVolumeClaim?.bind(deps.client),
      updateResourceClaimStatus: deps.client.updateResourceClaimStatus?.bind(deps.client),
      updateResourceClaim: deps.client.updateResourceClaim?.bind(deps.client),
      createResourceClaim: deps.client.createResourceClaim?.bind(deps.client),
      deleteResourceClaim: deps.client.deleteResourceClaim?.bind(deps.client),
      setExtendedResourceClaimStatus: (pod, status) => deps.client.updatePodStatus(pod, { extendedResourceClaimStatus: status }),
      waitUntil: (ready, timeoutMs) => waitForObjects(this.objects, clock, ready, timeoutMs),
      podExists: (namespace, name) => deps.client.getPod(namespace, name) !== undefined,
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
    const gates = deps.featureGates ?? FeatureGates.defaults;
    const features = featuresFromGates((gate) => gates.enabled(gate));
    this.features = features;
    let queue: SchedulingQueue | undefined = undefined;
    for (const profile of profiles) {
      const fwk = new Framework(profile, {
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
        log: (level, msg) => this.log(level, msg),
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
      },
    );
    this.queue = queue;
    this.handlers = new EventHandlers(this, features.enableDRADeviceTaintRules);
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

  /** Waits for every binding cycle in flight. */
  async waitForBindings(): Promise<void> {
    while (this.bindings.size > 0) await Promise.all([...this.bindings]);
  }

  get bindingsInFlight(): number {
    return this.bindings.size;
  }

  /**
   * Pops one pod and runs its scheduling cycle; the binding cycle goes on in the background.
   * False when there was no pod, a promise while the cycle waits for an extender (SchedulingLoop
   * pops nothing meanwhile), else true. Nothing the cycle throws escapes: the pod is retried.
   */
  scheduleOne(): boolean | Promise<void> {
    const qp = this.queue.pop();
    if (!qp) return false;
    let cycle: MaybePromise<void>;
    try {
      cycle = this.schedulingCycle(qp, true);
    } catch (err) {
      this.cycleCrashed(qp, err);
      return true;
    }
    return cycle instanceof Promise ? cycle.catch((err: unknown) => this.cycleCrashed(qp, err)) : true;
  }

  /**
   * One attempt for a pod outside the queue's order (explain): the same cycles, then waits for
   * the binding. A failed pod is not retried.
   */
  async attemptOnce(pod: Pod): Promise<void> {
    const uid = pod.metadata.uid ?? podKey(pod);
    this.queue.delete(pod);
    const qp: QueuedPodInfo = {
      podInfo: new PodInfo(pod),
      timestamp: this.deps.clock.now(),
      attempts: 1,
      initialAttemptTimestamp: this.deps.clock.now(),
      unschedulablePlugins: new Set(),
      pendingPlugins: new Set(),
      gatingPlugin: null,
    };
    await this.schedulingCycle(qp, false);
    await this.waitForBindings();
    this.queue.done(uid);
  }

  /** The scheduling cycle: synchronous unless an extender is asked (then a promise). */
  private schedulingCycle(qp: QueuedPodInfo, requeue: boolean): MaybePromise<void> {
    const fwk = this.startAttempt(qp);
    if (fwk === null) return;
    const attempt: Attempt = { qp, fwk, state: new CycleState(), start: this.monotonicSeconds(), requeue, victims: [] };
    // Plugin calls are timed in a sample of cycles, drawn only when metrics are on so that
    // simulations keep their random sequence.
    if (this.metrics !== null) attempt.state.recordPluginMetrics = this.deps.random() * 100 < pluginMetricsSamplePercent;
    if (this.deps.diagnose) attempt.state.diagnosis = new CycleDiagnosis();
    this.cycleVictims = attempt.victims;
    // No other scheduling cycle runs until this one ends, so the snapshot stays as found.
    this.cache.updateSnapshot(this.snapshot);
    let found: MaybePromise<ScheduleResult>;
    try {
      found = schedulePod(this.alg, fwk, attempt.state, qp.podInfo, this.snapshot, this.extenders);
    } catch (err) {
      return andThen(this.algorithmFailed(attempt, err), (o) => this.finishSchedulingCycle(attempt, o));
    }
    if (found instanceof Promise) {
      return found.then(
        (r) => this.finishSchedulingCycle(attempt, this.assumeAndReserve(attempt, r)),
        (err: unknown) => andThen(this.algorithmFailed(attempt, err), (o) => this.finishSchedulingCycle(attempt, o)),
      );
    }
    return this.finishSchedulingCycle(attempt, this.assumeAndReserve(attempt, found));
  }

  /** The profile to schedule the pod with, or null when the attempt ends before it starts. */
  private startAttempt(qp: QueuedPodInfo): Framework | null {
    const pod = qp.podInfo.pod;
    const fwk = this.profiles.get(pod.spec.schedulerName ?? 'default-scheduler');
    if (!fwk) {
      this.queue.done(qp.podInfo.uid);
      return null;
    }
    if (pod.metadata.deletionTimestamp) {
      fwk.eventRecorder().event(pod, 'Warning', 'FailedScheduling', 'Scheduling', `skip schedule deleting pod: ${qp.podInfo.key}`);
      this.queue.done(qp.podInfo.uid);
      return null;
    }
    // An assumed pod can come back to the queue through an update received before it was assumed.
    if (this.cache.isAssumedPod(pod)) {
      this.queue.done(qp.podInfo.uid);
      return null;
    }
    return fwk;
  }

  /** A cycle that threw outside any plugin: logged, and the pod retried after backoff. */
  private cycleCrashed(qp: QueuedPodInfo, err: unknown): void {
    this.log(1, `Error scheduling pod ${qp.podInfo.key}; retrying: ${thrownMessage(err)}`);
    qp.unschedulablePlugins = new Set();
    qp.pendingPlugins = new Set();
    this.queue.addUnschedulableIfNotPresent(qp);
  }

  /** Starts the binding cycle, or reports the failure and puts the pod back. */
  private finishSchedulingCycle(attempt: Attempt, outcome: CycleOutcome): void {
    const { result, assumed, status, nominating } = outcome;
    if (!isSuccess(status)) {
      this.finishAttempt(attempt, status, result, nominating);
      this.handleSchedulingFailure(attempt, status!, nominating);
      return;
    }
    const p = this.bindingCycle(attempt, result!, assumed!)
      .catch((err: unknown) => this.log(1, `binding cycle of pod ${attempt.qp.podInfo.key}: ${thrownMessage(err)}`))
      .finally(() => this.bindings.delete(p));
    this.bindings.add(p);
  }

  /** Reports an attempt's final outcome: metrics, then the onAttempt record. */
  private finishAttempt(attempt: Attempt, status: Status | null, result: ScheduleResult | null, nominating: NominatingInfo | null): void {
    const seconds = this.monotonicSeconds() - attempt.start;
    const outcome = status === null ? 'Scheduled' : status.isRejected() ? 'Unschedulable' : 'Error';
    if (this.metrics !== null) {
      const r: AttemptResult = outcome === 'Scheduled' ? 'scheduled' : outcome === 'Unschedulable' ? 'unschedulable' : 'error';
      this.metrics.observeAttempt(r, attempt.fwk.profileName, seconds);
    }
    if (!this.deps.onAttempt) return;
    const err = status?.error;
    this.deps.onAttempt({
      pod: attempt.qp.podInfo.pod,
      outcome,
      node: status === null ? result!.suggestedHost : '',
      message: status === null ? '' : status.message(),
      result,
      diagnosis: result?.diagnosis ?? (err instanceof FitError ? err.diagnosis : null),
      nominatedNode: nominating?.mode === 'Override' ? nominating.nominatedNodeName : '',
      victims: attempt.victims,
      preemption: attempt.state.diagnosis?.preemption ?? null,
      requeuedBy: attempt.qp.requeuedBy ?? null,
      attempt: attempt.qp.attempts,
      time: this.deps.clock.now(),
      durationSeconds: seconds,
    });
  }

  /** The scheduling algorithm found no node (FitError: PostFilter may nominate one) or failed. */
  private algorithmFailed(attempt: Attempt, err: unknown): MaybePromise<CycleOutcome> {
    if (err === ErrNoNodesAvailable) {
      return { result: null, assumed: null, status: new Status(Code.UnschedulableAndUnresolvable, [(err as Error).message], err as Error), nominating: clearNominatedNode };
    }
    if (!(err instanceof FitError)) {
      return { result: null, assumed: null, status: Status.error(err instanceof Error ? err : thrownMessage(err)), nominating: clearNominatedNode };
    }
    if (!attempt.fwk.hasPostFilterPlugins()) {
      return { result: null, assumed: null, status: new Status(Code.Unschedulable, [err.message], err), nominating: clearNominatedNode };
    }
    const { fwk, state, qp } = attempt;
    return andThen(fwk.runPostFilterPlugins(state, qp.podInfo, err.diagnosis.nodeToStatus), (post) => this.afterPostFilter(qp.podInfo, err, post));
  }

  /** The FitError with PostFilter's message, and the node PostFilter nominated, if any. */
  private afterPostFilter(podInfo: PodInfo, err: FitError, post: PostFilterRunResult): CycleOutcome {
    err.diagnosis.postFilterMsg = post.status.message();
    if (post.status.code === Code.Error) this.log(1, `PostFilter error for pod ${podInfo.key}: ${post.status.message()}`);
    const nominating: NominatingInfo | null = post.result ? { mode: 'Override', nominatedNodeName: post.result.nominatedNodeName } : null;
    return { result: null, assumed: null, status: new Status(Code.Unschedulable, [err.message], err), nominating };
  }

  /** Assumes the pod on the chosen host, then Reserve and Permit (the rest of the scheduling cycle). */
  private assumeAndReserve(attempt: Attempt, result: ScheduleResult): CycleOutcome {
    const { qp, fwk, state } = attempt;
    const podInfo = qp.podInfo;
    this.metrics?.observeAlgorithmDuration(this.monotonicSeconds() - attempt.start);
    const host = result.suggestedHost;
    const assumedPod: Pod = { ...podInfo.pod, spec: { ...podInfo.pod.spec, nodeName: host } };
    const assumed = podInfo.withPod(assumedPod);
    try {
      this.cache.assumePod(assumed);
    } catch (err) {
      return { result, assumed, status: Status.error(err as Error), nominating: clearNominatedNode };
    }
    // The assumed pod no longer holds a nomination: it now occupies its node in the cache.
    this.queue.nominator.delete(assumed);
    const reserve = fwk.runReservePluginsReserve(state, assumed, host);
    if (!isSuccess(reserve)) {
      fwk.runReservePluginsUnreserve(state, assumed, host);
      this.cache.forgetPod(assumedPod);
      return { result, assumed, status: this.rejectionAsFitError(podInfo.pod, host, reserve!), nominating: clearNominatedNode };
    }
    const permit = fwk.runPermitPlugins(state, assumed, host);
    if (permit !== null && permit.code !== Code.Wait && permit.code !== Code.Success) {
      fwk.runReservePluginsUnreserve(state, assumed, host);
      this.cache.forgetPod(assumedPod);
      return { result, assumed, status: this.rejectionAsFitError(podInfo.pod, host, permit), nominating: clearNominatedNode };
    }
    if (state.podsToActivate.size > 0) {
      this.queue.activate(state.podsToActivate.values() as Iterable<Pod>);
      state.podsToActivate.clear();
    }
    return { result, assumed, status: null, nominating: null };
  }

  /** A rejection at Reserve/Permit/WaitOnPermit is reported as a FitError on that one node. */
  private rejectionAsFitError(pod: Pod, host: string, s: Status): Status {
    if (!s.isRejected()) return s;
    const d = new Diagnosis();
    d.nodeToStatus.set(host, s);
    d.addPluginStatus(s);
    const fe = new FitError(pod, 1, d);
    return new Status(s.code, [fe.message], fe).withPlugin(s.plugin);
  }

  private async bindingCycle(attempt: Attempt, result: ScheduleResult, assumed: PodInfo): Promise<void> {
    const { fwk, state, qp } = attempt;
    const host = result.suggestedHost;
    let end: BindEnd;
    try {
      end = await this.bind(attempt, assumed, host);
    } catch (err) {
      // Not from a plugin (the runtime contains those): still, the pod must not stay assumed.
      end = failed(Status.error(err instanceof Error ? err : thrownMessage(err)));
    }
    switch (end.kind) {
      case 'failed':
        this.handleBindingCycleError(attempt, assumed, result, end.status);
        return;
      case 'notOurs':
        this.releaseUnconfirmedBinding(attempt, assumed, result, end.status);
        return;
      case 'stopped':
        return;
      case 'bound':
        break;
    }
    this.cache.finishBinding(assumed.pod);
    this.finishAttempt(attempt, null, result, null);
    this.metrics?.observePodScheduled(qp.attempts, qp.initialAttemptTimestamp === null ? null : (this.deps.clock.now() - qp.initialAttemptTimestamp) / 1000);
    fwk.eventRecorder().event(qp.podInfo.pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${qp.podInfo.key} to ${host}`);
    fwk.runPostBindPlugins(state, assumed, host);
    if (state.podsToActivate.size > 0) this.queue.activate(state.podsToActivate.values() as Iterable<Pod>);
  }

  /** WaitOnPermit, PreBind, then Bind (an extender's or the Bind plugins'), confirming a Bind whose answer was lost. */
  private async bind(attempt: Attempt, assumed: PodInfo, host: string): Promise<BindEnd> {
    const { fwk, state, qp } = attempt;
    let status: Status | null = await fwk.waitOnPermit(assumed);
    if (status !== null) return failed(this.rejectionAsFitError(qp.podInfo.pod, host, status));
    // Past Permit the pod can no longer be found unschedulable: a PreBind or Bind failure is an
    // error retried after backoff, so the queue stops recording events for it now.
    this.queue.done(qp.podInfo.uid);
    status = await fwk.runPreBindPlugins(state, assumed, host);
    if (!isSuccess(status)) return failed(status!);
    const b = (await this.bindByExtender(assumed, host)) ?? (await fwk.runBindPlugins(state, assumed, host));
    if (b.code === Code.Success) return bound;
    if (!bindingMayHaveLanded(b)) return failed(b);
    return this.confirmBinding(assumed, host, b);
  }

  /**
   * The Bind step got no answer it can trust (a broken connection, a timeout, a 5xx): the pod may
   * be bound. It stays assumed, its room taken, until a read of the pod or the informer tells.
   */
  private async confirmBinding(assumed: PodInfo, host: string, status: Status): Promise<BindEnd> {
    this.log(2, `binding pod ${assumed.key} to ${host} got no trustworthy answer (${status.message()}); confirming with the API server`);
    const outcome = await this.confirmations.confirm(assumed.pod, host);
    switch (outcome.kind) {
      case 'bound':
        this.log(2, `pod ${assumed.key} is bound to ${host}: the binding landed although its answer was lost`);
        return bound;
      case 'unbound':
        return failed(status);
      case 'gone':
        return { kind: 'notOurs', status: Status.error(`pod ${assumed.key} was deleted before its binding to ${host} was confirmed`) };
      case 'boundElsewhere': {
        const msg = `pod ${assumed.key} is bound to ${outcome.node}, not ${host}: another binder bound it while its binding was unconfirmed`;
        this.log(1, msg);
        return { kind: 'notOurs', status: Status.error(msg) };
      }
      case 'stopped':
        return outcome;
    }
  }

  /**
   * The first interested extender with a bind verb binds the pod instead of the Bind plugins
   * (extendersBinding); null when none does. An ignorable extender's failure passes to the next.
   */
  private async bindByExtender(assumed: PodInfo, host: string): Promise<Status | null> {
    const pod = assumed.pod;
    for (const extender of this.extenders.extenders) {
      if (!extender.isBinder() || !extender.isInterested(pod)) continue;
      try {
        await extender.bind({ podName: pod.metadata.name ?? '', podNamespace: pod.metadata.namespace ?? 'default', podUID: pod.metadata.uid ?? '', node: host });
        return new Status(Code.Success);
      } catch (err) {
        if (extender.isIgnorable()) {
          this.log(2, `Skipping extender ${extender.name()} in bind as it returned error and has ignorable flag set: ${thrownMessage(err)}`);
          continue;
        }
        return Status.error(err instanceof Error ? err : thrownMessage(err));
      }
    }
    return null;
  }

  /**
   * The pod was deleted, or bound elsewhere by another binder, before its binding was confirmed:
   * Unreserve and free its room here (unless the informer already settled the cache); nothing to retry.
   */
  private releaseUnconfirmedBinding(attempt: Attempt, assumed: PodInfo, result: ScheduleResult, status: Status): void {
    const { fwk, state } = attempt;
    this.finishAttempt(attempt, status, result, null);
    fwk.runReservePluginsUnreserve(state, assumed, assumed.pod.spec.nodeName!);
    if (!this.cache.isAssumedPod(assumed.pod)) return;
    this.cache.forgetPod(assumed.pod);
    this.queue.moveAllToActiveOrBackoffQueue(assignedPodDelete, assumed.pod, null);
  }

  /** Unreserve, forget the assumed pod, wake pods its resources may help, requeue it (handleBindingCycleError). */
  private handleBindingCycleError(attempt: Attempt, assumed: PodInfo, result: ScheduleResult, status: Status): void {
    const { fwk, state } = attempt;
    const host = assumed.pod.spec.nodeName!;
    this.finishAttempt(attempt, status, result, clearNominatedNode);
    fwk.runReservePluginsUnreserve(state, assumed, host);
    let forgotten = true;
    try {
      this.cache.forgetPod(assumed.pod);
    } catch (err) {
      forgotten = false;
      this.log(1, `forget pod ${assumed.key}: ${thrownMessage(err)}`);
    }
    if (forgotten && !status.isRejected()) this.queue.moveAllToActiveOrBackoffQueue(assignedPodDelete, assumed.pod, null);
    this.handleSchedulingFailure(attempt, status, clearNominatedNode);
    // A rejected pod is moved after it is back in the queue and without itself, so this event
    // does not count as one that arrived while it was in flight.
    if (forgotten && status.isRejected()) {
      this.queue.moveAllToActiveOrBackoffQueue(assignedPodDelete, assumed.pod, null, (p) => p.metadata.uid !== assumed.uid);
    }
  }

  /** Records why the pod failed, updates its status and puts it back in the queue (FailureHandler). */
  private handleSchedulingFailure(attempt: Attempt, status: Status, nominating: NominatingInfo | null): void {
    const { qp, fwk } = attempt;
    const pod = qp.podInfo.pod;
    const reason = status.isRejected() ? 'Unschedulable' : 'SchedulerError';
    const err = status.error;
    if (err instanceof FitError) {
      qp.unschedulablePlugins = err.diagnosis.unschedulablePlugins;
      qp.pendingPlugins = err.diagnosis.pendingPlugins;
    } else {
      qp.unschedulablePlugins = new Set();
      qp.pendingPlugins = new Set();
    }
    const cached = this.deps.client.getPod(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
    if (!cached || cached.spec.nodeName) {
      this.queue.done(qp.podInfo.uid);
    } else if (attempt.requeue) {
      qp.podInfo = new PodInfo(cached);
      this.queue.addUnschedulableIfNotPresent(qp);
    } else {
      qp.podInfo = qp.podInfo.withPod(cached);
    }
    this.queue.addNominatedPod(qp.podInfo, nominating);
    const msg = status.message();
    fwk.eventRecorder().event(pod, 'Warning', 'FailedScheduling', 'Scheduling', truncateMessage(msg));
    if (!cached) return;
    const condition: PodCondition = {
      type: 'PodScheduled',
      status: 'False',
      reason,
      message: msg,
      lastTransitionTime: new Date(this.deps.clock.now()).toISOString(),
    };
    // As upstream's updatePod: patch only what changes (the condition, or an Override nomination).
    const prev = cached.status?.conditions?.find((c) => c.type === 'PodScheduled');
    const conditionChanged = !prev || prev.status !== condition.status || prev.reason !== condition.reason || prev.message !== condition.message;
    const nnnChanged = nominating?.mode === 'Override' && (cached.status?.nominatedNodeName ?? '') !== nominating.nominatedNodeName;
    if (!conditionChanged && !nnnChanged) return;
    const patch = { condition: conditionChanged ? condition : undefined, nominatedNodeName: nnnChanged ? nominating!.nominatedNodeName : undefined };
    this.deps.client.updatePodStatus(cached, patch).catch((e: Error) => {
      this.log(1, `error updating pod ${podKey(pod)}: ${e.message}`);
    });
  }

  /** Deletes a preemption victim, marking it with the DisruptionTarget condition first. */
  private async deleteVictim(pod: Pod, o?: { disruptionReason?: string; message?: string }): Promise<void> {
    this.cycleVictims.push(podKey(pod));
    await this.deps.client.updatePodStatus(pod, {
      disruptionTarget: {
        type: 'DisruptionTarget',
        status: 'True',
        reason: o?.disruptionReason ?? 'PreemptionByScheduler',
        message: o?.message ?? '',
        lastTransitionTime: new Date(this.deps.clock.now()).toISOString(),
      },
    }).catch(() => undefined);
    await this.deps.client.deletePod(pod, o);
  }
}

/** Event notes are limited to 1024 characters; upstream cuts longer ones and appends " ...". */
export function truncateMessage(msg: string): string {
  const max = 1024;
  if (msg.length <= max) return msg;
  const suffix = ' ...';
  return msg.slice(0, max - suffix.length) + suffix;
}
