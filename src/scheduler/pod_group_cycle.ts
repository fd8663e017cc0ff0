// The pod-group scheduling cycle (schedule_one_podgroup.go, GenericWorkload without composite
// groups; the placements of TopologyAwareWorkloadScheduling in placement_algorithm.ts): every queued member of a group runs its scheduling algorithm on
// the snapshot, each placed member assumed and reserved so the next sees it, PlacementFeasible
// judging the group after each; then all is reverted, and only when the group succeeded are its
// placed members assumed, reserved and permitted again, for real, and sent to binding. A failed
// group's members all fail, and the group goes back to the queue as one entity.
import { compositePodGroupPriority, podGroupPriority, type PodGroup, type SchedulingGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import type { Cache } from '../cache/cache.js';
import type { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle_state.js';
import { snapshotCompositePodGroupMissing, snapshotPodGroupMissing } from '../framework/group_hierarchy.js';
import { Diagnosis, ErrNoNodesAvailable, FitError } from '../framework/runtime/fit_error.js';
import type { GroupTree, PlacementProgress, PodGroupLister, QueuedPodInfo } from '../framework/interfaces.js';
import { leavesOf, setTree } from '../queue/pod_group_members.js';
import type { PodInfo } from '../framework/pod_info.js';
import { isPodGroupPostFilterPlugin, type PodGroupPostFilterContext, type PodGroupPostFilterOutcome, type PodGroupPostFilterPlugin, type PodGroupPostFilterResult, type ProposedAssignment } from '../framework/pod_group_post_filter.js';
import type { Framework } from '../framework/runtime/framework.js';
import { Code, Status, isSuccess } from '../framework/status.js';
import { clearNominatedNode, type NominatingInfo } from '../queue/nominator.js';
import type { SchedulingQueue } from '../queue/scheduling_queue.js';
import type { ScheduleResult } from './schedule_pod.js';
import { andThen, type MaybePromise } from '../util/maybe_promise.js';
import type { AttemptResult, SchedulerMetricsRecorder } from './metrics_recorder.js';
import { runPlacementAlgorithm, type PlacementAlgorithmHost, type PlacementTrial } from './placement_algorithm.js';
import { groupResultKey, runCompositeRoot, sortedLeaves, type CompositePlacementRecord, type GroupResults } from './composite_algorithm.js';
import { withNodeName } from './schedule_one.js';

/** The error a rejected group's statuses carry (errPodGroupUnschedulable). */
const errPodGroupUnschedulable = new Error('pod group is unschedulable');

/**
 * A rejection carrying errPodGroupUnschedulable: upstream's Status lists its error before its
 * reasons, so the message starts with it.
 */
const groupUnschedulable = (reasons: readonly string[]): Status =>
  new Status(Code.Unschedulable, [errPodGroupUnschedulable.message, ...reasons], errPodGroupUnschedulable);

/** What a member's attempt ends with, as the scheduler's cycle reports it. */
interface MemberOutcome {
  readonly status: Status | null;
}

/** The parts of the Scheduler a group's cycle runs with; `A` is the scheduler's own attempt record. */
export interface PodGroupCycleHost<A> {
  readonly cache: Cache;
  readonly snapshot: Snapshot;
  readonly queue: SchedulingQueue;
  readonly podGroups: PodGroupLister;
  profileOf(pod: Pod): Framework | undefined;
  /** Whether the member's attempt ends before it starts (deleted, already assumed): the queue is told. */
  skipMember(qp: QueuedPodInfo): boolean;
  /** A member's attempt with a fresh cycle state. */
  newAttempt(qp: QueuedPodInfo, fwk: Framework): A;
  stateOf(attempt: A): CycleState;
  /** The queued member an attempt is for. */
  attemptOf(attempt: A): QueuedPodInfo;
  /** The member's scheduling algorithm (no PostFilter): a node, or a thrown FitError or error. */
  findNode(attempt: A): ScheduleResult | Promise<ScheduleResult>;
  /** Assume, Reserve and Permit for real (the rest of a single pod's scheduling cycle). */
  assumeAndReserve(attempt: A, result: ScheduleResult): MemberOutcome;
  /** Binds a reserved member, or reports its failure and puts it back (through its group). */
  finishSchedulingCycle(attempt: A, outcome: MemberOutcome): void;
  /** Notes the pods a preemption for the member's group evicts (reports show them once, on the first member). */
  noteVictims(attempt: A, victims: readonly string[]): void;
  /** Reports a member's failure and puts it back (FailureHandler). */
  failMember(attempt: A, status: Status, nominating: NominatingInfo | null): void;
  /** Writes the group's PodGroupInitiallyScheduled condition for this cycle's verdict (null: success). */
  reportGroup(podGroup: PodGroup, status: Status | null): void;
  /** Monotonic seconds, for the pod-group metrics. */
  monotonicSeconds(): number;
  readonly metrics: SchedulerMetricsRecorder | null;
  /** A uniform [0, 1) draw (ties between placements). */
  random(): number;
  /** Placements tried in name order and equal totals won by the first name (`--tie-break name`). */
  readonly tieBreakByName: boolean;
  /** Told each composite's placements as they are tried (explain). */
  readonly onCompositePlacements: ((r: CompositePlacementRecord) => void) | undefined;
  log(level: number, msg: string): void;
}

/** The group's verdict after PodGroupPostFilter; nominations when it waits on a preemption. */
interface PostFilterVerdict {
  readonly status: Status;
  /** The plugins' own answer (what is appended to each group's status, or the error replacing it). */
  readonly answer: Status;
  readonly preemption: PodGroupPostFilterResult | null;
}

/** One member's result in the algorithm phase. */
interface MemberResult<A> {
  readonly qp: QueuedPodInfo;
  readonly attempt: A;
  readonly status: Status | null;
  readonly result: ScheduleResult | null;
}

/** The Unschedulable answers of the PodGroupPostFilter plugins asked so far. */
interface RejectedSoFar {
  readonly reasons: string[];
  rejector: string;
}

/**
 * One PodGroupPostFilter plugin's answer as RunPodGroupPostFilterPlugins weighs it: the final
 * answer (success, unresolvable, or an error), or null to ask the next plugin after noting a
 * rejection.
 */
function weighPodGroupPostFilter(plugin: string, out: PodGroupPostFilterOutcome, rejected: RejectedSoFar): Status | null {
  const s = out.status;
  if (isSuccess(s)) return s ?? new Status(Code.Success, []);
  if (s!.code === Code.UnschedulableAndUnresolvable) return s!.withPlugin(plugin);
  if (s!.code === Code.Unschedulable) {
    rejected.reasons.push(...s!.reasons);
    if (rejected.rejector === '') rejected.rejector = plugin;
    return null;
  }
  return Status.error(`error in "${plugin}" PodGroupPostFilter plugins: ${s!.message()}`).withPlugin(plugin);
}

/** The status with the PodGroupPostFilter plugins' answer appended as one more reason (AppendReason). */
function appendReason(status: Status, answer: Status): Status {
  return new Status(status.code, [...status.reasons, answer.message()], status.error).withPlugin(status.plugin);
}

/**
 * applyPodGroupPostFilterResult over a tree's results: an error replaces every group's status;
 * otherwise the answer is appended to each group's status. Upstream appends in place, once per
 * group, and a group that inherited its parent's failure holds the parent's very status: a status
 * shared by k groups ends with the answer appended k times. Keyed by the original status object.
 */
function answeredStatuses(statuses: readonly (Status | null)[], answer: Status): Map<Status | null, Status | null> {
  const shares = new Map<Status | null, number>();
  for (const s of statuses) shares.set(s, (shares.get(s) ?? 0) + 1);
  const out = new Map<Status | null, Status | null>();
  for (const [s, k] of shares) {
    if (answer.code === Code.Error) out.set(s, answer);
    else if (s === null) out.set(s, null);
    else out.set(s, new Status(s.code, [...s.reasons, ...Array<string>(k).fill(answer.message())], s.error).withPlugin(s.plugin));
  }
  return out;
}

/** A rejection at Reserve is a FitError on that one node. */
function rejectionOnNode(pod: Pod, host: string, s: Status): Status {
  if (!s.isRejected()) return s;
  const d = new Diagnosis();
  d.nodeToStatus.set(host, s);
  d.addPluginStatus(s);
  return new Status(s.code, [], new FitError(pod, 1, d)).withPlugin(s.plugin);
}

const podPriority = (pod: Pod): number => pod.spec.priority ?? 0;
const preemptionPolicyOf = (pod: Pod): string => pod.spec.preemptionPolicy ?? 'PreemptLowerPriority';

export class PodGroupCycle<A> {
  /** Pods PodGroupPostFilter took off the snapshot, kept off when the cache refreshes a node. */
  private readonly removedFromSnapshot = new Map<string, PodInfo>();
  /** Nodes PodGroupPostFilter changed in the snapshot, refreshed from the cache afterwards. */
  private readonly touchedNodes = new Set<string>();
  /** The state plugins share across the members of the group being scheduled (its PodGroupCycleState). */
  private groupState = new CycleState();

  constructor(private readonly host: PodGroupCycleHost<A>) {}

  /** Brings the snapshot up to the cache, keeping PodGroupPostFilter's removals. */
  private syncSnapshot(): void {
    const { host } = this;
    host.cache.updateSnapshot(host.snapshot);
    for (const pi of this.removedFromSnapshot.values()) {
      const ni = host.snapshot.get(pi.pod.spec.nodeName ?? '');
      if (ni !== undefined && ni.pods.some((p) => p.uid === pi.uid)) this.editNode(ni.name, (n) => n.removePod(pi));
    }
  }

  private editNode(name: string, edit: (ni: NonNullable<ReturnType<Snapshot['get']>>) => void): void {
    const { snapshot } = this.host;
    const ni = snapshot.get(name);
    if (ni === undefined) return;
    this.host.cache.detachFromSnapshot(name);
    edit(ni);
    snapshot.updateSublists(ni);
    snapshot.logChange(ni);
    this.touchedNodes.add(name);
  }

  /**
   * Schedules one popped group entity: synchronously, unless a PodGroupPostFilter plugin waits
   * for I/O (synchronous preemption's evictions), then a promise of the cycle's end.
   */
  schedule(entity: QueuedPodInfo): MaybePromise<void> {
    const { host } = this;
    const group = entity.group!;
    host.cache.updateSnapshot(host.snapshot);
    group.members = group.members.filter((m) => !host.skipMember(m));
    if (group.members.length === 0) {
      host.queue.addAttemptedPodGroupIfNeeded(entity, true);
      return;
    }
    const fwk = host.profileOf(group.members[0]!.podInfo.pod);
    if (group.kind === 'CompositePodGroup') {
      // The queued tree may predate changes of shape the informers have seen (reconcilePodGroupWithSnapshot).
      const reconciled = this.reconcile(group.tree);
      if (typeof reconciled === 'string') {
        this.failBeforeScheduling(entity, Status.error(reconciled), false);
        return;
      }
      setTree(group, reconciled);
    }
    const invalid = this.validate(entity, fwk);
    if (invalid !== null || fwk === undefined) {
      const status = Status.error(invalid ?? `profile not found for scheduler name "${group.members[0]!.podInfo.pod.spec.schedulerName ?? ''}"`);
      this.failBeforeScheduling(entity, status, true);
      return;
    }
    if (group.kind === 'CompositePodGroup') {
      return this.scheduleComposite(entity, fwk);
    }
    const pg = group.podGroup!;
    const start = host.monotonicSeconds();
    this.groupState = new CycleState();
    const { status, results } = this.runAlgorithm(fwk, pg, group.members);
    host.metrics?.observePodGroupAlgorithmDuration?.(host.monotonicSeconds() - start);
    // Members the cycle did not reach fail with the group's verdict as it stood before PodGroupPostFilter.
    const beforePostFilter = status;
    const verdict = status?.code === Code.Unschedulable ? this.afterPodGroupPostFilter(fwk, pg, group.members, status, () => this.runAlgorithm(fwk, pg, group.members)) : null;
    return andThen(verdict, (v) => {
      const final = v?.status ?? status;
      this.submit(group.members, results, final, beforePostFilter, v?.preemption ?? null);
      host.reportGroup(pg, final);
      const result: AttemptResult = final === null ? 'scheduled' : final.isRejected() ? 'unschedulable' : 'error';
      host.metrics?.observePodGroupAttempt?.(result, fwk.profileName, host.monotonicSeconds() - start);
      host.queue.addAttemptedPodGroupIfNeeded(entity, status === null);
    });
  }

  /**
   * handlePodGroupFailureBeforeScheduling: every member fails with `status` and the root goes back;
   * the PodGroups of the tree are told, unless the tree's shape was stale.
   */
  private failBeforeScheduling(entity: QueuedPodInfo, status: Status, report: boolean): void {
    const { host } = this;
    const group = entity.group!;
    for (const m of group.members) {
      const f = host.profileOf(m.podInfo.pod);
      if (f) host.failMember(host.newAttempt(m, f), status, clearNominatedNode);
      else host.queue.done(m.podInfo.uid);
    }
    if (report) for (const leaf of leavesOf(group.tree)) if (leaf.podGroup) host.reportGroup(leaf.podGroup, status);
    host.queue.addAttemptedPodGroupIfNeeded(entity, false);
  }

  /**
   * reconcilePodGroupWithSnapshot: the queued tree with the informers' current objects; why not,
   * when a group is gone, moved, or a composite's children changed in number.
   */
  private reconcile(node: GroupTree): GroupTree | string {
    const groups = this.host.podGroups;
    const unset = (v: string | undefined): string => v ?? '[unset]';
    if (node.kind === 'CompositePodGroup') {
      const cpg = groups.compositePodGroup?.(node.namespace, node.name);
      if (cpg === undefined) return snapshotCompositePodGroupMissing(groups, node.namespace, node.name) ?? '';
      const queued = node.compositePodGroup?.spec.parentCompositePodGroupName;
      if (cpg.spec.parentCompositePodGroupName !== queued) {
        return `different parent in composite pod group between snapshot (${unset(cpg.spec.parentCompositePodGroupName)}) and queued entity (${unset(queued)})`;
      }
      const observed = groups.childrenOf?.(node.namespace, node.name).length ?? 0;
      if (observed !== node.children.length) {
        return `different number of children in composite pod group between snapshot (${observed}) and queued entity (${node.children.length})`;
      }
      const children: GroupTree[] = [];
      for (const c of node.children) {
        const r = this.reconcile(c);
        if (typeof r === 'string') return r;
        children.push(r);
      }
      return { ...node, compositePodGroup: cpg, children };
    }
    const pg = groups.podGroup(node.namespace, node.name);
    if (pg === undefined) return snapshotPodGroupMissing(groups, node.namespace, node.name) ?? '';
    const queued = node.podGroup?.spec.parentCompositePodGroupName;
    if (pg.spec.parentCompositePodGroupName !== queued) {
      return `different parent in pod group between snapshot (${unset(pg.spec.parentCompositePodGroupName)}) and queued entity (${unset(queued)})`;
    }
    return { ...node, podGroup: pg };
  }

  /**
   * validatePodGroup: one scheduler name, the root's priority and one preemption policy for every
   * member of the tree, queued or already scheduled.
   */
  private validate(entity: QueuedPodInfo, fwk: Framework | undefined): string | null {
    const group = entity.group!;
    const root: SchedulingGroup = group.podGroup ?? group.compositePodGroup!;
    const groupPriority = group.podGroup ? podGroupPriority(group.podGroup) : compositePodGroupPriority(group.compositePodGroup!);
    const schedulerName = group.members[0]!.podInfo.pod.spec.schedulerName ?? 'default-scheduler';
    // PodGroupPreemptionPolicy: every member must have the root's own policy; else they must agree.
    const groupPolicy = fwk?.features.enablePodGroupPreemptionPolicy ? root.spec.preemptionPolicy ?? 'PreemptLowerPriority' : null;
    let policy = '';
    const check = (pod: Pod): string | null => {
      const name = pod.spec.schedulerName ?? 'default-scheduler';
      if (name !== schedulerName) return `all pods in a single pod group should have the same .spec.schedulerName set, got: "${name}" and "${schedulerName}"`;
      if (podPriority(pod) !== groupPriority) {
        return `all pods in a single pod group should have the same priority as the pod group's priority, got ${podPriority(pod)} and ${groupPriority}`;
      }
      const p = preemptionPolicyOf(pod);
      if (groupPolicy !== null) {
        if (p !== groupPolicy) return `all pods in a single pod group should have the same preemption policy as the pod group's preemption policy, got ${p} and ${groupPolicy}`;
        return null;
      }
      if (policy === '') policy = p;
      else if (p !== policy) return `all pods in a single pod group should have the same preemption policy, got ${p} and ${policy}`;
      return null;
    };
    for (const m of group.members) {
      const err = check(m.podInfo.pod);
      if (err !== null) return err;
    }
    for (const leaf of sortedLeaves(group.tree)) {
      for (const pod of this.host.podGroups.scheduledPods(leaf.namespace, leaf.name)) {
        const err = check(pod);
        if (err !== null) return err;
      }
    }
    if (fwk === undefined) return `profile not found for scheduler name "${schedulerName}"`;
    return null;
  }

  /**
   * The cycle of a composite root (podGroupCycle with CompositePodGroup): the recursive algorithm,
   * everything it left assumed reverted; when the root is unschedulable, PodGroupPostFilter for the
   * whole tree (preemption with the root's priority and policy), its answer applied to every
   * group's result (applyPodGroupPostFilterResult); then each PodGroup's members bound or failed
   * with its own result and its condition written.
   */
  private scheduleComposite(entity: QueuedPodInfo, fwk: Framework): MaybePromise<void> {
    const { host } = this;
    const group = entity.group!;
    const start = host.monotonicSeconds();
    this.groupState = new CycleState();
    const membersOf = (leaf: GroupTree): QueuedPodInfo[] =>
      group.members.filter((m) => m.podInfo.pod.spec.schedulingGroup?.podGroupName === leaf.name);
    const leaves = sortedLeaves(group.tree);
    const rootKey = groupResultKey(group.tree);
    const runRoot = (): GroupResults<MemberResult<A>> => {
      const { results, reverts } = runCompositeRoot<MemberResult<A>>({
        snapshot: host.snapshot,
        tieBreakByName: host.tieBreakByName,
        onPlacements: host.onCompositePlacements,
        random: () => host.random(),
        runLeaf: (leaf) => this.runLeaf(fwk, leaf.podGroup!, membersOf(leaf)),
        placementFeasible: (g, progress) => this.placementFeasible(fwk, g, progress),
        assume: (rs) => this.assumeResults(fwk, rs),
        revert: (rs) => this.revert(rs),
        assignmentOf: (r) => (isSuccess(r.status) && r.result !== null ? { podInfo: r.qp.podInfo, nodeName: r.result.suggestedHost } : null),
      }, fwk, group.tree);
      this.revert(reverts);
      return results;
    };
    const results = runRoot();
    host.metrics?.observePodGroupAlgorithmDuration?.(host.monotonicSeconds() - start);
    const rootStatus = results.get(rootKey)!.status;
    // PodGroupPostFilter's scheduling function: the whole tree again, every PodGroup's placed members.
    const rerun = (): { status: Status | null; results: readonly MemberResult<A>[] } => {
      const again = runRoot();
      return { status: again.get(rootKey)!.status, results: leaves.flatMap((leaf) => again.get(groupResultKey(leaf))!.results) };
    };
    const verdict = rootStatus?.code === Code.Unschedulable ? this.afterPodGroupPostFilter(fwk, group.compositePodGroup!, group.members, rootStatus, rerun) : null;
    return andThen(verdict, (v) => {
      const final = v === null ? null : answeredStatuses([...results.values()].map((r) => r.status), v.answer);
      // The victims are reported once, with the tree's first member (as a PodGroup's first member).
      const first = group.members[0];
      const quiet = v?.preemption ? { ...v.preemption, victims: [] } : null;
      for (const leaf of leaves) {
        const r = results.get(groupResultKey(leaf))!;
        const status = final?.get(r.status) ?? r.status;
        const members = membersOf(leaf);
        this.submit(members, r.results, status, r.status, members[0] === first ? v?.preemption ?? null : quiet);
        host.reportGroup(leaf.podGroup!, status);
      }
      const outcome: AttemptResult = rootStatus === null ? 'scheduled' : rootStatus.isRejected() ? 'unschedulable' : 'error';
      host.metrics?.observePodGroupAttempt?.(outcome, fwk.profileName, host.monotonicSeconds() - start);
      host.queue.addAttemptedPodGroupIfNeeded(entity, rootStatus === null);
    });
  }

  /** A PodGroup child's own algorithm: its placements with TopologyAwareWorkloadScheduling. */
  private runLeaf(fwk: Framework, pg: PodGroup, members: readonly QueuedPodInfo[]): PlacementTrial<MemberResult<A>> {
    return fwk.topologyAwareWorkloadScheduling() ? runPlacementAlgorithm(this.placementHost(fwk, pg, members), fwk, pg) : this.runDefaultAlgorithm(fwk, pg, members);
  }

  /** The placed members of a trial assumed and reserved again; their reverts, or why not (none left assumed). */
  private assumeResults(fwk: Framework, results: readonly MemberResult<A>[]): (() => void)[] | string {
    const reverts: (() => void)[] = [];
    for (const r of results) {
      if (!isSuccess(r.status) || r.result === null || r.result.suggestedHost === '') continue;
      const s = this.assumeWithRevert(fwk, r.attempt, r.result, reverts);
      if (s !== null) {
        this.revert(reverts);
        return s.message();
      }
    }
    return reverts;
  }

  private revert(reverts: readonly (() => void)[]): void {
    for (let i = reverts.length - 1; i >= 0; i--) reverts[i]!();
    if (reverts.length > 0) this.syncSnapshot();
  }

  /** PlacementFeasible: the first plugin that does not answer success decides. */
  private placementFeasible(fwk: Framework, pg: SchedulingGroup, progress: PlacementProgress): Status | null {
    for (const p of fwk.placementFeasiblePlugins()) {
      let s: Status | null;
      try {
        s = p.placementFeasible(pg, progress);
      } catch (err) {
        s = Status.fromThrown(err);
      }
      if (!isSuccess(s)) return s!.withPlugin(p.name);
    }
    return null;
  }

  /**
   * podGroupSchedulingAlgorithm and runRootSchedulingAlgorithm: the group's status (null for
   * success) and each tried member's result, in member order; a success placing no member is a
   * rejection.
   */
  private runAlgorithm(fwk: Framework, pg: PodGroup, members: readonly QueuedPodInfo[]): { status: Status | null; results: readonly MemberResult<A>[] } {
    const trial = fwk.topologyAwareWorkloadScheduling()
      ? runPlacementAlgorithm(this.placementHost(fwk, pg, members), fwk, pg)
      : this.runDefaultAlgorithm(fwk, pg, members);
    if (isSuccess(trial.status) && !trial.anyScheduled) return { status: groupUnschedulable([]), results: trial.results };
    return trial;
  }

  /** What the placement algorithm (TopologyAwareWorkloadScheduling) needs of this cycle. */
  private placementHost(fwk: Framework, pg: PodGroup, members: readonly QueuedPodInfo[]): PlacementAlgorithmHost<MemberResult<A>> {
    const { host } = this;
    return {
      snapshot: host.snapshot,
      metrics: host.metrics,
      monotonicSeconds: () => host.monotonicSeconds(),
      random: host.random,
      tieBreakByName: host.tieBreakByName,
      tryPlacement: () => this.runDefaultAlgorithm(fwk, pg, members),
      assignmentOf: (r) => (isSuccess(r.status) && r.result !== null ? { podInfo: r.qp.podInfo, nodeName: r.result.suggestedHost } : null),
    };
  }

  /**
   * podGroupSchedulingDefaultAlgorithm, then the revert runRootSchedulingAlgorithm does: the
   * group's status (null for success) and each tried member's result, in member order.
   */
  private runDefaultAlgorithm(fwk: Framework, pg: PodGroup, members: readonly QueuedPodInfo[]): PlacementTrial<MemberResult<A>> {
    const { host } = this;
    const results: MemberResult<A>[] = [];
    const reverts: (() => void)[] = [];
    const ns = pg.metadata.namespace ?? 'default';
    const progress = { remaining: members.length, scheduled: host.podGroups.scheduledPodsCount(ns, pg.metadata.name ?? '') };
    let status = this.placementFeasible(fwk, pg, progress);
    let anyScheduled = false;
    try {
      if (status?.code === Code.Error) return { status: Status.error(`failed to evaluate placement feasibility: ${status.message()}`), results, anyScheduled };
      if (status?.code === Code.Unschedulable) return { status: groupUnschedulable(status.reasons), results, anyScheduled };
      for (const qp of members) {
        const r = this.runMember(fwk, qp, reverts);
        results.push(r);
        if (!isSuccess(r.status) && !r.status!.isRejected()) {
          status = Status.error(`failed to schedule other pod from a pod group: ${r.status!.message()}`);
          break;
        }
        progress.remaining--;
        if (isSuccess(r.status)) progress.scheduled++;
        const feasible = this.placementFeasible(fwk, pg, progress);
        if (feasible?.code === Code.Error) {
          status = Status.error(`failed to evaluate placement feasibility: ${feasible.message()}`);
          break;
        }
        status = feasible;
        if (feasible?.code === Code.Unschedulable) break;
        anyScheduled ||= isSuccess(r.status);
      }
      if (status?.code === Code.Wait) status = groupUnschedulable(status.reasons);
      // A failed trial places nothing (upstream's deferred revert clears anyScheduled).
      return { status, results, anyScheduled: isSuccess(status) && anyScheduled };
    } finally {
      for (let i = reverts.length - 1; i >= 0; i--) reverts[i]!();
      if (reverts.length > 0) this.syncSnapshot();
    }
  }

  /** One member on the snapshot: its algorithm, then assumed and reserved with a revert. */
  private runMember(fwk: Framework, qp: QueuedPodInfo, reverts: (() => void)[]): MemberResult<A> {
    const { host } = this;
    const attempt = host.newAttempt(qp, fwk);
    host.stateOf(attempt).podGroupCycle = this.groupState;
    let found: ScheduleResult | Promise<ScheduleResult>;
    try {
      found = host.findNode(attempt);
    } catch (err) {
      const status = err instanceof FitError
        ? new Status(Code.Unschedulable, [err.message], err)
        : err === ErrNoNodesAvailable
          ? new Status(Code.UnschedulableAndUnresolvable, [ErrNoNodesAvailable.message], ErrNoNodesAvailable)
          : Status.fromThrown(err);
      return { qp, attempt, status, result: null };
    }
    if (found instanceof Promise) {
      found.catch(() => undefined);
      return { qp, attempt, status: Status.error('extenders are not supported in a pod group scheduling cycle'), result: null };
    }
    const status = this.assumeWithRevert(fwk, attempt, found, reverts);
    return { qp, attempt, status, result: found };
  }

  /**
   * assumeAndReserveWithRevert: the member assumed on its node and reserved there, its revert
   * pushed onto `reverts`; the status of a failure (nothing left assumed).
   */
  assumeWithRevert(fwk: Framework, attempt: A, result: ScheduleResult, reverts: (() => void)[]): Status | null {
    const { host } = this;
    const state = host.stateOf(attempt);
    const host_ = result.suggestedHost;
    const podInfo: PodInfo = host.attemptOf(attempt).podInfo;
    const assumedPod: Pod = { ...podInfo.pod, spec: withNodeName(podInfo.pod.spec, host_) };
    const assumed = podInfo.withPod(assumedPod);
    try {
      host.cache.assumePod(assumed);
    } catch (err) {
      return Status.error(err as Error);
    }
    host.queue.nominator.delete(assumed);
    const reserve = fwk.runReservePluginsReserve(state, assumed, host_);
    const revert = () => {
      fwk.runReservePluginsUnreserve(state, assumed, host_);
      host.cache.forgetPod(assumedPod);
      // Assuming dropped the pod's nomination; reverting brings it back.
      if (podInfo.pod.status?.nominatedNodeName) host.queue.addNominatedPod(podInfo, { mode: 'Override', nominatedNodeName: podInfo.pod.status.nominatedNodeName });
    };
    if (!isSuccess(reserve)) {
      revert();
      this.syncSnapshot();
      return rejectionOnNode(podInfo.pod, host_, reserve!);
    }
    reverts.push(revert);
    this.syncSnapshot();
    return null;
  }

  /**
   * RunPodGroupPostFilterPlugins, then applyPodGroupPostFilterResult: the group's verdict with the
   * plugins' answer appended and, when one found room (preemption), the members' nominations.
   * Plugins with `podGroupPostFilter` (DynamicResources, DefaultPreemption) run on the snapshot,
   * which is restored afterwards.
   */
  private afterPodGroupPostFilter(
    fwk: Framework,
    pg: SchedulingGroup,
    members: readonly QueuedPodInfo[],
    status: Status,
    run: () => { status: Status | null; results: readonly MemberResult<A>[] },
  ): MaybePromise<PostFilterVerdict> {
    const plugins: PodGroupPostFilterPlugin[] = [];
    for (const p of fwk.postFilterPlugins) if (isPodGroupPostFilterPlugin(p)) plugins.push(p);
    const rejected: RejectedSoFar = { reasons: [], rejector: '' };
    const verdict = (answer: Status, found: PodGroupPostFilterResult | null): PostFilterVerdict => {
      if (answer.code === Code.Error) return { status: answer, answer, preemption: null };
      return { status: appendReason(status, answer), answer, preemption: isSuccess(answer) ? found ?? { nominations: new Map(), victims: [] } : null };
    };
    const from = (first: number): MaybePromise<PostFilterVerdict> => {
      for (let i = first; i < plugins.length; i++) {
        const p = plugins[i]!;
        let out: MaybePromise<PodGroupPostFilterOutcome>;
        try {
          out = this.withMutableSnapshot(() => p.podGroupPostFilter(this.postFilterContext(fwk, pg, members, run)));
        } catch (err) {
          out = { result: null, status: Status.fromThrown(err) };
        }
        if (out instanceof Promise) {
          return out.then(
            (o) => { const a = weighPodGroupPostFilter(p.name, o, rejected); return a === null ? from(i + 1) : verdict(a, o.result); },
            (err: unknown) => verdict(weighPodGroupPostFilter(p.name, { result: null, status: Status.fromThrown(err) }, rejected)!, null),
          );
        }
        const answer = weighPodGroupPostFilter(p.name, out, rejected);
        if (answer !== null) return verdict(answer, out.result);
      }
      return verdict(new Status(Code.Unschedulable, rejected.reasons).withPlugin(rejected.rejector), null);
    };
    return from(0);
  }

  /** Runs `fn` with the snapshot open to changes, and puts the cache's view back afterwards. */
  private withMutableSnapshot<T>(fn: () => T): T {
    try {
      return fn();
    } finally {
      this.removedFromSnapshot.clear();
      for (const name of this.touchedNodes) this.host.cache.refreshInSnapshot(name);
      this.touchedNodes.clear();
      this.host.cache.updateSnapshot(this.host.snapshot);
    }
  }

  /** The group and the snapshot as a PodGroupPostFilter plugin sees them. */
  private postFilterContext(
    fwk: Framework,
    pg: SchedulingGroup,
    members: readonly QueuedPodInfo[],
    run: () => { status: Status | null; results: readonly MemberResult<A>[] },
  ): PodGroupPostFilterContext {
    const { host } = this;
    return {
      podGroup: pg,
      state: this.groupState,
      members: members.map((m) => m.podInfo),
      nodeInfos: () => host.snapshot.nodeInfoList,
      nodeInfo: (name) => host.snapshot.get(name),
      removePod: (pi) => {
        this.editNode(pi.pod.spec.nodeName ?? '', (ni) => ni.removePod(pi));
        this.removedFromSnapshot.set(pi.uid, pi);
      },
      addPod: (pi) => {
        this.removedFromSnapshot.delete(pi.uid);
        this.editNode(pi.pod.spec.nodeName ?? '', (ni) => ni.addPod(pi));
      },
      schedule: () => {
        const { status, results } = run();
        const assignments: ProposedAssignment[] = [];
        for (const r of results) {
          if (!isSuccess(r.status) || r.result === null) continue;
          const nodeName = r.result.suggestedHost;
          const pod = r.qp.podInfo.pod;
          assignments.push({ podInfo: r.qp.podInfo.withPod({ ...pod, spec: withNodeName(pod.spec, nodeName) }), nodeName, state: host.stateOf(r.attempt) });
        }
        return { status, assignments };
      },
      reserve: (a) => void fwk.runReservePluginsReserve(a.state, a.podInfo, a.nodeName),
      unreserve: (a) => fwk.runReservePluginsUnreserve(a.state, a.podInfo, a.nodeName),
    };
  }

  /** submitPodGroupAlgorithmResult: binds the placed members of a group that succeeded, fails the rest. */
  private submit(
    members: readonly QueuedPodInfo[],
    results: readonly MemberResult<A>[],
    groupStatus: Status | null,
    notReached: Status | null,
    preemption: PodGroupPostFilterResult | null,
  ): void {
    const { host } = this;
    members.forEach((qp, i) => {
      const nominated = preemption?.nominations.get(qp.podInfo.key);
      const nominating: NominatingInfo | null = nominated !== undefined ? { mode: 'Override', nominatedNodeName: nominated } : null;
      const r = results[i];
      const fwk = host.profileOf(qp.podInfo.pod)!;
      const attempt = r?.attempt ?? host.newAttempt(qp, fwk);
      if (i === 0 && preemption !== null && preemption.victims.length > 0) host.noteVictims(attempt, preemption.victims);
      if (groupStatus !== null && groupStatus.code === Code.Error) {
        host.failMember(attempt, r && r.status?.code === Code.Error ? r.status : groupStatus, clearNominatedNode);
        return;
      }
      if (r === undefined) {
        host.failMember(attempt, notReached ?? Status.error('scheduling error for pod group, some pods were not processed'), nominating ?? clearNominatedNode);
        return;
      }
      if (!isSuccess(r.status)) {
        host.failMember(attempt, r.status!, nominating);
        return;
      }
      if (groupStatus === null) {
        host.finishSchedulingCycle(attempt, host.assumeAndReserve(attempt, r.result!));
        return;
      }
      // Waiting on a preemption, the member comes back with the group's status and its nomination.
      if (preemption !== null) host.failMember(attempt, groupStatus, nominating);
      else host.failMember(attempt, groupUnschedulable([groupStatus.message()]), clearNominatedNode);
    });
  }
}
