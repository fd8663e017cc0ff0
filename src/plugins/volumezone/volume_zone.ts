// VolumeZone keeps a pod off nodes outside the zone/region of the PersistentVolumes it uses
// (pkg/scheduler/framework/plugins/volumezone/volume_zone.go).
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/types.js';
import { getPersistentVolumeClaimClass } from '../../api/volumes.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, ActionTypeUpdate, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, FilterPlugin, Handle, ObjectLister, PreFilterOutcome, PreFilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { VolumeZone as Name } from '../../framework/names.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { deferredFragment, VolumesSignerName, volumesSigner } from '../../framework/signers.js';

export { Name };

const preFilterStateKey = 'PreFilter' + Name;

export const ErrReasonConflict = 'node(s) had no available volume zone';
const zoneConflict = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonConflict);

export const LabelFailureDomainBetaZone = 'failure-domain.beta.kubernetes.io/zone';
export const LabelFailureDomainBetaRegion = 'failure-domain.beta.kubernetes.io/region';
export const LabelTopologyZone = 'topology.kubernetes.io/zone';
export const LabelTopologyRegion = 'topology.kubernetes.io/region';

/** The PV and node labels this plugin compares, in upstream's order. */
const topologyLabels: readonly string[] = [LabelFailureDomainBetaZone, LabelFailureDomainBetaRegion, LabelTopologyZone, LabelTopologyRegion];

/** Separates the zones of a multi-zone PV label value (cloud-provider volume.LabelMultiZoneDelimiter). */
const LabelMultiZoneDelimiter = '__';

const VolumeBindingWaitForFirstConsumer = 'WaitForFirstConsumer';

/** The GA key standing for a deprecated beta topology key; other keys map to themselves. */
function translateToGALabel(label: string): string {
  if (label === LabelFailureDomainBetaRegion) return LabelTopologyRegion;
  if (label === LabelFailureDomainBetaZone) return LabelTopologyZone;
  return label;
}

/**
 * The zones of a PV label value such as "us-west1-a__us-west1-b", each trimmed; null when one
 * of them is empty (cloud-provider volume/helpers LabelZonesToSet).
 */
export function labelZonesToSet(value: string): Set<string> | null {
  const zones = new Set<string>();
  for (const part of value.split(LabelMultiZoneDelimiter)) {
    const zone = part.trim();
    if (zone === '') return null;
    zones.add(zone);
  }
  return zones;
}

/** One topology label of a PV, with the set of values it allows. */
interface PVTopology {
  readonly pvName: string;
  readonly key: string;
  readonly values: ReadonlySet<string>;
}

/**
 * The topology labels of a PV, skipping values that do not parse. Node affinity of the PV is
 * left to the VolumeBinding plugin, as upstream does.
 */
function getPVTopologies(pv: PersistentVolume): PVTopology[] {
  const out: PVTopology[] = [];
  const labels = pv.metadata?.labels;
  if (!labels) return out;
  for (const key of topologyLabels) {
    const value = labels[key];
    if (value === undefined) continue;
    const values = labelZonesToSet(value);
    if (values === null) continue;
    out.push({ pvName: pv.metadata?.name ?? '', key, values });
  }
  return out;
}

function sameTopologies(a: readonly PVTopology[], b: readonly PVTopology[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.pvName !== y.pvName || x.key !== y.key || x.values.size !== y.values.size) return false;
    for (const v of x.values) if (!y.values.has(v)) return false;
  }
  return true;
}

/** The claim names of the pod's PersistentVolumeClaim volumes, in volume order. */
function getPersistentVolumeClaimNameFromPod(pod: Pod): string[] {
  const names: string[] = [];
  const volumes = pod.spec.volumes;
  if (!volumes) return names;
  for (const v of volumes) if (v.persistentVolumeClaim) names.push(v.persistentVolumeClaim.claimName ?? '');
  return names;
}

// The NotFound messages of the informer listers (apierrors.NewNotFound with the lister's resource).
const pvcNotFound = (name: string) => Status.unresolvable(`persistentvolumeclaim "${name}" not found`);
const pvNotFound = (name: string) => Status.unresolvable(`persistentvolume "${name}" not found`);
const storageClassNotFound = (name: string) => Status.unresolvable(`storageclass.storage.k8s.io "${name}" not found`);

/**
 * The topologies of the PVs bound to the pod's claims, or the Status that rejects the pod:
 * unbound claims of a WaitForFirstConsumer class are left to VolumeBinding; any other unbound,
 * missing or dangling claim is unresolvable.
 */
function getPVbyPod(objects: ObjectLister, pod: Pod): PVTopology[] | Status {
  const out: PVTopology[] = [];
  const namespace = pod.metadata.namespace ?? '';
  for (const pvcName of getPersistentVolumeClaimNameFromPod(pod)) {
    if (pvcName === '') return Status.unresolvable('PersistentVolumeClaim had no name');
    const pvc = objects.get<PersistentVolumeClaim>('PersistentVolumeClaim', namespace, pvcName);
    if (!pvc) return pvcNotFound(pvcName);

    const pvName = pvc.spec?.volumeName ?? '';
    if (pvName === '') {
      const scName = getPersistentVolumeClaimClass(pvc);
      if (scName === '') return Status.unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
      const sc = objects.get<StorageClass>('StorageClass', '', scName);
      if (!sc) return storageClassNotFound(scName);
      if (!sc.volumeBindingMode) return Status.unresolvable(`VolumeBindingMode not set for StorageClass "${scName}"`);
      if (sc.volumeBindingMode === VolumeBindingWaitForFirstConsumer) continue;
      return Status.unresolvable('PersistentVolume had no name');
    }

    const pv = objects.get<PersistentVolume>('PersistentVolume', '', pvName);
    if (!pv) return pvNotFound(pvName);
    for (const t of getPVTopologies(pv)) out.push(t);
  }
  return out;
}

