// NodeInfo: the aggregated view of one node (framework/types.go NodeInfo).
import type { ContainerPort, Node, Pod } from '../api/types.js';
import { Resource } from '../api/resources.js';
import type { PodInfo } from './pod_info.js';

export const DefaultBindAllHostIP = '0.0.0.0';

/** Host ports in use: ip → set of "protocol/port" (framework.HostPortInfo). */
export class HostPortInfo {
  private readonly byIP = new Map<string, Set<string>>();

  add(ip: string | undefined, protocol: string | undefined, port: number): void {
    const key = `${protocol || 'TCP'}/${port}`;
    const host = ip || DefaultBindAllHostIP;
    let set = this.byIP.get(host);
    if (!set) this.byIP.set(host, (set = new Set()));
    set.add(key);
  }

  remove(ip: string | undefined, protocol: string | undefined, port: number): void {
    const host = ip || DefaultBindAllHostIP;
    const set = this.byIP.get(host);
    if (!set) return;
    set.delete(`${protocol || 'TCP'}/${port}`);
    if (set.size === 0) this.byIP.delete(host);
  }

  /** True when ip/protocol/port conflicts with a used port; 0.0.0.0 conflicts with every IP. */
  checkConflict(ip: string | undefined, protocol: string | undefined, port: number): boolean {
    if (port <= 0) return false;
    const host = ip || DefaultBindAllHostIP;
    const key = `${protocol || 'TCP'}/${port}`;
    if (host === DefaultBindAllHostIP) {
      for (const set of this.byIP.values()) if (set.has(key)) return true;
      return false;
    }
    return !!this.byIP.get(host)?.has(key) || !!this.byIP.get(DefaultBindAllHostIP)?.has(key);
  }

  get size(): number {
    let n = 0;
    for (const s of this.byIP.values()) n += s.size;
    return n;
  }

  clone(): HostPortInfo {
    const c = new HostPortInfo();
    for (const [ip, set] of this.byIP) c.byIP.set(ip, new Set(set));
    return c;
  }
}

/** An image on a node and how many nodes have it (framework.ImageStateSummary). */
export interface ImageStateSummary {
  readonly size: number;
  numNodes: number;
}

/**
 * Host ports a pod uses (util.GetHostPorts): its containers' and its restartable (sidecar) init
 * containers' ports with hostPort set; other init containers do not run alongside the pod.
 */
export function getHostPorts(pod: Pod): ContainerPort[] {
  const out: ContainerPort[] = [];
  const spec = pod.spec;
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy !== 'Always') continue;
    for (const p of c.ports ?? []) if (p.hostPort && p.hostPort > 0) out.push(p);
  }
  for (const c of spec.containers ?? []) {
    for (const p of c.ports ?? []) if (p.hostPort && p.hostPort > 0) out.push(p);
  }
  return out;
}

/** Host ports a pod asks for (see getHostPorts), computed once per PodInfo. */
export function podHostPorts(info: PodInfo): readonly ContainerPort[] {
  return (info.hostPortsCache ??= getHostPorts(info.pod));
}

let generationCounter = 0;
export function nextGeneration(): number {
  return ++generationCounter;
}

/**
 * Columns of a NodeInfo's row of numbers (`row[rowAt + column]`): the values the filter and score
 * loops read for every node, kept together so a node costs one or two cache lines instead of a
 * walk over several objects. The Resource objects stay the full record (scalar resources too).
 * Change a NodeInfo only through its methods (addPod, removePod, setNode, ...): they keep the row
 * and the generation, which caches key on, in step.
 */
export const RowAllocMilliCPU = 0;
export const RowAllocMemory = 1;
export const RowReqMilliCPU = 2;
export const RowReqMemory = 3;
export const RowPodCount = 4;
export const RowAllowedPods = 5;
export const RowFlags = 6;
export const RowAllocEphemeral = 7;
export const RowReqEphemeral = 8;
export const RowNonZeroMilliCPU = 9;
export const RowNonZeroMemory = 10;
/** Doubles per row: two cache lines. */
export const RowStride = 16;

