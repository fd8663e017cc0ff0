// The scheduler's one view of DRA objects that plugins share (framework.SharedDRAManager,
// dra_manager.go NewDRAManager): DynamicResources allocates through it, NodeResourcesFit and
// NodeResourcesBalancedAllocation read it to score extended resources backed by devices.
import type { ObjectLister } from '../../framework/interfaces.js';
import { DeviceClassResolver } from '../../dra/device_class_resolver.js';
import { ClaimTracker, DeviceClassLister, SliceLister } from './dra_manager.js';
import type { DraFeatures } from './features.js';

export interface SharedDraManager {
  readonly claims: ClaimTracker;
  readonly slices: SliceLister;
  readonly classes: DeviceClassLister;
  /** Which DeviceClass backs an extended resource; null with DRAExtendedResource off. */
  readonly classResolver: DeviceClassResolver | null;
}

/** One manager per object lister (one per scheduler, as upstream's handle holds one). */
const managers = new WeakMap<ObjectLister, SharedDraManager>();

/** The manager of the scheduler whose objects `objects` lists; the first caller's features shape it. */
export function sharedDraManager(objects: ObjectLister, features: DraFeatures): SharedDraManager {
  let m = managers.get(objects);
  if (m === undefined) {
    m = {
      claims: new ClaimTracker(objects, features.enableDRAConsumableCapacity),
      slices: new SliceLister(objects, features.enableDRADeviceTaintRules),
      classes: new DeviceClassLister(objects),
      classResolver: features.enableDRAExtendedResource ? new DeviceClassResolver(objects) : null,
    };
    managers.set(objects, m);
  }
  return m;
}
