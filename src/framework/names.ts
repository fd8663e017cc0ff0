// Names of the in-tree plugins (pkg/scheduler/framework/plugins/names/names.go).

export const PrioritySort = 'PrioritySort';
export const DefaultBinder = 'DefaultBinder';
export const DefaultPreemption = 'DefaultPreemption';
export const DynamicResources = 'DynamicResources';
export const ImageLocality = 'ImageLocality';
export const InterPodAffinity = 'InterPodAffinity';
export const NodeAffinity = 'NodeAffinity';
export const NodeName = 'NodeName';
export const NodePorts = 'NodePorts';
export const NodeResourcesBalancedAllocation = 'NodeResourcesBalancedAllocation';
export const NodeResourcesFit = 'NodeResourcesFit';
export const NodeUnschedulable = 'NodeUnschedulable';
export const NodeVolumeLimits = 'NodeVolumeLimits';
export const PodTopologySpread = 'PodTopologySpread';
export const SchedulingGates = 'SchedulingGates';
export const TaintToleration = 'TaintToleration';
export const VolumeBinding = 'VolumeBinding';
export const VolumeRestrictions = 'VolumeRestrictions';
export const VolumeZone = 'VolumeZone';
export const NodeDeclaredFeatures = 'NodeDeclaredFeatures';
// Newer upstream plugins behind feature gates that are off by default.
export const DeferredPodScheduling = 'DeferredPodScheduling';
export const TopologyPlacementGenerator = 'TopologyPlacementGenerator';
export const PodGroupPodsCount = 'PodGroupPodsCount';
export const GangScheduling = 'GangScheduling';