/** Bits of the RowFlags column, so plugins can skip nodes without the feature they look at. */
export const FlagUnschedulable = 1;
export const FlagTaints = 2;
export const FlagImages = 4;

export class NodeInfo {
  node: Node | null = null;
  /** The node's name ('' without a node): a field, so the hot loops need not reach into the Node. */
  name = '';
  pods: PodInfo[] = [];
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  usedPorts = new HostPortInfo();
  /** Sum of the pods' requests. */
  requested = new Resource();
  /** Sum of requests with missing cpu/memory defaulted (for scoring). */
  nonZeroRequested = new Resource();
  allocatable = new Resource();
  private images = new Map<string, ImageStateSummary>();
  /** PVCs used by pods on this node ("namespace/claim") and how many pods use each. */
  pvcRefCounts = new Map<string, number>();
  /** Bumped on every change, so snapshots copy only what changed. */
  generation = nextGeneration();
  /**
   * The row of numbers (see RowStride): its own array, or a slot of a table shared by the nodes
   * of a snapshot (moveRow), which keeps the rows of a walk next to each other in memory.
   */
  row: Float64Array = new Float64Array(RowStride);
  rowAt = 0;

  constructor(node?: Node) {
    if (node) this.setNode(node);
  }

  /** Images on this node, by every name the node reports, with cluster-wide spread. */
  get imageStates(): Map<string, ImageStateSummary> {
    return this.images;
  }

  set imageStates(states: Map<string, ImageStateSummary>) {
    this.images = states;
    this.syncFlags();
  }

  /** Moves the row of numbers to `table` at `at` (a snapshot packing its nodes). */
  moveRow(table: Float64Array, at: number): void {
    table.set(this.row.subarray(this.rowAt, this.rowAt + RowStride), at);
    this.row = table;
    this.rowAt = at;
  }

  /** Rewrites the row from the Resource objects, the pod count and the node. */
  private syncRow(): void {
    const r = this.row;
    const at = this.rowAt;
    r[at + RowAllocMilliCPU] = this.allocatable.milliCPU;
    r[at + RowAllocMemory] = this.allocatable.memory;
    r[at + RowAllocEphemeral] = this.allocatable.ephemeralStorage;
    r[at + RowAllowedPods] = this.allocatable.allowedPodNumber;
    r[at + RowReqMilliCPU] = this.requested.milliCPU;
    r[at + RowReqMemory] = this.requested.memory;
    r[at + RowReqEphemeral] = this.requested.ephemeralStorage;
    r[at + RowNonZeroMilliCPU] = this.nonZeroRequested.milliCPU;
    r[at + RowNonZeroMemory] = this.nonZeroRequested.memory;
    r[at + RowPodCount] = this.pods.length;
    this.syncFlags();
  }

  private syncFlags(): void {
    let flags = 0;
    const spec = this.node?.spec;
    if (spec?.unschedulable) flags |= FlagUnschedulable;
    if (spec?.taints && spec.taints.length > 0) flags |= FlagTaints;
    if (this.images.size > 0) flags |= FlagImages;
    this.row[this.rowAt + RowFlags] = flags;
  }

  setNode(node: Node): void {
    this.node = node;
    this.name = node.metadata.name ?? '';
    this.allocatable = Resource.fromList(node.status?.allocatable ?? node.status?.capacity);
    this.generation = nextGeneration();
    this.syncRow();
  }

  removeNode(): void {
    this.node = null;
    this.name = '';
    this.generation = nextGeneration();
    this.syncFlags();
  }

  addPod(pi: PodInfo): void {
    this.pods.push(pi);
    if (pi.hasAffinity()) this.podsWithAffinity.push(pi);
    if (pi.hasRequiredAntiAffinity()) this.podsWithRequiredAntiAffinity.push(pi);
    this.updateUsage(pi, 1);
    this.generation = nextGeneration();
    this.syncRow();
  }

