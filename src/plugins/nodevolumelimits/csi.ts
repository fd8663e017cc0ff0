// NodeVolumeLimits (CSILimits) filters nodes where the pod's CSI volumes would exceed a driver's
// attach limit from CSINode spec.drivers[].allocatable.count
// (pkg/scheduler/framework/plugins/nodevolumelimits/csi.go).
import type { CSINode, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass, VolumeAttachment } from '../../api/types.js';
import { getPersistentVolumeClaimClass } from '../../api/volumes.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { ActionType, ActionTypeUpdate, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, FilterPlugin, Handle, ObjectLister, PreFilterOutcome, PreFilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import { NodeVolumeLimits as Name } from '../names.js';
import { isCSIMigrationOn, pluginByInTreeName, pluginForInlineVolume, pluginForPV, type Volume } from './translator.js';

export { Name };

export const ErrReasonMaxVolumeCountExceeded = 'node(s) exceed max volume count';

const preFilterStateKey = 'PreFilter' + Name;

/** A failed volume lookup; `notFound` marks a missing PVC of the pod being scheduled. */
class VolumeLookupError extends Error {
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
}

/** Volume unique name ("<driver>/<handle>") to CSI driver name. */
type VolumeDrivers = Map<string, string>;

/** The VolumeAttachments of each node, resolved to unique volume names, indexed once per cycle. */
class PreFilterState implements StateData {
  constructor(readonly attachedByNode: ReadonlyMap<string, VolumeDrivers>) {}

  clone(): StateData {
    return this;
  }
}

function volumeUniqueName(driverName: string, volumeHandle: string): string {
  return `${driverName}/${volumeHandle}`;
}

/** The claim a generic ephemeral volume gets: "<pod>-<volume>" (ephemeral.VolumeClaimName). */
export function ephemeralVolumeClaimName(pod: Pod, vol: Volume): string {
  return `${pod.metadata.name ?? ''}-${vol.name}`;
}

/** The PVC of an ephemeral volume must be controlled by the pod (ephemeral.VolumeIsForPod). */
function ephemeralVolumeIsForPod(pod: Pod, pvc: PersistentVolumeClaim): VolumeLookupError | null {
  const podNs = pod.metadata.namespace ?? '';
  const pvcNs = pvc.metadata?.namespace ?? '';
  const controller = pvc.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (pvcNs !== podNs || !controller || controller.uid !== (pod.metadata.uid ?? '')) {
    return new VolumeLookupError(`PVC ${pvcNs}/${pvc.metadata?.name ?? ''} was not created for pod ${podNs}/${pod.metadata.name ?? ''} (pod is not owner)`);
  }
  return null;
}


/** The count limit per CSI driver on the node (drivers without a count have no limit). */
function getVolumeLimits(csiNode: CSINode | null): Map<string, number> {
  const limits = new Map<string, number>();
  for (const d of csiNode?.spec.drivers ?? []) {
    const count = d.allocatable?.count;
    if (count !== undefined && count !== null) limits.set(d.name, count);
  }
  return limits;
}

/** A volume the plugin may count: a PVC, a generic ephemeral volume or a migratable in-tree volume. */
function isCountableVolume(vol: Volume): boolean {
  return !!vol.persistentVolumeClaim || !!vol.ephemeral || pluginForInlineVolume(vol) !== undefined;
}

/** Characters of apimachinery's rand.String. */
const randAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

function randomString(n: number, random: () => number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += randAlphabet[Math.floor(random() * randAlphabet.length)];
  return s;
}

