// The scheduling queue: activeQ, backoffQ and unschedulable pods, with event-driven requeueing
// through queueing hints and in-flight event tracking (backend/queue/scheduling_queue.go,
// active_queue.go, backoff_queue.go), with SchedulerQueueingHints and SchedulerPopFromBackoffQ on.
import type { CompositePodGroup, PodGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import {
  ActionTypeAll, type ClusterEvent, type ClusterEventWithHint, eventMatches, isWildCardEvent, podSchedulingPropertiesChange, QueueingHint,
} from '../framework/events.js';
import { eventObjectsAs } from '../framework/event_objects.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';
import { PodInfo } from '../framework/pod_info.js';
import { thrownMessage } from '../framework/runtime/thrown.js';
import type { Status } from '../framework/status.js';
import type { Clock, TimerHandle } from '../util/clock.js';
import { KeyedHeap } from './heap.js';
import { addMember, entityKeyOf, entityKeyOfPod, entityKeyOfRoot, MemberPods, newEntity, removeMember, setTree } from './pod_group_members.js';
import { WorkloadForest, type GroupRef } from './workload_forest.js';
import { Nominator, type NominatingInfo } from './nominator.js';
import { UnschedulablePods } from './unschedulable_pods.js';

/** The PreEnqueue plugin that holds pods with spec.schedulingGates (plugins/names.ts). */
const SchedulingGatesPlugin = 'SchedulingGates';

const DefaultPodInitialBackoffMs = 1000;
const DefaultPodMaxBackoffMs = 10_000;
const DefaultPodMaxInUnschedulablePodsDurationMs = 5 * 60 * 1000;
/** backoffQ orders and flushes pods by whole-second windows (KEP-5142). */
const BackoffQOrderingWindowMs = 1000;
const unschedulableFlushIntervalMs = 30_000;

/** Events the queue itself raises (framework/events.go). */
const ScheduleAttemptFailure: ClusterEvent = { resource: 'WildCard', actionType: ActionTypeAll, label: 'ScheduleAttemptFailure' };
const UnschedulableTimeout: ClusterEvent = { resource: 'WildCard', actionType: ActionTypeAll, label: 'UnschedulableTimeout' };
const ForceActivate: ClusterEvent = { resource: 'WildCard', actionType: ActionTypeAll, label: 'ForceActivate' };
const UnschedulablePodAdd = 'UnschedulablePodAdd';
const UnschedulablePodUpdate = 'UnschedulablePodUpdate';

type Strategy = 'skip' | 'afterBackoff' | 'immediately';
type QueueName = 'active' | 'backoff' | 'unschedulable';

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
  /** The informer's view of a pod, so the nominator ignores pods deleted or bound meanwhile. */
  podLister?: (namespace: string, name: string) => Pod | undefined;
  /** Called when a pod becomes available to pop (to wake a waiting popper). */
  onActive?: () => void;
  /** Counts pods entering a sub-queue by event, for scheduler_queue_incoming_pods_total. */
  onIncoming?: (queue: 'active' | 'backoff' | 'unschedulable' | 'gated', event: string) => void;
  /**
   * Pod groups (GenericWorkload on): a pod naming a group is then queued as a member of its root
   * group's entity, or held until its PodGroup and every composite above it are observed (the
   * queue's own view, fed by addPodGroup and addCompositePodGroup). `compositePodGroupEnabled`:
   * the CompositePodGroup gate.
   */
  podGroups?: { readonly compositePodGroupEnabled: boolean };
  /** Where a queueing hint that threw is reported (the pod is queued regardless). */
  log?: (level: number, msg: string) => void;
}

/** The key a queued entry has in the sub-queues: its group's for an entity, its UID for a pod. */
const entryKey = (qp: QueuedPodInfo): string => qp.group?.key ?? qp.podInfo.uid;

/** A set that refuses to change: one empty instance stands for every new pod's empty plugin sets. */
class UnchangingSet extends Set<string> {
  // Set's constructor adds nothing when given no values, so add can refuse from the start.
  override add(value: string): this {
    throw new Error(`the shared empty plugin set cannot change (adding ${value}): assign a new set`);
  }
  override delete(): boolean {
    throw new Error('the shared empty plugin set cannot change: assign a new set');
  }
  override clear(): void {
    throw new Error('the shared empty plugin set cannot change: assign a new set');
  }
}

/**
 * The plugin sets of a pod not yet attempted: every place that records plugins assigns a new set,
 * so the 10,000 pods a workload creates at once share this one instead of holding two each.
 */
const noPlugins: Set<string> = new UnchangingSet();

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

const alignToWindow = (ms: number): number => Math.floor(ms / BackoffQOrderingWindowMs) * BackoffQOrderingWindowMs;

export class SchedulingQueue {
  readonly nominator: Nominator;
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  /** Pods rejected by plugins, by backoff window then as activeQ orders them; popped when activeQ is empty. */
  private readonly podBackoffQ: KeyedHeap<QueuedPodInfo>;
  /** Pods that failed with an error (no rejecting plugin), by backoff time; only flushed. */
  private readonly podErrorBackoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulablePods: UnschedulablePods;
  private readonly inFlightPods = new Map<string, QueuedPodInfo>();
  private inFlightEvents: InFlightEvent[] = [];
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxInUnschedulableMs: number;
  private timers: TimerHandle[] = [];
  schedulingCycle = 0;
  private arrivals = 0;
  /** The plugin whose hint decided the last isPodWorthRequeuing ('' for none); requeue() notes it on the pod. */
  private hintPlugin = '';
  /** Members whose PodGroup object is not observed yet (incompletePodGroupPods). */
  private readonly incompleteMembers = new MemberPods();
  /** Members that arrived while their group was in flight (pendingPodGroupPods). */
  private readonly pendingMembers = new MemberPods();
  /** The group entity being scheduled, if any. */
  private groupInFlight: string | null = null;
  /** The observed PodGroups and composites (workloadForest); null without GenericWorkload. */
  private readonly forest: WorkloadForest | null;

