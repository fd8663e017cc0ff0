// The PV and PVC assume caches of VolumeBinding (volumebinding/assume_cache.go): the framework's
// AssumeCache over PersistentVolumes, with the storage-class lookup, and over PersistentVolumeClaims.
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/types.js';
import { AssumeCache } from '../../framework/assume_cache.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import { getPersistentVolumeClass } from './pv_helpers.js';

export class PVAssumeCache extends AssumeCache<PersistentVolume> {
  constructor(lister: ObjectLister) {
    super(lister, 'PersistentVolume');
  }

  /** The latest volumes of a storage class (the class index of upstream's PV cache). */
  listPVs(storageClassName: string): PersistentVolume[] {
    const out: PersistentVolume[] = [];
    for (const pv of this.list()) if (getPersistentVolumeClass(pv) === storageClassName) out.push(pv);
    return out;
  }
}

export type PVCAssumeCache = AssumeCache<PersistentVolumeClaim>;

export function newPVCAssumeCache(lister: ObjectLister): PVCAssumeCache {
  return new AssumeCache<PersistentVolumeClaim>(lister, 'PersistentVolumeClaim');
}
