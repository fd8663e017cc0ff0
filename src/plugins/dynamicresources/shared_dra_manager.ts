// Builds the scheduler's one view of DRA objects (dra_manager.go NewDRAManager): the scheduler makes
// one and hands it to every plugin through Handle.sharedDRAManager(); DynamicResources allocates
// through it, NodeResourcesFit and NodeResourcesBalancedAllocation read it.
import type { ObjectLister } from '../../framework/interfaces.js';
import type { SharedDRAManager } from '../../framework/shared_dra_manager.js';
import { DeviceClassResolver } from '../../dra/device_class_resolver.js';
import { ClaimTracker, DeviceClassLister, SliceLister } from './dra_manager.js';
import type { DraFeatures } from './features.js';

/** The gates that shape the manager. */
export type DraManagerFeatures = Pick<DraFeatures, 'enableDRAConsumableCapacity' | 'enableDRADeviceTaintRules' | 'enableDRAExtendedResource'>;

/** A manager over the scheduler's object lister, shaped by its feature gates. */
export function newSharedDRAManager(objects: ObjectLister, features: DraManagerFeatures): SharedDRAManager {
  return {
    claims: new ClaimTracker(objects, features.enableDRAConsumableCapacity),
    slices: new SliceLister(objects, features.enableDRADeviceTaintRules),
    classes: new DeviceClassLister(objects),
    classResolver: features.enableDRAExtendedResource ? new DeviceClassResolver(objects) : null,
  };
}
