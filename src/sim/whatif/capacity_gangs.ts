// `capacity --gang`: how many more pod groups like this one fit, each all or nothing, with the
// real pod-group cycle (GenericWorkload on): copies of the PodGroup and its members are created
// one group at a time until a group's cycle fails, which is then explained as `explain` does.
import { podGroupMinCount, type PodGroup } from '../../api/scheduling.js';
import { podKey, type Pod } from '../../api/types.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import { BadInputError } from '../../util/bad_input.js';
import { cloneJSON } from '../../util/json_clone.js';
import { explainGroups, type ExplainGroup } from '../explain/explain_groups.js';
import type { Scenario } from '../scenario/scenario.js';
import { scheduledScenario, type CapacityOptions } from './capacity.js';
import { freeResources, type FreeResources } from './free_resources.js';
import { recreatedCopy } from './probe_copy.js';

/** A gang to plan for: its PodGroup, the pod every member is made from, and how many members. */
export interface GangTemplate {
  podGroup: PodGroup;
  pod: Pod;
  members: number;
}

export interface GangFitCount {
  /** The PodGroup the copies are made of (namespace/name). */
  group: string;
  minCount: number;
  members: number;
  /** How many copies of the group were placed (each with at least minCount members bound). */
  fits: number;
  /** Members placed per node over all the copies, most first. */
  placements: { node: string; members: number }[];
  /** The copy that did not fit, explained (its members, what stopped it); null when `max` stopped the count. */
  stoppedBy: ExplainGroup | null;
  /** What the nodes have left once the copies are placed (cpu, memory, pods, extended resources). */
  free: FreeResources;
  /** The scenario's own pending pods, scheduled first. */
  pending: { scheduled: number; unschedulable: number };
}

/** Refuses a gang the scheduler could only reject for reasons unrelated to room. */
export function checkGangTemplate(g: GangTemplate, source: string): void {
  if (!Number.isInteger(g.members) || g.members < 1) throw new BadInputError(`${source}: members: Invalid value: ${g.members}: must be a positive integer`);
  const min = podGroupMinCount(g.podGroup);
  if (g.members < min) throw new BadInputError(`${source}: members: Invalid value: ${g.members}: fewer than the gang's minCount (${min}): it would wait at PreEnqueue forever`);
  const priority = g.podGroup.spec.priority ?? 0;
  if ((g.pod.spec.priority ?? 0) !== priority) throw new BadInputError(`${source}: spec.priority: Invalid value: ${g.pod.spec.priority ?? 0}: must equal the PodGroup's priority (${priority})`);
}

/**
 * Schedules the scenario's pending pods, then copies of the gang, one whole group at a time (its
 * PodGroup `<name>-copy-<i>` and `members` pods naming it), until a copy's cycle places fewer
 * than minCount members or `max` copies are placed. Members never preempt (preemptionPolicy
 * Never); a copy that did not fit is removed again, so `free` is what the placed copies leave.
 */
export async function countGangFits(sc: Scenario, gang: GangTemplate, o: CapacityOptions & { max?: number }): Promise<GangFitCount> {
  const max = o.max ?? 10_000;
  const records = new Map<string, AttemptRecord>();
  const { cluster, scheduler } = await scheduledScenario(sc, o, (a) => records.set(podKey(a.pod), a));
  try {
    if (scheduler.podGroups === null) throw new BadInputError('--gang: pod groups need --feature-gates GenericWorkload=true');
    const pendingKeys = sc.pending.map(podKey);
    const bound = new Set(cluster.bindings.map((b) => b.pod));
    const scheduled = pendingKeys.filter((k) => bound.has(k)).length;
    const ns = gang.podGroup.metadata.namespace ?? 'default';
    const name = gang.podGroup.metadata.name ?? 'gang';
    const minCount = podGroupMinCount(gang.podGroup);
    const member = recreatedCopy(cloneJSON(gang.pod));
    const perNode = new Map<string, number>();
    let fits = 0;
    let stoppedBy: ExplainGroup | null = null;
    while (fits < max) {
      const groupName = `${name}-copy-${fits}`;
      const pg: PodGroup = { ...cloneJSON(gang.podGroup), kind: 'PodGroup', metadata: { name: groupName, namespace: ns }, status: undefined };
      const members: Pod[] = [];
      for (let j = 0; j < gang.members; j++) {
        members.push({
          ...member,
          metadata: { ...member.metadata, name: `${groupName}-${j}`, namespace: ns },
          spec: { ...member.spec, schedulingGroup: { podGroupName: groupName } },
        });
      }
      records.clear();
      cluster.create(pg);
      for (const m of members) cluster.create(m);
      await scheduler.loop.drain();
      const placed = members.flatMap((m) => {
        const a = records.get(podKey(m));
        return a?.outcome === 'Scheduled' ? [a.node] : [];
      });
      if (placed.length === 0 || placed.length < minCount) {
        stoppedBy = explainGroups(members, [pg], records, waitingMembers(members, records))[0] ?? null;
        for (const m of members) cluster.remove('Pod', ns, m.metadata.name ?? '');
        cluster.remove('PodGroup', ns, groupName);
        await scheduler.loop.drain();
        break;
      }
      for (const n of placed) perNode.set(n, (perNode.get(n) ?? 0) + 1);
      fits++;
      o.onProgress?.('gangs placed', fits, 0);
    }
    return {
      group: `${ns}/${name}`,
      minCount,
      members: gang.members,
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

/**
 * The scenario with the gang added as pending work: its PodGroup and `members` pods naming it
 * (`<name>-<i>`), so the nodes-to-add search asks for room for the whole group.
 */
export function withGang(sc: Scenario, gang: GangTemplate): Scenario {
  const ns = gang.podGroup.metadata.namespace ?? 'default';
  const name = gang.podGroup.metadata.name ?? 'gang';
  const pg: PodGroup = { ...cloneJSON(gang.podGroup), kind: 'PodGroup', metadata: { name, namespace: ns }, status: undefined };
  const base = cloneJSON(gang.pod);
  const keys = gangMemberKeys(gang);
  const members: Pod[] = keys.map((key) => ({
    ...base,
    metadata: { ...base.metadata, name: key.slice(ns.length + 1), namespace: ns, uid: undefined, resourceVersion: undefined },
    spec: { ...base.spec, nodeName: undefined, schedulingGroup: { podGroupName: name } },
  }));
  return { ...sc, objects: [...sc.objects, pg as unknown as Scenario['objects'][number]], pending: [...sc.pending, ...members] };
}

/** The keys (namespace/name) of the members withGang adds. */
export function gangMemberKeys(gang: GangTemplate): string[] {
  const ns = gang.podGroup.metadata.namespace ?? 'default';
  const name = gang.podGroup.metadata.name ?? 'gang';
  return Array.from({ length: gang.members }, (_, j) => `${ns}/${name}-${j}`);
}
