// The ReplicaSet controller of the embedded cluster: keeps spec.replicas active pods made from the
// template (pkg/controller/replicaset/replica_set.go, without adoption of orphans or slow start).
import type { Pod } from '../../../api/types.js';
import { controllerRef, isActive, ownedPods, podFromTemplate, type Workload } from './owned.js';
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
  writeReplicaStatus(ctx, rs, want);
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

/** Records status.replicas when it changed (the observed count after this sync's writes). */
export function writeReplicaStatus(ctx: ControllerContext, w: Workload & { status?: { replicas?: number } }, replicas: number): void {
  if ((w.status?.replicas ?? 0) === replicas && w.status !== undefined) return;
  ctx.store.update({ ...w, status: { ...(w.status ?? {}), replicas, observedGeneration: w.metadata.generation ?? 1 } });
}
