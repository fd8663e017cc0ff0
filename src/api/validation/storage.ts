// storage.k8s.io/v1 objects as the API server validates them (pkg/apis/storage/validation/
// validation.go: StorageClass, CSINode, CSIDriver, CSIStorageCapacity, VolumeAttachment).
import { qualifiedNameErrors } from '../labels.js';
import type { CSIDriver, CSINode, CSIStorageCapacity, StorageClass, VolumeAttachment } from '../types.js';
import { child, duplicate, forbidden, index, invalid, notSupported, required, tooLong, type FieldError } from './field.js';
import { nameIsDNSSubdomain, validateLabelName, validateLabelSelector, validateObjectMeta, type NameValidator } from './meta.js';
import { validateNonnegativeQuantity } from './resources.js';

const maxNameLength = 63;

/** ValidateCSIDriverName: required, at most 63 characters, a DNS subdomain ignoring case. */
function validateCSIDriverName(name: string | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const n = name ?? '';
  if (n === '') errs.push(required(path));
  if (n.length > maxNameLength) errs.push(tooLong(path, maxNameLength));
  for (const m of nameIsDNSSubdomain(n.toLowerCase(), false)) errs.push(invalid(path, n, m));
  return errs;
}

const csiDriverNameValidator: NameValidator = (name) => {
  const msgs = nameIsDNSSubdomain(name.toLowerCase(), false);
  return name.length > maxNameLength ? [`must be no more than ${maxNameLength} characters`, ...msgs] : msgs;
};

export function validateStorageClass(sc: StorageClass): FieldError[] {
  const errs = validateObjectMeta(sc.metadata ?? {}, false, nameIsDNSSubdomain);
  const provisioner = sc.provisioner ?? '';
  if (provisioner === '') errs.push(required('provisioner'));
  else {
    if (provisioner.length > maxNameLength) errs.push(tooLong('provisioner', maxNameLength));
    for (const m of qualifiedNameErrors(provisioner.toLowerCase())) errs.push(invalid('provisioner', provisioner, m));
  }
  for (const k of Object.keys(sc.parameters ?? {})) if (k === '') errs.push(invalid('parameters', k, 'field can not be empty.'));
  if (sc.reclaimPolicy !== undefined && sc.reclaimPolicy !== 'Delete' && sc.reclaimPolicy !== 'Retain') {
    errs.push(notSupported('reclaimPolicy', sc.reclaimPolicy, ['Delete', 'Retain']));
  }
  if (sc.volumeBindingMode !== undefined && sc.volumeBindingMode !== 'Immediate' && sc.volumeBindingMode !== 'WaitForFirstConsumer') {
    errs.push(notSupported('volumeBindingMode', sc.volumeBindingMode, ['Immediate', 'WaitForFirstConsumer']));
  }
  const terms = sc.allowedTopologies ?? [];
  for (let i = 0; i < terms.length; i++) {
    const tp = index('allowedTopologies', i);
    const exprs = terms[i]!.matchLabelExpressions ?? [];
    if (exprs.length === 0) errs.push(required(child(tp, 'matchLabelExpressions'), 'must have at least one label requirement'));
    const keys = new Set<string>();
    for (let j = 0; j < exprs.length; j++) {
      const ep = index(child(tp, 'matchLabelExpressions'), j);
      const e = exprs[j]!;
      errs.push(...validateLabelName(e.key ?? '', child(ep, 'key')));
      if (keys.has(e.key ?? '')) errs.push(duplicate(child(ep, 'key'), e.key ?? ''));
      keys.add(e.key ?? '');
      const values = e.values ?? [];
      if (values.length === 0) errs.push(required(child(ep, 'values')));
      const seen = new Set<string>();
      values.forEach((v, k) => {
        if (seen.has(v)) errs.push(duplicate(index(child(ep, 'values'), k), v));
        seen.add(v);
      });
    }
  }
  return errs;
}

export function validateCSINode(n: CSINode): FieldError[] {
  const errs = validateObjectMeta(n.metadata ?? {}, false, nameIsDNSSubdomain);
  const drivers = n.spec?.drivers ?? [];
  const names = new Set<string>();
  for (let i = 0; i < drivers.length; i++) {
    const d = drivers[i]!;
    const p = index('spec.drivers', i);
    errs.push(...validateCSIDriverName(d.name, child(p, 'name')));
    if (d.name && names.has(d.name)) errs.push(duplicate(child(p, 'name'), d.name));
    names.add(d.name ?? '');
    if (!d.nodeID) errs.push(required(child(p, 'nodeID')));
    (d.topologyKeys ?? []).forEach((k, j) => errs.push(...validateLabelName(k, index(child(p, 'topologyKeys'), j))));
    const count = d.allocatable?.count;
    if (count !== undefined && count < 0) errs.push(invalid(child(child(p, 'allocatable'), 'count'), count, 'must be greater than or equal to 0'));
  }
  return errs;
}

const lifecycleModes = ['Ephemeral', 'Persistent'];
const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];

export function validateCSIDriver(d: CSIDriver): FieldError[] {
  const errs = validateObjectMeta(d.metadata ?? {}, false, csiDriverNameValidator);
  (d.spec?.volumeLifecycleModes ?? []).forEach((m, i) => {
    if (!lifecycleModes.includes(m)) errs.push(notSupported(index('spec.volumeLifecycleModes', i), m, lifecycleModes));
  });
  const policy = d.spec?.fsGroupPolicy;
  if (policy !== undefined && !fsGroupPolicies.includes(policy)) errs.push(notSupported('spec.fsGroupPolicy', policy, fsGroupPolicies));
  return errs;
}

export function validateCSIStorageCapacity(c: CSIStorageCapacity): FieldError[] {
  const errs = validateObjectMeta(c.metadata ?? {}, true, nameIsDNSSubdomain);
  errs.push(...validateLabelSelector(c.nodeTopology, 'nodeTopology'));
  if (!c.storageClassName) errs.push(required('storageClassName'));
  else for (const m of nameIsDNSSubdomain(c.storageClassName, false)) errs.push(invalid('storageClassName', c.storageClassName, m));
  if (c.capacity !== undefined) errs.push(...validateNonnegativeQuantity(c.capacity, 'capacity'));
  if (c.maximumVolumeSize !== undefined) errs.push(...validateNonnegativeQuantity(c.maximumVolumeSize, 'maximumVolumeSize'));
  return errs;
}

export function validateVolumeAttachment(va: VolumeAttachment): FieldError[] {
  const errs = validateObjectMeta(va.metadata ?? {}, false, nameIsDNSSubdomain);
  errs.push(...validateCSIDriverName(va.spec?.attacher, 'spec.attacher'));
  const source = va.spec?.source ?? {};
  const byName = source.persistentVolumeName !== undefined && source.persistentVolumeName !== '';
  const inline = source.inlineVolumeSpec !== undefined;
  if (byName === inline) errs.push(required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName'));
  if (byName) for (const m of nameIsDNSSubdomain(source.persistentVolumeName!, false)) errs.push(invalid('spec.source.persistentVolumeName', source.persistentVolumeName, m));
  const nodeName = va.spec?.nodeName ?? '';
  if (nodeName === '') errs.push(required('spec.nodeName'));
  else for (const m of nameIsDNSSubdomain(nodeName, false)) errs.push(invalid('spec.nodeName', nodeName, m));
  if (va.status?.attachmentMetadata && !va.status.attached) errs.push(forbidden('status.attachmentMetadata', 'may not be set when attached is false'));
  return errs;
}
