// DefaultBinder binds the pod to the chosen node through the API
// (pkg/scheduler/framework/plugins/defaultbinder/default_binder.go).
import type { CycleState } from '../../framework/cycle_state.js';
import type { BindPlugin, Handle } from '../../framework/interfaces.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import { DefaultBinder as Name } from '../../framework/names.js';

export { Name };

export class DefaultBinder implements BindPlugin {
  readonly name = Name;

  constructor(private readonly handle: Handle) {}

  /** Creates the pod's Binding; an API failure becomes an Error status for the binding cycle. */
  async bind(_state: CycleState, pod: PodInfo, nodeName: string): Promise<Status | null> {
    try {
      await this.handle.client().bind(pod.pod, nodeName);
      return null;
    } catch (err) {
      return Status.fromThrown(err);
    }
  }
}
