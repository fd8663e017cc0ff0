// PodGroupPodsCount: among the placements a pod group fits, prefer the one holding more of its
// members, counting those already scheduled (pkg/scheduler/framework/plugins/podgrouppodscount; a
// composite group counts the members of every group under it).
import type { SchedulingGroup } from '../../api/scheduling.js';
import { scheduledPodsCountUnder } from '../../framework/group_tree_walk.js';
import type { CycleState } from '../../framework/cycle_state.js';
import { MaxNodeScore, MinNodeScore, type Handle, type PlacementScore, type PlacementScorePlugin, type PodGroupAssignments, type PodGroupLister } from '../../framework/interfaces.js';
import { Status } from '../../framework/status.js';

export const Name = 'PodGroupPodsCount';

export class PodGroupPodsCount implements PlacementScorePlugin {
  readonly name = Name;
  private readonly groups: PodGroupLister;

  constructor(handle: Handle) {
    const groups = handle.podGroups?.();
    if (!groups) throw new Error(`${Name} needs the pod groups of the GenericWorkload feature`);
    this.groups = groups;
  }

  /** Scheduled members plus the members this placement would place: close counts score close. */
  scorePlacement(_state: CycleState, podGroup: SchedulingGroup, assignments: PodGroupAssignments): number {
    const scheduled = scheduledPodsCountUnder(this.groups, podGroup);
    return scheduled + assignments.proposedAssignments.length;
  }

  /**
   * Scales by the highest count (not from minCount up, so small differences stay small); an error
   * when no placement holds any member.
   */
  normalizePlacementScore(_state: CycleState, _podGroup: SchedulingGroup, scores: PlacementScore[]): Status | null {
    let max = 0;
    for (const s of scores) max = Math.max(max, s.score);
    if (max === 0) return Status.error('no pods from pod group are assigned to any of the candidate placements');
    for (const s of scores) s.score = MinNodeScore + Math.trunc((s.score * (MaxNodeScore - MinNodeScore)) / max);
    return null;
  }
}
