// The StatefulSet controller of the embedded cluster: pods <name>-<ordinal> with their claims from
// volumeClaimTemplates, created in order (OrderedReady) or all at once (Parallel), removed from
// the highest ordinal (pkg/controller/statefulset/stateful_set_control.go, stateful_set_utils.go).
import type { ObjectMeta, PersistentVolumeClaim, Pod, PodSpec } from '../../../api/types.js';
import { controllerRef, isActive, ownedPods, podFromTemplate, type Workload } from './owned.js';
import { countReplicas, withoutZeros, writeStatus } from './status.js';
import type { ControllerContext } from './store.js';

const statefulSetPodNameLabel = 'statefulset.kubernetes.io/pod-name';
const podIndexLabel = 'apps.kubernetes.io/pod-index';

interface StatefulSet extends Workload {
  spec?: Workload['spec'] & {
    podManagementPolicy?: 'OrderedReady' | 'Parallel';
    serviceName?: string;
    ordinals?: { start?: number };
    volumeClaimTemplates?: { metadata?: ObjectMeta; spec?: PersistentVolumeClaim['spec'] }[];
  };
}

function ordinalOf(set: StatefulSet, pod: Pod): number {
  const m = /-(\d+)$/.exec(pod.metadata.name ?? '');
  return m && pod.metadata.name === `${set.metadata.name}-${m[1]}` ? Number(m[1]) : -1;
}

/**
 * Creates the claims and the pod of each missing ordinal in [start, start+replicas); under
 * OrderedReady only while every lower ordinal is running, which here means bound to a node (no
 * kubelet reports readiness). Deletes pods outside the range, highest ordinal first, one at a
 * time under OrderedReady.
 */
export function syncStatefulSet(ctx: ControllerContext, set: StatefulSet): void {
  const ns = set.metadata.namespace ?? 'default';
  const start = set.spec?.ordinals?.start ?? 0;
  const replicas = set.spec?.replicas ?? 1;
  const parallel = set.spec?.podManagementPolicy === 'Parallel';
  const byOrdinal = new Map<number, Pod>();
  for (const p of ownedPods(ctx, set)) if (isActive(p)) byOrdinal.set(ordinalOf(set, p), p);

  for (let ord = start; ord < start + replicas; ord++) {
    const existing = byOrdinal.get(ord);
    if (existing !== undefined) {
      if (!parallel && !existing.spec.nodeName) break;
      continue;
    }
    createClaims(ctx, set, ord);
    ctx.store.create(statefulPod(set, ord));
    if (!parallel) break;
  }
  const surplus = [...byOrdinal.entries()].filter(([ord]) => ord < start || ord >= start + replicas).sort((a, b) => b[0] - a[0]);
  for (const [, p] of parallel ? surplus : surplus.slice(0, 1)) ctx.store.remove('Pod', ns, p.metadata.name ?? '');
  writeStatefulSetStatus(ctx, set);
}

/** replicas, readyReplicas, currentReplicas, updatedReplicas (every pod has the current template) and availableReplicas. */
function writeStatefulSetStatus(ctx: ControllerContext, set: StatefulSet & { status?: Record<string, unknown> }): void {
  const c = countReplicas(ownedPods(ctx, set), (set.spec as { minReadySeconds?: number } | undefined)?.minReadySeconds ?? 0, ctx.clock.now());
  writeStatus(ctx, set, withoutZeros({
    observedGeneration: set.metadata.generation ?? 1, replicas: c.replicas, readyReplicas: c.ready, currentReplicas: c.replicas,
    updatedReplicas: c.replicas, availableReplicas: c.available,
  }, ['replicas', 'availableReplicas']));
}

function claimName(template: string, set: StatefulSet, ord: number): string {
  return `${template}-${set.metadata.name}-${ord}`;
}

/** A claim per volumeClaimTemplate that does not exist yet (they outlive the pod: retention Retain). */
function createClaims(ctx: ControllerContext, set: StatefulSet, ord: number): void {
  const ns = set.metadata.namespace ?? 'default';
  for (const t of set.spec?.volumeClaimTemplates ?? []) {
    const name = claimName(t.metadata?.name ?? '', set, ord);
    if (ctx.store.get('PersistentVolumeClaim', ns, name) !== undefined) continue;
    const labels = { ...(set.spec?.selector?.matchLabels ?? {}), ...(t.metadata?.labels ?? {}) };
    ctx.store.create<PersistentVolumeClaim>({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: ns, labels }, spec: t.spec ?? {} });
  }
}

function statefulPod(set: StatefulSet, ord: number): Pod {
  const name = `${set.metadata.name}-${ord}`;
  const pod = podFromTemplate(set, controllerRef(set, 'apps/v1', 'StatefulSet'), { name }, { [statefulSetPodNameLabel]: name, [podIndexLabel]: String(ord) });
  const spec: PodSpec = pod.spec;
  spec.hostname = name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  const templates = new Set((set.spec?.volumeClaimTemplates ?? []).map((t) => t.metadata?.name ?? ''));
  const volumes = (spec.volumes ?? []).filter((v) => !templates.has(v.name));
  for (const t of templates) volumes.push({ name: t, persistentVolumeClaim: { claimName: claimName(t, set, ord) } });
  if (volumes.length > 0) spec.volumes = volumes;
  return pod;
}
