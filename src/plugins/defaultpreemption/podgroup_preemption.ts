// Preemption for a pod group across the whole cluster (framework/preemption/podgrouppreemption.go
// and the victims of types.go): every lower-priority victim is taken off, the group is scheduled
// once on what is left, then victims are put back from the most important down while every
// placed member still passes Filter; the rest are evicted and the members nominated.
import { compositePodGroupPriority, isCompositePodGroup, podGroupPriority, type CompositePodGroup, type SchedulingGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import type { Handle, PodGroupLister } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodGroupPostFilterContext, PodGroupPostFilterOutcome, ProposedAssignment } from '../../framework/pod_group_post_filter.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status, isSuccess } from '../../framework/status.js';
import { andThen, type MaybePromise } from '../../util/maybe_promise.js';
import type { Executor, Preemptor } from './executor.js';
import { podStartTime } from './importance.js';
import { filterVictimsWithPDBViolation, type DisruptionBudget } from './pdb.js';

/** What victims are (EntityKeyType): a pod on its own, a pod group's, or a composite tree's. */
type VictimType = 'pod' | 'podgroup' | 'compositepodgroup';

/** One unit of eviction: a pod, or every scheduled pod of a `disruptionMode: all` group. */
export interface Victim {
  readonly pods: readonly PodInfo[];
  readonly priority: number;
  /** The earliest start among its pods, in ms (not started: +Infinity). */
  readonly earliestStart: number;
  readonly type: VictimType;
}

/**
 * The groups a pod hangs in, its own PodGroup first, then each composite up to the root that is
 * observed (TraverseHierarchyUp); empty when it names no observed group.
 */
function ancestry(pod: Pod, podGroups: PodGroupLister | undefined): SchedulingGroup[] {
  const name = pod.spec.schedulingGroup?.podGroupName;
  if (name === undefined || podGroups === undefined) return [];
  const ns = pod.metadata.namespace ?? 'default';
  const pg = podGroups.podGroup(ns, name);
  if (pg === undefined) return [];
  const chain: SchedulingGroup[] = [pg];
  const seen = new Set<string>();
  let parent = pg.spec.parentCompositePodGroupName;
  while (parent !== undefined && podGroups.compositePodGroup !== undefined && !seen.has(parent)) {
    seen.add(parent);
    const cpg: CompositePodGroup | undefined = podGroups.compositePodGroup(ns, parent);
    if (cpg === undefined) break;
    chain.push(cpg);
    parent = cpg.spec.parentCompositePodGroupName;
  }
  return chain;
}

function groupPriority(g: SchedulingGroup): number {
  return isCompositePodGroup(g) ? compositePodGroupPriority(g) : podGroupPriority(g);
}

/** A pod's priority as preemption sees it: its tree's root's when it belongs to one (GetPodPriority). */
function victimPriority(pod: Pod, podGroups: PodGroupLister | undefined): number {
  const chain = ancestry(pod, podGroups);
  return chain.length === 0 ? pod.spec.priority ?? 0 : groupPriority(chain[chain.length - 1]!);
}

/** The highest group of the pod's tree with `disruptionMode: all` (getHighestAllAncestor). */
function highestAllAncestor(chain: readonly SchedulingGroup[]): SchedulingGroup | undefined {
  for (let i = chain.length - 1; i >= 0; i--) if (chain[i]!.spec.disruptionMode?.all !== undefined) return chain[i];
  return undefined;
}

/** The scheduled pods of every PodGroup under the group (GetPodGroupStates), depth first. */
function scheduledPodsUnder(g: SchedulingGroup, podGroups: PodGroupLister): Pod[] {
  const ns = g.metadata.namespace ?? 'default';
  const name = g.metadata.name ?? '';
  if (!isCompositePodGroup(g)) return podGroups.scheduledPods(ns, name);
  const pods: Pod[] = [];
  for (const child of podGroups.childrenOf?.(ns, name) ?? []) {
    const c = child.kind === 'CompositePodGroup' ? podGroups.compositePodGroup?.(child.namespace, child.name) : podGroups.podGroup(child.namespace, child.name);
    if (c !== undefined) pods.push(...scheduledPodsUnder(c, podGroups));
  }
  return pods;
}

function newVictim(pods: readonly PodInfo[], priority: number, type: VictimType): Victim {
  let earliest = Infinity;
  for (const pi of pods) earliest = Math.min(earliest, podStartTime(pi.pod));
  return { pods, priority, earliestStart: earliest, type };
}

/** A tree before a group before a lone pod. */
const victimRank: Readonly<Record<VictimType, number>> = { compositepodgroup: 3, podgroup: 2, pod: 1 };

/**
 * MoreImportantVictim: higher priority, then a tree before a group before a lone pod, then the larger, then
 * the one started earlier.
 */
