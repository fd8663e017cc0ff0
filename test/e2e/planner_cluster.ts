// A few hundred nodes with the load of a running cluster on the pinned control plane, for the
// planner's what-if e2e: Node objects with capacity set here (no kubelets), workload objects and
// the pods their controllers would have made, bound where an earlier scheduler put them.
// kube-controller-manager is not run: the tests create (or recreate, for a drain) the pods the
// controllers would, with the same owner references, names and labels.
import type { ControlPlane } from './control_plane.js';
import { eventually } from './control_plane.js';

interface NodeShape {
  prefix: string;
  count: number;
  cpu: string;
  memory: string;
}

/** 200 small, 80 medium and 20 large nodes in three zones; memory is 4Gi per cpu everywhere. */
const nodeShapes: readonly NodeShape[] = [
  { prefix: 's', count: 200, cpu: '4', memory: '16Gi' },
  { prefix: 'm', count: 80, cpu: '8', memory: '32Gi' },
  { prefix: 'l', count: 20, cpu: '16', memory: '64Gi' },
];

export const nodeName = (prefix: string, i: number) => `${prefix}-${String(i).padStart(3, '0')}`;

export function nodeObject(name: string, cpu: string, memory: string, zone: string, size: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'topology.kubernetes.io/zone': zone, 'node.kubernetes.io/instance-type': size } },
    status: { capacity: { cpu, memory, pods: '110' }, allocatable: { cpu, memory, pods: '110' } },
  };
}

interface PodOptions {
  labels?: Record<string, string>;
  owner?: { kind: string; name: string; uid: string; apiVersion: string };
  spec?: Record<string, unknown>;
}

export function podObject(namespace: string, name: string, cpu: string, memory: string, o: PodOptions = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: o.labels ?? { app: name },
      ...(o.owner ? { ownerReferences: [{ ...o.owner, controller: true, blockOwnerDeletion: true }] } : {}),
    },
    spec: { containers: [{ name: 'c', image: 'registry.example/app:1', resources: { requests: { cpu, memory } } }], ...o.spec },
  };
}

/** Runs `work` over `items`, `width` at a time (the API server and the machine are shared). */
export async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<unknown>, width = 8): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** Creates a node and takes off the not-ready taint the API server's admission puts on new nodes. */
export async function addNode(cp: ControlPlane, node: Record<string, unknown>): Promise<void> {
  await cp.create('/api/v1/nodes', node);
  await markReady(cp, (node.metadata as { name: string }).name);
}

/** Takes off a new node's not-ready taint (what the node lifecycle controller does once its kubelet reports ready). */
export async function markReady(cp: ControlPlane, name: string): Promise<void> {
  const r = await cp.api('PATCH', `/api/v1/nodes/${name}`, { spec: { taints: null } }, 'application/merge-patch+json');
  if (r.status !== 200) throw new Error(`untainting ${name}: ${r.status} ${JSON.stringify(r.body)}`);
}

export async function addNamespace(cp: ControlPlane, name: string): Promise<void> {
  await cp.create('/api/v1/namespaces', { metadata: { name } });
  await cp.create(`/api/v1/namespaces/${name}/serviceaccounts`, { metadata: { name: 'default' } });
}

