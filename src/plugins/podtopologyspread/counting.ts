// Matching pods per topology domain, kept between scheduling cycles. Upstream's PreFilter and
// PreScore recount every pod of every node for each attempt; here each node's contribution is
// remembered with the NodeInfo generation it was counted at, and only the nodes the snapshot
// reports as changed are recounted. The totals equal a full recount, in the same domain order.
import type { Labels } from '../../api/labels.js';
import type { RequiredNodeAffinity } from '../../api/nodeselector.js';
import type { Node, Pod } from '../../api/types.js';
import { ChangeCursor, type ChangeTrackingLister } from '../../framework/topology/change_cursor.js';
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
 * One constraint's domains, by the ids of the shared DomainTable (framework/topology/): `values`
 * in the order a full walk of the node list first meets them (a recount's Map insertion order,
 * which decides the critical paths' ties), and the matching pods in each. Unlike the table's
 * values, a domain exists here, even at 0 pods, while an eligible node is in it. `totals` (by
 * id) is copied before a change once it has been handed to a cycle state (see share).
 */
export class ConstraintDomains {
  private shared = false;

  constructor(
    /** The table's ids when these counts were made: later values may add ids, never move them. */
    private readonly ids: ReadonlyMap<string, number>,
    /** The domains' values in walk order. */
    readonly values: readonly string[],
    /** Their ids, in the same order. */
    private readonly order: readonly number[],
    /** By id: the domain's place in `values`, or -1 when the id is not a domain here. */
    private readonly slots: Int32Array,
    private totalsArr: Int32Array,
  ) {}

  /** Matching pods by domain id (ids beyond the array, or not domains, are not read). */
  get totals(): Int32Array {
    return this.totalsArr;
  }

  /** The number of domains. */
  get size(): number {
    return this.values.length;
  }

  /** The id of the domain named `value`, or -1 when it is not a domain here. */
  idOf(value: string): number {
    const id = this.ids.get(value);
    return id !== undefined && this.isDomain(id) ? id : -1;
  }

  private isDomain(id: number): boolean {
    return id >= 0 && id < this.slots.length && this.slots[id]! >= 0;
  }

  /** The value of domain `id`. */
  valueOf(id: number): string {
    return this.values[this.slots[id]!]!;
  }

  /** The id of the domain at place `w` of `values`. */
  idAt(w: number): number {
    return this.order[w]!;
  }

  /** The totals for a cycle state to read: later changes go to a copy. */
  share(): Int32Array {
    this.shared = true;
    return this.totalsArr;
  }

  add(id: number, delta: number): void {
    if (this.shared) {
      this.totalsArr = this.totalsArr.slice();
      this.shared = false;
    }
    this.totalsArr[id]! += delta;
  }
}

/** `a` with at least `length` entries, new ones set to `fill`. */
function grown(a: Int32Array, length: number, fill: number): Int32Array {
  if (length <= a.length) return a;
  const out = new Int32Array(Math.max(length, 2 * a.length)).fill(fill);
  out.set(a);
  return out;
}

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

/** The counts of one CountingSpec over one node list. */
export class SpreadCounts {
  tables: ConstraintDomains[] = [];
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
    private readonly table: DomainTable = new DomainTable(),
  ) {
    const own: SpreadConstraint[] = [];
    if (spec.mode === 'score') for (const c of spec.allConstraints) if (c.topologyKey === LabelHostname) own.push(c);
    this.ownCountConstraints = own;
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
    const values: string[][] = [];
    const order: number[][] = [];
    const slots: Int32Array[] = [];
    const totals: Int32Array[] = [];
    const domains: Int32Array[] = [];
    const counts: Int32Array[] = [];
    for (let k = 0; k < constraints.length; k++) {
      keys[k] = table.keyIndex(constraints[k]!.topologyKey);
      values.push([]);
      order.push([]);
      slots.push(new Int32Array(0));
      totals.push(new Int32Array(0));
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
        if (id >= slots[k]!.length) {
          slots[k] = grown(slots[k]!, id + 1, -1);
          totals[k] = grown(totals[k]!, id + 1, 0);
        }
        if (slots[k]![id]! < 0) {
          slots[k]![id] = values[k]!.length;
          values[k]!.push(labelValue(labels, c.topologyKey) ?? '');
          order[k]!.push(id);
        }
        // Default constraints share one selector: count the node's pods once for all of them.
        if (c.selector !== lastSelector) {
          lastSelector = c.selector;
          lastCount = countPodsMatchSelector(nodeInfo.pods, c.selector, spec.namespace);
        }
        domains[k]![j] = id;
        counts[k]![j] = lastCount;
        totals[k]![id]! += lastCount;
      }
    }
    const tables: ConstraintDomains[] = [];
    for (let k = 0; k < constraints.length; k++) tables.push(new ConstraintDomains(table.valueIds(keys[k]!), values[k]!, order[k]!, slots[k]!, totals[k]!));
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
    if (spec.mode === 'score') {
      const masks = new Int32Array(n);
      for (let j = 0; j < n; j++) masks[j] = this.keyMask(nodeRefs[j] ?? null);
      this.keyMasks = masks;
      for (const c of this.ownCountConstraints) {
        const col = new Int32Array(n);
        for (let j = 0; j < n; j++) col[j] = countPodsMatchSelector(nodes[j]!.pods, c.selector, spec.namespace);
        this.ownCounts.push(col);
      }
    }
  }

  /**
   * Brings the counts up to date with the list of `lister` (whose change log says which
   * NodeInfos changed in place), indexed by `index`. Returns true when that took a count from
   * scratch.
   */
  sync(lister: ChangeTrackingLister, index: NodeIndex): boolean {
    const nodes = index.nodes;
    this.table.sync(lister);
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
