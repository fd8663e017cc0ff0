// Matching pods per topology domain, kept between scheduling cycles. Upstream's PreFilter and
// PreScore recount every pod of every node for each attempt; here each node's contribution is
// remembered with the NodeInfo generation it was counted at, and only the nodes the snapshot
// reports as changed are recounted. The totals equal a full recount, in the same domain order.
import type { Labels } from '../../api/labels.js';
import type { RequiredNodeAffinity } from '../../api/nodeselector.js';
import type { Node, Pod } from '../../api/types.js';
import { ChangeCursor, type ChangeTrackingLister } from '../../framework/topology/change_cursor.js';
import { DomainCounts } from '../../framework/topology/domain_counts.js';
import { DomainTable } from '../../framework/topology/domain_table.js';
import { labelValue } from '../../framework/topology/label_value.js';
import type { NodeIndex } from '../../framework/topology/node_index.js';
import type { NodeInfo } from '../../framework/node_info.js';
import {
  countPodsMatchSelector,
  LabelHostname,
  type LabelMatcher,
  matchNodeInclusionPolicies,
  nodeLabelsMatchSpreadConstraints,
  type SpreadConstraint,
} from './common.js';

/**
 * filter: a node's domain is labels[key], a missing key is recorded as MissingKey.
 * score: a missing key reads as "" (Go map semantics); each node also records which keys it
 * carries and, for hostname constraints (scored per node), its own matching pods.
 */
type CountingMode = 'filter' | 'score';

/** What the per-domain counts of one pod depend on. */
export interface CountingSpec {
  readonly mode: CountingMode;
  /** The constraints whose domains are counted. */
  readonly constraints: readonly SpreadConstraint[];
  /** All the pod's constraints of this kind (whenUnsatisfiable); `constraints` is a subset. */
  readonly allConstraints: readonly SpreadConstraint[];
  /** A node counts only when it carries the topology key of each of allConstraints. */
  readonly requireAllTopologies: boolean;
  /** The incoming pod: its tolerations matter where a constraint honours taints. */
  readonly pod: Pod;
  readonly namespace: string;
  readonly required: RequiredNodeAffinity;
}

/** A label column value besides domain ids and -1 (not a domain of the constraint). */
export const MissingKey = -2;

/** Masks of carried keys exist for up to this many constraints (positive int32 bits). */
const maxMaskedConstraints = 30;

/**
 * Per node (by position in `nodes`), what the plugin reads in Filter and PreScore without
 * walking into the node's labels: hot loops over thousands of nodes otherwise wait on memory.
 * A node whose Node object is not `nodeRefs[j]` is not described: read its labels.
 */
export interface NodeColumns {
  /** The node list the columns are by position in. */
  readonly index: NodeIndex;
  /** Updated in place only when the other columns stay right for the new Node object. */
  readonly nodeRefs: readonly (Node | null)[];
  /** Per counted constraint: the id of the domain the node's label names, -1 (not a domain) or MissingKey. */
  readonly labelDomains: readonly Int32Array[];
  /** score mode: bit i set when the node carries allConstraints[i]'s key. */
  readonly keyMasks: Int32Array | null;
  /** score mode, per hostname constraint (in allConstraints order): the node's matching pods. */
  readonly ownCounts: readonly Int32Array[];
}

/** The constraints whose matching pods score mode keeps per node: the hostname ones. */
export function ownCounted(spec: CountingSpec): SpreadConstraint[] {
  return spec.mode === 'score' ? spec.allConstraints.filter((c) => c.topologyKey === LabelHostname) : [];
}

/** The counts of one CountingSpec over one node list. */
export class SpreadCounts {
  tables: DomainCounts[] = [];
  /** Set once synced to a tracked node list; null for a count made afresh. */
  columns: NodeColumns | null = null;
  /** The hostname constraints among allConstraints (score mode). */
  readonly ownCountConstraints: readonly SpreadConstraint[];
  private domains: Int32Array[] = [];
  private counts: Int32Array[] = [];
  private labelDomains: Int32Array[] = [];
  private keyMasks: Int32Array | null = null;
  private ownCounts: Int32Array[] = [];
  private generations = new Float64Array(0);
  private nodeRefs: (Node | null)[] = [];
  private nodes: readonly NodeInfo[] = [];
  private readonly changes = new ChangeCursor();
  private tableVersion = -1;

  /** `table` gives the domain ids; entries of one plugin share one, synced to the same lister. */
  constructor(
    readonly spec: CountingSpec,
    readonly table: DomainTable = new DomainTable(),
  ) {
    this.ownCountConstraints = ownCounted(spec);
  }

