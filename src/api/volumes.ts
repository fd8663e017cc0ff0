// Well-known storage annotations and the storage class lookups every volume plugin shares
// (component-helpers/storage/volume, pkg/controller/volume/persistentvolume/util).
import { Selector } from './labels.js';
import { NodeSelectorMatcher } from './nodeselector.js';
import { parseQuantity } from './quantity.js';
import type { Node, NodeSelector, PersistentVolume, PersistentVolumeClaim } from './types.js';

export const AnnBindCompleted = 'pv.kubernetes.io/bind-completed';
export const AnnBoundByController = 'pv.kubernetes.io/bound-by-controller';
export const AnnSelectedNode = 'volume.kubernetes.io/selected-node';
export const AnnDynamicallyProvisioned = 'pv.kubernetes.io/provisioned-by';
const BetaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';
/** A StorageClass provisioner meaning "no dynamic provisioning" (local volumes). */
export const NotSupportedProvisioner = 'kubernetes.io/no-provisioner';

/** The class a claim asks for: the beta annotation wins over spec.storageClassName; "" for none. */
export function getPersistentVolumeClaimClass(claim: PersistentVolumeClaim): string {
  const ann = claim.metadata?.annotations;
  if (ann && Object.prototype.hasOwnProperty.call(ann, BetaStorageClassAnnotation)) return ann[BetaStorageClassAnnotation]!;
  return claim.spec?.storageClassName ?? '';
}

/** The class of a volume, the beta annotation first. */
export function getPersistentVolumeClass(pv: PersistentVolume): string {
  const ann = pv.metadata?.annotations;
  if (ann && Object.prototype.hasOwnProperty.call(ann, BetaStorageClassAnnotation)) return ann[BetaStorageClassAnnotation]!;
  return pv.spec?.storageClassName ?? '';
}

/** True when the volume's claimRef names the claim (and its UID, when the ref has one). */
export function isVolumeBoundToClaim(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (claim.metadata?.name !== ref.name || claim.metadata?.namespace !== ref.namespace) return false;
  return !ref.uid || claim.metadata?.uid === ref.uid;
}

/**
 * A volume's node affinity compiled once: the Filter walk checks it on every node for every pod.
 * Keyed by the selector object, which a stored volume never changes in place (updates replace it).
 */
const compiledAffinity = new WeakMap<NodeSelector, NodeSelectorMatcher>();

/** The PV's required node affinity against node labels only (CheckNodeAffinity); null when it fits. */
export function checkNodeAffinity(pv: PersistentVolume, nodeLabels: Readonly<Record<string, string>> | undefined): string | null {
  const required = pv.spec?.nodeAffinity?.required;
  if (!required) return null;
  // Upstream matches a node built from the labels alone, so matchFields on metadata.name never match.
  const labelsOnly: Node = { metadata: { labels: nodeLabels } };
  let matcher = compiledAffinity.get(required);
  if (matcher === undefined) {
    matcher = new NodeSelectorMatcher(required.nodeSelectorTerms ?? []);
    compiledAffinity.set(required, matcher);
  }
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
function volumeModeMismatches(claim: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (pv.spec?.volumeMode ?? 'Filesystem');
}

/** CheckAccessModes: the volume offers every mode the claim asks for. */
function checkAccessModes(claim: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  const offered = new Set(pv.spec?.accessModes ?? []);
  for (const m of claim.spec?.accessModes ?? []) if (!offered.has(m)) return false;
  return true;
}

/**
 * The best volume for the claim (FindMatchingVolume): a volume pre-bound to the claim wins (or
 * nothing, when its node affinity rejects `node`); otherwise the smallest Available volume of the
 * claim's class, mode, attributes class, selector and access modes that fits `node` and is not in
 * `excluded`. With `node` null (the PV controller's path) node affinity is not looked at. Throws
 * when the claim's selector does not parse.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node: Node | null,
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
    const affinityFits = node === null || checkNodeAffinity(pv, node.metadata.labels) === null;
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
