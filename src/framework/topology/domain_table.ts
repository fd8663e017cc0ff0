// The snapshot's topology domains as small integers, so Filter and Score read counts from typed
// arrays by node position instead of fetching a label and hashing its value for every node.
import type { NodeInfo } from '../node_info.js';
import { ChangeCursor, type ChangeTrackingLister } from './change_cursor.js';
import { labelValue } from './label_value.js';
import { NodeIndex } from './node_index.js';

/**
 * For each topology key asked for, an id per label value (stable until the table is compacted)
 * and each listed node's id (-1 when it lacks the label), kept in step with one snapshot.
 */
export class DomainTable {
  /** Bumped when ids are given out afresh: counts indexed by the old ids must be rebuilt. */
  version = 0;
  private readonly changes = new ChangeCursor();
  private index = NodeIndex.empty;
  private readonly keys: string[] = [];
  private readonly keyIndexes = new Map<string, number>();
  /** Per key: label value → id. */
  private readonly ids: Map<string, number>[] = [];
  /** Per key: node position → id of its value, or -1. */
  private readonly columns: Int32Array[] = [];

  /** The positions of the node list last synced. */
  get nodeIndex(): NodeIndex {
    return this.index;
  }

  /** The position of `ni` in the node list last synced, or -1 (a NodeInfo copy, another snapshot). */
  position(ni: NodeInfo): number {
    return this.index.position(ni);
  }

  /** The id of the domain the node at `pos` is in for key index `k`, or -1 without the label. */
  domain(k: number, pos: number): number {
    return this.columns[k]![pos]!;
  }

  /**
   * `domain`, but a node without the label is in the "" domain (Go map semantics, as spread
   * scoring reads a missing key).
   */
  domainOrBlank(k: number, pos: number): number {
    const d = this.columns[k]![pos]!;
    return d >= 0 ? d : this.valueId(k, '');
  }

  /** Whether the positions are those of `nodes` (the list last synced). */
  covers(nodes: readonly NodeInfo[]): boolean {
    return this.index.nodes === nodes;
  }

  /**
   * The ids given out so far for key index `k`. Compaction starts a new map, so one read here
   * keeps naming the ids it held, for counts made before (cycle states of earlier pods). A value
   * may be added only as `valueId` does (the next id).
   */
  valueIds(k: number): Map<string, number> {
    return this.ids[k]!;
  }

  /** The index of `key`, added (with its column for the nodes synced) on first use. */
  keyIndex(key: string): number {
    let k = this.keyIndexes.get(key);
    if (k === undefined) {
      k = this.keys.length;
      this.keys.push(key);
      this.keyIndexes.set(key, k);
      this.ids.push(new Map());
      this.columns.push(this.column(k));
    }
    return k;
  }

  /** The id of `value` for key index `k`, given out on first use. */
  valueId(k: number, value: string): number {
    const ids = this.ids[k]!;
    let id = ids.get(value);
    if (id === undefined) {
      id = ids.size;
      ids.set(value, id);
    }
    return id;
  }

  /** Brings the positions and columns up to date with `lister`, which must track changes. */
  sync(lister: ChangeTrackingLister): void {
    const changed = this.changes.advance(lister);
    if (changed === null) {
      this.rebuild(lister.list());
      return;
    }
    // A node updated in place may have new labels.
    for (let i = 0; i < changed.length; i++) {
      const pos = this.index.position(changed[i]!);
      if (pos < 0) continue;
      for (let k = 0; k < this.keys.length; k++) this.columns[k]![pos] = this.idOf(k, changed[i]!);
    }
  }

  private rebuild(nodes: readonly NodeInfo[]): void {
    this.index = new NodeIndex(nodes);
    // Values of nodes long gone keep their ids until there are many more ids than nodes.
    let stale = false;
    for (let k = 0; k < this.keys.length; k++) if (this.ids[k]!.size > 2 * nodes.length + 1024) stale = true;
    if (stale) {
      for (let k = 0; k < this.keys.length; k++) this.ids[k] = new Map();
      this.version++;
    }
    for (let k = 0; k < this.keys.length; k++) this.columns[k] = this.column(k);
  }

  private column(k: number): Int32Array {
    const nodes = this.index.nodes;
    const col = new Int32Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) col[i] = this.idOf(k, nodes[i]!);
    return col;
  }

  private idOf(k: number, ni: NodeInfo): number {
    const value = labelValue(ni.node?.metadata.labels, this.keys[k]!);
    return value === undefined ? -1 : this.valueId(k, value);
  }
}
