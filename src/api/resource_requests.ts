// Pod resource requests as the scheduler computes them: component-helpers resource/helpers.go
// (PodRequests, AggregateContainerRequests, determineContainerReqs, IsPodLevelRequestsSet) and
// scheduler framework/types.go (calculateResource, getNonMissingContainerRequests, Resource.Add),
// with the default feature gates: PodLevelResources and InPlacePodVerticalScaling are on, so
// pod-level requests and the container status resources count. Resource names follow
// pkg/apis/core/v1/helper (IsExtendedResourceName, IsScalarResourceName).
import type { Container, Pod, PodSpec, ResourceList } from './types.js';
import type { QuantityValue } from './types.js';
import { exactScaledValue, parseQuantity, quantityMilliValue, quantityValue } from './quantity.js';
import { qualifiedNameErrors } from './labels.js';

export const ResourceCPU = 'cpu';
export const ResourceMemory = 'memory';
export const ResourceEphemeralStorage = 'ephemeral-storage';
export const ResourcePods = 'pods';

/** Defaults used for scoring when a container does not request cpu/memory (schedutil). */
const DefaultMilliCPURequest = 100;
export const DefaultMemoryRequest = 200 * 1024 * 1024;

/** Numeric resources: cpu in millicores, everything else in base units. */
export class Resource {
  milliCPU = 0;
  memory = 0;
  ephemeralStorage = 0;
  allowedPodNumber = 0;
  /** Extended resources, hugepages and other scalar resources, by name. */
  scalarResources: Map<string, number> | null = null;

  static fromList(list: ResourceList | undefined): Resource {
    const r = new Resource();
    if (list) r.addList(list);
    return r;
  }

  /** framework.Resource.Add(ResourceList): each quantity read with MilliValue (cpu) or Value. */
  addList(list: ResourceList): void {
    for (const name of Object.keys(list)) {
      const q = list[name]!;
      switch (name) {
        case ResourceCPU: this.milliCPU += quantityMilliValue(q); break;
        case ResourceMemory: this.memory += quantityValue(q); break;
        case ResourceEphemeralStorage: this.ephemeralStorage += quantityValue(q); break;
        case ResourcePods: this.allowedPodNumber += quantityValue(q); break;
        default:
          if (isScalarResourceName(name)) this.addScalar(name, quantityValue(q));
      }
    }
  }

  add(other: Resource): void {
    this.milliCPU += other.milliCPU;
    this.memory += other.memory;
    this.ephemeralStorage += other.ephemeralStorage;
    this.allowedPodNumber += other.allowedPodNumber;
    if (other.scalarResources) for (const [k, v] of other.scalarResources) this.addScalar(k, v);
  }

  sub(other: Resource): void {
    this.milliCPU -= other.milliCPU;
    this.memory -= other.memory;
    this.ephemeralStorage -= other.ephemeralStorage;
    this.allowedPodNumber -= other.allowedPodNumber;
    if (other.scalarResources) for (const [k, v] of other.scalarResources) this.addScalar(k, -v);
  }

  addScalar(name: string, value: number): void {
    if (!this.scalarResources) this.scalarResources = new Map();
    this.scalarResources.set(name, (this.scalarResources.get(name) ?? 0) + value);
  }

  scalar(name: string): number {
    return this.scalarResources?.get(name) ?? 0;
  }

  /** Sets every quantity to `src`'s, keeping this object. */
  copyFrom(src: Resource): void {
    this.milliCPU = src.milliCPU;
    this.memory = src.memory;
    this.ephemeralStorage = src.ephemeralStorage;
    this.allowedPodNumber = src.allowedPodNumber;
    this.scalarResources = src.scalarResources ? new Map(src.scalarResources) : null;
  }

  clone(): Resource {
    const r = new Resource();
    r.milliCPU = this.milliCPU;
    r.memory = this.memory;
    r.ephemeralStorage = this.ephemeralStorage;
    r.allowedPodNumber = this.allowedPodNumber;
    r.scalarResources = this.scalarResources ? new Map(this.scalarResources) : null;
    return r;
  }

  /** The value of any resource by name, in the units above. */
  get(name: string): number {
    switch (name) {
      case ResourceCPU: return this.milliCPU;
      case ResourceMemory: return this.memory;
      case ResourceEphemeralStorage: return this.ephemeralStorage;
      case ResourcePods: return this.allowedPodNumber;
      default: return this.scalar(name);
    }
  }
}

