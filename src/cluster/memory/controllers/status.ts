// The status fields workload controllers write from their pods' readiness, as `kubectl rollout
// status` and `kubectl get` read them (pkg/controller/replicaset/replica_set_utils.go
// calculateStatus, pkg/controller/deployment/sync.go calculateStatus, pkg/api/v1/pod IsPodReady).
import type { Pod } from '../../../api/types.js';
import { isActive, type Workload } from './owned.js';
import type { ControllerContext } from './store.js';

/** A pod whose Ready condition is True (podutil.IsPodReady). */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Ready for at least minReadySeconds at `now` (podutil.IsPodAvailable). */
function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const ready = (pod.status?.conditions ?? []).find((c) => c.type === 'Ready' && c.status === 'True');
  if (ready === undefined) return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(ready.lastTransitionTime ?? '');
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now;
}

interface ReplicaCounts {
  replicas: number;
  ready: number;
  available: number;
}

/** The active pods' count, ready count and available count. */
export function countReplicas(pods: readonly Pod[], minReadySeconds: number, now: number): ReplicaCounts {
  let replicas = 0;
  let ready = 0;
  let available = 0;
  for (const p of pods) {
    if (!isActive(p)) continue;
    replicas++;
    if (isPodReady(p)) ready++;
    if (isPodAvailable(p, minReadySeconds, now)) available++;
  }
  return { replicas, ready, available };
}

/** Drops the zero counts a status serializes with omitempty. */
export function withoutZeros<T extends Record<string, unknown>>(status: T, keep: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(status)) if (v !== 0 || keep.includes(k)) out[k] = v;
  return out as T;
}

/** Writes `status` unless the stored one is the same (controllers' status writes are no-ops otherwise, and no-op writes would wake them again). */
export function writeStatus(ctx: ControllerContext, w: Workload & { status?: unknown }, status: Record<string, unknown>): void {
  if (JSON.stringify(w.status ?? {}) === JSON.stringify(status)) return;
  ctx.store.update({ ...w, status });
}
