// The plugin's SpreadCounts for recent pods' constraints, keyed by everything the counts depend
// on, and the NodeInfo positions the per-node columns are read through.
import { Selector } from '../../api/labels.js';
import { tracksChanges } from '../../framework/change_tracking.js';
import type { NodeInfoLister } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { type LabelMatcher, SelectorConjunction } from './common.js';
import { type CountingSpec, SpreadCounts } from './counting.js';

/** `s` length-prefixed, so that no two sequences of strings give the same text. */
function field(s: string): string {
  return `${s.length}:${s}`;
}

/**
 * A text that equals another's only when both selectors match the same pods, or null when the
 * matcher is of a kind it cannot describe.
 */
function selectorKey(m: LabelMatcher): string | null {
  if (m instanceof Selector) {
    if (m.matchesNothing) return '!';
    let out = `${m.requirements.length};`;
    for (const r of m.requirements) {
      out += `${field(r.key)}${r.op},${r.values.length};`;
      for (const v of r.values) out += field(v);
    }
    return out;
  }
  if (m instanceof SelectorConjunction) {
    let out = `&${m.parts.length};`;
    for (const p of m.parts) out += field(selectorKey(p)!);
    return out;
  }
  return null;
}

/** The cache key of a spec: everything its counts and columns depend on, or null when it cannot be keyed. */
function countingKey(spec: CountingSpec, ownCounted: readonly { readonly selector: LabelMatcher }[]): string | null {
  let affinity = false;
  let taints = false;
  // Counts end with ';' so that a count and the length prefix after it cannot run together.
  let out = `${spec.mode}${spec.requireAllTopologies ? 'all' : 'any'}${field(spec.namespace)}${spec.allConstraints.length};`;
  for (const c of spec.allConstraints) out += field(c.topologyKey);
  out += `${spec.constraints.length};`;
  for (const c of spec.constraints) {
    const sel = selectorKey(c.selector);
    if (sel === null) return null;
    out += `${field(c.topologyKey)}${field(sel)}${c.nodeAffinityPolicy}${c.nodeTaintsPolicy}`;
    if (c.nodeAffinityPolicy === 'Honor') affinity = true;
    if (c.nodeTaintsPolicy === 'Honor') taints = true;
  }
  out += `${ownCounted.length};`;
  for (const c of ownCounted) {
    const sel = selectorKey(c.selector);
    if (sel === null) return null;
    out += field(sel);
  }
  const podSpec = spec.pod.spec;
  const nodeAffinity = podSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (affinity && (podSpec.nodeSelector !== undefined || nodeAffinity !== undefined)) {
    out += field(JSON.stringify([podSpec.nodeSelector ?? null, nodeAffinity ?? null]));
  } else {
    out += '-';
  }
  out += taints && podSpec.tolerations !== undefined ? field(JSON.stringify(podSpec.tolerations)) : '-';
  return out;
}

/**
 * The counts of the last few specs, each synced to the snapshot on use. Least recently used
 * entries go first; a miss costs one full count, as upstream pays on every attempt.
 */
export class SpreadCountsCache {
  private readonly entries = new Map<string, SpreadCounts>();
  private indexNodes: readonly NodeInfo[] | null = null;
  private indexEpoch = -1;
  private index = new Map<NodeInfo, number>();

  constructor(private readonly capacity: number) {}

  /**
   * Counts for `spec` over `nodes`. They are kept and synced when `nodes` is the list of a
   * change-tracking lister; otherwise they are counted afresh (without columns).
   */
  countsFor(spec: CountingSpec, nodes: readonly NodeInfo[], lister: NodeInfoLister): SpreadCounts {
    const tracking = tracksChanges(lister);
    const fresh = new SpreadCounts(spec);
    const key = tracking && lister.list() === nodes ? countingKey(spec, fresh.ownCountConstraints) : null;
    if (!tracking || key === null) {
      fresh.rebuild(nodes);
      return fresh;
    }
    let counts = this.entries.get(key);
    if (counts === undefined) {
      counts = fresh;
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    } else {
      this.entries.delete(key);
    }
    this.entries.set(key, counts);
    counts.sync(nodes, lister, this.indexOf(nodes, lister.listEpoch));
    return counts;
  }

  /** Position of each NodeInfo in `nodes`, built once per node list. */
  private indexOf(nodes: readonly NodeInfo[], epoch: number): ReadonlyMap<NodeInfo, number> {
    if (this.indexNodes !== nodes || this.indexEpoch !== epoch) {
      const index = new Map<NodeInfo, number>();
      for (let j = 0; j < nodes.length; j++) index.set(nodes[j]!, j);
      this.index = index;
      this.indexNodes = nodes;
      this.indexEpoch = epoch;
    }
    return this.index;
  }
}
