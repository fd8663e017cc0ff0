// The positions of one node list's NodeInfos, for counts kept in arrays by node position.
import type { NodeInfo } from '../node_info.js';

/** Fixed once made: a new node list gets a new index, so states holding the old one stay right. */
export class NodeIndex {
  static readonly empty = new NodeIndex([]);
  private readonly positions = new Map<NodeInfo, number>();

  constructor(readonly nodes: readonly NodeInfo[]) {
    for (let i = 0; i < nodes.length; i++) this.positions.set(nodes[i]!, i);
  }

  /**
   * The position of `ni`, or -1 (a NodeInfo copy, another snapshot's node). The position its
   * snapshot recorded is tried first and checked: hashing the object would cost more than the
   * rest of a Filter call.
   */
  position(ni: NodeInfo): number {
    const guess = ni.position;
    if (guess >= 0 && this.nodes[guess] === ni) return guess;
    return this.positions.get(ni) ?? -1;
  }
}
