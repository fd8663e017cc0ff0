// scheduling.k8s.io/v1beta1 Workload and PodGroup, and v1alpha3's CompositePodGroup, in their JSON
// shape (k8s.io/api/scheduling/v1beta1 and v1alpha3 types.go: v1alpha3's Workload and PodGroup are
// v1beta1's), and the few facts the scheduler derives from them.
import type { Condition } from './dra_types.js';
import type { ObjectMeta, Pod } from './types.js';

export type { Condition };

type PreemptionPolicy = 'PreemptLowerPriority' | 'Never';

/** Exactly one of basic or gang. */
export interface PodGroupSchedulingPolicy {
  basic?: Record<string, never>;
  gang?: { minCount: number };
}

interface TopologyConstraint {
  key: string;
}

export interface PodGroupSchedulingConstraints {
  topology?: TopologyConstraint[];
}

export interface PodGroupResourceClaim {
  name: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

/** Exactly one of single or all. */
export interface DisruptionMode {
  single?: Record<string, never>;
  all?: Record<string, never>;
}

/** What a PodGroupTemplate and a PodGroup's spec both say of the group. */
interface PodGroupFields {
  schedulingPolicy: PodGroupSchedulingPolicy;
  schedulingConstraints?: PodGroupSchedulingConstraints;
  resourceClaims?: PodGroupResourceClaim[];
  disruptionMode?: DisruptionMode;
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: PreemptionPolicy;
}

export interface PodGroupTemplate extends PodGroupFields {
  name: string;
}

/** Exactly one of basic or gang; a composite gang counts child groups, not pods. */
interface CompositePodGroupSchedulingPolicy {
  basic?: Record<string, never>;
  gang?: { minGroupCount: number };
}

/** What a CompositePodGroupTemplate and a CompositePodGroup's spec both say of the group. */
interface CompositePodGroupFields {
  schedulingPolicy: CompositePodGroupSchedulingPolicy;
  schedulingConstraints?: PodGroupSchedulingConstraints;
  disruptionMode?: DisruptionMode;
  priorityClassName?: string;
  priority?: number;
  preemptionPolicy?: PreemptionPolicy;
}

/** A node of a Workload's template tree (CompositePodGroup): its children are groups or composites. */
export interface CompositePodGroupTemplate extends CompositePodGroupFields {
  name: string;
  podGroupTemplates?: PodGroupTemplate[];
  compositePodGroupTemplates?: CompositePodGroupTemplate[];
}

export interface Workload {
  apiVersion?: string;
  kind?: 'Workload';
  metadata: ObjectMeta;
  spec: {
    controllerRef?: { apiGroup?: string; kind: string; name: string };
    /** Exactly one of podGroupTemplates and compositePodGroupTemplates is set. */
    podGroupTemplates?: PodGroupTemplate[];
    compositePodGroupTemplates?: CompositePodGroupTemplate[];
  };
}

interface WorkloadReference {
  workloadName: string;
  templateName: string;
}

interface PodGroupSpec extends PodGroupFields {
  parentCompositePodGroupName?: string;
  workloadRef?: WorkloadReference;
}

export interface PodGroup {
  apiVersion?: string;
  kind?: 'PodGroup';
  metadata: ObjectMeta;
  spec: PodGroupSpec;
  status?: { conditions?: Condition[]; resourceClaimStatuses?: { name: string; resourceClaimName?: string }[] };
}

interface CompositePodGroupSpec extends CompositePodGroupFields {
  parentCompositePodGroupName?: string;
  workloadRef: WorkloadReference;
}

/** scheduling.k8s.io/v1alpha3 CompositePodGroup (CompositePodGroup gate): an inner node of a workload's group tree. */
export interface CompositePodGroup {
  apiVersion?: string;
  kind?: 'CompositePodGroup';
  metadata: ObjectMeta;
  spec: CompositePodGroupSpec;
  status?: { conditions?: Condition[] };
}

/** A group a pod-group cycle schedules: a PodGroup, or a composite of groups (the kind set). */
export type SchedulingGroup = PodGroup | CompositePodGroup;

/** Whether the group is a composite: the scheduler's composite objects always carry their kind. */
export function isCompositePodGroup(g: SchedulingGroup): g is CompositePodGroup {
  return g.kind === 'CompositePodGroup';
}

/** Condition types and reasons of a PodGroup's status. */
export const PodGroupInitiallyScheduled = 'PodGroupInitiallyScheduled';
export const PodGroupReasonUnschedulable = 'Unschedulable';
export const PodGroupReasonSchedulerError = 'SchedulerError';

/** "namespace/name" of a pod group. */
export function podGroupKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The key of the pod group a pod names, or null when it names none. */
export function podGroupKeyOfPod(pod: Pod): string | null {
  const name = pod.spec.schedulingGroup?.podGroupName;
  if (name === undefined || name === '') return null;
  return podGroupKey(pod.metadata.namespace ?? 'default', name);
}

/** A group without a resolved priority counts as 0, as a pod does (util.PodGroupPriority). */
export function podGroupPriority(pg: PodGroup): number {
  return pg.spec.priority ?? 0;
}

/** A composite group's priority, 0 when unresolved (util.CompositePodGroupPriority). */
export function compositePodGroupPriority(cpg: CompositePodGroup): number {
  return cpg.spec.priority ?? 0;
}

/** How many members must be scheduled together: gang.minCount, or 1 for a basic group. */
export function podGroupMinCount(pg: PodGroup): number {
  return pg.spec.schedulingPolicy.gang?.minCount ?? 1;
}
