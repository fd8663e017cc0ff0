// The NodeVolumeLimits plugin definition (pkg/scheduler/framework/plugins/nodevolumelimits, CSILimits).
import type { PluginDefinition } from '../../framework/registry.js';
import { Name, newCSILimits } from './csi.js';

export const nodeVolumeLimitsDefinition: PluginDefinition = {
  name: Name,
  factory: newCSILimits,
};

export {
  CSILimits,
  ErrReasonMaxVolumeCountExceeded,
  Name,
  isSchedulableAfterCSINodeUpdated,
  isSchedulableAfterPVCAdded,
  isSchedulableAfterPodDeleted,
  isSchedulableAfterVolumeAttachmentDeleted,
  newCSILimits,
} from './csi.js';
export { ephemeralVolumeClaimName } from './resolve.js';
export {
  MigratedPluginsAnnotationKey,
  inTreePlugins,
  isCSIMigrationOn,
  kubernetesVolumeIDToEBSVolumeID,
  pluginForInlineVolume,
  pluginForPV,
  type InTreePlugin,
} from './translator.js';
