// What-if operations in a scenario's timeline steps: add nodes (from a template or like an existing
// node), cordon, uncordon, drain (as `kubectl drain --ignore-daemonsets --force`), remove nodes
// (their pods go, as the pod garbage collector removes pods of a deleted node) and scale workloads.
import type { KubeObject, Node, Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import type { MemoryCluster } from '../../cluster/memory/store.js';
import { cloneJSON } from '../../util/json_clone.js';

interface ScaleOp {
  kind: 'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'Job';
  namespace: string;
  name: string;
  replicas: number;
}

export interface StepOps {
  cordon: string[];
  uncordon: string[];
  drain: string[];
  removeNodes: string[];
  scale: ScaleOp[];
}

export const whatIfStepKeys = ['addNodes', 'cordon', 'uncordon', 'drain', 'removeNodes', 'scale'] as const;

/** What reading the step ops needs of the scenario loader. */
export interface StepOpsLoader {
  fail(where: string, message: string): never;
  /** The object as it stands at this point of the timeline (load time). */
  find(kind: string, namespace: string, name: string): KubeObject | undefined;
}

const scalableKinds = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'Job']);
const hostnameLabel = 'kubernetes.io/hostname';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function names(v: unknown, where: string, loader: StepOpsLoader, mustExist: boolean): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) loader.fail(where, 'must be a list of node names');
  return v.map((n, i) => {
    if (typeof n !== 'string' || n === '') loader.fail(`${where}[${i}]`, 'must be a node name');
    if (mustExist && loader.find('Node', '', n) === undefined) loader.fail(`${where}[${i}]`, `nodes "${n}" not found`);
    return n;
  });
}

/**
 * The nodes an `addNodes` entry stands for: `count` copies of `template` (a Node) or of the node
 * `like` names, named `namePrefix` + index (default: the template's or like-node's name + "-").
 * Copies keep labels (the hostname label follows the new name), taints and capacity.
 */
export function nodesToAdd(v: unknown, where: string, loader: StepOpsLoader): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) loader.fail(where, 'must be a list of { count, like | template, namePrefix? }');
  const out: unknown[] = [];
  v.forEach((e, i) => {
    const at = `${where}[${i}]`;
    if (!isRecord(e)) loader.fail(at, 'must be an object');
    for (const k of Object.keys(e)) if (!['count', 'like', 'template', 'namePrefix'].includes(k)) loader.fail(at, `unknown field ${JSON.stringify(k)} (known fields: count, like, template, namePrefix)`);
    const count = e.count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100_000) loader.fail(`${at}.count`, 'must be an integer from 1 to 100000');
    if ((e.like === undefined) === (e.template === undefined)) loader.fail(at, 'needs exactly one of like (a node name) and template (a Node)');
    let base: Record<string, unknown>;
    if (e.like !== undefined) {
      if (typeof e.like !== 'string') loader.fail(`${at}.like`, 'must be a node name');
      const node = loader.find('Node', '', e.like) as Node | undefined;
      if (node === undefined) loader.fail(`${at}.like`, `nodes "${e.like}" not found`);
      base = cloneJSON(node) as unknown as Record<string, unknown>;
    } else {
      if (!isRecord(e.template)) loader.fail(`${at}.template`, 'must be a Node');
      base = cloneJSON(e.template);
    }
    const meta = isRecord(base.metadata) ? base.metadata : {};
    const prefix = e.namePrefix ?? `${typeof meta.name === 'string' ? meta.name : 'node'}-`;
    if (typeof prefix !== 'string') loader.fail(`${at}.namePrefix`, 'must be a string');
    for (let j = 0; j < count; j++) {
      const name = `${prefix}${j}`;
      const labels = isRecord(meta.labels) ? { ...meta.labels } : {};
      if (hostnameLabel in labels) labels[hostnameLabel] = name;
      const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, ...rest } = meta as Record<string, unknown>;
      out.push({ ...base, kind: 'Node', metadata: { ...rest, name, labels } });
    }
  });
  return out;
}

