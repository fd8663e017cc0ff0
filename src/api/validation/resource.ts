// resource.k8s.io/v1 objects as the API server validates them (pkg/apis/resource/validation/
// validation.go at v1.37.2): DeviceClass, ResourceClaim (spec, status), ResourceClaimTemplate,
// ResourceSlice, DeviceTaintRule. Objects are validated as the API server sees them: defaulted
// first (resource_defaults.ts).
import { labelValueErrors, qualifiedNameErrors } from '../labels.js';
import type {
  AllocationResult, Device, DeviceAttribute, DeviceClaim, DeviceClass, DeviceConfiguration, DeviceConstraint, DeviceRequest,
  DeviceSelector, DeviceSubRequest, DeviceTaint, DeviceTaintRule, DeviceToleration, ExactDeviceRequest, ResourceClaim,
  ResourceClaimSpec, ResourceClaimStatus, ResourceClaimTemplate, ResourceSlice, ResourceSliceSpec,
} from '../dra_types.js';
import { child, duplicate, forbidden, index, invalid, key, notSupported, required, tooLong, Unquoted, type FieldError } from './field.js';
import { dns1123LabelErrors, nameIsDNSSubdomain, validateLabelName, validateObjectMeta, validateTemplateMeta } from './meta.js';
import { jsonEqual } from './pod_update.js';
import { compileDeviceSelector } from './resource_cel.js';
import { validateNodeSelector } from './scheduling_constraints.js';

// Limits of pkg/apis/resource/types.go.
const DriverNameMaxLength = 63;
const PoolNameMaxLength = 253;
const DeviceRequestsMaxSize = 32;
const DeviceConstraintsMaxSize = 32;
const DeviceConfigMaxSize = 32;
const DeviceSelectorsMaxSize = 32;
const FirstAvailableDeviceRequestMaxSize = 8;
const DeviceTolerationsMaxLength = 16;
const DeviceTaintsMaxLength = 16;
const AllocationResultsMaxSize = 32;
const ResourceClaimReservedForMaxSize = 256;
const ResourceSliceMaxDevices = 128;
const ResourceSliceMaxDevicesWithAdvancedFeatures = 64;
const ResourceSliceMaxCounterSets = 8;
const ResourceSliceMaxCountersPerCounterSet = 32;
const ResourceSliceMaxDeviceCounterConsumptionsPerDevice = 2;
const ResourceSliceMaxCountersPerDeviceCounterConsumption = 32;
const ResourceSliceMaxAttributesAndCapacitiesPerDevice = 32;
const ResourceSliceMaxAttributeValuesPerDevice = 48;
const DeviceAttributeMaxValueLength = 64;
const DeviceMaxDomainLength = 63;
const DeviceMaxIDLength = 32;
const BindingConditionsMaxSize = 4;
const CELSelectorExpressionMaxLength = 10 * 1024;
const CELSelectorExpressionMaxCost = 1_000_000;
const OpaqueParametersMaxLength = 10 * 1024;
const attributeAndCapacityMaxKeyLength = DeviceMaxDomainLength + 1 + DeviceMaxIDLength;

const cIdentifierRe = /^[A-Za-z_][A-Za-z0-9_]*$/;
const cIdentifierMsg =
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";
const semverRe = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;
const deviceTaintEffects = ['NoExecute', 'NoSchedule', 'None'];
const requestRefMsg = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

/** field.TooMany: the number of items and the limit. */
function tooMany(path: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field: path, value: actual, detail: `must have at most ${max} items` };
}

function immutable(path: string, value: unknown, old: unknown): FieldError[] {
  return jsonEqual(value ?? null, old ?? null) ? [] : [invalid(path, value ?? null, 'field is immutable')];
}

const dns1123Label = (value: string, path: string): FieldError[] => dns1123LabelErrors(value).map((m) => invalid(path, value, m));
const dns1123Subdomain = (value: string, path: string): FieldError[] => nameIsDNSSubdomain(value, false).map((m) => invalid(path, value, m));

/** corevalidation.ValidateCSIDriverName: the driver names DRA uses. */
function validateDriverName(name: string | undefined, path: string): FieldError[] {
  const n = name ?? '';
  if (n === '') return [required(path)];
  const errs: FieldError[] = [];
  if (n.length > DriverNameMaxLength) errs.push(tooLong(path, DriverNameMaxLength));
  for (const m of nameIsDNSSubdomain(n.toLowerCase(), false)) errs.push(invalid(path, n, m));
  return errs;
}

function validatePoolName(name: string | undefined, path: string): FieldError[] {
  const n = name ?? '';
  if (n === '') return [required(path)];
  const errs: FieldError[] = [];
  if (n.length > PoolNameMaxLength) errs.push(tooLong(path, PoolNameMaxLength));
  for (const part of n.split('/')) errs.push(...dns1123Subdomain(part, path));
  return errs;
}

