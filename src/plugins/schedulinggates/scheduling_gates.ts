// SchedulingGates keeps gated pods out of the active queue
// (pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go).
import type { Pod } from '../../api/types.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, PreEnqueuePlugin } from '../../framework/interfaces.js';
import { Status } from '../../framework/status.js';
import { SchedulingGates as Name } from '../../framework/names.js';

export { Name };

export class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  readonly name = Name;

  preEnqueue(pod: Pod): Status | null {
    const gates = pod.spec.schedulingGates;
    if (!gates || gates.length === 0) return null;
    const names: string[] = [];
    for (const g of gates) names.push(g.name);
    // Go's %v of a []string: space-separated inside brackets.
    return Status.unresolvable(`waiting for scheduling gates: [${names.join(' ')}]`);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Pod', actionType: ActionType.UpdatePodSchedulingGatesEliminated },
        queueingHintFn: isSchedulableAfterUpdatePodSchedulingGatesEliminated,
      },
    ];
  }
}

/** Only the gated pod's own update (its last gate removed) can let it in. */
function isSchedulableAfterUpdatePodSchedulingGatesEliminated(pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
  const modified = eventObjectsAs('Pod', null, newObj)?.newObj;
  if (!modified) return QueueingHint.Queue;
  return podUID(modified) === podUID(pod) ? QueueingHint.Queue : QueueingHint.QueueSkip;
}

function podUID(pod: Pod): string {
  return pod.metadata.uid ?? `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
}
