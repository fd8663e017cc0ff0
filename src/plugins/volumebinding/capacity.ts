// Storage capacity tracking for dynamic provisioning: hasEnoughCapacity, capacitySufficient,
// volumeLimit and nodeHasAccess of pkg/scheduler/framework/plugins/volumebinding/binder.go.
import { Selector } from '../../api/labels.js';
import { parseQuantity } from '../../api/quantity.js';
import type { CSIDriver, CSIStorageCapacity, Node, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import type { Handle } from '../../framework/interfaces.js';

/** What one CSIStorageCapacity offers, read once per object (objects are replaced on change). */
interface ParsedCapacity {
  /** volumeLimit in bytes: maximumVolumeSize when set, else capacity; null when neither is. */
  limit: bigint | null;
  /** The nodes with access: none without nodeTopology or with a selector that does not compile. */
  nodeTopology: Selector;
}

/** The CSIDriver and CSIStorageCapacity listers of upstream's CapacityCheck, with parsed objects cached. */
export class CapacityCheck {
  private readonly parsed = new WeakMap<CSIStorageCapacity, ParsedCapacity>();

  constructor(private readonly handle: Handle) {}

  /**
   * hasEnoughCapacity: whether some capacity of the class, reachable from the node, can hold a new
   * volume of the claim's size, and the first such capacity (null when capacity is not checked).
   * Only drivers that opt in (CSIDriver spec.storageCapacity) are checked.
   */
  hasEnoughCapacity(provisioner: string, claim: PersistentVolumeClaim, storageClass: StorageClass, node: Node): CSIStorageCapacity | null | false {
    const request = claim.spec?.resources?.requests?.['storage'];
    // No size to check for.
    if (request === undefined) return null;
    // Not a CSI driver, or one that does not opt in: either way capacity is not checked.
    const driver = this.handle.objects().get<CSIDriver>('CSIDriver', '', provisioner);
    if (driver?.spec?.storageCapacity !== true) return null;
    const sizeInBytes = parseQuantity(request).scaledValue(0);
    const className = storageClass.metadata?.name ?? '';
    const labels = node.metadata.labels ?? {};
    for (const capacity of this.handle.objects().list<CSIStorageCapacity>('CSIStorageCapacity')) {
      if (capacity.storageClassName !== className) continue;
      const p = this.parse(capacity);
      if (p.limit !== null && p.limit >= sizeInBytes && p.nodeTopology.matches(labels)) return capacity;
    }
    return false;
  }

  private parse(capacity: CSIStorageCapacity): ParsedCapacity {
    let p = this.parsed.get(capacity);
    if (p === undefined) {
      p = { limit: volumeLimit(capacity), nodeTopology: nodeTopologySelector(capacity) };
      this.parsed.set(capacity, p);
    }
    return p;
  }
}

/** volumeLimit, as bytes: maximumVolumeSize is preferred, being more precise than capacity. */
function volumeLimit(capacity: CSIStorageCapacity): bigint | null {
  const limit = capacity.maximumVolumeSize ?? capacity.capacity;
  if (limit === undefined || limit === null) return null;
  try {
    return parseQuantity(limit).scaledValue(0);
  } catch {
    // The API server rejects such objects; one that gets through offers nothing.
    return null;
  }
}

/** nodeHasAccess's selector: a nil nodeTopology means unavailable; only label matching is supported. */
function nodeTopologySelector(capacity: CSIStorageCapacity): Selector {
  if (!capacity.nodeTopology) return Selector.nothing;
  try {
    return Selector.compile(capacity.nodeTopology);
  } catch {
    return Selector.nothing;
  }
}
