// The Deployment controller of the embedded cluster: one ReplicaSet per pod template, named and
// labelled with the template's hash (pkg/controller/deployment/sync.go, util/deployment_util.go).
// A template change replaces the old ReplicaSets at once: there is no kubelet to report readiness,
// so maxSurge/maxUnavailable pacing has nothing to wait for.
import type { KubeObject } from '../../../api/types.js';
import { controllerRef, controllerUid, type Workload } from './owned.js';
import { safeHash } from './safe_hash.js';
import { withoutZeros, writeStatus } from './status.js';
import type { ControllerContext } from './store.js';

const podTemplateHashLabel = 'pod-template-hash';

/**
 * ComputeHash: FNV-1a of the template (here its canonical JSON, where upstream hashes the Go
 * struct as spew prints it, so hashes are ours) and, when a collision count is set, its 8 bytes
 * little-endian; SafeEncodeString of the decimal sum.
 */
export function templateHash(template: unknown, collisionCount?: number): string {
  if (collisionCount === undefined) return safeHash(canonicalJSON(template));
  const count = new Uint8Array(8);
  new DataView(count.buffer).setUint32(0, collisionCount >>> 0, true);
  return safeHash(canonicalJSON(template), count);
}

function canonicalJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonicalJSON(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

type PodTemplate = NonNullable<NonNullable<Workload['spec']>['template']>;

/**
 * EqualIgnoreHash: the templates agree but for the pod-template-hash label. Empty labels and empty
 * metadata count as none, as Go's semantic equality takes an empty map for a nil one.
 */
function equalIgnoreHash(a: PodTemplate | undefined, b: PodTemplate | undefined): boolean {
  return canonicalJSON(withoutHash(a)) === canonicalJSON(withoutHash(b));
}

function withoutHash(t: PodTemplate | undefined): object {
  const { metadata, ...rest } = t ?? {};
  const { labels, ...meta } = metadata ?? {};
  const { [podTemplateHashLabel]: _hash, ...others } = labels ?? {};
  const m = Object.keys(others).length > 0 ? { ...meta, labels: others } : meta;
  return Object.keys(m).length > 0 ? { ...rest, metadata: m } : rest;
}

/** FindNewReplicaSet: the oldest owned ReplicaSet whose template is the Deployment's (ReplicaSetsByCreationTimestamp). */
function findNewReplicaSet(d: Workload, owned: readonly Workload[]): Workload | undefined {
  const byAge = [...owned].sort((a, b) => {
    const ta = a.metadata.creationTimestamp ?? '';
    const tb = b.metadata.creationTimestamp ?? '';
    if (ta !== tb) return ta < tb ? -1 : 1;
    return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
  });
  return byAge.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/**
 * Makes sure the ReplicaSet of the current template exists with spec.replicas; scales the others to 0.
 * A new ReplicaSet is named after the template's hash with status.collisionCount; a name another
 * ReplicaSet holds (not this Deployment's, or another template) bumps the count until one is free,
 * as upstream's getNewReplicaSet does over its requeues.
 */
export function syncDeployment(ctx: ControllerContext, d: Deployment): void {
  const ns = d.metadata.namespace ?? 'default';
  const replicas = d.spec?.replicas ?? 1;
  const template = d.spec?.template ?? {};
  const ownedNow = () => ctx.store.list<Workload>('ReplicaSet').filter((rs) => (rs.metadata.namespace ?? 'default') === ns && controllerUid(rs) === d.metadata.uid);
  let current = findNewReplicaSet(d, ownedNow());
  let collisionCount = d.status?.collisionCount;
  let hash = '';
  while (current === undefined) {
    hash = templateHash(template, collisionCount);
    const taken = ctx.store.get<Workload>('ReplicaSet', ns, `${d.metadata.name}-${hash}`);
    if (taken === undefined) break;
    if (controllerUid(taken) === d.metadata.uid && equalIgnoreHash(template, taken.spec?.template)) current = taken;
    else collisionCount = (collisionCount ?? 0) + 1;
  }
  const name = current?.metadata.name ?? `${d.metadata.name}-${hash}`;
  for (const rs of ownedNow()) {
    if (rs.metadata.name !== name && (rs.spec?.replicas ?? 1) !== 0) ctx.store.update({ ...rs, spec: { ...rs.spec, replicas: 0 } });
  }
  if (current === undefined) {
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
  writeDeploymentStatus(ctx, d, ownedNow(), name, current === undefined, collisionCount);
}

interface DeploymentCondition {
  type: string;
  status: 'True' | 'False';
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

type Deployment = Workload & {
  spec?: Workload['spec'] & { strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } } };
  status?: { conditions?: DeploymentCondition[]; collisionCount?: number };
};

/** intstr.GetScaledValueFromIntOrPercent. */
function scaled(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string' || !v.endsWith('%')) return 0;
  const x = (Number(v.slice(0, -1)) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** How many replicas may be unavailable during the rollout (deploymentutil.MaxUnavailable with ResolveFenceposts). */
function maxUnavailable(d: Deployment, replicas: number): number {
  const strategy = d.spec?.strategy;
  if (strategy?.type !== 'RollingUpdate' || replicas === 0) return 0;
  const surge = scaled(strategy.rollingUpdate?.maxSurge, replicas, true);
  let unavailable = scaled(strategy.rollingUpdate?.maxUnavailable, replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return Math.min(unavailable, replicas);
}

/** SetDeploymentCondition: an unchanged status and reason keeps the condition; a changed reason keeps its transition time. */
function setCondition(conditions: DeploymentCondition[], next: Omit<DeploymentCondition, 'lastUpdateTime' | 'lastTransitionTime'>, now: string): DeploymentCondition[] {
  const cur = conditions.find((c) => c.type === next.type);
  if (cur !== undefined && cur.status === next.status && cur.reason === next.reason) return conditions;
  const lastTransitionTime = cur !== undefined && cur.status === next.status ? cur.lastTransitionTime : now;
  return [...conditions.filter((c) => c.type !== next.type), { type: next.type, status: next.status, lastUpdateTime: now, lastTransitionTime, reason: next.reason, message: next.message }];
}

type RSStatus = { replicas?: number; readyReplicas?: number; availableReplicas?: number };

/** The Deployment's status from its ReplicaSets' (calculateStatus), with the Available and Progressing conditions. */
function writeDeploymentStatus(ctx: ControllerContext, d: Deployment, owned: readonly Workload[], newName: string, created: boolean, collisionCount: number | undefined): void {
  const st = (rs: Workload) => ((rs as { status?: RSStatus }).status ?? {});
  const sum = (f: (rs: Workload) => number) => owned.reduce((n, rs) => n + f(rs), 0);
  const wanted = d.spec?.replicas ?? 1;
  const available = sum((rs) => st(rs).availableReplicas ?? 0);
  const total = sum((rs) => rs.spec?.replicas ?? 0);
  const newRS = owned.find((rs) => rs.metadata.name === newName);
  const counts = {
    observedGeneration: d.metadata.generation ?? 1,
    replicas: sum((rs) => st(rs).replicas ?? 0),
    updatedReplicas: newRS ? (st(newRS).replicas ?? 0) : 0,
    readyReplicas: sum((rs) => st(rs).readyReplicas ?? 0),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    terminatingReplicas: 0,
  };
  const now = new Date(ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  let conditions = d.status?.conditions ?? [];
  conditions = available >= wanted - maxUnavailable(d, wanted)
    ? setCondition(conditions, { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }, now)
    : setCondition(conditions, { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' }, now);
  const complete = counts.updatedReplicas === wanted && counts.replicas === wanted && available === wanted;
  if (created) conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: `Created new replica set "${newName}"` }, now);
  else if (complete) conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${newName}" has successfully progressed.` }, now);
  else if (conditions.find((c) => c.type === 'Progressing')?.reason !== 'NewReplicaSetCreated') {
    conditions = setCondition(conditions, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${newName}" is progressing.` }, now);
  }
  const status: Record<string, unknown> = withoutZeros(counts, ['terminatingReplicas']);
  status.conditions = conditions;
  if (collisionCount !== undefined) status.collisionCount = collisionCount;
  writeStatus(ctx, d, status);
}
