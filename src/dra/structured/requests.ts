// One view over a claim's requests and firstAvailable subrequests, so the search treats both
// alike (the requestAccessor implementations of allocator_incubating.go).
import type { CapacityRequirements, DeviceDerivedAttribute, DeviceRequest, DeviceSelector, DeviceSubRequest, DeviceToleration } from '../../api/dra_types.js';

export interface RequestView {
  readonly name: string;
  readonly deviceClassName: string;
  /** ExactCount unless All (the API's default when unset). */
  readonly allocationMode: 'ExactCount' | 'All' | string;
  /** The count for ExactCount (the API's default of 1 when unset). */
  readonly count: number;
  readonly adminAccess: boolean;
  /** Whether adminAccess is set at all (false too), which needs the feature. */
  readonly hasAdminAccess: boolean;
  readonly selectors: readonly DeviceSelector[];
  readonly tolerations: readonly DeviceToleration[] | undefined;
  readonly capacity: CapacityRequirements | undefined;
  readonly derivedAttributes: readonly DeviceDerivedAttribute[];
}

export function exactRequestView(request: DeviceRequest): RequestView {
  const exactly = request.exactly;
  return {
    name: request.name,
    deviceClassName: exactly?.deviceClassName ?? '',
    allocationMode: exactly?.allocationMode ?? 'ExactCount',
    count: exactly?.count ?? 1,
    adminAccess: exactly?.adminAccess ?? false,
    hasAdminAccess: exactly?.adminAccess !== undefined && exactly.adminAccess !== null,
    selectors: exactly?.selectors ?? [],
    tolerations: exactly?.tolerations,
    capacity: exactly?.capacity,
    derivedAttributes: exactly?.derivedAttributes ?? [],
  };
}

export function subRequestView(subRequest: DeviceSubRequest): RequestView {
  return {
    name: subRequest.name,
    deviceClassName: subRequest.deviceClassName ?? '',
    allocationMode: subRequest.allocationMode ?? 'ExactCount',
    count: subRequest.count ?? 1,
    adminAccess: false,
    hasAdminAccess: false,
    selectors: subRequest.selectors ?? [],
    tolerations: subRequest.tolerations,
    capacity: subRequest.capacity,
    derivedAttributes: subRequest.derivedAttributes ?? [],
  };
}
