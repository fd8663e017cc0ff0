// `capacity --gang`: how many more pod groups like this one fit, each all or nothing, with the
// real pod-group cycle (GenericWorkload on): copies of the group and its members are created one
// group at a time until a group's cycle fails, which is then explained as `explain` does. The
// group may be a whole CompositePodGroup tree (CompositePodGroup on): each copy is the tree.
import { isCompositePodGroup, podGroupMinCount, type PodGroup, type SchedulingGroup } from '../../api/scheduling.js';
import { podKey, type Pod } from '../../api/types.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import { BadInputError } from '../../util/bad_input.js';
import { cloneJSON } from '../../util/json_clone.js';
import { explainGroups, explainTree, type ExplainGroup, type ExplainTree, type PlacementRounds } from '../explain/explain_groups.js';
import type { CompositePlacementRecord } from '../../scheduler/composite_algorithm.js';
import type { Scenario } from '../scenario/scenario.js';
import { scheduledScenario, type CapacityOptions } from './capacity.js';
import { freeResources, type FreeResources } from './free_resources.js';
import { recreatedCopy } from './probe_copy.js';

/**
 * A gang to plan for: its root group (a PodGroup, or the CompositePodGroup atop a tree), the
 * groups under a composite root (composites and PodGroups, each naming its parent), and per
 * PodGroup (by name) the pod every member is made from and how many members.
 */
export interface GangTemplate {
  root: SchedulingGroup;
  below: readonly SchedulingGroup[];
  members: ReadonlyMap<string, { pod: Pod; count: number }>;
}

/** A lone PodGroup's gang: `members` copies of `pod`. */
export function podGroupGang(podGroup: PodGroup, pod: Pod, members: number): GangTemplate {
  return { root: { ...podGroup, kind: 'PodGroup' }, below: [], members: new Map([[podGroup.metadata.name ?? 'gang', { pod, count: members }]]) };
}

export interface GangFitCount {
  /** The root group the copies are made of (namespace/name). */
  group: string;
  /** The root's kind: a CompositePodGroup's copies are whole trees. */
  kind: 'PodGroup' | 'CompositePodGroup';
  /** The root's quorum: a PodGroup's minCount (members), a composite's minGroupCount (child groups). */
  minCount: number;
  /** Members per copy (over every PodGroup of a tree). */
  members: number;
  /** How many copies were placed (each as the scheduler placed it: its quorum met, all or nothing). */
  fits: number;
  /** Members placed per node over all the copies, most first. */
  placements: { node: string; members: number }[];
  /** The copy that did not fit, explained (a tree: each child group); null when `max` stopped the count. */
  stoppedBy: ExplainGroup | ExplainTree | null;
  /** What the nodes have left once the copies are placed (cpu, memory, pods, extended resources). */
  free: FreeResources;
  /** The scenario's own pending pods, scheduled first. */
  pending: { scheduled: number; unschedulable: number };
}

const nameOf = (g: SchedulingGroup): string => g.metadata.name ?? 'gang';

/**
 * Refuses a gang the scheduler could only reject for reasons unrelated to room: too few members
 * for a PodGroup's minCount, a member priority unlike the root's (the cycle validates every member
 * against the root), a composite with fewer children than its minGroupCount. `source` prefixes
 * each message; a tree's messages name the object.
 */
