// PrioritySort orders the active queue (pkg/scheduler/framework/plugins/queuesort/priority_sort.go).
import type { QueuedPodInfo, QueueSortPlugin } from '../../framework/interfaces.js';
import { PrioritySort as Name } from '../../framework/names.js';

export { Name };

/** Higher priority first; among equal priorities, the pod queued earlier first. */
export class PrioritySort implements QueueSortPlugin {
  readonly name = Name;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const pa = a.podInfo.priority;
    const pb = b.podInfo.priority;
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }
}
