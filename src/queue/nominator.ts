// Nominated pods per node: pods that preemption made room for (backend/queue/nominator.go).
import type { PodNominatorReader } from '../framework/interfaces.js';
import type { Pod } from '../api/types.js';
import type { PodInfo } from '../framework/pod_info.js';

/** How a scheduling attempt changes the pod's nomination (framework.NominatingInfo). */
export interface NominatingInfo {
  /** Override sets `nominatedNodeName` (empty clears it); Noop keeps the pod's status value. */
  readonly mode: 'Override' | 'Noop';
  readonly nominatedNodeName: string;
}

export const clearNominatedNode: NominatingInfo = { mode: 'Override', nominatedNodeName: '' };

/** Returned for nodes without nominated pods: asked once per node per filter pass, so not allocated. */
const noPods: readonly PodInfo[] = Object.freeze([]);

export class Nominator implements PodNominatorReader {
  private readonly byNode = new Map<string, PodInfo[]>();
  private readonly nodeOf = new Map<string, string>();

  /** @param isStillPending tells whether the pod still exists unassigned (upstream checks its lister). */
  constructor(private readonly isStillPending: (pi: PodInfo) => boolean = () => true) {}

  add(pi: PodInfo, info: NominatingInfo | null): void {
    this.delete(pi);
    const nodeName = info && info.mode === 'Override' ? info.nominatedNodeName : (pi.pod.status?.nominatedNodeName ?? '');
    if (nodeName === '' || !this.isStillPending(pi)) return;
    this.nodeOf.set(pi.uid, nodeName);
    let list = this.byNode.get(nodeName);
    if (!list) this.byNode.set(nodeName, (list = []));
    if (!list.some((p) => p.uid === pi.uid)) list.push(pi);
  }

  delete(pi: { uid: string }): void {
    const nodeName = this.nodeOf.get(pi.uid);
    if (nodeName === undefined) return;
    this.nodeOf.delete(pi.uid);
    const list = this.byNode.get(nodeName);
    if (!list) return;
    const idx = list.findIndex((p) => p.uid === pi.uid);
    if (idx >= 0) list.splice(idx, 1);
    if (list.length === 0) this.byNode.delete(nodeName);
  }

  /**
   * Replaces the stored pod (UpdateNominatedPod). The nomination made in memory survives an update
   * only when neither version carries a nominatedNodeName; otherwise the new pod's status decides.
   */
  update(oldPod: Pod, newPi: PodInfo): void {
    const oldUID = oldPod.metadata.uid ?? newPi.uid;
    const nodeName = this.nodeOf.get(oldUID);
    const keep = nodeName !== undefined && !oldPod.status?.nominatedNodeName && !newPi.pod.status?.nominatedNodeName;
    this.delete({ uid: oldUID });
    this.add(newPi, keep ? { mode: 'Override', nominatedNodeName: nodeName } : null);
  }

  nominatedNodeOf(uid: string): string | undefined {
    return this.nodeOf.get(uid);
  }

  hasNominatedPods(): boolean {
    return this.byNode.size > 0;
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.byNode.get(nodeName) ?? noPods;
  }
}
