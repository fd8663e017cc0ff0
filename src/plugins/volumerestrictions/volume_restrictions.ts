// VolumeRestrictions rejects nodes where an in-tree disk of the pod is already mounted in a
// conflicting way, and pods whose ReadWriteOncePod claims another pod already uses
// (pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go).
import type { PersistentVolumeClaim, Pod } from '../../api/types.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type {
  EnqueueExtensions,
  FilterPlugin,
  Handle,
  PreFilterExtensions,
  PreFilterOutcome,
  PreFilterPlugin,
} from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { VolumeRestrictions as Name } from '../../framework/names.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { deferredFragment, VolumesSignerName, volumesSigner } from '../../framework/signers.js';

export { Name };

type Volume = NonNullable<Pod['spec']['volumes']>[number];

const preFilterStateKey = 'PreFilter' + Name;

export const ErrReasonDiskConflict = 'node(s) had no available disk';
export const ErrReasonReadWriteOncePodConflict =
  'node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod';
const diskConflict = Status.constant(Code.Unschedulable, Name, ErrReasonDiskConflict);
const readWriteOncePodConflict = Status.constant(Code.Unschedulable, Name, ErrReasonReadWriteOncePodConflict);

/** Feature gates that change this plugin, at their v1.34 defaults. */
export interface VolumeRestrictionsFeatures {
  readonly enableSchedulingQueueHint: boolean;
}

const defaultVolumeRestrictionsFeatures: VolumeRestrictionsFeatures = { enableSchedulingQueueHint: true };

/** The pod's ReadWriteOncePod claims and how many scheduled (or nominated) pods hold one of them. */
class PreFilterState implements StateData {
  constructor(
    readonly readWriteOncePodPVCs: ReadonlySet<string>,
    public conflictingPVCRefCount: number,
  ) {}

  /** Counts `pod`'s references to the claims in (multiplier 1) or out (-1). */
  updateWithPod(pod: Pod, multiplier: 1 | -1): void {
    this.conflictingPVCRefCount += multiplier * this.conflictingPVCRefCountForPod(pod);
  }

  /** Like upstream, matches claim names only: the namespace of `pod` is not compared. */
  conflictingPVCRefCountForPod(pod: Pod): number {
    const volumes = pod.spec.volumes;
    if (volumes === undefined || this.readWriteOncePodPVCs.size === 0) return 0;
    let conflicts = 0;
    for (let i = 0; i < volumes.length; i++) {
      const claim = volumes[i]!.persistentVolumeClaim;
      if (claim !== undefined && this.readWriteOncePodPVCs.has(claim.claimName)) conflicts++;
    }
    return conflicts;
  }

  clone(): StateData {
    // The claim set never changes after PreFilter, so copies share it.
    return new PreFilterState(this.readWriteOncePodPVCs, this.conflictingPVCRefCount);
  }
}

/** True for the volume kinds whose sharing between pods is restricted. */
function needsRestrictionsCheck(v: Volume): boolean {
  return v.gcePersistentDisk != null || v.awsElasticBlockStore != null || v.rbd != null || v.iscsi != null;
}

/** True when the two lists share at least one entry (monitor lists hold a handful of addresses). */
function haveOverlap(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  for (let i = 0; i < a.length; i++) if (b.includes(a[i]!)) return true;
  return false;
}

/**
 * True when `volume` cannot be mounted next to `existing`'s volumes: the same GCE PD or ISCSI IQN
 * unless both are read-only, the same AWS EBS volume ID at all, or the same RBD image (a common
 * monitor, same pool and image) unless both are read-only.
 */
