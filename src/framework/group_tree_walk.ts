// The PodGroups under a group of a workload's tree, as plugins read them through the pod-group
// lister (pkg/scheduler/framework/plugins/helper/podgroup.go GetPodGroupStates): a PodGroup is its
// own leaf; a composite's leaves are found through its observed children, at most
// WorkloadMaxTreeDepth levels down.
import { isCompositePodGroup, type SchedulingGroup } from '../api/scheduling.js';
import type { Pod } from '../api/types.js';
import type { GroupKey, PodGroupLister } from './interfaces.js';

/** How deep a workload's group tree may go (WorkloadMaxTreeDepth). */
const workloadMaxTreeDepth = 4;

/** The key of a group object. */
function groupKeyOf(g: SchedulingGroup): GroupKey {
  return { kind: isCompositePodGroup(g) ? 'CompositePodGroup' : 'PodGroup', namespace: g.metadata.namespace ?? 'default', name: g.metadata.name ?? '' };
}

/** The PodGroups under `key`, depth first; an error past the tree's maximum depth. */
function leafPodGroupKeys(groups: PodGroupLister, key: GroupKey, depth = 0): GroupKey[] {
  if (depth >= workloadMaxTreeDepth) throw new Error(`exceeded maximum hierarchy depth at ${key.kind}/${key.namespace}/${key.name}`);
  if (key.kind === 'PodGroup') return [key];
  return (groups.childrenOf?.(key.namespace, key.name) ?? []).flatMap((c) => leafPodGroupKeys(groups, c, depth + 1));
}

/** The scheduled (bound or assumed) members of every PodGroup under the group. */
export function scheduledPodsUnder(groups: PodGroupLister, g: SchedulingGroup): Pod[] {
  return leafPodGroupKeys(groups, groupKeyOf(g)).flatMap((k) => groups.scheduledPods(k.namespace, k.name));
}

/** How many members of the PodGroups under the group are scheduled. */
export function scheduledPodsCountUnder(groups: PodGroupLister, g: SchedulingGroup): number {
  let n = 0;
  for (const k of leafPodGroupKeys(groups, groupKeyOf(g))) n += groups.scheduledPodsCount(k.namespace, k.name);
  return n;
}
