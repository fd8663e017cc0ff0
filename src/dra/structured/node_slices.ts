// The slices each node sees and the pools gathered from them, kept per slice list and node
// object: the plugin hands every allocator (one per pod) the same list until a slice changes and
// the snapshot the same node object until the node changes, so grouping 5000 slices per pod and
// gathering pools per node and pod (Allocator, Allocate and GatherPools upstream) happen once.
import type { Node } from '../../api/types.js';
import type { ResourceSlice } from '../../api/dra_types.js';
import { gatherPools, type Pool } from './pools.js';
import type { Features } from './types.js';

/** A slice list grouped by the node its slices name; slices without a node name go to every node. */
export class NodeSlices {
  private readonly local = new Map<string, ResourceSlice[]>();
  private readonly shared: ResourceSlice[] = [];
  /** Local and shared slices together, per node name, made on first need. */
  private readonly combined = new Map<string, readonly ResourceSlice[]>();

  constructor(readonly all: readonly ResourceSlice[]) {
    for (const slice of all) {
      const nodeName = slice.spec.nodeName;
      if (!nodeName) {
        this.shared.push(slice);
        continue;
      }
      let list = this.local.get(nodeName);
      if (!list) this.local.set(nodeName, (list = []));
      list.push(slice);
    }
  }

  /** The slices node `nodeName` may see, local ones first (one array per node, not to be changed). */
  forNode(nodeName: string): readonly ResourceSlice[] {
    const local = this.local.get(nodeName);
    if (local === undefined) return this.shared;
    if (this.shared.length === 0) return local;
    let both = this.combined.get(nodeName);
    if (both === undefined) this.combined.set(nodeName, (both = local.concat(this.shared)));
    return both;
  }
}

const grouped = new WeakMap<readonly ResourceSlice[], NodeSlices>();

/** The grouping of a slice list, made once per list object (the list must not change). */
export function nodeSlicesOf(slices: readonly ResourceSlice[]): NodeSlices {
  let g = grouped.get(slices);
  if (g === undefined) grouped.set(slices, (g = new NodeSlices(slices)));
  return g;
}

interface GatheredPools {
  readonly slices: NodeSlices;
  readonly features: Features;
  readonly pools: readonly Pool[];
}

/** Per node object: the pools gathered last, with what they were gathered from (errors are never kept). */
const gathered = new WeakMap<Node, GatheredPools>();

/**
 * GatherPools for the node's slices of `slices`, kept while the slice list, the node object and
 * the feature set stay the same. The pools are shared: callers must not change them.
 */
export function poolsForNode(slices: NodeSlices, node: Node, features: Features): readonly Pool[] {
  const kept = gathered.get(node);
  if (kept !== undefined && kept.slices === slices && kept.features === features) return kept.pools;
  const pools = gatherPools(slices.forNode(node.metadata.name ?? ''), node, features, slices.all);
  gathered.set(node, { slices, features, pools });
  return pools;
}