export class CSILimits implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = Name;

  /**
   * @param randomVolumeIDPrefix keeps the made-up handles of unbound claims from colliding with
   *   real volume handles.
   */
  constructor(
    private readonly objects: ObjectLister,
    private readonly randomVolumeIDPrefix: string,
  ) {}

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      // Any new CSINode may bring a driver limit the pod fits; no hint.
      { event: { resource: 'CSINode', actionType: ActionType.Add } },
      { event: { resource: 'CSINode', actionType: ActionTypeUpdate }, queueingHintFn: isSchedulableAfterCSINodeUpdated },
      { event: { resource: 'Pod', actionType: ActionType.Delete }, queueingHintFn: isSchedulableAfterPodDeleted },
      { event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add }, queueingHintFn: isSchedulableAfterPVCAdded },
      { event: { resource: 'VolumeAttachment', actionType: ActionType.Delete }, queueingHintFn: isSchedulableAfterVolumeAttachmentDeleted },
    ];
  }

  preFilter(state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    const volumes = pod.pod.spec.volumes ?? [];
    for (let i = 0; i < volumes.length; i++) {
      if (isCountableVolume(volumes[i]!)) {
        state.write(preFilterStateKey, new PreFilterState(this.attachmentsByNode()));
        return null;
      }
    }
    return { status: Status.skip() };
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, podInfo: PodInfo, nodeInfo: NodeInfo): Status | null {
    const pod = podInfo.pod;
    if ((pod.spec.volumes?.length ?? 0) === 0) return null;
    const nodeName = nodeInfo.name;
    // A node without a CSINode has no limits, but its in-tree volumes are not migrated either.
    const csiNode = this.objects.get<CSINode>('CSINode', '', nodeName) ?? null;

    const newVolumes: VolumeDrivers = new Map();
    const err = this.filterAttachableVolumes(pod, csiNode, true, newVolumes);
    if (err) return err.notFound ? Status.unresolvable(err.message) : Status.error(err);
    if (newVolumes.size === 0) return null;

    const limits = getVolumeLimits(csiNode);
    if (limits.size === 0) return null;

    const attachedVolumes: VolumeDrivers = new Map();
    for (const existing of nodeInfo.pods) {
      const e = this.filterAttachableVolumes(existing.pod, csiNode, false, attachedVolumes);
      if (e) return Status.error(e);
    }
    const attachedCount = new Map<string, number>();
    for (const [unique, driver] of attachedVolumes) {
      // A volume shared with a pod already on the node takes no new slot.
      newVolumes.delete(unique);
      attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
    }
    // Attachments still on the node (e.g. of deleted pods being detached) hold slots too.
    const attachments = this.nodeAttachments(state, nodeName);
    if (attachments) {
      for (const [unique, driver] of attachments) {
        if (!attachedVolumes.has(unique)) attachedCount.set(driver, (attachedCount.get(driver) ?? 0) + 1);
      }
    }

    const newCount = new Map<string, number>();
    for (const driver of newVolumes.values()) newCount.set(driver, (newCount.get(driver) ?? 0) + 1);
    for (const [driver, count] of newCount) {
      const max = limits.get(driver);
      if (max !== undefined && (attachedCount.get(driver) ?? 0) + count > max) {
        return Status.unschedulable(ErrReasonMaxVolumeCountExceeded);
      }
    }
    return null;
  }

  /** The node's attachments from the PreFilter index, or indexed now when Filter runs alone. */
  private nodeAttachments(state: CycleState, nodeName: string): VolumeDrivers | undefined {
    const s = state.read<PreFilterState>(preFilterStateKey);
    return (s?.attachedByNode ?? this.attachmentsByNode()).get(nodeName);
  }

  /**
   * VolumeAttachments by node, as unique volume names (getNodeVolumeAttachmentInfo). Only
   * attachments with an attacher and a PV that is a CSI volume count.
   */
  private attachmentsByNode(): Map<string, VolumeDrivers> {
    const byNode = new Map<string, VolumeDrivers>();
    for (const va of this.objects.list<VolumeAttachment>('VolumeAttachment')) {
      const attacher = va.spec?.attacher ?? '';
      const pvName = va.spec?.source?.persistentVolumeName;
      if (attacher === '' || pvName === undefined || pvName === null) continue;
      const csi = this.objects.get<PersistentVolume>('PersistentVolume', '', pvName)?.spec?.csi;
      if (!csi) continue;
      const node = va.spec.nodeName ?? '';
      let m = byNode.get(node);
      if (!m) byNode.set(node, (m = new Map()));
      m.set(volumeUniqueName(attacher, csi.volumeHandle), attacher);
    }
    return byNode;
  }

  /**
   * Adds the pod's countable volumes to `result`. A missing PVC fails the pod being scheduled
   * (`newPod`) but is skipped for pods already on the node.
   */
  private filterAttachableVolumes(pod: Pod, csiNode: CSINode | null, newPod: boolean, result: VolumeDrivers): VolumeLookupError | null {
    const volumes = pod.spec.volumes ?? [];
    const namespace = pod.metadata.namespace ?? '';
    for (let i = 0; i < volumes.length; i++) {
      const vol = volumes[i]!;
      let pvcName: string;
      let isEphemeral = false;
      if (vol.persistentVolumeClaim) {
        pvcName = vol.persistentVolumeClaim.claimName;
      } else if (vol.ephemeral) {
        pvcName = ephemeralVolumeClaimName(pod, vol);
        isEphemeral = true;
      } else {
        const e = this.checkAttachableInlineVolume(vol, csiNode, result);
        if (e) return e;
        continue;
      }
      if (!pvcName) return new VolumeLookupError('PersistentVolumeClaim had no name');

      const pvc = this.objects.get<PersistentVolumeClaim>('PersistentVolumeClaim', namespace, pvcName);
      if (!pvc) {
        if (newPod) {
          return new VolumeLookupError(`looking up PVC ${namespace}/${pvcName}: persistentvolumeclaims "${pvcName}" not found`, true);
        }
        continue;
      }
      if (isEphemeral) {
        const e = ephemeralVolumeIsForPod(pod, pvc);
        if (e) return e;
      }
      const info = this.getCSIDriverInfo(csiNode, pvc);
      if (!info || info[0] === '' || info[1] === '') continue;
      result.set(volumeUniqueName(info[0], info[1]), info[0]);
    }
    return null;
  }

  /** Counts an inline in-tree volume whose plugin is migrated on the node. */
  private checkAttachableInlineVolume(vol: Volume, csiNode: CSINode | null, result: VolumeDrivers): VolumeLookupError | null {
    const plugin = pluginForInlineVolume(vol);
    if (!plugin || !isCSIMigrationOn(csiNode, plugin.inTreePluginName) || !plugin.inlineVolumeHandle) return null;
    const handle = plugin.inlineVolumeHandle(vol);
    if (handle instanceof Error) return new VolumeLookupError(`converting volume(${vol.name}) from inline to csi: ${handle.message}`);
    result.set(volumeUniqueName(plugin.csiDriverName, handle), plugin.csiDriverName);
    return null;
  }

  /**
   * The CSI driver and volume handle of a claim: from its bound PV (translated when in-tree and
   * migrated), else from its StorageClass provisioner.
   */
  private getCSIDriverInfo(csiNode: CSINode | null, pvc: PersistentVolumeClaim): [string, string] | null {
    const pvName = pvc.spec?.volumeName ?? '';
    if (pvName === '') return this.getCSIDriverInfoFromSC(csiNode, pvc);
    const pv = this.objects.get<PersistentVolume>('PersistentVolume', '', pvName);
    // The PV may be gone, or the claim pre-bound to a PV not created yet.
    if (!pv) return this.getCSIDriverInfoFromSC(csiNode, pvc);
    const csi = pv.spec?.csi;
    if (csi) return [csi.driver, csi.volumeHandle];
    const plugin = pluginForPV(pv);
    if (!plugin || !isCSIMigrationOn(csiNode, plugin.inTreePluginName) || !plugin.pvVolumeHandle) return null;
    const handle = plugin.pvVolumeHandle(pv);
    if (handle instanceof Error) return null;
    return [plugin.csiDriverName, handle];
  }

  /**
   * An unbound claim counts against its StorageClass's provisioner, with a made-up handle unique
   * to the claim. Without a class the claim binds immediately, so it is bound by now or not ours.
   */
  private getCSIDriverInfoFromSC(csiNode: CSINode | null, pvc: PersistentVolumeClaim): [string, string] | null {
    const scName = getPersistentVolumeClaimClass(pvc);
    if (scName === '') return null;
    const sc = this.objects.get<StorageClass>('StorageClass', '', scName);
    if (!sc) return null;
    const handle = `${this.randomVolumeIDPrefix}-${pvc.metadata?.namespace ?? ''}/${pvc.metadata?.name ?? ''}`;
    const plugin = pluginByInTreeName(sc.provisioner);
    if (plugin) {
      if (!isCSIMigrationOn(csiNode, sc.provisioner)) return null;
      return [plugin.csiDriverName, handle];
    }
    return [sc.provisioner, handle];
  }
}