function isVolumeConflict(volume: Volume, existing: Pod): boolean {
  const existingVolumes = existing.spec.volumes;
  if (existingVolumes === undefined) return false;
  for (let i = 0; i < existingVolumes.length; i++) {
    const ev = existingVolumes[i]!;
    const gce = volume.gcePersistentDisk;
    const egce = ev.gcePersistentDisk;
    if (gce != null && egce != null && gce.pdName === egce.pdName && !(gce.readOnly && egce.readOnly)) return true;

    const ebs = volume.awsElasticBlockStore;
    const eebs = ev.awsElasticBlockStore;
    if (ebs != null && eebs != null && ebs.volumeID === eebs.volumeID) return true;

    const iscsi = volume.iscsi;
    const eiscsi = ev.iscsi;
    if (iscsi != null && eiscsi != null && iscsi.iqn === eiscsi.iqn && !(iscsi.readOnly && eiscsi.readOnly)) return true;

    const rbd = volume.rbd;
    const erbd = ev.rbd;
    if (
      rbd != null &&
      erbd != null &&
      haveOverlap(rbd.monitors, erbd.monitors) &&
      (rbd.pool ?? '') === (erbd.pool ?? '') &&
      rbd.image === erbd.image &&
      !(rbd.readOnly && erbd.readOnly)
    ) {
      return true;
    }
  }
  return false;
}

/** True when placing `pod` on the node mounts none of its restricted volumes in a conflicting way. */
function satisfyVolumeConflicts(pod: Pod, nodeInfo: NodeInfo): boolean {
  const volumes = pod.spec.volumes;
  if (volumes === undefined) return true;
  const pods = nodeInfo.pods;
  for (let i = 0; i < volumes.length; i++) {
    const v = volumes[i]!;
    if (!needsRestrictionsCheck(v)) continue;
    for (let j = 0; j < pods.length; j++) if (isVolumeConflict(v, pods[j]!.pod)) return false;
  }
  return true;
}

function hasRestrictedVolume(pod: Pod): boolean {
  const volumes = pod.spec.volumes;
  if (volumes === undefined) return false;
  for (let i = 0; i < volumes.length; i++) if (needsRestrictionsCheck(volumes[i]!)) return true;
  return false;
}

function getPreFilterState(state: CycleState): PreFilterState | Status {
  const s = state.read<PreFilterState>(preFilterStateKey);
  if (!(s instanceof PreFilterState)) return Status.error(`cannot read "${preFilterStateKey}" from cycleState`);
  return s;
}

/** The claims of a pod that mounts no ReadWriteOncePod claim (most pods): one shared empty set. */
const noClaims: ReadonlySet<string> = new Set();

export class VolumeRestrictions implements PreFilterPlugin, PreFilterExtensions, FilterPlugin, EnqueueExtensions, SignPlugin {
  readonly name = Name;

