// Carrying out a preemption (framework/preemption/executor.go): evicting the victims chosen for a
// preemptor (a pod, or a group of pods) on one node, synchronously inside PostFilter or, with
// SchedulerAsyncPreemption, in the background while PreEnqueue holds the preemptor back.
import type { KubeObject, Pod } from '../../api/types.js';
import type { Handle } from '../../framework/interfaces.js';
import type { MaybePromise } from '../../util/maybe_promise.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';

export const PodReasonPreemptionByScheduler = 'PreemptionByScheduler';

/** Who preempts: one pod, or a group whose pods are scheduled together (ExecutorPreemptor). */
export interface Preemptor {
  readonly uid: string;
  /** namespace/name, for logs. */
  readonly key: string;
  readonly schedulerName: string;
  readonly priority: number;
  /** What events and messages call it: "pod", or a group's kind. */
  readonly type: string;
  /** The object the Preempted events relate to. */
  readonly obj: KubeObject;
  /** The pods to activate when the preemption ends without a deletion event to wake them. */
  readonly pods: readonly Pod[];
}

/** The node chosen for a preemptor and the pods to evict on it. */
export interface PreemptionTarget {
  readonly name: string;
  readonly victims: readonly PodInfo[];
  /** How many PodDisruptionBudgets evicting the victims violates. */
  readonly numPDBViolations: number;
}

/** The preemptor a single pod makes (podExecutorPreemptor). */
export function podPreemptor(pod: PodInfo): Preemptor {
  return { uid: pod.uid, key: pod.key, schedulerName: pod.pod.spec.schedulerName ?? 'default-scheduler', priority: pod.priority, type: 'pod', obj: pod.pod, pods: [pod.pod] };
}

type Outcome = 'success' | 'error';

export class Executor {
  /** Preemptors whose victims are being evicted in the background (preempting). */
  private readonly preempting = new Set<string>();
  /** The last victim each of those waits for, once the others are gone (lastVictimsPendingPreemption). */
  private readonly lastVictims = new Map<string, { readonly namespace: string; readonly name: string }>();

  constructor(
    private readonly pluginName: string,
    private readonly handle: Handle,
    private readonly async: boolean,
  ) {}

  /**
   * Evicts the target's victims that are not terminating yet. Synchronously (the gate off), the
   * answer waits for every eviction and is an error status when one failed; asynchronously it
   * is null at once and the evictions go on in the background.
   */
  actuate(target: PreemptionTarget, preemptor: Preemptor): MaybePromise<Status | null> {
    this.observeVictims(target, preemptor);
    if (this.async) {
      this.prepareCandidateAsync(target, preemptor);
      return null;
    }
    return this.prepareCandidate(target, preemptor);
  }

  /**
   * Whether the preemptor's background preemption still runs (IsPodRunningPreemption): until its
   * last victim is deleted, or its graceful deletion has started, as the informer sees it.
   */
  isRunningPreemption(uid: string): boolean {
    if (!this.preempting.has(uid)) return false;
    const last = this.lastVictims.get(uid);
    if (last === undefined) return true;
    const victim = this.handle.client().getPod?.(last.namespace, last.name);
    return victim !== undefined && !victim.metadata.deletionTimestamp;
  }

  /** The gate off: every victim first, then the lower-priority nominations (prepareCandidate). */
  private async prepareCandidate(target: PreemptionTarget, preemptor: Preemptor): Promise<Status | null> {
    const start = this.handle.now();
    const victims = target.victims.filter(notTerminating);
    const results = await Promise.allSettled(victims.map((v) => this.preemptPod(target, preemptor, v)));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    this.observeExecution(preemptor, failure === undefined ? 'success' : 'error', start, false);
    if (failure !== undefined) return Status.fromThrown(failure.reason);
    await this.clearLowerPriorityNominations(target, preemptor).catch(() => undefined);
    return null;
  }

  /**
   * The gate on (prepareCandidateAsync): the nominations first, then every victim but the last at
   * once, then the last one, noted so that PreEnqueue can tell when its deletion has started.
   */
  private prepareCandidateAsync(target: PreemptionTarget, preemptor: Preemptor): void {
    const victims = target.victims.filter(notTerminating);
    if (victims.length === 0) return;
    this.preempting.add(preemptor.uid);
    const work = this.preemptInBackground(target, preemptor, victims);
    if (this.handle.runInBackground) this.handle.runInBackground(work);
    else void work;
  }

