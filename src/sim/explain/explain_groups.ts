// `explain`'s view of a pod group's cycle (schedule_one_podgroup.go seen from outside): which
// members were placed where, what stopped the group (the plugin and its message), the member
// rejected on its own first, and the victims. Built from the members' attempt records, so it
// serves a single group cycle and a timeline alike.
import { isCompositePodGroup, podGroupKey, podGroupKeyOfPod, podGroupMinCount, type CompositePodGroup, type PodGroup, type SchedulingGroup } from '../../api/scheduling.js';
import { podKey, type Pod } from '../../api/types.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import type { CompositePlacementRecord, CompositePlacementTrial } from '../../scheduler/composite_algorithm.js';

/** A group's or a member's outcome; `Waiting`: held before its cycle (PreEnqueue), never attempted. */
type ExplainGroupOutcome = 'Scheduled' | 'Unschedulable' | 'Error' | 'Waiting';

interface ExplainGroupMember {
  pod: string;
  outcome: ExplainGroupOutcome;
  /** The node it was bound to; '' unless Scheduled. */
  node: string;
  message: string;
}

export interface ExplainGroup {
  /** namespace/name of the PodGroup. */
  group: string;
  policy: 'gang' | 'basic';
  /** gang.minCount, or 1 for a basic group. */
  minCount: number;
  /** Scheduled when at least minCount members were bound (a basic group: any). */
  outcome: ExplainGroupOutcome;
  /** How many members were bound. */
  placed: number;
  members: ExplainGroupMember[];
  /**
   * What stopped the group: the plugin that judged it and upstream's message; null when it was
   * placed. The plugin is '' when the verdict reached the members only through the group's
   * failure (every member tried: `pod group is unschedulable, ...`); firstRejected names the cause.
   */
  stoppedBy: { plugin: string; message: string } | null;
  /** The first member rejected on its own: the plugins that rejected it on some node, and its FitError message. */
  firstRejected: { pod: string; plugins: string[]; message: string } | null;
  /** The pods the group's cycle evicts (namespace/name). */
  victims: string[];
}

/**
 * What the group views read of a member's last attempt: an AttemptRecord, or the slim copy the
 * workbench keeps (its diagnosis reduced to the plugins that rejected the member).
 */
export type MemberRecord = Pick<AttemptRecord, 'outcome' | 'node' | 'message' | 'victims' | 'plugin'> & {
  readonly diagnosis: { readonly unschedulablePlugins: ReadonlySet<string> } | null;
};

/** Why a never-attempted member is held: the plugin gating it and its message. */
export type WaitingPods = ReadonlyMap<string, { plugin: string; message: string }>;

/** The prefix of the message every member of a rejected group carries (errPodGroupUnschedulable). */
const groupPrefix = 'pod group is unschedulable';

/**
 * One entry per PodGroup that has pending members, in the order their first member is pending.
 * `records` holds each member's last attempt; `waiting` the members the queue still gates.
 */
export function explainGroups(
  pending: readonly Pod[],
  podGroups: readonly PodGroup[],
  records: ReadonlyMap<string, MemberRecord>,
  waiting: WaitingPods,
): ExplainGroup[] {
  const byKey = new Map(podGroups.map((pg) => [podGroupKey(pg.metadata.namespace ?? 'default', pg.metadata.name ?? ''), pg]));
  const membersOf = new Map<string, Pod[]>();
  for (const p of pending) {
    const key = podGroupKeyOfPod(p);
    if (key === null) continue;
    let list = membersOf.get(key);
    if (list === undefined) membersOf.set(key, (list = []));
    list.push(p);
  }
  const out: ExplainGroup[] = [];
  for (const [key, pods] of membersOf) {
    const pg = byKey.get(key);
    out.push(explainGroup(key, pg, pods, records, waiting));
  }
  return out;
}

