// scheduler-plugins' pkg/controllers/podgroup_controller.go: one reconcile of a PodGroup's status.
import type { Pod } from '../../plugin.js';
import type { CoschedulingPodGroup, PodGroupStatus } from './types.js';

/**
 * The status the PodGroup controller writes after one reconcile over the group's member pods, or
 * the current one when a finished or failed group is left alone. One step at a time, as the
 * controller: a new group becomes Pending, a Pending one Scheduling once it has minMember pods.
 */
export function reconcilePodGroupStatus(pg: CoschedulingPodGroup, pods: readonly Pod[]): PodGroupStatus {
  const cur = pg.status ?? {};
  const minMember = pg.spec.minMember ?? 0;
  switch (cur.phase) {
    case 'Finished':
    case 'Failed':
      return cur;
    case undefined:
      return { ...cur, phase: 'Pending' };
    case 'Pending': {
      if (pods.length < minMember) return cur;
      const occupiedBy = occupiedByOf(pods[0]);
      return { ...cur, phase: 'Scheduling', ...(occupiedBy !== undefined ? { occupiedBy } : {}) };
    }
    default: {
      let running = 0;
      let succeeded = 0;
      let failed = 0;
      for (const p of pods) {
        if (p.status?.phase === 'Running') running++;
        else if (p.status?.phase === 'Succeeded') succeeded++;
        else if (p.status?.phase === 'Failed') failed++;
      }
      const next: PodGroupStatus = { ...cur, running, succeeded, failed };
      if (pods.length < minMember) return { ...next, phase: 'Pending' };
      next.phase = succeeded + running >= minMember ? 'Running' : 'Scheduling';
      if (failed !== 0 && failed + running + succeeded >= minMember) next.phase = 'Failed';
      if (succeeded >= minMember) next.phase = 'Finished';
      return next;
    }
  }
}

/** "namespace/owner" of the pod's owners, sorted and comma-joined (fillOccupiedObj). */
function occupiedByOf(pod: Pod | undefined): string | undefined {
  const owners = pod?.metadata.ownerReferences ?? [];
  if (owners.length === 0) return undefined;
  return owners.map((o) => `${pod!.metadata.namespace ?? 'default'}/${o.name}`).sort().join(',');
}
