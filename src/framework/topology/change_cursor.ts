// What counts kept between scheduling cycles need from the node lister: the snapshot's change
// log, read through a cursor that remembers how far its owner has caught up.
import type { NodeInfoLister } from '../interfaces.js';
import type { NodeInfo } from '../node_info.js';

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

/** How far one holder of counts has read a lister's change log. */
export class ChangeCursor {
  /** Epochs start at 1: a new cursor never matches. */
  private epoch = 0;
  private cursor = 0;

  /**
   * The NodeInfos changed in place since the last call (a node may appear more than once:
   * compare generations), or null when every node must be looked at: the first call, a new node
   * list, or a log that no longer reaches back. Either way the cursor moves to the log's end.
   */
  advance(lister: ChangeTrackingLister): readonly NodeInfo[] | null {
    const changed = this.epoch === lister.listEpoch ? lister.changedSince(this.epoch, this.cursor) : null;
    this.epoch = lister.listEpoch;
    this.cursor = lister.changeCursor;
    return changed;
  }
}
