// VolumeBinding checks that a node can serve the pod's PersistentVolumeClaims (bound volumes' node
// affinity, static binding, dynamic provisioning) and binds them before the pod
// (pkg/scheduler/framework/plugins/volumebinding/volume_binding.go).
import { topologySelectorTermsEqual } from '../../api/equality.js';
import type { CSIStorageCapacity, PersistentVolumeClaim, Pod } from '../../api/types.js';
import { buildBrokenLinearFunction, MaxCustomPriorityScore } from '../../framework/helpers/shape_score.js';
import { MaxNodeScore } from '../../framework/interfaces.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, ActionTypeUpdate, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import { quantityValue } from '../../api/quantity.js';
import type {
  EnqueueExtensions,
  FilterPlugin,
  Handle,
  NodeScore,
  PreBindPlugin,
  PreBindPreFlightOutcome,
  PreBindPreFlightResult,
  PreFilterOutcome,
  PreFilterPlugin,
  PreScorePlugin,
  ReservePlugin,
  ScorePlugin,
} from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { VolumeBinding as Name } from '../../framework/names.js';
import type { VolumeBindingArgs } from './args.js';
import { newPVCAssumeCache, PVAssumeCache } from './assume_cache.js';
import {
  ErrReasonBindConflict,
  ErrReasonNodeConflict,
  ErrReasonNotEnoughSpace,
  ErrReasonPVNotExist,
  VolumeBinder,
  claimNameOf,
  ephemeralClaimOwnerError,
  type PodVolumeClaims,
  type PodVolumes,
} from './binder.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { deferredFragment, VolumesSignerName, volumesSigner } from '../../framework/signers.js';

/** A node failing one check (the usual case) gets that check's shared status. */
const singleReasonRejections = new Map(
  [ErrReasonNodeConflict, ErrReasonBindConflict, ErrReasonNotEnoughSpace, ErrReasonPVNotExist].map((r) => [r, Status.constant(Code.UnschedulableAndUnresolvable, Name, r)]),
);

export { Name };

const stateKey = Name;

/** Annotation of CSINode listing the in-tree plugins migrated to CSI on the node. */
const migratedPluginsAnnotation = 'storage.alpha.kubernetes.io/migrated-plugins';

/** PreBind work that may run beside other plugins' (PreBindPreFlightResult{AllowParallel: true}). */
const parallelPreBind: PreBindPreFlightResult = { allowParallel: true };

/**
 * Written by PreFilter and filled by Filter per node; shared (not copied) by clones, as upstream's
 * pointer state is, so Reserve and PreBind see what Filter found.
 */
export class VolumeBindingState implements StateData {
  allBound = false;
  readonly podVolumesByNode = new Map<string, PodVolumes>();
  hasStaticBindings = false;

  constructor(readonly podVolumeClaims: PodVolumeClaims | null) {}

  clone(): StateData {
    return this;
  }

  /** The same claims with no node's volumes found yet: Filter only adds to them. */
  diagnosticClone(): StateData {
    const c = new VolumeBindingState(this.podVolumeClaims);
    c.allBound = this.allBound;
    c.hasStaticBindings = this.hasStaticBindings;
    return c;
  }
}

export class VolumeBinding implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ReservePlugin, PreBindPlugin, EnqueueExtensions, SignPlugin {
  readonly name = Name;

