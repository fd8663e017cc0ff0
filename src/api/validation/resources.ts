// Resource names, quantities and requirements as pkg/apis/core/validation/validation.go checks
// them (validateResourceName, validateContainerResourceName, ValidateResourceQuantityValue,
// validateResourceRequirements) with the helpers of pkg/apis/core/helper.
import { qualifiedNameErrors } from '../labels.js';
import { exactScaledValue, parseQuantity, type Quantity } from '../quantity.js';
import { isExtendedResourceName, isHugePageResourceName, isNativeResource } from '../resource_requests.js';
import type { QuantityValue, ResourceList, ResourceRequirements } from '../types.js';
import { child, duplicate, forbidden, index, invalid, key, notFound, notSupported, required, Unquoted, type FieldError } from './field.js';
import { dns1123LabelErrors } from './meta.js';

/** Names that need no domain prefix anywhere (helper.IsStandardResourceName). */
const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory',
  'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'persistentvolumeclaims',
  'configmaps', 'services.nodeports', 'services.loadbalancers', 'storage', 'requests.storage',
]);
const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** Counts that cannot be fractional (helper.IsIntegerResourceName). */
const integerResources = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);

function isIntegerResourceName(name: string): boolean {
  return integerResources.has(name) || isExtendedResourceName(name);
}

/** Native resources other than hugepages may be overcommitted (helper.IsOvercommitAllowed). */
function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

/** How a quantity prints in messages: as written (upstream prints its canonical form, the same for usual inputs). */
function quantityText(q: QuantityValue): string {
  return typeof q === 'string' ? q.trim() : String(q);
}

/** validateResourceName: a qualified name, and a standard one when it has no prefix. */
function validateResourceName(name: string, path: string): FieldError[] {
  const errs = qualifiedNameErrors(name).map((m) => invalid(path, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !standardResources.has(name) && !isHugePageResourceName(name)) {
    errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** Names already found valid for containers: a pod names few resources, every pod the same ones. */
const validContainerResourceNames = new Set<string>();

/** validateContainerResourceName. */
function validateContainerResourceName(name: string, path: string): FieldError[] {
  if (validContainerResourceNames.has(name)) return [];
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!standardContainerResources.has(name) && !isHugePageResourceName(name)) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  if (errs.length === 0 && validContainerResourceNames.size < 1024) validContainerResourceNames.add(name);
  return errs;
}

/** validatePodResourceName: a resource name valid at pod level (cpu, memory, hugepages-*). */
function validatePodResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (errs.length > 0) return errs;
  if (name !== 'cpu' && name !== 'memory' && !isHugePageResourceName(name)) errs.push(notSupported(path, name, ['cpu', 'memory']));
  return errs;
}

/** The value is decodable (decoding checked it); reading it again is cheap for usual inputs. */
function quantityOf(value: QuantityValue): Quantity {
  return parseQuantity(value);
}

/** The quantity in thousandths when exact (the usual case, read without allocating), else undefined. */
function milli(value: QuantityValue): number | undefined {
  return exactScaledValue(value, -3);
}

/** ValidateResourceQuantityValue: not negative, and whole for integer resources. */
export function validateResourceQuantityValue(name: string, value: QuantityValue, path: string): FieldError[] {
  const m = milli(value);
  const negative = m !== undefined ? m < 0 : quantityOf(value).sign < 0;
  const fractional = isIntegerResourceName(name) && (m !== undefined ? m % 1000 !== 0 : quantityOf(value).scaledValue(-3) % 1000n !== 0n);
  if (!negative && !fractional) return [];
  const errs: FieldError[] = [];
  if (negative) errs.push(invalid(path, quantityText(value), 'must be greater than or equal to 0'));
  if (fractional) errs.push(invalid(path, new Unquoted(quantityText(value)), 'must be an integer'));
  return errs;
}

/** ValidateNonnegativeQuantity with the quantity printed quoted. */
export function validateNonnegativeQuantity(value: QuantityValue, path: string): FieldError[] {
  const m = milli(value);
  const negative = m !== undefined ? m < 0 : quantityOf(value).sign < 0;
  return negative ? [invalid(path, quantityText(value), 'must be greater than or equal to 0')] : [];
}

/** ValidatePositiveQuantityValue. */
export function validatePositiveQuantity(value: QuantityValue, path: string): FieldError[] {
  return quantityOf(value).sign <= 0 ? [invalid(path, quantityText(value), 'must be greater than zero')] : [];
}

const hugePageUnits: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };

