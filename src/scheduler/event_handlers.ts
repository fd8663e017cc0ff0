// Routes cluster events to the cache and the queue, and tells the queue which cluster event
// happened so it can requeue the pods that event may help (eventhandlers.go).
import { kindKey, kindKeyOf, kinds, type KindInfo } from '../api/kinds.js';
import type { CompositePodGroup, PodGroup } from '../api/scheduling.js';
import type { KubeObject, Node, Pod } from '../api/types.js';
import type { Cache } from '../cache/cache.js';
import type { PodGroupStates } from '../cache/pod_group_state.js';
import type { WatchEvent } from '../cluster/types.js';
import { ActionType, ActionTypeUpdate, type ClusterEvent, type EventResource, podSchedulingPropertiesChange } from '../framework/events.js';
import type { MapObjectLister } from '../framework/object_lister.js';
import { thrownMessage } from '../framework/runtime/thrown.js';
import { labelsEqual, resourceListsEqual, stringListsEqual, taintsEqual } from '../api/equality.js';
import type { SchedulingQueue } from '../queue/scheduling_queue.js';

/** What the handlers update: the Scheduler's cache, queue and informer view. */
export interface EventHandlerTarget {
  readonly cache: Cache;
  readonly queue: SchedulingQueue;
  readonly objects: MapObjectLister;
  /** Pod groups and their members, with GenericWorkload on. */
  readonly podGroups?: PodGroupStates | null;
  responsibleForPod(pod: Pod): boolean;
  /** The informer saw the pod assigned to a node, or deleted: settles a binding of it whose answer was lost. */
  podBindingObserved(pod: Pod, deleted: boolean): void;
  /** Rejects the pod if it waits at Permit in any profile; true when it did. */
  rejectWaitingPod(uid: string): boolean;
  log(level: number, msg: string): void;
}

/** The kinds the object lister keeps, and the gate each needs. */
const listedKinds: readonly KindInfo[] = kinds.filter((k: KindInfo) => k.listed === true);

/**
 * The kinds whose changes are cluster events of their own name (pods, nodes and pod groups are
 * routed before), with the label prefix of their events: its own name, or for a custom resource the
 * "plural.version.group" string upstream's scheduler and scheduler-plugins name its events by
 * (ClusterEvent.Label() of EventResource "podgroups.v1alpha1.scheduling.x-k8s.io"), as the event
 * labels of the metrics and logs show it.
 */
const eventLabelPrefix: ReadonlyMap<string, string> = new Map(kinds.filter((k: KindInfo) => k.event === true).map((k: KindInfo) => {
  const slash = k.apiVersion.indexOf('/');
  return [kindKey(k), k.crd === true ? `${k.plural}.${k.apiVersion.slice(slash + 1)}.${k.apiVersion.slice(0, slash)}` : kindKey(k)];
}));

function ev(resource: EventResource, actionType: number, label: string): ClusterEvent {
  return { resource, actionType, label };
}

// The events of every listed node and bound pod, made once (upstream's framework.EventNodeAdd...).
const nodeAdd = ev('Node', ActionType.Add, 'NodeAdd');
const assignedPodAdd = ev('AssignedPod', ActionType.Add, 'AssignedPodAdd');

function conditionStatuses(n: Node): Map<string, string> {
  const m = new Map<string, string>();
  for (const c of n.status?.conditions ?? []) m.set(c.type, c.status);
  return m;
}