export function checkGangTemplate(g: GangTemplate, source: string): void {
  const tree = isCompositePodGroup(g.root);
  const priority = g.root.spec.priority ?? 0;
  const what = (kind: string, name: string) => (tree ? `${kind} "${name}": ` : '');
  for (const pg of [g.root, ...g.below]) {
    if (isCompositePodGroup(pg)) {
      const children = g.below.filter((c) => c.spec.parentCompositePodGroupName === nameOf(pg)).length;
      const min = pg.spec.schedulingPolicy.gang?.minGroupCount;
      if (children === 0) throw new BadInputError(`${source}: CompositePodGroup "${nameOf(pg)}": no PodGroup or CompositePodGroup in the file names it in spec.parentCompositePodGroupName`);
      if (min !== undefined && min > children) throw new BadInputError(`${source}: CompositePodGroup "${nameOf(pg)}": spec.schedulingPolicy.gang.minGroupCount: Invalid value: ${min}: more than its ${children} child group(s): the tree could never be placed`);
      continue;
    }
    const m = g.members.get(nameOf(pg));
    if (m === undefined) throw new BadInputError(`${source}: PodGroup "${nameOf(pg)}": no Pod in the file names it in spec.schedulingGroup.podGroupName`);
    if (!Number.isInteger(m.count) || m.count < 1) throw new BadInputError(`${source}: ${what('PodGroup', nameOf(pg))}members: Invalid value: ${m.count}: must be a positive integer`);
    const min = podGroupMinCount(pg);
    if (m.count < min) throw new BadInputError(`${source}: ${what('PodGroup', nameOf(pg))}members: Invalid value: ${m.count}: fewer than the gang's minCount (${min}): it would wait at PreEnqueue forever`);
    if ((m.pod.spec.priority ?? 0) !== priority) throw new BadInputError(`${source}: ${what('Pod', m.pod.metadata.name ?? '')}spec.priority: Invalid value: ${m.pod.spec.priority ?? 0}: must equal the ${tree ? 'root CompositePodGroup' : 'PodGroup'}'s priority (${priority})`);
  }
}

/**
 * One copy of the gang: its groups (root first) and members, named by `rename` (a group's name to
 * the copy's) and `memberName`, each member made from its pod by `prepare`.
 */
function instantiate(gang: GangTemplate, rename: (name: string) => string, memberName: (group: string, j: number) => string, prepare: (p: Pod) => Pod): { groups: SchedulingGroup[]; members: Pod[] } {
  const ns = gang.root.metadata.namespace ?? 'default';
  const groups = [gang.root, ...gang.below].map((g) => {
    const copy = cloneJSON(g);
    const parent = copy.spec.parentCompositePodGroupName;
    copy.spec = { ...copy.spec, parentCompositePodGroupName: parent === undefined || g === gang.root ? parent : rename(parent) } as typeof copy.spec;
    return { ...copy, metadata: { name: rename(nameOf(g)), namespace: ns }, status: undefined } as SchedulingGroup;
  });
  const members: Pod[] = [];
  for (const [group, { pod, count }] of gang.members) {
    const base = prepare(cloneJSON(pod));
    const name = rename(group);
    for (let j = 0; j < count; j++) {
      members.push({ ...base, metadata: { ...base.metadata, name: memberName(name, j), namespace: ns }, spec: { ...base.spec, schedulingGroup: { podGroupName: name } } });
    }
  }
  return { groups, members };
}

/** A copy's cycle explained: the tree's view for a composite root (with the placements its composites tried), else its PodGroup's. */
function explainCopy(groups: readonly SchedulingGroup[], members: readonly Pod[], records: ReadonlyMap<string, AttemptRecord>, rounds: PlacementRounds): ExplainGroup | ExplainTree | null {
  const waiting = waitingMembers(members, records);
  const root = groups[0]!;
  if (isCompositePodGroup(root)) return explainTree(root, groups, members, records, waiting, rounds);
  return explainGroups(members, groups.filter((g): g is PodGroup => !isCompositePodGroup(g)), records, waiting)[0] ?? null;
}

/**
 * Schedules the scenario's pending pods, then copies of the gang, one whole group (or tree) at a
 * time (each group `<name>-copy-<i>`, members `<group>-copy-<i>-<j>`), until a copy's cycle does
 * not place it or `max` copies are placed. Members never preempt (preemptionPolicy Never); a copy
 * that did not fit is removed again, so `free` is what the placed copies leave.
 */
