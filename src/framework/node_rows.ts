// The per-node numbers of NodeInfo (framework/types.go NodeInfo: Allocatable, Requested,
// NonZeroRequested, len(Pods), Generation) as rows of one table per snapshot list, read by a node's
// index in that list: the Filter walk and Score read them in list order without touching each
// NodeInfo object (at 50,000 nodes that first touch was the walk's largest cost).

/**
 * A list of NodeInfos, as this module sees it: only compared by identity (node_info.ts imports
 * this module, so it does not import NodeInfo back).
 */
type NodeList = readonly object[];

// A row is split in two: the hot part (`table[at * RowStride + column]`) holds what the Filter
// walk and a Score memo hit read, 64 bytes; the cold part (`table[coldBase + at * ColdStride +
// column]`, after every hot part) what only a memo miss or an ephemeral-storage request reads. A
// walk then streams half the bytes. NodeInfo writes them; see its methods.
export const RowAllocMilliCPU = 0;
export const RowAllocMemory = 1;
export const RowReqMilliCPU = 2;
export const RowReqMemory = 3;
export const RowPodCount = 4;
export const RowAllowedPods = 5;
export const RowFlags = 6;
export const RowGeneration = 7;
/** Doubles per hot part: one cache line. */
export const RowStride = 8;
export const ColdAllocEphemeral = 0;
export const ColdReqEphemeral = 1;
export const ColdNonZeroMilliCPU = 2;
export const ColdNonZeroMemory = 3;
/** Doubles per cold part. */
export const ColdStride = 4;

/** Doubles a table of `rows` rows takes: their hot parts, then their cold parts. */
export function tableLength(rows: number): number {
  return rows * (RowStride + ColdStride);
}

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
  private readonly coldBase: number;

  /**
   * @param table the rows (in a SharedArrayBuffer when worker threads may read them: a worker
   *   builds its NodeRows over the same table, with a list of the same length).
   */
  constructor(readonly list: NodeList, readonly table: Float64Array) {
    this.length = list.length;
    this.coldBase = list.length * RowStride;
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
    return this.table[this.coldBase + at * ColdStride + ColdAllocEphemeral]!;
  }

  requestedMilliCPU(at: number): number {
    return this.table[at * RowStride + RowReqMilliCPU]!;
  }

  requestedMemory(at: number): number {
    return this.table[at * RowStride + RowReqMemory]!;
  }

  requestedEphemeralStorage(at: number): number {
    return this.table[this.coldBase + at * ColdStride + ColdReqEphemeral]!;
  }

  nonZeroRequestedMilliCPU(at: number): number {
    return this.table[this.coldBase + at * ColdStride + ColdNonZeroMilliCPU]!;
  }

  nonZeroRequestedMemory(at: number): number {
    return this.table[this.coldBase + at * ColdStride + ColdNonZeroMemory]!;
  }
}

/** Scores a row pass computed ahead of Score (framework/row_pass.ts RowPassResult). */
export interface PassedScores {
  readonly rows: NodeRows;
  /** The rows first .. first + count - 1 were passed. */
  readonly first: number;
  readonly count: number;
  /** The scores of `owner` for exactly `podRequests`, by row - first (255: none), or null. */
  columnOf(owner: object, podRequests: Float64Array): Uint8Array | null;
}

/**
 * A cycle's scored nodes as rows: `positions[k]` is the row in `rows` of `nodes[k]`. Score plugins
 * find it in `CycleState.scoredRows` and use it only when `nodes` is the list they were given.
 */
export class NodeRowSelection {
  rows: NodeRows | null = null;
  nodes: NodeList | null = null;
  positions = new Int32Array(64);
  /** The walk's row pass, when one ran: scores already computed for some of the rows. */
  pass: PassedScores | null = null;

  /** The positions, with room for `n` nodes (their values are the caller's to write). */
  reserve(n: number): Int32Array {
    if (this.positions.length < n) this.positions = new Int32Array(Math.max(n, this.positions.length * 2));
    return this.positions;
  }

  private passes = new Uint8Array(64);

  /**
   * The Filter walk's scratch, with room for `n` nodes: for each node of a stretch of rows,
   * whether it passes so far (1) or goes to the Filter plugins (0).
   */
  reservePasses(n: number): Uint8Array {
    if (this.passes.length < n) this.passes = new Uint8Array(Math.max(n, this.passes.length * 2));
    return this.passes;
  }

  /** The rows of `nodes` when this selection was filled for exactly that list, else null. */
  rowsFor(nodes: NodeList): NodeRows | null {
    return this.nodes === nodes ? this.rows : null;
  }
}