  /** Removes the pod with the same uid; returns false when it was not on this node. */
  removePod(pi: PodInfo): boolean {
    const idx = indexOfUID(this.pods, pi.uid);
    if (idx < 0) return false;
    const existing = this.pods[idx]!;
    removeAt(this.pods, idx);
    const a = indexOfUID(this.podsWithAffinity, pi.uid);
    if (a >= 0) removeAt(this.podsWithAffinity, a);
    const r = indexOfUID(this.podsWithRequiredAntiAffinity, pi.uid);
    if (r >= 0) removeAt(this.podsWithRequiredAntiAffinity, r);
    this.updateUsage(existing, -1);
    this.generation = nextGeneration();
    this.syncRow();
    return true;
  }

  private updateUsage(pi: PodInfo, sign: 1 | -1): void {
    const req = pi.requests.resource;
    if (sign === 1) this.requested.add(req);
    else this.requested.sub(req);
    this.nonZeroRequested.milliCPU += sign * pi.requests.nonZeroMilliCPU;
    this.nonZeroRequested.memory += sign * pi.requests.nonZeroMemory;
    for (const p of podHostPorts(pi)) {
      if (sign === 1) this.usedPorts.add(p.hostIP, p.protocol, p.hostPort!);
      else this.usedPorts.remove(p.hostIP, p.protocol, p.hostPort!);
    }
    for (const v of pi.pod.spec.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (!claim) continue;
      const key = `${pi.namespace}/${claim}`;
      const n = (this.pvcRefCounts.get(key) ?? 0) + sign;
      if (n <= 0) this.pvcRefCounts.delete(key);
      else this.pvcRefCounts.set(key, n);
    }
  }

  /** A copy sharing PodInfos (immutable) but not the aggregates. */
  clone(): NodeInfo {
    const c = new NodeInfo();
    c.node = this.node;
    c.name = this.name;
    c.pods = this.pods.slice();
    c.podsWithAffinity = this.podsWithAffinity.slice();
    c.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.slice();
    c.usedPorts = this.usedPorts.clone();
    c.requested = this.requested.clone();
    c.nonZeroRequested = this.nonZeroRequested.clone();
    c.allocatable = this.allocatable.clone();
    c.images = this.images;
    c.pvcRefCounts = new Map(this.pvcRefCounts);
    c.generation = this.generation;
    c.syncRow();
    return c;
  }

  /**
   * Makes this NodeInfo a copy of `src` in place (the snapshot keeps its NodeInfo objects, as
   * upstream's UpdateSnapshot keeps its pointers): the per-node numbers stay where the hot loops
   * expect them, and a plugin may key caches on the object and its generation.
   */
  copyFrom(src: NodeInfo): void {
    this.node = src.node;
    this.name = src.name;
    this.pods = src.pods.slice();
    this.podsWithAffinity = src.podsWithAffinity.length === 0 ? [] : src.podsWithAffinity.slice();
    this.podsWithRequiredAntiAffinity = src.podsWithRequiredAntiAffinity.length === 0 ? [] : src.podsWithRequiredAntiAffinity.slice();
    this.usedPorts = src.usedPorts.size === 0 ? new HostPortInfo() : src.usedPorts.clone();
    this.requested.copyFrom(src.requested);
    this.nonZeroRequested.copyFrom(src.nonZeroRequested);
    this.allocatable.copyFrom(src.allocatable);
    this.images = src.images;
    this.pvcRefCounts = src.pvcRefCounts.size === 0 ? new Map() : new Map(src.pvcRefCounts);
    this.generation = src.generation;
    this.syncRow();
  }
}

/** Searches from the end: the pod removed most often is the assumed pod a binding confirms, added last. */
function indexOfUID(list: PodInfo[], uid: string): number {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.uid === uid) return i;
  return -1;
}

/** O(1) removal; pod order within a node does not matter to any plugin. */
function removeAt(list: PodInfo[], idx: number): void {
  const last = list.length - 1;
  if (idx !== last) list[idx] = list[last]!;
  list.pop();
}
