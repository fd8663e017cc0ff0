// The VolumeRestrictions plugin definition (pkg/scheduler/framework/plugins/volumerestrictions).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, VolumeRestrictions } from './volume_restrictions.js';

export const volumeRestrictionsDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new VolumeRestrictions(handle),
};

export {
  ErrReasonDiskConflict,
  ErrReasonReadWriteOncePodConflict,
  Name,
  VolumeRestrictions,
  isSchedulableAfterPersistentVolumeClaimAdded,
  isSchedulableAfterPodDeleted,
} from './volume_restrictions.js';
