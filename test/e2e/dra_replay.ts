// Replays a DRA scenario on a real control plane, one pending pod at a time, and reads back
// where each pod went and which devices its claims got. No resourceclaim controller runs beside
// kube-apiserver here, so the replay does its part as the differential harness does
// (test/upstream/README.md): after a pod is created, one claim per template entry, named
// `<pod>-<entry>-` plus five characters from a hash, then the pod's status.resourceClaimStatuses.
// The claim a scheduler makes for a pod's extended resources is read from the pod's status.
import { createHash } from 'node:crypto';
import type { KubeObject, Pod } from '../../src/api/types.js';
import type { ResourceClaim, ResourceClaimTemplate } from '../../src/api/dra_types.js';
import type { Scenario } from '../../src/sim/scenario/scenario.js';
import type { ExplainClaim } from '../upstream/compare.js';
import { eventually, type ControlPlane } from './control_plane.js';

const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** The claim name the harness and our embedded controller give a pod's template entry. */
export function templateClaimName(namespace: string, pod: string, entry: string): string {
  let base = `${pod}-${entry}-`;
  if (base.length > 57) base = `${pod.slice(0, Math.floor((pod.length * 57) / base.length))}-${entry.slice(0, Math.floor((entry.length * 57) / base.length))}`;
  const h = createHash('sha256').update(`${namespace}/${pod}/${entry}`).digest();
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphabet[h[i]! % alphabet.length];
  return base + suffix;
}

/** Where a pod ended up under a real scheduler. */
export interface ReplayedPod {
  pod: string;
  outcome: 'Scheduled' | 'Unschedulable';
  node: string;
  /** The PodScheduled condition's message when unschedulable. */
  message: string;
  claims: ExplainClaim[];
  /** The devices of the claim the scheduler made for the pod's extended resources, when it made one. */
  extendedResourceDevices?: ExplainClaim['devices'];
}

const resourcePath = (kind: string, namespace?: string): string => {
  const plural = `${kind.toLowerCase()}${kind.endsWith('s') ? 'es' : 's'}`;
  if (kind === 'Node') return '/api/v1/nodes';
  if (kind === 'Namespace') return '/api/v1/namespaces';
  return namespace ? `/apis/resource.k8s.io/v1/namespaces/${namespace}/${plural}` : `/apis/resource.k8s.io/v1/${plural}`;
};