/** Declarative validation's format=k8s-resource-pool-name, where it has taken the check over (allocation results). */
function validatePoolNameDeclarative(name: string | undefined, path: string): FieldError[] {
  const n = name ?? '';
  if (n === '') return [required(path)];
  const errs: FieldError[] = [];
  if (n.length > PoolNameMaxLength) errs.push(tooLong(path, PoolNameMaxLength));
  n.split('/').forEach((part, i) => {
    if (part === '') errs.push(invalid(path, n, `segment ${i}: must not be empty`));
    else for (const m of nameIsDNSSubdomain(part, false)) errs.push(invalid(path, part, `segment ${i}: ${m}`));
  });
  return errs;
}

function validateUID(uid: string, path: string): FieldError[] {
  if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(uid)) {
    return [invalid(path, uid, `error validating uid: invalid UUID length: ${uid.length}`)];
  }
  return uid === uid.toLowerCase() ? [] : [invalid(path, uid, 'uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters')];
}

function validateCIdentifier(id: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (id.length > DeviceMaxIDLength) errs.push(tooLong(path, DeviceMaxIDLength));
  if (!cIdentifierRe.test(id)) errs.push(invalid(path, id, cIdentifierMsg));
  return errs;
}

/** An attribute or capacity name: `id` or `domain/id`. */
function validateQualifiedName(name: string, path: string): FieldError[] {
  const parts = name.split('/');
  if (parts.length === 1) return validateCIdentifier(parts[0]!, path);
  if (parts.length !== 2) return [];
  const errs: FieldError[] = [];
  if (parts[0] === '') errs.push(invalid(path, '', 'the domain must not be empty'));
  else errs.push(...validateDriverName(parts[0], path));
  if (parts[1] === '') errs.push(invalid(path, '', 'the name must not be empty'));
  else errs.push(...validateCIdentifier(parts[1]!, path));
  return errs;
}

function validateFullyQualifiedName(name: string, path: string): FieldError[] {
  const errs = validateQualifiedName(name, path);
  if (!name.includes('/')) errs.push(invalid(path, name, 'a fully qualified name must be a domain and a name separated by a slash'));
  return errs;
}

/** validateSlice: at most `max` items (the only error when exceeded), each valid. */
function validateList<T>(items: readonly T[] | undefined, max: number, path: string, each: (item: T, p: string) => FieldError[]): FieldError[] {
  const list = items ?? [];
  if (max >= 0 && list.length > max) return [tooMany(path, list.length, max)];
  const errs: FieldError[] = [];
  for (let i = 0; i < list.length; i++) errs.push(...each(list[i]!, index(path, i)));
  return errs;
}

/**
 * validateSet: validateList plus no two items with the same key. A duplicate shows its key, or
 * with `showItem` the whole item (declarative validation's wording for lists keyed by a field).
 */
function validateSet<T>(items: readonly T[] | undefined, max: number, path: string, each: (item: T, p: string) => FieldError[], keyOf: (item: T) => string,
  showItem = false): FieldError[] {
  const list = items ?? [];
  if (max >= 0 && list.length > max) return [tooMany(path, list.length, max)];
  const errs = validateList(list, -1, path, each);
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const k = keyOf(list[i]!);
    if (seen.has(k)) errs.push(duplicate(index(path, i), showItem ? list[i] : k));
    else seen.add(k);
  }
  return errs;
}

/** Keys longer than the limit are shortened in the middle in paths (truncateIfTooLong). */
function truncatedKey(k: string, maxLen: number): string {
  const limit = Math.max(maxLen, 16);
  if (k.length <= limit) return k;
  const remaining = limit - 3;
  return `${k.slice(0, Math.floor((remaining + 1) / 2))}...${k.slice(k.length - Math.floor(remaining / 2))}`;
}

function validateMap<T>(m: Readonly<Record<string, T>> | undefined, max: number, keyLen: number, path: string,
  validateKey: (k: string, p: string) => FieldError[], each: (item: T, p: string) => FieldError[]): FieldError[] {
  const entries = Object.entries(m ?? {});
  if (max >= 0 && entries.length > max) return [tooMany(path, entries.length, max)];
  const errs: FieldError[] = [];
  for (const [k, v] of entries) {
    errs.push(...validateKey(k, path));
    errs.push(...each(v, key(path, truncatedKey(k, keyLen))));
  }
  return errs;
}

// ---- claims

/** Request names and, for firstAvailable requests, their subrequest names. */
type RequestNames = ReadonlyMap<string, ReadonlySet<string> | null>;

function gatherRequestNames(claim: DeviceClaim | undefined): RequestNames {
  const names = new Map<string, ReadonlySet<string> | null>();
  for (const r of claim?.requests ?? []) {
    names.set(r.name, (r.firstAvailable?.length ?? 0) === 0 ? null : new Set(r.firstAvailable!.map((s) => s.name)));
  }
  return names;
}

function hasRequest(names: RequestNames, ref: string): boolean {
  const segments = ref.split('/');
  if (segments.length > 2 || !names.has(segments[0]!)) return false;
  return segments.length === 1 || (names.get(segments[0]!)?.has(segments[1]!) ?? false);
}

function validateRequestNameRef(ref: string, path: string, names: RequestNames): FieldError[] {
  const segments = ref.split('/');
  if (segments.length > 2) return [invalid(path, ref, requestRefMsg)];
  const errs: FieldError[] = [];
  for (const s of segments) errs.push(...dns1123Label(s, path));
  if (!hasRequest(names, ref)) errs.push(invalid(path, ref, requestRefMsg));
  return errs;
}