interface PodState {
  metadata: { name: string; namespace: string };
  spec: { nodeName?: string; containers: { resources?: { requests?: Record<string, string> } }[] };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

/** A pod's scheduling decision: its node, or '' with the scheduler's message once it was found unschedulable. */
export interface Decision {
  pod: string;
  node: string;
  message: string;
}

function decisionOf(p: PodState): Decision | undefined {
  const pod = `${p.metadata.namespace}/${p.metadata.name}`;
  if (p.spec.nodeName) return { pod, node: p.spec.nodeName, message: '' };
  const c = p.status?.conditions?.find((x) => x.type === 'PodScheduled' && x.status === 'False' && x.reason === 'Unschedulable');
  return c ? { pod, node: '', message: c.message ?? '' } : undefined;
}

export async function listPods(cp: ControlPlane, namespace: string): Promise<PodState[]> {
  const r = await cp.api('GET', `/api/v1/namespaces/${namespace}/pods?limit=5000`);
  if (r.status !== 200) throw new Error(`listing pods in ${namespace}: ${r.status}`);
  return (r.body as { items: PodState[] }).items;
}

/** Waits until the scheduler has decided on one pod. */
export function decided(cp: ControlPlane, namespace: string, name: string, timeoutMs = 60_000): Promise<Decision> {
  return eventually(`a decision on ${namespace}/${name}`, async () => {
    const r = await cp.api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`);
    return r.status === 200 ? decisionOf(r.body as PodState) : undefined;
  }, timeoutMs);
}

/** Waits until the scheduler has decided on every pod of the namespace named in `names`. */
export function allDecided(cp: ControlPlane, namespace: string, names: readonly string[], timeoutMs = 120_000): Promise<Map<string, Decision>> {
  const wanted = new Set(names);
  return eventually(`decisions on ${names.length} pods in ${namespace}`, async () => {
    const out = new Map<string, Decision>();
    for (const p of await listPods(cp, namespace)) {
      if (!wanted.has(p.metadata.name)) continue;
      const d = decisionOf(p);
      if (d) out.set(p.metadata.name, d);
    }
    return out.size === wanted.size ? out : undefined;
  }, timeoutMs, 500);
}

/** Deletes pods at once (no kubelet would confirm a graceful deletion). */
export async function deletePods(cp: ControlPlane, namespace: string, names: readonly string[]): Promise<void> {
  await inParallel(names, async (name) => {
    const r = await cp.api('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}?gracePeriodSeconds=0`);
    if (r.status !== 200 && r.status !== 404) throw new Error(`deleting ${namespace}/${name}: ${r.status} ${JSON.stringify(r.body)}`);
  });
  await eventually(`${names.length} pods in ${namespace} to be gone`, async () => {
    const left = new Set((await listPods(cp, namespace)).map((p) => p.metadata.name));
    return names.every((n) => !left.has(n)) ? true : undefined;
  });
}

const ns = 'prod';

/** The load: counts and where it sits, for the tests' expectations. */
export const load = {
  namespace: ns,
  /** Deployment web's ReplicaSet: two 1-cpu pods on each of the first 120 small nodes. */
  webNodes: 120,
  /** StatefulSet db: one 12-cpu pod on each large node. */
  dbReplicas: 20,
  /** Job batch: one 2-cpu pod on each of the first 60 medium nodes. */
  batchNodes: 60,
  webPodTemplateHash: '6b9d7f5c48',
};

async function createdUid(cp: ControlPlane, path: string, body: Record<string, unknown>): Promise<string> {
  const created = await cp.create(path, body) as { metadata: { uid: string } };
  return created.metadata.uid;
}

const template = (labels: Record<string, string>, cpu: string, memory: string, extra: Record<string, unknown> = {}) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'registry.example/app:1', resources: { requests: { cpu, memory } } }], ...extra },
});

