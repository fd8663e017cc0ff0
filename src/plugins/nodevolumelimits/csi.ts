// NodeVolumeLimits (CSILimits) filters nodes where the pod's CSI volumes would exceed a driver's
// attach limit from CSINode spec.drivers[].allocatable.count
// (pkg/scheduler/framework/plugins/nodevolumelimits/csi.go).
import type { CSIDriver, CSINode, PersistentVolume, Pod, VolumeAttachment } from '../../api/types.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { defaultFeatures, type Features } from '../../framework/features.js';
import { ActionType, ActionTypeUpdate, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, FilterPlugin, Handle, ObjectLister, PreFilterOutcome, PreFilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { NodeVolumeLimits as Name } from '../../framework/names.js';
import { NodeVolumesCache, ObjectChanges, type NodeVolumes } from './node_volumes.js';
import { PodVolumes, VolumeResolver, ephemeralVolumeClaimName, isCountableVolume, volumeUniqueName } from './resolve.js';
import { pluginForInlineVolume } from './translator.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { deferredFragment, VolumesSignerName, volumesSigner } from '../../framework/signers.js';

export { Name };

export const ErrReasonMaxVolumeCountExceeded = 'node(s) exceed max volume count';
const maxVolumeCountExceeded = Status.constant(Code.Unschedulable, Name, ErrReasonMaxVolumeCountExceeded);

const preFilterStateKey = 'PreFilter' + Name;

/** Volume unique name ("<driver>/<handle>") to CSI driver name. */
type VolumeDrivers = Map<string, string>;

/**
 * The volumes of the pod being scheduled, resolved once, with each volume's driver as an index
 * into `drivers` and the next volume of the same unique name: Filter counts them per node without
 * allocating.
 */
class IncomingVolumes {
  readonly drivers: string[] = [];
  readonly driverIndex: Int32Array;
  /** The next volume with the same unique name (-1: none): only the last one that counts on a node counts. */
  readonly nextSame: Int32Array;
  readonly hasErrors: boolean;
  /** Filter's scratch: the node's new volumes per driver (Filter calls never overlap). */
  readonly newCount: Int32Array;

  constructor(
    readonly pod: Pod,
    readonly volumes: PodVolumes,
  ) {
    const n = volumes.length;
    this.driverIndex = new Int32Array(n);
    this.nextSame = new Int32Array(n).fill(-1);
    let hasErrors = false;
    const later = new Map<string, number>();
    for (let i = n - 1; i >= 0; i--) {
      if (volumes.errors[i]) {
        hasErrors = true;
        continue;
      }
      const unique = volumes.uniqueNames[i]!;
      this.nextSame[i] = later.get(unique) ?? -1;
      later.set(unique, i);
    }
    for (let i = 0; i < n; i++) {
      if (volumes.errors[i]) continue;
      let d = this.drivers.indexOf(volumes.drivers[i]!);
      if (d < 0) d = this.drivers.push(volumes.drivers[i]!) - 1;
      this.driverIndex[i] = d;
    }
    this.hasErrors = hasErrors;
    this.newCount = new Int32Array(this.drivers.length);
  }

  /** Whether volume `i` counts on the node and no later volume with its unique name does. */
  countsOn(i: number, csiNode: CSINode | null): boolean {
    if (this.volumes.errors[i] || !this.volumes.countsOn(i, csiNode)) return false;
    for (let j = this.nextSame[i]!; j >= 0; j = this.nextSame[j]!) if (this.volumes.countsOn(j, csiNode)) return false;
    return true;
  }
}

/** The pod's resolved volumes and the VolumeAttachments of each node, computed once per cycle. */
class PreFilterState implements StateData {
  constructor(
    readonly incoming: IncomingVolumes,
    readonly attachedByNode: ReadonlyMap<string, VolumeDrivers>,
  ) {}

  clone(): StateData {
    return this;
  }
}

/** Characters of apimachinery's rand.String. */
const randAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

function randomString(n: number, random: () => number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += randAlphabet[Math.floor(random() * randAlphabet.length)];
  return s;
}

export class CSILimits implements PreFilterPlugin, FilterPlugin, EnqueueExtensions, SignPlugin {
  readonly name = Name;

  /** Verdicts follow the pod's volumes (ConfigMaps and Secrets aside). */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [deferredFragment(VolumesSignerName, volumesSigner, pod.pod)];
  }
  private readonly resolver: VolumeResolver;
  private readonly changes: ObjectChanges;
  /** The existing pods' volumes per node, reused while the node's pods and the objects read stay. */
  private readonly nodes: NodeVolumesCache;
  private attachedByNode: Map<string, VolumeDrivers> | null = null;
  private attachedByNodeAt = 0;

  /**
   * @param randomVolumeIDPrefix keeps the made-up handles of unbound claims from colliding with
   *   real volume handles.
   */
  constructor(
    private readonly objects: ObjectLister,
    randomVolumeIDPrefix: string,
    private readonly features: Pick<Features, 'enableVolumeLimitScaling'> = defaultFeatures,
  ) {
    this.resolver = new VolumeResolver(objects, randomVolumeIDPrefix);
    this.changes = new ObjectChanges(objects);
    this.nodes = new NodeVolumesCache(objects, this.resolver, this.changes);
  }

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
        state.write(preFilterStateKey, new PreFilterState(this.resolveIncoming(pod.pod), this.attachmentsByNode()));
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
    const s = state.read<PreFilterState>(preFilterStateKey);
    const incoming = s !== undefined && s.incoming.pod === pod ? s.incoming : this.resolveIncoming(pod);
    const node = this.nodes.get(nodeInfo);
    const csiNode = node.csiNode;
    const volumes = incoming.volumes;

    if (incoming.hasErrors) {
      for (let i = 0; i < volumes.length; i++) {
        const err = volumes.errors[i];
        if (err && volumes.countsOn(i, csiNode)) return err.notFound ? Status.unresolvable(err.message) : Status.error(err);
      }
    }
    // New volumes per driver; one shared with a pod already on the node takes no new slot.
    const newCount = incoming.newCount;
    newCount.fill(0);
    let anyNew = false;
    for (let i = 0; i < volumes.length; i++) {
      if (!incoming.countsOn(i, csiNode)) continue;
      anyNew = true;
      if (!node.attached.has(volumes.uniqueNames[i]!)) newCount[incoming.driverIndex[i]!]!++;
    }
    if (!anyNew) return null;
    if (this.features.enableVolumeLimitScaling) {
      const missing = this.missingDriver(incoming, csiNode);
      if (missing !== null) return Status.unschedulable(`${missing} CSI driver is not installed on the node`);
    }
    if (node.limits.size === 0) return null;
    if (node.error) return Status.error(node.error);

    const attachments = (s?.attachedByNode ?? this.attachmentsByNode()).get(nodeInfo.name);
    for (let d = 0; d < newCount.length; d++) {
      const count = newCount[d]!;
      if (count === 0) continue;
      const driver = incoming.drivers[d]!;
      const max = node.limits.get(driver);
      if (max === undefined) continue;
      const attachedCount = (node.attachedCount.get(driver) ?? 0) + (attachments ? detachingCount(attachments, node, driver) : 0);
      if (attachedCount + count > max) return maxVolumeCountExceeded;
    }
    return null;
  }

  /**
   * The first driver of the pod's volumes on this node whose CSIDriver asks for pods to wait until
   * the node's CSINode lists it (spec.preventPodSchedulingIfMissing, VolumeLimitScaling), if the
   * node does not list it (checkCSIDriverOnNode); null when none. A driver without a CSIDriver
   * object may not be a CSI driver at all, so it is let through.
   */
  private missingDriver(incoming: IncomingVolumes, csiNode: CSINode | null): string | null {
    const volumes = incoming.volumes;
    for (let i = 0; i < volumes.length; i++) {
      if (!incoming.countsOn(i, csiNode)) continue;
      const driver = incoming.drivers[incoming.driverIndex[i]!]!;
      if (this.objects.get<CSIDriver>('CSIDriver', '', driver)?.spec?.preventPodSchedulingIfMissing !== true) continue;
      if (!csiNode?.spec.drivers?.some((d) => d.name === driver)) return driver;
    }
    return null;
  }

  private resolveIncoming(pod: Pod): IncomingVolumes {
    const volumes = new PodVolumes();
    this.resolver.resolve(pod, true, volumes, null);
    return new IncomingVolumes(pod, volumes);
  }

  /**
   * VolumeAttachments by node, as unique volume names (getNodeVolumeAttachmentInfo), rebuilt when
   * the listed objects changed. Only attachments with an attacher and a PV that is a CSI volume count.
   */
  private attachmentsByNode(): Map<string, VolumeDrivers> {
    if (this.attachedByNode !== null && this.changes.unchangedSince(this.attachedByNodeAt)) return this.attachedByNode;
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
    this.attachedByNode = byNode;
    this.attachedByNodeAt = this.changes.count;
    return byNode;
  }
}

