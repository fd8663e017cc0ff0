// The root of the workload tree each pending member and each group object of a scenario is in,
// as the differential harness groups them (upstream/internal/explain/group.go groupKey), and the
// groups a scenario creates only once their tree's members exist (late_groups.go).
import { kindKeyOf } from '../../api/kinds.js';
import { podGroupKeyOfPod, type CompositePodGroup, type PodGroup } from '../../api/scheduling.js';
import type { KubeObject, Pod } from '../../api/types.js';
import type { Scenario } from '../scenario/scenario.js';
import { groupRootKey } from './explain_groups.js';

/**
 * Marks a PodGroup or CompositePodGroup of `objects` that is created after its tree's pending
 * members (once the queue holds them all), so the queue meets a group arriving while they wait.
 */
export const createAfterMembers = 'differential.kube-scheduler-ts/create-after-members';

export function createdAfterMembers(o: KubeObject): boolean {
  const kind = kindKeyOf(o);
  return (kind === 'PodGroup' || kind === 'CompositePodGroup') && o.metadata?.annotations?.[createAfterMembers] === 'true';
}

export interface TreeRoots {
  /** "namespace/name" of the root of the pod's group (the group itself without composites); null outside any group. */
  ofPod(pod: Pod): string | null;
  /** The same for a PodGroup or CompositePodGroup object. */
  ofGroup(o: KubeObject): string;
}

/** The roots by the scenario's groups' parents (none without CompositePodGroup). */
export function treeRoots(sc: Scenario, composites: boolean): TreeRoots {
  const groups = composites ? sc.objects.filter((o) => { const k = kindKeyOf(o); return k === 'PodGroup' || k === 'CompositePodGroup'; }) as unknown as (PodGroup | CompositePodGroup)[] : [];
  // The filter kept only objects whose kind is their key (not Coscheduling's PodGroup).
  const rootOf = groupRootKey(groups);
  return {
    ofPod: (pod) => (podGroupKeyOfPod(pod) === null ? null : rootOf('PodGroup', pod.metadata.namespace ?? 'default', pod.spec.schedulingGroup!.podGroupName!)),
    ofGroup: (o) => rootOf(kindKeyOf(o), o.metadata?.namespace ?? 'default', o.metadata?.name ?? ''),
  };
}
