// One validation of objects, as kube-apiserver's: each kind's decoding (types, quantities, nulls)
// and its validation (pkg/apis/*/validation), shared by the scenario loader and the embedded API
// server, so an object either side accepts is one the other accepts too.
import { kindInfo, kindKey } from '../kinds.js';
import { goQuote } from '../labels.js';
import type { KubeObject, Node, Pod } from '../types.js';
import { checkDecoded, decodeObject, type DecodeIssue } from './decode.js';
import { aggregateFieldErrors, forbidden, required, type FieldError } from './field.js';
import { nameIsDNSSubdomain, nameIsPathSegment, validateObjectMeta } from './meta.js';
import { validateNamespace, validateService } from './core.js';
import { validateNode, validateNodeFields } from './node.js';
import { validatePod, validatePodSchedulingFields } from './pod.js';
import { validatePodDisruptionBudget, validatePriorityClass } from './policy.js';
import * as schema from './schema.js';
import { validateCSIDriver, validateCSINode, validateCSIStorageCapacity, validateStorageClass, validateVolumeAttachment } from './storage.js';
import { validatePersistentVolume, validatePersistentVolumeClaim } from './volumes.js';
import { validateAppsWorkload, validateJob, validateReplicationController } from './workloads.js';
import { validatePodUpdate } from './pod_update.js';
import { validatePodGroup, validatePodGroupUpdate, validateWorkload, validateWorkloadUpdate } from './scheduling.js';
import { validateCoschedulingPodGroup } from './coscheduling.js';
import { validateCustomResourceDefinition } from './crd.js';
import { validateCompositePodGroupStatusUpdate, validatePodGroupStatusUpdate } from './conditions.js';
import { validateCompositePodGroup, validateCompositePodGroupUpdate } from './composite_pod_group.js';
import type { CompositePodGroup, PodGroup } from '../scheduling.js';
import {
  validateDeviceClass, validateDeviceClassUpdate, validateDeviceTaintRule, validateDeviceTaintRuleUpdate, validateResourceClaim,
  validateResourceClaimStatusUpdate, validateResourceClaimTemplate, validateResourceClaimTemplateUpdate, validateResourceClaimUpdate,
  validateResourceSlice, validateResourceSliceUpdate,
} from './resource.js';
import { applyResourceDefaults, hasResourceDefaults } from './resource_defaults.js';

export { decodeObject, documentProblem, maxNestingDepth } from './decode.js';
export { kindStruct, pruneUnknownFields, strictDecodingError, unknownFields } from './unknown_fields.js';
export { systemPriorityClassObjects } from './policy.js';
export * from './field.js';
export { validateAnnotations, validateLabels } from './meta.js';
export { defaultPodUpdate, jsonEqual, validatePodStatusNomination } from './pod_update.js';
export * as shapes from './schema.js';
export { applyResourceDefaults, dropDeallocatedStatusDevices } from './resource_defaults.js';

/** What validation knows of a kind. */
export interface KindValidation {
  /** The kinds table's key (api/kinds.ts): the kind, or "Kind.group" for a custom resource. */
  readonly key: string;
  readonly kind: string;
  /** The group/version the kind is read as ("v1", "apps/v1"). */
  readonly apiVersion: string;
  readonly namespaced: boolean;
  /** The resource as API errors name it: "pods", "priorityclasses.scheduling.k8s.io". */
  readonly resource: string;
  readonly shape: schema.StructShape;
  /** Validation of a new object (the kind's Validate<Kind>). */
  readonly validate: (obj: KubeObject) => FieldError[];
  /** Further rules for an update, given the stored object (ValidateObjectMetaUpdate is the caller's). */
  readonly validateUpdate?: (oldObj: KubeObject, newObj: KubeObject) => FieldError[];
  /** The rules of a write to the status subresource, given the stored object, where the kind has its own. */
  readonly validateStatusUpdate?: (oldObj: KubeObject, newObj: KubeObject) => FieldError[];
}

type Validator = (obj: never) => FieldError[];

/** The plural resource of a kind, qualified by its group (schema.GroupResource.String()). */
function resourceOf(key: string): string {
  const { plural, apiVersion } = kindInfo(key);
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? plural : `${plural}.${apiVersion.slice(0, slash)}`;
}

function kind(key: string, shape: schema.StructShape, validate: Validator,
  validateUpdate?: (oldObj: never, newObj: never) => FieldError[]): KindValidation {
  const info = kindInfo(key);
  return {
    key: kindKey(info), kind: info.kind, apiVersion: info.apiVersion, namespaced: info.namespaced, resource: resourceOf(key), shape,
    validate: validate as (obj: KubeObject) => FieldError[], validateUpdate: validateUpdate as KindValidation['validateUpdate'],
  };
}