export async function countGangFits(sc: Scenario, gang: GangTemplate, o: CapacityOptions & { max?: number }): Promise<GangFitCount> {
  const max = o.max ?? 10_000;
  const records = new Map<string, AttemptRecord>();
  const rounds = new Map<string, CompositePlacementRecord>();
  const { cluster, scheduler } = await scheduledScenario(sc, { ...o, onCompositePlacements: (r) => rounds.set(r.group, r) }, (a) => records.set(podKey(a.pod), a));
  try {
    if (scheduler.podGroups === null) throw new BadInputError('--gang: pod groups need --feature-gates GenericWorkload=true');
    const tree = isCompositePodGroup(gang.root);
    if (tree && !scheduler.features.enableCompositePodGroup) throw new BadInputError('--gang: a CompositePodGroup tree needs --feature-gates CompositePodGroup=true (with GenericWorkload and TopologyAwareWorkloadScheduling)');
    const pendingKeys = sc.pending.map(podKey);
    const bound = new Set(cluster.bindings.map((b) => b.pod));
    const scheduled = pendingKeys.filter((k) => bound.has(k)).length;
    const ns = gang.root.metadata.namespace ?? 'default';
    const perNode = new Map<string, number>();
    let fits = 0;
    let stoppedBy: GangFitCount['stoppedBy'] = null;
    while (fits < max) {
      const suffix = `-copy-${fits}`;
      const { groups, members } = instantiate(gang, (n) => `${n}${suffix}`, (g, j) => `${g}-${j}`, (p) => recreatedCopy(p));
      records.clear();
      rounds.clear();
      for (const g of groups) cluster.create(g);
      for (const m of members) cluster.create(m);
      await scheduler.loop.drain();
      const verdict = explainCopy(groups, members, records, rounds);
      if (verdict === null || verdict.outcome !== 'Scheduled') {
        stoppedBy = verdict;
        for (const m of members) cluster.remove('Pod', ns, m.metadata.name ?? '');
        for (const g of groups.reverse()) cluster.remove(g.kind!, ns, nameOf(g));
        await scheduler.loop.drain();
        break;
      }
      for (const m of members) {
        const a = records.get(podKey(m));
        if (a?.outcome === 'Scheduled') perNode.set(a.node, (perNode.get(a.node) ?? 0) + 1);
      }
      fits++;
      o.onProgress?.('gangs placed', fits, 0);
    }
    return {
      group: `${ns}/${nameOf(gang.root)}`,
      kind: tree ? 'CompositePodGroup' : 'PodGroup',
      minCount: isCompositePodGroup(gang.root) ? (gang.root.spec.schedulingPolicy.gang?.minGroupCount ?? 1) : podGroupMinCount(gang.root),
      members: gangMemberKeys(gang).length,
      fits,
      placements: [...perNode].map(([node, n]) => ({ node, members: n })).sort((x, y) => y.members - x.members || x.node.localeCompare(y.node)),
      stoppedBy,
      free: freeResources(cluster),
      pending: { scheduled, unschedulable: pendingKeys.length - scheduled },
    };
  } finally {
    scheduler.stop();
  }
}

/** Members the cycle never attempted: held at PreEnqueue (the only way a whole copy goes unattempted). */
function waitingMembers(members: readonly Pod[], records: ReadonlyMap<string, AttemptRecord>): Map<string, { plugin: string; message: string }> {
  const out = new Map<string, { plugin: string; message: string }>();
  for (const m of members) if (!records.has(podKey(m))) out.set(podKey(m), { plugin: '', message: 'not attempted (held at PreEnqueue, or not for this scheduler)' });
  return out;
}

/** The gang as the file names it: its groups, and members `<group>-<j>` (unbound, preempting as their pod says). */
const asNamed = (gang: GangTemplate) => instantiate(gang, (n) => n, (g, j) => `${g}-${j}`,
  (p) => ({ ...p, metadata: { ...p.metadata, uid: undefined, resourceVersion: undefined }, spec: { ...p.spec, nodeName: undefined } }));

/**
 * The scenario with the gang added as pending work: its groups and members (`<group>-<j>`), so
 * the nodes-to-add search asks for room for the whole group or tree.
 */
export function withGang(sc: Scenario, gang: GangTemplate): Scenario {
  const { groups, members } = asNamed(gang);
  return { ...sc, objects: [...sc.objects, ...(groups as unknown as Scenario['objects'])], pending: [...sc.pending, ...members] };
}

/** The keys (namespace/name) of the members withGang adds. */
export function gangMemberKeys(gang: GangTemplate): string[] {
  return asNamed(gang).members.map(podKey);
}
