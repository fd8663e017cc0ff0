// In-tree volume plugins that migrate to CSI drivers, and the part of their translation the
// volume limit check needs: the CSI driver and volume handle (k8s.io/csi-translation-lib, plus
// isCSIMigrationOn of pkg/scheduler/framework/plugins/nodevolumelimits/utils.go).
import type { CSINode, PersistentVolume, PodSpec } from '../../api/types.js';

export type Volume = NonNullable<PodSpec['volumes']>[number];
type PVSpec = NonNullable<PersistentVolume['spec']>;

/** The CSINode annotation listing the in-tree plugins the node migrated (v1.MigratedPluginsAnnotationKey). */
export const MigratedPluginsAnnotationKey = 'storage.alpha.kubernetes.io/migrated-plugins';

const AWSEBSInTreePluginName = 'kubernetes.io/aws-ebs';
const AWSEBSDriverName = 'ebs.csi.aws.com';
const GCEPDInTreePluginName = 'kubernetes.io/gce-pd';
export const GCEPDDriverName = 'pd.csi.storage.gke.io';
const AzureDiskInTreePluginName = 'kubernetes.io/azure-disk';
const AzureDiskDriverName = 'disk.csi.azure.com';
export const AzureFileInTreePluginName = 'kubernetes.io/azure-file';
const AzureFileDriverName = 'file.csi.azure.com';
const CinderInTreePluginName = 'kubernetes.io/cinder';
const CinderDriverName = 'cinder.csi.openstack.org';
const VSphereInTreePluginName = 'kubernetes.io/vsphere-volume';
const VSphereDriverName = 'csi.vsphere.vmware.com';
export const PortworxVolumePluginName = 'kubernetes.io/portworx-volume';
export const PortworxDriverName = 'pxd.portworx.com';

/**
 * One migratable in-tree plugin. The handle functions exist for the plugins whose migration the
 * scheduler honours (isCSIMigrationOn); Azure File and vSphere volumes are recognised (they keep
 * PreFilter from skipping and match VolumeAttachments by driver) but never counted.
 */
export interface InTreePlugin {
  readonly inTreePluginName: string;
  readonly csiDriverName: string;
  canSupport(spec: PVSpec): boolean;
  canSupportInline(vol: Volume): boolean;
  /** The CSI volume handle of a PV of this plugin, or the reason it cannot be translated. */
  pvVolumeHandle?(pv: PersistentVolume): string | Error;
  inlineVolumeHandle?(vol: Volume): string | Error;
}

const awsVolumeIDPattern = /^vol-[^/]*$/;

/** "aws://<zone>/<id>", "aws:///<id>" or a bare "<id>" to the EBS volume id (KubernetesVolumeIDToEBSVolumeID). */
export function kubernetesVolumeIDToEBSVolumeID(id: string): string | Error {
  if (!id.startsWith('aws://')) return id;
  let path: string;
  try {
    path = new URL(id).pathname;
  } catch (err) {
    return new Error(`Invalid disk name (${id}): ${(err as Error).message}`);
  }
  const awsID = path.replace(/^\/+|\/+$/g, '');
  if (!awsVolumeIDPattern.test(awsID)) return new Error(`Invalid format for AWS volume (${id})`);
  return awsID;
}

function ebsHandle(volumeID: string): string | Error {
  const h = kubernetesVolumeIDToEBSVolumeID(volumeID);
  return h instanceof Error ? new Error(`failed to translate Kubernetes ID to EBS Volume ID ${h.message}`) : h;
}

const unspecified = 'UNSPECIFIED';
const zoneBetaLabel = 'failure-domain.beta.kubernetes.io/zone';
const zoneLabel = 'topology.kubernetes.io/zone';

/** The one region of "<locale>-<region>-<zone>" zones (gceGetRegionFromZones). */
function gceRegionFromZones(zones: readonly string[]): string | Error {
  const regions = new Set<string>();
  for (const zone of zones) {
    const parts = zone.split('-');
    if (parts.length !== 3) return new Error(`zone in unexpected format, expected: {locale}-{region}-{zone}, got: ${zone}`);
    regions.add(`${parts[0]}-${parts[1]}`);
  }
  if (regions.size !== 1) return new Error(`multiple or no regions gotten from zones, got: ${[...regions].join(',')}`);
  return [...regions][0]!;
}

/** A GCE PD PV's handle: zonal or regional from its zone label, UNSPECIFIED without one. */
function gcePVHandle(pv: PersistentVolume): string | Error {
  const pdName = pv.spec?.gcePersistentDisk?.pdName ?? '';
  const labels = pv.metadata?.labels ?? {};
  const zones = (labels[zoneBetaLabel] || labels[zoneLabel] || '').split('__');
  if (zones.length === 1 && zones[0] !== '') return `projects/${unspecified}/zones/${zones[0]}/disks/${pdName}`;
  if (zones.length > 1) {
    const region = gceRegionFromZones(zones);
    if (region instanceof Error) return new Error(`failed to get region from zones: ${region.message}`);
    return `projects/${unspecified}/regions/${region}/disks/${pdName}`;
  }
  return `projects/${unspecified}/zones/${unspecified}/disks/${pdName}`;
}

