// scheduler-plugins' pkg/controllers/podgroup_controller.go: one reconcile of a PodGroup's status
// (the embedded cluster's stand-in for the controller runs the same function).
import { reconcileCoschedulingStatus } from '../../cluster/memory/controllers/podgroup.js';
import type { Pod } from '../../plugin.js';
import type { CoschedulingPodGroup, PodGroupStatus } from './types.js';

/**
 * The status the PodGroup controller writes after one reconcile over the group's member pods, or
 * the current one when a finished, failed or timed-out group is left alone.
 */
export function reconcilePodGroupStatus(pg: CoschedulingPodGroup, pods: readonly Pod[]): PodGroupStatus {
  return reconcileCoschedulingStatus(pg, pods);
}
