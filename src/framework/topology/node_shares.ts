// Topology counts kept between scheduling cycles. Upstream recounts every node's pods on every
// attempt; here each count is the sum of per-node shares, and an attempt only recomputes the
// shares of the nodes the snapshot's change log names (NodeInfos are updated in place).
import type { Labels } from '../../api/labels.js';
import type { NodeInfoLister } from '../interfaces.js';
import type { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import { ChangeCursor, type ChangeTrackingLister } from './change_cursor.js';
import type { DomainTable } from './domain_table.js';
import { LruMap } from './lru_map.js';
import { TopologyCounts } from './topology_counts.js';

/** Which pods of a node can contribute: all of them, or those of one of the snapshot's sublists. */
export type PodSource = 'all' | 'withAffinity' | 'withRequiredAntiAffinity';

/**
 * What one existing pod adds to the counts. Its result must depend only on the existing pod, the
 * node's labels and the cache key it is stored under (never on anything else that may change).
 */
export interface ShareFunction {
  readonly source: PodSource;
  /**
   * True for signed weights (PreScore): a pair stays while some hit lands on it, even when its
   * weights cancel out. False for counts of matching pods (PreFilter): a pair goes at zero.
   */
  readonly weighted: boolean;
  contribute(sink: ShareSink, existing: PodInfo, nodeLabels: Labels): void;
}

/** One node's share as it is collected: (topology key, value) → summed delta and number of hits. */
export class ShareSink {
  keys: string[] = [];
  values: string[] = [];
  deltas: number[] = [];
  hits: number[] = [];
  length = 0;

  add(key: string, value: string, delta: number): void {
    // A node has few distinct topology keys: a linear scan beats a map here.
    for (let i = 0; i < this.length; i++) {
      if (this.keys[i] === key && this.values[i] === value) {
        this.deltas[i]! += delta;
        this.hits[i]!++;
        return;
      }
    }
    const n = this.length++;
    this.keys[n] = key;
    this.values[n] = value;
    this.deltas[n] = delta;
    this.hits[n] = 1;
  }

  reset(): void {
    this.length = 0;
  }
}

/**
 * A node's share as counted in, with the generation of the NodeInfo it was computed from: one
 * entry per pair, chained (a node usually has one), so a recount allocates little per node.
 */
class NodeShare {
  constructor(
    readonly generation: number,
    readonly key: string,
    readonly value: string,
    readonly delta: number,
    readonly hits: number,
    readonly next: NodeShare | null,
  ) {}
}

function podsOf(ni: NodeInfo, source: PodSource): readonly PodInfo[] {
  return source === 'all' ? ni.pods : source === 'withAffinity' ? ni.podsWithAffinity : ni.podsWithRequiredAntiAffinity;
}

/** The nodes whose shares may be non-empty: the whole list or one of its sublists. */
export function nodesOf(lister: NodeInfoLister, source: PodSource): readonly NodeInfo[] {
  return source === 'all'
    ? lister.list()
    : source === 'withAffinity'
      ? lister.havePodsWithAffinityList()
      : lister.havePodsWithRequiredAntiAffinityList();
}

/** Collects into `sink` the share of `ni` (nothing for a NodeInfo without node or labels). */
function collectShare(fn: ShareFunction, ni: NodeInfo, sink: ShareSink): void {
  sink.reset();
  const labels = ni.node?.metadata.labels;
  if (labels === undefined || labels === null) return;
  const pods = podsOf(ni, fn.source);
  for (let j = 0; j < pods.length; j++) fn.contribute(sink, pods[j]!, labels);
}

/** The counts of `nodes` computed once, with nothing kept for later. */
export function countOnce(fn: ShareFunction, nodes: readonly NodeInfo[]): TopologyCounts {
  const counts = new TopologyCounts();
  const sink = new ShareSink();
  for (let i = 0; i < nodes.length; i++) {
    collectShare(fn, nodes[i]!, sink);
    for (let k = 0; k < sink.length; k++) {
      if (fn.weighted) counts.accumulate(sink.keys[k]!, sink.values[k]!, sink.deltas[k]!);
      else counts.add(sink.keys[k]!, sink.values[k]!, sink.deltas[k]!);
    }
  }
  return counts;
}

/**
 * Counts for one cache key, kept in step with a snapshot: always what countOnce would give for
 * the snapshot as it is now (the same pairs, the same sums).
 */
export class TopologyAggregate {
  /** The summed deltas: what PreFilter/PreScore state reads. Replaced on a recount. */
  counts: TopologyCounts;
  /** Hits per pair of weighted counts, to know when a pair would not exist in a full count. */
  private hits = new TopologyCounts();
  /** Shares of the nodes that have one (absent means empty). */
  private shares = new Map<NodeInfo, NodeShare>();
  /** How far the counts reflect the snapshot's changes. */
  private readonly changes = new ChangeCursor();
  /** The table version the counts' domain ids come from. */
  private tableVersion: number;
  private readonly sink = new ShareSink();

  constructor(
    private readonly fn: ShareFunction,
    private readonly table: DomainTable,
  ) {
    this.counts = new TopologyCounts(table);
    this.tableVersion = table.version;
  }

  /**
   * Brings the counts up to date with `lister`, which must track changes: the shares of the
   * nodes changed in place since the last sync are replaced, or everything is recounted when
   * the node list changed or the change log no longer reaches back far enough.
   */
  sync(lister: ChangeTrackingLister): void {
    const changed = this.changes.advance(lister);
    if (changed === null || this.tableVersion !== this.table.version) this.recount(nodesOf(lister, this.fn.source));
    else for (let i = 0; i < changed.length; i++) this.update(changed[i]!);
  }

  private recount(nodes: readonly NodeInfo[]): void {
    this.counts = new TopologyCounts(this.table);
    this.tableVersion = this.table.version;
    this.hits = new TopologyCounts();
    this.shares = new Map();
    for (let i = 0; i < nodes.length; i++) this.addShare(nodes[i]!);
  }

  private update(ni: NodeInfo): void {
    const old = this.shares.get(ni);
    if (old !== undefined) {
      // The log may name a node more than once: the generation tells whether it is counted already.
      if (old.generation === ni.generation) return;
      this.shares.delete(ni);
      for (let e: NodeShare | null = old; e !== null; e = e.next) this.apply(e.key, e.value, -e.delta, -e.hits);
    }
    this.addShare(ni);
  }

  private addShare(ni: NodeInfo): void {
    const s = this.sink;
    collectShare(this.fn, ni, s);
    let share: NodeShare | null = null;
    for (let i = s.length - 1; i >= 0; i--) {
      this.apply(s.keys[i]!, s.values[i]!, s.deltas[i]!, s.hits[i]!);
      share = new NodeShare(ni.generation, s.keys[i]!, s.values[i]!, s.deltas[i]!, s.hits[i]!, share);
    }
    if (share !== null) this.shares.set(ni, share);
  }

  private apply(key: string, value: string, delta: number, hits: number): void {
    if (!this.fn.weighted) {
      this.counts.add(key, value, delta);
      return;
    }
    this.counts.accumulate(key, value, delta);
    if (this.hits.add(key, value, hits) === 0) this.counts.delete(key, value);
  }
}

/**
 * A few aggregates by key, least recently used dropped first. A key gets an aggregate the second
 * time it is asked for: pods that share nothing with any other (unique labels) are counted once,
 * as before, without paying for the shares.
 */
export class AggregateCache {
  private readonly entries: LruMap<TopologyAggregate>;
  private readonly seenOnce = new Set<string>();

  /**
   * @param table the domain table the counts are bound to (synced by the caller each attempt)
   * @param capacity distinct keys kept; a workload's pods usually share one or a few
   */
  constructor(
    readonly table: DomainTable,
    private readonly capacity = 8,
  ) {
    this.entries = new LruMap(capacity);
  }

  /** The counts for `key` over the nodes of `lister`. */
  counts(key: string, fn: ShareFunction, lister: ChangeTrackingLister): TopologyCounts {
    let agg = this.entries.get(key);
    if (agg === undefined && this.seenOnce.delete(key)) {
      agg = new TopologyAggregate(fn, this.table);
      this.entries.set(key, agg);
    } else if (agg === undefined) {
      this.seenOnce.add(key);
      if (this.seenOnce.size > 4 * this.capacity) this.seenOnce.delete(this.seenOnce.values().next().value!);
      return countOnce(fn, nodesOf(lister, fn.source));
    }
    agg.sync(lister);
    return agg.counts;
  }
}
