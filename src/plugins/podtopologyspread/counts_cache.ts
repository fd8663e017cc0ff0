// The plugin's SpreadCounts for recent pods' constraints, keyed by everything the counts depend
// on, over one domain table (whose node positions the per-node columns are read through).
import { Selector } from '../../api/labels.js';
import type { NodeInfoLister } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { CacheKey } from '../../framework/topology/cache_key.js';
import { DomainTable } from '../../framework/topology/domain_table.js';
import { tracksChanges } from '../../framework/topology/change_cursor.js';
import { LruMap } from '../../framework/topology/lru_map.js';
import { type LabelMatcher, SelectorConjunction } from './common.js';
import { type CountingSpec, ownCounted, SpreadCounts } from './counting.js';

/**
 * Adds what makes two matchers match the same pods; false when the matcher is of a kind it
 * cannot describe.
 */
function addMatcher(key: CacheKey, m: LabelMatcher): boolean {
  if (m instanceof Selector) {
    key.selector(m);
    return true;
  }
  if (m instanceof SelectorConjunction) {
    key.str('&').open();
    for (const p of m.parts) if (!addMatcher(key, p)) return false;
    key.close();
    return true;
  }
  return false;
}

/** The cache key of a spec: everything its counts and columns depend on, or null when it cannot be keyed. */
function countingKey(spec: CountingSpec): string | null {
  let affinity = false;
  let taints = false;
  const key = new CacheKey().str(spec.mode).num(spec.requireAllTopologies ? 1 : 0).str(spec.namespace).open();
  for (const c of spec.allConstraints) key.str(c.topologyKey);
  key.close().open();
  for (const c of spec.constraints) {
    key.str(c.topologyKey);
    if (!addMatcher(key, c.selector)) return null;
    key.str(c.nodeAffinityPolicy).str(c.nodeTaintsPolicy);
    if (c.nodeAffinityPolicy === 'Honor') affinity = true;
    if (c.nodeTaintsPolicy === 'Honor') taints = true;
  }
  key.close().open();
  for (const c of ownCounted(spec)) if (!addMatcher(key, c.selector)) return null;
  key.close();
  const podSpec = spec.pod.spec;
  const nodeAffinity = podSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (affinity && (podSpec.nodeSelector !== undefined || nodeAffinity !== undefined)) key.json([podSpec.nodeSelector ?? null, nodeAffinity ?? null]);
  else key.none();
  if (taints && podSpec.tolerations !== undefined) key.json(podSpec.tolerations);
  else key.none();
  return key.text;
}

/**
 * The counts of the last few specs, each synced to the snapshot on use. Least recently used
 * entries go first; a miss costs one full count, as upstream pays on every attempt.
 */
export class SpreadCountsCache {
  private readonly entries: LruMap<SpreadCounts>;
  /** The domain ids and node positions of every kept entry. */
  private readonly table = new DomainTable();

  constructor(capacity: number) {
    this.entries = new LruMap(capacity);
  }

  /**
   * Counts for `spec` over `nodes`. They are kept and synced when `nodes` is the list of a
   * change-tracking lister; otherwise they are counted afresh (without columns).
   */
  countsFor(spec: CountingSpec, nodes: readonly NodeInfo[], lister: NodeInfoLister): SpreadCounts {
    const tracked = tracksChanges(lister) && lister.list() === nodes ? lister : null;
    const key = tracked === null ? null : countingKey(spec);
    if (tracked === null || key === null) {
      // Counted once: its own table, so the shared one holds only values of the tracked list.
      const once = new SpreadCounts(spec);
      once.rebuild(nodes);
      return once;
    }
    let counts = this.entries.get(key);
    if (counts === undefined) this.entries.set(key, (counts = new SpreadCounts(spec, this.table)));
    counts.sync(tracked);
    return counts;
  }
}
