// The PodGroupPostFilter extension point (kube-scheduler framework/interface.go:
// PodGroupPostFilterPlugin, PodGroupSchedulingFunc, ProposedAssignment, PodGroupPostFilterResult).
import type { SchedulingGroup } from '../api/scheduling.js';
import type { CycleState } from './cycle_state.js';
import type { Plugin } from './interfaces.js';
import type { NodeInfo } from './node_info.js';
import type { PodInfo } from './pod_info.js';
import type { Status } from './status.js';
import type { MaybePromise } from '../util/maybe_promise.js';

/** A member the group's scheduling run placed: the pod, its node and the cycle state it was placed with. */
export interface ProposedAssignment {
  /** The member with `spec.nodeName` set to `nodeName`. */
  readonly podInfo: PodInfo;
  readonly nodeName: string;
  readonly state: CycleState;
}

/** What running the group's scheduling algorithm on the changed snapshot gives (PodGroupAssignments). */
interface PodGroupAssignments {
  /** The group's verdict: null when it would be scheduled. */
  readonly status: Status | null;
  /** The members placed, in the order the run tried them. */
  readonly assignments: readonly ProposedAssignment[];
}

/**
 * The group a PodGroupPostFilter plugin works for, and the snapshot it may change for the length
 * of the call (upstream's mutable snapshot): whatever it removes or adds is put back afterwards.
 */
export interface PodGroupPostFilterContext {
  /** The group whose cycle failed: a PodGroup, or the root of a tree of CompositePodGroups. */
  readonly podGroup: SchedulingGroup;
  /**
   * The state plugins shared across the members during the group's cycle (PodGroupCycleState):
   * what each member's attempt recorded there. Absent when the caller ran no group cycle.
   */
  readonly state?: CycleState;
  /** The group's members not scheduled yet (GetUnscheduledPods; a tree's, every PodGroup's). */
  readonly members: readonly PodInfo[];
  /** The snapshot's nodes, in the snapshot's order. */
  nodeInfos(): readonly NodeInfo[];
  nodeInfo(name: string): NodeInfo | undefined;
  /** Takes a pod off its node in the snapshot. */
  removePod(pod: PodInfo): void;
  /** Puts a pod on the node its `spec.nodeName` names, in the snapshot. */
  addPod(pod: PodInfo): void;
  /** Runs the group's scheduling algorithm on the snapshot as it is now; its placements are reverted. */
  schedule(): PodGroupAssignments;
  /** Runs Reserve for a proposed member (Unreserve undoes it). */
  reserve(assignment: ProposedAssignment): void;
  unreserve(assignment: ProposedAssignment): void;
}

/** The nodes a PodGroupPostFilter nominates the group's members to, by "namespace/name". */
export interface PodGroupPostFilterResult {
  readonly nominations: ReadonlyMap<string, string>;
  /** The pods evicted, as "namespace/name" (for reports). */
  readonly victims: readonly string[];
}

/** The outcome of a PodGroupPostFilter plugin: success when the group may fit after preemption. */
export interface PodGroupPostFilterOutcome {
  readonly result: PodGroupPostFilterResult | null;
  readonly status: Status | null;
}

/**
 * Runs when a pod group's cycle found it unschedulable: makes room for the whole group (as
 * DefaultPreemption does by choosing victims across the cluster) and nominates its members.
 * It answers at once, or with a promise while it waits for I/O (the evictions, when
 * SchedulerAsyncPreemption is off): the group's cycle waits for it, and no other cycle starts
 * meanwhile. The context may be used only before the promise is returned.
 */
export interface PodGroupPostFilterPlugin extends Plugin {
  podGroupPostFilter(ctx: PodGroupPostFilterContext): MaybePromise<PodGroupPostFilterOutcome>;
}

export const isPodGroupPostFilterPlugin = (p: Plugin): p is PodGroupPostFilterPlugin =>
  typeof (p as Partial<PodGroupPostFilterPlugin>).podGroupPostFilter === 'function';
