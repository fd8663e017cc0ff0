// The three topology counts of InterPodAffinity's PreFilter (filtering.go's
// getExistingAntiAffinityCounts and getIncomingAffinityAntiAffinityCounts), from the caches kept
// between attempts when the snapshot tracks changes, else counted afresh.
import type { Labels } from '../../api/labels.js';
import type { Pod } from '../../api/types.js';
import type { NodeInfoLister } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { affinityTermMatches, type AffinityTerm, type PodInfo } from '../../framework/pod_info.js';
import { tracksChanges } from '../../framework/topology/change_cursor.js';
import { AggregateCache, countOnce, type ShareFunction, type ShareSink } from '../../framework/topology/node_shares.js';
import { incomingPodKey, termsKey } from './cache_keys.js';
import type { DomainTable } from '../../framework/topology/domain_table.js';
import type { TermLabelKeys } from './term_label_keys.js';
import { podMatchesAllTerms } from './terms.js';
import { labelValue } from '../../framework/topology/label_value.js';
import { TopologyCounts } from '../../framework/topology/topology_counts.js';

/** Where the helpers below add: one attempt's counts, or a node's share being collected. */
interface PairSink {
  add(key: string, value: string, delta: number): void;
}

/** When `pod` matches all terms, counts it once per term in the pair the node gives the term's key. */
export function addMatchingAllTerms(counts: PairSink, terms: readonly AffinityTerm[], pod: Pod, nodeLabels: Labels, delta: number): void {
  // The incoming pod's terms have their namespaceSelector unrolled: no namespace labels needed.
  if (!podMatchesAllTerms(terms, pod, undefined)) return;
  for (let i = 0; i < terms.length; i++) {
    const key = terms[i]!.topologyKey;
    const value = labelValue(nodeLabels, key);
    if (value !== undefined) counts.add(key, value, delta);
  }
}

/** Counts `pod` once for every term it matches, in the pair the node gives that term's key. */
export function addMatchingAnyTerm(
  counts: PairSink,
  terms: readonly AffinityTerm[],
  pod: Pod,
  nsLabels: Labels,
  nodeLabels: Labels,
  delta: number,
): void {
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    if (!affinityTermMatches(t, pod, nsLabels)) continue;
    const value = labelValue(nodeLabels, t.topologyKey);
    if (value !== undefined) counts.add(t.topologyKey, value, delta);
  }
}

/** Existing pods whose required anti-affinity terms match the incoming pod (cached by incomingPodKey). */
class ExistingAntiAffinityShare implements ShareFunction {
  readonly source = 'withRequiredAntiAffinity';
  readonly weighted = false;

  constructor(
    private readonly pod: Pod,
    private readonly nsLabels: Labels,
  ) {}

  contribute(sink: ShareSink, existing: PodInfo, nodeLabels: Labels): void {
    addMatchingAnyTerm(sink, existing.requiredAntiAffinityTerms, this.pod, this.nsLabels, nodeLabels, 1);
  }
}

/** Existing pods matching all the incoming pod's affinity terms (cached by termsKey). */
class AffinityShare implements ShareFunction {
  readonly source = 'all';
  readonly weighted = false;

  constructor(private readonly terms: readonly AffinityTerm[]) {}

  contribute(sink: ShareSink, existing: PodInfo, nodeLabels: Labels): void {
    addMatchingAllTerms(sink, this.terms, existing.pod, nodeLabels, 1);
  }
}

/** Existing pods matching some of the incoming pod's anti-affinity terms (cached by termsKey). */
class AntiAffinityShare implements ShareFunction {
  readonly source = 'all';
  readonly weighted = false;

  constructor(private readonly terms: readonly AffinityTerm[]) {}

  contribute(sink: ShareSink, existing: PodInfo, nodeLabels: Labels): void {
    addMatchingAnyTerm(sink, this.terms, existing.pod, undefined, nodeLabels, 1);
  }
}

/** What Filter needs to read the counts by node position: the table and its index of each term's key. */
export interface PositionLookup {
  readonly table: DomainTable;
  readonly affinityKeys: Int32Array;
  readonly antiAffinityKeys: Int32Array;
}

