// Resolving a pod's volumes to the CSI volumes NodeVolumeLimits counts, apart from the node: the
// node only decides whether migrated in-tree volumes count (filterAttachableVolumes,
// getCSIDriverInfo and getCSIDriverInfoFromSC of pkg/scheduler/framework/plugins/nodevolumelimits/csi.go).
import type { CSINode, KubeObject, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/types.js';
import { getPersistentVolumeClaimClass } from '../../api/volumes.js';
import type { ListedKind, ObjectLister } from '../../framework/interfaces.js';
import { isCSIMigrationOn, pluginByInTreeName, pluginForInlineVolume, pluginForPV, type Volume } from './translator.js';

/** A failed volume lookup; `notFound` marks a missing PVC of the pod being scheduled. */
export class VolumeLookupError extends Error {
  constructor(
    message: string,
    readonly notFound = false,
  ) {
    super(message);
  }
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

export function volumeUniqueName(driverName: string, volumeHandle: string): string {
  return `${driverName}/${volumeHandle}`;
}

/**
 * The counted volumes (or lookup errors) of a pod in its volume order, as parallel arrays. An
 * entry with an in-tree plugin name counts only on nodes that migrated that plugin; one with ''
 * counts everywhere. An error is the pod's verdict on the nodes where its entry counts.
 */
export class PodVolumes {
  readonly inTreePlugins: string[] = [];
  readonly drivers: string[] = [];
  /** "<driver>/<handle>"; '' for an error. */
  readonly uniqueNames: string[] = [];
  readonly errors: (VolumeLookupError | null)[] = [];

  get length(): number {
    return this.drivers.length;
  }

  countsOn(i: number, csiNode: CSINode | null): boolean {
    const plugin = this.inTreePlugins[i]!;
    return plugin === '' || isCSIMigrationOn(csiNode, plugin);
  }

  push(inTreePlugin: string, driver: string, uniqueName: string, err: VolumeLookupError | null): void {
    this.inTreePlugins.push(inTreePlugin);
    this.drivers.push(driver);
    this.uniqueNames.push(uniqueName);
    this.errors.push(err);
  }
}

/**
 * The objects a resolution read, with what it got (undefined: missing), so a cached result can be
 * checked against the lister. Listed objects are replaced on change, never changed in place, so
 * the same object means the same content.
 */
export class ObjectReads {
  private readonly kinds: ListedKind[] = [];
  private readonly namespaces: string[] = [];
  private readonly names: string[] = [];
  private readonly objects: (KubeObject | undefined)[] = [];

  record(kind: ListedKind, namespace: string, name: string, obj: KubeObject | undefined): void {
    this.kinds.push(kind);
    this.namespaces.push(namespace);
    this.names.push(name);
    this.objects.push(obj);
  }

  /** True while every read object is still the one the lister returns. */
  unchanged(objects: ObjectLister): boolean {
    for (let i = 0; i < this.kinds.length; i++) {
      if (objects.get(this.kinds[i]!, this.namespaces[i]!, this.names[i]!) !== this.objects[i]) return false;
    }
    return true;
  }
}

/** Resolves pods' volumes through the PVC, PV and StorageClass listers. */
export class VolumeResolver {
  /**
   * @param randomVolumeIDPrefix keeps the made-up handles of unbound claims from colliding with
   *   real volume handles; fixed for the plugin's life, so resolutions can be cached.
   */
  constructor(
    private readonly objects: ObjectLister,
    private readonly randomVolumeIDPrefix: string,
  ) {}

  /**
   * Appends the pod's countable volumes to `out`, recording lookups in `reads` when given. A
   * missing PVC fails the pod being scheduled (`newPod`) but is skipped for pods already on a node;
   * an error that counts on every node ends the resolution, as it ends upstream's loop.
   */
  resolve(pod: Pod, newPod: boolean, out: PodVolumes, reads: ObjectReads | null): void {
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
        resolveInlineVolume(vol, out);
        continue;
      }
      if (!pvcName) {
        out.push('', '', '', new VolumeLookupError('PersistentVolumeClaim had no name'));
        return;
      }
      const pvc = this.get<PersistentVolumeClaim>(reads, 'PersistentVolumeClaim', namespace, pvcName);
      if (!pvc) {
        if (!newPod) continue;
        out.push('', '', '', new VolumeLookupError(`looking up PVC ${namespace}/${pvcName}: persistentvolumeclaims "${pvcName}" not found`, true));
        return;
      }
      if (isEphemeral) {
        const e = ephemeralVolumeIsForPod(pod, pvc);
        if (e) {
          out.push('', '', '', e);
          return;
        }
      }
      this.resolveClaim(pvc, out, reads);
    }
  }

  private get<T extends KubeObject>(reads: ObjectReads | null, kind: ListedKind, namespace: string, name: string): T | undefined {
    const obj = this.objects.get<T>(kind, namespace, name);
    reads?.record(kind, namespace, name, obj);
    return obj;
  }

  /**
   * The CSI driver and volume handle of a claim (getCSIDriverInfo): from its bound PV (translated
   * when in-tree and migrated), else from its StorageClass provisioner.
   */
  private resolveClaim(pvc: PersistentVolumeClaim, out: PodVolumes, reads: ObjectReads | null): void {
    const pvName = pvc.spec?.volumeName ?? '';
    // The PV may be gone, or the claim pre-bound to a PV not created yet.
    const pv = pvName === '' ? undefined : this.get<PersistentVolume>(reads, 'PersistentVolume', '', pvName);
    if (!pv) {
      this.resolveUnboundClaim(pvc, out, reads);
      return;
    }
    const csi = pv.spec?.csi;
    if (csi) {
      pushCounted(out, '', csi.driver, csi.volumeHandle);
      return;
    }
    const plugin = pluginForPV(pv);
    if (!plugin?.pvVolumeHandle) return;
    const handle = plugin.pvVolumeHandle(pv);
    if (handle instanceof Error) return;
    pushCounted(out, plugin.inTreePluginName, plugin.csiDriverName, handle);
  }

  /**
   * An unbound claim counts against its StorageClass's provisioner, with a made-up handle unique
   * to the claim (getCSIDriverInfoFromSC). Without a class the claim binds immediately, so it is
   * bound by now or not ours.
   */
  private resolveUnboundClaim(pvc: PersistentVolumeClaim, out: PodVolumes, reads: ObjectReads | null): void {
    const scName = getPersistentVolumeClaimClass(pvc);
    if (scName === '') return;
    const sc = this.get<StorageClass>(reads, 'StorageClass', '', scName);
    if (!sc) return;
    const handle = `${this.randomVolumeIDPrefix}-${pvc.metadata?.namespace ?? ''}/${pvc.metadata?.name ?? ''}`;
    const plugin = pluginByInTreeName(sc.provisioner);
    if (plugin) pushCounted(out, sc.provisioner, plugin.csiDriverName, handle);
    else pushCounted(out, '', sc.provisioner, handle);
  }
}

/** Upstream skips a claim whose driver or handle is empty. */
function pushCounted(out: PodVolumes, inTreePlugin: string, driver: string, handle: string): void {
  if (driver === '' || handle === '') return;
  out.push(inTreePlugin, driver, volumeUniqueName(driver, handle), null);
}

/** An inline in-tree volume counts where its plugin is migrated (checkAttachableInlineVolume). */
function resolveInlineVolume(vol: Volume, out: PodVolumes): void {
  const plugin = pluginForInlineVolume(vol);
  if (!plugin?.inlineVolumeHandle) return;
  const handle = plugin.inlineVolumeHandle(vol);
  if (handle instanceof Error) {
    out.push(plugin.inTreePluginName, '', '', new VolumeLookupError(`converting volume(${vol.name}) from inline to csi: ${handle.message}`));
    return;
  }
  out.push(plugin.inTreePluginName, plugin.csiDriverName, volumeUniqueName(plugin.csiDriverName, handle), null);
}

/** A volume the plugin may count: a PVC, a generic ephemeral volume or a migratable in-tree volume. */
export function isCountableVolume(vol: Volume): boolean {
  return !!vol.persistentVolumeClaim || !!vol.ephemeral || pluginForInlineVolume(vol) !== undefined;
}
