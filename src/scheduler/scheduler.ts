// The Scheduler: profiles, cache, queue and the scheduling/binding cycles (scheduler.go,
// schedule_one.go).
import type { Pod, PodCondition } from '../api/types.js';
import { podKey } from '../api/types.js';
import { Cache } from '../cache/cache.js';
import { Snapshot } from '../cache/snapshot.js';
import type { ClusterClient } from '../cluster/types.js';
import { CycleState } from '../framework/cycle_state.js';
import { Diagnosis, ErrNoNodesAvailable, FitError } from '../framework/fit_error.js';
import type { EventRecorder, PluginClusterClient, PostFilterResult, QueuedPodInfo } from '../framework/interfaces.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Registry } from '../framework/registry.js';
import { Framework, type ProfileConfig } from '../framework/runtime/framework.js';
import { ActionType } from '../framework/events.js';
import { Code, Status, isSuccess } from '../framework/status.js';
import { clearNominatedNode, type NominatingInfo } from '../queue/nominator.js';
import { SchedulingQueue, type QueueOptions } from '../queue/scheduling_queue.js';
import { MapObjectLister, waitForObjects } from './object_lister.js';
import type { Clock } from '../util/clock.js';
import { EventHandlers } from './event_handlers.js';
import { schedulePod, type AlgorithmState, type FilterPhaseHooks, type ScheduleResult } from './schedule_pod.js';
import { schedulePodWithExtenders } from './schedule_pod_extenders.js';
import type { Extender } from '../extender/extender.js';

export interface SchedulerOptions {
  profiles: ProfileConfig[];
  registry: Registry;
  client: ClusterClient;
  clock: Clock;
  random: () => number;
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  parallelism?: number;
  notYetAvailable?: ReadonlySet<string>;
  tieBreakByName?: boolean;
  /** Keep every plugin's score per node in attempt records (explain). */
  recordScores?: boolean;
  /** Called after every scheduling attempt (explain, reports, metrics). */
  onAttempt?: (a: AttemptRecord) => void;
  log?: (level: number, msg: string) => void;
  /** Metrics hooks (the real-cluster mode); simulations leave them out. */
  metrics?: SchedulerMetricsHooks;
  /** Handed to the queue: wakes a waiting scheduling loop, counts pods entering each sub-queue. */
  queueHooks?: Pick<QueueOptions, 'onActive' | 'onIncoming'>;
  /**
   * HTTP extenders, called after the plugins in this order (non-ignorable ones first, see
   * buildExtenders). With any, each scheduling cycle waits for their answers.
   */
  extenders?: readonly Extender[];
}

/** What the scheduler reports for metrics (schedule_one.go, metrics/profile_metrics.go). */
export interface SchedulerMetricsHooks extends FilterPhaseHooks {
  /** An attempt's final result, with the time since its scheduling cycle started (s). */
  attemptFinished(result: 'scheduled' | 'unschedulable' | 'error', profile: string, seconds: number): void;
  /** The scheduling algorithm found a node, `seconds` after the cycle started. */
  algorithmFinished(seconds: number): void;
  /** A pod was bound after `attempts` attempts, `sinceFirstSeconds` after it first became active. */
  podScheduled(attempts: number, sinceFirstSeconds: number | null): void;
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
  readonly attempt: number;
  readonly time: number;
}

/** What a scheduling cycle ends with: a reserved pod to bind, or the status it failed with. */
interface CycleOutcome {
  result: ScheduleResult | null;
  assumed: PodInfo | null;
  status: Status | null;
  nominating: NominatingInfo | null;
}

export class Scheduler {
  readonly cache: Cache;
  readonly queue: SchedulingQueue;
  readonly profiles = new Map<string, Framework>();
  readonly objects = new MapObjectLister();
  readonly snapshot = new Snapshot();
  readonly handlers: EventHandlers;
  private readonly alg: AlgorithmState;
  /** Binding cycles in flight. */
  private readonly bindings = new Set<Promise<void>>();
  /** When each attempt's scheduling cycle started (metrics clock), while metrics are on. */
  private readonly attemptStarts = new WeakMap<QueuedPodInfo, number>();
  /** Victims chosen by PostFilter in the current attempt (for reports). */
  private lastVictims: string[] = [];
  private readonly extenders: readonly Extender[];
  /** The scheduling cycle waiting for extenders, if any: cycles never overlap. */
  private cycleInFlight: Promise<void> | null = null;

