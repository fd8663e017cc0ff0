// The per-node numbers of NodeInfo (framework/types.go NodeInfo: Allocatable, Requested,
// NonZeroRequested, len(Pods), Generation) as rows of one table per snapshot list, read by a node's
// index in that list: the Filter walk and Score read them in list order without touching each
// NodeInfo object (at 50,000 nodes that first touch was the walk's largest cost).

import type { Status } from './status.js';

/**
 * A list of NodeInfos, as this module sees it: only compared by identity (node_info.ts imports
 * this module, so it does not import NodeInfo back).
 */
type NodeList = readonly object[];

// A row is split in two: the hot part (`table[at * Hot.Stride + column]`) holds what the Filter
// walk and a Score memo hit read, 64 bytes; the cold part (`table[coldBase + at * Cold.Stride +
// column]`, after every hot part) what only a memo miss or an ephemeral-storage request reads. A
// walk then streams half the bytes. NodeInfo writes them; see its methods. The layout is in const
// enums: the bundler writes their numbers into the hot loops, where a module's constants would be
// variables read again at every use.

/** The hot part's columns, and its size. */
export const enum Hot {
  AllocMilliCPU = 0,
  AllocMemory = 1,
  ReqMilliCPU = 2,
  ReqMemory = 3,
  PodCount = 4,
  AllowedPods = 5,
  Flags = 6,
  Generation = 7,
  /** Doubles per hot part: one cache line. */
  Stride = 8,
}

/** The cold part's columns, and its size. */
export const enum Cold {
  AllocEphemeral = 0,
  ReqEphemeral = 1,
  NonZeroMilliCPU = 2,
  NonZeroMemory = 3,
  /**
   * The scalar resources the node has allocatable or requested amounts of (any, zero included), as
   * a signature of their names (an OR of scalarNameBit's bits): a name whose bit is clear is in
   * neither, so the node has none of it and no pod of it.
   */
  ScalarNames = 4,
  /**
   * The hash (scalarNameHash) of the one scalar resource the node has a nonzero allocatable or
   * requested amount of; ScalarOnly.None when it has none, ScalarOnly.Several when two or more. A
   * node with a resource of its own (a device per node) then refuses every other name exactly,
   * whatever its bit in ScalarNames.
   */
  ScalarOnly = 5,
  /** Doubles per cold part. */
  Stride = 6,
}

/** Cold.ScalarOnly of a node with no nonzero scalar amount, or with two or more. */
export const enum ScalarOnly {
  None = -1,
  Several = -2,
}

/**
 * Rows per block: after the cold parts a table holds one stamp per block of rows
 * (`table[blockBase + (at >> Block.Shift)]`), renewed whenever any row of the block changes, so a
 * reader that kept something computed from a block's rows knows with one read whether it holds.
 */
export const enum Block {
  Shift = 4,
  Size = 16,
}

/** Doubles a table of `rows` rows takes: their hot parts, their cold parts, then their block stamps. */
export function tableLength(rows: number): number {
  return rows * (Hot.Stride + Cold.Stride) + ((rows + Block.Size - 1) >> Block.Shift);
}

/** Where the block stamps of a table of `rows` rows start. */
export function blockStampBase(rows: number): number {
  return rows * (Hot.Stride + Cold.Stride);
}

let blockChanges = 0;

/** A stamp no block had before: what a change to one of its rows writes into it. */
export function nextBlockStamp(): number {
  return ++blockChanges;
}

/** Bits of the Hot.Flags column. */
export const enum RowFlag {
  Unschedulable = 1,
  Taints = 2,
  Images = 4,
  /** The NodeInfo has its Node object. */
  Node = 8,
}

/**
 * The rows of a snapshot's node list, in list order (NodeInfo.packInListOrder). Valid while that
 * list is the snapshot's: `covers(nodes)` says whether `nodes` is it. Each getter is the NodeInfo
 * getter of the same name for `list[at]`.
 */
export class NodeRows {
  private readonly length: number;
  private readonly coldBase: number;
  private readonly blockBase: number;
  private scalars: Map<string, ScalarColumn> | null = null;

