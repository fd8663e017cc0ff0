// The DRA feature gates DynamicResources reads (pkg/scheduler/framework/plugins/feature/feature.go),
// at the pinned release's defaults (pkg/features/kube_features.go, v1.37.2), in one place until
// the scheduler hands plugins their Features from --feature-gates.

export interface DraFeatures {
  readonly enableDRAAdminAccess: boolean;
  readonly enableDRAConsumableCapacity: boolean;
  readonly enableDRADeviceBindingConditions: boolean;
  readonly enableDRAResourceClaimDeviceStatus: boolean;
  readonly enableDRADeviceTaints: boolean;
  /** Whether DeviceTaintRules add taints to the slices (scheduler.go's ResourceSlice tracker). */
  readonly enableDRADeviceTaintRules: boolean;
  readonly enableDRAExtendedResource: boolean;
  readonly enableDRAFractionalCapacityRange: boolean;
  readonly enableDRAListTypeAttributes: boolean;
  readonly enableDRANodeAllocatableResources: boolean;
  readonly enableDRAOptionalNodeOperations: boolean;
  readonly enableDRAPartitionableDevices: boolean;
  readonly enableDRAPrioritizedList: boolean;
  readonly enableDRASchedulerFilterTimeout: boolean;
  readonly enableDRAWorkloadResourceClaims: boolean;
  readonly enableDRADerivedAttributes: boolean;
  readonly enableDRADeviceCompatibilityGroups: boolean;
  /** Topology-constrained pod groups get no DRA PodGroupPostFilter (TopologyAwareWorkloadScheduling). */
  readonly enableTopologyAwareWorkloadScheduling: boolean;
}

/**
 * v1.37.2's defaults: GA and beta gates on, alpha gates (and beta WorkloadResourceClaims) off;
 * DRAFractionalCapacityRange is on only from compatibility version 1.37, and a 1.37 binary
 * defaults to 1.36.
 */
export const pinnedDraFeatures: DraFeatures = {
  enableDRAAdminAccess: true,
  enableDRAConsumableCapacity: true,
  enableDRADeviceBindingConditions: true,
  enableDRAResourceClaimDeviceStatus: true,
  enableDRADeviceTaints: true,
  enableDRADeviceTaintRules: true,
  enableDRAExtendedResource: true,
  enableDRAFractionalCapacityRange: false,
  enableDRAListTypeAttributes: false,
  enableDRANodeAllocatableResources: false,
  enableDRAOptionalNodeOperations: false,
  enableDRAPartitionableDevices: true,
  enableDRAPrioritizedList: true,
  enableDRASchedulerFilterTimeout: true,
  enableDRAWorkloadResourceClaims: false,
  enableDRADerivedAttributes: false,
  enableDRADeviceCompatibilityGroups: false,
  enableTopologyAwareWorkloadScheduling: false,
};

/** The allocator's feature switches (structured.Features), as AllocatorFeatures derives them. */
export interface AllocatorFeatures {
  readonly adminAccess: boolean;
  readonly prioritizedList: boolean;
  readonly partitionableDevices: boolean;
  readonly deviceTaints: boolean;
  readonly deviceBindingAndStatus: boolean;
  readonly consumableCapacity: boolean;
  readonly fractionalCapacityRange: boolean;
  readonly listTypeAttributes: boolean;
  readonly optionalNodeOperations: boolean;
  readonly derivedAttributes: boolean;
  readonly compatibilityGroups: boolean;
}

/** Device binding conditions need both gates (DRADeviceBindingConditions needs the device status). */
export function bindingConditionsEnabled(f: DraFeatures): boolean {
  return f.enableDRADeviceBindingConditions && f.enableDRAResourceClaimDeviceStatus;
}

export function allocatorFeatures(f: DraFeatures): AllocatorFeatures {
  return {
    adminAccess: f.enableDRAAdminAccess,
    prioritizedList: f.enableDRAPrioritizedList,
    partitionableDevices: f.enableDRAPartitionableDevices,
    deviceTaints: f.enableDRADeviceTaints,
    deviceBindingAndStatus: bindingConditionsEnabled(f),
    consumableCapacity: f.enableDRAConsumableCapacity,
    fractionalCapacityRange: f.enableDRAFractionalCapacityRange,
    listTypeAttributes: f.enableDRAListTypeAttributes,
    optionalNodeOperations: f.enableDRAOptionalNodeOperations,
    derivedAttributes: f.enableDRADerivedAttributes,
    compatibilityGroups: f.enableDRADeviceCompatibilityGroups,
  };
}
