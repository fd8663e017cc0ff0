// The VolumeBinding plugin definition (pkg/scheduler/framework/plugins/volumebinding).
import type { PluginDefinition } from '../../framework/registry.js';
import { defaultVolumeBindingArgs, validateVolumeBindingArgs, type VolumeBindingArgs } from './args.js';
import { Name, VolumeBinding } from './volume_binding.js';

export const volumeBindingDefinition: PluginDefinition<VolumeBindingArgs> = {
  name: Name,
  argsKind: 'VolumeBindingArgs',
  factory: (args, handle) => new VolumeBinding(args, handle),
  defaultArgs: defaultVolumeBindingArgs,
  validateArgs: validateVolumeBindingArgs,
};

export { defaultVolumeBindingArgs, validateVolumeBindingArgs, type VolumeBindingArgs } from './args.js';
export {
  Name,
  VolumeBinding,
  VolumeBindingState,
  isSchedulableAfterCSIDriverChange,
  isSchedulableAfterCSINodeChange,
  isSchedulableAfterCSIStorageCapacityChange,
  isSchedulableAfterPersistentVolumeClaimChange,
  isSchedulableAfterStorageClassChange,
} from './volume_binding.js';
export { ErrReasonBindConflict, ErrReasonNodeConflict, ErrReasonNotEnoughSpace, ErrReasonPVNotExist, VolumeBinder, type PodVolumes } from './binder.js';
export { PVAssumeCache, PVCAssumeCache } from './assume_cache.js';
export * from './pv_helpers.js';