// ---- Resource names (pkg/apis/core/v1/helper)

const ResourceDefaultNamespacePrefix = 'kubernetes.io/';
const DefaultResourceRequestsPrefix = 'requests.';

/** In the *kubernetes.io/ namespace (the prefix anywhere in the name, as upstream checks). */
function isPrefixedNativeResource(name: string): boolean {
  return name.includes(ResourceDefaultNamespacePrefix);
}

/** Unprefixed names are implicitly native, as are *kubernetes.io/ ones. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || isPrefixedNativeResource(name);
}

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-');
}

function isAttachableVolumeResourceName(name: string): boolean {
  return name.startsWith('attachable-volumes-');
}

/** Results per name: resource names are few, and the check runs a regular expression. */
const extendedCache = new Map<string, boolean>();

/** Not native, not "requests."-prefixed, and "requests.<name>" is a valid qualified name. */
export function isExtendedResourceName(name: string): boolean {
  const cached = extendedCache.get(name);
  if (cached !== undefined) return cached;
  const result =
    !isNativeResource(name) &&
    !name.startsWith(DefaultResourceRequestsPrefix) &&
    qualifiedNameErrors(DefaultResourceRequestsPrefix + name).length === 0;
  if (extendedCache.size < 4096) extendedCache.set(name, result);
  return result;
}

/** Extended, hugepages, prefixed native and attachable-volume resources (schedutil.IsScalarResourceName). */
export function isScalarResourceName(name: string): boolean {
  return isExtendedResourceName(name) || isHugePageResourceName(name) || isPrefixedNativeResource(name) || isAttachableVolumeResourceName(name);
}

/** Resources a pod may set at pod level (cpu, memory, hugepages-*). */
function isSupportedPodLevelResource(name: string): boolean {
  return name === ResourceCPU || name === ResourceMemory || isHugePageResourceName(name);
}

/** IsPodLevelRequestsSet: spec.resources.requests names a supported resource. */
export function isPodLevelRequestsSet(pod: Pod): boolean {
  const reqs = pod.spec.resources?.requests;
  if (!reqs) return false;
  for (const name of Object.keys(reqs)) if (isSupportedPodLevelResource(name)) return true;
  return false;
}

// ---- Pod requests

export interface PodResourceRequests {
  /** What the pod requests, for fit checks. */
  readonly resource: Resource;
  /** cpu with missing container requests counted as 100m, for scoring. */
  readonly nonZeroMilliCPU: number;
  /** memory with missing container requests counted as 200Mi, for scoring. */
  readonly nonZeroMemory: number;
}

/**
 * Amounts are summed and compared either as numbers in the final units (millicores for cpu,
 * base units otherwise), exact while every quantity is a whole number of those units below
 * 2^53 (the common case), or as BigInt nano-units, exact always. Upstream sums Quantities and
 * rounds once at the end; both modes give its result.
 */
interface Arith<T> {
  read(name: string, q: QuantityValue): T;
  add(a: T, b: T): T;
  greater(a: T, b: T): boolean;
  readonly defaultCPU: T;
  readonly defaultMemory: T;
}

/** Thrown by the number mode when a quantity or sum is not exact there. */
class NotExact {}
const notExact = new NotExact();

const numberArith: Arith<number> = {
  read(name, q) {
    const v = exactScaledValue(q, name === ResourceCPU ? -3 : 0);
    if (v === undefined) throw notExact;
    return v;
  },
  add(a, b) {
    const s = a + b;
    if (s > Number.MAX_SAFE_INTEGER || s < -Number.MAX_SAFE_INTEGER) throw notExact;
    return s;
  },
  greater: (a, b) => a > b,
  defaultCPU: DefaultMilliCPURequest,
  defaultMemory: DefaultMemoryRequest,
};

const NANO = 1_000_000_000n;
const nanoArith: Arith<bigint> = {
  read: (_name, q) => parseQuantity(q).nanoValue(),
  add: (a, b) => a + b,
  greater: (a, b) => a > b,
  defaultCPU: BigInt(DefaultMilliCPURequest) * 1_000_000n,
  defaultMemory: BigInt(DefaultMemoryRequest) * NANO,
};

type Amounts<T> = Map<string, T>;

