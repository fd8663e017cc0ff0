// The per-cycle snapshot of nodes (backend/cache/snapshot.go): the list plugins iterate and the
// lookup by name, plus the sublists of nodes that hold pods with (anti-)affinity.
import type { NodeInfoLister, Placement, SharedLister, StorageInfoLister } from '../framework/interfaces.js';
import { NodeInfo } from '../framework/node_info.js';
import type { NodeRows } from '../framework/node_rows.js';
import { PodInfo } from '../framework/pod_info.js';
import type { Node, Pod } from '../api/types.js';

/** Epochs are unique across snapshots, so a cache never mistakes one snapshot for another. */
let listEpochCounter = 0;
function nextListEpoch(): number {
  return ++listEpochCounter;
}

export class Snapshot implements SharedLister, NodeInfoLister, StorageInfoLister {
  nodeInfoMap = new Map<string, NodeInfo>();
  nodeInfoList: NodeInfo[] = [];
  /** nodeInfoList's rows of numbers, packed in list order when the list was installed. */
  rows: NodeRows = NodeInfo.packInListOrder(this.nodeInfoList);
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
    this.rows = NodeInfo.packInListOrder(list);
    this.listEpoch = nextListEpoch();
    this.changeLogStart += this.changeLog.length;
    this.changeLog = [];
  }

  nodeInfos(): NodeInfoLister {
    return this;
  }

  /**
   * The placement a pod group's cycle is trying (TopologyAwareWorkloadScheduling): the scheduling
   * algorithm sees only its nodes; plugins still list every node. Null outside such a trial.
   */
  private placement: { readonly placement: Placement; readonly names: ReadonlySet<string> } | null = null;

  getPlacement(): Placement | null {
    return this.placement?.placement ?? null;
  }

  /**
   * Limits the algorithm to `placement`'s nodes (all nodes: no limit); the error when one of them
   * is not this snapshot's NodeInfo of that name.
   */
  assumePlacement(placement: Placement | null): string | null {
    this.placement = null;
    if (placement === null || placement.nodes.length === this.nodeInfoList.length) return null;
    const names = new Set<string>();
    for (const ni of placement.nodes) {
      const own = this.nodeInfoMap.get(ni.name);
      if (own === undefined) return `node ${ni.name} in placement is not present in snapshot`;
      if (own !== ni) return `node ${ni.name} in placement is not the same instance as in the snapshot`;
      names.add(ni.name);
    }
    this.placement = { placement, names };
    return null;
  }

  forgetPlacement(): void {
    this.placement = null;
  }

  /** The nodes the algorithm may use: the placement's, or all. */
  listNodesInPlacement(): readonly NodeInfo[] {
    return this.placement?.placement.nodes ?? this.nodeInfoList;
  }

  /** A node by name, when it is in the placement (or no placement is assumed). */
  getNodeInPlacement(name: string): NodeInfo | undefined {
    if (this.placement !== null && !this.placement.names.has(name)) return undefined;
    return this.nodeInfoMap.get(name);
  }

  storageInfos(): StorageInfoLister {
    return this;
  }

  isPVCUsedByPods(key: string): boolean {
    return this.usedPVCSet.has(key);
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
    for (const ni of this.nodeInfoList) {
      if (ni.podsWithAffinity.length > 0) this.podsWithAffinityList.push(ni);
      if (ni.podsWithRequiredAntiAffinity.length > 0) this.podsWithRequiredAntiAffinityList.push(ni);
    }
    this.rebuildUsedPVCs();
  }

  /** Rebuilds the set of PVCs in use from the nodes' counts. */
  rebuildUsedPVCs(): void {
    this.usedPVCSet.clear();
    this.pvcNodeCounts.clear();
    for (const ni of this.nodeInfoList) if (ni.pvcRefCounts.size > 0) this.countPVCs(ni, 1);
  }

  /**
   * Takes one listed node's PVC references out of (-1) or into (+1) the set in use, around an
   * in-place update of that node: cheaper than upstream's walk over every node when one changes.
   */
  countPVCs(ni: NodeInfo, sign: 1 | -1): void {
    for (const key of ni.pvcRefCounts.keys()) {
      const n = (this.pvcNodeCounts.get(key) ?? 0) + sign;
      if (n > 0) {
        this.pvcNodeCounts.set(key, n);
        this.usedPVCSet.add(key);
      } else {
        this.pvcNodeCounts.delete(key);
        this.usedPVCSet.delete(key);
      }
    }
  }

  /** Per PVC key in use, how many nodes hold pods using it. */
  private readonly pvcNodeCounts = new Map<string, number>();

  /**
   * Puts `ni` (already in nodeInfoList) into, or takes it out of, the (anti-)affinity sublists
   * after it gained or lost such pods: the lists keep nodeInfoList's order, without a walk over
   * every node (with one-pod-per-node anti-affinity, nearly every pod flips a node).
   */
  updateSublists(ni: NodeInfo): void {
    setMembership(this.podsWithAffinityList, ni, ni.podsWithAffinity.length > 0);
    setMembership(this.podsWithRequiredAntiAffinityList, ni, ni.podsWithRequiredAntiAffinity.length > 0);
  }

  /** A snapshot of the given nodes with the given pods on them, in node order (cache.NewSnapshot). */
  static fromObjects(pods: readonly Pod[], nodes: readonly Node[]): Snapshot {
    const s = new Snapshot();
    const list: NodeInfo[] = [];
    for (const n of nodes) {
      const ni = new NodeInfo(n);
      s.nodeInfoMap.set(n.metadata.name!, ni);
      list.push(ni);
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
    s.replaceList(list);
    s.rebuildLists();
    return s;
  }
}

/**
 * Adds `ni` to, or removes it from, `list` kept in nodeInfoList's order: every listed NodeInfo's
 * position is its index there (replaceList packs them).
 */
function setMembership(list: NodeInfo[], ni: NodeInfo, member: boolean): void {
  const pos = ni.position;
  // Binary search for the first entry at or after ni's position.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.position < pos) lo = mid + 1;
    else hi = mid;
  }
  const present = lo < list.length && list[lo] === ni;
  if (member && !present) list.splice(lo, 0, ni);
  else if (!member && present) list.splice(lo, 1);
}