/** Creates the scenario's nodes (untainted: no kubelet reports them ready) and DRA objects. */
export async function createCluster(cp: ControlPlane, sc: Scenario): Promise<void> {
  for (const node of sc.nodes) {
    await cp.create('/api/v1/nodes', node);
    const r = await cp.api('PATCH', `/api/v1/nodes/${node.metadata.name}`, { spec: { taints: null } }, 'application/merge-patch+json');
    if (r.status !== 200) throw new Error(`untaint ${node.metadata.name}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  for (const obj of sc.objects as KubeObject[]) {
    const clusterScoped = obj.kind === 'DeviceClass' || obj.kind === 'ResourceSlice' || obj.kind === 'DeviceTaintRule';
    const ns = clusterScoped ? undefined : (obj.metadata?.namespace ?? 'default');
    await cp.create(resourcePath(obj.kind!, ns), obj);
  }
}

async function getJSON<T>(cp: ControlPlane, path: string): Promise<T> {
  const r = await cp.api('GET', path);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as T;
}

/** The resourceclaim controller's part for one pod: its template entries' claims and its status. */
async function createTemplateClaims(cp: ControlPlane, pod: Pod & { metadata: { uid?: string } }): Promise<void> {
  const ns = pod.metadata.namespace ?? 'default';
  const statuses: { name: string; resourceClaimName: string }[] = [];
  for (const entry of pod.spec.resourceClaims ?? []) {
    if (!entry.resourceClaimTemplateName) continue;
    const template = await getJSON<ResourceClaimTemplate>(cp, `${resourcePath('ResourceClaimTemplate', ns)}/${entry.resourceClaimTemplateName}`);
    const name = templateClaimName(ns, pod.metadata.name!, entry.name);
    const claim: ResourceClaim = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: {
        name,
        namespace: ns,
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid!, controller: true }],
        annotations: { ...(template.spec.metadata?.annotations ?? {}), 'resource.kubernetes.io/pod-claim-name': entry.name },
        ...(template.spec.metadata?.labels ? { labels: template.spec.metadata.labels } : {}),
      },
      spec: template.spec.spec,
    };
    await cp.create(resourcePath('ResourceClaim', ns), claim);
    statuses.push({ name: entry.name, resourceClaimName: name });
  }
  if (statuses.length === 0) return;
  const r = await cp.api('PATCH', `/api/v1/namespaces/${ns}/pods/${pod.metadata.name}/status`, { status: { resourceClaimStatuses: statuses } }, 'application/merge-patch+json');
  if (r.status !== 200) throw new Error(`pod ${pod.metadata.name} status: ${r.status} ${JSON.stringify(r.body)}`);
}

type LivePod = Pod & {
  metadata: { uid?: string };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[]; extendedResourceClaimStatus?: { resourceClaimName: string } };
};

/** The pod's claims as `explain` reports them, read from the API. */
async function claimsOf(cp: ControlPlane, pod: LivePod): Promise<ExplainClaim[]> {
  const ns = pod.metadata.namespace ?? 'default';
  const out: ExplainClaim[] = [];
  for (const entry of pod.spec.resourceClaims ?? []) {
    const name = entry.resourceClaimName ?? pod.status?.resourceClaimStatuses?.find((s) => s.name === entry.name)?.resourceClaimName ?? '';
    const claim = name ? await getJSON<ResourceClaim>(cp, `${resourcePath('ResourceClaim', ns)}/${name}`) : undefined;
    out.push({
      name: entry.name,
      claim: name,
      devices: (claim?.status?.allocation?.devices?.results ?? []).map((d) => ({ request: d.request, driver: d.driver, pool: d.pool, device: d.device, ...(d.adminAccess ? { adminAccess: true } : {}) })),
    });
  }
  return out;
}

/** The devices of the pod's extended-resources claim (named in its status), if the scheduler made one. */
async function extendedResourceDevices(cp: ControlPlane, pod: LivePod): Promise<ExplainClaim['devices'] | undefined> {
  const name = pod.status?.extendedResourceClaimStatus?.resourceClaimName;
  if (!name) return undefined;
  const claim = await getJSON<ResourceClaim>(cp, `${resourcePath('ResourceClaim', pod.metadata.namespace ?? 'default')}/${name}`);
  return (claim.status?.allocation?.devices?.results ?? []).map((d) => ({ request: d.request, driver: d.driver, pool: d.pool, device: d.device }));
}

/**
 * Creates the scenario's pending pods one by one for `schedulerName`, each after the previous one
 * was bound or marked unschedulable, and reports where they went.
 */
export async function replayPending(cp: ControlPlane, sc: Scenario, schedulerName: string, timeoutMs = 30_000): Promise<ReplayedPod[]> {
  const out: ReplayedPod[] = [];
  for (const pending of sc.pending) {
    const ns = pending.metadata.namespace ?? 'default';
    const name = pending.metadata.name!;
    const created = await cp.create(`/api/v1/namespaces/${ns}/pods`, { ...pending, spec: { ...pending.spec, schedulerName } }) as LivePod;
    await createTemplateClaims(cp, created);
    const settled = await eventually(`pod ${ns}/${name} to be bound or found unschedulable`, async () => {
      const p = await getJSON<LivePod>(cp, `/api/v1/namespaces/${ns}/pods/${name}`);
      const condition = p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
      return p.spec.nodeName || condition ? p : undefined;
    }, timeoutMs);
    // A bound pod's claims were written in PreBind, before the binding.
    const condition = settled.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    out.push({
      pod: `${ns}/${name}`,
      outcome: settled.spec.nodeName ? 'Scheduled' : 'Unschedulable',
      node: settled.spec.nodeName ?? '',
      message: settled.spec.nodeName ? '' : (condition?.message ?? ''),
      claims: await claimsOf(cp, settled),
    });
    const extended = settled.spec.nodeName ? await extendedResourceDevices(cp, settled) : undefined;
    if (extended !== undefined) out[out.length - 1]!.extendedResourceDevices = extended;
  }
  return out;
}
