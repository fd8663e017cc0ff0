// DRADeviceCompatibilityGroups (structured/internal/experimental/compatibility_groups.go and the
// allocator's checkAndConsumeCompatibilityGroups): devices drawing from one counter set may be
// allocated together only while their declared groups share a value. A device that declares no
// groups goes only with others that declare none.
import type { Device, ResourceSlice } from '../../api/dra_types.js';

/** The devices placed on one counter set so far, as far as their groups matter. */
export interface GroupIntersection {
  /** False until a first device is placed: anything is admitted then. */
  readonly hasMembers: boolean;
  /** Every device so far declared no groups. */
  readonly allEmpty: boolean;
  /** The groups all devices so far share (hasMembers and not allEmpty). */
  readonly groups: ReadonlySet<string>;
}

export const NO_MEMBERS: GroupIntersection = Object.freeze({ hasMembers: false, allEmpty: false, groups: new Set<string>() });

export function admits(i: GroupIntersection, groups: readonly string[] | undefined): boolean {
  if (!i.hasMembers) return true;
  if (!groups || groups.length === 0) return i.allEmpty;
  if (i.allEmpty) return false;
  for (const g of groups) if (i.groups.has(g)) return true;
  return false;
}

/** The intersection with one more device; never changes `i`, so the old value restores a backtrack. */
export function withDevice(i: GroupIntersection, groups: readonly string[] | undefined): GroupIntersection {
  const none = !groups || groups.length === 0;
  if (!i.hasMembers) return { hasMembers: true, allEmpty: none, groups: new Set(none ? [] : groups) };
  if (i.allEmpty || none) return i;
  const narrowed = new Set<string>();
  for (const g of groups) if (i.groups.has(g)) narrowed.add(g);
  return { hasMembers: true, allEmpty: false, groups: narrowed };
}

/**
 * Per counter set of a pool, what its already-allocated devices declare (read from the slices,
 * as the counters are).
 */
export function allocatedBaseline(slices: readonly (readonly ResourceSlice[])[], isAllocated: (slice: ResourceSlice, device: Device) => boolean): Map<string, GroupIntersection> {
  const baseline = new Map<string, GroupIntersection>();
  for (const list of slices) {
    for (const slice of list) {
      for (const device of slice.spec.devices ?? []) {
        if (!isAllocated(slice, device)) continue;
        for (const c of device.consumesCounters ?? []) baseline.set(c.counterSet, withDevice(baseline.get(c.counterSet) ?? NO_MEMBERS, c.compatibilityGroups));
      }
    }
  }
  return baseline;
}