  /** Verdicts follow the pod's volumes (ConfigMaps and Secrets aside). */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [deferredFragment(VolumesSignerName, volumesSigner, pod.pod)];
  }
  readonly binder: VolumeBinder;
  /** The args' shape over utilization in [0, 100], scores scaled to MaxNodeScore (StorageCapacityScoring). */
  private readonly scoreOfUtilization: (utilization: number) => number;

  constructor(
    args: VolumeBindingArgs,
    private readonly handle: Handle,
  ) {
    const objects = handle.objects();
    this.binder = new VolumeBinder(handle, new PVAssumeCache(objects), newPVCAssumeCache(objects), args.bindTimeoutSeconds * 1000);
    const scale = Math.trunc(MaxNodeScore / MaxCustomPriorityScore);
    this.scoreOfUtilization = buildBrokenLinearFunction(args.shape.map((p) => ({ utilization: p.utilization, score: p.score * scale })));
  }

  /** podHasPVCs: whether the pod uses claims, or the error that makes it unschedulable. */
  private podHasPVCs(pod: Pod): boolean | string {
    let hasPVC = false;
    const ns = pod.metadata.namespace ?? '';
    for (const vol of pod.spec.volumes ?? []) {
      const ref = claimNameOf(pod, vol);
      if (ref === null) continue;
      hasPVC = true;
      const pvc = this.handle.objects().get<PersistentVolumeClaim>('PersistentVolumeClaim', ns, ref.name);
      if (pvc === undefined) {
        // Right after a pod is created its ephemeral claim may not exist yet.
        return ref.ephemeral
          ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${ref.name}"`
          : `persistentvolumeclaim "${ref.name}" not found`;
      }
      if (pvc.status?.phase === 'Lost') {
        return `persistentvolumeclaim "${pvc.metadata?.name ?? ''}" bound to non-existent persistentvolume "${pvc.spec?.volumeName ?? ''}"`;
      }
      if (pvc.metadata?.deletionTimestamp) return `persistentvolumeclaim "${pvc.metadata.name ?? ''}" is being deleted`;
      if (ref.ephemeral) {
        const err = ephemeralClaimOwnerError(pod, pvc);
        if (err !== null) return err;
      }
    }
    return hasPVC;
  }

  preFilter(state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    const has = this.podHasPVCs(pod.pod);
    if (typeof has === 'string') return { status: Status.unresolvable(has) };
    if (!has) {
      state.write(stateKey, new VolumeBindingState(null));
      return { status: Status.skip() };
    }
    let claims: PodVolumeClaims;
    try {
      claims = this.binder.getPodVolumeClaims(pod.pod);
    } catch (err) {
      return { status: Status.error(err as Error) };
    }
    // The PV controller binds immediate claims; the pod comes back when it has.
    if (claims.unboundClaimsImmediate.length > 0) return { status: Status.unresolvable('pod has unbound immediate PersistentVolumeClaims') };
    state.write(stateKey, new VolumeBindingState(claims));
    return null;
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const node = nodeInfo.node;
    if (node === null) return Status.error('node not found');
    const s = readState(state);
    if (s instanceof Status) return s;
    if (s.podVolumeClaims === null) return null;
    let found;
    try {
      found = this.binder.findPodVolumes(s.podVolumeClaims, node);
    } catch (err) {
      return Status.error(err as Error);
    }
    if (found.reasons.length === 1) return singleReasonRejections.get(found.reasons[0]!) ?? Status.unresolvable(found.reasons[0]!);
    if (found.reasons.length > 0) return Status.unresolvable(...found.reasons);
    s.podVolumesByNode.set(node.metadata.name ?? '', found.podVolumes);
    s.hasStaticBindings ||= found.podVolumes.staticBindings.length > 0;
    return null;
  }

  /** With StorageCapacityScoring (on since v1.37) every pod is scored; one without claims gets 0. */
  preScore(state: CycleState): Status | null {
    const s = readState(state);
    return s instanceof Status ? s : null;
  }

  /** A pod without claims (most pods) scores 0 on every node. */
  uniformScore(state: CycleState): number | null {
    const s = readState(state);
    return !(s instanceof Status) && s.podVolumeClaims === null ? 0 : null;
  }

  /** All nodes at once: a pod without claims (most pods) scores 0 everywhere without a per-node lookup. */
  scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null {
    const s = readState(state);
    if (s instanceof Status) return s;
    const none = s.podVolumeClaims === null;
    for (let i = 0; i < nodes.length; i++) {
      const score = none ? 0 : this.score(state, pod, nodes[i]!);
      if (score instanceof Status) return score;
      out[i]!.score = score;
    }
    return null;
  }

  /**
   * The utilization of the pod's volumes on the node, per storage class, through the args' shape:
   * the static bindings' claims against their volumes' capacity, else the provisioned claims
   * against the node's CSIStorageCapacity; the classes' scores averaged (rounded).
   */
  score(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    const s = readState(state);
    if (s instanceof Status) return s;
    const podVolumes = s.podVolumesByNode.get(nodeInfo.name);
    // No volume to bind or provision here (all claims bound): nothing to weigh, no map to build.
    if (podVolumes === undefined || (podVolumes.staticBindings.length === 0 && podVolumes.dynamicProvisions.length === 0)) return 0;
    const byClass = new Map<string, { requested: number; capacity: number }>();
    if (podVolumes.staticBindings.length > 0) {
      for (const b of podVolumes.staticBindings) {
        const c = byClass.get(b.pv.spec?.storageClassName ?? '') ?? { requested: 0, capacity: 0 };
        c.requested += quantityValue(b.pvc.spec?.resources?.requests?.storage);
        c.capacity += quantityValue(b.pv.spec?.capacity?.storage);
        byClass.set(b.pv.spec?.storageClassName ?? '', c);
      }
    } else {
      podVolumes.dynamicProvisions.forEach((pvc, i) => {
        const nodeCapacity = podVolumes.nodeCapacities[i];
        if (!nodeCapacity) return;
        const className = pvc.spec?.storageClassName ?? '';
        const c = byClass.get(className) ?? { requested: 0, capacity: 0 };
        // Several claims of a class share one capacity: it is set, not summed.
        c.capacity = quantityValue(nodeCapacity.capacity);
        c.requested += quantityValue(pvc.spec?.resources?.requests?.storage);
        byClass.set(className, c);
      });
    }
    if (byClass.size === 0) return 0;
    let total = 0;
    for (const { requested, capacity } of byClass.values()) {
      total += this.scoreOfUtilization(capacity === 0 || requested > capacity ? 100 : Math.trunc((requested * 100) / capacity));
    }
    return Math.round(total / byClass.size);
  }

  scoreExtensions(): null {
    return null;
  }

  reserve(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const s = readState(state);
    if (s instanceof Status) return s;
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (podVolumes === undefined) {
      // The pod has no claims.
      s.allBound = true;
      return null;
    }
    try {
      s.allBound = this.binder.assumePodVolumes(pod.pod, nodeName, podVolumes);
    } catch (err) {
      return Status.error(err as Error);
    }
    return null;
  }

  unreserve(state: CycleState, _pod: PodInfo, nodeName: string): void {
    const s = state.read<VolumeBindingState>(stateKey);
    const podVolumes = s?.podVolumesByNode.get(nodeName);
    if (podVolumes !== undefined) this.binder.revertAssumedPodVolumes(podVolumes);
  }

  /** Work only when some volume is still to bind; the volumes' binding may run beside other plugins'. */
  preBindPreFlight(state: CycleState, _pod: PodInfo, nodeName: string): PreBindPreFlightOutcome {
    const s = readState(state);
    if (s instanceof Status) return { result: parallelPreBind, status: s };
    if (s.allBound) return { result: parallelPreBind, status: new Status(Code.Skip) };
    if (!s.podVolumesByNode.has(nodeName)) return { result: parallelPreBind, status: Status.error(`no pod volumes found for node "${nodeName}"`) };
    return { result: parallelPreBind, status: null };
  }

  async preBind(state: CycleState, pod: PodInfo, nodeName: string, signal?: AbortSignal): Promise<Status | null> {
    const s = readState(state);
    if (s instanceof Status) return s;
    if (s.allBound) return null;
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (podVolumes === undefined) return Status.error(`no pod volumes found for node "${nodeName}"`);
    try {
      await this.binder.bindPodVolumes(pod.pod, nodeName, podVolumes, signal);
    } catch (err) {
      return Status.error(err as Error);
    }
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    const update = ActionTypeUpdate;
    return [
      // A missing or changed class (allowedTopologies) may let the pod provision.
      { event: { resource: 'StorageClass', actionType: ActionType.Add | update }, queueingHintFn: isSchedulableAfterStorageClassChange },
      { event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | update }, queueingHintFn: isSchedulableAfterPersistentVolumeClaimChange },
      { event: { resource: 'PersistentVolume', actionType: ActionType.Add | update } },
      // With queueing hints on (the default), node taint updates need no registration.
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel } },
      { event: { resource: 'CSINode', actionType: ActionType.Add | update }, queueingHintFn: isSchedulableAfterCSINodeChange },
      { event: { resource: 'CSIDriver', actionType: update }, queueingHintFn: isSchedulableAfterCSIDriverChange },
      { event: { resource: 'CSIStorageCapacity', actionType: ActionType.Add | update }, queueingHintFn: isSchedulableAfterCSIStorageCapacityChange },
    ];
  }
}

