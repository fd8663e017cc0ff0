// The disruption controller of the embedded cluster: each PodDisruptionBudget's status (expected
// pods, desired and current healthy, disruptions allowed, recent evictions, the DisruptionAllowed
// condition) from the pods it selects and their controllers' scale, as kube-controller-manager's
// (pkg/controller/disruption/disruption.go, component-helpers/apps/poddisruptionbudget).
import { Selector } from '../../../api/labels.js';
import type { KubeObject, LabelSelector, Pod } from '../../../api/types.js';
import type { VersionedEvent } from '../versioned_event.js';
import { isPodReady } from './status.js';
import type { ControllerContext } from './store.js';

/** How long an eviction the API server recorded keeps its pod out of currentHealthy (DeletionTimeout). */
const deletionTimeoutMs = 2 * 60 * 1000;

export interface PdbCondition {
  type: string;
  status: 'True' | 'False';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface PdbStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: PdbCondition[];
}

export interface Pdb extends KubeObject {
  spec?: { minAvailable?: number | string; maxUnavailable?: number | string; selector?: LabelSelector; unhealthyPodEvictionPolicy?: string };
  status?: PdbStatus;
}

type Scaled = KubeObject & { spec?: { replicas?: number } };

const scaledKinds = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/** intstr.GetScaledValueFromIntOrPercent with rounding up. */
function scaledUp(v: number | string, total: number): number {
  if (typeof v === 'number') return v;
  return Math.ceil((Number(v.replace(/%$/, '')) * total) / 100);
}

