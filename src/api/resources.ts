// Pod resource requests as the scheduler computes them (component-helpers resource.PodRequests and
// framework.PodInfo's calculateResource), and the numeric Resource the hot path works with.
import type { Container, Pod, ResourceList } from './types.js';
import { quantityMilliValue, quantityValue } from './quantity.js';

export const ResourceCPU = 'cpu';
export const ResourceMemory = 'memory';
export const ResourceEphemeralStorage = 'ephemeral-storage';
export const ResourcePods = 'pods';

/** Defaults used for scoring when a container does not request cpu/memory (schedutil). */
export const DefaultMilliCPURequest = 100;
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

/**
 * Extended resources (domain-qualified, outside kubernetes.io/), hugepages-*, prefixed native
 * resources (`kubernetes.io/...`) and attachable volumes (schedutil.IsScalarResourceName).
 */
export function isScalarResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith('hugepages-') || name.includes('kubernetes.io/') ||
    name.startsWith('attachable-volumes-');
}

export function isExtendedResourceName(name: string): boolean {
  if (name.startsWith('requests.')) return false;
  const slash = name.indexOf('/');
  if (slash < 0) return false;
  const domain = name.slice(0, slash);
  return !(domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io'));
}

export interface PodResourceRequests {
  /** What the pod requests, for fit checks. */
  readonly resource: Resource;
  /** cpu with missing container requests counted as 100m, for scoring. */
  readonly nonZeroMilliCPU: number;
  /** memory with missing container requests counted as 200Mi, for scoring. */
  readonly nonZeroMemory: number;
}

type NumericList = Map<string, number>;

function toNumeric(list: ResourceList | undefined): NumericList {
  const out: NumericList = new Map();
  if (!list) return out;
  for (const name of Object.keys(list)) {
    out.set(name, name === ResourceCPU ? quantityMilliValue(list[name]!) : quantityValue(list[name]!));
  }
  return out;
}

function addInto(dst: NumericList, src: NumericList): void {
  for (const [k, v] of src) dst.set(k, (dst.get(k) ?? 0) + v);
}

function maxInto(dst: NumericList, src: NumericList): void {
  for (const [k, v] of src) if (v > (dst.get(k) ?? -Infinity)) dst.set(k, v);
}

function containerRequests(c: Container, nonMissing: NumericList | null): NumericList {
  const reqs = toNumeric(c.resources?.requests);
  if (nonMissing) for (const [k, v] of nonMissing) if (!reqs.has(k)) reqs.set(k, v);
  return reqs;
}

/** resource.PodRequests: containers, init containers, restartable sidecars, pod-level resources, overhead. */
function podRequests(pod: Pod, nonMissing: NumericList | null): NumericList {
  const reqs: NumericList = new Map();
  for (const c of pod.spec.containers ?? []) addInto(reqs, containerRequests(c, nonMissing));
  const sidecars: NumericList = new Map();
  const initMax: NumericList = new Map();
  for (const c of pod.spec.initContainers ?? []) {
    const cr = containerRequests(c, nonMissing);
    let effective: NumericList;
    if (c.restartPolicy === 'Always') {
      addInto(reqs, cr);
      addInto(sidecars, cr);
      effective = new Map(sidecars);
    } else {
      effective = new Map(cr);
      addInto(effective, sidecars);
    }
    maxInto(initMax, effective);
  }
  maxInto(reqs, initMax);
  const podLevel = pod.spec.resources?.requests;
  if (podLevel) {
    const pl = toNumeric(podLevel);
    for (const name of [ResourceCPU, ResourceMemory]) {
      const v = pl.get(name);
      if (v !== undefined) reqs.set(name, v);
    }
  }
  if (pod.spec.overhead) addInto(reqs, toNumeric(pod.spec.overhead));
  return reqs;
}

function numericToResource(list: NumericList): Resource {
  const r = new Resource();
  for (const [name, v] of list) {
    switch (name) {
      case ResourceCPU: r.milliCPU += v; break;
      case ResourceMemory: r.memory += v; break;
      case ResourceEphemeralStorage: r.ephemeralStorage += v; break;
      case ResourcePods: r.allowedPodNumber += v; break;
      default: if (isScalarResourceName(name)) r.addScalar(name, v);
    }
  }
  return r;
}

/** Computes the pod's requests once, as framework.PodInfo does; throws QuantityError on a bad quantity. */
export function computePodResourceRequests(pod: Pod): PodResourceRequests {
  const requests = podRequests(pod, null);
  const podLevel = pod.spec.resources?.requests;
  const nonMissing: NumericList = new Map();
  if (!podLevel || podLevel[ResourceCPU] === undefined) nonMissing.set(ResourceCPU, DefaultMilliCPURequest);
  if (!podLevel || podLevel[ResourceMemory] === undefined) nonMissing.set(ResourceMemory, DefaultMemoryRequest);
  const nonZero = nonMissing.size > 0 ? podRequests(pod, nonMissing) : requests;
  return {
    resource: numericToResource(requests),
    nonZeroMilliCPU: nonZero.get(ResourceCPU) ?? 0,
    nonZeroMemory: nonZero.get(ResourceMemory) ?? 0,
  };
}
