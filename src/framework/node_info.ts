// NodeInfo: the aggregated view of one node (framework/types.go NodeInfo).
import type { ContainerPort, Node, Pod } from '../api/types.js';
import { Resource } from '../api/resource_requests.js';
import type { PodInfo } from './pod_info.js';
import {
  Block,
  blockStampBase,
  Cold,
  Hot,
  nextBlockStamp,
  NodeRows,
  RowFlag,
  scalarNameBit,
  scalarNameHash,
  ScalarOnly,
  tableLength,
  type ScalarColumn,
} from './node_rows.js';

const DefaultBindAllHostIP = '0.0.0.0';

/** Host ports in use: ip → set of "protocol/port" (framework.HostPortInfo). */
export class HostPortInfo {
  /** Created on first use: most nodes never see a host port, and NodeInfos are copied often. */
  private byIP: Map<string, Set<string>> | null = null;

  add(ip: string | undefined, protocol: string | undefined, port: number): void {
    const key = `${protocol || 'TCP'}/${port}`;
    const host = ip || DefaultBindAllHostIP;
    this.byIP ??= new Map();
    let set = this.byIP.get(host);
    if (!set) this.byIP.set(host, (set = new Set()));
    set.add(key);
  }

  remove(ip: string | undefined, protocol: string | undefined, port: number): void {
    const host = ip || DefaultBindAllHostIP;
    const set = this.byIP?.get(host);
    if (!set) return;
    set.delete(`${protocol || 'TCP'}/${port}`);
    if (set.size === 0) this.byIP!.delete(host);
  }

  /** True when ip/protocol/port conflicts with a used port; 0.0.0.0 conflicts with every IP. */
  checkConflict(ip: string | undefined, protocol: string | undefined, port: number): boolean {
    if (port <= 0 || this.byIP === null) return false;
    const host = ip || DefaultBindAllHostIP;
    const key = `${protocol || 'TCP'}/${port}`;
    if (host === DefaultBindAllHostIP) {
      for (const set of this.byIP.values()) if (set.has(key)) return true;
      return false;
    }
    return !!this.byIP.get(host)?.has(key) || !!this.byIP.get(DefaultBindAllHostIP)?.has(key);
  }

  get size(): number {
    if (this.byIP === null) return 0;
    let n = 0;
    for (const s of this.byIP.values()) n += s.size;
    return n;
  }

