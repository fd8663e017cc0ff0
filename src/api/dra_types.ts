// Dynamic Resource Allocation objects (resource.k8s.io/v1) in their JSON wire shape, as in
// staging/src/k8s.io/api/resource/v1/types.go of the pinned release. kubernetes-types stops at
// v1alpha2, whose shapes differ, so these are written out here.
import type { NodeSelector, ObjectMeta, QuantityValue } from './types.js';

export const ResourceGroup = 'resource.k8s.io';
export const ResourceAPIVersion = 'resource.k8s.io/v1';

/** A name of the form `[domain/]name` (attribute and capacity keys). */
export type QualifiedName = string;
/** A name of the form `domain/name` (constraints' attributes). */
export type FullyQualifiedName = string;

export interface ResourcePool {
  name: string;
  generation: number;
  resourceSliceCount: number;
}

export interface Counter {
  value: QuantityValue;
}

export interface CounterSet {
  name: string;
  counters?: Record<string, Counter>;
}

export interface DeviceCounterConsumption {
  counterSet: string;
  counters?: Record<string, Counter>;
  compatibilityGroups?: string[];
}

/** Exactly one of the fields is set. */
export interface DeviceAttribute {
  int?: number;
  bool?: boolean;
  string?: string;
  version?: string;
  ints?: number[];
  bools?: boolean[];
  strings?: string[];
  versions?: string[];
}

export interface CapacityRequestPolicyRange {
  min?: QuantityValue;
  max?: QuantityValue;
  step?: QuantityValue;
}

export interface CapacityRequestPolicy {
  default?: QuantityValue;
  validValues?: QuantityValue[];
  validRange?: CapacityRequestPolicyRange;
}

export interface DeviceCapacity {
  value: QuantityValue;
  requestPolicy?: CapacityRequestPolicy;
}

export type DeviceTaintEffect = 'NoSchedule' | 'NoExecute' | 'None';

export interface DeviceTaint {
  key: string;
  value?: string;
  effect: DeviceTaintEffect;
  timeAdded?: string;
}

export interface NodeAllocatableMapping {
  capacityKey?: QualifiedName;
  capacityMultiplier?: QuantityValue;
  deviceMultiplier?: QuantityValue;
}

export interface NodeAllocatableOverhead {
  perPod?: QuantityValue;
  perContainer?: QuantityValue;
}

export interface NodeAllocatableResource {
  mapping?: NodeAllocatableMapping;
  overhead?: NodeAllocatableOverhead;
}

export interface Device {
  name: string;
  attributes?: Record<QualifiedName, DeviceAttribute>;
  capacity?: Record<QualifiedName, DeviceCapacity>;
  consumesCounters?: DeviceCounterConsumption[];
  nodeName?: string;
  nodeSelector?: NodeSelector;
  allNodes?: boolean;
  taints?: DeviceTaint[];
  bindsToNode?: boolean;
  bindingConditions?: string[];
  bindingFailureConditions?: string[];
  allowMultipleAllocations?: boolean;
  nodeAllocatableResources?: Record<string, NodeAllocatableResource>;
}

export interface ResourceSliceSpec {
  driver: string;
  pool: ResourcePool;
  /** Exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection. */
  nodeName?: string;
  nodeSelector?: NodeSelector;
  allNodes?: boolean;
  perDeviceNodeSelection?: boolean;
  devices?: Device[];
  sharedCounters?: CounterSet[];
  partitionTypeAttribute?: FullyQualifiedName;
  skipNodeOperations?: string[];
}

export interface ResourceSlice {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ResourceSliceSpec;
}

export interface CELDeviceSelector {
  expression: string;
}

export interface DeviceSelector {
  cel?: CELDeviceSelector;
}

export type DeviceAllocationMode = 'ExactCount' | 'All';
export type DeviceTolerationOperator = 'Exists' | 'Equal';

export interface DeviceToleration {
  key?: string;
  operator?: DeviceTolerationOperator;
  value?: string;
  effect?: DeviceTaintEffect;
  tolerationSeconds?: number;
}

export interface CapacityRequirements {
  requests?: Record<QualifiedName, QuantityValue>;
}

