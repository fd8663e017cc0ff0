// Which DeviceClass backs an extended resource (k8s.io/dynamic-resource-allocation
// deviceclass/extendedresourcecache/extendedresourcecache.go, the scheduler's DeviceClassResolver).
import type { DeviceClass } from '../api/dra_types.js';
import { isExtendedResourceName } from '../api/resource_requests.js';
import type { ObjectLister } from '../framework/interfaces.js';

/** Every class stands for `deviceclass.resource.kubernetes.io/<class name>` (resourceapi.ResourceDeviceClassPrefix). */
export const ResourceDeviceClassPrefix = 'deviceclass.resource.kubernetes.io/';

/** Marks the claim the scheduler makes for a pod's DRA-backed extended resources (resourceapi.ExtendedResourceClaimAnnotation). */
export const ExtendedResourceClaimAnnotation = 'resource.kubernetes.io/extended-resource-claim';

/** A name a DeviceClass may stand for: an extended resource or the implicit class name (IsDRAExtendedResourceName). */
export function isDRAExtendedResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith(ResourceDeviceClassPrefix);
}

const creationTime = (c: DeviceClass): number => {
  const t = c.metadata.creationTimestamp;
  return t ? Date.parse(t) : 0;
};

/**
 * Resource name to DeviceClass, rebuilt when a class changes. The classes are applied one by one
 * in the lister's order, as the informer's add events reach upstream's cache: for an explicit
 * name the newer class (then the smaller name) wins, and a class that loses that way is left
 * out entirely, its implicit name included, as upstream's cache returns early for it.
 */
export class DeviceClassResolver {
  private byResource: Map<string, DeviceClass> | null = null;
  private readonly watched: boolean;

  constructor(private readonly lister: ObjectLister) {
    this.watched = lister.onChange !== undefined;
    lister.onChange?.((kind) => {
      if (kind === 'DeviceClass') this.byResource = null;
    });
  }

  /** The class backing `resourceName`, if any. */
  getDeviceClass(resourceName: string): DeviceClass | undefined {
    return this.mapping().get(resourceName);
  }

  /** Whether any class exists at all: without one no resource is backed by devices. */
  get empty(): boolean {
    return this.mapping().size === 0;
  }

  private mapping(): Map<string, DeviceClass> {
    if (this.byResource !== null && this.watched) return this.byResource;
    const m = new Map<string, DeviceClass>();
    for (const c of this.lister.list<DeviceClass>('DeviceClass')) {
      const explicit = c.spec.extendedResourceName;
      const holder = explicit !== undefined ? m.get(explicit) : undefined;
      if (holder !== undefined) {
        const newer = creationTime(c) - creationTime(holder);
        if (newer < 0 || (newer === 0 && (c.metadata.name ?? '') >= (holder.metadata.name ?? ''))) continue;
      }
      if (explicit !== undefined) m.set(explicit, c);
      m.set(ResourceDeviceClassPrefix + (c.metadata.name ?? ''), c);
    }
    this.byResource = m;
    return m;
  }
}
