// PV/PVC helpers the binder shares with the PV controller (component-helpers/storage/volume
// helpers.go and pv_helpers.go, core/v1/helper MatchTopologySelectorTerms).
import { NodeSelectorMatcher } from '../../api/nodeselector.js';
import { Selector } from '../../api/labels.js';
import { parseQuantity } from '../../api/quantity.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import { AnnBoundByController, getPersistentVolumeClaimClass, getPersistentVolumeClass } from '../../api/volumes.js';

export {
  AnnBetaStorageProvisioner,
  AnnBindCompleted,
  AnnBoundByController,
  AnnDynamicallyProvisioned,
  AnnSelectedNode,
  AnnStorageProvisioner,
  BetaStorageClassAnnotation,
  getPersistentVolumeClaimClass,
  getPersistentVolumeClass,
  NotSupportedProvisioner,
} from '../../api/volumes.js';
export const VolumeBindingWaitForFirstConsumer = 'WaitForFirstConsumer';

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

/** True when the volume's claimRef names the claim (and its UID, when the ref has one). */
export function isVolumeBoundToClaim(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (claim.metadata?.name !== ref.name || claim.metadata?.namespace !== ref.namespace) return false;
  return !ref.uid || claim.metadata?.uid === ref.uid;
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

/** The PV's required node affinity against node labels only (CheckNodeAffinity); null when it fits. */
export function checkNodeAffinity(pv: PersistentVolume, nodeLabels: Readonly<Record<string, string>> | undefined): string | null {
  const required = pv.spec?.nodeAffinity?.required;
  if (!required) return null;
  // Upstream matches a node built from the labels alone, so matchFields on metadata.name never match.
  const labelsOnly: Node = { metadata: { labels: { ...nodeLabels } } };
  const matcher = new NodeSelectorMatcher(required.nodeSelectorTerms ?? []);
  if (matcher.matches(labelsOnly)) return null;
  return matcher.error ?? 'no matching NodeSelectorTerms';
}

/** The storage request of a claim in nano-units (missing is zero). */
export function claimRequestNanos(claim: PersistentVolumeClaim): bigint {
  return parseQuantity(claim.spec?.resources?.requests?.['storage'] ?? 0).nanoValue();
}

function volumeCapacityNanos(pv: PersistentVolume): bigint {
  return parseQuantity(pv.spec?.capacity?.['storage'] ?? 0).nanoValue();
}

/** CheckVolumeModeMismatches: an unset mode means Filesystem on both sides. */
export function volumeModeMismatches(claim: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (pv.spec?.volumeMode ?? 'Filesystem');
}

/** CheckAccessModes: the volume offers every mode the claim asks for. */
export function checkAccessModes(claim: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  const offered = new Set(pv.spec?.accessModes ?? []);
  for (const m of claim.spec?.accessModes ?? []) if (!offered.has(m)) return false;
  return true;
}

/**
 * The best volume for the claim in the scheduler's path (FindMatchingVolume with a node): a volume
 * pre-bound to the claim wins (or nothing, when its node affinity rejects the node); otherwise the
 * smallest Available volume of the claim's class, mode, attributes class, selector and access modes
 * that fits the node and is not in `excluded`. Throws when the claim's selector does not parse.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node: Node,
  excluded: ReadonlySet<string>,
): PersistentVolume | null {
  const requested = claimRequestNanos(claim);
  const requestedClass = getPersistentVolumeClaimClass(claim);
  let selector: Selector | null = null;
  if (claim.spec?.selector) {
    try {
      selector = Selector.compile(claim.spec.selector);
    } catch (err) {
      throw new Error(`error creating internal label selector for claim: ${claim.metadata?.namespace}/${claim.metadata?.name}: ${(err as Error).message}`);
    }
  }
  const claimVAC = claim.spec?.volumeAttributesClassName ?? '';
  let smallest: PersistentVolume | null = null;
  let smallestQty = 0n;
  for (const pv of volumes) {
    if (excluded.has(pv.metadata?.name ?? '')) continue;
    if (pv.spec?.claimRef && !isVolumeBoundToClaim(pv, claim)) continue;
    const qty = volumeCapacityNanos(pv);
    if (qty < requested) continue;
    if (volumeModeMismatches(claim, pv)) continue;
    // VolumeAttributesClass is GA: the attributes classes must be equal.
    if ((pv.spec?.volumeAttributesClassName ?? '') !== claimVAC) continue;
    if (pv.metadata?.deletionTimestamp) continue;
    const affinityFits = checkNodeAffinity(pv, node.metadata.labels) === null;
    if (isVolumeBoundToClaim(pv, claim)) return affinityFits ? pv : null;
    if (pv.status?.phase !== 'Available') continue;
    if (selector !== null && !selector.matches(pv.metadata?.labels)) continue;
    if (getPersistentVolumeClass(pv) !== requestedClass) continue;
    if (!affinityFits) continue;
    if (!checkAccessModes(claim, pv)) continue;
    if (smallest === null || smallestQty > qty) {
      smallest = pv;
      smallestQty = qty;
    }
  }
  return smallest;
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
