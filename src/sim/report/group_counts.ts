// How many of a run's pod groups were placed: a group counts as placed once at least its minCount
// members are scheduled (a basic group: one), as GangScheduling's quorum reads it. For `compare`
// and the report, which count gangs beside pods.
import { podGroupKey, podGroupKeyOfPod, podGroupMinCount, type PodGroup } from '../../api/scheduling.js';
import { podKey, type KubeObject, type Pod } from '../../api/types.js';
import { kindKeyOf } from '../../api/kinds.js';

export interface GroupCounts {
  /** Pod groups with members in the run. */
  total: number;
  /** Groups with at least minCount members scheduled. */
  placed: number;
  /** The others: short of their quorum, left out whole or waiting. */
  notPlaced: number;
}

/**
 * Counts the groups the pods name (`pods`: every pod of the run; `scheduled`: the keys of those
 * scheduled at the end); null when no pod names a group, so the output stays as it was.
 */
export function groupCounts(objects: readonly KubeObject[], pods: readonly Pod[], scheduled: ReadonlySet<string>): GroupCounts | null {
  const minCount = new Map<string, number>();
  for (const o of objects) {
    if (kindKeyOf(o) !== 'PodGroup') continue;
    const pg = o as unknown as PodGroup;
    minCount.set(podGroupKey(pg.metadata.namespace ?? 'default', pg.metadata.name ?? ''), podGroupMinCount(pg));
  }
  const placedMembers = new Map<string, number>();
  for (const p of pods) {
    const g = podGroupKeyOfPod(p);
    if (g === null) continue;
    placedMembers.set(g, (placedMembers.get(g) ?? 0) + (scheduled.has(podKey(p)) ? 1 : 0));
  }
  if (placedMembers.size === 0) return null;
  let placed = 0;
  for (const [g, n] of placedMembers) if (n > 0 && n >= (minCount.get(g) ?? 1)) placed++;
  return { total: placedMembers.size, placed, notPlaced: placedMembers.size - placed };
}