/** The plugins csi-translation-lib knows in v1.34. */
const inTreePlugins: readonly InTreePlugin[] = [
  {
    inTreePluginName: GCEPDInTreePluginName,
    csiDriverName: GCEPDDriverName,
    canSupport: (s) => !!s.gcePersistentDisk,
    canSupportInline: (v) => !!v.gcePersistentDisk,
    pvVolumeHandle: gcePVHandle,
    inlineVolumeHandle: (v) => `projects/${unspecified}/zones/${unspecified}/disks/${v.gcePersistentDisk!.pdName}`,
  },
  {
    inTreePluginName: AWSEBSInTreePluginName,
    csiDriverName: AWSEBSDriverName,
    canSupport: (s) => !!s.awsElasticBlockStore,
    canSupportInline: (v) => !!v.awsElasticBlockStore,
    pvVolumeHandle: (pv) => ebsHandle(pv.spec!.awsElasticBlockStore!.volumeID),
    inlineVolumeHandle: (v) => ebsHandle(v.awsElasticBlockStore!.volumeID),
  },
  {
    inTreePluginName: CinderInTreePluginName,
    csiDriverName: CinderDriverName,
    canSupport: (s) => !!s.cinder,
    canSupportInline: (v) => !!v.cinder,
    pvVolumeHandle: (pv) => pv.spec!.cinder!.volumeID,
    inlineVolumeHandle: (v) => v.cinder!.volumeID,
  },
  {
    inTreePluginName: AzureDiskInTreePluginName,
    csiDriverName: AzureDiskDriverName,
    canSupport: (s) => !!s.azureDisk,
    canSupportInline: (v) => !!v.azureDisk,
    pvVolumeHandle: (pv) => pv.spec!.azureDisk!.diskURI,
    inlineVolumeHandle: (v) => v.azureDisk!.diskURI,
  },
  {
    inTreePluginName: AzureFileInTreePluginName,
    csiDriverName: AzureFileDriverName,
    canSupport: (s) => !!s.azureFile,
    canSupportInline: (v) => !!v.azureFile,
  },
  {
    inTreePluginName: VSphereInTreePluginName,
    csiDriverName: VSphereDriverName,
    canSupport: (s) => !!s.vsphereVolume,
    canSupportInline: (v) => !!v.vsphereVolume,
  },
  {
    inTreePluginName: PortworxVolumePluginName,
    csiDriverName: PortworxDriverName,
    canSupport: (s) => !!s.portworxVolume,
    canSupportInline: (v) => !!v.portworxVolume,
    pvVolumeHandle: (pv) => pv.spec!.portworxVolume!.volumeID ?? '',
    inlineVolumeHandle: (v) => v.portworxVolume!.volumeID ?? '',
  },
];

/** The in-tree plugin of a PV (IsPVMigratable / GetInTreePluginNameFromSpec), if any. */
export function pluginForPV(pv: PersistentVolume): InTreePlugin | undefined {
  const spec = pv.spec;
  if (!spec) return undefined;
  for (const p of inTreePlugins) if (p.canSupport(spec)) return p;
  return undefined;
}

/** The in-tree plugin of a pod's inline volume (IsInlineMigratable), if any. */
export function pluginForInlineVolume(vol: Volume): InTreePlugin | undefined {
  for (const p of inTreePlugins) if (p.canSupportInline(vol)) return p;
  return undefined;
}

/** The in-tree plugin named `inTreePluginName` (IsMigratableIntreePluginByName), if any. */
export function pluginByInTreeName(inTreePluginName: string): InTreePlugin | undefined {
  for (const p of inTreePlugins) if (p.inTreePluginName === inTreePluginName) return p;
  return undefined;
}

/**
 * Whether volumes of an in-tree plugin count as CSI volumes on a node: never without a CSINode;
 * always for the plugins whose migration is GA; for Portworx (whose gate is on) only when the
 * CSINode lists it in the migrated-plugins annotation; never for the others.
 */
export function isCSIMigrationOn(csiNode: CSINode | null, pluginName: string): boolean {
  if (csiNode === null || pluginName === '') return false;
  switch (pluginName) {
    case AWSEBSInTreePluginName:
    case GCEPDInTreePluginName:
    case AzureDiskInTreePluginName:
    case CinderInTreePluginName:
      return true;
    case PortworxVolumePluginName:
      break;
    default:
      return false;
  }
  const migrated = csiNode.metadata?.annotations?.[MigratedPluginsAnnotationKey];
  if (!migrated) return false;
  return migrated.split(',').includes(pluginName);
}