/** Reads a step's cordon, uncordon, drain, removeNodes and scale entries, checking names at load time. */
export function readStepOps(s: Record<string, unknown>, where: string, loader: StepOpsLoader): StepOps {
  const scale = s.scale === undefined || s.scale === null ? [] : s.scale;
  if (!Array.isArray(scale)) loader.fail(`${where}.scale`, 'must be a list of { kind, name, namespace?, replicas }');
  return {
    cordon: names(s.cordon, `${where}.cordon`, loader, true),
    uncordon: names(s.uncordon, `${where}.uncordon`, loader, true),
    drain: names(s.drain, `${where}.drain`, loader, true),
    removeNodes: names(s.removeNodes, `${where}.removeNodes`, loader, true),
    scale: scale.map((e, i): ScaleOp => {
      const at = `${where}.scale[${i}]`;
      if (!isRecord(e)) loader.fail(at, 'must be an object');
      const { kind, name, replicas } = e;
      const namespace = e.namespace ?? 'default';
      if (typeof kind !== 'string' || !scalableKinds.has(kind)) loader.fail(`${at}.kind`, `must be one of ${[...scalableKinds].join(', ')}`);
      if (typeof name !== 'string' || name === '') loader.fail(`${at}.name`, 'required');
      if (typeof namespace !== 'string') loader.fail(`${at}.namespace`, 'must be a string');
      if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) loader.fail(`${at}.replicas`, 'must be a non-negative integer');
      if (loader.find(kind, namespace, name) === undefined) loader.fail(at, `${kind.toLowerCase()}s.${kind === 'Job' ? 'batch' : 'apps'} "${name}" not found`);
      return { kind: kind as ScaleOp['kind'], namespace, name, replicas };
    }),
  };
}

function setUnschedulable(cluster: MemoryCluster, name: string, value: boolean): void {
  const node = cluster.get<Node>('Node', '', name);
  if (node === undefined || (node.spec?.unschedulable === true) === value) return;
  const spec = { ...(node.spec ?? {}) };
  if (value) spec.unschedulable = true;
  else delete spec.unschedulable;
  cluster.update<Node>({ ...node, spec });
}

/** A pod a DaemonSet controls: drains leave it, capacity copies it onto added nodes. */
export function isDaemonPod(p: Pod): boolean {
  return (p.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.kind === 'DaemonSet');
}

function podsOn(cluster: MemoryCluster, node: string): Pod[] {
  return cluster.list<Pod>('Pod').filter((p) => p.spec.nodeName === node);
}

/**
 * Applies the ops to the embedded cluster, in the order cordon, uncordon, drain, removeNodes,
 * scale; returns the keys of the pods it deleted. Nodes or workloads already gone are skipped.
 */
export function applyStepOps(cluster: MemoryCluster, ops: StepOps): string[] {
  const deleted: string[] = [];
  const removePod = (p: Pod) => {
    if (cluster.remove('Pod', p.metadata.namespace ?? 'default', p.metadata.name ?? '')) deleted.push(podKey(p));
  };
  for (const n of ops.cordon) setUnschedulable(cluster, n, true);
  for (const n of ops.uncordon) setUnschedulable(cluster, n, false);
  for (const n of ops.drain) {
    setUnschedulable(cluster, n, true);
    for (const p of podsOn(cluster, n)) if (!isDaemonPod(p)) removePod(p);
  }
  for (const n of ops.removeNodes) {
    if (cluster.remove('Node', '', n)) for (const p of podsOn(cluster, n)) removePod(p);
  }
  for (const op of ops.scale) {
    const w = cluster.get<KubeObject & { spec?: Record<string, unknown> }>(op.kind, op.namespace, op.name);
    if (w === undefined) continue;
    const spec = op.kind === 'Job' ? { ...(w.spec ?? {}), parallelism: op.replicas } : { ...(w.spec ?? {}), replicas: op.replicas };
    cluster.update({ ...w, spec });
  }
  return deleted;
}
