// The per-cycle snapshot of nodes (backend/cache/snapshot.go): the list plugins iterate and the
// lookup by name, plus the sublists of nodes that hold pods with (anti-)affinity.
import type { NodeInfoLister, SharedLister } from '../framework/interfaces.js';
import { NodeInfo, RowStride } from '../framework/node_info.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Node, Pod } from '../api/types.js';

/** Epochs are unique across snapshots, so a cache never mistakes one snapshot for another. */
let listEpochCounter = 0;
function nextListEpoch(): number {
  return ++listEpochCounter;
}

export class Snapshot implements SharedLister, NodeInfoLister {
  nodeInfoMap = new Map<string, NodeInfo>();
  nodeInfoList: NodeInfo[] = [];
  podsWithAffinityList: NodeInfo[] = [];
  podsWithRequiredAntiAffinityList: NodeInfo[] = [];
  /** PVCs ("namespace/name") used by any scheduled pod. */
  usedPVCSet = new Set<string>();
  /** The cache generation this snapshot reflects. */
  generation = 0;
  /**
   * Bumped whenever nodeInfoList is replaced (a node added, removed or moved): a plugin that
   * keeps per-node aggregates between cycles starts over when it changes.
   */
  listEpoch = nextListEpoch();
  /** NodeInfos updated in place, oldest first; changeLogStart is the cursor of the first. */
  private changeLog: NodeInfo[] = [];
  private changeLogStart = 0;

  /** The cursor to pass to changedSince to learn what changes after this point. */
  get changeCursor(): number {
    return this.changeLogStart + this.changeLog.length;
  }

  /**
   * The NodeInfos updated in place since `cursor` (a node may appear more than once; compare
   * generations), or null when they are no longer known and the caller must look at every node.
   */
  changedSince(epoch: number, cursor: number): NodeInfo[] | null {
    if (epoch !== this.listEpoch || cursor < this.changeLogStart) return null;
    return this.changeLog.slice(cursor - this.changeLogStart);
  }

  /** Records that `ni` (already in the list) changed in place. */
  logChange(ni: NodeInfo): void {
    // Bounded: readers that fell this far behind recount, which costs about one cycle anyway.
    if (this.changeLog.length >= 4096 && this.changeLog.length >= this.nodeInfoList.length) {
      this.changeLogStart += this.changeLog.length;
      this.changeLog = [];
    }
    this.changeLog.push(ni);
  }

  /** Installs a new node order (nodes added, removed or reordered). */
  replaceList(list: NodeInfo[]): void {
    this.nodeInfoList = list;
    packRows(list);
    this.listEpoch = nextListEpoch();
    this.changeLogStart += this.changeLog.length;
    this.changeLog = [];
  }

  nodeInfos(): NodeInfoLister {
    return this;
  }

  list(): readonly NodeInfo[] {
    return this.nodeInfoList;
  }

  havePodsWithAffinityList(): readonly NodeInfo[] {
    return this.podsWithAffinityList;
  }

  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return this.podsWithRequiredAntiAffinityList;
  }

  get(nodeName: string): NodeInfo | undefined {
    return this.nodeInfoMap.get(nodeName);
  }

  /** Rebuilds the derived lists from nodeInfoList. */
  rebuildLists(): void {
    this.podsWithAffinityList = [];
    this.podsWithRequiredAntiAffinityList = [];
    this.usedPVCSet.clear();
    for (const ni of this.nodeInfoList) {
      if (ni.podsWithAffinity.length > 0) this.podsWithAffinityList.push(ni);
      if (ni.podsWithRequiredAntiAffinity.length > 0) this.podsWithRequiredAntiAffinityList.push(ni);
      for (const k of ni.pvcRefCounts.keys()) this.usedPVCSet.add(k);
    }
  }

  /** A snapshot of the given nodes with the given pods on them, in node order (cache.NewSnapshot). */
  static fromObjects(pods: readonly Pod[], nodes: readonly Node[]): Snapshot {
    const s = new Snapshot();
    for (const n of nodes) {
      const ni = new NodeInfo(n);
      s.nodeInfoMap.set(n.metadata.name!, ni);
      s.nodeInfoList.push(ni);
    }
    for (const p of pods) {
      const nodeName = p.spec.nodeName;
      if (!nodeName) continue;
      let ni = s.nodeInfoMap.get(nodeName);
      if (!ni) {
        // Pods on unknown nodes still count for affinity, as upstream's NewSnapshot keeps them.
        ni = new NodeInfo();
        s.nodeInfoMap.set(nodeName, ni);
      }
      ni.addPod(new PodInfo(p));
    }
    packRows(s.nodeInfoList);
    s.rebuildLists();
    return s;
  }
}

/** Puts the nodes' rows of numbers into one table in walk order (see NodeInfo.row). */
function packRows(list: readonly NodeInfo[]): void {
  const table = new Float64Array(list.length * RowStride);
  for (let i = 0; i < list.length; i++) list[i]!.moveRow(table, i * RowStride);
}
