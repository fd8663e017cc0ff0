// scheduler-plugins' apis/scheduling/v1alpha1 PodGroup (types.go), as Coscheduling reads it.
import type { CoschedulingStatus } from '../../cluster/memory/controllers/podgroup.js';
import type { ObjectMeta, Pod, ResourceList } from '../../plugin.js';

/** The API group and version of scheduler-plugins' PodGroup CRD. */
export const PodGroupAPIVersion = 'scheduling.x-k8s.io/v1alpha1';
/** The pod label that names a pod's PodGroup (in the pod's namespace). */
export const PodGroupLabel = 'scheduling.x-k8s.io/pod-group';
/** The wait in Permit when neither the PodGroup nor the args give one (util.DefaultWaitTime). */
export const DefaultWaitTimeMs = 60_000;

// The status, as the embedded cluster's stand-in for the PodGroup controller writes it.
export type { PodGroupPhase, CoschedulingStatus as PodGroupStatus } from '../../cluster/memory/controllers/podgroup.js';

export interface PodGroupSpec {
  /** Pods that must be schedulable together for any of them to bind. */
  minMember?: number;
  /** Resources the cluster must have free for the whole group before its pods are tried. */
  minResources?: ResourceList;
  /** Overrides the plugin's permitWaitingTimeSeconds for this group. */
  scheduleTimeoutSeconds?: number;
}

/** scheduling.x-k8s.io/v1alpha1 PodGroup. */
export interface CoschedulingPodGroup {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodGroupSpec;
  status?: CoschedulingStatus;
}

/** The group name a pod's label gives, or '' (util.GetPodGroupLabel). */
export function podGroupLabel(pod: Pod): string {
  return pod.metadata.labels?.[PodGroupLabel] ?? '';
}

/** "namespace/group" for a labelled pod, '' otherwise (util.GetPodGroupFullName). */
export function podGroupFullName(pod: Pod): string {
  const name = podGroupLabel(pod);
  return name === '' ? '' : `${pod.metadata.namespace ?? 'default'}/${name}`;
}

/**
 * The group's Permit wait: its scheduleTimeoutSeconds when set (0 included: Permit then keeps the
 * args' wait), else the args', else 60 s (util.GetWaitTimeDuration).
 */
export function waitTimeMs(pg: CoschedulingPodGroup | undefined, argsTimeoutMs: number): number {
  const own = pg?.spec.scheduleTimeoutSeconds;
  if (own !== undefined) return own * 1000;
  return argsTimeoutMs !== 0 ? argsTimeoutMs : DefaultWaitTimeMs;
}
