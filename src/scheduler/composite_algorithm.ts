// The composite half of schedule_one_podgroup.go (CompositePodGroup): a composite group is tried
// on each placement its PlacementGenerate plugin proposes; on each, its children are scheduled in
// creation order (a composite child recursively, a PodGroup child by its own placement algorithm,
// whose best result stays assumed so its siblings see it), PlacementFeasible judging the composite
// after each child (GangScheduling: minGroupCount). The best feasible placement's subtree is
// assumed again for the composite's own siblings; the caller reverts everything at the root.
import type { SchedulingGroup } from '../api/scheduling.js';
import type { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle_state.js';
import type { GroupTree, Placement, PlacementProgress, ProposedAssignment } from '../framework/interfaces.js';
import type { Framework } from '../framework/runtime/framework.js';
import { Code, Status, isSuccess } from '../framework/status.js';
import { bestIndex, byName, errPodGroupUnschedulable, type PlacementTrial } from './placement_algorithm.js';

/** One group's result in a cycle (podGroupAlgorithmResult): `results` are a PodGroup's members' (none for a composite). */
interface GroupResult<R> {
  readonly node: GroupTree;
  status: Status | null;
  readonly results: readonly R[];
  anyScheduled: boolean;
  /** The placement's cycle state the group was tried in (PlacementScore reads it). */
  readonly state: CycleState | null;
}

/** Results by group, keyed "kind/namespace/name". */
export type GroupResults<R> = Map<string, GroupResult<R>>;

type Reverts = (() => void)[];

/** One placement a composite was tried on: its subtree feasible there or why not, and its PlacementScore total. */
export interface CompositePlacementTrial {
  /** The generator's name for it ('' for all nodes). */
  readonly placement: string;
  readonly nodes: number;
  readonly feasible: boolean;
  /** Why the subtree was not feasible there; '' when it was. */
  readonly message: string;
  /** The PlacementScore total; null when not scored (infeasible, or the only feasible one). */
  readonly score: number | null;
}

/** A composite's placements as one round of its algorithm tried them (explain), and the one chosen. */
export interface CompositePlacementRecord {
  /** namespace/name of the CompositePodGroup. */
  readonly group: string;
  readonly tried: readonly CompositePlacementTrial[];
  /** The chosen placement's name; null when none was feasible. */
  readonly chosen: string | null;
}

/** What the composite algorithm needs of the group's cycle. */
export interface CompositeAlgorithmHost<R> {
  /** Told each composite's placements after they are tried (explain); absent, nothing is recorded. */
  readonly onPlacements?: ((r: CompositePlacementRecord) => void) | undefined;
  readonly snapshot: Snapshot;
  readonly tieBreakByName: boolean;
  random(): number;
  /** A PodGroup child's algorithm over its queued members on the snapshot as it is limited now, reverted. */
  runLeaf(node: GroupTree): PlacementTrial<R>;
  placementFeasible(group: SchedulingGroup, progress: PlacementProgress): Status | null;
  /** Assumes and reserves the placed members of `results` again; their reverts, or why not (nothing left assumed). */
  assume(results: readonly R[]): Reverts | string;
  /** Runs reverts, last first, and brings the snapshot back to the cache. */
  revert(reverts: Reverts): void;
  /** Where a tried member was placed, or null when it was not. */
  assignmentOf(result: R): ProposedAssignment | null;
}

export const groupResultKey = (n: { kind: string; namespace: string; name: string }): string => `${n.kind}/${n.namespace}/${n.name}`;

const unschedulable = (reasons: readonly string[]): Status =>
  new Status(Code.Unschedulable, [errPodGroupUnschedulable.message, ...reasons], errPodGroupUnschedulable);

const creationTime = (n: GroupTree): number => {
  const t = (n.podGroup ?? n.compositePodGroup)?.metadata.creationTimestamp;
  return t === undefined ? 0 : Date.parse(t);
};

/** A composite's children by creation time, then name (PodGroupInfo.GetChildGroups). */
function sortedChildren(node: GroupTree): GroupTree[] {
  return [...node.children].sort((a, b) => creationTime(a) - creationTime(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The PodGroups under a tree in the cycle's order. */
export function sortedLeaves(node: GroupTree): GroupTree[] {
  return node.kind === 'PodGroup' ? [node] : sortedChildren(node).flatMap(sortedLeaves);
}

/**
 * runRootSchedulingAlgorithm for a composite root: every group's result, the root's with
 * `success placing nobody` made a rejection; the reverts of what stays assumed, for the caller.
 */
export function runCompositeRoot<R>(host: CompositeAlgorithmHost<R>, fwk: Framework, root: GroupTree): { results: GroupResults<R>; reverts: Reverts } {
  const results: GroupResults<R> = new Map();
  const { result, reverts } = compositePlacement(host, fwk, root, results);
  if (isSuccess(result.status) && !result.anyScheduled) result.status = unschedulable([]);
  completeResults(root, results, null);
  return { results, reverts };
}

function recurse<R>(host: CompositeAlgorithmHost<R>, fwk: Framework, node: GroupTree, results: GroupResults<R>): { result: GroupResult<R>; reverts: Reverts } {
  if (node.kind === 'CompositePodGroup') return compositePlacement(host, fwk, node, results);
  const trial = host.runLeaf(node);
  const failed = (status: Status): { result: GroupResult<R>; reverts: Reverts } => {
    const r: GroupResult<R> = { node, status, results: [], anyScheduled: false, state: null };
    results.set(groupResultKey(node), r);
    return { result: r, reverts: [] };
  };
  const result: GroupResult<R> = { node, status: trial.status, results: trial.results, anyScheduled: trial.anyScheduled, state: null };
  results.set(groupResultKey(node), result);
  if (!isSuccess(trial.status)) return { result, reverts: [] };
  const assumed = host.assume(trial.results);
  if (typeof assumed === 'string') return failed(Status.error(`failed to assume the subtree: ${assumed}`));
  return { result, reverts: assumed };
}

/** compositePodGroupSchedulingPlacementAlgorithm. */
function compositePlacement<R>(host: CompositeAlgorithmHost<R>, fwk: Framework, node: GroupTree, results: GroupResults<R>): { result: GroupResult<R>; reverts: Reverts } {
  const key = groupResultKey(node);
  const cpg = node.compositePodGroup!;
  const { snapshot } = host;
  const fail = (status: Status): { result: GroupResult<R>; reverts: Reverts } => {
    const r: GroupResult<R> = { node, status, results: [], anyScheduled: false, state: null };
    results.set(key, r);
    return { result: r, reverts: [] };
  };
  const groupState = new CycleState();
  const generated = fwk.runPlacementGeneratePlugins(groupState, cpg, snapshot.listNodesInPlacement());
  if (!isSuccess(generated.status)) return fail(generated.status!);
  const placements = host.tieBreakByName ? [...generated.placements].sort(byName) : generated.placements;

  const parent = snapshot.getPlacement();
  let first: GroupResults<R> | null = null;
  let stopped: Status | null = null;
  const feasible: { placement: Placement; subtree: GroupResults<R>; state: CycleState }[] = [];
  // Only when someone listens (explain, the workbench): the scores are filled in once known.
  const tried: { -readonly [K in keyof CompositePlacementTrial]: CompositePlacementTrial[K] }[] | null = host.onPlacements ? [] : null;
  for (const placement of placements) {
    const err = snapshot.assumePlacement(placement);
    if (err !== null) {
      stopped = Status.error(`failed to assume pod group placement: ${err}`);
      break;
    }
    const state = new CycleState();
    const subtree: GroupResults<R> = new Map();
    const { result, reverts } = compositeDefault(host, fwk, node, subtree, state);
    host.revert(reverts);
    if (result.status?.code === Code.Error) {
      stopped = result.status;
      break;
    }
    first ??= subtree;
    if (isSuccess(result.status)) feasible.push({ placement, subtree, state });
    tried?.push({ placement: placement.name, nodes: placement.nodes.length, feasible: isSuccess(result.status), message: isSuccess(result.status) ? '' : result.status!.message(), score: null });
  }
  snapshot.forgetPlacement();
  const restored = snapshot.assumePlacement(parent);
  if (restored !== null) return fail(Status.error(`failed to restore parent pod group placement: ${restored}`));
  if (stopped !== null) return fail(stopped);

  const recordTried = (chosen: string | null, scores: readonly number[] = []): void => {
    if (tried === null) return;
    let j = 0;
    for (const t of tried) if (t.feasible) t.score = scores[j++] ?? null;
    host.onPlacements!({ group: `${cpg.metadata.namespace ?? 'default'}/${cpg.metadata.name ?? ''}`, tried, chosen });
  };
  if (feasible.length === 0) {
    recordTried(null);
    // The first placement's subtree is kept whole: its members' own statuses say which plugins rejected them.
    const own = first!.get(key)!;
    own.status = unschedulable([`0/${placements.length} placements are available, first placement status: ${own.status!.asError().message}`]);
    for (const [k, v] of first!) results.set(k, v);
    return { result: own, reverts: [] };
  }
  let best = feasible[0]!;
  if (feasible.length > 1) {
    const assignments = feasible.map((f) => ({ placement: f.placement, proposedAssignments: leafAssignments(host, node, f.subtree) }));
    const scored = fwk.runPlacementScorePlugins(groupState, cpg, assignments, feasible.map((f) => f.state));
    if (!isSuccess(scored.status)) return fail(scored.status!);
    best = feasible[bestIndex(scored.totals, host.tieBreakByName ? () => 1 : () => host.random())]!;
    recordTried(best.placement.name, scored.totals);
  } else recordTried(best.placement.name);
  const reverts: Reverts = [];
  for (const leaf of successfulLeaves(node, best.subtree)) {
    const assumed = host.assume(leaf.results);
    if (typeof assumed === 'string') {
      host.revert(reverts);
      return fail(Status.error(`failed to assume the subtree: ${assumed}`));
    }
    reverts.push(...assumed);
  }
  for (const [k, v] of best.subtree) results.set(k, v);
  return { result: best.subtree.get(key)!, reverts };
}

/** compositePodGroupSchedulingDefaultAlgorithm: the children in order, PlacementFeasible after each. */
function compositeDefault<R>(host: CompositeAlgorithmHost<R>, fwk: Framework, node: GroupTree, results: GroupResults<R>, state: CycleState): { result: GroupResult<R>; reverts: Reverts } {
  const cpg = node.compositePodGroup!;
  const reverts: Reverts = [];
  const finish = (status: Status | null, anyScheduled: boolean): { result: GroupResult<R>; reverts: Reverts } => {
    const ok = isSuccess(status);
    const r: GroupResult<R> = { node, status, results: [], anyScheduled: ok && anyScheduled, state };
    results.set(groupResultKey(node), r);
    if (ok) return { result: r, reverts };
    host.revert(reverts);
    return { result: r, reverts: [] };
  };
  const progress = { remaining: node.children.length, scheduled: 0 };
  let feasible = host.placementFeasible(cpg, progress);
  if (feasible?.code === Code.Unschedulable || feasible?.code === Code.Error) return finish(feasible, false);
  let anyScheduled = false;
  for (const child of sortedChildren(node)) {
    const { result, reverts: childReverts } = recurse(host, fwk, child, results);
    if (result.status?.code === Code.Error) {
      return finish(Status.error(`composite pod group evaluation failed due to child error: ${result.status.asError().message}`), false);
    }
    anyScheduled ||= result.anyScheduled;
    reverts.push(...childReverts);
    progress.remaining--;
    if (isSuccess(result.status)) progress.scheduled++;
    feasible = host.placementFeasible(cpg, progress);
    if (feasible?.code === Code.Unschedulable || feasible?.code === Code.Error) break;
  }
  if (feasible?.code === Code.Wait) feasible = unschedulable(feasible.reasons);
  return finish(feasible, anyScheduled);
}

/** successfulLeafResults: the PodGroups that placed members, under ancestors that all succeeded. */
function successfulLeaves<R>(node: GroupTree, results: GroupResults<R>): GroupResult<R>[] {
  const r = results.get(groupResultKey(node));
  if (r === undefined || !isSuccess(r.status)) return [];
  const out = node.children.flatMap((c) => successfulLeaves(c, results));
  if (r.results.length > 0) out.push(r);
  return out;
}

/** makeCompositePodGroupAssignments: the members a subtree placed, over its successful leaves. */
function leafAssignments<R>(host: CompositeAlgorithmHost<R>, node: GroupTree, results: GroupResults<R>): ProposedAssignment[] {
  const out: ProposedAssignment[] = [];
  for (const leaf of successfulLeaves(node, results)) {
    for (const r of leaf.results) {
      const a = host.assignmentOf(r);
      if (a !== null && a.nodeName !== '') out.push(a);
    }
  }
  return out;
}

/**
 * completeCompositePodGroupAlgorithmResultMap: a group not reached, or one that succeeded under a
 * failed parent, takes its parent's status (its members then cannot bind).
 */
function completeResults<R>(node: GroupTree, results: GroupResults<R>, parent: GroupResult<R> | null): void {
  const key = groupResultKey(node);
  let r = results.get(key);
  if (r === undefined || (parent !== null && !isSuccess(parent.status) && isSuccess(r.status))) {
    r = { node, status: parent?.status ?? null, results: [], anyScheduled: false, state: null };
    results.set(key, r);
  }
  for (const c of sortedChildren(node)) completeResults(c, results, r);
}
