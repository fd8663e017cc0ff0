// Per-node filter statuses with a status for nodes not listed (framework.NodeToStatus).
import type { NodeToStatusReader } from './interfaces.js';
import { Code, Status } from './status.js';

/** Positions [from, to) of a node list refused with one status, appended after the first `after` single entries. */
interface ListRun {
  readonly list: readonly string[];
  readonly from: number;
  to: number;
  readonly status: Status;
  readonly after: number;
}

/**
 * Kept as two arrays while the filter walk appends (it visits each node once, and may reject
 * thousands per attempt), and turned into a map on the first lookup or keyed write. Nodes of a
 * snapshot's list refused one after another with one status (the walk's rows short of the same
 * resource) are kept as a run of that list's positions: no entry per node until a lookup.
 */
export class NodeToStatus implements NodeToStatusReader {
  private names: string[] = [];
  private statuses: Status[] = [];
  private map: Map<string, Status> | null = null;
  /** The runs, in the order they were appended (none yet: null, so an attempt without one allocates nothing). */
  private runs: ListRun[] | null = null;
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

  /**
   * append for the nodes at positions [from, to) of `list` (the names of a snapshot's node list, in
   * list order), all with `status`: extends the last run when the range follows it in the same list
   * with the same status.
   */
  appendRangeFromList(list: readonly string[], from: number, to: number, status: Status): void {
    if (this.map !== null) {
      for (let at = from; at < to; at++) this.map.set(list[at]!, status);
      return;
    }
    const runs = (this.runs ??= []);
    const last = runs.length > 0 ? runs[runs.length - 1]! : null;
    if (last !== null && last.to === from && last.status === status && last.list === list && last.after === this.names.length) last.to = to;
    else runs.push({ list, from, to, status, after: this.names.length });
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
    if (this.map !== null) return this.map.size;
    let size = this.names.length;
    for (const run of this.runs ?? []) size += run.to - run.from;
    return size;
  }

  private index(): Map<string, Status> {
    if (this.map === null) {
      const map = new Map<string, Status>();
      let i = 0;
      for (const run of this.runs ?? []) {
        for (; i < run.after; i++) map.set(this.names[i]!, this.statuses[i]!);
        for (let at = run.from; at < run.to; at++) map.set(run.list[at]!, run.status);
      }
      for (; i < this.names.length; i++) map.set(this.names[i]!, this.statuses[i]!);
      this.map = map;
      this.names = [];
      this.statuses = [];
      this.runs = null;
    }
    return this.map;
  }
}