/** A container's effective requests and whether it is a restartable (sidecar) init container. */
interface ContainerAmounts<T> {
  readonly requests: Amounts<T>;
  readonly sidecar: boolean;
}

/** Everything PodRequests reads, parsed once. */
interface ParsedPod<T> {
  readonly containers: ContainerAmounts<T>[];
  readonly initContainers: ContainerAmounts<T>[];
  /** Supported pod-level requests, or null when pod-level requests are not set. */
  readonly podLevel: Amounts<T> | null;
  readonly overhead: Amounts<T> | null;
}

function readList<T>(list: ResourceList | null | undefined, ar: Arith<T>, into: Amounts<T> = new Map()): Amounts<T> {
  if (!list) return into;
  for (const name of Object.keys(list)) into.set(name, ar.read(name, list[name]!));
  return into;
}

/** maxResourceList: raises dst to src for every resource in src. */
function maxInto<T>(dst: Amounts<T>, src: Amounts<T>, ar: Arith<T>): void {
  for (const [name, v] of src) {
    const cur = dst.get(name);
    if (cur === undefined || ar.greater(v, cur)) dst.set(name, v);
  }
}

/** addResourceList. */
function addInto<T>(dst: Amounts<T>, src: Amounts<T>, ar: Arith<T>): void {
  for (const [name, v] of src) {
    const cur = dst.get(name);
    dst.set(name, cur === undefined ? v : ar.add(cur, v));
  }
}

type ContainerStatusResources = {
  resources?: { requests?: ResourceList } | null;
  allocatedResources?: ResourceList | null;
};

/** IsPodResizeInfeasible: the PodResizePending condition says Infeasible. */
function isPodResizeInfeasible(pod: Pod): boolean {
  for (const c of pod.status?.conditions ?? []) {
    if (c.type === 'PodResizePending') return c.reason === 'Infeasible';
  }
  return false;
}

function containerStatuses(pod: Pod): Map<string, ContainerStatusResources> | null {
  const s = pod.status;
  if (!s || (!s.containerStatuses?.length && !s.initContainerStatuses?.length)) return null;
  const m = new Map<string, ContainerStatusResources>();
  for (const cs of s.containerStatuses ?? []) m.set(cs.name, cs as ContainerStatusResources);
  for (const cs of s.initContainerStatuses ?? []) m.set(cs.name, cs as ContainerStatusResources);
  return m;
}

/**
 * A container's requests; with a status carrying resources, determineContainerReqs: the larger
 * of spec, status and allocated requests (status and allocated only when the resize is infeasible).
 */
function containerRequests<T>(
  c: Container,
  useStatus: boolean,
  statuses: Map<string, ContainerStatusResources> | null,
  infeasible: boolean,
  ar: Arith<T>,
): Amounts<T> {
  const cs = useStatus && statuses !== null ? statuses.get(c.name) : undefined;
  if (cs === undefined || cs.resources === undefined || cs.resources === null) return readList(c.resources?.requests, ar);
  const out = infeasible ? readList(cs.resources.requests, ar) : readList(c.resources?.requests, ar);
  if (!infeasible) maxInto(out, readList(cs.resources.requests, ar), ar);
  maxInto(out, readList(cs.allocatedResources, ar), ar);
  return out;
}

/**
 * Which parts of the pod count (PodResourcesOptions): the scheduler's PodInfo counts both;
 * NodeResourcesFit's scorer is built without either feature flag, so it counts neither.
 */
export interface PodRequestsOptions {
  /** spec.resources.requests replace the containers' aggregate (not SkipPodLevelResources). */
  readonly podLevelResources: boolean;
  /** Container status resources raise the spec requests (UseStatusResources). */
  readonly statusResources: boolean;
}

const allParts: PodRequestsOptions = { podLevelResources: true, statusResources: true };

