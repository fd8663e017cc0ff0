// The Deployment controller of the embedded cluster: one ReplicaSet per pod template, named and
// labelled with the template's hash (pkg/controller/deployment/sync.go, util/deployment_util.go).
// A template change replaces the old ReplicaSets at once: there is no kubelet to report readiness,
// so maxSurge/maxUnavailable pacing has nothing to wait for.
import type { KubeObject } from '../../../api/types.js';
import { controllerRef, controllerUid, type Workload } from './owned.js';
import { writeReplicaStatus } from './replicaset.js';
import type { ControllerContext } from './store.js';

const podTemplateHashLabel = 'pod-template-hash';

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-1a (32 bit) of the canonical JSON of the template, in the safe alphabet (ComputeHash + SafeEncodeString). */
export function templateHash(template: unknown, collisionCount = 0): string {
  const text = canonicalJSON(template) + (collisionCount > 0 ? String(collisionCount) : '');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let out = '';
  for (const ch of String(h)) out += safeAlphabet[Number(ch) % safeAlphabet.length]!;
  return out;
}

function canonicalJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonicalJSON(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Makes sure the ReplicaSet of the current template exists with spec.replicas; scales the others to 0. */
export function syncDeployment(ctx: ControllerContext, d: Workload): void {
  const ns = d.metadata.namespace ?? 'default';
  const hash = templateHash(d.spec?.template ?? {});
  const name = `${d.metadata.name}-${hash}`;
  const replicas = d.spec?.replicas ?? 1;
  const owned = ctx.store.list<Workload>('ReplicaSet').filter((rs) => (rs.metadata.namespace ?? 'default') === ns && controllerUid(rs) === d.metadata.uid);
  for (const rs of owned) {
    if (rs.metadata.name !== name && (rs.spec?.replicas ?? 1) !== 0) ctx.store.update({ ...rs, spec: { ...rs.spec, replicas: 0 } });
  }
  const current = owned.find((rs) => rs.metadata.name === name);
  if (current === undefined) {
    const template = d.spec?.template ?? {};
    const labels = { ...(template.metadata?.labels ?? {}), [podTemplateHashLabel]: hash };
    const selector = d.spec?.selector ?? {};
    const rs: Workload & KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: ns, labels, ownerReferences: [controllerRef(d, 'apps/v1', 'Deployment')] },
      spec: {
        replicas,
        selector: { ...selector, matchLabels: { ...(selector.matchLabels ?? {}), [podTemplateHashLabel]: hash } },
        template: { ...template, metadata: { ...(template.metadata ?? {}), labels } },
      },
    };
    ctx.store.create(rs);
  } else if ((current.spec?.replicas ?? 1) !== replicas) {
    ctx.store.update({ ...current, spec: { ...current.spec, replicas } });
  }
  writeReplicaStatus(ctx, d, replicas);
}