  /**
   * @param table the rows (in a SharedArrayBuffer when worker threads may read them: a worker
   *   builds its NodeRows over the same table, with a list of the same length).
   * @param readScalar reads one scalar resource of a list item into a column (NodeInfo's); none:
   *   this table has no scalar columns (a worker's view).
   */
  constructor(readonly list: NodeList, readonly table: Float64Array, private readonly readScalar: ScalarReader | null = null) {
    this.length = list.length;
    this.coldBase = list.length * Hot.Stride;
    this.blockBase = blockStampBase(list.length);
  }

  /**
   * The column of scalar resource `name` (an extended resource, hugepages, ...), made at first
   * ask; null past MaxScalarColumns names or without a reader. Its rows are read from the
   * NodeInfos as they are visited (ScalarColumn.sync), so a column costs nothing until used.
   */
  scalarColumn(name: string): ScalarColumn | null {
    const existing = this.scalars?.get(name);
    if (existing !== undefined) return existing;
    if (this.readScalar === null || (this.scalars !== null && this.scalars.size >= MaxScalarColumns)) return null;
    const column = new ScalarColumn(name, this.length, this.readScalar);
    (this.scalars ??= new Map()).set(name, column);
    return column;
  }

  /** Whether `nodes` is the packed list, unchanged in length (rows then index it). */
  covers(nodes: NodeList): boolean {
    return nodes === this.list && nodes.length === this.length;
  }

  hasNode(at: number): boolean {
    return (this.table[at * Hot.Stride + Hot.Flags]! & RowFlag.Node) !== 0;
  }

  generation(at: number): number {
    return this.table[at * Hot.Stride + Hot.Generation]!;
  }

  /** Block `block`'s stamp (rows block * Block.Size onwards): it changes with any of their rows. */
  blockStamp(block: number): number {
    return this.table[this.blockBase + block]!;
  }

  /** The blocks all of whose rows had their Node, at the stamp they were seen at. */
  private withNodes: KeptBlocks | null = null;

  /**
   * Whether every row of block `block` has its Node (hasNode), kept by the block's stamp: the walk
   * then reads no row's flags for it. A block past the list's end is never whole: false.
   */
  blockHasNodes(block: number): boolean {
    const from = block << Block.Shift;
    if (from + Block.Size > this.length) return false;
    if (this.withNodes === null) {
      this.withNodes = new KeptBlocks();
      this.withNodes.use(this);
    }
    if (this.withNodes.holds(block, 0)) return true;
    for (let at = from; at < from + Block.Size; at++) if (!this.hasNode(at)) return false;
    this.withNodes.keep(block, 0);
    return true;
  }

  podCount(at: number): number {
    return this.table[at * Hot.Stride + Hot.PodCount]!;
  }

  allowedPodNumber(at: number): number {
    return this.table[at * Hot.Stride + Hot.AllowedPods]!;
  }

  allocatableMilliCPU(at: number): number {
    return this.table[at * Hot.Stride + Hot.AllocMilliCPU]!;
  }

  allocatableMemory(at: number): number {
    return this.table[at * Hot.Stride + Hot.AllocMemory]!;
  }

  allocatableEphemeralStorage(at: number): number {
    return this.table[this.coldBase + at * Cold.Stride + Cold.AllocEphemeral]!;
  }

  requestedMilliCPU(at: number): number {
    return this.table[at * Hot.Stride + Hot.ReqMilliCPU]!;
  }

  requestedMemory(at: number): number {
    return this.table[at * Hot.Stride + Hot.ReqMemory]!;
  }

  requestedEphemeralStorage(at: number): number {
    return this.table[this.coldBase + at * Cold.Stride + Cold.ReqEphemeral]!;
  }

  nonZeroRequestedMilliCPU(at: number): number {
    return this.table[this.coldBase + at * Cold.Stride + Cold.NonZeroMilliCPU]!;
  }

  nonZeroRequestedMemory(at: number): number {
    return this.table[this.coldBase + at * Cold.Stride + Cold.NonZeroMemory]!;
  }

  /** The row's Cold.ScalarNames signature. */
  scalarNames(at: number): number {
    return this.table[this.coldBase + at * Cold.Stride + Cold.ScalarNames]!;
  }

  /** The row's Cold.ScalarOnly. */
  scalarOnly(at: number): number {
    return this.table[this.coldBase + at * Cold.Stride + Cold.ScalarOnly]!;
  }
}

