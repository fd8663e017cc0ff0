// Routes cluster events to the cache and the queue, and tells the queue which cluster event
// happened so it can requeue the pods that event may help (eventhandlers.go).
import type { KubeObject, Node, Pod } from '../api/types.js';
import type { WatchEvent } from '../cluster/types.js';
import { ActionType, ActionTypeUpdate, type ClusterEvent, type EventResource } from '../framework/events.js';
import type { Scheduler } from './scheduler.js';

const listedKinds = new Set(['Namespace', 'Service', 'ReplicaSet', 'StatefulSet', 'ReplicationController',
  'PodDisruptionBudget', 'PriorityClass', 'PersistentVolume', 'PersistentVolumeClaim', 'StorageClass', 'CSINode']);

const resourceOfKind: Record<string, EventResource> = {
  PersistentVolume: 'PersistentVolume',
  PersistentVolumeClaim: 'PersistentVolumeClaim',
  StorageClass: 'StorageClass',
  CSINode: 'CSINode',
  Namespace: 'Namespace',
  Service: 'Service',
  PodDisruptionBudget: 'PodDisruptionBudget',
};

function ev(resource: EventResource, actionType: number, label: string): ClusterEvent {
  return { resource, actionType, label };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Which scheduling-relevant properties of a node changed (nodeSchedulingPropertiesChange). */
export function nodeUpdateEvents(oldNode: Node, newNode: Node): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  if (!!oldNode.spec?.unschedulable !== !!newNode.spec?.unschedulable) out.push(ev('Node', ActionType.UpdateNodeTaint, 'NodeSpecUnschedulableChange'));
  if (!same(oldNode.status?.allocatable, newNode.status?.allocatable)) out.push(ev('Node', ActionType.UpdateNodeAllocatable, 'NodeAllocatableChange'));
  if (!same(oldNode.metadata.labels, newNode.metadata.labels)) out.push(ev('Node', ActionType.UpdateNodeLabel, 'NodeLabelChange'));
  if (!same(oldNode.spec?.taints, newNode.spec?.taints)) out.push(ev('Node', ActionType.UpdateNodeTaint, 'NodeTaintChange'));
  const conds = (n: Node) => (n.status?.conditions ?? []).map((c) => [c.type, c.status]);
  if (!same(conds(oldNode), conds(newNode))) out.push(ev('Node', ActionType.UpdateNodeCondition, 'NodeConditionChange'));
  if (!same(oldNode.metadata.annotations, newNode.metadata.annotations)) out.push(ev('Node', ActionType.UpdateNodeAnnotation, 'NodeAnnotationChange'));
  return out;
}

/** What changed on an assigned pod (podSchedulingPropertiesChange). */
export function assignedPodUpdateEvents(oldPod: Pod, newPod: Pod): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  if (!same(oldPod.metadata.labels, newPod.metadata.labels)) out.push(ev('AssignedPod', ActionType.UpdatePodLabel, 'AssignedPodUpdate'));
  const reqs = (p: Pod) => p.spec.containers.map((c) => c.resources?.requests ?? null);
  if (!same(reqs(oldPod), reqs(newPod))) out.push(ev('AssignedPod', ActionType.UpdatePodScaleDown, 'AssignedPodUpdate'));
  if (out.length === 0) out.push(ev('AssignedPod', ActionType.UpdatePodOther, 'AssignedPodUpdate'));
  return out;
}

export class EventHandlers {
  constructor(private readonly sched: Scheduler) {}

  handle(e: WatchEvent): void {
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
  }

  private onPod(e: WatchEvent): void {
    const pod = e.object as Pod;
    const oldPod = e.oldObject as Pod | undefined;
    const { cache, queue } = this.sched;
    const assigned = !!pod.spec.nodeName;
    if (e.type === 'ADDED') {
      if (assigned) {
        cache.addPod(pod);
        queue.moveAllToActiveOrBackoffQueue(ev('AssignedPod', ActionType.Add, 'AssignedPodAdd'), null, pod);
      } else if (this.sched.responsibleForPod(pod) && !pod.metadata.deletionTimestamp && !isTerminal(pod)) {
        queue.add(pod);
      }
      return;
    }
    if (e.type === 'MODIFIED') {
      const wasAssigned = !!oldPod?.spec.nodeName;
      if (assigned && !wasAssigned) {
        queue.delete(pod);
        cache.addPod(pod);
        queue.moveAllToActiveOrBackoffQueue(ev('AssignedPod', ActionType.Add, 'AssignedPodAdd'), null, pod);
      } else if (assigned) {
        cache.updatePod(oldPod!, pod);
        for (const event of assignedPodUpdateEvents(oldPod!, pod)) queue.moveAllToActiveOrBackoffQueue(event, oldPod, pod);
      } else if (this.sched.responsibleForPod(pod)) {
        if (cache.isAssumedPod(pod)) return;
        if (pod.metadata.deletionTimestamp) {
          queue.delete(pod);
          return;
        }
        queue.update(oldPod!, pod);
      }
      return;
    }
    // DELETED
    if (assigned) {
      cache.removePod(pod);
      queue.moveAllToActiveOrBackoffQueue(ev('AssignedPod', ActionType.Delete, 'AssignedPodDelete'), pod, null);
    } else {
      queue.delete(pod);
      for (const fwk of this.sched.profiles.values()) fwk.rejectWaitingPod(pod.metadata.uid ?? '');
    }
  }

  private onNode(e: WatchEvent): void {
    const node = e.object as Node;
    const { cache, queue } = this.sched;
    if (e.type === 'ADDED') {
      cache.addNode(node);
      queue.moveAllToActiveOrBackoffQueue(ev('Node', ActionType.Add, 'NodeAdd'), null, node);
    } else if (e.type === 'MODIFIED') {
      const oldNode = e.oldObject as Node;
      cache.updateNode(oldNode, node);
      for (const event of nodeUpdateEvents(oldNode, node)) queue.moveAllToActiveOrBackoffQueue(event, oldNode, node);
    } else {
      try {
        cache.removeNode(node);
      } catch (err) {
        this.sched.log(1, (err as Error).message);
      }
    }
  }

  private onOther(e: WatchEvent): void {
    const o = e.object as KubeObject;
    if (!listedKinds.has(o.kind ?? e.kind)) return;
    const obj = { ...o, kind: o.kind ?? e.kind };
    if (e.type === 'DELETED') this.sched.objects.remove(obj);
    else this.sched.objects.upsert(obj);
    const resource = resourceOfKind[obj.kind];
    if (!resource) return;
    const action = e.type === 'ADDED' ? ActionType.Add : e.type === 'DELETED' ? ActionType.Delete : ActionTypeUpdate;
    this.sched.queue.moveAllToActiveOrBackoffQueue(ev(resource, action, `${obj.kind}${e.type === 'ADDED' ? 'Add' : e.type === 'DELETED' ? 'Delete' : 'Update'}`), e.oldObject ?? null, e.type === 'DELETED' ? null : o);
  }
}

function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}