/** Which scheduling-relevant properties of a node changed (NodeSchedulingPropertiesChange). */
export function nodeUpdateEvents(oldNode: Node, newNode: Node): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  // Only a node that became schedulable can help a pod (reported as a taint change, as upstream).
  if (!!oldNode.spec?.unschedulable !== !!newNode.spec?.unschedulable && !newNode.spec?.unschedulable) {
    out.push(ev('Node', ActionType.UpdateNodeTaint, 'NodeSpecUnschedulableChange'));
  }
  if (!resourceListsEqual(oldNode.status?.allocatable, newNode.status?.allocatable)) out.push(ev('Node', ActionType.UpdateNodeAllocatable, 'NodeAllocatableChange'));
  if (!labelsEqual(oldNode.metadata.labels, newNode.metadata.labels)) out.push(ev('Node', ActionType.UpdateNodeLabel, 'NodeLabelChange'));
  if (!taintsEqual(oldNode.spec?.taints, newNode.spec?.taints)) out.push(ev('Node', ActionType.UpdateNodeTaint, 'NodeTaintChange'));
  const oldConds = conditionStatuses(oldNode);
  const newConds = conditionStatuses(newNode);
  let condsChanged = oldConds.size !== newConds.size;
  for (const [t, st] of oldConds) if (newConds.get(t) !== st) condsChanged = true;
  if (condsChanged) out.push(ev('Node', ActionType.UpdateNodeCondition, 'NodeConditionChange'));
  if (!labelsEqual(oldNode.metadata.annotations, newNode.metadata.annotations)) out.push(ev('Node', ActionType.UpdateNodeAnnotation, 'NodeAnnotationChange'));
  // NodeDeclaredFeatures is locked on: the kubelet keeps the list sorted, so order counts.
  if (!stringListsEqual(oldNode.status?.declaredFeatures, newNode.status?.declaredFeatures)) {
    out.push(ev('Node', ActionType.UpdateNodeDeclaredFeature, 'NodeDeclaredFeatureChange'));
  }
  return out;
}

export class EventHandlers {
  /** The kinds the scheduler has informers for: scheduler.go watches DeviceTaintRules only with DRADeviceTaintRules on. */
  private readonly kinds: ReadonlySet<string>;

  constructor(
    private readonly sched: EventHandlerTarget,
    deviceTaintRules: boolean,
  ) {
    this.kinds = new Set(listedKinds.filter((k) => deviceTaintRules || k.gate !== 'DRADeviceTaintRules').map((k) => kindKey(k)));
  }

  /** Routes one event; one that fails (a plugin's hint or PreEnqueue throwing) is logged and affects no other. */
  handle(e: WatchEvent): void {
    try {
      switch (e.kind) {
        case 'Pod':
          this.onPod(e);
          return;
        case 'Node':
          this.onNode(e);
          return;
        default:
          this.onOther(e);
      }
    } catch (err) {
      const meta = (e.object as KubeObject).metadata;
      this.sched.log(1, `handling ${e.type} ${e.kind} ${meta?.namespace ? `${meta.namespace}/` : ''}${meta?.name ?? ''}: ${thrownMessage(err)}`);
    }
  }

