// Per-node filter statuses with a status for nodes not listed (framework.NodeToStatus).
import type { NodeToStatusReader } from './interfaces.js';
import { Code, Status } from './status.js';

export class NodeToStatus implements NodeToStatusReader {
  private readonly map = new Map<string, Status>();
  /** Nodes absent from the map were never evaluated: they get this status. */
  absentNodesStatus: Status = new Status(Code.UnschedulableAndUnresolvable);

  get(nodeName: string): Status {
    return this.map.get(nodeName) ?? this.absentNodesStatus;
  }

  set(nodeName: string, status: Status): void {
    this.map.set(nodeName, status);
  }

  has(nodeName: string): boolean {
    return this.map.has(nodeName);
  }

  entries(): IterableIterator<[string, Status]> {
    return this.map.entries();
  }

  get size(): number {
    return this.map.size;
  }
}