  /** Whether per-node columns can be kept (see NodeColumns). */
  private get columnsPossible(): boolean {
    return this.spec.mode === 'filter' || this.spec.allConstraints.length <= maxMaskedConstraints;
  }

  /** Counts every node of `nodes` from scratch; `withColumns` also fills the per-node columns. */
  rebuild(nodes: readonly NodeInfo[], withColumns = false): void {
    const spec = this.spec;
    const constraints = spec.constraints;
    const n = nodes.length;
    const table = this.table;
    // The table's columns spare reading each node's labels when they are by position in `nodes`.
    const direct = table.covers(nodes);
    const blank = spec.mode === 'score';
    const keys = new Int32Array(constraints.length);
    const tables: DomainCounts[] = [];
    const domains: Int32Array[] = [];
    const counts: Int32Array[] = [];
    for (let k = 0; k < constraints.length; k++) {
      keys[k] = table.keyIndex(constraints[k]!.topologyKey);
      tables.push(new DomainCounts(table.valueIds(keys[k]!)));
      domains.push(new Int32Array(n).fill(-1));
      counts.push(new Int32Array(n));
    }
    const generations = new Float64Array(n);
    const nodeRefs = new Array<Node | null>(n);
    for (let j = 0; j < n; j++) {
      const nodeInfo = nodes[j]!;
      generations[j] = nodeInfo.generation;
      const node = nodeInfo.node;
      nodeRefs[j] = node;
      if (node === null || !this.nodeCounts(node.metadata.labels)) continue;
      const labels = node.metadata.labels;
      let lastSelector: LabelMatcher | null = null;
      let lastCount = 0;
      for (let k = 0; k < constraints.length; k++) {
        const c = constraints[k]!;
        if (!matchNodeInclusionPolicies(c, spec.pod, node, spec.required)) continue;
        const key = keys[k]!;
        // Filter mode counts only nodes carrying every key, so "" stands for a missing one in score mode only.
        const id = direct ? (blank ? table.domainOrBlank(key, j) : table.domain(key, j)) : table.valueId(key, labelValue(labels, c.topologyKey) ?? '');
        const domainCounts = tables[k]!;
        // Registered in walk order: the order a recount first meets the domains.
        if (!domainCounts.has(id)) domainCounts.register(id, labelValue(labels, c.topologyKey) ?? '');
        // Default constraints share one selector: count the node's pods once for all of them.
        if (c.selector !== lastSelector) {
          lastSelector = c.selector;
          lastCount = countPodsMatchSelector(nodeInfo.pods, c.selector, spec.namespace);
        }
        domains[k]![j] = id;
        counts[k]![j] = lastCount;
        if (lastCount !== 0) domainCounts.add(id, lastCount);
      }
    }
    this.tableVersion = table.version;
    this.tables = tables;
    this.domains = domains;
    this.counts = counts;
    this.generations = generations;
    this.nodeRefs = nodeRefs;
    this.nodes = nodes;
    this.columns = null;
    this.labelDomains = [];
    this.keyMasks = null;
    this.ownCounts = [];
    if (!withColumns || !this.columnsPossible) return;
    for (let k = 0; k < constraints.length; k++) {
      const col = new Int32Array(n);
      for (let j = 0; j < n; j++) col[j] = this.labelDomain(nodeRefs[j] ?? null, k);
      this.labelDomains.push(col);
    }
    if (spec.mode === 'score') this.buildScoreColumns(nodes, nodeRefs);
  }

  /**
   * The key masks and own-count columns of a scoring spec. Kept out of rebuild: the own counts
   * (hostname constraints) first run in whichever workload brings them, and as a loop inside
   * rebuild that first run deoptimised rebuild's compiled code in that workload's measured op.
   */
  private buildScoreColumns(nodes: readonly NodeInfo[], nodeRefs: readonly (Node | null)[]): void {
    const n = nodes.length;
    const masks = new Int32Array(n);
    for (let j = 0; j < n; j++) masks[j] = this.keyMask(nodeRefs[j] ?? null);
    this.keyMasks = masks;
    const own = this.ownCountConstraints;
    for (let h = 0; h < own.length; h++) {
      const c = own[h]!;
      const col = new Int32Array(n);
      for (let j = 0; j < n; j++) col[j] = countPodsMatchSelector(nodes[j]!.pods, c.selector, this.spec.namespace);
      this.ownCounts.push(col);
    }
  }