  clone(): HostPortInfo {
    const c = new HostPortInfo();
    if (this.byIP === null) return c;
    c.byIP = new Map();
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

const noHostPorts: readonly ContainerPort[] = Object.freeze([]);

/**
 * Host ports a pod asks for (see getHostPorts), computed once per PodInfo; the pods without any
 * (nearly all) share one empty list rather than each keeping its own in the cache.
 */
export function podHostPorts(info: PodInfo): readonly ContainerPort[] {
  if (info.hostPortsCache !== null) return info.hostPortsCache;
  const ports = getHostPorts(info.pod);
  return (info.hostPortsCache = ports.length === 0 ? noHostPorts : ports);
}

/** The Cold.ScalarNames signature of the names in `a` and `b`. */
function scalarNamesSignature(a: ReadonlyMap<string, number> | null, b: ReadonlyMap<string, number> | null): number {
  let signature = 0;
  if (a !== null) for (const name of a.keys()) signature |= scalarNameBit(name);
  if (b !== null) for (const name of b.keys()) signature |= scalarNameBit(name);
  return signature;
}

/**
 * The Cold.ScalarOnly of allocatable `a` and requested `b`: the hash of the one name with a nonzero
 * amount in either. A name at zero in both is as good as absent to every reader of the rows.
 */
function onlyScalarName(a: ReadonlyMap<string, number> | null, b: ReadonlyMap<string, number> | null): number {
  let only: string | null = null;
  if (a !== null) {
    for (const [name, amount] of a) {
      if (amount === 0 && (b?.get(name) ?? 0) === 0) continue;
      if (only !== null) return ScalarOnly.Several;
      only = name;
    }
  }
  // A name allocatable here with a nonzero amount on either side is `only` already.
  if (b !== null) {
    for (const [name, amount] of b) {
      if (amount === 0 || name === only) continue;
      if (only !== null) return ScalarOnly.Several;
      only = name;
    }
  }
  return only === null ? ScalarOnly.None : scalarNameHash(only);
}

/** NodeRows' reader of scalar columns: the NodeInfo's allocatable and requested amounts of `name`. */
function readScalarInto(item: object, name: string, into: ScalarColumn, at: number): void {
  const ni = item as NodeInfo;
  into.allocatable[at] = ni.allocatable.scalar(name);
  into.requested[at] = ni.requested.scalar(name);
}

let generationCounter = 0;
function nextGeneration(): number {
  return ++generationCounter;
}

// The row's columns and flags are node_rows.ts's: a NodeInfo's private row of numbers (a hot
// part at `row[rowAt + column]`, a cold part at `row[coldAt + column]`) holds what the filter and
// score loops read for every node, so a node costs a cache line or two instead of a walk over
// several objects, and a snapshot's rows sit in one table (NodeRows). Callers read them through
// NodeInfo's getters or NodeRows, so the layout can change without touching them. The Resource
// objects stay the full record (scalar resources too). Change a NodeInfo only through its methods
// (addPod, removePod, setNode, ...): they keep the row and the generation, which caches key on,
// in step.

/**
 * The flags any NodeInfo of the process ever had, never cleared (a NodeInfo dropped goes
 * unnoticed): a flag not in it is on no node of any list, so a walk looking for it can be skipped.
 */
let flagsSeen = 0;

/** False while no NodeInfo has reported images: a walk asking hasImages() of each would find none. */
export function anyNodeInfoHadImages(): boolean {
  return (flagsSeen & RowFlag.Images) !== 0;
}

/** False while no NodeInfo has been unschedulable: no node of any list is cordoned. */
export function anyNodeInfoWasUnschedulable(): boolean {
  return (flagsSeen & RowFlag.Unschedulable) !== 0;
}

/** False while no NodeInfo has had taints: a walk asking hasTaints() of each would find none. */
export function anyNodeInfoHadTaints(): boolean {
  return (flagsSeen & RowFlag.Taints) !== 0;
}

/** Rows for NodeInfos outside a snapshot's table are cut from shared chunks: one allocation per
 * chunk instead of one (off-heap) array per NodeInfo. Small chunks bound what a long-lived
 * NodeInfo can keep alive of a chunk otherwise used by short-lived copies. */
const rowsPerChunk = 64;

/**
 * The image states of every NodeInfo whose node reports no image: one empty map instead of one
 * per NodeInfo and per snapshot copy (10,000 maps at 5,000 nodes). Image states are replaced whole
 * (`imageStates = ...`), never changed in place, so sharing it is safe as sharing a copy's is.
 */
export const noImageStates: Map<string, ImageStateSummary> = new Map();

/**
 * The PVC counts of every NodeInfo no pod with a claim is on: one empty map, replaced by a map of
 * its own when the NodeInfo's first such pod comes (updateUsage, the only writer).
 */
const noPVCRefCounts: Map<string, number> = new Map();
let rowChunk = new Float64Array(tableLength(rowsPerChunk));
let rowChunkNext = 0;

export class NodeInfo {
  node: Node | null;
  /** The node's name ('' without a node): a field, so the hot loops need not reach into the Node. */
  name: string;
  pods: PodInfo[];
  podsWithAffinity: PodInfo[];
  podsWithRequiredAntiAffinity: PodInfo[];
  usedPorts: HostPortInfo;
  /** Sum of the pods' requests. */
  requested: Resource;
  /** Sum of requests with missing cpu/memory defaulted (for scoring). */
  nonZeroRequested: Resource;
  allocatable: Resource;
  private images: Map<string, ImageStateSummary>;
  /** PVCs used by pods on this node ("namespace/claim") and how many pods use each. */
  pvcRefCounts: Map<string, number>;
  /** Bumped on every change, so snapshots copy only what changed (also in the row: setGeneration). */
  generation = 0;
  /**
   * The row of numbers (see node_rows.ts): a slot in a shared chunk, or in a table shared by the
   * nodes of a snapshot (packInListOrder), which keeps the rows of a walk next to each other.
   */
  private row: Float64Array;
  private rowAt: number;
  private coldAt: number;
  private listPosition = -1;
  /** Where the stamp of this row's block is in `row` (a packed table), or -1 in a shared chunk. */
  private blockAt = -1;

  /** A NodeInfo for `node` (none: a placeholder for pods on an unknown node), or a copy of `from`. */
  constructor(node?: Node, from?: NodeInfo) {
    if (rowChunkNext === rowsPerChunk) {
      rowChunk = new Float64Array(tableLength(rowsPerChunk));
      rowChunkNext = 0;
    }
    this.row = rowChunk;
    this.rowAt = rowChunkNext * Hot.Stride;
    this.coldAt = rowsPerChunk * Hot.Stride + rowChunkNext++ * Cold.Stride;
    if (from !== undefined) {
      this.node = from.node;
      this.name = from.name;
      this.pods = from.pods.slice();
      this.podsWithAffinity = from.podsWithAffinity.slice();
      this.podsWithRequiredAntiAffinity = from.podsWithRequiredAntiAffinity.slice();
      this.usedPorts = from.usedPorts.size === 0 ? new HostPortInfo() : from.usedPorts.clone();
      this.requested = from.requested.clone();
      this.nonZeroRequested = from.nonZeroRequested.clone();
      this.allocatable = from.allocatable.clone();
      this.images = from.images;
      this.pvcRefCounts = from.pvcRefCounts.size === 0 ? noPVCRefCounts : new Map(from.pvcRefCounts);
      this.generation = from.generation;
      const src = from.row;
      const dst = this.row;
      for (let i = 0, a = from.rowAt, b = this.rowAt; i < Hot.Stride; i++) dst[b + i] = src[a + i]!;
      for (let i = 0, a = from.coldAt, b = this.coldAt; i < Cold.Stride; i++) dst[b + i] = src[a + i]!;
      return;
    }
    this.node = null;
    this.name = '';
    this.pods = [];
    this.podsWithAffinity = [];
    this.podsWithRequiredAntiAffinity = [];
    this.usedPorts = new HostPortInfo();
    this.requested = new Resource();
    this.nonZeroRequested = new Resource();
    this.allocatable = new Resource();
    this.images = noImageStates;
    this.pvcRefCounts = noPVCRefCounts;
    this.setGeneration(nextGeneration());
    if (node) this.setNode(node);
  }

  /** Images on this node, by every name the node reports, with cluster-wide spread. */
  get imageStates(): Map<string, ImageStateSummary> {
    return this.images;
  }

  set imageStates(states: Map<string, ImageStateSummary>) {
    this.images = states;
    this.syncFlags();
    // The one change to the row without a new generation (which renews the block's stamp).
    if (this.blockAt >= 0) this.row[this.blockAt] = nextBlockStamp();
  }

  // The per-node numbers the filter and score loops read, named after upstream's NodeInfo fields
  // (Allocatable.MilliCPU, Requested.Memory, ...): small getters V8 inlines into the loops.
  get allocatableMilliCPU(): number {
    return this.row[this.rowAt + Hot.AllocMilliCPU]!;
  }

  get allocatableMemory(): number {
    return this.row[this.rowAt + Hot.AllocMemory]!;
  }

  get allocatableEphemeralStorage(): number {
    return this.row[this.coldAt + Cold.AllocEphemeral]!;
  }

  /** Allocatable.AllowedPodNumber: the node's `pods` capacity. */
  get allowedPodNumber(): number {
    return this.row[this.rowAt + Hot.AllowedPods]!;
  }

  get requestedMilliCPU(): number {
    return this.row[this.rowAt + Hot.ReqMilliCPU]!;
  }

  get requestedMemory(): number {
    return this.row[this.rowAt + Hot.ReqMemory]!;
  }

  get requestedEphemeralStorage(): number {
    return this.row[this.coldAt + Cold.ReqEphemeral]!;
  }

  get nonZeroRequestedMilliCPU(): number {
    return this.row[this.coldAt + Cold.NonZeroMilliCPU]!;
  }

  get nonZeroRequestedMemory(): number {
    return this.row[this.coldAt + Cold.NonZeroMemory]!;
  }

  /** len(Pods): pods on the node, assumed ones included. */
  get podCount(): number {
    return this.row[this.rowAt + Hot.PodCount]!;
  }

  /** The node's spec.unschedulable (false without a node). */
  get unschedulable(): boolean {
    return (this.row[this.rowAt + Hot.Flags]! & RowFlag.Unschedulable) !== 0;
  }

  /** True when the node has taints of any effect. */
  hasTaints(): boolean {
    return (this.row[this.rowAt + Hot.Flags]! & RowFlag.Taints) !== 0;
  }

  /** True when the node reports any image (imageStates is not empty). */
  hasImages(): boolean {
    return (this.row[this.rowAt + Hot.Flags]! & RowFlag.Images) !== 0;
  }

  /**
   * This NodeInfo's index in the node list of the snapshot that last placed it (Snapshot keeps it
   * current for every node of its list), or -1 for a NodeInfo no snapshot placed (a copy). A node
   * dropped from that list keeps its old index: check `list[position] === nodeInfo`.
   */
  get position(): number {
    return this.listPosition;
  }

  /**
   * Gives `list` (a snapshot's node list) one table of rows in list order and records each
   * NodeInfo's position: a walk over the list then reads memory in order, by index through the
   * NodeRows returned.
   */
  static packInListOrder(list: readonly NodeInfo[]): NodeRows {
    // Shared memory, so that worker threads can read a list's rows without a copy (issue 27 item 2);
    // the main thread writes it between cycles only. A walk over it measured as fast as over an ArrayBuffer.
    const table = new Float64Array(new SharedArrayBuffer(tableLength(list.length) * Float64Array.BYTES_PER_ELEMENT));
    const coldBase = list.length * Hot.Stride;
    const blockBase = blockStampBase(list.length);
    for (let i = 0; i < list.length; i++) {
      const ni = list[i]!;
      const at = i * Hot.Stride;
      const coldAt = coldBase + i * Cold.Stride;
      table.set(ni.row.subarray(ni.rowAt, ni.rowAt + Hot.Stride), at);
      table.set(ni.row.subarray(ni.coldAt, ni.coldAt + Cold.Stride), coldAt);
      ni.row = table;
      ni.rowAt = at;
      ni.coldAt = coldAt;
      ni.listPosition = i;
      ni.blockAt = blockBase + (i >> Block.Shift);
    }
    return new NodeRows(list, table, readScalarInto);
  }

  private setGeneration(generation: number): void {
    this.generation = generation;
    this.row[this.rowAt + Hot.Generation] = generation;
    // Every change to the row comes with a new generation (or a copy's): its block's stamp moves too.
    if (this.blockAt >= 0) this.row[this.blockAt] = nextBlockStamp();
  }

  /** Rewrites the row from the Resource objects, the pod count and the node. */
  private syncRow(): void {
    this.syncUsage();
    this.syncFlags();
  }

  /** Rewrites the row's numbers (what adding or removing a pod changes). */
  private syncUsage(): void {
    const r = this.row;
    const at = this.rowAt;
    const cold = this.coldAt;
    r[at + Hot.AllocMilliCPU] = this.allocatable.milliCPU;
    r[at + Hot.AllocMemory] = this.allocatable.memory;
    r[at + Hot.AllowedPods] = this.allocatable.allowedPodNumber;
    r[at + Hot.ReqMilliCPU] = this.requested.milliCPU;
    r[at + Hot.ReqMemory] = this.requested.memory;
    r[at + Hot.PodCount] = this.pods.length;
    r[cold + Cold.AllocEphemeral] = this.allocatable.ephemeralStorage;
    r[cold + Cold.ReqEphemeral] = this.requested.ephemeralStorage;
    r[cold + Cold.NonZeroMilliCPU] = this.nonZeroRequested.milliCPU;
    r[cold + Cold.NonZeroMemory] = this.nonZeroRequested.memory;
    const allocatableScalars = this.allocatable.scalarResources;
    const requestedScalars = this.requested.scalarResources;
    r[cold + Cold.ScalarNames] = allocatableScalars === null && requestedScalars === null ? 0 : scalarNamesSignature(allocatableScalars, requestedScalars);
    r[cold + Cold.ScalarOnly] = allocatableScalars === null && requestedScalars === null ? ScalarOnly.None : onlyScalarName(allocatableScalars, requestedScalars);
  }

  private syncFlags(): void {
    let flags = this.node === null ? 0 : RowFlag.Node;
    const spec = this.node?.spec;
    if (spec?.unschedulable) flags |= RowFlag.Unschedulable;
    if (spec?.taints && spec.taints.length > 0) flags |= RowFlag.Taints;
    if (this.images.size > 0) flags |= RowFlag.Images;
    flagsSeen |= flags;
    this.row[this.rowAt + Hot.Flags] = flags;
  }

  setNode(node: Node): void {
    this.node = node;
    this.name = node.metadata.name ?? '';
    this.allocatable = Resource.fromList(node.status?.allocatable ?? node.status?.capacity);
    this.setGeneration(nextGeneration());
    this.syncRow();
  }

  removeNode(): void {
    this.node = null;
    this.name = '';
    this.setGeneration(nextGeneration());
    this.syncFlags();
  }

  addPod(pi: PodInfo): void {
    this.pods.push(pi);
    if (pi.hasAffinity()) this.podsWithAffinity.push(pi);
    if (pi.hasRequiredAntiAffinity()) this.podsWithRequiredAntiAffinity.push(pi);
    this.updateUsage(pi, 1);
    this.setGeneration(nextGeneration());
    this.syncUsage();
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
    this.setGeneration(nextGeneration());
    this.syncUsage();
    return true;
  }

  private updateUsage(pi: PodInfo, sign: 1 | -1): void {
    const req = pi.requests.resource;
    if (sign === 1) this.requested.add(req);
    else this.requested.sub(req);
    this.nonZeroRequested.milliCPU += sign * pi.requests.nonZeroMilliCPU;
    this.nonZeroRequested.memory += sign * pi.requests.nonZeroMemory;
    const ports = podHostPorts(pi);
    for (let i = 0; i < ports.length; i++) {
      const p = ports[i]!;
      if (sign === 1) this.usedPorts.add(p.hostIP, p.protocol, p.hostPort!);
      else this.usedPorts.remove(p.hostIP, p.protocol, p.hostPort!);
    }
    const volumes = pi.pod.spec.volumes;
    if (volumes === undefined) return;
    for (let i = 0; i < volumes.length; i++) {
      const claim = volumes[i]!.persistentVolumeClaim?.claimName;
      if (!claim) continue;
      const key = `${pi.namespace}/${claim}`;
      const n = (this.pvcRefCounts.get(key) ?? 0) + sign;
      if (n <= 0) this.pvcRefCounts.delete(key);
      else {
        if (this.pvcRefCounts === noPVCRefCounts) this.pvcRefCounts = new Map();
        this.pvcRefCounts.set(key, n);
      }
    }
  }

  /** A copy sharing PodInfos (immutable) but not the aggregates. */
  clone(): NodeInfo {
    return new NodeInfo(undefined, this);
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
    // An empty list, port set or count map of this copy (never shared with another NodeInfo) is
    // kept when the source's is empty too: a snapshot's NodeInfo lives long, so each fresh empty
    // one would outlive a scavenge and be copied twice, for every pod the node gets.
    if (src.podsWithAffinity.length > 0) this.podsWithAffinity = src.podsWithAffinity.slice();
    else if (this.podsWithAffinity.length > 0) this.podsWithAffinity = [];
    if (src.podsWithRequiredAntiAffinity.length > 0) this.podsWithRequiredAntiAffinity = src.podsWithRequiredAntiAffinity.slice();
    else if (this.podsWithRequiredAntiAffinity.length > 0) this.podsWithRequiredAntiAffinity = [];
    if (src.usedPorts.size > 0) this.usedPorts = src.usedPorts.clone();
    else if (this.usedPorts.size > 0) this.usedPorts = new HostPortInfo();
    this.requested.copyFrom(src.requested);
    this.nonZeroRequested.copyFrom(src.nonZeroRequested);
    this.allocatable.copyFrom(src.allocatable);
    this.images = src.images;
    if (src.pvcRefCounts.size > 0) this.pvcRefCounts = new Map(src.pvcRefCounts);
    else if (this.pvcRefCounts.size > 0) this.pvcRefCounts = noPVCRefCounts;
    this.setGeneration(src.generation);
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
