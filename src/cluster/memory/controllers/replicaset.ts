// The ReplicaSet controller of the embedded cluster: keeps spec.replicas active pods made from the
// template (pkg/controller/replicaset/replica_set.go, without adoption of orphans or slow start).
import type { Pod } from '../../../api/types.js';
import { controllerRef, isActive, ownedPods, podFromTemplate, type Workload } from './owned.js';
import { countReplicas, withoutZeros, writeStatus } from './status.js';
import type { ControllerContext } from './store.js';

/**
 * Creates the missing pods or deletes the surplus ones. Surplus pods go in upstream's order of
 * least value first: unscheduled before scheduled, then those sharing a node with more of their
 * siblings, then the newest (getPodsToDelete / ActivePodsWithRanks, without readiness, which
 * the embedded cluster has no kubelet to report).
 */
export function syncReplicaSet(ctx: ControllerContext, rs: Workload): void {
  const want = rs.spec?.replicas ?? 1;
  const active = ownedPods(ctx, rs).filter(isActive);
  const ns = rs.metadata.namespace ?? 'default';
  if (active.length < want) {
    const ref = controllerRef(rs, 'apps/v1', 'ReplicaSet');
    for (let i = active.length; i < want; i++) {
      ctx.store.create(podFromTemplate(rs, ref, { generateName: `${rs.metadata.name}-` }));
    }
  } else if (active.length > want) {
    for (const p of podsToDelete(active, active.length - want)) ctx.store.remove('Pod', ns, p.metadata.name ?? '');
  }
  writeReplicaStatus(ctx, rs);
}

function podsToDelete(active: Pod[], n: number): Pod[] {
  const onNode = new Map<string, number>();
  for (const p of active) if (p.spec.nodeName) onNode.set(p.spec.nodeName, (onNode.get(p.spec.nodeName) ?? 0) + 1);
  const ranked = active.map((p, i) => ({ p, i, siblings: p.spec.nodeName ? onNode.get(p.spec.nodeName)! : 0 }));
  ranked.sort((a, b) => {
    const sa = a.p.spec.nodeName ? 1 : 0;
    const sb = b.p.spec.nodeName ? 1 : 0;
    if (sa !== sb) return sa - sb;
    if (a.siblings !== b.siblings) return b.siblings - a.siblings;
    return b.i - a.i;
  });
  return ranked.slice(0, n).map((r) => r.p);
}

/**
 * Records the replica counts of the pods `w` owns now (calculateStatus): active, fully labelled,
 * ready, available (ready for minReadySeconds) and terminating (none: the embedded cluster
 * removes deleted pods at once), with the generation observed.
 */
function writeReplicaStatus(ctx: ControllerContext, w: Workload & { status?: Record<string, unknown> }): void {
  const minReady = (w.spec as { minReadySeconds?: number } | undefined)?.minReadySeconds ?? 0;
  const counts = countReplicas(ownedPods(ctx, w), minReady, ctx.clock.now());
  const status = withoutZeros({
    replicas: counts.replicas, fullyLabeledReplicas: counts.replicas, readyReplicas: counts.ready, availableReplicas: counts.available,
    terminatingReplicas: 0, observedGeneration: w.metadata.generation ?? 1,
  }, ['replicas', 'terminatingReplicas']);
  const conditions = w.status?.conditions;
  writeStatus(ctx, w, conditions === undefined ? status : { ...status, conditions });
}