/** Attachments of `driver` still on the node (e.g. of deleted pods being detached) that no pod there uses: they hold slots too. */
function detachingCount(attachments: VolumeDrivers, node: NodeVolumes, driver: string): number {
  let n = 0;
  for (const [unique, d] of attachments) if (d === driver && !node.attached.has(unique)) n++;
  return n;
}

/** Builds the plugin; the handle's seeded random source makes the unbound-claim prefix. */
export function newCSILimits(_args: unknown, handle: Handle, features: Features): CSILimits {
  return new CSILimits(handle.objects(), randomString(32, () => handle.random()), features);
}

/** Queues when the deleted pod was on (or nominated to) a node and used a countable volume. */
export function isSchedulableAfterPodDeleted(_pod: Pod, oldObj: unknown): QueueingHint {
  const deleted = eventObjectsAs('Pod', oldObj, null)?.oldObj;
  if (!deleted) return QueueingHint.Queue;
  const volumes = deleted.spec?.volumes ?? [];
  if (volumes.length === 0) return QueueingHint.QueueSkip;
  if (!deleted.spec.nodeName && !deleted.status?.nominatedNodeName) return QueueingHint.QueueSkip;
  for (const vol of volumes) if (isCountableVolume(vol)) return QueueingHint.Queue;
  return QueueingHint.QueueSkip;
}

/** Queues when the added PVC is one the pod uses (directly or as its ephemeral volume's claim). */
export function isSchedulableAfterPVCAdded(pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
  const added = eventObjectsAs('PersistentVolumeClaim', null, newObj)?.newObj;
  if (!added) return QueueingHint.Queue;
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
  const va = eventObjectsAs('VolumeAttachment', oldObj, null)?.oldObj;
  if (!va) return QueueingHint.Queue;
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
  const objects = eventObjectsAs('CSINode', oldObj, newObj);
  if (!objects?.oldObj || !objects.newObj) return QueueingHint.Queue;
  const oldLimits = new Map<string, number>();
  for (const d of objects.oldObj.spec?.drivers ?? []) oldLimits.set(d.name, d.allocatable?.count ?? 0);
  for (const d of objects.newObj.spec?.drivers ?? []) {
    if ((d.allocatable?.count ?? 0) > (oldLimits.get(d.name) ?? 0)) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}