  private onPod(e: WatchEvent): void {
    const pod = e.object as Pod;
    const oldPod = e.oldObject as Pod | undefined;
    const { cache, queue } = this.sched;
    const assigned = !!pod.spec.nodeName;
    const groups = this.sched.podGroups ?? null;
    // The pod informer's lister (plugins list pods through Handle.objects()); a deletion also ends
    // a wait for this pod's volume bindings.
    if (e.type === 'DELETED') this.sched.objects.remove(pod);
    else this.sched.objects.upsert(pod);
    if (groups !== null) {
      if (e.type === 'DELETED') groups.removePod(pod);
      else groups.upsertPod(pod);
    }
    if (e.type === 'ADDED') {
      if (!assigned && groups !== null && this.sched.responsibleForPod(pod) && !pod.metadata.deletionTimestamp && !isTerminal(pod)) {
        // With GenericWorkload, a new pod may complete a gang waiting for it.
        queue.add(pod);
        queue.moveAllToActiveOrBackoffQueue(ev('UnscheduledPod', ActionType.Add, 'UnscheduledPodAdd'), null, pod);
        return;
      }
      if (assigned) {
        cache.addPod(pod);
        this.sched.podBindingObserved(pod, false);
        queue.moveAllToActiveOrBackoffQueue(assignedPodAdd, null, pod);
      } else if (this.sched.responsibleForPod(pod) && !pod.metadata.deletionTimestamp && !isTerminal(pod)) {
        queue.add(pod);
      }
      return;
    }
    if (e.type === 'MODIFIED') {
      const wasAssigned = !!oldPod?.spec.nodeName;
      if (wasAssigned) {
        cache.updatePod(oldPod!, pod);
        for (const event of podSchedulingPropertiesChange(pod, oldPod!)) queue.moveAllToActiveOrBackoffQueue(event, oldPod, pod);
      } else if (assigned) {
        // The binding arrived: the pod joins the cache and leaves the queue.
        cache.addPod(pod);
        this.sched.podBindingObserved(pod, false);
        queue.moveAllToActiveOrBackoffQueue(assignedPodAdd, null, pod);
        queue.delete(pod);
      } else if (this.sched.responsibleForPod(pod)) {
        // An identical object carries nothing new (a resync).
        if (oldPod && oldPod.metadata.resourceVersion !== undefined && oldPod.metadata.resourceVersion === pod.metadata.resourceVersion) return;
        if (cache.isAssumedPod(pod)) {
          // Its deletion has started: the room it holds is freed now, not at the final delete.
          if (pod.metadata.deletionTimestamp && !oldPod?.metadata.deletionTimestamp) this.assumedPodDeleted(pod);
          return;
        }
        if (pod.metadata.deletionTimestamp) {
          queue.delete(pod);
          return;
        }
        queue.update(oldPod!, pod);
      }
      return;
    }
    this.sched.podBindingObserved(pod, true);
    if (assigned) {
      cache.removePod(pod);
      queue.moveAllToActiveOrBackoffQueue(ev('AssignedPod', ActionType.Delete, 'AssignedPodDelete'), pod, null);
    } else {
      queue.delete(pod);
      // An assumed pod deleted before the informer saw it bound (a relist can skip the binding).
      if (cache.isAssumedPod(pod)) this.assumedPodDeleted(pod);
    }
  }

  /**
   * An assumed pod is going away but still holds its node's room (handleAssumedPodDeletion): a pod
   * waiting at Permit is rejected and frees it itself, any other leaves the cache here. The event
   * carries the cache's copy, which names the node, so hints see where room was freed.
   */
  private assumedPodDeleted(pod: Pod): void {
    const { cache, queue } = this.sched;
    const assumed = cache.getPod(pod) ?? pod;
    if (!this.sched.rejectWaitingPod(pod.metadata.uid ?? '')) cache.removePod(pod);
    queue.moveAllToActiveOrBackoffQueue(ev('AssignedPod', ActionType.Delete, 'AssignedPodDelete'), assumed, null);
  }

  private onPodGroup(e: WatchEvent): void {
    const groups = this.sched.podGroups ?? null;
    if (groups === null) return;
    const pg = e.object as PodGroup;
    const { queue } = this.sched;
    if (e.type === 'DELETED') {
      groups.removePodGroup(pg);
      queue.deletePodGroup(pg);
      return;
    }
    groups.setPodGroup(pg);
    if (e.type === 'ADDED') queue.addPodGroup(pg);
    else queue.updatePodGroup(pg);
    queue.moveAllToActiveOrBackoffQueue(podGroupEvent(e), e.oldObject ?? null, pg);
  }

