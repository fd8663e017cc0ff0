// The scheduling queue: activeQ, backoffQ and unschedulable pods, with event-driven requeueing
// through queueing hints and in-flight event tracking (backend/queue/scheduling_queue.go).
import type { Pod } from '../api/types.js';
import { type ClusterEvent, type ClusterEventWithHint, eventMatches, QueueingHint } from '../framework/events.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Status } from '../framework/status.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import { KeyedHeap } from './heap.js';
import { Nominator, type NominatingInfo } from './nominator.js';

export const DefaultPodInitialBackoffMs = 1000;
export const DefaultPodMaxBackoffMs = 10_000;
export const DefaultPodMaxInUnschedulablePodsDurationMs = 5 * 60 * 1000;
const backoffFlushIntervalMs = 1000;
const unschedulableFlushIntervalMs = 30_000;

/** Events the queue itself raises (framework/events.go). */
export const ScheduleAttemptFailure: ClusterEvent = { resource: 'WildCard', actionType: 0, label: 'ScheduleAttemptFailure' };
export const UnschedulableTimeout: ClusterEvent = { resource: 'WildCard', actionType: 0, label: 'UnschedulableTimeout' };
export const ForceActivate: ClusterEvent = { resource: 'WildCard', actionType: 0, label: 'ForceActivate' };

type Strategy = 'skip' | 'afterBackoff' | 'immediately';

/** Per profile: how to order pods, which PreEnqueue plugins gate them, which events wake them. */
export interface QueueProfile {
  less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  preEnqueue: (pod: Pod) => Status | null;
  /** plugin name → events it registered (with optional hints). */
  events: Map<string, ClusterEventWithHint[]>;
}

export interface QueueOptions {
  clock: Clock;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulablePodsDurationMs?: number;
  /** Called when a pod becomes available in activeQ (to wake a waiting popper). */
  onActive?: () => void;
  /** Counts pods entering a sub-queue by event, for scheduler_queue_incoming_pods_total. */
  onIncoming?: (queue: 'active' | 'backoff' | 'unschedulable' | 'gated', event: string) => void;
}

interface InFlightEvent {
  readonly event: ClusterEvent;
  readonly oldObj: unknown;
  readonly newObj: unknown;
  /** Pods in flight when the event arrived. */
  readonly pods: Set<string>;
}

export interface PendingCounts {
  active: number;
  backoff: number;
  unschedulable: number;
  gated: number;
}

export class SchedulingQueue {
  readonly nominator: Nominator;
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  private readonly backoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulablePods = new Map<string, QueuedPodInfo>();
  private readonly inFlightPods = new Map<string, QueuedPodInfo>();
  private inFlightEvents: InFlightEvent[] = [];
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxInUnschedulableMs: number;
  private timers: TimerHandle[] = [];
  schedulingCycle = 0;
  private closed = false;

  constructor(
    private readonly profiles: Map<string, QueueProfile>,
    private readonly opts: QueueOptions,
  ) {
    this.initialBackoffMs = opts.podInitialBackoffMs ?? DefaultPodInitialBackoffMs;
    this.maxBackoffMs = opts.podMaxBackoffMs ?? DefaultPodMaxBackoffMs;
    this.maxInUnschedulableMs = opts.podMaxInUnschedulablePodsDurationMs ?? DefaultPodMaxInUnschedulablePodsDurationMs;
    // One QueueSort for all profiles is required by validation; use the first.
    const lessFn = [...profiles.values()][0]?.less ?? ((a, b) => a.timestamp < b.timestamp);
    this.activeQ = new KeyedHeap((p) => p.podInfo.uid, lessFn);
    this.backoffQ = new KeyedHeap((p) => p.podInfo.uid, (a, b) => this.backoffExpiry(a) < this.backoffExpiry(b));
    this.nominator = new Nominator();
  }

