// A stand-in for DynamicResources until DRA is built: it keeps every pod with resource claims
// unschedulable, so no pod is bound without its claims being allocated
// (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go rejects in PreFilter too).
import type { Pod } from '../../api/types.js';
import type { CycleState } from '../../framework/cycle_state.js';
import type { ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, PreFilterOutcome, PreFilterPlugin } from '../../framework/interfaces.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import { DynamicResources as Name } from '../../framework/names.js';

export { Name };

export const ErrReasonNotSupported = 'pod has resource claims, but DRA (DynamicResources) is not supported by this scheduler yet';

/** True when the pod lists resource claims (spec.resourceClaims, immutable once created). */
function hasResourceClaims(pod: Pod): boolean {
  return (pod.spec.resourceClaims?.length ?? 0) > 0;
}

/**
 * Rejects a pod with claims in PreFilter, UnschedulableAndUnresolvable as upstream rejects claims
 * it cannot satisfy: the attempt leaves a FailedScheduling event and a PodScheduled condition with
 * the reason, where a PreEnqueue rejection would hold the pod back without a word. Other pods skip it.
 */
export class DynamicResources implements PreFilterPlugin, EnqueueExtensions {
  readonly name = Name;

  preFilter(_state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    if (!hasResourceClaims(pod.pod)) return { status: Status.skip() };
    return { status: Status.unresolvable(ErrReasonNotSupported) };
  }

  preFilterExtensions(): null {
    return null;
  }

  /** No cluster event can help: the claims cannot be removed, only the periodic flush retries. */
  eventsToRegister(): ClusterEventWithHint[] {
    return [];
  }
}
