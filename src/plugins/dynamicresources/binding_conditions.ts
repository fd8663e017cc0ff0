// Devices with binding conditions (DRADeviceBindingConditions): a claim is ready for binding once
// every condition of its devices is true, and fails when a failure condition is
// (dynamicresources.go isClaimReadyForBinding, isClaimTimeout, hasBindingConditions).
import type { AllocatedDeviceStatus, DeviceRequestAllocationResult, ResourceClaim } from '../../api/dra_types.js';

const ErrDeviceBindingFailed = 'device binding failed';
export const ErrDeviceBindingTimeout = 'device binding timeout';

export interface BindingReadiness {
  /** Every binding condition is true (vacuously so without any). */
  readonly ready: boolean;
  /** Upstream's error when a binding failure condition is true. */
  readonly failed: string | null;
  /** The allocation is older than the binding timeout while some device still has conditions. */
  readonly timedOut: boolean;
}

function deviceStatus(claim: ResourceClaim, r: DeviceRequestAllocationResult): AllocatedDeviceStatus | undefined {
  return claim.status?.devices?.find((d) => d.device === r.device && d.driver === r.driver && d.pool === r.pool);
}

const conditionTrue = (s: AllocatedDeviceStatus, type: string): boolean => (s.conditions ?? []).some((c) => c.type === type && c.status === 'True');

function isTimedOut(claim: ResourceClaim, nowMs: number, bindingTimeoutMs: number): boolean {
  const allocation = claim.status?.allocation;
  const stamp = allocation?.allocationTimestamp;
  if (stamp === undefined) return false;
  const withConditions = (allocation!.devices?.results ?? []).some((r) => r.bindingConditions !== undefined);
  return withConditions && Date.parse(stamp) + bindingTimeoutMs < nowMs;
}

export function bindingReadiness(claim: ResourceClaim, nowMs: number, bindingTimeoutMs: number): BindingReadiness {
  const allocation = claim.status?.allocation;
  if (allocation === undefined) return { ready: false, failed: null, timedOut: false };
  for (const r of allocation.devices?.results ?? []) {
    if ((r.bindingConditions?.length ?? 0) === 0) continue;
    const s = deviceStatus(claim, r);
    if (s === undefined) return { ready: false, failed: null, timedOut: isTimedOut(claim, nowMs, bindingTimeoutMs) };
    for (const type of r.bindingFailureConditions ?? []) {
      const c = (s.conditions ?? []).find((x) => x.type === type);
      if (c !== undefined && c.status === 'True') {
        return { ready: false, failed: `${ErrDeviceBindingFailed}: claim=${claim.metadata.name ?? ''}, reason=${c.reason}, message=${JSON.stringify(c.message)}`, timedOut: false };
      }
    }
    for (const type of r.bindingConditions!) {
      if (!conditionTrue(s, type)) return { ready: false, failed: null, timedOut: isTimedOut(claim, nowMs, bindingTimeoutMs) };
    }
  }
  return { ready: true, failed: null, timedOut: false };
}

/** Whether PreBind has to wait for some allocated device (hasBindingConditions). */
export function hasBindingConditions(claims: readonly ResourceClaim[]): boolean {
  for (const c of claims) for (const r of c.status?.allocation?.devices?.results ?? []) if ((r.bindingConditions?.length ?? 0) > 0) return true;
  return false;
}
