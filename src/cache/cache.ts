// The scheduler cache: NodeInfo per node kept up to date from pod and node events, assumed pods
// that are not yet bound, and the incremental per-cycle snapshot (backend/cache/cache.go).
import type { Node, Pod } from '../api/types.js';
import { podKey } from '../api/types.js';
import { NodeInfo, noImageStates, type ImageStateSummary } from '../framework/node_info.js';
import { PodInfo } from '../framework/pod_info.js';
import { nodeSchedulingProblem } from '../api/validation/index.js';
import type { Clock } from '../util/clock.js';
import { NodeTree } from './node_tree.js';
import { Snapshot } from './snapshot.js';

interface PodState {
  podInfo: PodInfo;
  assumed: boolean;
  bindingFinished: boolean;
  /** When an assumed pod whose binding finished expires (ms), or null for never. */
  deadline: number | null;
}

interface ImageState extends ImageStateSummary {
  readonly nodes: Set<string>;
}

class CacheError extends Error {
  override name = 'CacheError';
}

export class Cache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly nodeTree = new NodeTree();
  private readonly podStates = new Map<string, PodState>();
  /**
   * How many of podStates are assumed: usually none when a cycle starts (the last pod's binding
   * is confirmed by then), so isAssumedPod answers without probing a map of every pod.
   */
  private assumedCount = 0;
  private readonly imageStates = new Map<string, ImageState>();
  /** Nodes changed since the last snapshot. */
  private readonly dirty = new Set<string>();
  /**
   * Nodes whose NodeInfo the snapshot holds itself instead of a copy (updateSnapshot, for a node new
   * to it): the cache copies such a NodeInfo before it first writes to it (`writable`), so the
   * snapshot keeps the object unchanged. The first snapshot after a start (5,000 nodes: ~25 ms of
   * copies on code the JIT has not compiled yet) then copies nothing; each node is copied once,
   * later, when its first pod lands on it, as upstream's UpdateSnapshot would have copied it anyway.
   */
  private readonly sharedWithSnapshot = new Set<string>();
  /** Nodes were added or removed since the last snapshot: rebuild the order. */
  private orderChanged = true;
  /** Nodes held out of the cache because the API server would have refused them, with the reason. */
  private readonly rejectedNodes = new Map<string, string>();

  /** @param assumedPodTTLMs how long an assumed pod lives after binding finished; 0 = forever (upstream's default). */
  constructor(
    private readonly clock: Clock,
    private readonly assumedPodTTLMs = 0,
  ) {}

  private touch(name: string): NodeInfo {
    let ni = this.writable(name);
    if (!ni) {
      ni = new NodeInfo();
      this.nodes.set(name, ni);
    }
    this.dirty.add(name);
    return ni;
  }

  /** The cache's NodeInfo of `name`, first copied when the snapshot holds it (see sharedWithSnapshot). */
  private writable(name: string): NodeInfo | undefined {
    const ni = this.nodes.get(name);
    if (ni === undefined || this.sharedWithSnapshot.size === 0 || !this.sharedWithSnapshot.delete(name)) return ni;
    const own = ni.clone();
    this.nodes.set(name, own);
    return own;
  }

  /**
   * Before a caller changes the snapshot's NodeInfo of `name` in place (a pod group's cycle, which
   * then calls refreshInSnapshot): the cache stops sharing it, so the change stays the snapshot's.
   */
  detachFromSnapshot(name: string): void {
    this.writable(name);
  }

  // ---- nodes ----

  /**
   * Nodes the API server would have refused (a value of the wrong type, an invalid taint or
   * quantity), by name, with the reason: kept out of the cache as if they did not exist, so no pod
   * is placed on them and none of their values reaches another pod's filter or score.
   */
  get invalidNodes(): ReadonlyMap<string, string> {
    return this.rejectedNodes;
  }

  /** Records why `node` cannot be trusted and drops a trusted version of it; true when it was rejected. */
  private rejectInvalid(node: Node): boolean {
    const problem = nodeSchedulingProblem(node);
    const name = typeof node.metadata?.name === 'string' ? node.metadata.name : '';
    if (problem === null) {
      this.rejectedNodes.delete(name);
      return false;
    }
    if (name === '') return true;
    this.rejectedNodes.set(name, problem);
    if (this.nodes.get(name)?.node) this.evictNode(name);
    return true;
  }

  addNode(node: Node): void {
    if (this.rejectInvalid(node)) return;
    const name = node.metadata.name!;
    const ni = this.touch(name);
    if (ni.node) this.removeImageStates(ni);
    else {
      this.nodeTree.addNode(node);
      this.orderChanged = true;
    }
    ni.setNode(node);
    this.addImageStates(ni, node);
  }

  updateNode(oldNode: Node, newNode: Node): void {
    if (this.rejectInvalid(newNode)) return;
    if (!this.nodes.get(newNode.metadata.name!)?.node) {
      this.addNode(newNode);
      return;
    }
    const ni = this.touch(newNode.metadata.name!);
    // A zone change moves the node in the tree, but (as upstream) the snapshot keeps its order
    // until a node is added or removed.
    this.nodeTree.updateNode(oldNode, newNode);
    this.removeImageStates(ni);
    ni.setNode(newNode);
    this.addImageStates(ni, newNode);
  }

  /** Removes the node; its NodeInfo stays while pods still reference it, as upstream keeps a ghost. */
  removeNode(node: Node): void {
    const name = node.metadata?.name ?? '';
    if (this.rejectedNodes.delete(name)) return;
    if (!this.nodes.get(name)?.node) throw new CacheError(`node ${name} is not found`);
    this.evictNode(name);
  }

  private evictNode(name: string): void {
    const ni = this.writable(name)!;
    this.removeImageStates(ni);
    this.nodeTree.removeNode(ni.node!);
    this.orderChanged = true;
    this.dirty.add(name);
    if (ni.pods.length === 0) this.nodes.delete(name);
    else ni.removeNode();
  }

  private addImageStates(ni: NodeInfo, node: Node): void {
    const images = node.status?.images;
    if (images === undefined || images.length === 0) {
      ni.imageStates = noImageStates;
      return;
    }
    const states = new Map<string, ImageStateSummary>();
    const nodeName = node.metadata.name!;
    for (const image of images) {
      for (const name of image.names ?? []) {
        let s = this.imageStates.get(name);
        if (!s) {
          s = { size: image.sizeBytes ?? 0, numNodes: 0, nodes: new Set() };
          this.imageStates.set(name, s);
        }
        s.nodes.add(nodeName);
        s.numNodes = s.nodes.size;
        states.set(name, s);
      }
    }
    ni.imageStates = states;
  }

  private removeImageStates(ni: NodeInfo): void {
    const nodeName = ni.name;
    for (const name of ni.imageStates.keys()) {
      const s = this.imageStates.get(name);
      if (!s) continue;
      s.nodes.delete(nodeName);
      s.numNodes = s.nodes.size;
      if (s.nodes.size === 0) this.imageStates.delete(name);
    }
    ni.imageStates = noImageStates;
  }

  // ---- pods ----

  private addPodToNode(pi: PodInfo): void {
    this.touch(pi.pod.spec.nodeName!).addPod(pi);
  }

  private removePodFromNode(pi: PodInfo): void {
    const nodeName = pi.pod.spec.nodeName!;
    const ni = this.writable(nodeName);
    if (!ni) return;
    ni.removePod(pi);
    this.dirty.add(nodeName);
    if (ni.pods.length === 0 && !ni.node) this.nodes.delete(nodeName);
  }

  /** Marks the pod as running on `pod.spec.nodeName` before the binding is confirmed. */
  assumePod(pi: PodInfo): void {
    if (this.podStates.has(pi.uid)) throw new CacheError(`pod ${pi.key}(${pi.uid}) is in the cache, so can't be assumed`);
    this.addPodToNode(pi);
    this.podStates.set(pi.uid, { podInfo: pi, assumed: true, bindingFinished: false, deadline: null });
    this.assumedCount++;
  }

  /** The binding was sent: from now the assumed pod may expire (when a TTL is set). */
  finishBinding(pod: Pod): void {
    const st = this.podStates.get(uidOf(pod));
    if (!st || !st.assumed) return;
    st.bindingFinished = true;
    st.deadline = this.assumedPodTTLMs > 0 ? this.clock.now() + this.assumedPodTTLMs : null;
  }

  /** Undoes assumePod (binding failed or was rejected). */
  forgetPod(pod: Pod): void {
    const uid = uidOf(pod);
    const st = this.podStates.get(uid);
    if (!st) return;
    if (!st.assumed) throw new CacheError(`pod ${podKey(pod)}(${uid}) was added to the cache and can't be forgotten`);
    if (st.podInfo.pod.spec.nodeName !== pod.spec.nodeName) {
      throw new CacheError(`pod ${podKey(pod)}(${uid}) was assumed on ${pod.spec.nodeName} but assigned to ${st.podInfo.pod.spec.nodeName}`);
    }
    this.removePodFromNode(st.podInfo);
    this.podStates.delete(uid);
    this.assumedCount--;
  }

  isAssumedPod(pod: Pod): boolean {
    return this.assumedCount > 0 && (this.podStates.get(uidOf(pod))?.assumed ?? false);
  }

  getPod(pod: Pod): Pod | undefined {
    return this.podStates.get(uidOf(pod))?.podInfo.pod;
  }

  /** An assigned pod was observed (informer add): confirms an assumed pod or adds it. */
  addPod(pod: Pod): void {
    const uid = uidOf(pod);
    const st = this.podStates.get(uid);
    if (st && st.assumed) {
      const pi = PodInfo.derive(st.podInfo, pod);
      // The informer's object replaces the assumed one, on whichever node it really landed.
      this.removePodFromNode(st.podInfo);
      this.addPodToNode(pi);
      // The state record is the cache's own: changed in place rather than replaced.
      st.podInfo = pi;
      st.assumed = false;
      this.assumedCount--;
      st.bindingFinished = false;
      st.deadline = null;
      return;
    }
    if (st) {
      this.updatePod(st.podInfo.pod, pod);
      return;
    }
    const pi = new PodInfo(pod);
    this.addPodToNode(pi);
    this.podStates.set(uid, { podInfo: pi, assumed: false, bindingFinished: false, deadline: null });
  }

  updatePod(_oldPod: Pod, newPod: Pod): void {
    const uid = uidOf(newPod);
    const st = this.podStates.get(uid);
    if (!st) {
      this.addPod(newPod);
      return;
    }
    if (st.assumed) return; // the informer's view arrives through addPod
    this.removePodFromNode(st.podInfo);
    const pi = PodInfo.derive(st.podInfo, newPod);
    this.addPodToNode(pi);
    st.podInfo = pi;
  }

  removePod(pod: Pod): void {
    const uid = uidOf(pod);
    const st = this.podStates.get(uid);
    if (!st) return;
    this.removePodFromNode(st.podInfo);
    this.podStates.delete(uid);
    if (st.assumed) this.assumedCount--;
  }

  /** Drops assumed pods whose binding finished longer than the TTL ago. */
  cleanupExpiredAssumedPods(): void {
    const now = this.clock.now();
    for (const [uid, st] of this.podStates) {
      if (st.assumed && st.bindingFinished && st.deadline !== null && now >= st.deadline) {
        this.removePodFromNode(st.podInfo);
        this.podStates.delete(uid);
        this.assumedCount--;
      }
    }
  }

  get nodeCount(): number {
    return this.nodeTree.numNodes;
  }

  get podCount(): number {
    return this.podStates.size;
  }

  nodeInfo(name: string): NodeInfo | undefined {
    return this.nodes.get(name);
  }

  /**
   * Brings `snapshot` up to date, copying only the nodes changed since the last call. The node
   * order is rebuilt from the zone tree only when a node was added or removed; the (anti-)affinity
   * sublists when a node gained or lost such pods.
   */
  /** Makes the next updateSnapshot copy the node again (after a caller changed the snapshot's copy). */
  refreshInSnapshot(name: string): void {
    if (this.nodes.has(name)) this.dirty.add(name);
  }

  updateSnapshot(snapshot: Snapshot): void {
    let updateAll = this.orderChanged;
    const flippedNodes: NodeInfo[] = [];
    for (const name of this.dirty) {
      const live = this.nodes.get(name);
      const existing = snapshot.nodeInfoMap.get(name);
      // Removed nodes, and ghosts kept for their pods, are not in the snapshot.
      if (!live?.node) {
        if (existing) {
          snapshot.nodeInfoMap.delete(name);
          updateAll = true;
        }
        continue;
      }
      if (!existing) {
        if (live.imageStates.size === 0) {
          // Shared until the cache writes to it; with images, the snapshot needs its own counts.
          snapshot.nodeInfoMap.set(name, live);
          this.sharedWithSnapshot.add(name);
        }
        else {
          const copy = live.clone();
          copy.imageStates = frozenImageStates(live.imageStates);
          snapshot.nodeInfoMap.set(name, copy);
        }
        updateAll = true;
        continue;
      }
      if (existing === live) continue; // still shared: nothing changed it
      const flipped = existing.podsWithAffinity.length > 0 !== live.podsWithAffinity.length > 0 ||
        existing.podsWithRequiredAntiAffinity.length > 0 !== live.podsWithRequiredAntiAffinity.length > 0;
      if (existing.pvcRefCounts.size > 0) snapshot.countPVCs(existing, -1);
      const frozen = existing.imageStates;
      // In place, as upstream keeps the snapshot's NodeInfo pointers: the lists stay valid.
      existing.copyFrom(live);
      if (existing.pvcRefCounts.size > 0) snapshot.countPVCs(existing, 1);
      existing.imageStates = frozenImageStates(live.imageStates, frozen);
      snapshot.logChange(existing);
      if (flipped) flippedNodes.push(existing);
    }
    this.dirty.clear();
    if (updateAll) {
      const list: NodeInfo[] = [];
      for (const name of this.nodeTree.list()) {
        const ni = snapshot.nodeInfoMap.get(name);
        if (ni?.node) list.push(ni);
      }
      snapshot.replaceList(list);
    }
    if (updateAll) {
      snapshot.rebuildLists();
    } else {
      for (const ni of flippedNodes) snapshot.updateSublists(ni);
    }
    this.orderChanged = false;
  }
}

/**
 * The node's image states with each image's node count as of now (ImageStateSummary.Snapshot).
 * `previous`, the snapshot's own earlier copy, is kept when both are empty (no new Map per copy);
 * an empty one is otherwise the shared noImageStates.
 */
function frozenImageStates(states: ReadonlyMap<string, ImageStateSummary>, previous?: Map<string, ImageStateSummary>): Map<string, ImageStateSummary> {
  if (states.size === 0) return previous !== undefined && previous.size === 0 ? previous : noImageStates;
  const out = new Map<string, ImageStateSummary>();
  for (const [name, s] of states) out.set(name, { size: s.size, numNodes: s.numNodes });
  return out;
}

function uidOf(pod: Pod): string {
  return pod.metadata.uid ?? podKey(pod);
}