/**
 * A scalar resource name's hash (FNV-1a over its UTF-16 code units, an unsigned 32-bit integer):
 * two names with different hashes differ.
 */
export function scalarNameHash(name: string): number {
  let hash = nameHashes.get(name);
  if (hash === undefined) {
    let h = 0x811c9dc5;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
    hash = h >>> 0;
    // Names are few in a cluster; past this many they are hashed again each time rather than kept.
    if (nameHashes.size < 4096) nameHashes.set(name, hash);
  }
  return hash;
}

const nameHashes = new Map<string, number>();

/**
 * A scalar resource name's bit in Cold.ScalarNames signatures: one of 30 (small integers for V8,
 * like the signatures), from the name's hash.
 */
export function scalarNameBit(name: string): number {
  return 1 << scalarNameHash(name) % 30;
}

/** Reads the allocatable and requested amounts of scalar resource `name` of `item` into row `at` of `into`. */
export type ScalarReader = (item: object, name: string, into: ScalarColumn, at: number) => void;

/**
 * Scalar resources a table keeps columns for: pods of a cluster ask for a handful (GPUs, hugepages);
 * a pod asking for one past them is checked on its NodeInfos, as before columns existed.
 */
const MaxScalarColumns = 16;

/**
 * One scalar resource's allocatable and requested amounts by row, read from the NodeInfos lazily:
 * a row's pair is current while its stamp equals the row's generation, which every change to the
 * NodeInfo renews (copies included), so a walk reads again only the nodes changed since it last
 * visited them. Not shared with worker threads.
 */
export class ScalarColumn {
  readonly allocatable: Float64Array;
  readonly requested: Float64Array;
  /** The row generation each pair was read at; NaN: never read (no generation equals it). */
  private readonly stamps: Float64Array;

  constructor(readonly name: string, rows: number, private readonly read: ScalarReader) {
    this.allocatable = new Float64Array(rows);
    this.requested = new Float64Array(rows);
    this.stamps = new Float64Array(rows).fill(NaN);
  }

  /** Brings row `at` of `rows` (the table this column belongs to) up to date. */
  sync(rows: NodeRows, at: number): void {
    const generation = rows.generation(at);
    if (this.stamps[at] === generation) return;
    this.read(rows.list[at]!, this.name, this, at);
    this.stamps[at] = generation;
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
/**
 * Something a reader keeps per block of one table's rows (NodeRows.blockStamp), computed for an
 * epoch of its own (the requests it was computed for): a block's holds while neither its stamp nor
 * the epoch changed since it was kept.
 */
export class KeptBlocks {
  private rows: NodeRows | null = null;
  private stamps = new Float64Array(0);
  private epochs = new Float64Array(0);

  /** Keeps blocks of `rows` from now on; true when that starts over (another table: nothing kept). */
  use(rows: NodeRows): boolean {
    if (this.rows === rows) return false;
    this.rows = rows;
    const blocks = (rows.list.length + Block.Size - 1) >> Block.Shift;
    this.stamps = new Float64Array(blocks).fill(NaN);
    this.epochs = new Float64Array(blocks);
    return true;
  }

  holds(block: number, epoch: number): boolean {
    return this.stamps[block] === this.rows!.blockStamp(block) && this.epochs[block] === epoch;
  }

  keep(block: number, epoch: number): void {
    this.stamps[block] = this.rows!.blockStamp(block);
    this.epochs[block] = epoch;
  }
}

/** Whether `positions[k]` onwards are one whole block of rows in order (a stretch of the walk). */
export function wholeBlockAt(positions: Int32Array, k: number, count: number): boolean {
  const at = positions[k]!;
  return (at & (Block.Size - 1)) === 0 && k + Block.Size <= count && positions[k + Block.Size - 1] === at + Block.Size - 1;
}

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

  private rejections: (Status | null)[] = [];

  /** The Filter walk's scratch for filterRows' rejections, with room for `n` nodes. */
  reserveRejections(n: number): (Status | null)[] {
    if (this.rejections.length < n) this.rejections = new Array<Status | null>(Math.max(n, this.rejections.length * 2)).fill(null);
    return this.rejections;
  }

  /** The rows of `nodes` when this selection was filled for exactly that list, else null. */
  rowsFor(nodes: NodeList): NodeRows | null {
    return this.nodes === nodes ? this.rows : null;
  }
}