  constructor(
    private readonly profiles: Map<string, QueueProfile>,
    private readonly opts: QueueOptions,
  ) {
    this.initialBackoffMs = opts.podInitialBackoffMs ?? DefaultPodInitialBackoffMs;
    this.maxBackoffMs = opts.podMaxBackoffMs ?? DefaultPodMaxBackoffMs;
    this.maxInUnschedulableMs = opts.podMaxInUnschedulablePodsDurationMs ?? DefaultPodMaxInUnschedulablePodsDurationMs;
    this.forest = opts.podGroups ? new WorkloadForest(opts.podGroups.compositePodGroupEnabled, (msg) => opts.log?.(1, msg)) : null;
    this.unschedulablePods = new UnschedulablePods(
      [...profiles.values()].map((p) => p.events),
      (pod) => this.profileOf(pod)?.events,
      // Only an update of the pod itself removes scheduling gates (update() handles it), as upstream skips them.
      (qp) => qp.gatingPlugin === SchedulingGatesPlugin,
    );
    // One QueueSort for all profiles is required by validation; use the first.
    const lessFn = [...profiles.values()][0]?.less ?? ((a, b) => a.timestamp < b.timestamp);
    const key = entryKey;
    // Ties the QueueSort leaves open are broken by arrival, keeping equal pods first-in first-out.
    const seq = (p: QueuedPodInfo) => p.sequence ?? 0;
    this.activeQ = new KeyedHeap(key, (a, b) => lessFn(a, b) || (!lessFn(b, a) && seq(a) < seq(b)));
    this.podBackoffQ = new KeyedHeap(key, (a, b) => {
      const ba = this.backoffTime(a);
      const bb = this.backoffTime(b);
      return ba !== bb ? ba < bb : lessFn(a, b);
    });
    this.podErrorBackoffQ = new KeyedHeap(key, (a, b) => this.backoffTime(a) < this.backoffTime(b));
    const lister = opts.podLister;
    this.nominator = new Nominator(lister
      ? (pi) => {
        const cur = lister(pi.namespace, pi.name);
        return cur !== undefined && !cur.spec.nodeName;
      }
      : undefined);
  }

  /** Starts the periodic flushes on the injected clock: backoffQ at whole seconds, leftovers every 30s. */
  run(): void {
    const clock = this.opts.clock;
    const now = clock.now();
    this.timers.push(clock.setInterval(() => this.flushBackoffQCompleted(), BackoffQOrderingWindowMs, alignToWindow(now + BackoffQOrderingWindowMs) - now));
    this.timers.push(clock.setInterval(() => this.flushUnschedulablePodsLeftover(), unschedulableFlushIntervalMs));
  }