function readState(state: CycleState): VolumeBindingState | Status {
  const s = state.read<VolumeBindingState>(stateKey);
  if (s === undefined) return Status.error(`reading "${stateKey}" from cycleState: not found`);
  return s;
}

/** A CSINode added, or its migrated-plugins annotation changed, may change how volumes translate. */
export function isSchedulableAfterCSINodeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('CSINode', oldObj, newObj);
  if (!objects?.oldObj || !objects.newObj) return QueueingHint.Queue;
  const before = objects.oldObj.metadata?.annotations?.[migratedPluginsAnnotation];
  const after = objects.newObj.metadata?.annotations?.[migratedPluginsAnnotation];
  return before !== after ? QueueingHint.Queue : QueueingHint.QueueSkip;
}

/** Only a claim of the pod (same namespace, named by a volume) can help it. */
export function isSchedulableAfterPersistentVolumeClaimChange(pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
  const pvc = eventObjectsAs('PersistentVolumeClaim', null, newObj)?.newObj;
  if (!pvc) return QueueingHint.Queue;
  if ((pod.metadata.namespace ?? '') !== (pvc.metadata?.namespace ?? '')) return QueueingHint.QueueSkip;
  for (const vol of pod.spec.volumes ?? []) {
    const ref = claimNameOf(pod, vol);
    if (ref !== null && ref.name === pvc.metadata?.name) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}

/** Any new class, or a class whose allowedTopologies changed (the binding mode is immutable). */
export function isSchedulableAfterStorageClassChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('StorageClass', oldObj, newObj);
  if (!objects?.oldObj || !objects.newObj) return QueueingHint.Queue;
  return topologySelectorTermsEqual(objects.oldObj.allowedTopologies, objects.newObj.allowedTopologies) ? QueueingHint.QueueSkip : QueueingHint.Queue;
}

