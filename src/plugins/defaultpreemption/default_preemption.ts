// The DefaultPreemption PostFilter plugin (framework/plugins/defaultpreemption/default_preemption.go).
import type { SchedulingGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import type { CycleState } from '../../framework/cycle_state.js';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type { Features } from '../../framework/features.js';
import { groupHierarchy, rootInHierarchy } from '../../framework/group_hierarchy.js';
import type { EnqueueExtensions, GroupKey, Handle, NodeToStatusReader, PostFilterOutcome, PostFilterPlugin, PreEnqueuePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import type { PodGroupPostFilterContext, PodGroupPostFilterOutcome, PodGroupPostFilterPlugin } from '../../framework/pod_group_post_filter.js';
import type { PodDisruptionBudget } from '../../api/types.js';
import { thrownMessage } from '../../framework/runtime/thrown.js';
import { andThen, type MaybePromise } from '../../util/maybe_promise.js';
import { Code, Status, isSuccess } from '../../framework/status.js';
import * as names from '../../framework/names.js';
import type { DefaultPreemptionArgs } from './args.js';
import type { PreemptionPolicy, VictimSelection } from './candidate.js';
import { Evaluator } from './evaluator.js';
import { Executor, PodReasonPreemptionByScheduler } from './executor.js';
import { sortByImportance } from './importance.js';
import { compileDisruptionBudgets, filterPodsWithPDBViolation, filterVictimsWithPDBViolation, type DisruptionBudget } from './pdb.js';
import { clusterVictims, podGroupUID, preemptForPodGroup, sortVictims, type Victim } from './podgroup_preemption.js';

export const Name = names.DefaultPreemption;

const ErrReasonWaitingForPreemption = 'waiting for the preemption for this pod to be finished';
const ErrReasonWaitingForGroupPreemption = 'waiting for the preemption for this pod group to be finished';
const ErrReasonNoVictims = 'No preemption victims found for incoming pod';
const ErrReasonPreemptNever = 'not eligible due to preemptionPolicy=Never.';
const ErrReasonTerminatingOnNominatedNode = 'not eligible due to a terminating pod on the nominated node.';

/** The plugin's messages start with "preemption: ". */
function withPreemptionPrefix({ result, status }: PostFilterOutcome): PostFilterOutcome {
  const msg = status === null ? '' : status.message();
  if (msg.length > 0) return { result, status: new Status(status!.code, [`preemption: ${msg}`]) };
  return { result, status };
}

/** Its messages for a group start with "pod group preemption: ". */
function withPodGroupPreemptionPrefix({ result, status }: PodGroupPostFilterOutcome): PodGroupPostFilterOutcome {
  const msg = status === null ? '' : status.message();
  if (msg.length > 0) return { result, status: new Status(status!.code, [`pod group preemption: ${msg}`]) };
  return { result, status };
}

export class DefaultPreemption implements PostFilterPlugin, PodGroupPostFilterPlugin, PreEnqueuePlugin, EnqueueExtensions, PreemptionPolicy {
  readonly name = Name;
  readonly evaluator: Evaluator;
  readonly executor: Executor;

  constructor(
    private readonly args: DefaultPreemptionArgs,
    private readonly handle: Handle,
    private readonly features: Pick<Features, 'enableAsyncPreemption' | 'enableCompositePodGroup' | 'enableGenericWorkload' | 'enablePodGroupPreemptionPolicy'>,
  ) {
    this.executor = new Executor(Name, handle, features.enableAsyncPreemption);
    this.evaluator = new Evaluator(Name, handle, this, this.executor);
  }

  /** With asynchronous preemption, a pod stays out of the active queue while its victims go. */
  preEnqueue(pod: Pod): Status | null {
    if (!this.features.enableAsyncPreemption) return null;
    const groupName = pod.spec.schedulingGroup?.podGroupName;
    if (groupName !== undefined && this.features.enableGenericWorkload) {
      // A member waits while its root group's preemption runs; a missing group is not ours to hold back.
      const root = this.rootGroupOf(pod.metadata.namespace ?? 'default', groupName);
      if (root === undefined) return null;
      if (this.executor.isRunningPreemption(podGroupUID(root))) return Status.unresolvable(ErrReasonWaitingForGroupPreemption);
      return null;
    }
    if (this.executor.isRunningPreemption(pod.metadata.uid ?? '')) return Status.unresolvable(ErrReasonWaitingForPreemption);
    return null;
  }

  /**
   * The object of the group a member's preemption runs for: its PodGroup, or with the
   * CompositePodGroup gate the root of its tree as the hierarchy snapshot finds it; undefined when
   * it cannot be resolved.
   */
  private rootGroupOf(ns: string, name: string): SchedulingGroup | undefined {
    const groups = this.handle.podGroups?.();
    if (!groups) return undefined;
    if (!this.features.enableCompositePodGroup) return groups.podGroup(ns, name);
    const h = groupHierarchy(groups, ns, name);
    if (typeof h === 'string') return undefined;
    let root: GroupKey | null;
    try {
      root = rootInHierarchy(groups, h, { kind: 'PodGroup', namespace: ns, name });
    } catch {
      return undefined;
    }
    if (root === null) return undefined;
    return root.kind === 'PodGroup' ? groups.podGroup(root.namespace, root.name) : groups.compositePodGroup?.(root.namespace, root.name);
  }

  /**
   * A pod this plugin holds back is re-checked when an assigned pod goes; whether that helps it is
   * for the plugins that rejected it to say, so the hint itself always skips.
   */
  eventsToRegister(): ClusterEventWithHint[] {
    if (!this.features.enableAsyncPreemption) return [];
    return [{ event: { resource: 'AssignedPod', actionType: ActionType.Delete }, queueingHintFn: () => QueueingHint.QueueSkip }];
  }

  /** Synchronous unless an extender with a preempt verb is asked about the candidates. */
  postFilter(state: CycleState, pod: PodInfo, m: NodeToStatusReader): MaybePromise<PostFilterOutcome> {
    this.handle.metricsRecorder?.()?.observePreemptionAttempt();
    return andThen(this.evaluator.preempt(state, pod, m), withPreemptionPrefix);
  }

  /** Preemption for a whole pod group (PodGroupPostFilter); its messages start with "pod group preemption: ". */
  podGroupPostFilter(ctx: PodGroupPostFilterContext): MaybePromise<PodGroupPostFilterOutcome> {
    let out: MaybePromise<PodGroupPostFilterOutcome>;
    try {
      out = preemptForPodGroup({
        handle: this.handle,
        executor: this.executor,
        policyFromGroup: this.features.enablePodGroupPreemptionPolicy,
        pdbs: () => compileDisruptionBudgets(this.handle.objects().list<PodDisruptionBudget>('PodDisruptionBudget')),
        terminatingByPreemption: podTerminatingByPreemption,
      }, ctx);
    } catch (err) {
      out = { result: null, status: Status.error(thrownMessage(err)) };
    }
    return andThen(out, withPodGroupPreemptionPrefix);
  }

  /** How many candidates the dry run looks for: a share of the nodes, at least the absolute minimum. */
  calculateNumCandidates(numNodes: number): number {
    let n = Math.trunc((numNodes * this.args.minCandidateNodesPercentage) / 100);
    if (n < this.args.minCandidateNodesAbsolute) n = this.args.minCandidateNodesAbsolute;
    if (n > numNodes) n = numNodes;
    return n;
  }

  getOffsetAndNumCandidates(numNodes: number): { offset: number; numCandidates: number } {
    return { offset: Math.floor(this.handle.random() * numNodes), numCandidates: this.calculateNumCandidates(numNodes) };
  }

  /**
   * PodEligibleToPreemptOthers: a pod with preemptionPolicy Never may not preempt, and a pod whose
   * nominated node still has lower-priority pods terminating by preemption waits for them, unless
   * filters found that node unresolvable.
   */
  podEligibleToPreemptOthers(pod: PodInfo, nominatedNodeStatus: Status | null): string | null {
    if (pod.pod.spec.preemptionPolicy === 'Never') return ErrReasonPreemptNever;
    const nominated = pod.pod.status?.nominatedNodeName;
    if (nominated) {
      if (nominatedNodeStatus?.code === Code.UnschedulableAndUnresolvable) return null;
      const nodeInfo = this.handle.snapshotSharedLister().nodeInfos().get(nominated);
      if (nodeInfo) {
        for (const p of nodeInfo.pods) {
          if (p.priority < pod.priority && podTerminatingByPreemption(p.pod)) return ErrReasonTerminatingOnNominatedNode;
        }
      }
    }
    return null;
  }

  /**
   * SelectVictimsOnNode: removes every lower-priority pod, checks the preemptor fits, then puts
   * pods back from the most important down (PDB-violating ones first) while it still fits. The
   * pods that could not be put back are the victims.
   */
  selectVictimsOnNode(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo, pdbs: readonly DisruptionBudget[]): VictimSelection {
    if (this.features.enableGenericWorkload) return this.selectGroupAwareVictimsOnNode(state, pod, nodeInfo, pdbs);
    const potential: PodInfo[] = [];
    const pods = nodeInfo.pods;
    for (let i = 0; i < pods.length; i++) {
      if (pods[i]!.priority < pod.priority) potential.push(pods[i]!);
    }
    if (potential.length === 0) return { victims: [], numPDBViolations: 0, status: Status.unresolvable(ErrReasonNoVictims) };
    for (const pi of potential) {
      const s = this.removePod(state, pod, pi, nodeInfo);
      if (s !== null) return { victims: [], numPDBViolations: 0, status: s };
    }
    // Affinity of the preemptor to a victim is not considered: such a node is simply not a candidate.
    const fits = this.handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (!isSuccess(fits)) return { victims: [], numPDBViolations: 0, status: fits };

    sortByImportance(potential);
    const { violating, nonViolating } = filterPodsWithPDBViolation(potential, pdbs);
    const victims: PodInfo[] = [];
    let numViolatingVictims = 0;
    for (const pi of violating) {
      const r = this.reprieve(state, pod, pi, nodeInfo, victims);
      if (r instanceof Status) return { victims: [], numPDBViolations: 0, status: r };
      if (!r) numViolatingVictims++;
    }
    for (const pi of nonViolating) {
      const r = this.reprieve(state, pod, pi, nodeInfo, victims);
      if (r instanceof Status) return { victims: [], numPDBViolations: 0, status: r };
    }
    // Reprieving the violating pods first interleaved the order: restore most-important-first.
    if (violating.length > 0 && nonViolating.length > 0) sortByImportance(victims);
    return { victims, numPDBViolations: numViolatingVictims, status: null };
  }

  /**
   * SelectVictimsOnNode with GenericWorkload: the victims are units (a pod, or all the running pods
   * of a `disruptionMode: all` group, some perhaps on other nodes) with their group's priority;
   * a unit is reprieved or evicted whole. Only the pods on this node leave its copy; PreFilter
   * extensions hear of every pod.
   */
  private selectGroupAwareVictimsOnNode(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo, pdbs: readonly DisruptionBudget[]): VictimSelection {
    const none = (status: Status): VictimSelection => ({ victims: [], numPDBViolations: 0, status });
    const lister = this.handle.snapshotSharedLister().nodeInfos();
    const nodeOf = (pi: PodInfo): NodeInfo | undefined => (pi.pod.spec.nodeName === nodeInfo.name ? nodeInfo : lister.get(pi.pod.spec.nodeName ?? ''));
    const findPod = (p: Pod): PodInfo | undefined => lister.get(p.spec.nodeName ?? '')?.pods.find((pi) => pi.uid === p.metadata.uid);
    const all = clusterVictims([nodeInfo], this.handle.podGroups?.(), findPod);
    const potential = all.filter((v) => v.priority < pod.priority);
    if (potential.length === 0) return none(Status.unresolvable(ErrReasonNoVictims));
    const remove = (v: Victim): Status | null => {
      for (const pi of v.pods) {
        const ni = nodeOf(pi);
        if (ni === undefined) continue;
        if (ni === nodeInfo && !nodeInfo.removePod(pi)) return Status.error(`no corresponding pod ${pi.name} in pods of node ${nodeInfo.name}`);
        const s = this.handle.runPreFilterExtensionRemovePod(state, pod, pi, ni);
        if (!isSuccess(s)) return Status.error(s!.asError());
      }
      return null;
    };
    const add = (v: Victim): Status | null => {
      for (const pi of v.pods) {
        const ni = nodeOf(pi);
        if (ni === undefined) continue;
        if (ni === nodeInfo) nodeInfo.addPod(pi);
        const s = this.handle.runPreFilterExtensionAddPod(state, pod, pi, ni);
        if (!isSuccess(s)) return Status.error(s!.asError());
      }
      return null;
    };
    for (const v of potential) {
      const s = remove(v);
      if (s !== null) return none(s);
    }
    const fits = this.handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
    if (!isSuccess(fits)) return none(fits!);
    sortVictims(potential);
    const { violating, nonViolating } = filterVictimsWithPDBViolation(potential, pdbs);
    const victims: Victim[] = [];
    const reprieve = (v: Victim): boolean | Status => {
      const added = add(v);
      if (added !== null) return added;
      if (isSuccess(this.handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo))) return true;
      const removed = remove(v);
      if (removed !== null) return removed;
      victims.push(v);
      return false;
    };
    let numViolating = 0;
    for (const { victim, count } of violating) {
      const r = reprieve(victim);
      if (r instanceof Status) return none(r);
      if (!r) numViolating += count;
    }
    for (const v of nonViolating) {
      const r = reprieve(v);
      if (r instanceof Status) return none(r);
    }
    if (violating.length > 0 && nonViolating.length > 0) sortVictims(victims);
    const pods: PodInfo[] = [];
    for (const v of victims) pods.push(...v.pods);
    return { victims: pods, numPDBViolations: numViolating, status: null };
  }

  /** Puts `pi` back on the node; when the preemptor no longer fits, takes it off again as a victim. */
  private reprieve(state: CycleState, pod: PodInfo, pi: PodInfo, nodeInfo: NodeInfo, victims: PodInfo[]): boolean | Status {
    nodeInfo.addPod(pi);
    const added = this.handle.runPreFilterExtensionAddPod(state, pod, pi, nodeInfo);
    if (!isSuccess(added)) return Status.error(added!.asError());
    if (isSuccess(this.handle.runFilterPluginsWithNominatedPods(state, pod, nodeInfo))) return true;
    const removed = this.removePod(state, pod, pi, nodeInfo);
    if (removed !== null) return removed;
    victims.push(pi);
    return false;
  }

  private removePod(state: CycleState, pod: PodInfo, pi: PodInfo, nodeInfo: NodeInfo): Status | null {
    if (!nodeInfo.removePod(pi)) return Status.error(`no corresponding pod ${pi.name} in pods of node ${nodeInfo.name}`);
    const s = this.handle.runPreFilterExtensionRemovePod(state, pod, pi, nodeInfo);
    return isSuccess(s) ? null : Status.error(s!.asError());
  }
}

/** True for a pod being deleted because the scheduler preempted it (DisruptionTarget condition). */
function podTerminatingByPreemption(pod: Pod): boolean {
  if (!pod.metadata.deletionTimestamp) return false;
  for (const c of pod.status?.conditions ?? []) {
    if (c.type === 'DisruptionTarget') return c.status === 'True' && c.reason === PodReasonPreemptionByScheduler;
  }
  return false;
}