function validateCELExpression(expression: string, path: string, stored: boolean): FieldError[] {
  // A stored expression was valid when it was stored (validation is relaxed, never tightened, for it).
  if (stored) return [];
  if (expression.length > CELSelectorExpressionMaxLength) return [tooLong(path, CELSelectorExpressionMaxLength)];
  const result = compileDeviceSelector(expression);
  if (result.error) {
    return [result.error.type === 'Invalid'
      ? invalid(path, expression, result.error.detail)
      : { type: 'InternalError', field: path, detail: result.error.detail }];
  }
  return result.maxCost > CELSelectorExpressionMaxCost ? [forbidden(path, 'too complex, exceeds cost limit')] : [];
}

function validateSelectors(selectors: readonly DeviceSelector[] | undefined, path: string, stored: boolean): FieldError[] {
  return validateList(selectors, DeviceSelectorsMaxSize, path, (s, p) =>
    s.cel === undefined ? [required(child(p, 'cel'))] : validateCELExpression(s.cel.expression ?? '', child(child(p, 'cel'), 'expression'), stored));
}

function validateDeviceClassName(name: string | undefined, path: string): FieldError[] {
  return !name ? [required(path)] : dns1123Subdomain(name, path);
}

function validateAllocationMode(mode: string | undefined, count: number | undefined, path: string): FieldError[] {
  const c = count ?? 0;
  switch (mode) {
    case 'All':
      return c !== 0 ? [invalid(child(path, 'count'), c, "must not be specified when allocationMode is 'All'")] : [];
    case 'ExactCount':
      return c <= 0 ? [invalid(child(path, 'count'), c, 'must be greater than zero')] : [];
    default:
      return [notSupported(child(path, 'allocationMode'), mode ?? '', ['All', 'ExactCount'])];
  }
}

function validateLabelValueAt(value: string, path: string): FieldError[] {
  return labelValueErrors(value).map((m) => invalid(path, value, m));
}

function validateDeviceToleration(t: DeviceToleration, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (t.key) errs.push(...validateLabelName(t.key, child(path, 'key')));
  switch (t.operator) {
    case 'Exists':
      if (t.value) errs.push(invalid(child(path, 'value'), t.value, 'must be empty for operator `Exists`'));
      break;
    case 'Equal':
      errs.push(...validateLabelValueAt(t.value ?? '', child(path, 'value')));
      break;
    case undefined:
      errs.push(required(child(path, 'operator')));
      break;
    default:
      errs.push(notSupported(child(path, 'operator'), t.operator, ['Equal', 'Exists']));
  }
  if (t.effect && !deviceTaintEffects.includes(t.effect)) errs.push(notSupported(child(path, 'effect'), t.effect, deviceTaintEffects));
  return errs;
}

function validateTolerations(tolerations: readonly DeviceToleration[] | undefined, path: string): FieldError[] {
  return validateList(tolerations, DeviceTolerationsMaxLength, path, validateDeviceToleration);
}

type RequestFields = Pick<ExactDeviceRequest, 'deviceClassName' | 'selectors' | 'allocationMode' | 'count' | 'tolerations'>;

function validateRequestFields(r: RequestFields, path: string, stored: boolean): FieldError[] {
  return [
    ...validateDeviceClassName(r.deviceClassName, child(path, 'deviceClassName')),
    ...validateSelectors(r.selectors, child(path, 'selectors'), stored),
    ...validateAllocationMode(r.allocationMode, r.count, path),
    ...validateTolerations(r.tolerations, child(path, 'tolerations')),
  ];
}

