// Builders for the allocator's tests: nodes, slices, devices, classes and claims in few words.
import type { Node } from '../../api/types.js';
import type { Device, DeviceClass, DeviceConstraint, DeviceRequest, ResourceClaim, ResourceSlice, ResourceSliceSpec } from '../../api/dra_types.js';
import { CelCache } from '../../api/cel/index.js';
import { Allocator, DefaultFeatures, newAllocatedState, type AllocatedState, type AllocatorOptions, type DeviceClassLister, type Features } from './index.js';

export const driverA = 'driver-a';
export const driverB = 'driver-b';
export const classA = 'class-a';
export const classB = 'class-b';

export function node(name: string, labels: Record<string, string> = {}): Node {
  return { metadata: { name, labels } } as Node;
}

export function device(name: string, extra: Partial<Device> = {}): Device {
  return { name, ...extra };
}

/** A slice of `pool` (generation 1, one slice) local to `nodeName`, or with other node fields. */
export function slice(name: string, nodeName: string | undefined, pool: string, driver: string, devices: Device[], extra: Partial<ResourceSliceSpec> = {}): ResourceSlice {
  return {
    metadata: { name },
    spec: { driver, pool: { name: pool, generation: 1, resourceSliceCount: 1 }, ...(nodeName ? { nodeName } : {}), devices, ...extra },
  };
}

export function deviceClass(name: string, driver: string, extra: Partial<DeviceClass['spec']> = {}): DeviceClass {
  return { metadata: { name }, spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }], ...extra } };
}

export function exactly(name: string, className: string, count = 1, extra: Partial<NonNullable<DeviceRequest['exactly']>> = {}): DeviceRequest {
  return { name, exactly: { deviceClassName: className, allocationMode: 'ExactCount', count, ...extra } };
}

export function allOf(name: string, className: string): DeviceRequest {
  return { name, exactly: { deviceClassName: className, allocationMode: 'All' } };
}

export function claim(name: string, requests: DeviceRequest[], constraints: DeviceConstraint[] = [], extra: Partial<NonNullable<ResourceClaim['spec']['devices']>> = {}): ResourceClaim {
  return { metadata: { name, namespace: 'default', uid: `uid-${name}` }, spec: { devices: { requests, constraints, ...extra } } };
}

export interface AllocatorSetup {
  classes?: DeviceClass[];
  slices?: ResourceSlice[];
  allocated?: AllocatedState;
  features?: Partial<Features>;
}

/** An allocator over the setup, with deterministic share IDs. */
export function newAllocator(setup: AllocatorSetup): Allocator {
  const features: Features = { ...DefaultFeatures, ...setup.features };
  const classes = new Map((setup.classes ?? []).map((c) => [c.metadata.name!, c]));
  let share = 0;
  const classLister: DeviceClassLister = (name) => classes.get(name);
  const options: AllocatorOptions = {
    features,
    allocatedState: setup.allocated ?? newAllocatedState(),
    classLister,
    slices: setup.slices ?? [],
    celCache: new CelCache(100, { consumableCapacity: features.consumableCapacity, listTypeAttributes: features.listTypeAttributes }),
    newShareID: () => `share-${++share}`,
  };
  return new Allocator(options);
}
