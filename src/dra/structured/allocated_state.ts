// The allocated state from claims' allocations: what other claims hold, as the scheduler plugin
// gathers it (pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go,
// foreachAllocatedDevice): admin access blocks nothing, a share of a multi-allocation device
// is counted with its consumed capacity, everything else is held exclusively.
import type { AllocationResult } from '../../api/dra_types.js';
import { parseQuantity } from '../../api/quantity.js';
import { makeDeviceID, makeSharedDeviceID, type AllocatedState, type ConsumedCapacity, type DeviceID, type SharedDeviceID } from './types.js';

/** An AllocatedState being filled in. */
export interface MutableAllocatedState extends AllocatedState {
  readonly allocatedDevices: Set<DeviceID>;
  readonly allocatedSharedDeviceIDs: Set<SharedDeviceID>;
  readonly aggregatedCapacity: Map<DeviceID, ConsumedCapacity>;
}

export function newAllocatedState(): MutableAllocatedState {
  return { allocatedDevices: new Set(), allocatedSharedDeviceIDs: new Set(), aggregatedCapacity: new Map() };
}

/** Adds what one allocation holds; `consumableCapacity` is the DRAConsumableCapacity gate. */
export function addAllocation(state: MutableAllocatedState, allocation: AllocationResult | undefined, consumableCapacity: boolean): void {
  for (const result of allocation?.devices?.results ?? []) {
    if (result.adminAccess) continue;
    const id = makeDeviceID(result.driver, result.pool, result.device);
    if (consumableCapacity && result.shareID !== undefined) {
      state.allocatedSharedDeviceIDs.add(makeSharedDeviceID(id, result.shareID));
      if (result.consumedCapacity) {
        let consumed = state.aggregatedCapacity.get(id);
        if (!consumed) state.aggregatedCapacity.set(id, (consumed = new Map()));
        for (const [name, value] of Object.entries(result.consumedCapacity)) consumed.set(name, (consumed.get(name) ?? 0n) + parseQuantity(value).nanoValue());
      }
      continue;
    }
    state.allocatedDevices.add(id);
  }
}
