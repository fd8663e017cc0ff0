// The DynamicResources plugin definition (pkg/scheduler/framework/plugins/dynamicresources).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultDynamicResourcesArgs, validateDynamicResourcesArgs, type DynamicResourcesArgs } from './args.js';
import { DynamicResources, Name } from './dynamic_resources.js';
import { seededShareID, structuredAllocator } from './structured_allocator.js';

export const dynamicResourcesDefinition: PluginDefinition<DynamicResourcesArgs> = {
  name: Name,
  argsKind: 'DynamicResourcesArgs',
  factory: (args, handle) => new DynamicResources(handle, { args, newAllocator: structuredAllocator(seededShareID(() => handle.random())) }),
  defaultArgs: (given) => defaultDynamicResourcesArgs(given),
  validateArgs: (args, path) => validateDynamicResourcesArgs(args, path),
};

export { defaultDynamicResourcesArgs, validateDynamicResourcesArgs, type DynamicResourcesArgs } from './args.js';
export { DynamicResources, ErrReasonCannotAllocate, ErrReasonDeallocated, ErrReasonNotAvailable, Name } from './dynamic_resources.js';
export type { Allocator, AllocatorInputs, NewAllocator } from './allocator.js';
export { AllocatedDevices, deviceID, type AllocatedState } from './allocated_devices.js';
export { SliceLister } from './dra_manager.js';
export { allocatorFeatures, pinnedDraFeatures, type DraFeatures } from './features.js';
export { diagnoseNode, type RequestShortfall } from './diagnose.js';
export { structuredAllocator } from './structured_allocator.js';