function explainGroup(key: string, pg: PodGroup | undefined, pods: readonly Pod[], records: ReadonlyMap<string, MemberRecord>, waiting: WaitingPods): ExplainGroup {
  const minCount = pg === undefined ? 1 : podGroupMinCount(pg);
  const members: ExplainGroupMember[] = [];
  const victims = new Set<string>();
  let stoppedBy: ExplainGroup['stoppedBy'] = null;
  let firstRejected: ExplainGroup['firstRejected'] = null;
  let held: { plugin: string; message: string } | null = null;
  let errors = 0;
  for (const p of pods) {
    const k = podKey(p);
    const a = records.get(k);
    if (a === undefined) {
      const w = waiting.get(k);
      held ??= w ?? null;
      members.push({ pod: k, outcome: 'Waiting', node: '', message: w?.message ?? '' });
      continue;
    }
    for (const v of a.victims) victims.add(v);
    members.push({ pod: k, outcome: a.outcome, node: a.node, message: a.message });
    if (a.outcome === 'Error') errors++;
    if (a.outcome === 'Scheduled') continue;
    if (a.diagnosis !== null && firstRejected === null) {
      firstRejected = { pod: k, plugins: [...a.diagnosis.unschedulablePlugins].sort(), message: a.message };
    } else if (a.diagnosis === null && stoppedBy === null && (a.plugin ?? '') !== '') {
      // A member the cycle did not reach carries the group's verdict with its plugin (PlacementFeasible's).
      stoppedBy = { plugin: a.plugin!, message: a.message };
    } else if (a.diagnosis === null && stoppedBy === null && !a.message.startsWith(groupPrefix) && a.outcome === 'Error') {
      stoppedBy = { plugin: '', message: a.message };
    }
  }
  const placed = members.filter((m) => m.outcome === 'Scheduled').length;
  const attempted = members.some((m) => m.outcome !== 'Waiting');
  const outcome: ExplainGroupOutcome = !attempted ? 'Waiting' : placed > 0 && placed >= minCount ? 'Scheduled' : errors > 0 ? 'Error' : 'Unschedulable';
  if (outcome === 'Scheduled') stoppedBy = null;
  else if (outcome === 'Waiting') stoppedBy = held;
  else if (stoppedBy === null) {
    // Every member was tried: the group's verdict is what the placed ones were failed with.
    const verdict = members.find((m) => m.message.startsWith(groupPrefix));
    stoppedBy = verdict !== undefined ? { plugin: '', message: verdict.message }
      : firstRejected !== null ? { plugin: firstRejected.plugins.join(', '), message: firstRejected.message } : null;
  }
  return {
    group: key,
    policy: pg?.spec.schedulingPolicy.gang !== undefined ? 'gang' : 'basic',
    minCount,
    outcome,
    placed,
    members,
    stoppedBy,
    firstRejected,
    victims: [...victims].sort(),
  };
}

/** A group of a tree, as scenarios and the cluster hold it (kind, name, parent). */
interface GroupObject {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec: { parentCompositePodGroupName?: string };
}

/**
 * The key ("namespace/name") of the root of the tree a pod's group is in (the group itself
 * without composites, or with `groups` holding no composite above it); null for a pod outside any
 * group. A chain longer than the API allows (or a cycle) stops at the eighth composite.
 */
export function treeRootKey(groups: Iterable<GroupObject>): (pod: Pod) => string | null {
  const rootOf = groupRootKey(groups);
  return (pod) => (podGroupKeyOfPod(pod) === null ? null : rootOf('PodGroup', pod.metadata.namespace ?? 'default', pod.spec.schedulingGroup!.podGroupName!));
}

/**
 * The key ("namespace/name") of the root of the tree a group (kind, namespace, name) is in: the
 * group itself without a composite above it in `groups`. Stops at the eighth composite (a chain
 * longer than the API allows, or a cycle).
 */
export function groupRootKey(groups: Iterable<GroupObject>): (kind: string, namespace: string, name: string) => string {
  const parents = new Map<string, string>();
  for (const g of groups) {
    const parent = g.spec.parentCompositePodGroupName;
    if (parent !== undefined && parent !== '') parents.set(`${g.kind}/${g.metadata?.namespace ?? 'default'}/${g.metadata?.name ?? ''}`, parent);
  }
  return (kind, ns, start) => {
    let name = start;
    let parent = parents.get(`${kind}/${ns}/${name}`);
    for (let depth = 0; parent !== undefined && depth < 8; depth++) {
      name = parent;
      parent = parents.get(`CompositePodGroup/${ns}/${name}`);
    }
    return podGroupKey(ns, name);
  };
}

/** A composite's cycle seen from its members: each child group (a PodGroup's entry, or a nested composite) and the verdict. */
export interface ExplainTree {
  /** namespace/name of the CompositePodGroup. */
  group: string;
  kind: 'CompositePodGroup';
  policy: 'gang' | 'basic';
  /** gang.minGroupCount (child groups that must be placed), or 1 for a basic composite. */
  minGroupCount: number;
  /** Scheduled when at least minGroupCount children were placed. */
  outcome: ExplainGroupOutcome;
  /** How many members were bound under it. */
  placed: number;
  /** Its child groups in the order the cycle runs them (creation, then name), each explained. */
  children: (ExplainGroup | ExplainTree)[];
  /**
   * What stopped the tree: the verdict its members carry (the composite's PlacementFeasible, or
   * the group failure), else the first child's that was not placed; null when placed.
   */
  stoppedBy: { plugin: string; message: string } | null;
  /** The pods the tree's cycle evicts (namespace/name), over all its members. */
  victims: string[];
  /**
   * The placements the composite was tried on in its last round (a nested composite: under the
   * last placement of its parent tried), each feasible or why not, with its PlacementScore total;
   * only where the run recorded them (explain).
   */
  placements?: CompositePlacementTrial[];
  /** The placement chosen in that round ('' = all nodes); null when none was feasible. */
  chosenPlacement?: string | null;
}