export interface DeviceDerivedAttribute {
  name: FullyQualifiedName;
  expression: string;
}

export interface ExactDeviceRequest {
  deviceClassName: string;
  selectors?: DeviceSelector[];
  allocationMode?: DeviceAllocationMode;
  count?: number;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
  capacity?: CapacityRequirements;
  derivedAttributes?: DeviceDerivedAttribute[];
}

export interface DeviceSubRequest {
  name: string;
  deviceClassName: string;
  selectors?: DeviceSelector[];
  allocationMode?: DeviceAllocationMode;
  count?: number;
  tolerations?: DeviceToleration[];
  capacity?: CapacityRequirements;
  derivedAttributes?: DeviceDerivedAttribute[];
}

/** Exactly one of `exactly` and `firstAvailable` is set. */
export interface DeviceRequest {
  name: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: DeviceSubRequest[];
}

export interface DeviceConstraint {
  requests?: string[];
  matchAttribute?: FullyQualifiedName;
  distinctAttribute?: FullyQualifiedName;
}

export interface OpaqueDeviceConfiguration {
  driver: string;
  parameters: unknown;
}

export interface DeviceConfiguration {
  opaque?: OpaqueDeviceConfiguration;
}

export interface DeviceClaimConfiguration extends DeviceConfiguration {
  requests?: string[];
}

export interface DeviceClaim {
  requests?: DeviceRequest[];
  constraints?: DeviceConstraint[];
  config?: DeviceClaimConfiguration[];
}

export interface ResourceClaimSpec {
  devices?: DeviceClaim;
}

export interface ResourceClaimConsumerReference {
  apiGroup?: string;
  resource: string;
  name: string;
  uid: string;
}

export interface DeviceRequestAllocationResult {
  request: string;
  driver: string;
  pool: string;
  device: string;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
  bindingConditions?: string[];
  bindingFailureConditions?: string[];
  shareID?: string;
  consumedCapacity?: Record<QualifiedName, QuantityValue>;
  skipNodeOperations?: string[];
}

export type AllocationConfigSource = 'FromClass' | 'FromClaim';

export interface DeviceAllocationConfiguration extends DeviceConfiguration {
  source: AllocationConfigSource;
  requests?: string[];
}

export interface DeviceAllocationResult {
  results?: DeviceRequestAllocationResult[];
  config?: DeviceAllocationConfiguration[];
}

export interface AllocationResult {
  devices?: DeviceAllocationResult;
  nodeSelector?: NodeSelector;
  allocationTimestamp?: string;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface NetworkDeviceData {
  interfaceName?: string;
  ips?: string[];
  hardwareAddress?: string;
}

export interface AllocatedDeviceStatus {
  driver: string;
  pool: string;
  device: string;
  shareID?: string;
  conditions?: Condition[];
  data?: unknown;
  networkData?: NetworkDeviceData;
}

export interface ResourceClaimStatus {
  allocation?: AllocationResult;
  reservedFor?: ResourceClaimConsumerReference[];
  devices?: AllocatedDeviceStatus[];
}

export interface ResourceClaim {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ResourceClaimSpec;
  status?: ResourceClaimStatus;
}

export interface ResourceClaimTemplateSpec {
  metadata?: ObjectMeta;
  spec: ResourceClaimSpec;
}

export interface ResourceClaimTemplate {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: ResourceClaimTemplateSpec;
}

export type DeviceClassConfiguration = DeviceConfiguration;

export interface DeviceClassSpec {
  selectors?: DeviceSelector[];
  config?: DeviceClassConfiguration[];
  extendedResourceName?: string;
}

export interface DeviceClass {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: DeviceClassSpec;
}

export interface DeviceTaintSelector {
  driver?: string;
  pool?: string;
  device?: string;
}

export interface DeviceTaintRuleSpec {
  deviceSelector?: DeviceTaintSelector;
  taint: DeviceTaint;
}

export interface DeviceTaintRule {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: DeviceTaintRuleSpec;
  status?: { conditions?: Condition[] };
}

// The pod-side shapes live in types.ts (Pod uses them); they are named here too for DRA code.
export type { ContainerResourceClaim, PodResourceClaim, PodResourceClaimStatus } from './types.js';
