// Per-node filter statuses with a status for nodes not listed (framework.NodeToStatus).
import type { NodeToStatusReader } from './interfaces.js';
import { Code, Status } from './status.js';

/**
 * Kept as two arrays while the filter walk appends (it visits each node once, and may reject
 * thousands per attempt), and turned into a map on the first lookup or keyed write.
 */
export class NodeToStatus implements NodeToStatusReader {
  private names: string[] = [];
  private statuses: Status[] = [];
  private map: Map<string, Status> | null = null;
  /** Nodes absent from the map were never evaluated: they get this status. */
  absentNodesStatus: Status = new Status(Code.UnschedulableAndUnresolvable);

  get(nodeName: string): Status {
    return this.index().get(nodeName) ?? this.absentNodesStatus;
  }

  /** Sets (or replaces) the node's status. */
  set(nodeName: string, status: Status): void {
    this.index().set(nodeName, status);
  }

  /**
   * The filter walk's cheap form of set: the node must not have been appended before unless a
   * set or a lookup came in between (then this replaces, as set does).
   */
  append(nodeName: string, status: Status): void {
    if (this.map !== null) {
      this.map.set(nodeName, status);
      return;
    }
    this.names.push(nodeName);
    this.statuses.push(status);
  }

  /** From now on appends may repeat a node (a second walk over nodes already recorded). */
  allowRepeats(): void {
    this.index();
  }

  has(nodeName: string): boolean {
    return this.index().has(nodeName);
  }

  entries(): IterableIterator<[string, Status]> {
    return this.index().entries();
  }

  get size(): number {
    return this.map !== null ? this.map.size : this.names.length;
  }

  private index(): Map<string, Status> {
    if (this.map === null) {
      this.map = new Map();
      for (let i = 0; i < this.names.length; i++) this.map.set(this.names[i]!, this.statuses[i]!);
      this.names = [];
      this.statuses = [];
    }
    return this.map;
  }
}
