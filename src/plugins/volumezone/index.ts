// The VolumeZone plugin definition (pkg/scheduler/framework/plugins/volumezone).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, VolumeZone } from './volume_zone.js';

export const volumeZoneDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new VolumeZone(handle),
};

export {
  ErrReasonConflict,
  LabelFailureDomainBetaRegion,
  LabelFailureDomainBetaZone,
  LabelTopologyRegion,
  LabelTopologyZone,
  VolumeZone,
  isSchedulableAfterPersistentVolumeChange,
  isSchedulableAfterPersistentVolumeClaimChange,
  isSchedulableAfterStorageClassAdded,
  labelZonesToSet,
} from './volume_zone.js';