  /**
   * Brings the counts up to date with the list of `lister` (whose change log says which
   * NodeInfos changed in place). Returns true when that took a count from scratch.
   */
  sync(lister: ChangeTrackingLister): boolean {
    this.table.sync(lister);
    // The table's positions are those of the lister's list: the columns are read through them.
    const index = this.table.nodeIndex;
    const nodes = index.nodes;
    let changed = this.changes.advance(lister);
    // New ids for the values (the table compacted them): the counts by id are void.
    if (this.nodes !== nodes || this.tableVersion !== this.table.version) changed = null;
    let rebuilt = changed === null;
    if (changed !== null) {
      for (let i = 0; i < changed.length; i++) {
        const nodeInfo = changed[i]!;
        const j = index.position(nodeInfo);
        if (j < 0 || !this.update(j, nodeInfo)) {
          rebuilt = true;
          break;
        }
      }
    }
    if (rebuilt) this.rebuild(nodes, true);
    if (this.columns === null && this.columnsPossible) {
      this.columns = {
        index,
        nodeRefs: this.nodeRefs,
        labelDomains: this.labelDomains,
        keyMasks: this.keyMasks,
        ownCounts: this.ownCounts,
      };
    }
    return rebuilt;
  }

  /**
   * Recounts node `j`. Returns false when the node now counts in another domain or no longer
   * (or newly) counts at all, or its columns change: that can change the domain order, or
   * invalidate columns handed out, so the caller rebuilds.
   */
  private update(j: number, nodeInfo: NodeInfo): boolean {
    if (this.generations[j] === nodeInfo.generation) return true;
    const spec = this.spec;
    const constraints = spec.constraints;
    const node = nodeInfo.node;
    if (node !== this.nodeRefs[j]) {
      // A new Node object: labels or taints may have moved the node between domains.
      const counts = node !== null && this.nodeCounts(node.metadata.labels);
      for (let k = 0; k < constraints.length; k++) {
        const c = constraints[k]!;
        let id = -1;
        if (counts && matchNodeInclusionPolicies(c, spec.pod, node, spec.required)) {
          id = this.tables[k]!.idOf(labelValue(node.metadata.labels, c.topologyKey) ?? '');
          if (id < 0) id = -2;
        }
        if (id !== this.domains[k]![j]) return false;
        if (this.labelDomains.length > 0 && this.labelDomain(node, k) !== this.labelDomains[k]![j]) return false;
      }
      if (this.keyMasks !== null && this.keyMask(node) !== this.keyMasks[j]) return false;
      // In place: the columns handed out describe the new Node object just as well.
      this.nodeRefs[j] = node;
    }
    let lastSelector: LabelMatcher | null = null;
    let lastCount = 0;
    for (let k = 0; k < constraints.length; k++) {
      const id = this.domains[k]![j]!;
      if (id < 0) continue;
      const c = constraints[k]!;
      if (c.selector !== lastSelector) {
        lastSelector = c.selector;
        lastCount = countPodsMatchSelector(nodeInfo.pods, c.selector, spec.namespace);
      }
      const delta = lastCount - this.counts[k]![j]!;
      if (delta === 0) continue;
      this.counts[k]![j] = lastCount;
      this.tables[k]!.add(id, delta);
    }
    for (let h = 0; h < this.ownCounts.length; h++) {
      const c = this.ownCountConstraints[h]!;
      if (c.selector !== lastSelector) {
        lastSelector = c.selector;
        lastCount = countPodsMatchSelector(nodeInfo.pods, c.selector, spec.namespace);
      }
      this.ownCounts[h]![j] = lastCount;
    }
    this.generations[j] = nodeInfo.generation;
    return true;
  }

  /** Whether a node with these labels counts at all (it must carry every key when that is required). */
  private nodeCounts(labels: Labels): boolean {
    return !this.spec.requireAllTopologies || nodeLabelsMatchSpreadConstraints(labels, this.spec.allConstraints);
  }

  /** The label column value of `node` for counted constraint `k`. */
  private labelDomain(node: Node | null, k: number): number {
    const labels = node === null ? undefined : node.metadata.labels;
    const key = this.spec.constraints[k]!.topologyKey;
    const domains = this.tables[k]!;
    const value = labelValue(labels, key);
    if (this.spec.mode === 'score') return domains.idOf(value ?? '');
    return value === undefined ? MissingKey : domains.idOf(value);
  }

  /** Bit i set when `node` carries allConstraints[i]'s key. */
  private keyMask(node: Node | null): number {
    const labels = node === null ? undefined : node.metadata.labels;
    if (labels === undefined) return 0;
    const all = this.spec.allConstraints;
    let mask = 0;
    for (let i = 0; i < all.length; i++) if (Object.prototype.hasOwnProperty.call(labels, all[i]!.topologyKey)) mask |= 1 << i;
    return mask;
  }
}
