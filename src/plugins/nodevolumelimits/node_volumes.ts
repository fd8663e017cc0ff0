// The volumes the pods on a node hold, per CSI driver, cached between Filter calls. Upstream's
// csi.go resolves every existing pod's volumes on every Filter call; this cache gives the same
// counts: an entry is rebuilt when the node's pods change (NodeInfo.generation) or when an object
// it read (CSINode, PVC, PV, StorageClass) is no longer the one the lister returns.
import type { CSINode } from '../../api/types.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { ObjectReads, PodVolumes, type VolumeLookupError, type VolumeResolver } from './resolve.js';

/** The kinds a node's cached volumes are resolved through. */
const readKinds = new Set(['CSINode', 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'VolumeAttachment']);

/**
 * Counts the lister's changes. With a lister that does not report them, `observed` is false and
 * every cached result is checked against the lister before use.
 */
export class ObjectChanges {
  count = 0;
  readonly observed: boolean;

  constructor(objects: ObjectLister) {
    this.observed = objects.onChange !== undefined;
    objects.onChange?.((kind) => {
      if (readKinds.has(kind)) this.count++;
    });
  }

  /** True when nothing changed since `count` was read. */
  unchangedSince(count: number): boolean {
    return this.observed && count === this.count;
  }
}

/** The count limit per CSI driver on the node (drivers without a count have no limit). */
function getVolumeLimits(csiNode: CSINode | null): Map<string, number> {
  const limits = new Map<string, number>();
  for (const d of csiNode?.spec.drivers ?? []) {
    const count = d.allocatable?.count;
    if (count !== undefined && count !== null) limits.set(d.name, count);
  }
  return limits;
}

/** What Filter needs of one node, resolved for one generation of its pods. */
export class NodeVolumes {
  /** The lister's change count when the entry was last known current. */
  checkedAt: number;

  constructor(
    readonly generation: number,
    readonly csiNode: CSINode | null,
    readonly limits: ReadonlyMap<string, number>,
    /** Unique volume name to driver, of the volumes the node's pods use. */
    readonly attached: ReadonlyMap<string, string>,
    /** `attached` counted per driver. */
    readonly attachedCount: ReadonlyMap<string, number>,
    /** The first lookup error of a pod on the node: Filter fails with it when it counts. */
    readonly error: VolumeLookupError | null,
    readonly reads: ObjectReads,
    checkedAt: number,
  ) {
    this.checkedAt = checkedAt;
  }
}

/**
 * NodeVolumes by NodeInfo. A WeakMap: entries live only as long as their NodeInfo (the snapshot's,
 * or a preemption dry run's copy), so the cache needs no eviction.
 */
export class NodeVolumesCache {
  private readonly byNode = new WeakMap<NodeInfo, NodeVolumes>();

  constructor(
    private readonly objects: ObjectLister,
    private readonly resolver: VolumeResolver,
    private readonly changes: ObjectChanges,
  ) {}

  get(nodeInfo: NodeInfo): NodeVolumes {
    const cached = this.byNode.get(nodeInfo);
    if (cached !== undefined && cached.generation === nodeInfo.generation) {
      if (this.changes.unchangedSince(cached.checkedAt)) return cached;
      if (this.csiNode(nodeInfo) === cached.csiNode && cached.reads.unchanged(this.objects)) {
        cached.checkedAt = this.changes.count;
        return cached;
      }
    }
    const built = this.build(nodeInfo);
    this.byNode.set(nodeInfo, built);
    return built;
  }

  private csiNode(nodeInfo: NodeInfo): CSINode | null {
    // A node without a CSINode has no limits, but its in-tree volumes are not migrated either.
    return this.objects.get<CSINode>('CSINode', '', nodeInfo.name) ?? null;
  }

  private build(nodeInfo: NodeInfo): NodeVolumes {
    const checkedAt = this.changes.count;
    const csiNode = this.csiNode(nodeInfo);
    const reads = new ObjectReads();
    const volumes = new PodVolumes();
    for (const existing of nodeInfo.pods) this.resolver.resolve(existing.pod, false, volumes, reads);

    const attached = new Map<string, string>();
    let error: VolumeLookupError | null = null;
    for (let i = 0; i < volumes.length; i++) {
      if (!volumes.countsOn(i, csiNode)) continue;
      error = volumes.errors[i] ?? null;
      if (error) break;
      attached.set(volumes.uniqueNames[i]!, volumes.drivers[i]!);
    }
    const attachedCount = new Map<string, number>();
    for (const driver of attached.values()) attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
    return new NodeVolumes(nodeInfo.generation, csiNode, getVolumeLimits(csiNode), attached, attachedCount, error, reads, checkedAt);
  }
}