  close(): void {
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
      unschedulablePlugins: noPlugins,
      pendingPlugins: noPlugins,
      gatingPlugin: null,
      sequence: ++this.arrivals,
    };
  }

  private profileOf(pod: Pod): QueueProfile | undefined {
    return this.profiles.get(pod.spec.schedulerName ?? 'default-scheduler');
  }

  /** Runs PreEnqueue: a rejecting plugin gates the pod and joins its unschedulable plugins. */
  private runPreEnqueuePlugins(qp: QueuedPodInfo): void {
    if (qp.group) {
      // Every member runs PreEnqueue; one gated member gates the whole group.
      let gating: string | null = null;
      for (const m of qp.group.members) {
        this.runPreEnqueuePlugins(m);
        if (m.gatingPlugin !== null) gating = m.gatingPlugin;
      }
      qp.gatingPlugin = gating;
      if (gating !== null && !qp.unschedulablePlugins.has(gating)) qp.unschedulablePlugins = new Set([...qp.unschedulablePlugins, gating]);
      return;
    }
    const s = this.profileOf(qp.podInfo.pod)?.preEnqueue(qp.podInfo.pod) ?? null;
    if (s === null) {
      qp.gatingPlugin = null;
      return;
    }
    qp.gatingPlugin = s.plugin || 'PreEnqueue';
    if (!qp.unschedulablePlugins.has(qp.gatingPlugin)) qp.unschedulablePlugins = new Set([...qp.unschedulablePlugins, qp.gatingPlugin]);
  }

  private inBackoffQ(uid: string): boolean {
    return this.podBackoffQ.has(uid) || this.podErrorBackoffQ.has(uid);
  }

  private deleteFromBackoffQ(uid: string): QueuedPodInfo | undefined {
    return this.podBackoffQ.delete(uid) ?? this.podErrorBackoffQ.delete(uid);
  }

  /**
   * Moves the pod to activeQ after PreEnqueue (skipped when it comes straight from backoffQ, which
   * ran PreEnqueue on entry); a gated pod stays in, or goes to, unschedulablePods.
   */
  private moveToActiveQ(qp: QueuedPodInfo, event: string, movesFromBackoffQ = false): boolean {
    if (!movesFromBackoffQ) this.runPreEnqueuePlugins(qp);
    const uid = entryKey(qp);
    if (qp.gatingPlugin !== null) {
      if (this.unschedulablePods.has(uid)) {
        // PreEnqueue may have changed its gate and rejecting plugins: the index must see them.
        this.unschedulablePods.refresh(uid);
        return false;
      }
      if (this.activeQ.has(uid) || this.inBackoffQ(uid)) return false;
      this.unschedulablePods.set(uid, qp);
      this.opts.onIncoming?.('gated', event);
      return false;
    }
    if (qp.initialAttemptTimestamp === null) qp.initialAttemptTimestamp = this.opts.clock.now();
    this.unschedulablePods.delete(uid);
    this.deleteFromBackoffQ(uid);
    this.activeQ.addOrUpdate(qp);
    this.opts.onIncoming?.('active', event);
    if (event === UnschedulablePodAdd || event === UnschedulablePodUpdate) for (const m of qp.group?.members ?? [qp]) this.nominator.add(m.podInfo, null);
    this.opts.onActive?.();
    return true;
  }

  /** Moves the pod to backoffQ (the error backoffQ when no plugin rejected it), unless PreEnqueue gates it. */
  private moveToBackoffQ(qp: QueuedPodInfo, event: string): boolean {
    this.runPreEnqueuePlugins(qp);
    const uid = entryKey(qp);
    if (qp.gatingPlugin !== null) {
      if (!this.unschedulablePods.has(uid)) {
        this.unschedulablePods.set(uid, qp);
        this.opts.onIncoming?.('gated', event);
      } else {
        this.unschedulablePods.refresh(uid);
      }
      return false;
    }
    this.unschedulablePods.delete(uid);
    const isError = qp.unschedulablePlugins.size === 0 && qp.pendingPlugins.size === 0;
    (isError ? this.podBackoffQ : this.podErrorBackoffQ).delete(uid);
    (isError ? this.podErrorBackoffQ : this.podBackoffQ).addOrUpdate(qp);
    this.opts.onIncoming?.('backoff', event);
    // backoffQ pods can be popped when activeQ is empty.
    this.opts.onActive?.();
    return true;
  }

  /** A new unscheduled pod (informer add). */
  add(pod: Pod): void {
    const qp = this.newQueuedPodInfo(pod);
    if (this.isGroupMember(qp)) this.addGroupMember(qp);
    else this.moveToActiveQ(qp, UnschedulablePodAdd);
  }

  private isGroupMember(qp: QueuedPodInfo): boolean {
    return this.forest !== null && entityKeyOf(qp) !== null;
  }

  /** The entity of a group in activeQ, backoffQ or unschedulablePods, taken out, with where it was. */
  private takeEntity(key: string): { entity: QueuedPodInfo; from: QueueName } | undefined {
    let entity = this.activeQ.delete(key);
    if (entity) return { entity, from: 'active' };
    entity = this.deleteFromBackoffQ(key);
    if (entity) return { entity, from: 'backoff' };
    entity = this.unschedulablePods.get(key);
    if (!entity) return undefined;
    this.unschedulablePods.delete(key);
    return { entity, from: 'unschedulable' };
  }

  private findEntity(key: string): QueuedPodInfo | undefined {
    return this.activeQ.get(key) ?? this.podBackoffQ.get(key) ?? this.podErrorBackoffQ.get(key) ?? this.unschedulablePods.get(key);
  }

  /**
   * Queues a member of a pod group (addPodGroupMember): held until its PodGroup and the composites
   * above it are observed, added to its root's queued entity (which stays where it was), held
   * while the root is in flight, or the first member of a new entity.
   */
  private addGroupMember(qp: QueuedPodInfo): void {
    const forest = this.forest!;
    const root = forest.rootOfPod(qp.podInfo.pod);
    if (root === null) {
      this.incompleteMembers.add(entityKeyOf(qp)!, qp);
      return;
    }
    const key = entityKeyOfRoot(root);
    const found = this.takeEntity(key);
    if (found) {
      addMember(found.entity, qp);
      this.requeue(found.entity, found.from === 'active' ? 'immediately' : found.from === 'backoff' ? 'afterBackoff' : 'skip', UnschedulablePodAdd);
      return;
    }
    if (this.groupInFlight === key) {
      this.pendingMembers.add(key, qp);
      return;
    }
    this.moveToActiveQ(newEntity(forest.tree(root)!, qp), UnschedulablePodAdd);
  }

  /** A PodGroup object was observed: the members held for the groups of its root are queued (AddPodGroup). */
  addPodGroup(pg: PodGroup): void {
    const forest = this.forest;
    if (forest === null) return;
    forest.addPodGroup(pg);
    this.rootObserved(forest.rootOfPodGroup(pg));
  }

  /** A PodGroup object changed: the queued entity sees the new spec. */
  updatePodGroup(pg: PodGroup): void {
    const forest = this.forest;
    if (forest === null) return;
    forest.updatePodGroup(pg);
    this.refreshTree(forest.rootOfPodGroup(pg));
  }

  /** A PodGroup object was deleted: its queued members wait for it again (DeletePodGroup). */
  deletePodGroup(pg: PodGroup): void {
    const forest = this.forest;
    if (forest === null) return;
    const root = forest.rootOfPodGroup(pg);
    forest.deletePodGroup(pg);
    this.subtreeRemoved(root);
  }

  /** A CompositePodGroup was observed (AddCompositePodGroup; nothing without the gate). */
  addCompositePodGroup(cpg: CompositePodGroup): void {
    const forest = this.forest;
    if (forest === null || !this.opts.podGroups!.compositePodGroupEnabled) return;
    forest.addCompositePodGroup(cpg);
    this.rootObserved(forest.rootOfCompositePodGroup(cpg));
  }

  updateCompositePodGroup(cpg: CompositePodGroup): void {
    const forest = this.forest;
    if (forest === null || !this.opts.podGroups!.compositePodGroupEnabled) return;
    forest.updateCompositePodGroup(cpg);
    this.refreshTree(forest.rootOfCompositePodGroup(cpg));
  }

  /** A CompositePodGroup was deleted: the queued members of its subtree wait for it again (DeleteCompositePodGroup). */
  deleteCompositePodGroup(cpg: CompositePodGroup): void {
    const forest = this.forest;
    if (forest === null || !this.opts.podGroups!.compositePodGroupEnabled) return;
    const root = forest.rootOfCompositePodGroup(cpg);
    forest.deleteCompositePodGroup(cpg);
    this.subtreeRemoved(root);
  }

  /** A group joined the tree of `root`: the entity sees the new tree, and the members held for its PodGroups are queued. */
  private rootObserved(root: GroupRef | null): void {
    if (root === null) return;
    this.refreshTree(root);
    for (const leaf of this.forest!.leafPodGroups(root)) {
      const held = this.incompleteMembers.take(entityKeyOfRoot({ kind: 'PodGroup', namespace: leaf.metadata.namespace ?? 'default', name: leaf.metadata.name ?? '' }));
      for (const qp of held) this.addGroupMember(qp);
    }
  }

  private refreshTree(root: GroupRef | null): void {
    if (root === null) return;
    const entity = this.findEntity(entityKeyOfRoot(root));
    const tree = this.forest!.tree(root);
    if (entity && tree !== null) setTree(entity.group!, tree);
  }

  /**
   * A group left the tree of `root` (its object deleted): the members no longer under `root` are
   * held again, and the entity, if any member is left, goes back where it was.
   */
  private subtreeRemoved(root: GroupRef | null): void {
    if (root === null) return;
    const forest = this.forest!;
    const key = entityKeyOfRoot(root);
    const stays = (qp: QueuedPodInfo): boolean => {
      const r = forest.rootOfPod(qp.podInfo.pod);
      return r !== null && entityKeyOfRoot(r) === key;
    };
    const found = this.takeEntity(key);
    if (!found) {
      if (this.groupInFlight !== key) return;
      for (const qp of this.pendingMembers.take(key)) {
        if (stays(qp)) this.pendingMembers.add(key, qp);
        else this.incompleteMembers.add(entityKeyOf(qp)!, qp);
      }
      return;
    }
    const entity = found.entity;
    for (const qp of [...entity.group!.members]) {
      if (stays(qp)) continue;
      removeMember(entity, qp.podInfo.uid);
      this.incompleteMembers.add(entityKeyOf(qp)!, qp);
    }
    if (entity.group!.members.length === 0) return;
    setTree(entity.group!, forest.tree(root)!);
    if (found.from === 'unschedulable') this.unschedulablePods.set(key, entity);
    else this.requeue(entity, found.from === 'active' ? 'immediately' : 'afterBackoff', UnschedulablePodUpdate);
  }

  /**
   * Puts a group back after its cycle (AddAttemptedPodGroupIfNeeded): the members that came back
   * meanwhile form its entity again, keeping its attempts; after a success straight to activeQ,
   * else to backoffQ while backing off. A member whose group has left the root goes its own way.
   */
  addAttemptedPodGroupIfNeeded(entity: QueuedPodInfo, success: boolean): void {
    const key = entryKey(entity);
    if (this.groupInFlight === key) this.groupInFlight = null;
    const pending = this.pendingMembers.take(key);
    if (pending.length === 0) return;
    const forest = this.forest!;
    const back: QueuedPodInfo[] = [];
    for (const qp of pending) {
      const root = forest.rootOfPod(qp.podInfo.pod);
      if (root !== null && entityKeyOfRoot(root) === key) back.push(qp);
      else this.addGroupMember(qp);
    }
    if (back.length === 0) return;
    const hadFailures = back.some((m) => entity.group!.members.includes(m));
    const g = entity.group!;
    const next = newEntity(forest.tree({ kind: g.kind, namespace: g.namespace, name: g.name })!, back[0]!);
    for (const m of back.slice(1)) addMember(next, m);
    next.attempts = entity.attempts;
    next.initialAttemptTimestamp = entity.initialAttemptTimestamp;
    next.sequence = entity.sequence;
    next.timestamp = success && hadFailures ? entity.timestamp : this.opts.clock.now();
    next.requeuedBy = { event: ScheduleAttemptFailure.label!, plugin: '' };
    if (!success && this.isPodBackingOff(next)) {
      if (this.moveToBackoffQ(next, ScheduleAttemptFailure.label!)) return;
    } else if (this.moveToActiveQ(next, ScheduleAttemptFailure.label!)) return;
    this.opts.onIncoming?.('unschedulable', ScheduleAttemptFailure.label!);
  }

  /**
   * The next pod to schedule: the head of activeQ or, when activeQ is empty, of backoffQ (error
   * backoffs excepted); undefined when there is none.
   */
  pop(): QueuedPodInfo | undefined {
    for (;;) {
      let qp = this.activeQ.pop();
      if (!qp) {
        qp = this.podBackoffQ.pop();
        if (!qp) return undefined;
        this.opts.onIncoming?.('active', 'PopFromBackoffQ');
      }
      if (qp.group) return this.popEntity(qp);
      // A pod already in flight is tracked twice: drop this copy and take the next.
      if (this.inFlightPods.has(qp.podInfo.uid)) continue;
      qp.attempts++;
      qp.unschedulablePlugins = new Set();
      qp.pendingPlugins = new Set();
      this.schedulingCycle++;
      this.inFlightPods.set(qp.podInfo.uid, qp);
      return qp;
    }
  }

  /** Pops the entity of a PodGroup's root wherever it waits (explain's attempt of a group); undefined when it is not queued. */
  popGroup(namespace: string, name: string): QueuedPodInfo | undefined {
    const pg = this.forest?.podGroup(namespace, name);
    const root = pg === undefined ? null : this.forest!.rootOfPodGroup(pg);
    if (root === null) return undefined;
    const found = this.takeEntity(entityKeyOfRoot(root));
    return found ? this.popEntity(found.entity) : undefined;
  }

  /** A group entity leaves the queue: each member is in flight, and the group until it is put back. */
  private popEntity(entity: QueuedPodInfo): QueuedPodInfo {
    entity.attempts++;
    entity.unschedulablePlugins = new Set();
    entity.pendingPlugins = new Set();
    for (const m of entity.group!.members) {
      m.attempts++;
      m.unschedulablePlugins = new Set();
      m.pendingPlugins = new Set();
      this.inFlightPods.set(m.podInfo.uid, m);
    }
    this.schedulingCycle++;
    this.groupInFlight = entryKey(entity);
    return entity;
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

  /** initial × 2^(attempts−1), capped at the maximum; no backoff before the first attempt. */
  private backoffDuration(qp: QueuedPodInfo): number {
    if (qp.attempts === 0) return 0;
    const shift = qp.attempts - 1;
    // A group's maximum grows with the square root of its queued members.
    const size = qp.group?.members.length ?? 1;
    const max = size > 1 ? Math.trunc(this.maxBackoffMs * Math.sqrt(size)) : this.maxBackoffMs;
    if (shift >= 52 || this.initialBackoffMs > Math.floor(max / 2 ** shift)) return max;
    return this.initialBackoffMs * 2 ** shift;
  }

  /** When the backoff ends, truncated to its ordering window; -Infinity before the first attempt. */
  private backoffTime(qp: QueuedPodInfo): number {
    if (qp.attempts === 0) return -Infinity;
    return alignToWindow(qp.timestamp + this.backoffDuration(qp));
  }

  /** A pod whose backoff ends within the current window is still backing off. */
  isPodBackingOff(qp: QueuedPodInfo): boolean {
    return this.backoffTime(qp) >= alignToWindow(this.opts.clock.now());
  }

  /**
   * Puts a pod whose attempt failed back (AddUnschedulableIfNotPresent): to activeQ/backoffQ when an
   * event during its attempt may help, else to unschedulablePods.
   */
  addUnschedulableIfNotPresent(qp: QueuedPodInfo): void {
    const uid = qp.podInfo.uid;
    if (!qp.group && this.isGroupMember(qp)) {
      // A member goes back through its group (addUnschedulablePodGroupMember).
      qp.timestamp = this.opts.clock.now();
      this.done(uid);
      this.addGroupMember(qp);
      return;
    }
    if (this.unschedulablePods.has(uid) || this.activeQ.has(uid) || this.inBackoffQ(uid)) {
      this.done(uid);
      return;
    }
    qp.timestamp = this.opts.clock.now();
    const { strategy, cause } = this.strategyForInFlightPod(qp);
    this.requeue(qp, strategy, ScheduleAttemptFailure.label!, cause);
    this.done(uid);
  }

  /** How to requeue a pod back from its attempt, and the event of its attempt that decided it. */
  private strategyForInFlightPod(qp: QueuedPodInfo): { strategy: Strategy; cause: string } {
    this.hintPlugin = '';
    const failure = ScheduleAttemptFailure.label!;
    // No rejecting plugin means an error (API failure etc.): retry after backoff.
    if (qp.unschedulablePlugins.size === 0 && qp.pendingPlugins.size === 0) return { strategy: 'afterBackoff', cause: failure };
    // Done already (a binding-cycle failure): the events of its attempt are gone.
    if (!this.inFlightPods.has(qp.podInfo.uid)) return { strategy: 'afterBackoff', cause: failure };
    let found: { strategy: Strategy; cause: string; plugin: string } | null = null;
    for (const e of this.inFlightEvents) {
      if (!e.pods.has(qp.podInfo.uid)) continue;
      const s = this.isPodWorthRequeuing(qp, e.event, e.oldObj, e.newObj);
      if (s === 'skip') continue;
      const cause = e.event.label ?? e.event.resource;
      if (s === 'immediately' || qp.pendingPlugins.size === 0) return { strategy: s, cause };
      found ??= { strategy: s, cause, plugin: this.hintPlugin };
    }
    if (found === null) return { strategy: 'skip', cause: failure };
    this.hintPlugin = found.plugin;
    return found;
  }

  /**
   * Asks the queueing hints of the plugins that rejected the pod whether `event` may help: Queue
   * from a Pending plugin requeues at once, from an Unschedulable one after backoff.
   */
  private isPodWorthRequeuing(qp: QueuedPodInfo, event: ClusterEvent, oldObj: unknown, newObj: unknown): Strategy {
    this.hintPlugin = '';
    if (qp.unschedulablePlugins.size === 0 && qp.pendingPlugins.size === 0) return 'afterBackoff';
    if (isWildCardEvent(event)) {
      // A wildcard event carrying a pod (ForceActivate) is for that pod only.
      if (newObj !== null && newObj !== undefined && eventObjectsAs('Pod', null, newObj)?.newObj?.metadata.uid !== qp.podInfo.uid) return 'skip';
      return 'afterBackoff';
    }
    const profile = this.profileOf(qp.podInfo.pod);
    if (!profile) return 'afterBackoff';
    const rejectors = new Set([...qp.unschedulablePlugins, ...qp.pendingPlugins]);
    let strategy: Strategy = 'skip';
    for (const plugin of rejectors) {
      for (const reg of profile.events.get(plugin) ?? []) {
        if (!eventMatches(reg.event, event)) continue;
        let hint = QueueingHint.Queue;
        if (reg.queueingHintFn) {
          try {
            hint = reg.queueingHintFn(qp.podInfo.pod, oldObj, newObj);
          } catch (err) {
            // A failing hint must not leave the pod stuck.
            hint = QueueingHint.Queue;
            this.opts.log?.(1, `QueueingHintFn returns error: event ${event.label ?? ''} plugin ${plugin} pod ${qp.podInfo.key}: ${thrownMessage(err)}`);
          }
        }
        if (hint === QueueingHint.QueueSkip) continue;
        if (qp.pendingPlugins.has(plugin)) {
          this.hintPlugin = plugin;
          return 'immediately';
        }
        if (strategy === 'skip') this.hintPlugin = plugin;
        if (qp.pendingPlugins.size === 0) return 'afterBackoff';
        strategy = 'afterBackoff';
      }
    }
    return strategy;
  }

  /**
   * Puts the pod where `strategy` says; `event` is what the incoming-pods metric counts, `cause`
   * the event noted on the pod as what requeued it (with the plugin of the hint just asked).
   */
  private requeue(qp: QueuedPodInfo, strategy: Strategy, event: string, cause = event): QueueName {
    if (strategy === 'skip') {
      this.unschedulablePods.set(entryKey(qp), qp);
      this.opts.onIncoming?.('unschedulable', event);
      return 'unschedulable';
    }
    qp.requeuedBy = { event: cause, plugin: this.hintPlugin };
    // The backoff may have ended while the pod sat in unschedulablePods.
    if (strategy === 'afterBackoff' && this.isPodBackingOff(qp)) {
      return this.moveToBackoffQ(qp, event) ? 'backoff' : 'unschedulable';
    }
    return this.moveToActiveQ(qp, event) ? 'active' : 'unschedulable';
  }

  /** Moves pods whose rejecting plugins care about `event` (MoveAllToActiveOrBackoffQueue). */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent, oldObj: unknown, newObj: unknown, preCheck?: (pod: Pod) => boolean): void {
    // Nothing to move and no attempt to tell: the usual case while the informers list (a node
    // added per listed node).
    if (this.unschedulablePods.size === 0 && this.inFlightPods.size === 0) return;
    const pods: QueuedPodInfo[] = [];
    // The pods whose hints may not all say QueueSkip, when the plugins' indexes can tell.
    const candidates = this.unschedulablePods.candidates(event, oldObj, newObj) ?? this.unschedulablePods.scannable();
    // Neither list holds scheduling-gated pods: only their own update frees them (update()), as upstream skips them.
    for (const qp of candidates) {
      if (!preCheck || preCheck(qp.podInfo.pod)) pods.push(qp);
    }
    this.movePodsToActiveOrBackoffQueue(pods, event, oldObj, newObj);
  }

  private movePodsToActiveOrBackoffQueue(pods: readonly QueuedPodInfo[], event: ClusterEvent, oldObj: unknown, newObj: unknown): void {
    const label = event.label ?? event.resource;
    for (const qp of pods) {
      // A gated pod moves only on an event its gating plugin registered.
      if (qp.gatingPlugin !== null && !this.gatingPluginWants(qp, event)) continue;
      // A group entity asks every member, each with its own rejecting plugins (isEntityWorthRequeuing).
      const strategy = qp.group ? this.isEntityWorthRequeuing(qp, event, oldObj, newObj) : this.isPodWorthRequeuing(qp, event, oldObj, newObj);
      if (strategy === 'skip') continue;
      this.unschedulablePods.delete(entryKey(qp));
      this.requeue(qp, strategy, label);
    }
    // Pods in flight may have missed this event: keep it for when they come back.
    if (this.inFlightPods.size > 0) {
      this.inFlightEvents.push({ event, oldObj, newObj, pods: new Set(this.inFlightPods.keys()) });
    }
  }

  private gatingPluginWants(qp: QueuedPodInfo, event: ClusterEvent): boolean {
    for (const reg of this.profileOf(qp.podInfo.pod)?.events.get(qp.gatingPlugin!) ?? []) {
      if (eventMatches(reg.event, event)) return true;
    }
    return false;
  }

  /** Pods whose backoff ended go to activeQ, without running PreEnqueue again. */
  flushBackoffQCompleted(): void {
    for (const heap of [this.podBackoffQ, this.podErrorBackoffQ]) {
      for (;;) {
        const top = heap.peek();
        if (!top || this.isPodBackingOff(top)) break;
        heap.pop();
        this.moveToActiveQ(top, 'BackoffComplete', true);
      }
    }
  }

  /** Pods in unschedulablePods for longer than the limit are retried (UnschedulableTimeout). */
  flushUnschedulablePodsLeftover(): void {
    const now = this.opts.clock.now();
    const toMove: QueuedPodInfo[] = [];
    for (const qp of this.unschedulablePods.values()) if (now - qp.timestamp > this.maxInUnschedulableMs) toMove.push(qp);
    if (toMove.length > 0) this.movePodsToActiveOrBackoffQueue(toMove, UnschedulableTimeout, null, null);
  }

  /**
   * Plugins asked to activate these pods (podsToActivate). A pod in flight gets a ForceActivate
   * event instead, so it is requeued when its attempt ends.
   */
  activate(pods: Iterable<Pod>): void {
    for (const pod of pods) {
      // A member activates its root's whole entity.
      let uid = pod.metadata.uid ?? '';
      if (this.forest !== null && entityKeyOfPod(pod) !== null) {
        const root = this.forest.rootOfPod(pod);
        if (root === null) continue;
        uid = entityKeyOfRoot(root);
      }
      let qp = this.unschedulablePods.get(uid);
      let fromBackoffQ = false;
      if (!qp) {
        qp = this.deleteFromBackoffQ(uid);
        fromBackoffQ = qp !== undefined;
      }
      if (qp) {
        qp.requeuedBy = { event: ForceActivate.label!, plugin: '' };
        this.moveToActiveQ(qp, ForceActivate.label!, fromBackoffQ);
        continue;
      }
      if (this.inFlightPods.has(pod.metadata.uid ?? '')) {
        this.inFlightEvents.push({ event: ForceActivate, oldObj: null, newObj: pod, pods: new Set(this.inFlightPods.keys()) });
      }
    }
  }

  /**
   * An unscheduled pod changed (informer update): recorded for its attempt when in flight, updated
   * in place in activeQ/backoffQ, requeued from unschedulablePods when a hint says the change may
   * help, or added when the queue did not hold it.
   */
  update(oldPod: Pod, newPod: Pod): void {
    const uid = newPod.metadata.uid ?? '';
    if (this.updateGroupMember(newPod)) return;
    const events = podSchedulingPropertiesChange(newPod, oldPod);
    if (this.inFlightPods.has(uid)) {
      const inFlight = new Set(this.inFlightPods.keys());
      for (const event of events) this.inFlightEvents.push({ event, oldObj: oldPod, newObj: newPod, pods: new Set(inFlight) });
      return;
    }
    const queued = this.activeQ.get(uid);
    if (queued) {
      // PodInfo.Update upstream: the derived data is kept when what it comes from is unchanged.
      queued.podInfo = PodInfo.derive(queued.podInfo, newPod);
      this.activeQ.addOrUpdate(queued);
      this.nominator.update(oldPod, queued.podInfo);
      return;
    }
    for (const heap of [this.podBackoffQ, this.podErrorBackoffQ]) {
      const backingOff = heap.get(uid);
      if (!backingOff) continue;
      backingOff.podInfo = PodInfo.derive(backingOff.podInfo, newPod);
      heap.addOrUpdate(backingOff);
      this.nominator.update(oldPod, backingOff.podInfo);
      return;
    }
    const unsched = this.unschedulablePods.get(uid);
    if (unsched) {
      unsched.podInfo = PodInfo.derive(unsched.podInfo, newPod);
      this.nominator.update(oldPod, unsched.podInfo);
      for (const event of events) {
        const where = this.requeue(unsched, this.isPodWorthRequeuing(unsched, event, oldPod, newPod), event.label ?? UnschedulablePodUpdate);
        if (where !== 'unschedulable') break;
      }
      return;
    }
    this.moveToActiveQ(this.newQueuedPodInfo(newPod), UnschedulablePodUpdate);
  }

  /**
   * A queued group member changed: it is updated where it waits (true), or is not queued as one
   * (false). A group waiting in unschedulablePods asks its members' hints about the update, as
   * for a single pod (the resourceclaim controller naming a member's claim ungates the group).
   */
  private updateGroupMember(pod: Pod): boolean {
    const found = this.findMember(pod);
    if (!found) return false;
    const old = found.member.podInfo.pod;
    found.member.podInfo = PodInfo.derive(found.member.podInfo, pod);
    if (found.entity && found.entity.group!.members[0] === found.member) found.entity.podInfo = found.member.podInfo;
    this.nominator.update(old, found.member.podInfo);
    const entity = found.entity;
    if (entity === undefined || this.unschedulablePods.get(entryKey(entity)) !== entity || this.inFlightPods.has(pod.metadata.uid ?? '')) return true;
    for (const event of podSchedulingPropertiesChange(pod, old)) {
      const strategy = this.isEntityWorthRequeuing(entity, event, old, pod);
      if (strategy === 'skip') continue;
      this.unschedulablePods.delete(entryKey(entity));
      if (this.requeue(entity, strategy, event.label ?? UnschedulablePodUpdate) !== 'unschedulable') break;
    }
    return true;
  }

  /** isEntityWorthRequeuing: a group is worth requeuing when one member is, at the best strategy of its members. */
  private isEntityWorthRequeuing(entity: QueuedPodInfo, event: ClusterEvent, oldObj: unknown, newObj: unknown): Strategy {
    let best: Strategy = 'skip';
    let plugin = '';
    for (const m of entity.group?.members ?? [entity]) {
      const s = this.isPodWorthRequeuing(m, event, oldObj, newObj);
      if (s === 'immediately') return s;
      if (s === 'afterBackoff' && best === 'skip') {
        best = s;
        plugin = this.hintPlugin;
      }
    }
    // The requeue is noted with the hint of the first member that let it through.
    this.hintPlugin = plugin;
    return best;
  }

  /** Where a group member waits: in a queued entity, in flight, held for its PodGroup, or pending its group's return. */
  private findMember(pod: Pod): { member: QueuedPodInfo; entity?: QueuedPodInfo } | undefined {
    if (this.forest === null || !pod.spec.schedulingGroup?.podGroupName) return undefined;
    const uid = pod.metadata.uid ?? '';
    const root = this.forest.rootOfPod(pod);
    const rootKey = root === null ? null : entityKeyOfRoot(root);
    const entity = rootKey === null ? undefined : this.findEntity(rootKey);
    const inEntity = entity?.group!.members.find((m) => m.podInfo.uid === uid);
    if (inEntity) return { member: inEntity, entity };
    const held = this.incompleteMembers.get(entityKeyOfPod(pod)!, uid) ?? (rootKey === null ? undefined : this.pendingMembers.get(rootKey, uid));
    return held ? { member: held } : undefined;
  }

  /** An unscheduled pod was deleted, or got assigned elsewhere. */
  delete(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    if (this.forest !== null && pod.spec.schedulingGroup?.podGroupName) this.deleteGroupMember(pod);
    this.nominator.delete({ uid });
    this.activeQ.delete(uid);
    this.deleteFromBackoffQ(uid);
    this.unschedulablePods.delete(uid);
  }

  private deleteGroupMember(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    this.incompleteMembers.delete(entityKeyOfPod(pod)!, uid);
    const root = this.forest!.rootOfPod(pod);
    if (root === null) return;
    const key = entityKeyOfRoot(root);
    this.pendingMembers.delete(key, uid);
    const found = this.takeEntity(key);
    if (!found) return;
    removeMember(found.entity, uid);
    if (found.entity.group!.members.length === 0) return;
    if (found.from === 'unschedulable') this.unschedulablePods.set(key, found.entity);
    else this.requeue(found.entity, found.from === 'active' ? 'immediately' : 'afterBackoff', UnschedulablePodUpdate);
  }

  addNominatedPod(pi: PodInfo, info: NominatingInfo | null): void {
    this.nominator.add(pi, info);
  }

  has(uid: string): boolean {
    return this.activeQ.has(uid) || this.inBackoffQ(uid) || this.unschedulablePods.has(uid) || this.inFlightPods.has(uid) || this.memberWhere(uid) !== undefined;
  }

  /** Where a group member not in flight waits, by its entity's place; 'gated' while held for its PodGroup. */
  private memberWhere(uid: string): 'active' | 'backoff' | 'errorBackoff' | 'unschedulable' | 'gated' | undefined {
    if (this.forest === null) return undefined;
    for (const m of this.incompleteMembers.all()) if (m.podInfo.uid === uid) return 'gated';
    const holds = (e: QueuedPodInfo) => e.group?.members.some((m) => m.podInfo.uid === uid) ?? false;
    if (this.activeQ.list().some(holds)) return 'active';
    if (this.podBackoffQ.list().some(holds)) return 'backoff';
    if (this.podErrorBackoffQ.list().some(holds)) return 'errorBackoff';
    for (const e of this.unschedulablePods.values()) if (holds(e)) return e.gatingPlugin !== null ? 'gated' : 'unschedulable';
    return undefined;
  }

  /** Where the queue holds the pod, for tests and reports. */
  whereIs(uid: string): 'active' | 'backoff' | 'errorBackoff' | 'unschedulable' | 'gated' | 'inFlight' | undefined {
    if (this.activeQ.has(uid)) return 'active';
    if (this.podBackoffQ.has(uid)) return 'backoff';
    if (this.podErrorBackoffQ.has(uid)) return 'errorBackoff';
    const u = this.unschedulablePods.get(uid);
    if (u) return u.gatingPlugin !== null ? 'gated' : 'unschedulable';
    if (this.inFlightPods.has(uid)) return 'inFlight';
    return this.memberWhere(uid);
  }

  /** Pods (a group entity counts its members) in each sub-queue; members held for their PodGroup count as gated. */
  pendingCounts(): PendingCounts {
    const size = (qp: QueuedPodInfo) => qp.group?.members.length ?? 1;
    const sum = (qps: Iterable<QueuedPodInfo>) => { let n = 0; for (const qp of qps) n += size(qp); return n; };
    let gated = this.incompleteMembers.size;
    let unschedulable = 0;
    for (const qp of this.unschedulablePods.values()) {
      if (qp.gatingPlugin !== null) gated += size(qp);
      else unschedulable += size(qp);
    }
    return {
      active: sum(this.activeQ.list()),
      backoff: sum(this.podBackoffQ.list()) + sum(this.podErrorBackoffQ.list()),
      unschedulable,
      gated,
    };
  }

  /** Every pod the queue holds (a group entity's members), for reports. */
  pendingPods(): QueuedPodInfo[] {
    const entries = [...this.activeQ.list(), ...this.podBackoffQ.list(), ...this.podErrorBackoffQ.list(), ...this.unschedulablePods.values()];
    return [...entries.flatMap((qp) => qp.group?.members ?? [qp]), ...this.incompleteMembers.all(), ...this.pendingMembers.all()];
  }

  /** When the earliest backoff can be flushed (ms), for a simulation's clock to jump to. */
  nextBackoffExpiry(): number | undefined {
    let at: number | undefined;
    for (const heap of [this.podBackoffQ, this.podErrorBackoffQ]) {
      const top = heap.peek();
      if (!top) continue;
      // Flushable once the clock's window is past the backoff's window.
      const t = Math.max(this.backoffTime(top) + BackoffQOrderingWindowMs, 0);
      if (at === undefined || t < at) at = t;
    }
    return at;
  }

  get inFlightCount(): number {
    return this.inFlightPods.size;
  }
}
