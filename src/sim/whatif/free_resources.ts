// What a cluster's nodes have left: per resource (cpu, memory, pods and every extended resource
// such as nvidia.com/gpu), the allocatable total, what bound pods request, what is free, and the
// most free on one node (what a single large pod, a gang's 8-GPU worker, can use).
import { computePodResourceRequests, Resource } from '../../api/resource_requests.js';
import type { Node, Pod } from '../../api/types.js';
import type { MemoryCluster } from '../../cluster/memory/store.js';

interface FreeResource {
  /** `cpu` (in cores), `memory` (bytes), `pods`, or an extended resource's name (its count). */
  resource: string;
  allocatable: number;
  requested: number;
  free: number;
  /** The most free on a single node, and that node. */
  largestOnOneNode: { node: string; free: number };
}

export type FreeResources = FreeResource[];

/** Free resources over the cluster's schedulable nodes (cordoned ones left out), cpu first, extended resources by name. */
export function freeResources(cluster: MemoryCluster): FreeResources {
  const used = new Map<string, Resource>();
  for (const p of cluster.list<Pod>('Pod')) {
    const n = p.spec.nodeName;
    if (!n || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    let r = used.get(n);
    if (r === undefined) used.set(n, (r = new Resource()));
    r.add(computePodResourceRequests(p).resource);
    r.allowedPodNumber++;
  }
  const totals = new Map<string, FreeResource>();
  const note = (resource: string, node: string, allocatable: number, requested: number) => {
    let t = totals.get(resource);
    if (t === undefined) totals.set(resource, (t = { resource, allocatable: 0, requested: 0, free: 0, largestOnOneNode: { node: '', free: 0 } }));
    const free = Math.max(0, allocatable - requested);
    t.allocatable += allocatable;
    t.requested += requested;
    t.free += free;
    if (free > t.largestOnOneNode.free || t.largestOnOneNode.node === '') t.largestOnOneNode = { node, free };
  };
  for (const node of cluster.list<Node>('Node')) {
    if (node.spec?.unschedulable === true) continue;
    const name = node.metadata.name ?? '';
    const a = Resource.fromList(node.status?.allocatable ?? node.status?.capacity);
    const u = used.get(name) ?? new Resource();
    note('cpu', name, a.milliCPU / 1000, u.milliCPU / 1000);
    note('memory', name, a.memory, u.memory);
    note('pods', name, a.allowedPodNumber, u.allowedPodNumber);
    const scalars = new Set([...(a.scalarResources?.keys() ?? []), ...(u.scalarResources?.keys() ?? [])]);
    for (const k of [...scalars].sort()) note(k, name, a.scalarResources?.get(k) ?? 0, u.scalarResources?.get(k) ?? 0);
  }
  const order = (r: string) => ['cpu', 'memory', 'pods'].indexOf(r);
  return [...totals.values()].sort((x, y) => {
    const ox = order(x.resource);
    const oy = order(y.resource);
    if (ox >= 0 || oy >= 0) return (ox < 0 ? 99 : ox) - (oy < 0 ? 99 : oy);
    return x.resource.localeCompare(y.resource);
  });
}
