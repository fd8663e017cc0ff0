// What the API server does to resource.k8s.io/v1 objects before validating them: the defaults
// (pkg/apis/resource/v1/defaults.go and its generated defaulters: requests ExactCount with count
// 1, toleration operator Equal, taints stamped with the time they were added), applied in place,
// and the claim status strategy's drop of deallocated devices (pkg/registry/resource/resourceclaim).
import type { DeviceSubRequest, DeviceTaint, DeviceToleration, ExactDeviceRequest, ResourceClaim, ResourceClaimSpec } from '../dra_types.js';
import type { KubeObject } from '../types.js';

function defaultRequest(r: ExactDeviceRequest | DeviceSubRequest): void {
  r.allocationMode ??= 'ExactCount';
  if (r.allocationMode === 'ExactCount' && !r.count) r.count = 1;
  defaultTolerations(r.tolerations);
}

function defaultTolerations(tolerations: DeviceToleration[] | undefined): void {
  for (const t of tolerations ?? []) t.operator ??= 'Equal';
}

function defaultClaimSpec(spec: ResourceClaimSpec | undefined): void {
  for (const r of spec?.devices?.requests ?? []) {
    if (r.exactly) defaultRequest(r.exactly);
    for (const s of r.firstAvailable ?? []) defaultRequest(s);
  }
}

function defaultTaint(t: DeviceTaint | undefined, now: string | undefined): void {
  if (t && now !== undefined) t.timeAdded ??= now;
}

type Loose = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

/**
 * Defaults a DRA object of any kind in place (other kinds are left alone). `now` (RFC 3339,
 * whole seconds) stamps taints without a timeAdded; without it they are left as they are.
 */
export function applyResourceDefaults(obj: KubeObject, now?: string): void {
  const o = obj as Loose;
  if (!o.spec || typeof o.spec !== 'object') return;
  switch (o.kind) {
    case 'ResourceClaim': {
      defaultClaimSpec(o.spec as ResourceClaimSpec);
      const results = (o.status?.allocation as { devices?: { results?: { tolerations?: DeviceToleration[] }[] } } | undefined)?.devices?.results;
      for (const r of results ?? []) defaultTolerations(r.tolerations);
      return;
    }
    case 'ResourceClaimTemplate':
      defaultClaimSpec((o.spec as { spec?: ResourceClaimSpec }).spec);
      return;
    case 'ResourceSlice':
      for (const d of (o.spec as { devices?: { taints?: DeviceTaint[] }[] }).devices ?? []) for (const t of d.taints ?? []) defaultTaint(t, now);
      return;
    case 'DeviceTaintRule':
      defaultTaint((o.spec as { taint?: DeviceTaint }).taint, now);
      return;
    default:
  }
}

/** What `??=` fills. */
const unset = (v: unknown): boolean => v === undefined || v === null;

function requestDefaulted(r: ExactDeviceRequest | DeviceSubRequest): boolean {
  if (unset(r.allocationMode) || (r.allocationMode === 'ExactCount' && !r.count)) return false;
  return tolerationsDefaulted(r.tolerations);
}

function tolerationsDefaulted(tolerations: readonly DeviceToleration[] | undefined): boolean {
  for (const t of tolerations ?? []) if (unset(t.operator)) return false;
  return true;
}

function claimSpecDefaulted(spec: ResourceClaimSpec | undefined): boolean {
  for (const r of spec?.devices?.requests ?? []) {
    if (r.exactly && !requestDefaulted(r.exactly)) return false;
    for (const s of r.firstAvailable ?? []) if (!requestDefaulted(s)) return false;
  }
  return true;
}

/**
 * Whether applyResourceDefaults without `now` would leave `obj` as it is (read only): objects the
 * store wrote are defaulted already, and validating them needs no defaulted copy.
 */
export function hasResourceDefaults(obj: KubeObject): boolean {
  const o = obj as Loose;
  if (!o.spec || typeof o.spec !== 'object') return true;
  switch (o.kind) {
    case 'ResourceClaim': {
      if (!claimSpecDefaulted(o.spec as ResourceClaimSpec)) return false;
      const results = (o.status?.allocation as { devices?: { results?: { tolerations?: DeviceToleration[] }[] } } | undefined)?.devices?.results;
      for (const r of results ?? []) if (!tolerationsDefaulted(r.tolerations)) return false;
      return true;
    }
    case 'ResourceClaimTemplate':
      return claimSpecDefaulted((o.spec as { spec?: ResourceClaimSpec }).spec);
    default:
      // Taints are stamped only with a time, which validation's defaulting never passes.
      return true;
  }
}

const sharedDeviceID = (d: { driver?: string; pool?: string; device?: string; shareID?: string }): string =>
  `${d.driver ?? ''}/${d.pool ?? ''}/${d.device ?? ''}${d.shareID ? `/${d.shareID}` : ''}`;

/**
 * A status write drops the status of devices the write deallocates (dropDeallocatedStatusDevices):
 * those of the old allocation that the new one no longer has. Changes `next` in place.
 */
export function dropDeallocatedStatusDevices(old: ResourceClaim, next: ResourceClaim): void {
  const devices = next.status?.devices;
  if (!devices || !old.status?.allocation) return;
  const kept = new Set((next.status?.allocation?.devices?.results ?? []).map(sharedDeviceID));
  const gone = new Set((old.status.allocation.devices?.results ?? []).map(sharedDeviceID).filter((id) => !kept.has(id)));
  if (gone.size === 0) return;
  const remaining = devices.filter((d) => !gone.has(sharedDeviceID(d)));
  if (remaining.length > 0) next.status!.devices = remaining;
  else delete next.status!.devices;
}