  /** Starts the periodic flushes on the injected clock. */
  run(): void {
    const every = (ms: number, fn: () => void) => {
      const tick = () => {
        if (this.closed) return;
        fn();
        this.timers.push(this.opts.clock.setTimeout(tick, ms));
      };
      this.timers.push(this.opts.clock.setTimeout(tick, ms));
    };
    every(backoffFlushIntervalMs, () => this.flushBackoffQCompleted());
    every(unschedulableFlushIntervalMs, () => this.flushUnschedulablePodsLeftover());
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) this.opts.clock.clearTimeout(t);
    this.timers = [];
  }

  private newQueuedPodInfo(pod: Pod): QueuedPodInfo {
    const now = this.opts.clock.now();
    return {
      podInfo: new PodInfo(pod),
      timestamp: now,
      attempts: 0,
      initialAttemptTimestamp: null,
      unschedulablePlugins: new Set(),
      pendingPlugins: new Set(),
      gatingPlugin: null,
    };
  }

  private profileOf(pod: Pod): QueueProfile | undefined {
    return this.profiles.get(pod.spec.schedulerName ?? 'default-scheduler');
  }

  /** Runs PreEnqueue; a gated pod goes to unschedulablePods with its gating plugin recorded. */
  private moveToActiveQ(qp: QueuedPodInfo, event: string): boolean {
    const profile = this.profileOf(qp.podInfo.pod);
    const s = profile?.preEnqueue(qp.podInfo.pod) ?? null;
    if (s !== null) {
      qp.gatingPlugin = s.plugin || 'PreEnqueue';
      qp.unschedulablePlugins = new Set([qp.gatingPlugin]);
      this.backoffQ.delete(qp.podInfo.uid);
      this.unschedulablePods.set(qp.podInfo.uid, qp);
      this.opts.onIncoming?.('gated', event);
      return false;
    }
    qp.gatingPlugin = null;
    if (qp.initialAttemptTimestamp === null) qp.initialAttemptTimestamp = this.opts.clock.now();
    this.unschedulablePods.delete(qp.podInfo.uid);
    this.backoffQ.delete(qp.podInfo.uid);
    this.activeQ.addOrUpdate(qp);
    this.opts.onIncoming?.('active', event);
    this.opts.onActive?.();
    return true;
  }

  /** A new unscheduled pod (informer add). */
  add(pod: Pod): void {
    const qp = this.newQueuedPodInfo(pod);
    this.moveToActiveQ(qp, 'PodAdd');
  }

  /** The next pod to schedule, or undefined when activeQ is empty. */
  pop(): QueuedPodInfo | undefined {
    const qp = this.activeQ.pop();
    if (!qp) return undefined;
    qp.attempts++;
    this.schedulingCycle++;
    this.inFlightPods.set(qp.podInfo.uid, qp);
    return qp;
  }

  get activeLength(): number {
    return this.activeQ.length;
  }

  /** The pod's attempt is over (bound, or requeued): stop tracking events for it. */
  done(uid: string): void {
    if (!this.inFlightPods.delete(uid)) return;
    if (this.inFlightPods.size === 0) {
      this.inFlightEvents = [];
      return;
    }
    for (const e of this.inFlightEvents) e.pods.delete(uid);
    this.inFlightEvents = this.inFlightEvents.filter((e) => e.pods.size > 0);
  }

  private backoffDuration(qp: QueuedPodInfo): number {
    let d = this.initialBackoffMs;
    for (let i = 1; i < qp.attempts; i++) {
      if (d > this.maxBackoffMs - d) return this.maxBackoffMs;
      d += d;
    }
    return d;
  }

  private backoffExpiry(qp: QueuedPodInfo): number {
    return qp.timestamp + this.backoffDuration(qp);
  }

  isPodBackingOff(qp: QueuedPodInfo): boolean {
    return this.backoffExpiry(qp) > this.opts.clock.now();
  }

  /** Puts a pod whose attempt failed back: backoffQ if an in-flight event may help, else unschedulablePods. */
  addUnschedulableIfNotPresent(qp: QueuedPodInfo): void {
    const uid = qp.podInfo.uid;
    if (this.activeQ.has(uid) || this.backoffQ.has(uid)) {
      this.done(uid);
      return;
    }
    qp.timestamp = this.opts.clock.now();
    const strategy = this.strategyForInFlightPod(qp);
    this.requeue(qp, strategy, ScheduleAttemptFailure.label!);
    this.done(uid);
  }

  private strategyForInFlightPod(qp: QueuedPodInfo): Strategy {
    const rejectors = qp.unschedulablePlugins.size + qp.pendingPlugins.size;
    // No rejecting plugin means an error (API failure etc.): retry after backoff.
    if (rejectors === 0) return 'afterBackoff';
    let strategy: Strategy = 'skip';
    for (const e of this.inFlightEvents) {
      if (!e.pods.has(qp.podInfo.uid)) continue;
      const s = this.isPodWorthRequeuing(qp, e.event, e.oldObj, e.newObj);
      if (s === 'immediately') return s;
      if (s === 'afterBackoff') strategy = s;
    }
    return strategy;
  }

  private isPodWorthRequeuing(qp: QueuedPodInfo, event: ClusterEvent, oldObj: unknown, newObj: unknown): Strategy {
    const rejectors = new Set([...qp.unschedulablePlugins, ...qp.pendingPlugins]);
    if (rejectors.size === 0) return 'afterBackoff';
    if (event.resource === 'WildCard' && event.actionType === 0) return 'afterBackoff';
    const profile = this.profileOf(qp.podInfo.pod);
    if (!profile) return 'afterBackoff';
    let strategy: Strategy = 'skip';
    for (const plugin of rejectors) {
      for (const reg of profile.events.get(plugin) ?? []) {
        if (!eventMatches(reg.event, event)) continue;
        let hint = QueueingHint.Queue;
        if (reg.queueingHintFn) {
          try {
            hint = reg.queueingHintFn(qp.podInfo.pod, oldObj, newObj);
          } catch {
            hint = QueueingHint.Queue;
          }
        }
        if (hint === QueueingHint.QueueSkip) continue;
        if (qp.pendingPlugins.has(plugin)) return 'immediately';
        if (qp.pendingPlugins.size === 0) return 'afterBackoff';
        strategy = 'afterBackoff';
      }
    }
    return strategy;
  }

  private requeue(qp: QueuedPodInfo, strategy: Strategy, event: string): 'active' | 'backoff' | 'unschedulable' {
    const uid = qp.podInfo.uid;
    if (strategy === 'skip') {
      this.unschedulablePods.set(uid, qp);
      this.opts.onIncoming?.('unschedulable', event);
      return 'unschedulable';
    }
    if (strategy === 'afterBackoff' && this.isPodBackingOff(qp)) {
      this.unschedulablePods.delete(uid);
      this.backoffQ.addOrUpdate(qp);
      this.opts.onIncoming?.('backoff', event);
      return 'backoff';
    }
    return this.moveToActiveQ(qp, event) ? 'active' : 'unschedulable';
  }

  /** Moves pods whose rejecting plugins care about `event` (MoveAllToActiveOrBackoffQueue). */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent, oldObj: unknown, newObj: unknown, preCheck?: (pod: Pod) => boolean): void {
    if (this.inFlightPods.size > 0) {
      this.inFlightEvents.push({ event, oldObj, newObj, pods: new Set(this.inFlightPods.keys()) });
    }
    const label = event.label ?? `${event.resource}`;
    for (const qp of [...this.unschedulablePods.values()]) {
      if (preCheck && !preCheck(qp.podInfo.pod)) continue;
      const strategy = this.isPodWorthRequeuing(qp, event, oldObj, newObj);
      if (strategy === 'skip') continue;
      this.unschedulablePods.delete(qp.podInfo.uid);
      this.requeue(qp, strategy, label);
    }
  }

  /** Pods whose backoff ended go to activeQ. */
  flushBackoffQCompleted(): void {
    const now = this.opts.clock.now();
    for (;;) {
      const top = this.backoffQ.peek();
      if (!top || this.backoffExpiry(top) > now) break;
      this.backoffQ.pop();
      this.moveToActiveQ(top, 'BackoffComplete');
    }
  }

  /** Pods stuck in unschedulablePods longer than the limit are retried. */
  flushUnschedulablePodsLeftover(): void {
    const now = this.opts.clock.now();
    for (const qp of [...this.unschedulablePods.values()]) {
      if (qp.gatingPlugin !== null) continue;
      if (now - qp.timestamp > this.maxInUnschedulableMs) {
        this.unschedulablePods.delete(qp.podInfo.uid);
        this.requeue(qp, 'afterBackoff', UnschedulableTimeout.label!);
      }
    }
  }

  /** Plugins asked to activate these pods (podsToActivate). */
  activate(pods: Iterable<Pod>): void {
    for (const pod of pods) {
      const uid = pod.metadata.uid ?? '';
      const qp = this.unschedulablePods.get(uid) ?? this.backoffQ.get(uid);
      if (!qp) continue;
      this.unschedulablePods.delete(uid);
      this.backoffQ.delete(uid);
      this.moveToActiveQ(qp, ForceActivate.label!);
    }
  }

  /** An unscheduled pod changed (informer update). */
  update(oldPod: Pod, newPod: Pod): void {
    const uid = newPod.metadata.uid ?? '';
    const inActive = this.activeQ.get(uid);
    if (inActive) {
      this.nominator.update(inActive.podInfo, inActive.podInfo.withPod(newPod));
      inActive.podInfo = new PodInfo(newPod);
      this.activeQ.addOrUpdate(inActive);
      return;
    }
    const inBackoff = this.backoffQ.get(uid);
    if (inBackoff) {
      inBackoff.podInfo = new PodInfo(newPod);
      this.backoffQ.addOrUpdate(inBackoff);
      return;
    }
    const unsched = this.unschedulablePods.get(uid);
    if (unsched) {
      unsched.podInfo = new PodInfo(newPod);
      if (podSpecChanged(oldPod, newPod)) {
        this.unschedulablePods.delete(uid);
        const gatesRemoved = (oldPod.spec.schedulingGates?.length ?? 0) > 0 && (newPod.spec.schedulingGates?.length ?? 0) === 0;
        this.requeue(unsched, gatesRemoved || unsched.gatingPlugin !== null ? 'immediately' : 'afterBackoff', 'PodUpdate');
      }
      return;
    }
    if (this.inFlightPods.has(uid)) return;
    this.add(newPod);
  }

  /** An unscheduled pod was deleted, or got assigned elsewhere. */
  delete(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    this.activeQ.delete(uid);
    this.backoffQ.delete(uid);
    this.unschedulablePods.delete(uid);
    this.nominator.delete({ uid });
  }

  addNominatedPod(pi: PodInfo, info: NominatingInfo | null): void {
    this.nominator.add(pi, info);
  }

  has(uid: string): boolean {
    return this.activeQ.has(uid) || this.backoffQ.has(uid) || this.unschedulablePods.has(uid) || this.inFlightPods.has(uid);
  }

  pendingCounts(): PendingCounts {
    let gated = 0;
    for (const qp of this.unschedulablePods.values()) if (qp.gatingPlugin !== null) gated++;
    return {
      active: this.activeQ.length,
      backoff: this.backoffQ.length,
      unschedulable: this.unschedulablePods.size - gated,
      gated,
    };
  }

  /** Every pod the queue holds, for reports. */
  pendingPods(): QueuedPodInfo[] {
    return [...this.activeQ.list(), ...this.backoffQ.list(), ...this.unschedulablePods.values()];
  }

  /** When the earliest backoff ends (ms), for a simulation's clock to jump to. */
  nextBackoffExpiry(): number | undefined {
    const top = this.backoffQ.peek();
    return top ? this.backoffExpiry(top) : undefined;
  }

  get inFlightCount(): number {
    return this.inFlightPods.size;
  }
}

/** True when a pod update may change scheduling (anything but status/metadata bookkeeping). */
function podSpecChanged(oldPod: Pod, newPod: Pod): boolean {
  return JSON.stringify(oldPod.spec) !== JSON.stringify(newPod.spec) ||
    JSON.stringify(oldPod.metadata.labels ?? {}) !== JSON.stringify(newPod.metadata.labels ?? {});
}
