// Well-known storage annotations and the storage class lookups every volume plugin shares
// (component-helpers/storage/volume, pkg/controller/volume/persistentvolume/util).
import type { PersistentVolume, PersistentVolumeClaim } from './types.js';

export const AnnBindCompleted = 'pv.kubernetes.io/bind-completed';
export const AnnBoundByController = 'pv.kubernetes.io/bound-by-controller';
export const AnnSelectedNode = 'volume.kubernetes.io/selected-node';
export const AnnDynamicallyProvisioned = 'pv.kubernetes.io/provisioned-by';
export const AnnStorageProvisioner = 'volume.kubernetes.io/storage-provisioner';
export const AnnBetaStorageProvisioner = 'volume.beta.kubernetes.io/storage-provisioner';
export const BetaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';
/** A StorageClass provisioner meaning "no dynamic provisioning" (local volumes). */
export const NotSupportedProvisioner = 'kubernetes.io/no-provisioner';

/** The class a claim asks for: the beta annotation wins over spec.storageClassName; "" for none. */
export function getPersistentVolumeClaimClass(claim: PersistentVolumeClaim): string {
  const ann = claim.metadata?.annotations;
  if (ann && Object.prototype.hasOwnProperty.call(ann, BetaStorageClassAnnotation)) return ann[BetaStorageClassAnnotation]!;
  return claim.spec?.storageClassName ?? '';
}

/** The class of a volume, the beta annotation first. */
export function getPersistentVolumeClass(pv: PersistentVolume): string {
  const ann = pv.metadata?.annotations;
  if (ann && Object.prototype.hasOwnProperty.call(ann, BetaStorageClassAnnotation)) return ann[BetaStorageClassAnnotation]!;
  return pv.spec?.storageClassName ?? '';
}
