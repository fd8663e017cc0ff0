// PrioritySort orders the active queue (pkg/scheduler/framework/plugins/queuesort/priority_sort.go).
import type { QueuedPodInfo, QueueSortPlugin } from '../../framework/interfaces.js';
import { PrioritySort as Name } from '../../framework/names.js';

export { Name };

/** Higher priority first; among equal priorities, the entity queued earlier first (a pod group by its own priority). */
export class PrioritySort implements QueueSortPlugin {
  readonly name = Name;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const pa = a.group ? (a.group.podGroup.spec.priority ?? 0) : a.podInfo.priority;
    const pb = b.group ? (b.group.podGroup.spec.priority ?? 0) : b.podInfo.priority;
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }
}