function parsePod<T>(pod: Pod, ar: Arith<T>, opts: PodRequestsOptions): ParsedPod<T> {
  const statuses = opts.statusResources ? containerStatuses(pod) : null;
  const infeasible = statuses !== null && isPodResizeInfeasible(pod);
  const containers: ContainerAmounts<T>[] = [];
  for (const c of pod.spec.containers ?? []) {
    containers.push({ requests: containerRequests(c, true, statuses, infeasible, ar), sidecar: false });
  }
  const initContainers: ContainerAmounts<T>[] = [];
  for (const c of pod.spec.initContainers ?? []) {
    // Status resources count for restartable init containers only.
    const sidecar = c.restartPolicy === 'Always';
    initContainers.push({ requests: containerRequests(c, sidecar, statuses, infeasible, ar), sidecar });
  }
  let podLevel: Amounts<T> | null = null;
  if (opts.podLevelResources && isPodLevelRequestsSet(pod)) {
    podLevel = new Map();
    const reqs = pod.spec.resources!.requests!;
    for (const name of Object.keys(reqs)) if (isSupportedPodLevelResource(name)) podLevel.set(name, ar.read(name, reqs[name]!));
  }
  const overhead = pod.spec.overhead ? readList(pod.spec.overhead, ar) : null;
  return { containers, initContainers, podLevel, overhead };
}

/** applyNonMissing: the defaults for resources the container does not name. */
function withDefaults<T>(reqs: Amounts<T>, defaults: Amounts<T> | null): Amounts<T> {
  if (defaults === null) return reqs;
  let out = reqs;
  for (const [name, v] of defaults) {
    if (reqs.has(name)) continue;
    if (out === reqs) out = new Map(reqs);
    out.set(name, v);
  }
  return out;
}

/**
 * PodRequests: the sum of the containers, raised to the largest init-container step (each init
 * container runs beside the sidecars started before it; sidecars also run beside the containers),
 * pod-level requests replacing the aggregate, then overhead added.
 */
function podRequests<T>(p: ParsedPod<T>, ar: Arith<T>, defaults: Amounts<T> | null): Amounts<T> {
  const reqs: Amounts<T> = new Map();
  for (const c of p.containers) addInto(reqs, withDefaults(c.requests, defaults), ar);
  // Most pods have no init containers: their maps are made only when needed (twice per new pod).
  if (p.initContainers.length > 0) {
    const sidecars: Amounts<T> = new Map();
    const initMax: Amounts<T> = new Map();
    for (const c of p.initContainers) {
      const own = withDefaults(c.requests, defaults);
      if (c.sidecar) {
        addInto(reqs, own, ar);
        addInto(sidecars, own, ar);
        maxInto(initMax, sidecars, ar);
      } else {
        const step = new Map(own);
        addInto(step, sidecars, ar);
        maxInto(initMax, step, ar);
      }
    }
    maxInto(reqs, initMax, ar);
  }
  if (p.podLevel !== null) for (const [name, v] of p.podLevel) reqs.set(name, v);
  if (p.overhead !== null) addInto(reqs, p.overhead, ar);
  return reqs;
}

/**
 * AggregateContainerRequests or AggregateContainerLimits of the spec alone (no status, no
 * defaults, no overhead), exact in nano-units; throws QuantityError on an invalid quantity.
 */
export function aggregateContainerResources(spec: PodSpec, field: 'requests' | 'limits'): Map<string, bigint> {
  const containers = (spec.containers ?? []).map((c) => ({ requests: readList(c.resources?.[field], nanoArith), sidecar: false }));
  const initContainers = (spec.initContainers ?? []).map((c) => ({ requests: readList(c.resources?.[field], nanoArith), sidecar: c.restartPolicy === 'Always' }));
  return podRequests({ containers, initContainers, podLevel: null, overhead: null }, nanoArith, null);
}

/** calculateResource with one arithmetic. */
function calculate<T>(pod: Pod, ar: Arith<T>, toUnits: (name: string, v: T) => number, opts: PodRequestsOptions): PodResourceRequests {
  const parsed = parsePod(pod, ar, opts);
  const requests = podRequests(parsed, ar, null);
  // getNonMissingContainerRequests: without pod-level requests both defaults apply per
  // container; with them, a default only for a resource the whole pod leaves unrequested.
  const defaults: Amounts<T> = new Map();
  const podLevelSet = parsed.podLevel !== null;
  if (!podLevelSet || !requests.has(ResourceCPU)) defaults.set(ResourceCPU, ar.defaultCPU);
  if (!podLevelSet || !requests.has(ResourceMemory)) defaults.set(ResourceMemory, ar.defaultMemory);
  const nonZero = defaults.size > 0 ? podRequests(parsed, ar, defaults) : requests;

  const resource = new Resource();
  for (const [name, v] of requests) {
    const n = toUnits(name, v);
    switch (name) {
      case ResourceCPU: resource.milliCPU += n; break;
      case ResourceMemory: resource.memory += n; break;
      case ResourceEphemeralStorage: resource.ephemeralStorage += n; break;
      case ResourcePods: resource.allowedPodNumber += n; break;
      default: if (isScalarResourceName(name)) resource.addScalar(name, n);
    }
  }
  const cpu = nonZero.get(ResourceCPU);
  const mem = nonZero.get(ResourceMemory);
  return {
    resource,
    nonZeroMilliCPU: cpu === undefined ? 0 : toUnits(ResourceCPU, cpu),
    nonZeroMemory: mem === undefined ? 0 : toUnits(ResourceMemory, mem),
  };
}

