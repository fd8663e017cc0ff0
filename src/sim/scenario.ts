// Scenario files: `{ config?, nodes, pods, pending?, objects?, steps? }`, a Kubernetes List, or a
// multi-document `kubectl get -o yaml` dump (see scenarios/README.md).
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { KubeObject, Node, Pod } from '../api/types.js';

export interface ScenarioStep {
  /** Simulated milliseconds after the previous step (or the start). */
  afterMs: number;
  create: KubeObject[];
  update: KubeObject[];
  delete: { kind: string; namespace?: string; name: string }[];
}

export interface Scenario {
  name: string;
  metadata: Record<string, unknown>;
  /** A KubeSchedulerConfiguration object, when the scenario carries one. */
  config: Record<string, unknown> | null;
  nodes: Node[];
  /** Existing load: pods with spec.nodeName. */
  pods: Pod[];
  /** Pods to schedule, in this order. */
  pending: Pod[];
  objects: KubeObject[];
  steps: ScenarioStep[];
}

export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

const objectKinds = new Set(['Namespace', 'PersistentVolume', 'PersistentVolumeClaim', 'StorageClass', 'CSINode', 'VolumeAttachment', 'CSIDriver', 'CSIStorageCapacity',
  'PodDisruptionBudget', 'PriorityClass', 'Service', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/** Parses "10s", "1m30s", "250ms", "2h" or a number of seconds into milliseconds. */
export function parseDuration(v: unknown, where: string): number {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v * 1000;
  if (typeof v !== 'string') throw new ScenarioError(`${where}: invalid duration ${JSON.stringify(v)}`);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0;
  let consumed = 0;
  for (const m of v.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
    consumed += m[0].length;
  }
  if (consumed !== v.length || v.length === 0) throw new ScenarioError(`${where}: invalid duration "${v}" (use e.g. 10s, 1m30s, 500ms)`);
  return total;
}

function asArray(v: unknown, where: string): KubeObject[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ScenarioError(`${where}: must be a list`);
  v.forEach((o, i) => {
    if (typeof o !== 'object' || o === null) throw new ScenarioError(`${where}[${i}]: must be an object`);
  });
  return v as KubeObject[];
}

function requireKind(list: KubeObject[], where: string): KubeObject[] {
  list.forEach((o, i) => {
    if (!o.kind) throw new ScenarioError(`${where}[${i}]: needs a kind (Pod, Node, Namespace, ...)`);
    if (!o.metadata?.name) throw new ScenarioError(`${where}[${i}]: needs metadata.name`);
  });
  return list;
}

function withKind<T extends KubeObject>(o: KubeObject, kind: string): T {
  return { apiVersion: 'v1', ...o, kind: o.kind ?? kind } as T;
}

function splitObjects(list: KubeObject[], into: Scenario, where: string): void {
  list.forEach((o, i) => {
    switch (o.kind) {
      case 'Node': into.nodes.push(o as Node); break;
      case 'Pod': {
        const p = o as Pod;
        if (p.spec?.nodeName) into.pods.push(p);
        else into.pending.push(p);
        break;
      }
      case 'List': splitObjects(asArray((o as { items?: unknown }).items, `${where}[${i}].items`), into, `${where}[${i}].items`); break;
      case 'KubeSchedulerConfiguration': into.config = o as Record<string, unknown>; break;
      default:
        if (objectKinds.has(o.kind ?? '')) into.objects.push(o);
    }
  });
}

function creationTime(p: Pod): number {
  const t = p.metadata?.creationTimestamp;
  return t ? Date.parse(String(t)) : 0;
}

export function parseScenario(text: string, source: string): Scenario {
  const docs = parseAllDocuments(text, { prettyErrors: true });
  const values: unknown[] = [];
  for (const d of docs) {
    if (d.errors.length > 0) throw new ScenarioError(`${source}: ${d.errors[0]!.message}`);
    const v = d.toJS({ maxAliasCount: 1000 });
    if (v !== null && v !== undefined) values.push(v);
  }
  const sc: Scenario = { name: source, metadata: {}, config: null, nodes: [], pods: [], pending: [], objects: [], steps: [] };
  if (values.length === 1 && isScenarioShape(values[0])) {
    const v = values[0] as Record<string, unknown>;
    sc.metadata = (v.metadata as Record<string, unknown>) ?? {};
    if (typeof sc.metadata.name === 'string') sc.name = sc.metadata.name;
    sc.config = (v.config as Record<string, unknown>) ?? null;
    sc.nodes = asArray(v.nodes, 'nodes').map((o) => withKind<Node>(o, 'Node'));
    sc.pods = asArray(v.pods, 'pods').map((o) => withKind<Pod>(o, 'Pod'));
    sc.pending = asArray(v.pending, 'pending').map((o) => withKind<Pod>(o, 'Pod'));
    sc.objects = requireKind(asArray(v.objects, 'objects'), `${source}: objects`);
    const steps = v.steps;
    if (steps !== undefined && !Array.isArray(steps)) throw new ScenarioError(`${source}: steps: must be a list`);
    sc.steps = ((steps as Record<string, unknown>[] | undefined) ?? []).map((s, i) => ({
      afterMs: parseDuration(s.after ?? 0, `steps[${i}].after`),
      create: requireKind(asArray(s.create, `steps[${i}].create`), `${source}: steps[${i}].create`),
      update: requireKind(asArray(s.update, `steps[${i}].update`), `${source}: steps[${i}].update`),
      delete: asArray(s.delete, `steps[${i}].delete`).map((d, j) => {
        if (!d.kind || !(d as { name?: string }).name && !d.metadata?.name) throw new ScenarioError(`steps[${i}].delete[${j}]: needs kind and name`);
        return { kind: d.kind, namespace: (d as { namespace?: string }).namespace ?? d.metadata?.namespace, name: (d as { name?: string }).name ?? d.metadata!.name! };
      }),
    }));
    sc.pods.forEach((p, i) => {
      if (!p.spec?.nodeName) throw new ScenarioError(`${source}: pods[${i}] (${p.metadata?.name}): existing pods need spec.nodeName; put pods to schedule under pending`);
    });
    return sc;
  }
  for (const v of values) splitObjects([v as KubeObject], sc, source);
  // A dump lists unbound pods in any order: schedule them in creation order.
  sc.pending = sc.pending.map((p, i) => ({ p, i })).sort((a, b) => creationTime(a.p) - creationTime(b.p) || a.i - b.i).map((x) => x.p);
  return sc;
}

function isScenarioShape(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return o.kind === undefined && ('nodes' in o || 'pods' in o || 'pending' in o || 'steps' in o);
}

export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ScenarioError(`${path}: ${(err as Error).message}`);
  }
  return parseScenario(text, path);
}
