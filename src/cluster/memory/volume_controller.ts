// A small PV controller for the embedded cluster, standing in for kube-controller-manager's
// persistentvolume controller and a CSI external-provisioner: it completes the bindings the
// scheduler starts (pkg/controller/volume/persistentvolume/pv_controller.go, in outline).
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import type { VersionedEvent } from './versioned_event.js';
import { ApiError } from '../types.js';
import { AnnBindCompleted, AnnBoundByController, AnnDynamicallyProvisioned, AnnSelectedNode, findMatchingVolume, getPersistentVolumeClaimClass, isVolumeBoundToClaim, NotSupportedProvisioner } from '../../api/volumes.js';

const zoneLabel = 'topology.kubernetes.io/zone';
const hostnameLabel = 'kubernetes.io/hostname';

/** The store operations the controller uses (MemoryCluster's). */
export interface VolumeControllerStore {
  list<T extends KubeObject>(kind: string): T[];
  get<T extends KubeObject>(kind: string, namespace: string, name: string): T | undefined;
  create<T extends KubeObject>(obj: T): T;
  update<T extends KubeObject>(obj: T): T;
  subscribe(handler: (e: VersionedEvent) => void): () => void;
}

const watchedKinds = new Set(['PersistentVolume', 'PersistentVolumeClaim', 'StorageClass']);

/**
 * Binds a volume whose claimRef names a pending claim (both become Bound, the claim gets
 * volumeName and bind-completed), and provisions a volume for a claim annotated with the
 * selected node (or of an Immediate class) whose class has a provisioner: capacity as requested,
 * node affinity on the selected node's zone, else its hostname. Runs once per microtask after
 * changes of volumes, claims or classes, so results are deterministic and follow the write.
 */