/** Nano-units to millicores (cpu) or base units, rounded up (away from zero when negative). */
function nanosToUnits(name: string, v: bigint): number {
  const d = name === ResourceCPU ? 1_000_000n : NANO;
  const q = v / d;
  if (q * d === v) return Number(q);
  return Number(v > 0n ? q + 1n : q - 1n);
}

/** A container status carrying resources (which then count: containerRequests). */
function hasStatusResources(list: readonly ContainerStatusResources[] | undefined): boolean {
  if (list === undefined) return false;
  for (const cs of list) if (cs.resources !== undefined && cs.resources !== null) return true;
  return false;
}

/**
 * calculate's result for the pod most pods are, without its maps: containers requesting only cpu
 * and memory, no init containers, overhead, pod-level requests or container status resources
 * (whatever `opts` says, none of them then counts), every amount exact in numbers. Undefined for
 * any other pod, which calculate then reads whole: a quantity it cannot read here (invalid, or not
 * exact) is read there, in the same order, so the same error or nano-unit result comes out.
 */
export function containersOnlyRequests(pod: Pod): PodResourceRequests | undefined {
  const spec = pod.spec;
  if ((spec.initContainers !== undefined && spec.initContainers.length > 0) || spec.overhead || isPodLevelRequestsSet(pod)) return undefined;
  const status = pod.status;
  if (status && (hasStatusResources(status.containerStatuses as ContainerStatusResources[] | undefined) ||
    hasStatusResources(status.initContainerStatuses as ContainerStatusResources[] | undefined))) return undefined;
  const resource = new Resource();
  let cpu = 0;
  let memory = 0;
  let nonZeroCPU = 0;
  let nonZeroMemory = 0;
  let named = false;
  try {
    for (const c of spec.containers ?? []) {
      const list = c.resources?.requests;
      let ownCPU: number | undefined;
      let ownMemory: number | undefined;
      if (list) {
        for (const name of Object.keys(list)) {
          if (name === ResourceCPU) ownCPU = numberArith.read(name, list[name]!);
          else if (name === ResourceMemory) ownMemory = numberArith.read(name, list[name]!);
          else return undefined;
        }
      }
      if (ownCPU !== undefined) cpu = numberArith.add(cpu, ownCPU);
      if (ownMemory !== undefined) memory = numberArith.add(memory, ownMemory);
      nonZeroCPU = numberArith.add(nonZeroCPU, ownCPU ?? DefaultMilliCPURequest);
      nonZeroMemory = numberArith.add(nonZeroMemory, ownMemory ?? DefaultMemoryRequest);
      named = true;
    }
  } catch (err) {
    if (err === notExact) return undefined;
    throw err;
  }
  resource.milliCPU = cpu;
  resource.memory = memory;
  // Without containers calculate's sums are empty: no default counts.
  return { resource, nonZeroMilliCPU: named ? nonZeroCPU : 0, nonZeroMemory: named ? nonZeroMemory : 0 };
}

/**
 * Computes the pod's requests once, as framework.PodInfo does (calculateResource), or with
 * `opts` leaving out pod-level or status resources; throws QuantityError on an invalid quantity.
 */
export function computePodResourceRequests(pod: Pod, opts: PodRequestsOptions = allParts): PodResourceRequests {
  return containersOnlyRequests(pod) ?? podResourceRequestsInMaps(pod, opts);
}

/** computePodResourceRequests for any pod: every part read into maps, summed by calculate. */
export function podResourceRequestsInMaps(pod: Pod, opts: PodRequestsOptions = allParts): PodResourceRequests {
  try {
    return calculate(pod, numberArith, (_name, v) => v, opts);
  } catch (err) {
    if (err !== notExact) throw err;
    return calculate(pod, nanoArith, nanosToUnits, opts);
  }
}