function moreImportantVictim(a: Victim, b: Victim): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.type !== b.type) return victimRank[a.type] > victimRank[b.type];
  if (a.pods.length !== b.pods.length) return a.pods.length > b.pods.length;
  return a.earliestStart < b.earliestStart;
}

/** Sorts victims most important first; stable, where upstream's sort.Slice leaves ties unspecified. */
export function sortVictims(victims: Victim[]): void {
  victims.sort((a, b) => (moreImportantVictim(a, b) ? -1 : moreImportantVictim(b, a) ? 1 : 0));
}

/**
 * Every possible victim on the nodes (getCrossNodesVictims), in node then pod order: a pod whose
 * tree has a `disruptionMode: all` group stands for the scheduled pods of every PodGroup under the
 * highest such group (wherever they run, found with `findPod`), listed once.
 */
export function clusterVictims(nodes: readonly NodeInfo[], podGroups: PodGroupLister | undefined, findPod: (pod: Pod) => PodInfo | undefined): Victim[] {
  const seen = new Set<string>();
  const victims: Victim[] = [];
  for (const ni of nodes) {
    for (const pi of ni.pods) {
      const pod = pi.pod;
      const chain = ancestry(pod, podGroups);
      const priority = chain.length === 0 ? pod.spec.priority ?? 0 : groupPriority(chain[chain.length - 1]!);
      const all = highestAllAncestor(chain);
      if (all === undefined) {
        if (seen.has(`pod/${pi.key}`)) continue;
        seen.add(`pod/${pi.key}`);
        // A pod naming a group counts as a group's victim even when evicted alone (NewPodVictim).
        victims.push(newVictim([pi], priority, pod.spec.schedulingGroup !== undefined && podGroups !== undefined ? 'podgroup' : 'pod'));
        continue;
      }
      const type: VictimType = isCompositePodGroup(all) ? 'compositepodgroup' : 'podgroup';
      const groupKey = `${type}/${pi.namespace}/${all.metadata.name ?? ''}`;
      if (seen.has(groupKey)) continue;
      seen.add(groupKey);
      const pods: PodInfo[] = [];
      for (const p of scheduledPodsUnder(all, podGroups!)) {
        const found = findPod(p);
        if (found !== undefined) pods.push(found);
      }
      victims.push(pods.length === 0 ? newVictim([pi], priority, 'podgroup') : newVictim(pods, priority, type));
    }
  }
  return victims;
}

/** The group's UID, or its key when it has none (objects made without one in tests). */
export function podGroupUID(pg: SchedulingGroup): string {
  return pg.metadata.uid ?? `${isCompositePodGroup(pg) ? 'compositepodgroup' : 'podgroup'}/${pg.metadata.namespace ?? 'default'}/${pg.metadata.name ?? ''}`;
}

/**
 * A preemptor with preemptionPolicy Never may not preempt (resolvePreemptionPolicy,
 * resolveCompositePreemptionPolicy: a composite's policy other than PreemptLowerPriority is Never).
 */
function preemptsNever(pg: SchedulingGroup, members: readonly PodInfo[], policyFromGroup: boolean): boolean {
  if (!policyFromGroup) return members.some((m) => m.pod.spec.preemptionPolicy === 'Never');
  const policy = pg.spec.preemptionPolicy;
  return isCompositePodGroup(pg) ? policy !== undefined && policy !== 'PreemptLowerPriority' : policy === 'Never';
}

const ErrReasonNoVictims = 'No preemption victims found for incoming preemptor';
const ErrReasonPreemptNever = 'not eligible due to preemptionPolicy=Never.';

interface PodGroupEvaluatorOptions {
  readonly handle: Handle;
  readonly executor: Executor;
  /** PodGroupPreemptionPolicy: the group's own preemptionPolicy decides, not its members'. */
  readonly policyFromGroup: boolean;
  readonly pdbs: () => DisruptionBudget[];
  readonly terminatingByPreemption: (pod: Pod) => boolean;
}