/** A new capacity object, or a larger volume limit (maximumVolumeSize, else capacity). */
export function isSchedulableAfterCSIStorageCapacityChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('CSIStorageCapacity', oldObj, newObj);
  if (!objects?.oldObj || !objects.newObj) return QueueingHint.Queue;
  const limit = (c: CSIStorageCapacity) => c.maximumVolumeSize ?? c.capacity;
  const before = limit(objects.oldObj);
  const after = limit(objects.newObj);
  if (after === undefined) return QueueingHint.QueueSkip;
  if (before === undefined) return QueueingHint.Queue;
  try {
    return quantityValue(after) > quantityValue(before) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  } catch {
    return QueueingHint.Queue;
  }
}

/** A CSI driver of one of the pod's inline CSI volumes that stopped tracking storage capacity. */
function isSchedulableAfterCSIDriverChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('CSIDriver', oldObj, newObj);
  if (!objects?.oldObj || !objects.newObj) return QueueingHint.Queue;
  const { oldObj: before, newObj: after } = objects;
  for (const vol of pod.spec.volumes ?? []) {
    if (!vol.csi || vol.csi.driver !== after.metadata?.name) continue;
    if (before.spec?.storageCapacity === true && after.spec?.storageCapacity !== true) return QueueingHint.Queue;
  }
  return QueueingHint.QueueSkip;
}
