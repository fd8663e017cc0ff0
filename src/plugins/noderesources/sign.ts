// The signature fragment of NodeResourcesFit and NodeResourcesBalancedAllocation (fit.go and
// balanced_allocation.go SignPod): the pod's total requests, which is all their verdicts and
// scores depend on; a pod asking for an extended resource a DeviceClass backs is not signed.
import type { SignFragment } from '../../framework/interfaces.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { ResourcesSignerName } from '../../framework/signers.js';
import { Code, Status } from '../../framework/status.js';
import { isDRAExtendedResourceName } from '../../dra/device_class_resolver.js';
import type { DeviceClassResolver } from '../../framework/shared_dra_manager.js';

const backedByDevices = 'signature disabled when dra extended resources are used in the cluster';

/** @param draClasses null with DRAExtendedResource off. */
export function signResources(pod: PodInfo, draClasses: DeviceClassResolver | null): readonly SignFragment[] | Status {
  const r = pod.requests.resource;
  if (draClasses !== null && r.scalarResources !== null) {
    for (const [name, quantity] of r.scalarResources) {
      if (quantity !== 0 && isDRAExtendedResourceName(name) && draClasses.getDeviceClass(name) !== undefined) {
        return new Status(Code.Unschedulable, [backedByDevices]);
      }
    }
  }
  return [{ key: ResourcesSignerName, value: r }];
}
