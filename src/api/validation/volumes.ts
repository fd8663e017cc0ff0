// PersistentVolumes and PersistentVolumeClaims as the API server validates them
// (pkg/apis/core/validation/validation.go ValidatePersistentVolume, ValidatePersistentVolumeClaim).
import type { PersistentVolume, PersistentVolumeClaim } from '../types.js';
import { child, forbidden, invalid, key, notSupported, required, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateLabelSelector, validateObjectMeta } from './meta.js';
import { validatePositiveQuantity, validateResourceQuantityValue } from './resources.js';
import { validateNodeSelector } from './scheduling_constraints.js';

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const volumeModes = ['Block', 'Filesystem'];

function validateAccessModes(modes: readonly string[] | undefined, path: string, detail: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!modes || modes.length === 0) return [required(path, detail)];
  let rwop = false;
  let other = false;
  for (const m of modes) {
    if (!accessModes.includes(m)) errs.push(notSupported(path, m, accessModes));
    else if (m === 'ReadWriteOncePod') rwop = true;
    else other = true;
  }
  if (rwop && other) errs.push(forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function validateClassName(name: string | undefined, path: string): FieldError[] {
  return name ? nameIsDNSSubdomain(name, false).map((m) => invalid(path, name, m)) : [];
}

type ClaimSpec = NonNullable<PersistentVolumeClaim['spec']>;

/** ValidatePersistentVolumeClaimSpec. */
export function validatePersistentVolumeClaimSpec(spec: ClaimSpec, path: string): FieldError[] {
  const errs = validateAccessModes(spec.accessModes, child(path, 'accessModes'), 'at least 1 access mode is required');
  errs.push(...validateLabelSelector(spec.selector, child(path, 'selector')));
  const storagePath = key(child(path, 'resources'), 'storage');
  const storage = spec.resources?.requests?.storage;
  if (storage === undefined) {
    errs.push(required(storagePath));
  } else {
    const positive = validatePositiveQuantity(storage, storagePath);
    errs.push(...(positive.length > 0 ? positive : validateResourceQuantityValue('storage', storage, storagePath)));
  }
  errs.push(...validateClassName(spec.storageClassName, child(path, 'storageClassName')));
  if (spec.volumeMode !== undefined && !volumeModes.includes(spec.volumeMode)) errs.push(notSupported(child(path, 'volumeMode'), spec.volumeMode, volumeModes));
  return errs;
}

export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): FieldError[] {
  return [...validateObjectMeta(pvc.metadata ?? {}, true, nameIsDNSSubdomain), ...validatePersistentVolumeClaimSpec(pvc.spec ?? {}, 'spec')];
}

/** Volume sources a PersistentVolume may name; exactly one. */
const pvSources = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'flocker', 'nfs', 'rbd', 'quobyte', 'cephfs', 'iscsi', 'cinder', 'fc',
  'flexVolume', 'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'scaleIO', 'local', 'storageos', 'csi',
];

/** ValidatePersistentVolume. */
export function validatePersistentVolume(pv: PersistentVolume): FieldError[] {
  const errs = validateObjectMeta(pv.metadata ?? {}, false, nameIsDNSSubdomain);
  const spec = (pv.spec ?? {}) as NonNullable<PersistentVolume['spec']> & Record<string, unknown>;
  errs.push(...validateAccessModes(spec.accessModes, 'spec.accessModes', ''));
  const capacity = spec.capacity ?? {};
  const names = Object.keys(capacity);
  if (names.length === 0) errs.push(required('spec.capacity'));
  if (capacity.storage === undefined || names.length > 1) errs.push(notSupported('spec.capacity', capacity, ['storage']));
  for (const n of names) {
    const p = key('spec.capacity', n);
    errs.push(...validatePositiveQuantity(capacity[n]!, p));
  }
  if (spec.persistentVolumeReclaimPolicy && !reclaimPolicies.includes(spec.persistentVolumeReclaimPolicy)) {
    errs.push(notSupported('spec.persistentVolumeReclaimPolicy', spec.persistentVolumeReclaimPolicy, reclaimPolicies));
  }
  let nodeAffinity = false;
  if (spec.nodeAffinity) {
    nodeAffinity = true;
    if (spec.nodeAffinity.required) errs.push(...validateNodeSelector(spec.nodeAffinity.required, 'spec.nodeAffinity.required'));
    else errs.push(required('spec.nodeAffinity.required', 'must specify required node constraints'));
  }
  let sources = 0;
  for (const s of pvSources) {
    if (spec[s] === undefined || spec[s] === null) continue;
    if (sources > 0) errs.push(forbidden(child('spec', s), 'may not specify more than 1 volume type'));
    sources++;
  }
  if (sources === 0) errs.push(required('spec', 'must specify a volume type'));
  if (spec.local && !nodeAffinity) errs.push(required('spec.nodeAffinity', 'Local volume requires node affinity'));
  if (spec.local && !spec.local.path) errs.push(required('spec.local.path'));
  if (spec.hostPath && !spec.hostPath.path) errs.push(required('spec.hostPath.path'));
  if (spec.csi) {
    if (!spec.csi.driver) errs.push(required('spec.csi.driver'));
    if (!spec.csi.volumeHandle) errs.push(required('spec.csi.volumeHandle'));
  }
  errs.push(...validateClassName(spec.storageClassName, 'spec.storageClassName'));
  if (spec.volumeMode !== undefined && !volumeModes.includes(spec.volumeMode)) errs.push(notSupported('spec.volumeMode', spec.volumeMode, volumeModes));
  return errs;
}
