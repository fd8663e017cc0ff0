// The one typed cast of a queueing hint's arguments (pkg/scheduler/util/utils.go As).
import type {
  CSIDriver,
  CSINode,
  CSIStorageCapacity,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
  VolumeAttachment,
} from '../api/types.js';
import type { DeviceClass, DeviceTaintRule, ResourceClaim, ResourceSlice } from '../api/dra_types.js';
import type { CompositePodGroup, PodGroup } from '../api/scheduling.js';

/** The objects cluster events carry, by kind. */
export interface EventObjectKinds {
  Pod: Pod;
  Node: Node;
  PersistentVolume: PersistentVolume;
  PersistentVolumeClaim: PersistentVolumeClaim;
  StorageClass: StorageClass;
  CSINode: CSINode;
  CSIDriver: CSIDriver;
  CSIStorageCapacity: CSIStorageCapacity;
  VolumeAttachment: VolumeAttachment;
  ResourceClaim: ResourceClaim;
  ResourceSlice: ResourceSlice;
  DeviceClass: DeviceClass;
  DeviceTaintRule: DeviceTaintRule;
  PodGroup: PodGroup;
  CompositePodGroup: CompositePodGroup;
}

/** A cluster event's objects before and after; null where the event has none (add, delete). */
export interface EventObjects<T> {
  readonly oldObj: T | null;
  readonly newObj: T | null;
}

/**
 * `oldObj` and `newObj` as objects of `kind`, or null when either is something else: a hint then
 * answers Queue, as upstream's hints do when As fails. An object without `kind` (list items from
 * an API server carry none) is taken as the kind its event is about.
 */
export function eventObjectsAs<K extends keyof EventObjectKinds>(kind: K, oldObj: unknown, newObj: unknown): EventObjects<EventObjectKinds[K]> | null {
  if (!absentOrOfKind(kind, oldObj) || !absentOrOfKind(kind, newObj)) return null;
  return { oldObj: oldObj ?? null, newObj: newObj ?? null };
}

function absentOrOfKind<K extends keyof EventObjectKinds>(kind: K, x: unknown): x is EventObjectKinds[K] | null | undefined {
  if (x === null || x === undefined) return true;
  if (typeof x !== 'object' || Array.isArray(x)) return false;
  const k = (x as { kind?: unknown }).kind;
  return k === undefined || k === kind;
}