  private async preemptInBackground(target: PreemptionTarget, preemptor: Preemptor, victims: readonly PodInfo[]): Promise<void> {
    const start = this.handle.now();
    let result: Outcome = 'success';
    let lastInMemory = false;
    try {
      await this.clearLowerPriorityNominations(target, preemptor);
    } catch {
      // Not critical: the victims are still evicted.
      result = 'error';
    }
    let preemptLast = true;
    if (victims.length > 1) {
      const rest = await Promise.allSettled(victims.slice(0, -1).map((v) => this.preemptPod(target, preemptor, v)));
      if (rest.some((r) => r.status === 'rejected')) {
        result = 'error';
        // The preemptor comes back sooner: the last victim is left alone.
        preemptLast = false;
      }
    }
    if (preemptLast) {
      const last = victims[victims.length - 1]!;
      this.lastVictims.set(preemptor.uid, { namespace: last.pod.metadata.namespace ?? 'default', name: last.name });
      try {
        lastInMemory = await this.preemptPod(target, preemptor, last);
      } catch {
        result = 'error';
      }
    }
    this.preempting.delete(preemptor.uid);
    this.lastVictims.delete(preemptor.uid);
    this.observeExecution(preemptor, result, start, true);
    // No deletion event will wake the preemptor: activate it, lest it stay unschedulable. A
    // group's members held at PreEnqueue are not woken by the deletions here: activate them too.
    if (result === 'error' || lastInMemory || preemptor.type === 'podgroup') this.handle.activate?.(preemptor.pods);
  }

  /**
   * Preempts one victim (PreemptPod): a pod waiting at Permit is sent back to the queue, one in
   * PreBind has its binding cancelled, any other is marked DisruptionTarget and deleted. True
   * when it was preempted in the scheduler's memory only. A victim already gone counts as done.
   */
  private async preemptPod(target: PreemptionTarget, preemptor: Preemptor, victim: PodInfo): Promise<boolean> {
    let inMemory = false;
    const waiting = this.handle.getWaitingPod(victim.uid);
    if (waiting !== undefined) {
      inMemory = waiting.preempt(this.pluginName, 'preempted');
    } else {
      inMemory = this.handle.getPodInPreBind?.(victim.uid)?.cancel(`preempted by ${this.pluginName}`) ?? false;
    }
    let message = `Preempted by ${preemptor.type} ${preemptor.uid} on node ${target.name}`;
    if (inMemory) {
      message += ' (in kube-scheduler memory).';
    } else {
      const deleted = await this.handle.client().deletePod(victim.pod, {
        disruptionReason: PodReasonPreemptionByScheduler,
        message: `${preemptor.schedulerName}: preempting to accommodate a higher priority ${preemptor.type}`,
      }).then(() => true, (err: unknown) => {
        if (isNotFound(err)) return false;
        throw err;
      });
      if (!deleted) return false;
    }
    this.handle.eventRecorder().event(victim.pod, 'Normal', 'Preempted', 'Preempting', message);
    return inMemory;
  }

  /** Pods nominated to the node with a priority below the preemptor's may no longer fit there. */
  private async clearLowerPriorityNominations(target: PreemptionTarget, preemptor: Preemptor): Promise<void> {
    const client = this.handle.client();
    const writes: Promise<void>[] = [];
    for (const np of this.handle.nominator().nominatedPodsForNode(target.name)) {
      if (np.priority < preemptor.priority) writes.push(client.clearNominatedNodeName(np.pod));
    }
    const results = await Promise.allSettled(writes);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
  }

  private observeVictims(target: PreemptionTarget, preemptor: Preemptor): void {
    const recorder = this.handle.metricsRecorder?.();
    if (!recorder) return;
    recorder.observePreemptionVictims(target.victims.length);
    if (target.numPDBViolations > 0) recorder.observePreemptionPDBViolations(preemptor.type, target.numPDBViolations);
  }

  private observeExecution(preemptor: Preemptor, result: Outcome, startMs: number, async: boolean): void {
    this.handle.metricsRecorder?.()?.observePreemptionExecution(preemptor.type, result, (this.handle.now() - startMs) / 1000, async);
  }
}

function notTerminating(v: PodInfo): boolean {
  // A victim whose graceful deletion already started needs no second call.
  return !v.pod.metadata.deletionTimestamp;
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 404;
}
