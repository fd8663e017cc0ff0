// Matching pods per topology domain, kept between scheduling cycles. Upstream's PreFilter and
// PreScore recount every pod of every node for each attempt; here each node's contribution is
// remembered with the NodeInfo generation it was counted at, and only the nodes the snapshot
// reports as changed are recounted. The totals equal a full recount, in the same domain order.
import type { Labels } from '../../api/labels.js';
import type { RequiredNodeAffinity } from '../../api/nodeselector.js';
import type { Node, Pod } from '../../api/types.js';
import { ChangeCursor, type ChangeTrackingLister } from '../../framework/topology/change_cursor.js';
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

/** Label column values besides domain ids. */
const NotADomain = -1;
export const MissingKey = -2;

/** Masks of carried keys exist for up to this many constraints (positive int32 bits). */
const maxMaskedConstraints = 30;

/**
 * One constraint's domains: ids in the order a full walk of the node list first meets them (a
 * recount's Map insertion order), and the matching pods in each. Not the engine's DomainTable
 * (framework/topology/): a domain here exists while an eligible node is in it, and its id order
 * decides the critical paths' ties. `totals` is copied before a
 * change once it has been handed to a cycle state (see share).
 */
export class ConstraintDomains {
  private shared = false;

  constructor(
    readonly ids: ReadonlyMap<string, number>,
    readonly values: readonly string[],
    private totalsArr: Int32Array,
  ) {}

  get totals(): Int32Array {
    return this.totalsArr;
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
  /** Per counted constraint: the id of the domain the node's label names, NotADomain or MissingKey. */
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

  constructor(readonly spec: CountingSpec) {
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
    const ids: Map<string, number>[] = [];
    const values: string[][] = [];
    const totals: number[][] = [];
    const domains: Int32Array[] = [];
    const counts: Int32Array[] = [];
    for (let k = 0; k < constraints.length; k++) {
      ids.push(new Map());
      values.push([]);
      totals.push([]);
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
        const value = labelValue(labels, c.topologyKey) ?? '';
        const m = ids[k]!;
        let id = m.get(value);
        if (id === undefined) {
          id = m.size;
          m.set(value, id);
          values[k]!.push(value);
          totals[k]!.push(0);
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
    for (let k = 0; k < constraints.length; k++) tables.push(new ConstraintDomains(ids[k]!, values[k]!, Int32Array.from(totals[k]!)));
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
    let changed = this.changes.advance(lister);
    if (this.nodes !== nodes) changed = null;
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
          id = this.tables[k]!.ids.get(labelValue(node.metadata.labels, c.topologyKey) ?? '') ?? -2;
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
    const ids = this.tables[k]!.ids;
    const value = labelValue(labels, key);
    if (this.spec.mode === 'score') return ids.get(value ?? '') ?? NotADomain;
    return value === undefined ? MissingKey : (ids.get(value) ?? NotADomain);
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