export interface PreFilterCounts {
  /** Pairs → existing pods whose required anti-affinity terms match the incoming pod. */
  readonly existingAntiAffinity: TopologyCounts;
  /** Pairs → existing pods matching all the incoming pod's required affinity terms. */
  readonly affinity: TopologyCounts;
  /** Pairs → existing pods matching the incoming pod's required anti-affinity terms. */
  readonly antiAffinity: TopologyCounts;
  /** Set when the three counts are bound to the domain table (they came from the caches). */
  readonly byPosition: PositionLookup | null;
}

/** Never changed: counts where nothing can match. */
const noCounts = new TopologyCounts();

/** PreFilter's counts kept between attempts, one cache per kind; owned by the plugin instance. */
export class PreFilterCaches {
  private readonly existingAntiAffinity: AggregateCache;
  private readonly affinity: AggregateCache;
  private readonly antiAffinity: AggregateCache;

  constructor(
    private readonly table: DomainTable,
    private readonly vocabulary: TermLabelKeys,
  ) {
    this.existingAntiAffinity = new AggregateCache(table);
    this.affinity = new AggregateCache(table);
    this.antiAffinity = new AggregateCache(table);
  }

  /**
   * The counts for an incoming pod (its namespace's labels and its terms with namespaceSelector
   * unrolled) over the lister's nodes; `allNodes` is PreFilter's node list, normally the lister's.
   * Cached counts are shared and brought up to date in place by the next attempt's PreFilter: the
   * result is valid for this scheduling cycle only (AddPod/RemovePod write to the state's own copy).
   */
  count(
    lister: NodeInfoLister,
    allNodes: readonly NodeInfo[],
    pod: Pod,
    nsLabels: Labels,
    affinityTerms: readonly AffinityTerm[],
    antiAffinityTerms: readonly AffinityTerm[],
  ): PreFilterCounts {
    const table = this.table;
    const tracked = tracksChanges(lister);
    if (tracked) table.sync(lister);

    let existingAntiAffinity = noCounts;
    const withAntiAffinity = lister.havePodsWithRequiredAntiAffinityList();
    if (withAntiAffinity.length > 0) {
      const fn = new ExistingAntiAffinityShare(pod, nsLabels);
      if (tracked) {
        // Synced only when a key is made: it catches up on every change since its last sync.
        this.vocabulary.sync(lister);
        existingAntiAffinity = this.existingAntiAffinity.counts(incomingPodKey(pod, nsLabels, this.vocabulary), fn, lister);
      } else {
        existingAntiAffinity = countOnce(fn, withAntiAffinity);
      }
    }

    // The caches count the lister's nodes; other nodes passed to PreFilter are counted afresh.
    const allTracked = tracked && allNodes === lister.list();
    let affinity = noCounts;
    if (affinityTerms.length > 0) {
      const fn = new AffinityShare(affinityTerms);
      affinity = allTracked ? this.affinity.counts(termsKey(affinityTerms), fn, lister) : countOnce(fn, allNodes);
    }
    let antiAffinity = noCounts;
    if (antiAffinityTerms.length > 0) {
      const fn = new AntiAffinityShare(antiAffinityTerms);
      antiAffinity = allTracked ? this.antiAffinity.counts(termsKey(antiAffinityTerms), fn, lister) : countOnce(fn, allNodes);
    }

    const bound = (c: TopologyCounts) => c === noCounts || c.table === table;
    const byPosition =
      tracked && bound(existingAntiAffinity) && bound(affinity) && bound(antiAffinity)
        ? { table, affinityKeys: tableKeys(table, affinityTerms), antiAffinityKeys: tableKeys(table, antiAffinityTerms) }
        : null;
    return { existingAntiAffinity, affinity, antiAffinity, byPosition };
  }
}

function tableKeys(table: DomainTable, terms: readonly AffinityTerm[]): Int32Array {
  const keys = new Int32Array(terms.length);
  for (let i = 0; i < terms.length; i++) keys[i] = table.keyIndex(terms[i]!.topologyKey);
  return keys;
}