/** Each composite's last round of placements (namespace/name → record), as the scheduler reported them. */
export type PlacementRounds = ReadonlyMap<string, CompositePlacementRecord>;

/**
 * One composite tree explained: `composite` its root, `groups` every group under it (composites
 * and PodGroups naming their parent), `pods` its members; children in the cycle's order (creation
 * time, then name).
 */
export function explainTree(
  composite: CompositePodGroup,
  groups: readonly SchedulingGroup[],
  pods: readonly Pod[],
  records: ReadonlyMap<string, MemberRecord>,
  waiting: WaitingPods,
  rounds: PlacementRounds = new Map(),
): ExplainTree {
  const ns = composite.metadata.namespace ?? 'default';
  const name = composite.metadata.name ?? '';
  const children: (ExplainGroup | ExplainTree)[] = [];
  const mine = groups.filter((g) => g.spec.parentCompositePodGroupName === name && (g.metadata.namespace ?? 'default') === ns)
    .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  for (const g of mine) {
    if (isCompositePodGroup(g)) children.push(explainTree(g, groups, pods, records, waiting, rounds));
    else {
      const key = podGroupKey(ns, g.metadata.name ?? '');
      children.push(explainGroup(key, g, pods.filter((p) => podGroupKeyOfPod(p) === key), records, waiting));
    }
  }
  const gang = composite.spec.schedulingPolicy.gang;
  const minGroupCount = gang?.minGroupCount ?? 1;
  const done = children.filter((c) => c.outcome === 'Scheduled').length;
  const attempted = children.some((c) => c.outcome !== 'Waiting');
  const placed = children.reduce((s, c) => s + c.placed, 0);
  const outcome: ExplainGroupOutcome = !attempted ? 'Waiting' : done > 0 && done >= minGroupCount && placed > 0 ? 'Scheduled'
    : children.some((c) => c.outcome === 'Error') ? 'Error' : 'Unschedulable';
  let stoppedBy: ExplainTree['stoppedBy'] = null;
  if (outcome !== 'Scheduled') {
    // The composite's own verdict reaches its members with the plugin that judged it.
    const verdict = children.flatMap(memberKeys).map((m) => records.get(m)).find((a) => a !== undefined && a.diagnosis === null && (a.plugin ?? '') !== '');
    stoppedBy = verdict !== undefined ? { plugin: verdict.plugin!, message: verdict.message } : (children.find((c) => c.outcome !== 'Scheduled')?.stoppedBy ?? null);
  }
  const round = rounds.get(podGroupKey(ns, name));
  return {
    group: podGroupKey(ns, name),
    kind: 'CompositePodGroup',
    policy: gang !== undefined ? 'gang' : 'basic',
    minGroupCount,
    outcome,
    placed,
    children,
    stoppedBy,
    victims: [...new Set(children.flatMap((c) => c.victims))].sort(),
    ...(round !== undefined ? { placements: round.tried.map((t) => ({ ...t })), chosenPlacement: round.chosen } : {}),
  };
}

/** The member keys under an explained group or tree, every level down. */
export function memberKeys(g: ExplainGroup | ExplainTree): string[] {
  return 'children' in g ? g.children.flatMap(memberKeys) : g.members.map((m) => m.pod);
}

/**
 * One entry per CompositePodGroup root with pending members (in the order their first member is
 * pending), each explained as a tree; PodGroups without a composite above them are `explainGroups`'.
 */
export function explainTrees(
  pending: readonly Pod[],
  groups: readonly SchedulingGroup[],
  records: ReadonlyMap<string, MemberRecord>,
  waiting: WaitingPods,
  rounds: PlacementRounds = new Map(),
): ExplainTree[] {
  const rootOf = treeRootKey(groups);
  const composites = new Map(groups.filter(isCompositePodGroup).map((g) => [podGroupKey(g.metadata.namespace ?? 'default', g.metadata.name ?? ''), g]));
  const membersOf = new Map<string, Pod[]>();
  for (const p of pending) {
    const root = rootOf(p);
    if (root === null || !composites.has(root)) continue;
    let list = membersOf.get(root);
    if (list === undefined) membersOf.set(root, (list = []));
    list.push(p);
  }
  return [...membersOf].map(([root, pods]) => explainTree(composites.get(root)!, groups, pods, records, waiting, rounds));
}