/** Every node, then the workloads and their pods, bound. Returns the node names in creation order. */
export async function buildPlannerCluster(cp: ControlPlane): Promise<string[]> {
  const zones = ['z1', 'z2', 'z3'];
  const nodes: Record<string, unknown>[] = [];
  for (const shape of nodeShapes) {
    for (let i = 0; i < shape.count; i++) nodes.push(nodeObject(nodeName(shape.prefix, i), shape.cpu, shape.memory, zones[i % 3]!, shape.prefix));
  }
  await inParallel(nodes, (n) => addNode(cp, n));
  const names = nodes.map((n) => (n.metadata as { name: string }).name);
  await addNamespace(cp, ns);

  const pods: Record<string, unknown>[] = [];
  // DaemonSet agent: one pod per node, pinned by node affinity as the DaemonSet controller pins them.
  const agentUid = await createdUid(cp, `/apis/apps/v1/namespaces/${ns}/daemonsets`, {
    metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template({ app: 'agent' }, '100m', '400Mi') },
  });
  for (const node of names) pods.push(agentPod(node, agentUid));
  // Deployment web and its ReplicaSet.
  const hash = load.webPodTemplateHash;
  const webLabels = { app: 'web', 'pod-template-hash': hash };
  const webReplicas = load.webNodes * 2;
  const deploymentUid = await createdUid(cp, `/apis/apps/v1/namespaces/${ns}/deployments`, {
    metadata: { name: 'web' }, spec: { replicas: webReplicas, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }, '1', '4Gi') },
  });
  const rsUid = await createdUid(cp, `/apis/apps/v1/namespaces/${ns}/replicasets`, {
    metadata: { name: `web-${hash}`, labels: webLabels, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deploymentUid, controller: true, blockOwnerDeletion: true }] },
    spec: { replicas: webReplicas, selector: { matchLabels: webLabels }, template: template(webLabels, '1', '4Gi') },
  });
  for (let i = 0; i < webReplicas; i++) pods.push(webPod(`web-${hash}-${String(i).padStart(5, '0')}`, rsUid, nodeName('s', i >> 1)));
  // StatefulSet db.
  await cp.create(`/api/v1/namespaces/${ns}/services`, { metadata: { name: 'db' }, spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] } });
  const dbUid = await createdUid(cp, `/apis/apps/v1/namespaces/${ns}/statefulsets`, {
    metadata: { name: 'db' }, spec: { serviceName: 'db', replicas: load.dbReplicas, selector: { matchLabels: { app: 'db' } }, template: template({ app: 'db' }, '12', '48Gi') },
  });
  for (let i = 0; i < load.dbReplicas; i++) pods.push(dbPod(i, dbUid, nodeName('l', i)));
  // Job batch: the API server generates its selector and labels.
  const job = await cp.create(`/apis/batch/v1/namespaces/${ns}/jobs`, {
    metadata: { name: 'batch' }, spec: { parallelism: load.batchNodes, completions: load.batchNodes, template: template({ app: 'batch' }, '2', '8Gi', { restartPolicy: 'Never' }) },
  }) as { metadata: { uid: string }; spec: { template: { metadata: { labels: Record<string, string> } } } };
  const batch = { uid: job.metadata.uid, labels: job.spec.template.metadata.labels };
  for (let i = 0; i < load.batchNodes; i++) pods.push(batchPod(`batch-${String(i).padStart(5, '0')}`, batch, nodeName('m', i)));
  await inParallel(pods, (p) => cp.create(`/api/v1/namespaces/${ns}/pods`, p));
  return names;
}

/** DaemonSet agent's pod on `node`, pinned there by node affinity as the DaemonSet controller pins it. */
export function agentPod(node: string, agentUid: string): Record<string, unknown> {
  return podObject(ns, `agent-${node}`, '100m', '400Mi', {
    labels: { app: 'agent' },
    owner: { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: agentUid },
    spec: {
      nodeName: node,
      tolerations: ['not-ready', 'unreachable'].map((t) => ({ key: `node.kubernetes.io/${t}`, operator: 'Exists', effect: 'NoExecute' })),
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } },
    },
  });
}

/** A pod of Deployment web's ReplicaSet, as the ReplicaSet controller makes it. */
export function webPod(name: string, rsUid: string, node?: string): Record<string, unknown> {
  return podObject(ns, name, '1', '4Gi', {
    labels: { app: 'web', 'pod-template-hash': load.webPodTemplateHash },
    owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `web-${load.webPodTemplateHash}`, uid: rsUid },
    spec: node ? { nodeName: node } : {},
  });
}

/** A pod of Job batch, as the Job controller makes it (`labels`: the ones the API server gave its template). */
export function batchPod(name: string, job: { uid: string; labels: Record<string, string> }, node?: string): Record<string, unknown> {
  return podObject(ns, name, '2', '8Gi', {
    labels: job.labels,
    owner: { apiVersion: 'batch/v1', kind: 'Job', name: 'batch', uid: job.uid },
    spec: { restartPolicy: 'Never', ...(node ? { nodeName: node } : {}) },
  });
}

/** StatefulSet db's pod `i`, as its controller makes it (the same name when it is recreated). */
export function dbPod(i: number, dbUid: string, node?: string): Record<string, unknown> {
  return podObject(ns, `db-${i}`, '12', '48Gi', {
    labels: { app: 'db', 'statefulset.kubernetes.io/pod-name': `db-${i}`, 'apps.kubernetes.io/pod-index': String(i) },
    owner: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: dbUid },
    spec: { hostname: `db-${i}`, subdomain: 'db', ...(node ? { nodeName: node } : {}) },
  });
}
