// The DynamicResources plugin definition (pkg/scheduler/framework/plugins/dynamicresources).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultDynamicResourcesArgs, validateDynamicResourcesArgs, type DynamicResourcesArgs } from './args.js';
import { DynamicResources, Name } from './dynamic_resources.js';
import { seededShareID, structuredAllocator } from './allocator_factory.js';

export const dynamicResourcesDefinition: PluginDefinition<DynamicResourcesArgs> = {
  name: Name,
  argsKind: 'DynamicResourcesArgs',
  factory: (args, handle, features) => new DynamicResources(handle, {
    args,
    features,
    newAllocator: structuredAllocator(seededShareID(() => handle.random(), handle.deferRandom ? (draws) => handle.deferRandom!(draws) : undefined)),
  }),
  defaultArgs: (given) => defaultDynamicResourcesArgs(given),
  validateArgs: (args, path) => validateDynamicResourcesArgs(args, path),
};

export { DynamicResources, ErrReasonCannotAllocate, ErrReasonDeallocated, ErrReasonNotAvailable } from './dynamic_resources.js';
export { AllocatedDevices } from './allocated_devices.js';
export { makeDeviceID } from '../../dra/structured/index.js';
export { SliceLister } from './dra_manager.js';
export { allocatorFeatures } from './features.js';
export { diagnoseNode, type RequestShortfall } from './diagnose.js';
export { DeviceClassResolver } from '../../dra/device_class_resolver.js';
export { extendedResourceClaimForNode, findExtendedResourceClaim } from './extended_resources.js';
export { structuredAllocator } from './allocator_factory.js';
