// The pod-group scheduling cycle (schedule_one_podgroup.go, GenericWorkload without topology-aware
// placement or composite groups): every queued member of a group runs its scheduling algorithm on
// the snapshot, each placed member assumed and reserved so the next sees it, PlacementFeasible
// judging the group after each; then all is reverted, and only when the group succeeded are its
// placed members assumed, reserved and permitted again, for real, and sent to binding. A failed
// group's members all fail, and the group goes back to the queue as one entity.
import { podGroupPriority, type PodGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import type { Cache } from '../cache/cache.js';
import type { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle_state.js';
import { Diagnosis, ErrNoNodesAvailable, FitError } from '../framework/runtime/fit_error.js';
import type { PlacementProgress, PodGroupLister, QueuedPodInfo } from '../framework/interfaces.js';
import type { PodInfo } from '../framework/pod_info.js';
import type { Framework } from '../framework/runtime/framework.js';
import { Code, Status, isSuccess } from '../framework/status.js';
import { clearNominatedNode, type NominatingInfo } from '../queue/nominator.js';
import type { SchedulingQueue } from '../queue/scheduling_queue.js';
import type { ScheduleResult } from './schedule_pod.js';
import type { AttemptResult, SchedulerMetricsRecorder } from './metrics_recorder.js';

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
  /** The member's scheduling algorithm (no PostFilter): a node, or a thrown FitError or error. */
  findNode(attempt: A): ScheduleResult | Promise<ScheduleResult>;
  /** Assume, Reserve and Permit for real (the rest of a single pod's scheduling cycle). */
  assumeAndReserve(attempt: A, result: ScheduleResult): MemberOutcome;
  /** Binds a reserved member, or reports its failure and puts it back (through its group). */
  finishSchedulingCycle(attempt: A, outcome: MemberOutcome): void;
  /** Reports a member's failure and puts it back (FailureHandler). */
  failMember(attempt: A, status: Status, nominating: NominatingInfo | null): void;
  /** Writes the group's PodGroupInitiallyScheduled condition for this cycle's verdict (null: success). */
  reportGroup(podGroup: PodGroup, status: Status | null): void;
  /** Monotonic seconds, for the pod-group metrics. */
  monotonicSeconds(): number;
  readonly metrics: SchedulerMetricsRecorder | null;
  log(level: number, msg: string): void;
}

/** One member's result in the algorithm phase. */
interface MemberResult<A> {
  readonly qp: QueuedPodInfo;
  readonly attempt: A;
  readonly status: Status | null;
  readonly result: ScheduleResult | null;
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
  constructor(private readonly host: PodGroupCycleHost<A>) {}

  /** Schedules one popped group entity. */
  schedule(entity: QueuedPodInfo): void {
    const { host } = this;
    const group = entity.group!;
    host.cache.updateSnapshot(host.snapshot);
    group.members = group.members.filter((m) => !host.skipMember(m));
    if (group.members.length === 0) {
      host.queue.addAttemptedPodGroupIfNeeded(entity, true);
      return;
    }
    const fwk = host.profileOf(group.members[0]!.podInfo.pod);
    const invalid = this.validate(entity, fwk);
    if (invalid !== null || fwk === undefined) {
      const status = Status.error(invalid ?? `profile not found for scheduler name "${group.members[0]!.podInfo.pod.spec.schedulerName ?? ''}"`);
      for (const m of group.members) {
        const f = host.profileOf(m.podInfo.pod);
        if (f) host.failMember(host.newAttempt(m, f), status, clearNominatedNode);
        else host.queue.done(m.podInfo.uid);
      }
      host.reportGroup(group.podGroup, status);
      host.queue.addAttemptedPodGroupIfNeeded(entity, false);
      return;
    }
    const start = host.monotonicSeconds();
    const { status, results } = this.runAlgorithm(fwk, group.podGroup, group.members);
    host.metrics?.observePodGroupAlgorithmDuration?.(host.monotonicSeconds() - start);
    // Members the cycle did not reach fail with the group's verdict as it stood before PodGroupPostFilter.
    const beforePostFilter = status;
    const final = status?.code === Code.Unschedulable ? this.afterPodGroupPostFilter(fwk, group.podGroup, group.members, status) : status;
    this.submit(group.members, results, final, beforePostFilter);
    host.reportGroup(group.podGroup, final);
    const result: AttemptResult = final === null ? 'scheduled' : final.isRejected() ? 'unschedulable' : 'error';
    host.metrics?.observePodGroupAttempt?.(result, fwk.profileName, host.monotonicSeconds() - start);
    host.queue.addAttemptedPodGroupIfNeeded(entity, status === null);
  }

  /** validatePodGroup: one scheduler name, the group's priority and one preemption policy for all members. */
  private validate(entity: QueuedPodInfo, fwk: Framework | undefined): string | null {
    const group = entity.group!;
    const groupPriority = podGroupPriority(group.podGroup);
    const schedulerName = group.members[0]!.podInfo.pod.spec.schedulerName ?? 'default-scheduler';
    let policy = '';
    const check = (pod: Pod): string | null => {
      const name = pod.spec.schedulerName ?? 'default-scheduler';
      if (name !== schedulerName) return `all pods in a single pod group should have the same .spec.schedulerName set, got: "${name}" and "${schedulerName}"`;
      if (podPriority(pod) !== groupPriority) {
        return `all pods in a single pod group should have the same priority as the pod group's priority, got ${podPriority(pod)} and ${groupPriority}`;
      }
      const p = preemptionPolicyOf(pod);
      if (policy === '') policy = p;
      else if (p !== policy) return `all pods in a single pod group should have the same preemption policy, got ${p} and ${policy}`;
      return null;
    };
    for (const m of group.members) {
      const err = check(m.podInfo.pod);
      if (err !== null) return err;
    }
    for (const pod of this.host.podGroups.scheduledPods(group.namespace, group.name)) {
      const err = check(pod);
      if (err !== null) return err;
    }
    if (fwk === undefined) return `profile not found for scheduler name "${schedulerName}"`;
    return null;
  }

  /** PlacementFeasible: the first plugin that does not answer success decides. */
  private placementFeasible(fwk: Framework, pg: PodGroup, progress: PlacementProgress): Status | null {
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
   * podGroupSchedulingDefaultAlgorithm, then the revert runRootSchedulingAlgorithm does: the
   * group's status (null for success) and each tried member's result, in member order.
   */
  private runAlgorithm(fwk: Framework, pg: PodGroup, members: readonly QueuedPodInfo[]): { status: Status | null; results: MemberResult<A>[] } {
    const { host } = this;
    const results: MemberResult<A>[] = [];
    const reverts: (() => void)[] = [];
    const ns = pg.metadata.namespace ?? 'default';
    const progress = { remaining: members.length, scheduled: host.podGroups.scheduledPodsCount(ns, pg.metadata.name ?? '') };
    let status = this.placementFeasible(fwk, pg, progress);
    let anyScheduled = false;
    try {
      if (status?.code === Code.Error) return { status: Status.error(`failed to evaluate placement feasibility: ${status.message()}`), results };
      if (status?.code === Code.Unschedulable) return { status: groupUnschedulable(status.reasons), results };
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
      if (isSuccess(status) && !anyScheduled) status = groupUnschedulable([]);
      return { status, results };
    } finally {
      for (let i = reverts.length - 1; i >= 0; i--) reverts[i]!();
      if (reverts.length > 0) host.cache.updateSnapshot(host.snapshot);
    }
  }

  /** One member on the snapshot: its algorithm, then assumed and reserved with a revert. */
  private runMember(fwk: Framework, qp: QueuedPodInfo, reverts: (() => void)[]): MemberResult<A> {
    const { host } = this;
    const attempt = host.newAttempt(qp, fwk);
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
    const result = found;
    const state = host.stateOf(attempt);
    const host_ = result.suggestedHost;
    const podInfo: PodInfo = qp.podInfo;
    const assumedPod: Pod = { ...podInfo.pod, spec: { ...podInfo.pod.spec, nodeName: host_ } };
    const assumed = podInfo.withPod(assumedPod);
    try {
      host.cache.assumePod(assumed);
    } catch (err) {
      return { qp, attempt, status: Status.error(err as Error), result };
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
      host.cache.updateSnapshot(host.snapshot);
      return { qp, attempt, status: rejectionOnNode(podInfo.pod, host_, reserve!), result };
    }
    reverts.push(revert);
    host.cache.updateSnapshot(host.snapshot);
    return { qp, attempt, status: null, result };
  }

  /**
   * The group's verdict with PodGroupPostFilter's appended (RunPodGroupPostFilterPlugins, then
   * applyPodGroupPostFilterResult). The in-tree plugins with that extension point, in the
   * profile's PostFilter order: DynamicResources, which frees the members' claims (ours have
   * nothing to free then) and lets the next plugin try, and DefaultPreemption, of which we have
   * the answers that preempt nothing: a preemptor with preemptionPolicy Never, and a cluster
   * without a lower-priority pod. Preempting for a group is not built yet.
   */
  private afterPodGroupPostFilter(fwk: Framework, pg: PodGroup, members: readonly QueuedPodInfo[], status: Status): Status {
    const reasons: string[] = [];
    let final: string | null = null;
    for (const p of fwk.postFilterPlugins) {
      if (p.name === 'DynamicResources') {
        reasons.push('deallocation and deletion of ResourceClaims completed');
      } else if (p.name === 'DefaultPreemption') {
        if (members.some((m) => m.podInfo.pod.spec.preemptionPolicy === 'Never')) {
          reasons.push('pod group preemption: not eligible due to preemptionPolicy=Never.');
          continue;
        }
        const priority = podGroupPriority(pg);
        const lower = this.host.snapshot.nodeInfoList.some((ni) => ni.pods.some((pi) => (pi.pod.spec.priority ?? 0) < priority));
        final = lower ? 'pod group preemption: preempting for a pod group is not supported yet' : 'pod group preemption: No preemption victims found for incoming preemptor';
        break;
      }
    }
    return new Status(status.code, [...status.reasons, final ?? reasons.join(', ')], status.error).withPlugin(status.plugin);
  }

  /** submitPodGroupAlgorithmResult: binds the placed members of a group that succeeded, fails the rest. */
  private submit(members: readonly QueuedPodInfo[], results: readonly MemberResult<A>[], groupStatus: Status | null, notReached: Status | null): void {
    const { host } = this;
    members.forEach((qp, i) => {
      const r = results[i];
      const fwk = host.profileOf(qp.podInfo.pod)!;
      const attempt = r?.attempt ?? host.newAttempt(qp, fwk);
      if (groupStatus !== null && groupStatus.code === Code.Error) {
        host.failMember(attempt, r && r.status?.code === Code.Error ? r.status : groupStatus, clearNominatedNode);
        return;
      }
      if (r === undefined) {
        host.failMember(attempt, notReached ?? Status.error('scheduling error for pod group, some pods were not processed'), clearNominatedNode);
        return;
      }
      if (!isSuccess(r.status)) {
        host.failMember(attempt, r.status!, null);
        return;
      }
      if (groupStatus === null) {
        host.finishSchedulingCycle(attempt, host.assumeAndReserve(attempt, r.result!));
        return;
      }
      host.failMember(attempt, groupUnschedulable([groupStatus.message()]), clearNominatedNode);
    });
  }
}
