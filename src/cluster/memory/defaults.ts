// Defaulting the embedded API server applies on create, as kube-apiserver and admission do:
// namespace, schedulerName, requests from limits, node allocatable, priority from PriorityClass
// (for pods, and for pod groups with GenericWorkload).
import type { Container, KubeObject, Node, Pod, PriorityClass, StorageClass } from '../../api/types.js';
import type { CompositePodGroup, PodGroup } from '../../api/scheduling.js';
import { admitGroupPriority, resolvePodPriority } from '../../api/admission/priority.js';
import { cloneJSON } from '../../util/json_clone.js';
import { clusterScopedKinds, kindKeyOf } from '../../api/kinds.js';

const DefaultSchedulerName = 'default-scheduler';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The pod's containers and init containers that are objects (a malformed list is skipped). */
function containersOf(p: Pod): Container[] {
  const out: Container[] = [];
  for (const list of [p.spec.containers, p.spec.initContainers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) if (isRecord(c) && (c.resources === undefined || isRecord(c.resources))) out.push(c);
  }
  return out;
}

export function defaultPod(pod: Pod, priorityClasses: readonly PriorityClass[]): Pod {
  const p: Pod = cloneJSON(pod);
  p.metadata ??= {};
  p.metadata.namespace ??= 'default';
  p.spec ??= { containers: [] };
  p.spec.containers ??= [];
  p.spec.schedulerName ??= DefaultSchedulerName;
  for (const c of containersOf(p)) {
    const limits = c.resources?.limits;
    // A malformed pod (from a caller that skipped validation) is stored as given: PodInfo reports it.
    if (!isRecord(limits) || (c.resources!.requests !== undefined && !isRecord(c.resources!.requests))) continue;
    c.resources!.requests ??= {};
    for (const [k, v] of Object.entries(limits)) if (c.resources!.requests[k] === undefined) c.resources!.requests[k] = v;
  }
  if (p.spec.priority === undefined) {
    // The store is lenient where admission refuses (a missing class): the pod gets priority 0.
    const r = resolvePodPriority(p, priorityClasses);
    if ('error' in r) {
      p.spec.priority = 0;
    } else {
      p.spec.priority = r.priority;
      if (r.priorityClassName !== undefined) p.spec.priorityClassName ??= r.priorityClassName;
      if (r.preemptionPolicy && !p.spec.preemptionPolicy) p.spec.preemptionPolicy = r.preemptionPolicy;
    }
  }
  p.spec.preemptionPolicy ??= 'PreemptLowerPriority';
  p.status ??= {};
  if (!p.spec.nodeName) p.status.phase ??= 'Pending';
  return p;
}

/**
 * Priority admission's fill of a new PodGroup (GenericWorkload): its priority, class and, with
 * PodGroupPreemptionPolicy, preemption policy. Lenient as for pods: a group admission would
 * refuse is stored as given (the scheduler reads a missing priority as 0).
 */
export function defaultPodGroup(pg: PodGroup, priorityClasses: readonly PriorityClass[], preemptionPolicy: boolean): PodGroup {
  return defaultGroup(pg, priorityClasses, preemptionPolicy, 'pod group');
}

/**
 * A new CompositePodGroup as v1alpha3 defaulting and Priority admission leave it: disruptionMode
 * single when unset (SetObjectDefaults_CompositePodGroup), then the priority as a PodGroup's.
 */
export function defaultCompositePodGroup(cpg: CompositePodGroup, priorityClasses: readonly PriorityClass[], preemptionPolicy: boolean): CompositePodGroup {
  const out = defaultGroup(cpg, priorityClasses, preemptionPolicy, 'composite pod group');
  if (out.spec !== null && typeof out.spec === 'object') out.spec.disruptionMode ??= { single: {} };
  return out;
}

function defaultGroup<G extends PodGroup | CompositePodGroup>(g: G, priorityClasses: readonly PriorityClass[], preemptionPolicy: boolean,
  noun: 'pod group' | 'composite pod group'): G {
  const out: G = cloneJSON(g);
  out.metadata ??= {};
  out.metadata.namespace ??= 'default';
  if (out.spec === null || typeof out.spec !== 'object') return out;
  // v1beta1 defaulting comes first: with PodGroupPreemptionPolicy a group without a policy has PreemptLowerPriority.
  if (preemptionPolicy) out.spec.preemptionPolicy ??= 'PreemptLowerPriority';
  const r = admitGroupPriority(out.spec, priorityClasses, { noun, preemptionPolicy });
  if ('error' in r) return out;
  out.spec.priority = r.priority;
  if (r.priorityClassName !== undefined) out.spec.priorityClassName = r.priorityClassName;
  if (r.preemptionPolicy !== undefined) out.spec.preemptionPolicy = r.preemptionPolicy;
  return out;
}

export function defaultNode(node: Node): Node {
  const n: Node = cloneJSON(node);
  n.status ??= {};
  if (!n.status.allocatable && n.status.capacity) n.status.allocatable = { ...n.status.capacity };
  n.metadata.labels ??= {};
  if (n.metadata.name && n.metadata.labels['kubernetes.io/hostname'] === undefined) {
    n.metadata.labels['kubernetes.io/hostname'] = n.metadata.name;
  }
  return n;
}

/** The API server's StorageClass defaults: reclaimPolicy Delete, volumeBindingMode Immediate. */
export function defaultStorageClass(sc: StorageClass): StorageClass {
  const out: StorageClass = cloneJSON(sc);
  out.reclaimPolicy ??= 'Delete';
  out.volumeBindingMode ??= 'Immediate';
  return out;
}

/** An object's key among objects of every kind: its kind key (api/kinds.ts), namespace and name. */
export function objectKey(o: KubeObject): string {
  const kind = kindKeyOf(o);
  return `${kind}/${keyNamespace(kind, o.metadata?.namespace ?? 'default')}/${o.metadata?.name ?? ''}`;
}

/**
 * The key of the `kind` object `namespace/name` in the store's map of that kind: its name for a
 * cluster-scoped kind (no string to build: a lookup hashes the name, whose hash V8 keeps),
 * namespace/name otherwise.
 */
export function keyInKind(kind: string, namespace: string, name: string): string {
  return clusterScopedKinds.has(kind) ? name : `${namespace}/${name}`;
}

/** keyInKind of an object. */
export function keyInKindOf(o: KubeObject): string {
  return keyInKind(kindKeyOf(o), o.metadata?.namespace ?? 'default', o.metadata?.name ?? '');
}

/**
 * keyInKindOf as one flat string, for the key a map keeps: a key built by concatenation is a rope,
 * which V8 flattens into a new string (kept alive by the rope, so by the map) the first time a
 * lookup compares it, long after the object was stored. Lookups may use keyInKind's rope.
 */
export function storedKeyInKind(o: KubeObject): string {
  const name = o.metadata?.name ?? '';
  return clusterScopedKinds.has(kindKeyOf(o)) ? name : [o.metadata?.namespace ?? 'default', name].join('/');
}

/** The namespace part of a key: empty for a cluster-scoped kind, whatever the object says. */
function keyNamespace(kind: string, namespace: string): string {
  return clusterScopedKinds.has(kind) ? '' : namespace;
}