  /** A CompositePodGroup event (the gate on): the cache's tree, then the queue's, then the members it may free. */
  private onCompositePodGroup(e: WatchEvent): void {
    const groups = this.sched.podGroups ?? null;
    if (groups === null || !groups.compositePodGroupEnabled) return;
    // The cycle tells composites from PodGroups by their kind.
    const cpg: CompositePodGroup = { ...(e.object as CompositePodGroup), kind: 'CompositePodGroup' };
    const { queue } = this.sched;
    const action = e.type === 'ADDED' ? ActionType.Add : e.type === 'DELETED' ? ActionType.Delete : ActionTypeUpdate;
    const event = ev('CompositePodGroup', action, `CompositePodGroup${e.type === 'ADDED' ? 'Add' : e.type === 'DELETED' ? 'Delete' : 'Update'}`);
    if (e.type === 'DELETED') {
      groups.removeCompositePodGroup(cpg);
      queue.deleteCompositePodGroup(cpg);
      queue.moveAllToActiveOrBackoffQueue(event, cpg, null);
      return;
    }
    if (e.type === 'MODIFIED' && (e.oldObject as CompositePodGroup | undefined)?.metadata.resourceVersion === cpg.metadata.resourceVersion && cpg.metadata.resourceVersion !== undefined) return;
    groups.setCompositePodGroup(cpg);
    if (e.type === 'ADDED') queue.addCompositePodGroup(cpg);
    else queue.updateCompositePodGroup(cpg);
    queue.moveAllToActiveOrBackoffQueue(event, e.oldObject ?? null, cpg);
  }

  private onNode(e: WatchEvent): void {
    const node = e.object as Node;
    const { cache, queue } = this.sched;
    if (e.type === 'ADDED') {
      cache.addNode(node);
      queue.moveAllToActiveOrBackoffQueue(nodeAdd, null, node);
    } else if (e.type === 'MODIFIED') {
      const oldNode = e.oldObject as Node;
      cache.updateNode(oldNode, node);
      for (const event of nodeUpdateEvents(oldNode, node)) queue.moveAllToActiveOrBackoffQueue(event, oldNode, node);
    } else {
      queue.moveAllToActiveOrBackoffQueue(ev('Node', ActionType.Delete, 'NodeDelete'), node, null);
      try {
        cache.removeNode(node);
      } catch (err) {
        this.sched.log(1, (err as Error).message);
      }
    }
  }

  private onOther(e: WatchEvent): void {
    const o = e.object as KubeObject;
    // Events carry the kind's key (api/kinds.ts): scheduling.k8s.io's PodGroup is "PodGroup".
    const key = e.kind !== '' ? e.kind : kindKeyOf(o);
    if (key === 'PodGroup') {
      this.onPodGroup(e);
      return;
    }
    if (key === 'CompositePodGroup') {
      this.onCompositePodGroup(e);
      return;
    }
    if (!this.kinds.has(key)) return;
    const obj = o.kind === undefined ? { ...o, kind: e.kind } : o;
    if (e.type === 'DELETED') this.sched.objects.remove(obj);
    else this.sched.objects.upsert(obj);
    if (key === 'DeviceTaintRule') {
      // Upstream's ResourceSlice tracker applies taint rules to the slices and reports the slices
      // as updated; no hint reads those objects, so one slice update stands for them.
      this.sched.queue.moveAllToActiveOrBackoffQueue(ev('ResourceSlice', ActionTypeUpdate, 'ResourceSliceUpdate'), null, null);
      return;
    }
    if (!eventLabelPrefix.has(key)) return;
    const resource = key as EventResource;
    const action = e.type === 'ADDED' ? ActionType.Add : e.type === 'DELETED' ? ActionType.Delete : ActionTypeUpdate;
    const label = `${eventLabelPrefix.get(key)!}${e.type === 'ADDED' ? 'Add' : e.type === 'DELETED' ? 'Delete' : 'Update'}`;
    this.sched.queue.moveAllToActiveOrBackoffQueue(ev(resource, action, label), e.oldObject ?? null, e.type === 'DELETED' ? null : o);
  }
}

/** A PodGroup event (GenericWorkload): the group states, then the queue, then the gated members it may free. */
function podGroupEvent(e: WatchEvent): ClusterEvent {
  const action = e.type === 'ADDED' ? ActionType.Add : e.type === 'DELETED' ? ActionType.Delete : ActionTypeUpdate;
  return ev('PodGroup', action, `PodGroup${e.type === 'ADDED' ? 'Add' : e.type === 'DELETED' ? 'Delete' : 'Update'}`);
}

function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}