/** Kinds validated by their metadata only: we do not read their spec. */
function metadataKind(kindName: string, nameFn = nameIsDNSSubdomain): KindValidation {
  const { namespaced } = kindInfo(kindName);
  return kind(kindName, schema.metadataOnly(`v1.${kindName}`), (o: KubeObject) => validateObjectMeta(o.metadata ?? {}, namespaced, nameFn));
}

/**
 * `obj` as kind `kindName` with the API server's defaults (validation sees defaulted objects): a
 * defaulted copy, or `obj` itself when it has them already (every write of the embedded cluster
 * validates the stored object and one it defaulted; validation only reads).
 */
function defaulted<T>(kindName: string, obj: KubeObject): T {
  if (obj.kind === kindName && hasResourceDefaults(obj)) return obj as T;
  const copy = { ...structuredClone(obj), kind: kindName };
  applyResourceDefaults(copy);
  return copy as T;
}

/** A resource.k8s.io/v1 kind: validated as defaulted, as the API server validates after decoding. */
function draKind<T>(kindName: string, shape: schema.StructShape, validate: (o: T) => FieldError[],
  validateUpdate: (oldObj: T, newObj: T) => FieldError[]): KindValidation {
  const { apiVersion, namespaced } = kindInfo(kindName);
  return {
    key: kindName, kind: kindName, apiVersion, namespaced, resource: resourceOf(kindName), shape,
    validate: (o) => validate(defaulted<T>(kindName, o)),
    validateUpdate: (o, n) => validateUpdate(defaulted<T>(kindName, o), defaulted<T>(kindName, n)),
  };
}

const priorityClassUpdate = (oldPc: { value?: number; preemptionPolicy?: string }, newPc: { value?: number; preemptionPolicy?: string }): FieldError[] => {
  const errs: FieldError[] = [];
  if ((oldPc.value ?? 0) !== (newPc.value ?? 0)) errs.push(forbidden('value', 'may not be changed in an update.'));
  if (oldPc.preemptionPolicy !== newPc.preemptionPolicy) errs.push({ type: 'FieldValueInvalid', field: 'preemptionPolicy', value: newPc.preemptionPolicy ?? null, detail: 'field is immutable' });
  return errs;
};

const table: readonly KindValidation[] = [
  kind('Pod', schema.pod, validatePod, validatePodUpdate),
  kind('Node', schema.node, validateNode),
  kind('Namespace', schema.namespace, validateNamespace),
  kind('Service', schema.service, validateService),
  kind('PersistentVolume', schema.persistentVolume, validatePersistentVolume),
  kind('PersistentVolumeClaim', schema.persistentVolumeClaim, validatePersistentVolumeClaim),
  kind('ReplicationController', schema.replicationController, validateReplicationController),
  kind('ReplicaSet', schema.replicaSet, (o: KubeObject) => validateAppsWorkload('ReplicaSet', o)),
  kind('StatefulSet', schema.statefulSet, (o: KubeObject) => validateAppsWorkload('StatefulSet', o)),
  kind('Deployment', schema.deployment, (o: KubeObject) => validateAppsWorkload('Deployment', o)),
  kind('DaemonSet', schema.daemonSet, (o: KubeObject) => validateAppsWorkload('DaemonSet', o)),
  kind('Job', schema.job, validateJob),
  kind('PodDisruptionBudget', schema.podDisruptionBudget, validatePodDisruptionBudget),
  kind('PriorityClass', schema.priorityClass, validatePriorityClass, priorityClassUpdate),
  kind('Workload', schema.workload, validateWorkload, validateWorkloadUpdate),
  { ...kind('PodGroup', schema.podGroup, validatePodGroup, validatePodGroupUpdate),
    validateStatusUpdate: (o: KubeObject, n: KubeObject) => validatePodGroupStatusUpdate(o as unknown as PodGroup, n as unknown as PodGroup) },
  { ...kind('CompositePodGroup', schema.compositePodGroup, validateCompositePodGroup, validateCompositePodGroupUpdate),
    validateStatusUpdate: (o: KubeObject, n: KubeObject) => validateCompositePodGroupStatusUpdate(o as unknown as CompositePodGroup, n as unknown as CompositePodGroup) },
  kind('StorageClass', schema.storageClass, validateStorageClass),
  kind('CSINode', schema.csiNode, validateCSINode),
  kind('CSIDriver', schema.csiDriver, validateCSIDriver),
  kind('CSIStorageCapacity', schema.csiStorageCapacity, validateCSIStorageCapacity),
  kind('VolumeAttachment', schema.volumeAttachment, validateVolumeAttachment),
  draKind('DeviceClass', schema.deviceClass, validateDeviceClass, validateDeviceClassUpdate),
  draKind('ResourceSlice', schema.resourceSlice, validateResourceSlice, validateResourceSliceUpdate),
  { ...draKind('ResourceClaim', schema.resourceClaim, validateResourceClaim, validateResourceClaimUpdate),
    validateStatusUpdate: (o: KubeObject, n: KubeObject) => validateResourceClaimStatusUpdate(defaulted('ResourceClaim', o), defaulted('ResourceClaim', n)) as FieldError[] },
  draKind('ResourceClaimTemplate', schema.resourceClaimTemplate, validateResourceClaimTemplate, validateResourceClaimTemplateUpdate),
  draKind('DeviceTaintRule', schema.deviceTaintRule, validateDeviceTaintRule, validateDeviceTaintRuleUpdate),
  metadataKind('Event', nameIsPathSegment),
  metadataKind('Lease'),
  { ...kind('PodGroup.scheduling.x-k8s.io', schema.coschedulingPodGroup, validateCoschedulingPodGroup), validateStatusUpdate: () => [] },
  { ...kind('CustomResourceDefinition', schema.customResourceDefinition, validateCustomResourceDefinition), validateStatusUpdate: () => [] },
];