function validateDeviceRequest(r: DeviceRequest, path: string, stored: boolean): FieldError[] {
  const errs = dns1123Label(r.name ?? '', child(path, 'name'));
  const hasFirstAvailable = (r.firstAvailable?.length ?? 0) > 0;
  const hasExactly = r.exactly !== undefined;
  if (!hasFirstAvailable && !hasExactly) errs.push(required(path, 'exactly one of `exactly` or `firstAvailable` is required'));
  else if (hasFirstAvailable && hasExactly) errs.push(invalid(path, null, 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'));
  else if (hasExactly) errs.push(...validateRequestFields(r.exactly!, child(path, 'exactly'), stored));
  else {
    errs.push(...validateSet(r.firstAvailable, FirstAvailableDeviceRequestMaxSize, child(path, 'firstAvailable'),
      (s: DeviceSubRequest, p) => [...dns1123Label(s.name ?? '', child(p, 'name')), ...validateRequestFields(s, p, stored)], (s) => s.name, true));
  }
  return errs;
}

function validateDeviceConstraint(c: DeviceConstraint, path: string, names: RequestNames): FieldError[] {
  const errs = validateSet(c.requests, DeviceRequestsMaxSize, child(path, 'requests'), (n, p) => validateRequestNameRef(n, p, names), (n) => n);
  if (c.matchAttribute !== undefined) errs.push(...validateFullyQualifiedName(c.matchAttribute, child(path, 'matchAttribute')));
  else if (c.distinctAttribute !== undefined) errs.push(...validateFullyQualifiedName(c.distinctAttribute, child(path, 'distinctAttribute')));
  // DRAConsumableCapacity is on in v1.37: upstream's wording for the missing attribute is this one.
  else errs.push(required(path, 'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set'));
  return errs;
}

/** validateRawExtension: opaque parameters must be a JSON object of bounded size. */
function validateOpaqueParameters(parameters: unknown, path: string, stored: boolean): FieldError[] {
  if (parameters === undefined || parameters === null) return [required(path)];
  if (!stored && JSON.stringify(parameters).length > OpaqueParametersMaxLength) return [tooLong(path, OpaqueParametersMaxLength)];
  if (typeof parameters !== 'object' || Array.isArray(parameters)) return [invalid(path, '<value omitted>', 'must be a valid JSON object')];
  return [];
}

function validateDeviceConfiguration(c: DeviceConfiguration, path: string, stored: boolean): FieldError[] {
  if (c.opaque === undefined) return [required(child(path, 'opaque'))];
  const p = child(path, 'opaque');
  return [...validateDriverName(c.opaque.driver, child(p, 'driver')), ...validateOpaqueParameters(c.opaque.parameters, child(p, 'parameters'), stored)];
}

function validateDeviceClaim(claim: DeviceClaim | undefined, path: string, stored: boolean): FieldError[] {
  const names = gatherRequestNames(claim);
  return [
    ...validateSet(claim?.requests, DeviceRequestsMaxSize, child(path, 'requests'), (r, p) => validateDeviceRequest(r, p, stored), (r) => r.name, true),
    ...validateList(claim?.constraints, DeviceConstraintsMaxSize, child(path, 'constraints'), (c, p) => validateDeviceConstraint(c, p, names)),
    ...validateList(claim?.config, DeviceConfigMaxSize, child(path, 'config'), (c, p) => [
      ...validateSet(c.requests, DeviceRequestsMaxSize, child(p, 'requests'), (n, rp) => validateRequestNameRef(n, rp, names), (n) => n),
      ...validateDeviceConfiguration(c, p, stored),
    ]),
  ];
}

function validateResourceClaimSpec(spec: ResourceClaimSpec | undefined, path: string, stored: boolean): FieldError[] {
  return validateDeviceClaim(spec?.devices, child(path, 'devices'), stored);
}

export function validateResourceClaim(claim: ResourceClaim): FieldError[] {
  return [...validateObjectMeta(claim.metadata ?? {}, true, nameIsDNSSubdomain), ...validateResourceClaimSpec(claim.spec, 'spec', false)];
}

/** The spec is immutable: an update is checked for that alone. */
export function validateResourceClaimUpdate(oldClaim: ResourceClaim, claim: ResourceClaim): FieldError[] {
  return immutable('spec', claim.spec, oldClaim.spec);
}

function validateBindingConditions(conditions: readonly string[] | undefined, failure: readonly string[] | undefined, path: string): FieldError[] {
  const errs = [
    ...validateList(conditions, BindingConditionsMaxSize, child(path, 'bindingConditions'), validateLabelName),
    ...validateList(failure, BindingConditionsMaxSize, child(path, 'bindingFailureConditions'), validateLabelName),
  ];
  const c = conditions ?? [];
  const f = failure ?? [];
  const seen = new Set<string>();
  c.forEach((x, i) => (seen.has(x) ? errs.push(duplicate(index(child(path, 'bindingConditions'), i), x)) : seen.add(x)));
  const seenFailure = new Set<string>();
  f.forEach((x, i) => {
    const p = index(child(path, 'bindingFailureConditions'), i);
    if (seenFailure.has(x)) errs.push(duplicate(p, x));
    else seenFailure.add(x);
    if (seen.has(x)) errs.push(invalid(p, x, 'bindingFailureConditions must not overlap with bindingConditions'));
  });
  if (c.length === 0 && f.length > 0) errs.push(invalid(child(path, 'bindingConditions'), c, 'bindingConditions are required to use bindingFailureConditions'));
  if (f.length === 0 && c.length > 0) errs.push(invalid(child(path, 'bindingFailureConditions'), f, 'bindingFailureConditions are required to use bindingConditions'));
  return errs;
}

function validateSkipNodeOperations(ops: readonly string[] | undefined, path: string): FieldError[] {
  const s = new Set(ops ?? []);
  return s.has('NodePrepareResources') && !s.has('NodeUnprepareResources') && !s.has('*')
    ? [invalid(path, ops ?? [], 'NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped')]
    : [];
}

function validateAllocationResult(a: AllocationResult, path: string, names: RequestNames): FieldError[] {
  const devices = child(path, 'devices');
  const errs = [
    ...validateList(a.devices?.results, AllocationResultsMaxSize, child(devices, 'results'), (r, p) => [
      ...validateRequestNameRef(r.request ?? '', child(p, 'request'), names),
      ...validateDriverName(r.driver, child(p, 'driver')),
      ...validatePoolNameDeclarative(r.pool, child(p, 'pool')),
      ...dns1123Label(r.device ?? '', child(p, 'device')),
      ...validateBindingConditions(r.bindingConditions, r.bindingFailureConditions, p),
      ...(r.tolerations ?? []).flatMap((t, i) => validateDeviceToleration(t, index(child(p, 'tolerations'), i))),
      ...(r.shareID !== undefined ? validateUID(r.shareID, child(p, 'shareID')) : []),
      ...validateSkipNodeOperations(r.skipNodeOperations, child(p, 'skipNodeOperations')),
    ]),
    ...validateList(a.devices?.config, 2 * DeviceConfigMaxSize, child(devices, 'config'), (c, p) => {
      const source = c.source as string | undefined;
      const out: FieldError[] = !source ? [required(child(p, 'source'))]
        : source !== 'FromClaim' && source !== 'FromClass' ? [notSupported(child(p, 'source'), source, ['FromClaim', 'FromClass'])] : [];
      out.push(...validateSet(c.requests, DeviceRequestsMaxSize, child(p, 'requests'), (n, rp) => validateRequestNameRef(n, rp, names), (n) => n));
      out.push(...validateDeviceConfiguration(c, p, false));
      return out;
    }),
  ];
  if (a.nodeSelector) errs.push(...validateNodeSelector(a.nodeSelector, child(path, 'nodeSelector')));
  return errs;
}

const deviceID = (d: { driver?: string; pool?: string; device?: string; shareID?: string }): string =>
  `${d.driver ?? ''}/${d.pool ?? ''}/${d.device ?? ''}${d.shareID ? `/${d.shareID}` : ''}`;

/**
 * A status write: reservedFor unique (by UID) and at most 256 entries, only on an allocated
 * claim and never growing while the claim is being deleted; devices' status only for allocated
 * devices; an allocation, once set, unchangeable.
 */
export function validateResourceClaimStatusUpdate(oldClaim: ResourceClaim, claim: ResourceClaim): FieldError[] {
  const status: ResourceClaimStatus = claim.status ?? {};
  const oldStatus: ResourceClaimStatus = oldClaim.status ?? {};
  const names = gatherRequestNames(claim.spec?.devices);
  // Duplicates show the whole reference in the API's field order (declarative validation's wording).
  const reservedFor = (status.reservedFor ?? []).map((r) => ({ ...(r.apiGroup ? { apiGroup: r.apiGroup } : {}), resource: r.resource, name: r.name, uid: r.uid }));
  const errs = validateSet(reservedFor, ResourceClaimReservedForMaxSize, 'status.reservedFor', (ref, p) => [
    ...(ref.resource ? [] : [required(child(p, 'resource'))]),
    ...(ref.name ? [] : [required(child(p, 'name'))]),
    ...(ref.uid ? [] : [required(child(p, 'uid'))]),
  ], (ref) => ref.uid ?? '', true);
  const allocated = new Set((status.allocation?.devices?.results ?? []).map(deviceID));
  errs.push(...validateSet(status.devices, -1, 'status.devices', (d, p) => {
    const out = [...validateDriverName(d.driver, child(p, 'driver')), ...validatePoolName(d.pool, child(p, 'pool')), ...dns1123Label(d.device ?? '', child(p, 'device'))];
    if (d.shareID !== undefined) out.push(...validateUID(d.shareID, child(p, 'shareID')));
    // Upstream prints the internal device ID struct.
    const id = new Unquoted(`{"Driver":${JSON.stringify(d.driver ?? '')},"Pool":${JSON.stringify(d.pool ?? '')},"Device":${JSON.stringify(d.device ?? '')},"ShareID":${JSON.stringify(d.shareID ?? '')}}`);
    if (!allocated.has(deviceID(d))) out.push(invalid(p, id, 'must be an allocated device in the claim'));
    return out;
  }, deviceID));
  if ((status.reservedFor?.length ?? 0) > 0) {
    if (status.allocation === undefined) {
      errs.push(forbidden('status.reservedFor', 'may not be specified when `allocated` is not set'));
    } else if (claim.metadata?.deletionTimestamp) {
      const before = new Set((oldStatus.reservedFor ?? []).map((r) => JSON.stringify([r.apiGroup ?? '', r.resource, r.name, r.uid])));
      if (status.reservedFor!.some((r) => !before.has(JSON.stringify([r.apiGroup ?? '', r.resource, r.name, r.uid])))) {
        errs.push(forbidden('status.reservedFor', 'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'));
      }
    }
  }
  if (oldStatus.allocation !== undefined && status.allocation !== undefined) errs.push(...immutable('status.allocation', status.allocation, oldStatus.allocation));
  else if (status.allocation !== undefined) errs.push(...validateAllocationResult(status.allocation, 'status.allocation', names));
  return errs;
}

// ---- templates and classes

export function validateResourceClaimTemplate(t: ResourceClaimTemplate): FieldError[] {
  return [
    ...validateObjectMeta(t.metadata ?? {}, true, nameIsDNSSubdomain),
    ...validateTemplateMeta(t.spec?.metadata, 'spec.metadata'),
    ...validateResourceClaimSpec(t.spec?.spec, 'spec.spec', false),
  ];
}

export function validateResourceClaimTemplateUpdate(oldT: ResourceClaimTemplate, t: ResourceClaimTemplate): FieldError[] {
  return immutable('spec', t.spec, oldT.spec);
}

function validateDeviceClassSpec(spec: DeviceClass['spec'] | undefined, oldSpec: DeviceClass['spec'] | undefined | null): FieldError[] {
  // Selectors or config exactly as stored count as stored: only a change is checked as new.
  const selectorsStored = oldSpec != null && jsonEqual(spec?.selectors ?? null, oldSpec.selectors ?? null);
  const configStored = oldSpec != null && jsonEqual(spec?.config ?? null, oldSpec.config ?? null);
  const errs = [
    ...validateSelectors(spec?.selectors, 'spec.selectors', selectorsStored),
    ...validateList(spec?.config, DeviceConfigMaxSize, 'spec.config', (c, p) => validateDeviceConfiguration(c, p, configStored)),
  ];
  const ext = spec?.extendedResourceName;
  if (ext !== undefined) errs.push(...validateExtendedResourceName(ext, 'spec.extendedResourceName'));
  return errs;
}

/** Declarative validation's format=k8s-extended-resource-name (validate.ExtendedResourceName). */
function validateExtendedResourceName(name: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!name.includes('/')) errs.push(invalid(path, name, "a name must be a domain-prefixed path, such as 'example.com/my-prop'"));
  else if (name.includes('kubernetes.io/')) errs.push(invalid(path, name, 'must not have "kubernetes.io/" domain'));
  if (name.startsWith('requests.')) errs.push(invalid(path, name, 'must not have "requests." prefix'));
  for (const m of qualifiedNameErrors(`requests.${name}`)) errs.push(invalid(path, name, m));
  return errs;
}

export function validateDeviceClass(c: DeviceClass): FieldError[] {
  return [...validateObjectMeta(c.metadata ?? {}, false, nameIsDNSSubdomain), ...validateDeviceClassSpec(c.spec, null)];
}

export function validateDeviceClassUpdate(oldC: DeviceClass, c: DeviceClass): FieldError[] {
  // The new object's own rules ran already (validate); only what depends on the old spec differs.
  const relaxed = validateDeviceClassSpec(c.spec, oldC.spec);
  const strict = new Set(validateDeviceClassSpec(c.spec, null).map((e) => JSON.stringify(e)));
  return relaxed.filter((e) => !strict.has(JSON.stringify(e)));
}

// ---- slices

function validateDeviceAttribute(a: DeviceAttribute, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  const stringValue = (v: string, p: string) => (v.length > DeviceAttributeMaxValueLength ? [tooLong(p, DeviceAttributeMaxValueLength)] : []);
  const versionValue = (v: string, p: string) => [
    ...(semverRe.test(v) ? [] : [invalid(p, v, 'must be a string compatible with semver.org spec 2.0.0')]),
    ...stringValue(v, p),
  ];
  if (a.bool !== undefined) n++;
  if (a.int !== undefined) n++;
  if (a.string !== undefined) {
    n++;
    errs.push(...stringValue(a.string, child(path, 'string')));
  }
  if (a.version !== undefined) {
    n++;
    errs.push(...versionValue(a.version, child(path, 'version')));
  }
  const lists: [keyof DeviceAttribute, ((v: string, p: string) => FieldError[]) | null][] = [['bools', null], ['ints', null], ['strings', stringValue], ['versions', versionValue]];
  for (const [field, each] of lists) {
    const v = a[field] as readonly (string | number | boolean)[] | undefined;
    // An empty list is no value: it does not survive the API server's decoding.
    if (v === undefined || v.length === 0) continue;
    n++;
    if (each) v.forEach((item, i) => errs.push(...each(String(item), index(child(path, field), i))));
  }
  // Declarative validation's union wording (it has taken these checks over in v1.37).
  const members = '`int`, `bool`, `string`, `version`, `ints`, `bools`, `strings`, `versions`';
  if (n === 0) errs.push(invalid(path, '', `must specify one of: ${members}`));
  else if (n > 1) {
    const set = (['int', 'bool', 'string', 'version', 'ints', 'bools', 'strings', 'versions'] as const)
      .filter((f) => a[f] !== undefined && !(Array.isArray(a[f]) && (a[f] as unknown[]).length === 0));
    errs.push(invalid(path, `{${set.join(', ')}}`, `must specify exactly one of: ${members}`));
  }
  return errs;
}

function attributeValueCount(d: Device): number {
  let n = 0;
  for (const a of Object.values(d.attributes ?? {})) {
    const items = (a.bools?.length ?? 0) + (a.ints?.length ?? 0) + (a.strings?.length ?? 0) + (a.versions?.length ?? 0);
    n += items === 0 ? 1 : items;
  }
  return n;
}

function validateDeviceTaint(t: DeviceTaint, old: DeviceTaint | null, path: string): FieldError[] {
  const errs = validateLabelName(t.key ?? '', child(path, 'key'));
  if (t.value) errs.push(...validateLabelValueAt(t.value, child(path, 'value')));
  if (old === null || old.effect !== t.effect) {
    if (!t.effect) errs.push(required(child(path, 'effect')));
    else if (!deviceTaintEffects.includes(t.effect)) errs.push(notSupported(child(path, 'effect'), t.effect, deviceTaintEffects));
  }
  return errs;
}

function validateCounters(counters: Readonly<Record<string, unknown>> | undefined, max: number, path: string): FieldError[] {
  if (Object.keys(counters ?? {}).length === 0) return [required(path)];
  return validateMap(counters, max, 63, path, dns1123Label, () => []);
}

/** Where the device is available: only per device when the slice says so, then exactly one way. */
function validateDeviceNodeSelection(d: Device, path: string, perDevice: boolean): FieldError[] {
  if (!perDevice) {
    return d.nodeName !== undefined || d.nodeSelector !== undefined || d.allNodes !== undefined
      ? [invalid(path, null, '`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec')]
      : [];
  }
  const errs: FieldError[] = [];
  const set: string[] = [];
  if (d.nodeName !== undefined) {
    if (d.nodeName !== '') {
      set.push('`nodeName`');
      errs.push(...dns1123Subdomain(d.nodeName, child(path, 'nodeName')));
    } else errs.push(invalid(child(path, 'nodeName'), '', 'must not be empty'));
  }
  if (d.nodeSelector !== undefined) {
    set.push('`nodeSelector`');
    errs.push(...validateNodeSelector(d.nodeSelector, child(path, 'nodeSelector')));
  }
  if (d.allNodes !== undefined) {
    if (d.allNodes) set.push('`allNodes`');
    else errs.push(invalid(child(path, 'allNodes'), false, 'must be either unset or set to true'));
  }
  const msg = 'exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec';
  if (set.length === 0) errs.push(required(path, msg));
  else if (set.length > 1) errs.push(invalid(path, `{${set.join(', ')}}`, msg));
  return errs;
}

function validateDevice(d: Device, old: Device | undefined, path: string, perDevice: boolean): FieldError[] {
  const errs = dns1123Label(d.name ?? '', child(path, 'name'));
  const attrAndCap = Object.keys(d.attributes ?? {}).length + Object.keys(d.capacity ?? {}).length;
  if (attrAndCap > ResourceSliceMaxAttributesAndCapacitiesPerDevice) {
    errs.push(invalid(path, attrAndCap, `the total number of attributes and capacities must not exceed ${ResourceSliceMaxAttributesAndCapacitiesPerDevice}`));
  }
  const values = attributeValueCount(d);
  if (values > ResourceSliceMaxAttributeValuesPerDevice) {
    errs.push(invalid(path, values, `the total number of attribute values must not exceed ${ResourceSliceMaxAttributeValuesPerDevice}`));
  }
  errs.push(...validateMap(d.attributes, -1, attributeAndCapacityMaxKeyLength, child(path, 'attributes'), validateQualifiedName, validateDeviceAttribute));
  if (old === undefined || !jsonEqual(old.capacity ?? null, d.capacity ?? null)) {
    const multi = d.allowMultipleAllocations === true;
    errs.push(...validateMap(d.capacity, -1, attributeAndCapacityMaxKeyLength, child(path, 'capacity'), validateQualifiedName, (c, p) =>
      c.requestPolicy !== undefined && !multi ? [forbidden(child(p, 'requestPolicy'), 'allowMultipleAllocations must be true')] : []));
  }
  if (old === undefined || !jsonEqual(old.taints ?? null, d.taints ?? null)) {
    errs.push(...validateList(d.taints, DeviceTaintsMaxLength, child(path, 'taints'), (t, p) => validateDeviceTaint(t, null, p)));
  }
  errs.push(...validateSet(d.consumesCounters, ResourceSliceMaxDeviceCounterConsumptionsPerDevice, child(path, 'consumesCounters'), (c, p) => [
    ...(c.counterSet ? dns1123Label(c.counterSet, child(p, 'counterSet')) : [required(child(p, 'counterSet'))]),
    ...validateCounters(c.counters, ResourceSliceMaxCountersPerDeviceCounterConsumption, child(p, 'counters')),
  ], (c) => c.counterSet));
  errs.push(...validateDeviceNodeSelection(d, path, perDevice));
  errs.push(...validateBindingConditions(d.bindingConditions, d.bindingFailureConditions, path));
  return errs;
}

function validateResourceSliceSpec(spec: ResourceSliceSpec, old: ResourceSliceSpec | null): FieldError[] {
  const errs = validateDriverName(spec.driver, 'spec.driver');
  const pool = spec.pool ?? { name: '', generation: 0, resourceSliceCount: 0 };
  errs.push(...validatePoolName(pool.name, 'spec.pool.name'));
  if ((pool.resourceSliceCount ?? 0) <= 0) errs.push(invalid('spec.pool.resourceSliceCount', pool.resourceSliceCount ?? 0, 'must be greater than zero'));
  if ((pool.generation ?? 0) < 0) errs.push(invalid('spec.pool.generation', pool.generation, 'must be greater than or equal to zero'));
  if (old !== null) {
    errs.push(...immutable('spec.pool.name', pool.name, old.pool?.name));
    errs.push(...immutable('spec.driver', spec.driver, old.driver));
    errs.push(...immutable('spec.nodeName', spec.nodeName, old.nodeName));
  }
  const set: string[] = [];
  if (spec.nodeName !== undefined) {
    if (spec.nodeName !== '') {
      set.push('`nodeName`');
      errs.push(...dns1123Subdomain(spec.nodeName, 'spec.nodeName'));
    } else errs.push(invalid('spec.nodeName', '', 'must be either unset or set to a non-empty string'));
  }
  if (spec.nodeSelector !== undefined) {
    set.push('`nodeSelector`');
    errs.push(...validateNodeSelector(spec.nodeSelector, 'spec.nodeSelector'));
    const terms = spec.nodeSelector.nodeSelectorTerms ?? [];
    if (terms.length !== 1) errs.push(invalid('spec.nodeSelector.nodeSelectorTerms', terms, 'must have exactly one node selector term'));
  }
  for (const f of ['allNodes', 'perDeviceNodeSelection'] as const) {
    if (spec[f] === undefined) continue;
    if (spec[f]) set.push(`\`${f}\``);
    else errs.push(invalid(`spec.${f}`, false, 'must be either unset or set to true'));
  }
  const which = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';
  if (set.length === 0) errs.push(required('spec', which));
  else if (set.length > 1) errs.push(invalid('spec', `{${set.join(', ')}}`, `${which}, but multiple fields are set`));
  if (spec.sharedCounters !== undefined && spec.devices !== undefined) errs.push(invalid('spec', '', 'only one of `sharedCounters` or `devices` is allowed'));
  const devices = spec.devices ?? [];
  const advanced = devices.some((d) => (d.taints?.length ?? 0) > 0 || (d.consumesCounters?.length ?? 0) > 0);
  const oldDevices = new Map((old?.devices ?? []).map((d) => [d.name, d]));
  errs.push(...validateSet(spec.devices, advanced ? ResourceSliceMaxDevicesWithAdvancedFeatures : ResourceSliceMaxDevices, 'spec.devices',
    (d, p) => validateDevice(d, oldDevices.get(d.name), p, spec.perDeviceNodeSelection === true), (d) => d.name));
  errs.push(...validateSet(spec.sharedCounters, ResourceSliceMaxCounterSets, 'spec.sharedCounters', (c, p) => [
    ...(c.name ? dns1123Label(c.name, child(p, 'name')) : [required(child(p, 'name'))]),
    ...validateCounters(c.counters, ResourceSliceMaxCountersPerCounterSet, child(p, 'counters')),
  ], (c) => c.name));
  errs.push(...validateSkipNodeOperations(spec.skipNodeOperations, 'spec.skipNodeOperations'));
  return errs;
}

export function validateResourceSlice(s: ResourceSlice): FieldError[] {
  return [...validateObjectMeta(s.metadata ?? {}, false, nameIsDNSSubdomain), ...validateResourceSliceSpec(s.spec ?? ({} as ResourceSliceSpec), null)];
}

export function validateResourceSliceUpdate(oldS: ResourceSlice, s: ResourceSlice): FieldError[] {
  const relaxed = validateResourceSliceSpec(s.spec ?? ({} as ResourceSliceSpec), oldS.spec ?? ({} as ResourceSliceSpec));
  const strict = new Set(validateResourceSliceSpec(s.spec ?? ({} as ResourceSliceSpec), null).map((e) => JSON.stringify(e)));
  return relaxed.filter((e) => !strict.has(JSON.stringify(e)));
}

// ---- taint rules

function validateDeviceTaintRuleSpec(spec: DeviceTaintRule['spec'] | undefined, old: DeviceTaintRule['spec'] | null): FieldError[] {
  const errs: FieldError[] = [];
  const sel = spec?.deviceSelector;
  if (sel?.driver !== undefined) errs.push(...validateDriverName(sel.driver, 'spec.deviceSelector.driver'));
  if (sel?.pool !== undefined) errs.push(...validatePoolName(sel.pool, 'spec.deviceSelector.pool'));
  if (sel?.device !== undefined) errs.push(...dns1123Label(sel.device, 'spec.deviceSelector.device'));
  errs.push(...validateDeviceTaint(spec?.taint ?? ({} as DeviceTaint), old?.taint ?? null, 'spec.taint'));
  return errs;
}

export function validateDeviceTaintRule(r: DeviceTaintRule): FieldError[] {
  return [...validateObjectMeta(r.metadata ?? {}, false, nameIsDNSSubdomain), ...validateDeviceTaintRuleSpec(r.spec, null)];
}

export function validateDeviceTaintRuleUpdate(oldR: DeviceTaintRule, r: DeviceTaintRule): FieldError[] {
  const relaxed = validateDeviceTaintRuleSpec(r.spec, oldR.spec ?? null);
  const strict = new Set(validateDeviceTaintRuleSpec(r.spec, null).map((e) => JSON.stringify(e)));
  return relaxed.filter((e) => !strict.has(JSON.stringify(e)));
}
