// The feature gate values plugins receive (framework/plugins/feature/feature.go Features): a
// plain object, so plugins depend on neither the gate table nor the flag.

export interface Features {
  readonly enableDRAExtendedResource: boolean;
  readonly enableDRAPrioritizedList: boolean;
  readonly enableDRAAdminAccess: boolean;
  readonly enableDRAConsumableCapacity: boolean;
  readonly enableDRADeviceCompatibilityGroups: boolean;
  readonly enableDRAFractionalCapacityRange: boolean;
  readonly enableDRADerivedAttributes: boolean;
  readonly enableDRADeviceTaints: boolean;
  /** Not in upstream's Features: scheduler.go reads it to build the ResourceSlice tracker. */
  readonly enableDRADeviceTaintRules: boolean;
  readonly enableDRADeviceBindingConditions: boolean;
  readonly enableDRAListTypeAttributes: boolean;
  readonly enableDRANodeAllocatableResources: boolean;
  readonly enableDRAOptionalNodeOperations: boolean;
  readonly enableDRAPartitionableDevices: boolean;
  readonly enableDRAResourceClaimDeviceStatus: boolean;
  readonly enableDRASchedulerFilterTimeout: boolean;
  readonly enableDRAWorkloadResourceClaims: boolean;
  readonly enableDynamicResourceAllocation: boolean;
  readonly enableVolumeAttributesClass: boolean;
  readonly enableVolumeLimitScaling: boolean;
  readonly enableNodeInclusionPolicyInPodTopologySpread: boolean;
  readonly enableMatchLabelKeysInPodTopologySpread: boolean;
  readonly enableInPlacePodVerticalScaling: boolean;
  readonly enableAsyncPreemption: boolean;
  readonly enablePodLevelResources: boolean;
  readonly enableStorageCapacityScoring: boolean;
  readonly enableNodeDeclaredFeatures: boolean;
  readonly enableGenericWorkload: boolean;
  readonly enableTaintTolerationComparisonOperators: boolean;
  readonly enableInPlacePodLevelResourcesVerticalScaling: boolean;
  readonly enableInPlacePodVerticalScalingSchedulerPreemption: boolean;
  readonly enableTopologyAwareWorkloadScheduling: boolean;
  readonly enableInterPodAffinityHostnameFastPath: boolean;
  readonly enablePodGroupPreemptionPolicy: boolean;
  readonly enableCompositePodGroup: boolean;
}

/** The upstream gate behind each field. */
const featureGateOf: Readonly<Record<keyof Features, string>> = {
  enableDRAExtendedResource: 'DRAExtendedResource',
  enableDRAPrioritizedList: 'DRAPrioritizedList',
  enableDRAAdminAccess: 'DRAAdminAccess',
  enableDRAConsumableCapacity: 'DRAConsumableCapacity',
  enableDRADeviceCompatibilityGroups: 'DRADeviceCompatibilityGroups',
  enableDRAFractionalCapacityRange: 'DRAFractionalCapacityRange',
  enableDRADerivedAttributes: 'DRADerivedAttributes',
  enableDRADeviceTaints: 'DRADeviceTaints',
  enableDRADeviceTaintRules: 'DRADeviceTaintRules',
  enableDRADeviceBindingConditions: 'DRADeviceBindingConditions',
  enableDRAListTypeAttributes: 'DRAListTypeAttributes',
  enableDRANodeAllocatableResources: 'DRANodeAllocatableResources',
  enableDRAOptionalNodeOperations: 'DRAOptionalNodeOperations',
  enableDRAPartitionableDevices: 'DRAPartitionableDevices',
  enableDRAResourceClaimDeviceStatus: 'DRAResourceClaimDeviceStatus',
  enableDRASchedulerFilterTimeout: 'DRASchedulerFilterTimeout',
  enableDRAWorkloadResourceClaims: 'DRAWorkloadResourceClaims',
  enableDynamicResourceAllocation: 'DynamicResourceAllocation',
  enableVolumeAttributesClass: 'VolumeAttributesClass',
  enableVolumeLimitScaling: 'VolumeLimitScaling',
  enableNodeInclusionPolicyInPodTopologySpread: 'NodeInclusionPolicyInPodTopologySpread',
  enableMatchLabelKeysInPodTopologySpread: 'MatchLabelKeysInPodTopologySpread',
  enableInPlacePodVerticalScaling: 'InPlacePodVerticalScaling',
  enableAsyncPreemption: 'SchedulerAsyncPreemption',
  enablePodLevelResources: 'PodLevelResources',
  enableStorageCapacityScoring: 'StorageCapacityScoring',
  enableNodeDeclaredFeatures: 'NodeDeclaredFeatures',
  enableGenericWorkload: 'GenericWorkload',
  enableTaintTolerationComparisonOperators: 'TaintTolerationComparisonOperators',
  enableInPlacePodLevelResourcesVerticalScaling: 'InPlacePodLevelResourcesVerticalScaling',
  enableInPlacePodVerticalScalingSchedulerPreemption: 'InPlacePodVerticalScalingSchedulerPreemption',
  enableTopologyAwareWorkloadScheduling: 'TopologyAwareWorkloadScheduling',
  enableInterPodAffinityHostnameFastPath: 'InterPodAffinityHostnameFastPath',
  enablePodGroupPreemptionPolicy: 'PodGroupPreemptionPolicy',
  enableCompositePodGroup: 'CompositePodGroup',
};

/** The pinned release's defaults (checked against the gate table by scheduler/features.test.ts). */
export const defaultFeatures: Features = {
  enableDRAExtendedResource: true,
  enableDRAPrioritizedList: true,
  enableDRAAdminAccess: true,
  enableDRAConsumableCapacity: true,
  enableDRADeviceCompatibilityGroups: false,
  enableDRAFractionalCapacityRange: false,
  enableDRADerivedAttributes: false,
  enableDRADeviceTaints: true,
  enableDRADeviceTaintRules: true,
  enableDRADeviceBindingConditions: true,
  enableDRAListTypeAttributes: false,
  enableDRANodeAllocatableResources: false,
  enableDRAOptionalNodeOperations: false,
  enableDRAPartitionableDevices: true,
  enableDRAResourceClaimDeviceStatus: true,
  enableDRASchedulerFilterTimeout: true,
  enableDRAWorkloadResourceClaims: false,
  enableDynamicResourceAllocation: true,
  enableVolumeAttributesClass: true,
  enableVolumeLimitScaling: true,
  enableNodeInclusionPolicyInPodTopologySpread: true,
  enableMatchLabelKeysInPodTopologySpread: true,
  enableInPlacePodVerticalScaling: true,
  enableAsyncPreemption: true,
  enablePodLevelResources: true,
  enableStorageCapacityScoring: true,
  enableNodeDeclaredFeatures: true,
  enableGenericWorkload: false,
  enableTaintTolerationComparisonOperators: false,
  enableInPlacePodLevelResourcesVerticalScaling: true,
  enableInPlacePodVerticalScalingSchedulerPreemption: false,
  enableTopologyAwareWorkloadScheduling: false,
  enableInterPodAffinityHostnameFastPath: false,
  enablePodGroupPreemptionPolicy: false,
  enableCompositePodGroup: false,
};

/** Copies the gates' current values into a Features (NewSchedulerFeaturesFromGates). */
export function featuresFromGates(enabled: (gate: string) => boolean): Features {
  const out = {} as Record<keyof Features, boolean>;
  for (const field of Object.keys(featureGateOf) as (keyof Features)[]) out[field] = enabled(featureGateOf[field]);
  return out;
}