  /** Verdicts follow the pod's volumes (ConfigMaps and Secrets aside). */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [deferredFragment(VolumesSignerName, volumesSigner, pod.pod)];
  }

  constructor(
    private readonly handle: Handle,
    private readonly features: VolumeRestrictionsFeatures = defaultVolumeRestrictionsFeatures,
  ) {}

  preFilter(state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    const needsCheck = hasRestrictedVolume(pod.pod);
    const pvcs = this.readWriteOncePodPVCsForPod(pod);
    if (pvcs instanceof Status) return { status: pvcs };
    // Most pods: nothing to check and no claim to count, so no state is made.
    if (!needsCheck && pvcs.size === 0) return { status: Status.skip() };
    const s = this.calPreFilterState(pod, pvcs);
    if (s instanceof Status) return { status: s };
    if (!needsCheck && s.conflictingPVCRefCount === 0) return { status: Status.skip() };
    state.write(preFilterStateKey, s);
    return null;
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, _podToSchedule: PodInfo, podToAdd: PodInfo): Status | null {
    const s = getPreFilterState(state);
    if (s instanceof Status) return s;
    s.updateWithPod(podToAdd.pod, 1);
    return null;
  }

  removePod(state: CycleState, _podToSchedule: PodInfo, podToRemove: PodInfo): Status | null {
    const s = getPreFilterState(state);
    if (s instanceof Status) return s;
    s.updateWithPod(podToRemove.pod, -1);
    return null;
  }

  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    if (!satisfyVolumeConflicts(pod.pod, nodeInfo)) return diskConflict;
    const s = getPreFilterState(state);
    if (s instanceof Status) return s;
    // Only one pod may use a ReadWriteOncePod claim; preemption may free it.
    return s.conflictingPVCRefCount > 0 ? readWriteOncePodConflict : null;
  }

  /**
   * Names of the pod's claims with the ReadWriteOncePod access mode. Every claim the pod mounts
   * must exist: a missing one makes the pod unresolvable until the claim is created.
   */
  private readWriteOncePodPVCsForPod(pod: PodInfo): ReadonlySet<string> | Status {
    let pvcs: Set<string> | null = null;
    const volumes = pod.pod.spec.volumes;
    if (volumes === undefined) return noClaims;
    const objects = this.handle.objects();
    for (let i = 0; i < volumes.length; i++) {
      const claimName = volumes[i]!.persistentVolumeClaim?.claimName;
      if (claimName === undefined) continue;
      const pvc = objects.get<PersistentVolumeClaim>('PersistentVolumeClaim', pod.namespace, claimName);
      if (pvc === undefined) return Status.unresolvable(`persistentvolumeclaim "${claimName}" not found`);
      if (!(pvc.spec?.accessModes ?? []).includes('ReadWriteOncePod')) continue;
      (pvcs ??= new Set()).add(claimName);
    }
    return pvcs ?? noClaims;
  }

  /** Counts the pod's ReadWriteOncePod claims that a pod in the snapshot already uses. */
  private calPreFilterState(pod: PodInfo, pvcs: ReadonlySet<string>): PreFilterState | Status {
    let conflictingPVCRefCount = 0;
    if (pvcs.size > 0) {
      const storage = this.handle.snapshotSharedLister().storageInfos?.();
      if (storage === undefined) return Status.error(`${Name}: the snapshot lister does not report which PVCs pods use`);
      // At most one pod can hold a ReadWriteOncePod claim, so each used claim counts once.
      for (const claim of pvcs) if (storage.isPVCUsedByPods(`${pod.namespace}/${claim}`)) conflictingPVCRefCount++;
    }
    return new PreFilterState(pvcs, conflictingPVCRefCount);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    // Without queueing hints, label/taint updates stand in for Node/Add events the pre-check may drop.
    const nodeActions = this.features.enableSchedulingQueueHint
      ? ActionType.Add
      : ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel;
    return [
      // Volumes are immutable, so only a deleted pod releases a disk or a claim.
      { event: { resource: 'Pod', actionType: ActionType.Delete }, queueingHintFn: isSchedulableAfterPodDeleted },
      // A new node always deserves a retry; no hint needed.
      { event: { resource: 'Node', actionType: nodeActions } },
      // PreFilter needs every claim the pod mounts to exist.
      {
        event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add },
        queueingHintFn: isSchedulableAfterPersistentVolumeClaimAdded,
      },
    ];
  }
}

const namespaceOf = (o: { metadata?: { namespace?: string } }): string => o.metadata?.namespace ?? 'default';

/** Queues when the created claim is one the pod mounts. */
export function isSchedulableAfterPersistentVolumeClaimAdded(pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
  const pvc = eventObjectsAs('PersistentVolumeClaim', null, newObj)?.newObj;
  if (!pvc) return QueueingHint.Queue;
  if (namespaceOf(pvc) !== namespaceOf(pod)) return QueueingHint.QueueSkip;
  for (const v of pod.spec.volumes ?? []) {
    if (v.persistentVolumeClaim !== undefined && v.persistentVolumeClaim.claimName === pvc.metadata?.name) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}

/**
 * Queues when the deleted pod (same namespace) held a disk the pod conflicts with, or mounted a
 * claim of the same name: the claim's access mode is not looked up, as upstream keeps hints cheap.
 */
export function isSchedulableAfterPodDeleted(pod: Pod, oldObj: unknown): QueueingHint {
  const deleted = eventObjectsAs('Pod', oldObj, null)?.oldObj;
  if (!deleted) return QueueingHint.Queue;
  if (namespaceOf(deleted) !== namespaceOf(pod)) return QueueingHint.QueueSkip;
  const claims = new Set<string>();
  for (const v of pod.spec.volumes ?? []) {
    if (needsRestrictionsCheck(v) && isVolumeConflict(v, deleted)) return QueueingHint.Queue;
    if (v.persistentVolumeClaim !== undefined) claims.add(v.persistentVolumeClaim.claimName);
  }
  for (const v of deleted.spec.volumes ?? []) {
    if (v.persistentVolumeClaim !== undefined && claims.has(v.persistentVolumeClaim.claimName)) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}
