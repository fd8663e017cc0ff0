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
  VolumeBinding,
  VolumeBindingState,
  isSchedulableAfterCSINodeChange,
  isSchedulableAfterCSIStorageCapacityChange,
  isSchedulableAfterPersistentVolumeClaimChange,
  isSchedulableAfterStorageClassChange,
} from './volume_binding.js';
export { ErrReasonBindConflict, ErrReasonNodeConflict, ErrReasonNotEnoughSpace, ErrReasonPVNotExist } from './binder.js';
export * from './pv_helpers.js';