function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The DisruptionAllowed condition for `status` (UpdateDisruptionAllowedCondition, or the sync failure's). */
export function disruptionAllowedCondition(status: PdbStatus, now: number, failure?: string): PdbCondition[] {
  const next = failure !== undefined
    ? { status: 'False' as const, reason: 'SyncFailed', message: failure }
    : status.disruptionsAllowed > 0
      ? { status: 'True' as const, reason: 'SufficientPods', message: '' }
      : { status: 'False' as const, reason: 'InsufficientPods', message: '' };
  const conditions = status.conditions ?? [];
  const cur = conditions.find((c) => c.type === 'DisruptionAllowed');
  const lastTransitionTime = cur !== undefined && cur.status === next.status ? cur.lastTransitionTime : timestamp(now);
  const cond: PdbCondition = { type: 'DisruptionAllowed', status: next.status, lastTransitionTime, reason: next.reason, message: next.message };
  if (status.observedGeneration !== undefined) cond.observedGeneration = status.observedGeneration;
  const ordered: PdbCondition = { type: cond.type, status: cond.status, ...(cond.observedGeneration !== undefined ? { observedGeneration: cond.observedGeneration } : {}),
    lastTransitionTime: cond.lastTransitionTime, reason: cond.reason, message: cond.message };
  return cur === undefined ? [...conditions, ordered] : conditions.map((c) => (c === cur ? ordered : c));
}

export class DisruptionController {
  private unsubscribe: (() => void) | null = null;
  private readonly dirty = new Set<string>();
  private scheduled = false;

  constructor(private readonly ctx: ControllerContext) {}

  start(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.ctx.store.subscribe((e) => this.onChange(e));
    for (const pdb of this.ctx.store.list<Pdb>('PodDisruptionBudget')) this.markNamespace(pdb.metadata?.namespace ?? 'default');
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private onChange({ event }: VersionedEvent): void {
    if (event.kind === 'Pod' || event.kind === 'PodDisruptionBudget' || scaledKinds.has(event.kind)) {
      this.markNamespace(event.object.metadata?.namespace ?? 'default');
    }
  }

  private markNamespace(ns: string): void {
    this.dirty.add(ns);
    if (this.scheduled || this.unsubscribe === null) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const namespaces = [...this.dirty];
      this.dirty.clear();
      for (const pdb of this.ctx.store.list<Pdb>('PodDisruptionBudget')) {
        if (namespaces.includes(pdb.metadata?.namespace ?? 'default')) this.sync(pdb);
      }
    });
  }

  /** Recomputes one budget's status and writes it when it changed. */
  private sync(pdb: Pdb): void {
    const ns = pdb.metadata?.namespace ?? 'default';
    const now = this.ctx.clock.now();
    let selector: Selector;
    try {
      selector = Selector.compile(pdb.spec?.selector);
    } catch {
      selector = Selector.nothing;
    }
    const pods = this.ctx.store.list<Pod>('Pod').filter((p) => (p.metadata.namespace ?? 'default') === ns && selector.matches(p.metadata.labels));
    const expected = this.expectedPodCount(pdb, pods);
    const base: PdbStatus = { ...(pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }) };
    if ('error' in expected) {
      // failSafe: no disruptions while the budget cannot be computed.
      const status: PdbStatus = { ...base, disruptionsAllowed: 0, observedGeneration: pdb.metadata?.generation ?? 1 };
      status.conditions = disruptionAllowedCondition(status, now, expected.error);
      this.write(pdb, status);
      return;
    }
    const disrupted = this.disruptedPodMap(pdb, pods, now);
    let currentHealthy = 0;
    for (const p of pods) {
      if (p.metadata.deletionTimestamp !== undefined) continue;
      const at = disrupted[p.metadata.name ?? ''];
      if (at !== undefined && Date.parse(at) + deletionTimeoutMs > now) continue;
      if (isPodReady(p)) currentHealthy++;
    }
    let disruptionsAllowed = currentHealthy - expected.desiredHealthy;
    if (expected.expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    // Go's field order: observedGeneration, disruptedPods (omitted when empty), then the counts.
    const status: PdbStatus = {
      observedGeneration: pdb.metadata?.generation ?? 1,
      ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
      disruptionsAllowed, currentHealthy, desiredHealthy: expected.desiredHealthy, expectedPods: expected.expectedCount,
    };
    status.conditions = disruptionAllowedCondition({ ...status, conditions: base.conditions }, now);
    this.write(pdb, status);
  }

  private write(pdb: Pdb, status: PdbStatus): void {
    if (JSON.stringify(pdb.status ?? {}) === JSON.stringify(status)) return;
    this.ctx.store.update({ ...pdb, status });
  }

  /** The recorded evictions of pods that still exist and are not yet being deleted, within the deletion timeout (buildDisruptedPodMap). */
  private disruptedPodMap(pdb: Pdb, pods: readonly Pod[], now: number): Record<string, string> {
    const recorded = pdb.status?.disruptedPods ?? {};
    const out: Record<string, string> = {};
    for (const p of pods) {
      const name = p.metadata.name ?? '';
      const at = recorded[name];
      if (at === undefined || p.metadata.deletionTimestamp !== undefined) continue;
      if (Date.parse(at) + deletionTimeoutMs <= now) continue;
      out[name] = at;
    }
    return out;
  }

  /** getExpectedPodCount: an integer minAvailable counts the pods; a percentage or maxUnavailable their controllers' scale. */
  private expectedPodCount(pdb: Pdb, pods: readonly Pod[]): { expectedCount: number; desiredHealthy: number } | { error: string } {
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    if (maxUnavailable !== undefined) {
      const scale = this.expectedScale(pods);
      if ('error' in scale) return scale;
      return { expectedCount: scale.count, desiredHealthy: Math.max(0, scale.count - scaledUp(maxUnavailable, scale.count)) };
    }
    if (typeof minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: minAvailable };
    if (typeof minAvailable === 'string') {
      const scale = this.expectedScale(pods);
      if ('error' in scale) return scale;
      return { expectedCount: scale.count, desiredHealthy: scaledUp(minAvailable, scale.count) };
    }
    return { expectedCount: 0, desiredHealthy: 0 };
  }

  /** The sum of the scales of the pods' controllers, each counted once (getExpectedScale); pods without a controller are left out. */
  private expectedScale(pods: readonly Pod[]): { count: number } | { error: string } {
    const scales = new Map<string, number>();
    for (const p of pods) {
      const ref = p.metadata.ownerReferences?.find((r) => r.controller === true);
      if (ref === undefined) continue;
      const ns = p.metadata.namespace ?? 'default';
      let owner = this.ctx.store.get<Scaled>(ref.kind, ns, ref.name);
      if (owner === undefined || owner.metadata?.uid !== ref.uid || !scaledKinds.has(ref.kind)) return { error: `found no controllers for pod "${p.metadata.name ?? ''}"` };
      // A Deployment's ReplicaSet counts as the Deployment.
      const dep = ref.kind === 'ReplicaSet' ? owner.metadata?.ownerReferences?.find((r) => r.controller === true && r.kind === 'Deployment') : undefined;
      if (dep !== undefined) {
        const d = this.ctx.store.get<Scaled>('Deployment', ns, dep.name);
        if (d !== undefined && d.metadata?.uid === dep.uid) owner = d;
      }
      scales.set(owner.metadata?.uid ?? '', owner.spec?.replicas ?? 0);
    }
    let count = 0;
    for (const n of scales.values()) count += n;
    return { count };
  }
}
