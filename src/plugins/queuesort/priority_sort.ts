// PrioritySort orders the active queue (pkg/scheduler/framework/plugins/queuesort/priority_sort.go).
import { podGroupPriority } from '../../api/scheduling.js';
import type { QueuedPodInfo, QueueSortPlugin } from '../../framework/interfaces.js';
import { PrioritySort as Name } from '../../framework/names.js';

export { Name };

/** Higher priority first; among equal priorities, the entity queued earlier first (a pod group by its own priority). */
export class PrioritySort implements QueueSortPlugin {
  readonly name = Name;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const pa = a.group ? podGroupPriority(a.group.podGroup) : a.podInfo.priority;
    const pb = b.group ? podGroupPriority(b.group.podGroup) : b.podInfo.priority;
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }
}