/** The topologies PreFilter found; never changed afterwards, so clone shares it. */
class PreFilterState implements StateData {
  constructor(readonly podPVTopologies: readonly PVTopology[]) {}

  clone(): StateData {
    return this;
  }
}

/** Feature gates that change this plugin, at their v1.34 defaults. */
export interface VolumeZoneFeatures {
  readonly enableSchedulingQueueHint: boolean;
}

const defaultVolumeZoneFeatures: VolumeZoneFeatures = { enableSchedulingQueueHint: true };

function hasAnyTopologyLabel(labels: Readonly<Record<string, string>>): boolean {
  for (const key of topologyLabels) if (labels[key] !== undefined) return true;
  return false;
}

export class VolumeZone implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  readonly name = Name;

  /** Verdicts follow the pod's volumes (ConfigMaps and Secrets aside). */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [deferredFragment(VolumesSignerName, volumesSigner, pod.pod)];
  }

  constructor(
    private readonly handle: Handle,
    private readonly features: VolumeZoneFeatures = defaultVolumeZoneFeatures,
  ) {}

  preFilter(state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    const topologies = getPVbyPod(this.handle.objects(), pod.pod);
    if (topologies instanceof Status) return { status: topologies };
    if (topologies.length === 0) return { status: Status.skip() };
    state.write(preFilterStateKey, new PreFilterState(topologies));
    return null;
  }

  preFilterExtensions(): null {
    return null;
  }

  /**
   * Every topology label of the pod's PVs must be matched by the node (a beta PV key may be
   * matched by the node's GA key). A node with no topology label at all passes: a single-zone
   * cluster need not label its nodes.
   */
  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    if (!pod.pod.spec.volumes || pod.pod.spec.volumes.length === 0) return null;
    let topologies: readonly PVTopology[];
    const s = state.read<PreFilterState>(preFilterStateKey);
    if (s instanceof PreFilterState) {
      topologies = s.podPVTopologies;
    } else {
      // Without PreFilter's state (it was skipped or failed) the volumes are looked up again.
      const computed = getPVbyPod(this.handle.objects(), pod.pod);
      if (computed instanceof Status) return computed;
      topologies = computed;
    }

    const labels = nodeInfo.node?.metadata.labels;
    if (!labels || !hasAnyTopologyLabel(labels)) return null;
    for (let i = 0; i < topologies.length; i++) {
      const t = topologies[i]!;
      let value = labels[t.key];
      if (value === undefined) value = labels[translateToGALabel(t.key)];
      if (value === undefined || !t.values.has(value)) return zoneConflict;
    }
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    // Without queueing hints, taint updates stand in for Node/Add events the pre-check may drop.
    const nodeActions = this.features.enableSchedulingQueueHint
      ? ActionType.Add | ActionType.UpdateNodeLabel
      : ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint;
    return [
      // volumeBindingMode is immutable, so only a new StorageClass matters.
      { event: { resource: 'StorageClass', actionType: ActionType.Add }, queueingHintFn: isSchedulableAfterStorageClassAdded },
      { event: { resource: 'Node', actionType: nodeActions } },
      // A new claim, or a claim getting its volumeName, may unblock the pod.
      {
        event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | ActionTypeUpdate },
        queueingHintFn: isSchedulableAfterPersistentVolumeClaimChange,
      },
      {
        event: { resource: 'PersistentVolume', actionType: ActionType.Add | ActionTypeUpdate },
        queueingHintFn: isSchedulableAfterPersistentVolumeChange,
      },
    ];
  }
}

/** Queues when the added or updated claim is one the pod uses (same namespace and name). */
export function isSchedulableAfterPersistentVolumeClaimChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('PersistentVolumeClaim', oldObj, newObj);
  if (objects === null) return QueueingHint.Queue;
  const pvc = objects.newObj;
  if (!pvc || (pvc.metadata?.namespace ?? '') !== (pod.metadata.namespace ?? '')) return QueueingHint.QueueSkip;
  const name = pvc.metadata?.name ?? '';
  for (const pvcName of getPersistentVolumeClaimNameFromPod(pod)) if (pvcName === name) return QueueingHint.Queue;
  return QueueingHint.QueueSkip;
}

/** Queues only for a new StorageClass in WaitForFirstConsumer mode, whose claims this plugin skips. */
export function isSchedulableAfterStorageClassAdded(_pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
  const sc = eventObjectsAs('StorageClass', null, newObj)?.newObj;
  if (!sc) return QueueingHint.Queue;
  return sc.volumeBindingMode === VolumeBindingWaitForFirstConsumer ? QueueingHint.Queue : QueueingHint.QueueSkip;
}

/** Queues for a new PV, or for an update that changed the PV's topology labels. */
export function isSchedulableAfterPersistentVolumeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('PersistentVolume', oldObj, newObj);
  if (objects?.oldObj == null) return QueueingHint.Queue;
  const before = getPVTopologies(objects.oldObj);
  const after = objects.newObj === null ? [] : getPVTopologies(objects.newObj);
  return sameTopologies(before, after) ? QueueingHint.QueueSkip : QueueingHint.Queue;
}
