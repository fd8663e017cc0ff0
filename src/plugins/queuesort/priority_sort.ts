// PrioritySort orders the active queue (pkg/scheduler/framework/plugins/queuesort/priority_sort.go).
import { compositePodGroupPriority, podGroupPriority } from '../../api/scheduling.js';
import type { QueuedPodGroup } from '../../framework/interfaces.js';
import type { QueuedPodInfo, QueueSortPlugin } from '../../framework/interfaces.js';
import { PrioritySort as Name } from '../../framework/names.js';

export { Name };

/** Higher priority first; among equal priorities, the entity queued earlier first (a pod group by its own priority). */
export class PrioritySort implements QueueSortPlugin {
  readonly name = Name;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const pa = a.group ? groupPriority(a.group) : a.podInfo.priority;
    const pb = b.group ? groupPriority(b.group) : b.podInfo.priority;
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }
}

/** A root group's own priority (QueuedPodGroupInfo.GetPriority). */
function groupPriority(g: QueuedPodGroup): number {
  if (g.podGroup) return podGroupPriority(g.podGroup);
  return g.compositePodGroup ? compositePodGroupPriority(g.compositePodGroup) : 0;
}
