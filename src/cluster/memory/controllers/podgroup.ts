// A stand-in for scheduler-plugins' PodGroup controller (pkg/controllers/podgroup_controller.go),
// which a cluster running Coscheduling deploys beside it: one reconcile of a
// scheduling.x-k8s.io/v1alpha1 PodGroup's status over the pods labelled with its name.
import type { KubeObject, Pod } from '../../../api/types.js';

/** The pod label naming a pod's scheduler-plugins PodGroup. */
export const coschedulingPodGroupLabel = 'scheduling.x-k8s.io/pod-group';
/** The key scheduler-plugins' PodGroups are kept under (api/kinds.ts). */
export const coschedulingPodGroupKind = 'PodGroup.scheduling.x-k8s.io';
/** A group whose members were all scheduled this long after its creation and none runs is left alone. */
const giveUpAfterMs = 48 * 3600 * 1000;

/** The phases the PodGroup controller writes. */
export type PodGroupPhase = 'Pending' | 'PreScheduling' | 'Scheduling' | 'Scheduled' | 'Running' | 'Finished' | 'Failed' | 'Unknown';

/** scheduling.x-k8s.io/v1alpha1 PodGroupStatus. */
export interface CoschedulingStatus {
  phase?: PodGroupPhase;
  occupiedBy?: string;
  scheduled?: number;
  running?: number;
  succeeded?: number;
  failed?: number;
  scheduleStartTime?: string;
}

export interface CoschedulingGroup extends KubeObject {
  spec?: { minMember?: number };
  status?: CoschedulingStatus;
}

/**
 * The status one reconcile writes, or the current one when the group is left alone (Finished,
 * Failed, or timed out). One step at a time, as the controller: a new group becomes Pending, a
 * Pending one PreScheduling once it has minMember pods; Scheduling (which the controller never
 * writes) becomes Scheduled once `scheduled` reaches minMember, Scheduled becomes Running, and
 * Failed and Finished end it.
 */
export function reconcileCoschedulingStatus(pg: CoschedulingGroup, pods: readonly Pod[]): CoschedulingStatus {
  const cur = pg.status ?? {};
  const minMember = pg.spec?.minMember ?? 0;
  if (cur.phase === 'Finished' || cur.phase === 'Failed') return cur;
  if ((cur.scheduled ?? 0) === minMember && (cur.running ?? 0) === 0 && cur.scheduleStartTime !== undefined
    && Date.parse(cur.scheduleStartTime) - Date.parse(pg.metadata?.creationTimestamp ?? cur.scheduleStartTime) > giveUpAfterMs) return cur;
  if (!cur.phase) return { ...cur, phase: 'Pending' };
  if (cur.phase === 'Pending') {
    if (pods.length < minMember) return cur;
    const occupiedBy = occupiedByOf(pods[0]);
    return { ...cur, phase: 'PreScheduling', ...(occupiedBy !== undefined ? { occupiedBy } : {}) };
  }
  let running = 0;
  let succeeded = 0;
  let failed = 0;
  for (const p of pods) {
    if (p.status?.phase === 'Running') running++;
    else if (p.status?.phase === 'Succeeded') succeeded++;
    else if (p.status?.phase === 'Failed') failed++;
  }
  const next: CoschedulingStatus = { ...cur, running, succeeded, failed };
  if (pods.length === 0) return { ...next, phase: 'Pending' };
  if ((next.scheduled ?? 0) >= minMember && next.phase === 'Scheduling') next.phase = 'Scheduled';
  if (succeeded + running >= minMember && next.phase === 'Scheduled') next.phase = 'Running';
  if (failed !== 0 && failed + running + succeeded >= minMember) next.phase = 'Failed';
  if (succeeded >= minMember) next.phase = 'Finished';
  return next;
}

/** "namespace/owner" of the pod's owners, sorted and comma-joined (fillOccupiedObj). */
function occupiedByOf(pod: Pod | undefined): string | undefined {
  const owners = pod?.metadata.ownerReferences ?? [];
  if (owners.length === 0) return undefined;
  return owners.map((o) => `${pod!.metadata.namespace ?? 'default'}/${o.name}`).sort().join(',');
}
