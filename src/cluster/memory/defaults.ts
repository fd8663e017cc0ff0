// Defaulting the embedded API server applies on create, as kube-apiserver and admission do:
// namespace, schedulerName, requests from limits, node allocatable, priority from PriorityClass.
import type { KubeObject, Node, Pod, PriorityClass, StorageClass } from '../../api/types.js';
import { cloneJSON } from '../../util/json_clone.js';

export const DefaultSchedulerName = 'default-scheduler';

export function defaultPod(pod: Pod, priorityClasses: readonly PriorityClass[]): Pod {
  const p: Pod = cloneJSON(pod);
  p.metadata ??= {};
  p.metadata.namespace ??= 'default';
  p.spec ??= { containers: [] };
  p.spec.containers ??= [];
  p.spec.schedulerName ??= DefaultSchedulerName;
  for (const c of [...p.spec.containers, ...(p.spec.initContainers ?? [])]) {
    const limits = c.resources?.limits;
    if (!limits) continue;
    c.resources!.requests ??= {};
    for (const [k, v] of Object.entries(limits)) if (c.resources!.requests[k] === undefined) c.resources!.requests[k] = v;
  }
  if (p.spec.priority === undefined) {
    const pc = p.spec.priorityClassName
      ? priorityClasses.find((c) => c.metadata?.name === p.spec.priorityClassName)
      : priorityClasses.find((c) => c.globalDefault);
    if (pc) {
      p.spec.priority = pc.value;
      p.spec.priorityClassName ??= pc.metadata?.name;
      if (pc.preemptionPolicy && !p.spec.preemptionPolicy) p.spec.preemptionPolicy = pc.preemptionPolicy;
    } else {
      p.spec.priority = 0;
    }
  }
  p.spec.preemptionPolicy ??= 'PreemptLowerPriority';
  p.status ??= {};
  if (!p.spec.nodeName) p.status.phase ??= 'Pending';
  return p;
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

/** Cluster-scoped kinds carry no namespace. */
export const clusterScopedKinds = new Set(['Node', 'Namespace', 'PersistentVolume', 'StorageClass', 'CSINode', 'VolumeAttachment', 'CSIDriver', 'PriorityClass']);

export function objectKey(o: KubeObject): string {
  const ns = clusterScopedKinds.has(o.kind ?? '') ? '' : (o.metadata?.namespace ?? 'default');
  return `${o.kind}/${ns}/${o.metadata?.name ?? ''}`;
}
