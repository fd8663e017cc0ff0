// The per-node numbers of NodeInfo (framework/types.go NodeInfo: Allocatable, Requested,
// NonZeroRequested, len(Pods), Generation) as rows of one table per snapshot list, read by a node's
// index in that list: the Filter walk and Score read them in list order without touching each
// NodeInfo object (at 50,000 nodes that first touch was the walk's largest cost).

/**
 * A list of NodeInfos, as this module sees it: only compared by identity (node_info.ts imports
 * this module, so it does not import NodeInfo back).
 */
type NodeList = readonly object[];

// Columns of a row (`table[at * RowStride + column]`). NodeInfo writes them; see its methods.
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
export const RowGeneration = 11;
/** Doubles per row: two cache lines. */
export const RowStride = 16;

/** Bits of the RowFlags column. */
export const FlagUnschedulable = 1;
export const FlagTaints = 2;
export const FlagImages = 4;
/** The NodeInfo has its Node object. */
export const FlagNode = 8;

/**
 * The rows of a snapshot's node list, in list order (NodeInfo.packInListOrder). Valid while that
 * list is the snapshot's: `covers(nodes)` says whether `nodes` is it. Each getter is the NodeInfo
 * getter of the same name for `list[at]`.
 */
export class NodeRows {
  private readonly length: number;

  constructor(readonly list: NodeList, private readonly table: Float64Array) {
    this.length = list.length;
  }

  /** Whether `nodes` is the packed list, unchanged in length (rows then index it). */
  covers(nodes: NodeList): boolean {
    return nodes === this.list && nodes.length === this.length;
  }

  hasNode(at: number): boolean {
    return (this.table[at * RowStride + RowFlags]! & FlagNode) !== 0;
  }

  generation(at: number): number {
    return this.table[at * RowStride + RowGeneration]!;
  }

  podCount(at: number): number {
    return this.table[at * RowStride + RowPodCount]!;
  }

  allowedPodNumber(at: number): number {
    return this.table[at * RowStride + RowAllowedPods]!;
  }

  allocatableMilliCPU(at: number): number {
    return this.table[at * RowStride + RowAllocMilliCPU]!;
  }

  allocatableMemory(at: number): number {
    return this.table[at * RowStride + RowAllocMemory]!;
  }

  allocatableEphemeralStorage(at: number): number {
    return this.table[at * RowStride + RowAllocEphemeral]!;
  }

  requestedMilliCPU(at: number): number {
    return this.table[at * RowStride + RowReqMilliCPU]!;
  }

  requestedMemory(at: number): number {
    return this.table[at * RowStride + RowReqMemory]!;
  }

  requestedEphemeralStorage(at: number): number {
    return this.table[at * RowStride + RowReqEphemeral]!;
  }

  nonZeroRequestedMilliCPU(at: number): number {
    return this.table[at * RowStride + RowNonZeroMilliCPU]!;
  }

  nonZeroRequestedMemory(at: number): number {
    return this.table[at * RowStride + RowNonZeroMemory]!;
  }
}

/**
 * A cycle's scored nodes as rows: `positions[k]` is the row in `rows` of `nodes[k]`. Score plugins
 * find it in `CycleState.scoredRows` and use it only when `nodes` is the list they were given.
 */
export class NodeRowSelection {
  rows: NodeRows | null = null;
  nodes: NodeList | null = null;
  positions = new Int32Array(64);

  /** The positions, with room for `n` nodes (their values are the caller's to write). */
  reserve(n: number): Int32Array {
    if (this.positions.length < n) this.positions = new Int32Array(Math.max(n, this.positions.length * 2));
    return this.positions;
  }

  /** The rows of `nodes` when this selection was filled for exactly that list, else null. */
  rowsFor(nodes: NodeList): NodeRows | null {
    return this.nodes === nodes ? this.rows : null;
  }
}