/** PodGroupEvaluator.Preempt, the messages without the plugin's "pod group preemption: " prefix. */
export function preemptForPodGroup(opts: PodGroupEvaluatorOptions, ctx: PodGroupPostFilterContext): MaybePromise<PodGroupPostFilterOutcome> {
  const { handle } = opts;
  const podGroups = handle.podGroups?.();
  const pg = ctx.podGroup;
  const priority = groupPriority(pg);
  if (preemptsNever(pg, ctx.members, opts.policyFromGroup)) return { result: null, status: new Status(Code.Unschedulable, [ErrReasonPreemptNever]) };

  const nodes = ctx.nodeInfos();
  if (ongoingPreemption(ctx, priority, podGroups, opts.terminatingByPreemption)) {
    const nominations = new Map<string, string>();
    for (const m of ctx.members) nominations.set(m.key, m.pod.status?.nominatedNodeName ?? '');
    return { result: { nominations, victims: [] }, status: new Status(Code.Success, ['ongoing preemption on nominated nodes']) };
  }

  const byUID = new Map<string, PodInfo>();
  for (const ni of nodes) for (const pi of ni.pods) byUID.set(pi.uid, pi);
  const potential = clusterVictims(nodes, podGroups, (p) => byUID.get(p.metadata.uid ?? '')).filter((v) => v.priority < priority);
  if (potential.length === 0) return { result: null, status: Status.unresolvable(ErrReasonNoVictims) };
  for (const v of potential) for (const pi of v.pods) ctx.removePod(pi);

  const scheduled = ctx.schedule();
  if (!isSuccess(scheduled.status)) return { result: null, status: scheduled.status };

  sortVictims(potential);
  const { violating, nonViolating } = filterVictimsWithPDBViolation(potential, opts.pdbs());
  const assignments = scheduled.assignments.filter((a) => a.nodeName !== '');
  const toPreempt: Victim[] = [];
  let numViolating = 0;
  for (const { victim, count } of violating) {
    if (!reprieve(handle, ctx, victim, assignments)) {
      toPreempt.push(victim);
      numViolating += count;
    }
  }
  for (const victim of nonViolating) if (!reprieve(handle, ctx, victim, assignments)) toPreempt.push(victim);
  sortVictims(toPreempt);

  const victims: PodInfo[] = [];
  for (const v of toPreempt) victims.push(...v.pods);
  const preemptor: Preemptor = {
    uid: podGroupUID(pg),
    key: `${pg.metadata.namespace ?? 'default'}/${pg.metadata.name ?? ''}`,
    schedulerName: ctx.members[0]?.pod.spec.schedulerName ?? 'default-scheduler',
    priority,
    type: isCompositePodGroup(pg) ? 'compositepodgroup' : 'podgroup',
    obj: pg,
    pods: ctx.members.map((m) => m.pod),
  };
  const actuated = opts.executor.actuate({ name: 'cluster', victims, numPDBViolations: numViolating }, preemptor);
  const nominations = new Map<string, string>();
  const result = { nominations, victims: victims.map((v) => v.key) };
  for (const a of assignments) nominations.set(a.podInfo.key, a.nodeName);
  // Without asynchronous preemption the evictions are waited for (a promise): the group's cycle
  // ends only once they are done, and a failed one is the group's error.
  return andThen(actuated, (s): PodGroupPostFilterOutcome => ({
    result,
    status: s ?? new Status(Code.Success, [`found a placement for podgroup, preempting ${victims.length} victims`]),
  }));
}

/**
 * Puts the victim's pods back and checks every placed member still passes Filter, each assumed
 * and reserved for the next; true when they all do (the victim is spared). Otherwise the victim's
 * pods are taken off again.
 */
function reprieve(handle: Handle, ctx: PodGroupPostFilterContext, victim: Victim, assignments: readonly ProposedAssignment[]): boolean {
  for (const pi of victim.pods) {
    ctx.addPod(pi);
    const ni = ctx.nodeInfo(pi.pod.spec.nodeName ?? '')!;
    for (const a of assignments) {
      const s = handle.runPreFilterExtensionAddPod(a.state, a.podInfo, pi, ni);
      if (!isSuccess(s)) throw s!.asError();
    }
  }
  const placed: ProposedAssignment[] = [];
  let fits = true;
  try {
    for (const a of assignments) {
      const ni = ctx.nodeInfo(a.nodeName)!;
      if (!isSuccess(handle.runFilterPluginsWithNominatedPods(a.state, a.podInfo, ni))) {
        fits = false;
        break;
      }
      ctx.addPod(a.podInfo);
      ctx.reserve(a);
      placed.push(a);
    }
  } finally {
    for (let i = placed.length - 1; i >= 0; i--) {
      ctx.unreserve(placed[i]!);
      ctx.removePod(placed[i]!.podInfo);
    }
  }
  if (fits) return true;
  for (const pi of victim.pods) {
    const ni = ctx.nodeInfo(pi.pod.spec.nodeName ?? '')!;
    ctx.removePod(pi);
    for (const a of assignments) {
      const s = handle.runPreFilterExtensionRemovePod(a.state, a.podInfo, pi, ni);
      if (!isSuccess(s)) throw s!.asError();
    }
  }
  return false;
}

/** Whether a member's nominated node still has lower-priority pods terminating by preemption. */
function ongoingPreemption(
  ctx: PodGroupPostFilterContext,
  priority: number,
  podGroups: PodGroupLister | undefined,
  terminatingByPreemption: (pod: Pod) => boolean,
): boolean {
  const nominated = new Set<string>();
  for (const m of ctx.members) {
    const n = m.pod.status?.nominatedNodeName;
    if (n) nominated.add(n);
  }
  for (const name of nominated) {
    const ni = ctx.nodeInfo(name);
    if (ni === undefined) continue;
    for (const pi of ni.pods) if (victimPriority(pi.pod, podGroups) < priority && terminatingByPreemption(pi.pod)) return true;
  }
  return false;
}