/** Builds the plugin; the handle's seeded random source makes the unbound-claim prefix. */
export function newCSILimits(_args: unknown, handle: Handle): CSILimits {
  return new CSILimits(handle.objects(), randomString(32, () => handle.random()));
}

/** Queues when the deleted pod was on (or nominated to) a node and used a countable volume. */
export function isSchedulableAfterPodDeleted(_pod: Pod, oldObj: unknown): QueueingHint {
  if (typeof oldObj !== 'object' || oldObj === null) return QueueingHint.Queue;
  const deleted = oldObj as Pod;
  const volumes = deleted.spec?.volumes ?? [];
  if (volumes.length === 0) return QueueingHint.QueueSkip;
  if (!deleted.spec.nodeName && !deleted.status?.nominatedNodeName) return QueueingHint.QueueSkip;
  for (const vol of volumes) if (isCountableVolume(vol)) return QueueingHint.Queue;
  return QueueingHint.QueueSkip;
}

/** Queues when the added PVC is one the pod uses (directly or as its ephemeral volume's claim). */
export function isSchedulableAfterPVCAdded(pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
  if (typeof newObj !== 'object' || newObj === null) return QueueingHint.Queue;
  const added = newObj as PersistentVolumeClaim;
  if ((added.metadata?.namespace ?? '') !== (pod.metadata.namespace ?? '')) return QueueingHint.QueueSkip;
  for (const vol of pod.spec.volumes ?? []) {
    let pvcName: string;
    if (vol.persistentVolumeClaim) pvcName = vol.persistentVolumeClaim.claimName;
    else if (vol.ephemeral) pvcName = ephemeralVolumeClaimName(pod, vol);
    else continue;
    if (pvcName === added.metadata?.name) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}

/**
 * Queues when the pod has a PVC (any detach may free a slot for it) or an inline migratable
 * volume whose CSI driver is the deleted attachment's attacher.
 */
export function isSchedulableAfterVolumeAttachmentDeleted(pod: Pod, oldObj: unknown): QueueingHint {
  if (typeof oldObj !== 'object' || oldObj === null) return QueueingHint.Queue;
  const va = oldObj as VolumeAttachment;
  for (const vol of pod.spec.volumes ?? []) {
    if (vol.persistentVolumeClaim) return QueueingHint.Queue;
    const plugin = pluginForInlineVolume(vol);
    if (!plugin) continue;
    if (plugin.inlineVolumeHandle?.(vol) instanceof Error) return QueueingHint.Queue;
    if (va.spec?.attacher === plugin.csiDriverName) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}

/** Queues when some driver's count limit went up (a driver new to the CSINode counts from 0). */
export function isSchedulableAfterCSINodeUpdated(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  if (typeof oldObj !== 'object' || oldObj === null || typeof newObj !== 'object' || newObj === null) return QueueingHint.Queue;
  const oldLimits = new Map<string, number>();
  for (const d of (oldObj as CSINode).spec?.drivers ?? []) oldLimits.set(d.name, d.allocatable?.count ?? 0);
  for (const d of (newObj as CSINode).spec?.drivers ?? []) {
    if ((d.allocatable?.count ?? 0) > (oldLimits.get(d.name) ?? 0)) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}