const byKey = new Map(table.map((k) => [k.key, k]));

/** What validation knows of the kind keyed `key` (api/kinds.ts: "Pod", "PodGroup.scheduling.x-k8s.io"). */
export function kindValidation(key: string): KindValidation | undefined {
  return byKey.get(key);
}

/** The outcome of checking one object the way the API server would before storing it. */
export type Checked<T> =
  | { readonly ok: true; readonly object: T }
  /** Decoding refused it: the API's 400 BadRequest. */
  | { readonly ok: false; readonly decode: DecodeIssue; readonly errors: readonly FieldError[] }
  /** Validation refused it: the API's 422 Invalid with these causes. */
  | { readonly ok: false; readonly decode: null; readonly errors: readonly FieldError[] };

function check<T extends KubeObject>(k: KindValidation, value: unknown, prepare: ((obj: T) => T) | undefined, oldObj: KubeObject | null): Checked<T> {
  const decoded = decodeObject<T>(k.shape, value);
  if (!decoded.ok) return { ok: false, decode: decoded.issue, errors: [decoded.issue.error] };
  const obj = prepare ? prepare(decoded.value) : decoded.value;
  const errors = k.validate(obj);
  if (oldObj !== null && k.validateUpdate) errors.push(...k.validateUpdate(oldObj, obj));
  return errors.length > 0 ? { ok: false, decode: null, errors } : { ok: true, object: obj };
}

/** Decodes then validates a new object of `kind`; `prepare` runs in between (defaulting, admission mutations). */
export function checkCreate<T extends KubeObject>(k: KindValidation, value: unknown, prepare?: (obj: T) => T): Checked<T> {
  return check(k, value, prepare, null);
}

/** Like checkCreate, plus the kind's update rules against the stored object. */
export function checkUpdate<T extends KubeObject>(k: KindValidation, oldObj: KubeObject, value: unknown, prepare?: (obj: T) => T): Checked<T> {
  return check(k, value, prepare, oldObj);
}

/** Objects as an API server sent them (list or watch): it decoded and validated them before storing. */
const fromApiServer = new WeakSet<object>();

/**
 * Marks `obj` as received from an API server, so the checks below pass it without walking it, as
 * upstream's scheduler trusts its informers: at 5000 nodes and 5000 pods the walk cost `run`'s
 * start about 0.1 s of CPU. Only for objects exactly as the server sent them.
 */
export function markFromApiServer(obj: object): void {
  fromApiServer.add(obj);
}

/**
 * Why a scheduler cannot trust `pod`, as the API server would have refused it, or null: the fields
 * the scheduler reads, typed and valid (objects marked as from an API server pass unchecked; this
 * guards against scenario files and library callers that built the object themselves). Quantities
 * are only checked to be strings or numbers unless `parseQuantities`: the caller parses them
 * anyway, and asks again with it for the message when one fails.
 */
export function podSchedulingProblem(pod: Pod, parseQuantities = false): string | null {
  if (fromApiServer.has(pod)) return null;
  const issue = checkDecoded(schema.podSchedulingView, pod, parseQuantities);
  const errs = issue !== null ? [issue.error] : validatePodSchedulingFields(pod);
  if (errs.length === 0) return null;
  return `Pod ${goQuote(pod.metadata?.name ?? '')} is invalid: ${aggregateFieldErrors(errs)}`;
}

/** Why a scheduler cannot trust `node` (see podSchedulingProblem), or null. */
export function nodeSchedulingProblem(node: Node): string | null {
  if (fromApiServer.has(node)) return null;
  const issue = checkDecoded(schema.nodeSchedulingView, node);
  const errs = issue !== null ? [issue.error] : validateNodeFields(node);
  if (issue === null && !node.metadata?.name) errs.push(required('metadata.name', 'name or generateName is required'));
  if (errs.length === 0) return null;
  return `Node ${goQuote(node.metadata?.name ?? '')} is invalid: ${aggregateFieldErrors(errs)}`;
}

/** Every kind validation knows, by key, sorted: what a scenario or the API may hold. */
export function knownKinds(): string[] {
  return table.map((k) => k.key).sort();
}