/** The page size in bytes of a hugepages-<size> resource, when the size parses. */
function hugePageSize(name: string): bigint | undefined {
  const m = /^hugepages-(\d+)(Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(name);
  if (!m) return undefined;
  return BigInt(m[1]!) * (m[2] ? hugePageUnits[m[2]]! : 1n);
}

function validateHugePageValue(name: string, value: QuantityValue, path: string): FieldError[] {
  const size = hugePageSize(name);
  if (size === undefined || size === 0n) return [];
  const nanos = quantityOf(value).nanoValue();
  const bytes = nanos / 1_000_000_000n;
  if (nanos % 1_000_000_000n !== 0n || bytes % size !== 0n || bytes < 0n) {
    return [invalid(path, quantityText(value), `${quantityText(value)} is not positive integer multiple of ${name}`)];
  }
  return [];
}

/** A sum of quantities in nano-units, printed in the smallest suffix that keeps it whole. */
function nanosText(nanos: bigint): string {
  if (nanos % 1_000_000_000n === 0n) return String(nanos / 1_000_000_000n);
  if (nanos % 1_000_000n === 0n) return `${nanos / 1_000_000n}m`;
  if (nanos % 1000n === 0n) return `${nanos / 1000n}u`;
  return `${nanos}n`;
}

function compare(a: QuantityValue, b: QuantityValue): number {
  const ma = milli(a);
  const mb = milli(b);
  if (ma !== undefined && mb !== undefined) return ma < mb ? -1 : ma > mb ? 1 : 0;
  const x = quantityOf(a).nanoValue();
  const y = quantityOf(b).nanoValue();
  return x < y ? -1 : x > y ? 1 : 0;
}

type NameCheck = (name: string, path: string) => FieldError[];

/**
 * validateResourceRequirements: names, quantities, requests <= limits (equal for resources that
 * cannot be overcommitted), hugepages with cpu or memory, and claims naming the pod's claims.
 */
function validateRequirements(req: ResourceRequirements, nameCheck: NameCheck, podClaimNames: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = child(path, 'limits');
  const reqPath = child(path, 'requests');
  const limits: ResourceList = req.limits ?? {};
  const requests: ResourceList = req.requests ?? {};
  let cpuOrMemory = false;
  let hugePages = false;
  for (const name of Object.keys(limits)) {
    const p = key(limPath, name);
    errs.push(...nameCheck(name, p), ...validateResourceQuantityValue(name, limits[name]!, p));
    if (isHugePageResourceName(name)) {
      hugePages = true;
      errs.push(...validateHugePageValue(name, limits[name]!, p));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const name of Object.keys(requests)) {
    const p = key(reqPath, name);
    const q = requests[name]!;
    errs.push(...nameCheck(name, p), ...validateResourceQuantityValue(name, q, p));
    const limit = limits[name];
    if (limit !== undefined) {
      const c = compare(q, limit);
      if (c !== 0 && !isOvercommitAllowed(name)) {
        errs.push(invalid(reqPath, quantityText(q), `must be equal to ${name} limit of ${quantityText(limit)}`));
      } else if (c > 0) {
        errs.push(invalid(reqPath, quantityText(q), `must be less than or equal to ${name} limit of ${quantityText(limit)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) {
      hugePages = true;
      errs.push(...validateHugePageValue(name, q, p));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  errs.push(...validateClaimReferences(req, podClaimNames, child(path, 'claims')));
  return errs;
}

/** validateResourceClaimNames: a container names each pod claim (or one request of it) at most once, and only claims the pod has. */
function validateClaimReferences(req: ResourceRequirements, podClaimNames: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const claims = req.claims ?? [];
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    const p = index(path, i);
    const name = c.name ?? '';
    if (name === '') {
      errs.push(required(p));
      continue;
    }
    if (seen.has(name)) {
      // The whole claim was referenced before, so all its requests are.
      errs.push(duplicate(p, name));
    } else {
      const request = c.request ?? '';
      if (request !== '') for (const m of dns1123LabelErrors(request)) errs.push(invalid(child(p, 'request'), request, m));
      const k = request === '' ? name : `${name}/${request}`;
      if (seen.has(k)) errs.push(duplicate(p, k));
      else if (request === '') {
        // The whole claim after some of its requests overlaps them.
        for (const earlier of seen) if (earlier.startsWith(`${name}/`)) errs.push(duplicate(p, name));
      }
      seen.add(k);
    }
    if (!podClaimNames.has(name)) {
      const names = [...podClaimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${names.length === 0 ? ' which is empty' : `: ${names.join(', ')}`}`;
      errs.push(notFound(p, name, detail));
    }
  }
  return errs;
}

export function validateContainerResources(req: ResourceRequirements | undefined, podClaimNames: ReadonlySet<string>, path: string): FieldError[] {
  return req ? validateRequirements(req, validateContainerResourceName, podClaimNames, path) : [];
}

/** validateOverhead: the overhead is checked as container limits. */
export function validateOverhead(overhead: ResourceList, path: string): FieldError[] {
  return validateRequirements({ limits: overhead }, validateContainerResourceName, new Set(), path);
}

/** validatePodResources: pod-level requirements, and their consistency with the containers'. */
export function validatePodLevelResources(
  req: ResourceRequirements,
  containers: readonly { resources?: ResourceRequirements }[],
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (req.claims !== undefined) errs.push(forbidden(child(path, 'claims'), 'claims cannot be set for Resources at pod-level'));
  errs.push(...validateRequirements({ limits: req.limits, requests: req.requests }, validatePodResourceName, new Set(), path));
  if (errs.length > 0) return errs;
  // Pod-level requests cover the containers' requests summed; each container limit fits the pod's.
  const sums = new Map<string, bigint>();
  for (const c of containers) {
    for (const [name, q] of Object.entries(c.resources?.requests ?? {})) sums.set(name, (sums.get(name) ?? 0n) + quantityOf(q).nanoValue());
  }
  for (const [name, sum] of sums) {
    const podReq = req.requests?.[name];
    const pod = podReq === undefined ? 0n : quantityOf(podReq).nanoValue();
    if (sum > pod) {
      errs.push(invalid(key(child(path, 'requests'), name), podReq === undefined ? '0' : quantityText(podReq), `must be greater than or equal to aggregate container requests of ${nanosText(sum)}`));
    }
  }
  containers.forEach((c, i) => {
    for (const [name, q] of Object.entries(c.resources?.limits ?? {})) {
      const podLimit = req.limits?.[name];
      if (podLimit !== undefined && compare(q, podLimit) > 0) {
        errs.push(invalid(child(key(index(child(path, 'containers'), i), name), 'limits'), quantityText(q), `must be less than or equal to pod limits of ${quantityText(podLimit)}`));
      }
    }
  });
  return errs;
}