export class VolumeController {
  private scheduled = false;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly store: VolumeControllerStore) {}

  start(): void {
    if (this.unsubscribe !== null) return;
    this.unsubscribe = this.store.subscribe((e) => {
      if (!watchedKinds.has(e.event.kind) || e.event.type === 'DELETED' || this.scheduled) return;
      this.scheduled = true;
      queueMicrotask(() => {
        this.scheduled = false;
        this.sync();
      });
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /**
   * One pass over the claims: bind what a volume's claimRef or the claim's volumeName names, bind
   * claims that do not wait for a consumer to the best Available volume, provision the rest.
   */
  sync(): void {
    const volumes = this.store.list<PersistentVolume>('PersistentVolume');
    const taken = new Set<string>();
    for (const claim of this.store.list<PersistentVolumeClaim>('PersistentVolumeClaim')) {
      if (isFullyBound(claim) || claim.metadata?.deletionTimestamp) continue;
      try {
        const pv = volumes.find((v) => claimRefNames(v, claim))
          ?? this.staticMatch(claim, volumes, taken)
          ?? (claim.spec?.volumeName ? undefined : this.provision(claim));
        if (pv === undefined) continue;
        taken.add(pv.metadata?.name ?? '');
        this.bind(pv, claim);
      } catch (err) {
        // A write the store refuses (a name taken by a hand-made volume, a stale version) leaves
        // this claim for a later pass, as the real controller retries; the others go on.
        if (!(err instanceof ApiError)) throw err;
      }
    }
  }

  /**
   * What the PV controller binds without the scheduler: the volume the claim names (when no other
   * claim holds it), or for a claim that does not wait for its first consumer the smallest
   * matching Available volume not taken in this pass.
   */
  private staticMatch(claim: PersistentVolumeClaim, volumes: readonly PersistentVolume[], taken: ReadonlySet<string>): PersistentVolume | undefined {
    const named = claim.spec?.volumeName;
    if (named) {
      const pv = volumes.find((v) => v.metadata?.name === named);
      return pv !== undefined && !taken.has(named) && (!pv.spec?.claimRef || isVolumeBoundToClaim(pv, claim)) ? pv : undefined;
    }
    const className = getPersistentVolumeClaimClass(claim);
    const sc = className === '' ? undefined : this.store.get<StorageClass>('StorageClass', '', className);
    if (sc?.volumeBindingMode === 'WaitForFirstConsumer') return undefined;
    try {
      return findMatchingVolume(claim, volumes, null, taken) ?? undefined;
    } catch {
      // A claim whose selector does not parse never matches; the real controller reports it as an event.
      return undefined;
    }
  }

  private provision(claim: PersistentVolumeClaim): PersistentVolume | undefined {
    const className = getPersistentVolumeClaimClass(claim);
    const sc = className === '' ? undefined : this.store.get<StorageClass>('StorageClass', '', className);
    if (!sc?.provisioner || sc.provisioner === NotSupportedProvisioner) return undefined;
    const selected = claim.metadata?.annotations?.[AnnSelectedNode];
    if (selected === undefined && sc.volumeBindingMode === 'WaitForFirstConsumer') return undefined;
    const node = selected === undefined ? undefined : this.store.get<Node>('Node', '', selected);
    if (selected !== undefined && node === undefined) return undefined;
    const labels = node?.metadata.labels ?? {};
    const key = labels[zoneLabel] !== undefined ? zoneLabel : hostnameLabel;
    const value = labels[key] ?? selected;
    const request = claim.spec?.resources?.requests?.['storage'];
    const pv: PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: `pvc-${claim.metadata?.uid ?? claim.metadata?.name ?? ''}`, annotations: { [AnnDynamicallyProvisioned]: sc.provisioner } },
      spec: {
        capacity: { storage: request ?? '0' },
        accessModes: claim.spec?.accessModes ?? [],
        ...(claim.spec?.volumeMode ? { volumeMode: claim.spec.volumeMode } : {}),
        storageClassName: className,
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        claimRef: claimRef(claim),
        csi: { driver: sc.provisioner, volumeHandle: `pvc-${claim.metadata?.uid ?? ''}` },
        ...(value !== undefined
          ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values: [value] }] }] } } }
          : {}),
      },
      status: { phase: 'Pending' },
    };
    return this.store.create(pv);
  }

  private bind(pv: PersistentVolume, claim: PersistentVolumeClaim): void {
    if (pv.status?.phase !== 'Bound' || !pv.spec?.claimRef?.uid) {
      this.store.update<PersistentVolume>({
        ...pv,
        spec: { ...pv.spec, claimRef: claimRef(claim) },
        status: { ...pv.status, phase: 'Bound' },
      });
    }
    const annotations: Record<string, string> = { ...claim.metadata?.annotations, [AnnBindCompleted]: 'yes' };
    if (!claim.spec?.volumeName) annotations[AnnBoundByController] = 'yes';
    this.store.update<PersistentVolumeClaim>({
      ...claim,
      metadata: { ...claim.metadata, annotations },
      spec: { ...claim.spec, volumeName: pv.metadata?.name ?? '' },
      status: { ...claim.status, phase: 'Bound', accessModes: pv.spec?.accessModes ?? [], capacity: pv.spec?.capacity ?? {} },
    });
  }
}

function isFullyBound(claim: PersistentVolumeClaim): boolean {
  return !!claim.spec?.volumeName && Object.prototype.hasOwnProperty.call(claim.metadata?.annotations ?? {}, AnnBindCompleted);
}

/** The volume's claimRef names the claim (and its UID, when the ref has one). */
function claimRefNames(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref || ref.name !== claim.metadata?.name || ref.namespace !== claim.metadata?.namespace) return false;
  if (ref.uid && ref.uid !== claim.metadata?.uid) return false;
  // A claim pre-bound to another volume keeps it.
  return !claim.spec?.volumeName || claim.spec.volumeName === pv.metadata?.name;
}

function claimRef(claim: PersistentVolumeClaim): NonNullable<PersistentVolume['spec']>['claimRef'] {
  return {
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    namespace: claim.metadata?.namespace,
    name: claim.metadata?.name,
    uid: claim.metadata?.uid,
    resourceVersion: claim.metadata?.resourceVersion,
  };
}
