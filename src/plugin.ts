// `kube-scheduler-ts/plugin`: the plugin contract, all an out-of-tree plugin needs to be written
// (upstream's pkg/scheduler/framework): the extension point interfaces and the Handle, Status and
// its codes, CycleState, the NodeInfo and PodInfo views, cluster events and queueing hints, the
// Kubernetes object types and the helpers plugins use on them. No runtime internals.

// Kubernetes objects and the helpers plugins use on them.
export type * from './api/types.js';
export { podKey } from './api/types.js';
// Dynamic Resource Allocation objects (resource.k8s.io/v1), which plugins read through the lister.
export type * from './api/dra_types.js';
// Workloads and pod groups (scheduling.k8s.io/v1beta1), which pod-group plugins read.
export type { PodGroup, PodGroupTemplate, Workload } from './api/scheduling.js';
export { podGroupKey, podGroupKeyOfPod, podGroupMinCount, podGroupPriority } from './api/scheduling.js';
export { parseQuantity, quantityValue, quantityMilliValue, Quantity, QuantityError } from './api/quantity.js';
export { Resource, computePodResourceRequests, type PodResourceRequests } from './api/resource_requests.js';
export { Selector, SelectorError, type Labels } from './api/labels.js';
export { NodeSelectorMatcher, PreferredTermsScorer, RequiredNodeAffinity, MatchResult } from './api/nodeselector.js';
export { toleratesTaint, taintToleratedBy, findUntoleratedTaint, taintForMessage } from './api/taints.js';
export { labelsEqual, taintsEqual, tolerationsEqual, resourceListsEqual, quantitiesEqual, topologySelectorTermsEqual } from './api/equality.js';
export * from './api/field_errors.js';

// The extension points, the Handle and what they pass around.
export * from './framework/interfaces.js';
// Signature fragment names and shared signers for signPod (opportunistic batching, KEP-5598).
export {
  DynamicResourcesSignerName, FeaturesSignerName, HostPortsSignerName, ImageNamesSignerName, LabelsSignerName, NodeAffinitySignerName,
  NodeNameSignerName, NodeSelectorSignerName, ResourcesSignerName, SchedulerNameSignerName, TolerationsSignerName, VolumesSignerName,
  hostPortsSigner, nodeAffinitySigner, tolerationsSigner, volumesSigner,
} from './framework/signers.js';
export { Status, Code, codeName, isSuccess, isSkip, isRejected, type CodeName } from './framework/status.js';
export { CycleState, type StateData } from './framework/cycle_state.js';
export { NodeInfo, HostPortInfo, type ImageStateSummary } from './framework/node_info.js';
export { NodeRows, NodeRowSelection } from './framework/node_rows.js';
export { PodInfo, affinityTermMatches, type AffinityTerm, type WeightedAffinityTerm } from './framework/pod_info.js';
export * from './framework/events.js';
export { eventObjectsAs, type EventObjects, type EventObjectKinds } from './framework/event_objects.js';
export type { PluginDefinition, AnyPluginDefinition } from './framework/registry.js';
export { defaultFeatures, type Features } from './framework/features.js';
export { defaultNormalizeScore } from './framework/helpers/normalize.js';
export type { MetricsRecorder, ExtensionPointLabel, BatchAttemptResult, BatchFlushReason } from './framework/metrics_recorder.js';
// The DRA state every plugin of a scheduler shares (Handle.sharedDRAManager).
export type { SharedDRAManager, ResourceClaimTracker, ResourceSliceLister, DeviceClassLister, DeviceClassResolver } from './framework/shared_dra_manager.js';
export type { MaybePromise } from './util/maybe_promise.js';
export * as PluginNames from './framework/names.js';
// The extender contract the Handle hands out (KubeSchedulerConfiguration `extenders`).
export * from './framework/extender.js';
