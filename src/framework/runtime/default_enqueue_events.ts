// What wakes a rejecting plugin that registers no events (framework/runtime/framework.go
// defaultEnqueueExtension, framework/types.go UnrollWildCardResource).
import { kindKey, kinds, type KindInfo } from '../../api/kinds.js';
import { ActionTypeAll, type ClusterEventWithHint, type EventResource } from '../events.js';

/**
 * The events of a plugin that registers none: every action on the kinds the table marks
 * `wildcardUnrolled` (PodGroup only with GenericWorkload, its gate). ResourceSlice,
 * VolumeAttachment and CompositePodGroup events never wake it, nor the kinds only we watch.
 */
export function unrolledWildCardEvents(genericWorkload: boolean): ClusterEventWithHint[] {
  const resources: EventResource[] = [];
  for (const k of kinds as readonly KindInfo[]) {
    if (!k.wildcardUnrolled || (k.gate !== undefined && !(k.gate === 'GenericWorkload' && genericWorkload))) continue;
    if (k.kind === 'Pod') resources.push('AssignedPod', 'UnscheduledPod');
    else resources.push(kindKey(k) as EventResource);
  }
  return resources.map((resource) => ({ event: { resource, actionType: ActionTypeAll } }));
}
