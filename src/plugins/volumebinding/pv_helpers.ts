// PV/PVC helpers the binder shares with the PV controller (component-helpers/storage/volume
// helpers.go and pv_helpers.go, core/v1/helper MatchTopologySelectorTerms).
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import { AnnBoundByController, getPersistentVolumeClaimClass, isVolumeBoundToClaim } from '../../api/volumes.js';

export {
  AnnBindCompleted,
  AnnSelectedNode,
  checkNodeAffinity,
  claimRequestNanos,
  findMatchingVolume,
  getPersistentVolumeClaimClass,
  getPersistentVolumeClass,
  NotSupportedProvisioner,
} from '../../api/volumes.js';
const VolumeBindingWaitForFirstConsumer = 'WaitForFirstConsumer';

/**
 * Whether the claim waits for its first consumer (IsDelayBindingMode): false without a class or
 * when the class does not exist; an error when the class has no binding mode.
 */
export function isDelayBindingMode(claim: PersistentVolumeClaim, getClass: (name: string) => StorageClass | undefined): boolean {
  const className = getPersistentVolumeClaimClass(claim);
  if (className === '') return false;
  const sc = getClass(className);
  if (sc === undefined) return false;
  if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) {
    throw new Error(`VolumeBindingMode not set for StorageClass "${className}"`);
  }
  return sc.volumeBindingMode === VolumeBindingWaitForFirstConsumer;
}

/**
 * A copy of the volume bound to the claim (GetBindVolumeToClaim), and whether anything changed:
 * claimRef set to the claim, bound-by-controller annotated unless the user pre-bound it.
 */
export function getBindVolumeToClaim(pv: PersistentVolume, claim: PersistentVolumeClaim): { pv: PersistentVolume; dirty: boolean } {
  const setBoundByController = !isVolumeBoundToClaim(pv, claim);
  const clone = structuredClone(pv);
  clone.spec ??= {};
  let dirty = false;
  const ref = pv.spec?.claimRef;
  const meta = claim.metadata ?? {};
  if (!ref || ref.name !== meta.name || ref.namespace !== meta.namespace || ref.uid !== meta.uid) {
    clone.spec.claimRef = {
      kind: 'PersistentVolumeClaim',
      apiVersion: 'v1',
      namespace: meta.namespace,
      name: meta.name,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
    };
    dirty = true;
  }
  if (setBoundByController && !Object.prototype.hasOwnProperty.call(clone.metadata?.annotations ?? {}, AnnBoundByController)) {
    clone.metadata = { ...clone.metadata, annotations: { ...clone.metadata?.annotations, [AnnBoundByController]: 'yes' } };
    dirty = true;
  }
  return { pv: clone, dirty };
}

/**
 * MatchTopologySelectorTerms: no terms match every node; a term matches when each of its
 * expressions finds the label with one of its values (a term without expressions matches nothing).
 */
export function matchTopologySelectorTerms(terms: StorageClass['allowedTopologies'], labels: Readonly<Record<string, string>> | undefined): boolean {
  if (!terms || terms.length === 0) return true;
  for (const term of terms) {
    const exprs = term.matchLabelExpressions ?? [];
    if (exprs.length === 0) continue;
    let ok = true;
    for (const e of exprs) {
      const v = labels?.[e.key];
      if (v === undefined || (e.values ?? []).length === 0 || !e.values.includes(v)) {
        ok = false;
        break;
      }
    }
    if (ok) return true;
  }
  return false;
}
