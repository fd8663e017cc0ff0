// The label keys existing pods' affinity terms select on. Cache keys project the incoming pod's
// labels onto them: a label no term looks at (scheduler_perf's per-pod "signature") cannot change
// any count, and keying on it made every pod of a workload miss the caches.
import type { NodeInfo } from '../../framework/node_info.js';
import type { AffinityTerm } from '../../framework/pod_info.js';
import { ChangeCursor, type ChangeTrackingLister } from '../../framework/topology/change_cursor.js';

/**
 * Grows only, kept in step with one snapshot: every label key some existing pod's term selects
 * on is in `keys`. `version` changes whenever a key is added, so keys built before are never
 * mistaken for keys built after (a new key may tell apart pods that looked alike).
 */
export class TermLabelKeys {
  version = 0;
  readonly keys: string[] = [];
  private readonly known = new Set<string>();
  private readonly changes = new ChangeCursor();

  /** Takes in the terms of the pods on nodes changed since the last sync (all nodes on a new list). */
  sync(lister: ChangeTrackingLister): void {
    const nodes = this.changes.advance(lister) ?? lister.havePodsWithAffinityList();
    for (let i = 0; i < nodes.length; i++) this.addNode(nodes[i]!);
  }

  private addNode(ni: NodeInfo): void {
    const pods = ni.podsWithAffinity;
    for (let i = 0; i < pods.length; i++) {
      const p = pods[i]!;
      this.addTerms(p.requiredAffinityTerms);
      this.addTerms(p.requiredAntiAffinityTerms);
      this.addTerms(p.preferredAffinityTerms);
      this.addTerms(p.preferredAntiAffinityTerms);
    }
  }

  private addTerms(terms: readonly AffinityTerm[]): void {
    for (let i = 0; i < terms.length; i++) {
      const reqs = terms[i]!.selector.requirements;
      for (let j = 0; j < reqs.length; j++) {
        const key = reqs[j]!.key;
        if (this.known.has(key)) continue;
        this.known.add(key);
        this.keys.push(key);
        this.version++;
      }
    }
  }
}
