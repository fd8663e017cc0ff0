// Kubernetes objects in their JSON wire shape. We reuse kubernetes-types and widen the few
// places where newer API fields (pod-level resources) or YAML numbers appear.
import type * as core from 'kubernetes-types/core/v1.js';
import type * as meta from 'kubernetes-types/meta/v1.js';
import type * as policy from 'kubernetes-types/policy/v1.js';
import type * as scheduling from 'kubernetes-types/scheduling/v1.js';
import type * as apps from 'kubernetes-types/apps/v1.js';
import type * as storage from 'kubernetes-types/storage/v1.js';

/** A quantity as it appears in JSON/YAML: "100m", "1Gi", or a bare number. */
export type QuantityValue = string | number;
export type ResourceList = Record<string, QuantityValue>;

export type ObjectMeta = meta.ObjectMeta;

/** A pod's entry in spec.resourceClaims (core/v1 PodResourceClaim since v1.31). */
export interface PodResourceClaim {
  name: string;
  /** Exactly one of the two is set. */
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

/** A pod's entry in status.resourceClaimStatuses: the claim made for a template entry. */
export interface PodResourceClaimStatus {
  name: string;
  resourceClaimName?: string;
}

/** Which request of the extended-resources claim serves a container's extended resource (core/v1 ContainerExtendedResourceRequest). */
export interface ContainerExtendedResourceRequest {
  containerName: string;
  resourceName: string;
  requestName: string;
}

/** The claim the scheduler made for the pod's DRA-backed extended resources (core/v1 PodExtendedResourceClaimStatus). */
export interface PodExtendedResourceClaimStatus {
  requestMappings: ContainerExtendedResourceRequest[];
  resourceClaimName: string;
}

/** A container's use of a pod claim (resources.claims), optionally of one request of it. */
export interface ContainerResourceClaim {
  name: string;
  request?: string;
}

export type LabelSelector = meta.LabelSelector;
export type LabelSelectorRequirement = meta.LabelSelectorRequirement;
export type OwnerReference = meta.OwnerReference;

export interface ResourceRequirements {
  requests?: ResourceList;
  limits?: ResourceList;
  claims?: ContainerResourceClaim[];
}
/** core/v1 ContainerRestartRule (ContainerRestartRules, v1.34+), which kubernetes-types lacks. */
export interface ContainerRestartRule {
  action: string;
  exitCodes?: { operator: string; values?: number[] };
}
/** A volume mount with bindMountOptions (VolumeBindMountOptions, v1.37), which kubernetes-types lacks. */
export type VolumeMount = core.VolumeMount & { bindMountOptions?: string[] };
export type Container = Omit<core.Container, 'resources' | 'volumeMounts'> & {
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  restartPolicyRules?: ContainerRestartRule[];
};
export type PodSpec = Omit<core.PodSpec, 'containers' | 'initContainers' | 'overhead' | 'resourceClaims'> & {
  containers: Container[];
  /** resource.k8s.io/v1 claims (the v1.31+ shape, which kubernetes-types 1.30 lacks). */
  resourceClaims?: PodResourceClaim[];
  initContainers?: Container[];
  overhead?: ResourceList;
  /** Pod-level resources (PodLevelResources feature). */
  resources?: ResourceRequirements;
  /** The pod group the pod belongs to (GenericWorkload; core/v1 PodSchedulingGroup). */
  schedulingGroup?: PodSchedulingGroup;
};
/** core/v1 PodSchedulingGroup: the PodGroup object a pod is a member of. */
export interface PodSchedulingGroup {
  podGroupName?: string;
}
export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}
export type PodStatus = Omit<core.PodStatus, 'resourceClaimStatuses'> & {
  resourceClaimStatuses?: PodResourceClaimStatus[];
  extendedResourceClaimStatus?: PodExtendedResourceClaimStatus;
};
export type NodeStatus = Omit<core.NodeStatus, 'capacity' | 'allocatable'> & {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  /** Features the kubelet declares, sorted (NodeDeclaredFeatures, v1.35+). */
  declaredFeatures?: string[];
};
export interface Node {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: core.NodeSpec;
  status?: NodeStatus;
}
export type Affinity = core.Affinity;
export type NodeAffinity = core.NodeAffinity;
export type NodeSelector = core.NodeSelector;
export type NodeSelectorTerm = core.NodeSelectorTerm;
export type NodeSelectorRequirement = core.NodeSelectorRequirement;
export type PreferredSchedulingTerm = core.PreferredSchedulingTerm;
export type PodAffinityTerm = core.PodAffinityTerm;
export type WeightedPodAffinityTerm = core.WeightedPodAffinityTerm;
export type Taint = core.Taint;
export type Toleration = core.Toleration;
export type TopologySpreadConstraint = core.TopologySpreadConstraint;
export type ContainerPort = core.ContainerPort;
/** With v1.33's observedGeneration (the pod's generation the writer saw), which kubernetes-types lacks. */
export type PodCondition = core.PodCondition & { observedGeneration?: number };
export type ContainerImage = core.ContainerImage;

export type Namespace = core.Namespace;
export type Service = core.Service;
export type ReplicationController = core.ReplicationController;
export type PersistentVolume = core.PersistentVolume;
export type PersistentVolumeClaim = core.PersistentVolumeClaim;
export type ReplicaSet = apps.ReplicaSet;
export type StatefulSet = apps.StatefulSet;
export type PodDisruptionBudget = policy.PodDisruptionBudget;
export type PriorityClass = scheduling.PriorityClass;
export type StorageClass = storage.StorageClass;
export type CSINode = storage.CSINode;
export type VolumeAttachment = storage.VolumeAttachment;
/** kubernetes-types predates spec.preventPodSchedulingIfMissing (VolumeLimitScaling, v1.35+). */
export type CSIDriver = storage.CSIDriver & { spec: storage.CSIDriverSpec & { preventPodSchedulingIfMissing?: boolean } };
export type CSIStorageCapacity = storage.CSIStorageCapacity;

/** Any object with Kubernetes metadata. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export function podKey(pod: { metadata?: ObjectMeta }): string {
  return `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
}
