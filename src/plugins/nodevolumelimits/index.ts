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
  isSchedulableAfterCSINodeUpdated,
  isSchedulableAfterPVCAdded,
  isSchedulableAfterPodDeleted,
  isSchedulableAfterVolumeAttachmentDeleted,
} from './csi.js';
export { MigratedPluginsAnnotationKey } from './translator.js';
