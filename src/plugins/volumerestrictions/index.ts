// The VolumeRestrictions plugin definition (pkg/scheduler/framework/plugins/volumerestrictions).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, VolumeRestrictionsPlugin } from './volume_restrictions.js';

export const volumeRestrictionsDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new VolumeRestrictionsPlugin(handle),
};

export {
  ErrReasonDiskConflict,
  ErrReasonReadWriteOncePodConflict,
  Name,
  VolumeRestrictionsPlugin,
  defaultVolumeRestrictionsFeatures,
  isSchedulableAfterPersistentVolumeClaimAdded,
  isSchedulableAfterPodDeleted,
  isVolumeConflict,
  needsRestrictionsCheck,
  satisfyVolumeConflicts,
  type VolumeRestrictionsFeatures,
} from './volume_restrictions.js';
