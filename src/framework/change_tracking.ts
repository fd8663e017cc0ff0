// What a plugin that keeps per-node aggregates between scheduling cycles needs from the node
// lister: the snapshot's change log, and a cheap way to find a NodeInfo's place in the list.
import type { NodeInfoLister } from './interfaces.js';
import type { NodeInfo } from './node_info.js';

/** A node lister with the snapshot's change tracking (see Snapshot.changedSince). */
export interface ChangeTrackingLister extends NodeInfoLister {
  readonly listEpoch: number;
  readonly changeCursor: number;
  changedSince(epoch: number, cursor: number): readonly NodeInfo[] | null;
}

/** True when the lister offers change tracking; a lister without it means counting every node. */
export function tracksChanges(lister: NodeInfoLister): lister is ChangeTrackingLister {
  return lister.listEpoch !== undefined && lister.changeCursor !== undefined && lister.changedSince !== undefined;
}

/**
 * The position of `nodeInfo` in `nodes`, or -1 (a NodeInfo copy, another snapshot's node). The
 * position its snapshot recorded is tried first and checked: hashing the object would cost more
 * than the rest of a Filter call.
 */
export function positionInList(nodes: readonly NodeInfo[], index: ReadonlyMap<NodeInfo, number>, nodeInfo: NodeInfo): number {
  const guess = nodeInfo.position;
  if (guess >= 0 && nodes[guess] === nodeInfo) return guess;
  return index.get(nodeInfo) ?? -1;
}