  constructor(readonly opts: SchedulerOptions) {
    const clock = opts.clock;
    this.extenders = opts.extenders ?? [];
    this.cache = new Cache(clock);
    this.alg = {
      nextStartNodeIndex: 0,
      percentageOfNodesToScore: opts.percentageOfNodesToScore ?? 0,
      random: opts.random,
      tieBreakByName: opts.tieBreakByName ?? false,
      recordScores: opts.recordScores ?? false,
      metrics: opts.metrics,
    };
    const pluginClient: PluginClusterClient = {
      bind: (pod, node) => opts.client.bind(pod, node),
      deletePod: (pod, o) => this.deleteVictim(pod, o),
      clearNominatedNodeName: (pod) => opts.client.updatePodStatus(pod, { nominatedNodeName: '' }),
      updatePersistentVolume: opts.client.updatePersistentVolume?.bind(opts.client),
      updatePersistentVolumeClaim: opts.client.updatePersistentVolumeClaim?.bind(opts.client),
      waitUntil: (ready, timeoutMs) => waitForObjects(this.objects, clock, ready, timeoutMs),
      podExists: (namespace, name) => opts.client.getPod(namespace, name) !== undefined,
    };
    const recorder: EventRecorder = {
      event: (regarding, type, reason, action, message) =>
        opts.client.recordEvent({
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
    let queue: SchedulingQueue | undefined = undefined;
    for (const profile of opts.profiles) {
      const fwk = new Framework(profile, {
        registry: opts.registry,
        snapshot: () => this.snapshot,
        objects: this.objects,
        client: pluginClient,
        eventRecorder: recorder,
        nominator: {
          nominatedPodsForNode: (n) => queue!.nominator.nominatedPodsForNode(n),
          hasNominatedPods: () => queue!.nominator.hasNominatedPods(),
        },
        clock,
        random: opts.random,
        parallelism: opts.parallelism ?? 16,
        notYetAvailable: opts.notYetAvailable,
        extenders: this.extenders,
      });
      this.profiles.set(profile.schedulerName, fwk);
    }
    queue = new SchedulingQueue(
      new Map([...this.profiles].map(([name, fwk]) => [name, {
        less: fwk.queueSortLess(),
        preEnqueue: (pod: Pod) => fwk.runPreEnqueuePlugins(pod),
        events: fwk.eventsToRegister(),
      }])),
      {
        clock,
        podInitialBackoffMs: (opts.podInitialBackoffSeconds ?? 1) * 1000,
        podMaxBackoffMs: (opts.podMaxBackoffSeconds ?? 10) * 1000,
        podLister: (namespace, name) => opts.client.getPod(namespace, name),
        onActive: opts.queueHooks?.onActive,
        onIncoming: opts.queueHooks?.onIncoming,
      },
    );
    this.queue = queue;
    this.handlers = new EventHandlers(this);
  }

  /** Plugins the profiles name that are not built yet, by profile. */
  unavailablePlugins(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [name, fwk] of this.profiles) if (fwk.unavailablePlugins.length) out.set(name, fwk.unavailablePlugins);
    return out;
  }

  log(level: number, msg: string): void {
    this.opts.log?.(level, msg);
  }

  /** Lists and watches the cluster; resolves once caches are synced. */
  async start(): Promise<void> {
    await this.opts.client.start((e) => this.handlers.handle(e));
    this.queue.run();
  }

  stop(): void {
    this.queue.close();
    this.opts.client.stop();
  }

  responsibleForPod(pod: Pod): boolean {
    return this.profiles.has(pod.spec.schedulerName ?? 'default-scheduler');
  }

  /** Waits for every binding cycle in flight. */
  async waitForBindings(): Promise<void> {
    while (this.bindings.size > 0) await Promise.all([...this.bindings]);
  }

  get bindingsInFlight(): number {
    return this.bindings.size;
  }

  /**
   * Pops one pod and runs its scheduling cycle; the binding cycle continues asynchronously. With
   * extenders the cycle itself is asynchronous too: it counts among the work waitForBindings
   * waits for, and no pod is popped (false) until it has finished (see cycleSettled).
   */
  scheduleOne(): boolean {
    if (this.cycleInFlight !== null) return false;
    const qp = this.queue.pop();
    if (!qp) return false;
    if (this.extenders.length === 0) {
      this.runAttempt(qp);
      return true;
    }
    const p: Promise<void> = this.runAttemptWithExtenders(qp).finally(() => {
      this.cycleInFlight = null;
      this.bindings.delete(p);
    });
    this.cycleInFlight = p;
    this.bindings.add(p);
    return true;
  }

  /** True while a scheduling cycle waits for extenders. */
  get hasCycleInFlight(): boolean {
    return this.cycleInFlight !== null;
  }

  /** Resolves when the scheduling cycle in flight (only with extenders) has finished. */
  cycleSettled(): Promise<void> {
    return this.cycleInFlight ?? Promise.resolve();
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
      timestamp: this.opts.clock.now(),
      attempts: 1,
      initialAttemptTimestamp: this.opts.clock.now(),
      unschedulablePlugins: new Set(),
      pendingPlugins: new Set(),
      gatingPlugin: null,
    };
    await this.cycleSettled();
    if (this.extenders.length === 0) this.runAttempt(qp, { requeue: false });
    else await this.runAttemptWithExtenders(qp, { requeue: false });
    await this.waitForBindings();
    this.queue.done(uid);
  }

  private runAttempt(qp: QueuedPodInfo, o: { requeue: boolean } = { requeue: true }): void {
    const fwk = this.startAttempt(qp);
    if (fwk === null) return;
    const state = new CycleState();
    this.cache.updateSnapshot(this.snapshot);
    let result: ScheduleResult;
    try {
      result = schedulePod(this.alg, fwk, state, qp.podInfo, this.snapshot);
    } catch (err) {
      this.finishSchedulingCycle(state, fwk, qp, this.algorithmFailed(state, fwk, qp.podInfo, err), o.requeue);
      return;
    }
    this.finishSchedulingCycle(state, fwk, qp, this.assumeAndReserve(state, fwk, qp, result), o.requeue);
  }

  /** runAttempt with the extenders' answers awaited between the plugins' phases. */
  private async runAttemptWithExtenders(qp: QueuedPodInfo, o: { requeue: boolean } = { requeue: true }): Promise<void> {
    const fwk = this.startAttempt(qp);
    if (fwk === null) return;
    const state = new CycleState();
    // No other cycle runs meanwhile, so the snapshot stays as this cycle found it.
    this.cache.updateSnapshot(this.snapshot);
    let result: ScheduleResult;
    try {
      result = await schedulePodWithExtenders(this.alg, fwk, state, qp.podInfo, this.snapshot, this.extenders, (msg) => this.log(2, msg));
    } catch (err) {
      const failed = this.failureBeforePostFilter(fwk, err);
      const outcome = failed ?? this.afterPostFilter(qp.podInfo, err as FitError, await fwk.runPostFilterPluginsWithExtenders(state, qp.podInfo, (err as FitError).diagnosis.nodeToStatus));
      this.finishSchedulingCycle(state, fwk, qp, outcome, o.requeue);
      return;
    }
    this.finishSchedulingCycle(state, fwk, qp, this.assumeAndReserve(state, fwk, qp, result), o.requeue);
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
    if (this.opts.metrics) this.attemptStarts.set(qp, this.opts.metrics.now());
    this.lastVictims = [];
    return fwk;
  }

  /** Reports the scheduling cycle's outcome, then starts the binding cycle or handles the failure. */
  private finishSchedulingCycle(state: CycleState, fwk: Framework, qp: QueuedPodInfo, outcome: CycleOutcome, requeue: boolean): void {
    const { result, assumed, status, nominating } = outcome;
    if (!isSuccess(status)) {
      this.report(qp, status!, result, nominating);
      this.handleSchedulingFailure(fwk, qp, status!, nominating, requeue);
      return;
    }
    this.report(qp, null, result, null);
    const p = this.bindingCycle(state, fwk, result!, assumed!, qp, requeue).finally(() => this.bindings.delete(p));
    this.bindings.add(p);
  }

  private report(qp: QueuedPodInfo, status: Status | null, result: ScheduleResult | null, nominating: NominatingInfo | null): void {
    if (!this.opts.onAttempt) return;
    const err = status?.error;
    const diagnosis = result?.diagnosis ?? (err instanceof FitError ? err.diagnosis : null);
    this.opts.onAttempt({
      pod: qp.podInfo.pod,
      outcome: status === null ? 'Scheduled' : status.isRejected() ? 'Unschedulable' : 'Error',
      node: status === null ? result!.suggestedHost : '',
      message: status === null ? '' : status.message(),
      result,
      diagnosis,
      nominatedNode: nominating?.mode === 'Override' ? nominating.nominatedNodeName : '',
      victims: this.lastVictims,
      attempt: qp.attempts,
      time: this.opts.clock.now(),
    });
  }

  /** The scheduling algorithm found no node (FitError: PostFilter may nominate one) or failed. */
  private algorithmFailed(state: CycleState, fwk: Framework, podInfo: PodInfo, err: unknown): CycleOutcome {
    return this.failureBeforePostFilter(fwk, err)
      ?? this.afterPostFilter(podInfo, err as FitError, fwk.runPostFilterPlugins(state, podInfo, (err as FitError).diagnosis.nodeToStatus));
  }

  /** The outcome of a failed algorithm when PostFilter does not run (not a FitError, or no plugin); else null. */
  private failureBeforePostFilter(fwk: Framework, err: unknown): CycleOutcome | null {
    if (err === ErrNoNodesAvailable) {
      return { result: null, assumed: null, status: new Status(Code.UnschedulableAndUnresolvable, [(err as Error).message], err as Error), nominating: clearNominatedNode };
    }
    if (!(err instanceof FitError)) {
      return { result: null, assumed: null, status: Status.error(err as Error), nominating: clearNominatedNode };
    }
    if (!fwk.hasPostFilterPlugins()) {
      return { result: null, assumed: null, status: new Status(Code.Unschedulable, [err.message], err), nominating: clearNominatedNode };
    }
    return null;
  }

  /** The FitError with PostFilter's message, and the node PostFilter nominated, if any. */
  private afterPostFilter(podInfo: PodInfo, err: FitError, post: { result: PostFilterResult | null; status: Status }): CycleOutcome {
    err.diagnosis.postFilterMsg = post.status.message();
    if (post.status.code === Code.Error) this.log(1, `PostFilter error for pod ${podInfo.key}: ${post.status.message()}`);
    const nominating: NominatingInfo | null = post.result ? { mode: 'Override', nominatedNodeName: post.result.nominatedNodeName } : null;
    return { result: null, assumed: null, status: new Status(Code.Unschedulable, [err.message], err), nominating };
  }

  /** Assumes the pod on the chosen host, then Reserve and Permit (the rest of the scheduling cycle). */
  private assumeAndReserve(state: CycleState, fwk: Framework, qp: QueuedPodInfo, result: ScheduleResult): CycleOutcome {
    const podInfo = qp.podInfo;
    const m = this.opts.metrics;
    if (m) m.algorithmFinished(m.now() - (this.attemptStarts.get(qp) ?? m.now()));
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

  private async bindingCycle(state: CycleState, fwk: Framework, result: ScheduleResult, assumed: PodInfo, qp: QueuedPodInfo, requeue: boolean): Promise<void> {
    const host = result.suggestedHost;
    let status: Status | null = await fwk.waitOnPermit(assumed);
    if (status !== null) status = this.rejectionAsFitError(qp.podInfo.pod, host, status);
    if (isSuccess(status)) {
      // Past Permit the pod can no longer be found unschedulable: a PreBind or Bind failure is an
      // error retried after backoff, so the queue stops recording events for it now.
      this.queue.done(qp.podInfo.uid);
      status = await fwk.runPreBindPlugins(state, assumed, host);
    }
    if (isSuccess(status)) {
      const b = (await this.bindByExtender(assumed, host)) ?? (await fwk.runBindPlugins(state, assumed, host));
      this.cache.finishBinding(assumed.pod);
      status = b.code === Code.Success ? null : b;
    }
    if (!isSuccess(status)) {
      this.handleBindingCycleError(state, fwk, assumed, qp, status!, requeue);
      return;
    }
    this.observeAttempt(fwk, qp, 'scheduled');
    const m = this.opts.metrics;
    if (m) m.podScheduled(qp.attempts, qp.initialAttemptTimestamp === null ? null : (this.opts.clock.now() - qp.initialAttemptTimestamp) / 1000);
    fwk.eventRecorder().event(qp.podInfo.pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${qp.podInfo.key} to ${host}`);
    fwk.runPostBindPlugins(state, assumed, host);
    if (state.podsToActivate.size > 0) this.queue.activate(state.podsToActivate.values() as Iterable<Pod>);
  }

  /**
   * The first interested extender with a bind verb binds the pod instead of the Bind plugins
   * (extendersBinding); null when none does. An ignorable extender's failure passes to the next.
   */
  private async bindByExtender(assumed: PodInfo, host: string): Promise<Status | null> {
    const pod = assumed.pod;
    for (const extender of this.extenders) {
      if (!extender.isBinder() || !extender.isInterested(pod)) continue;
      try {
        await extender.bind({ podName: pod.metadata.name ?? '', podNamespace: pod.metadata.namespace ?? 'default', podUID: pod.metadata.uid ?? '', node: host });
        return new Status(Code.Success);
      } catch (err) {
        if (extender.isIgnorable()) {
          this.log(2, `Skipping extender ${extender.name()} in bind as it returned error and has ignorable flag set: ${(err as Error).message}`);
          continue;
        }
        return Status.error(err as Error);
      }
    }
    return null;
  }

  /** Unreserve, forget the assumed pod, wake pods its resources may help, requeue it (handleBindingCycleError). */
  private handleBindingCycleError(state: CycleState, fwk: Framework, assumed: PodInfo, qp: QueuedPodInfo, status: Status, requeue: boolean): void {
    const host = assumed.pod.spec.nodeName!;
    fwk.runReservePluginsUnreserve(state, assumed, host);
    let forgotten = true;
    try {
      this.cache.forgetPod(assumed.pod);
    } catch (err) {
      forgotten = false;
      this.log(1, `forget pod ${assumed.key}: ${(err as Error).message}`);
    }
    // Forgetting frees the node's resources, as a deleted assigned pod would.
    const event = { resource: 'AssignedPod', actionType: ActionType.Delete, label: 'AssignedPodDelete' } as const;
    if (forgotten && !status.isRejected()) this.queue.moveAllToActiveOrBackoffQueue(event, assumed.pod, null);
    this.handleSchedulingFailure(fwk, qp, status, clearNominatedNode, requeue);
    // A rejected pod is moved after it is back in the queue and without itself, so this event
    // does not count as one that arrived while it was in flight.
    if (forgotten && status.isRejected()) {
      this.queue.moveAllToActiveOrBackoffQueue(event, assumed.pod, null, (p) => p.metadata.uid !== assumed.uid);
    }
  }

  /** Records why the pod failed, updates its status and puts it back in the queue (FailureHandler). */
  private handleSchedulingFailure(fwk: Framework, qp: QueuedPodInfo, status: Status, nominating: NominatingInfo | null, requeue: boolean): void {
    const pod = qp.podInfo.pod;
    const reason = status.isRejected() ? 'Unschedulable' : 'SchedulerError';
    this.observeAttempt(fwk, qp, status.isRejected() ? 'unschedulable' : 'error');
    const err = status.error;
    if (err instanceof FitError) {
      qp.unschedulablePlugins = err.diagnosis.unschedulablePlugins;
      qp.pendingPlugins = err.diagnosis.pendingPlugins;
    } else {
      qp.unschedulablePlugins = new Set();
      qp.pendingPlugins = new Set();
    }
    const cached = this.opts.client.getPod(pod.metadata.namespace ?? 'default', pod.metadata.name ?? '');
    if (!cached || cached.spec.nodeName) {
      this.queue.done(qp.podInfo.uid);
    } else if (requeue) {
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
      lastTransitionTime: new Date(this.opts.clock.now()).toISOString(),
    };
    // As upstream's updatePod: patch only what changes (the condition, or an Override nomination).
    const prev = cached.status?.conditions?.find((c) => c.type === 'PodScheduled');
    const conditionChanged = !prev || prev.status !== condition.status || prev.reason !== condition.reason || prev.message !== condition.message;
    const nnnChanged = nominating?.mode === 'Override' && (cached.status?.nominatedNodeName ?? '') !== nominating.nominatedNodeName;
    if (!conditionChanged && !nnnChanged) return;
    const patch = { condition: conditionChanged ? condition : undefined, nominatedNodeName: nnnChanged ? nominating!.nominatedNodeName : undefined };
    this.opts.client.updatePodStatus(cached, patch).catch((e: Error) => {
      this.log(1, `error updating pod ${podKey(pod)}: ${e.message}`);
    });
  }

  private observeAttempt(fwk: Framework, qp: QueuedPodInfo, result: 'scheduled' | 'unschedulable' | 'error'): void {
    const m = this.opts.metrics;
    const start = m ? this.attemptStarts.get(qp) : undefined;
    if (!m || start === undefined) return;
    this.attemptStarts.delete(qp);
    m.attemptFinished(result, fwk.profileName, m.now() - start);
  }

  /** Deletes a preemption victim, marking it with the DisruptionTarget condition first. */
  private async deleteVictim(pod: Pod, o?: { disruptionReason?: string; message?: string }): Promise<void> {
    this.lastVictims.push(podKey(pod));
    await this.opts.client.updatePodStatus(pod, {
      disruptionTarget: {
        type: 'DisruptionTarget',
        status: 'True',
        reason: o?.disruptionReason ?? 'PreemptionByScheduler',
        message: o?.message ?? '',
        lastTransitionTime: new Date(this.opts.clock.now()).toISOString(),
      },
    }).catch(() => undefined);
    await this.opts.client.deletePod(pod, o);
  }
}

/** Event notes are limited to 1024 characters; upstream cuts longer ones and appends " ...". */
export function truncateMessage(msg: string): string {
  const max = 1024;
  if (msg.length <= max) return msg;
  const suffix = ' ...';
  return msg.slice(0, max - suffix.length) + suffix;
}
