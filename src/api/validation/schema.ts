// The typed shape of the API objects the scheduler reads, as Go's structs give it
// (staging/src/k8s.io/api/{core,apps,batch,policy,scheduling,storage}/v1/types.go): what JSON
// decoding accepts where. Fields left out here are not type-checked and pass through untouched.

export type Shape =
  | { readonly t: 'string'; readonly go: string }
  | { readonly t: 'int'; readonly go: 'int32' | 'int64' }
  | { readonly t: 'bool' }
  | { readonly t: 'quantity' }
  | { readonly t: 'intOrString' }
  | { readonly t: 'time' }
  | { readonly t: 'any' }
  | StructShape
  | { readonly t: 'list'; readonly of: Shape }
  | { readonly t: 'map'; readonly of: Shape; readonly go: string };

export interface StructShape {
  readonly t: 'struct';
  /** The Go type, package-qualified: "v1.PodSpec". */
  readonly go: string;
  /** The Go type's own name ("PodSpec"), as encoding/json names the struct declaring a field. */
  readonly name: string;
  readonly fields: ReadonlyMap<string, Shape>;
}

const str = (go = 'string'): Shape => ({ t: 'string', go });
const int32: Shape = { t: 'int', go: 'int32' };
const int64: Shape = { t: 'int', go: 'int64' };
const bool: Shape = { t: 'bool' };
const quantity: Shape = { t: 'quantity' };
const intOrString: Shape = { t: 'intOrString' };
const time: Shape = { t: 'time' };
const any: Shape = { t: 'any' };
const list = (of: Shape): Shape => ({ t: 'list', of });
const map = (of: Shape, go = `map[string]${goTypeName(of)}`): Shape => ({ t: 'map', of, go });
/** Fields are kept in a Map: a JSON key such as "constructor" finds no shape, and lookups stay fast. */
const struct = (go: string, fields: Record<string, Shape>): StructShape =>
  ({ t: 'struct', go, name: go.slice(go.indexOf('.') + 1), fields: new Map(Object.entries(fields)) });
const strings = list(str());

/** The Go type a shape decodes into, as json's UnmarshalTypeError names it. */
export function goTypeName(s: Shape): string {
  switch (s.t) {
    case 'string':
    case 'struct':
    case 'map':
      return s.go;
    case 'int':
      return s.go;
    case 'bool':
      return 'bool';
    case 'quantity':
      return 'resource.Quantity';
    case 'intOrString':
      return 'intstr.IntOrString';
    case 'time':
      return 'v1.Time';
    case 'any':
      return 'interface {}';
    case 'list':
      return `[]${goTypeName(s.of)}`;
  }
}

// ---- meta/v1

const ownerReference = struct('v1.OwnerReference', { apiVersion: str(), kind: str(), name: str(), uid: str('types.UID'), controller: bool, blockOwnerDeletion: bool });

const objectMeta = struct('v1.ObjectMeta', {
  name: str(), generateName: str(), namespace: str(), uid: str('types.UID'), resourceVersion: str(), generation: int64,
  creationTimestamp: time, deletionTimestamp: time, deletionGracePeriodSeconds: int64,
  labels: map(str()), annotations: map(str()), ownerReferences: list(ownerReference), finalizers: strings, managedFields: any,
});

const labelSelectorRequirement = struct('v1.LabelSelectorRequirement', { key: str(), operator: str('v1.LabelSelectorOperator'), values: strings });
const labelSelector = struct('v1.LabelSelector', { matchLabels: map(str()), matchExpressions: list(labelSelectorRequirement) });

// ---- core/v1: pods

const resourceList = map(quantity, 'v1.ResourceList');
const resourceRequirements = struct('v1.ResourceRequirements', {
  limits: resourceList, requests: resourceList, claims: list(struct('v1.ResourceClaim', { name: str(), request: str() })),
});
const containerPort = struct('v1.ContainerPort', { name: str(), hostPort: int32, containerPort: int32, protocol: str('v1.Protocol'), hostIP: str() });
const envVar = struct('v1.EnvVar', { name: str(), value: str(), valueFrom: any });
const volumeMount = struct('v1.VolumeMount', {
  name: str(), readOnly: bool, mountPath: str(), subPath: str(), mountPropagation: str('v1.MountPropagationMode'), subPathExpr: str(), bindMountOptions: strings,
});
const container = struct('v1.Container', {
  name: str(), image: str(), command: strings, args: strings, workingDir: str(), ports: list(containerPort), envFrom: any, env: list(envVar),
  resources: resourceRequirements, resizePolicy: any, restartPolicy: str('v1.ContainerRestartPolicy'), volumeMounts: list(volumeMount),
  volumeDevices: list(struct('v1.VolumeDevice', { name: str(), devicePath: str() })), livenessProbe: any, readinessProbe: any, startupProbe: any,
  lifecycle: any, terminationMessagePath: str(), terminationMessagePolicy: str('v1.TerminationMessagePolicy'), imagePullPolicy: str('v1.PullPolicy'),
  securityContext: any, stdin: bool, stdinOnce: bool, tty: bool,
});

const taintEffect = str('v1.TaintEffect');
const toleration = struct('v1.Toleration', { key: str(), operator: str('v1.TolerationOperator'), value: str(), effect: taintEffect, tolerationSeconds: int64 });
const nodeSelectorRequirement = struct('v1.NodeSelectorRequirement', { key: str(), operator: str('v1.NodeSelectorOperator'), values: strings });
const nodeSelectorTerm = struct('v1.NodeSelectorTerm', { matchExpressions: list(nodeSelectorRequirement), matchFields: list(nodeSelectorRequirement) });
const nodeSelector = struct('v1.NodeSelector', { nodeSelectorTerms: list(nodeSelectorTerm) });
const podAffinityTerm = struct('v1.PodAffinityTerm', {
  labelSelector, namespaces: strings, topologyKey: str(), namespaceSelector: labelSelector, matchLabelKeys: strings, mismatchLabelKeys: strings,
});
const weightedPodAffinityTerm = struct('v1.WeightedPodAffinityTerm', { weight: int32, podAffinityTerm });
const podAffinityFields = {
  requiredDuringSchedulingIgnoredDuringExecution: list(podAffinityTerm),
  preferredDuringSchedulingIgnoredDuringExecution: list(weightedPodAffinityTerm),
};
const affinity = struct('v1.Affinity', {
  nodeAffinity: struct('v1.NodeAffinity', {
    requiredDuringSchedulingIgnoredDuringExecution: nodeSelector,
    preferredDuringSchedulingIgnoredDuringExecution: list(struct('v1.PreferredSchedulingTerm', { weight: int32, preference: nodeSelectorTerm })),
  }),
  podAffinity: struct('v1.PodAffinity', podAffinityFields),
  podAntiAffinity: struct('v1.PodAntiAffinity', podAffinityFields),
});
const topologySpreadConstraint = struct('v1.TopologySpreadConstraint', {
  maxSkew: int32, topologyKey: str(), whenUnsatisfiable: str('v1.UnsatisfiableConstraintAction'), labelSelector, minDomains: int32,
  nodeAffinityPolicy: str('v1.NodeInclusionPolicy'), nodeTaintsPolicy: str('v1.NodeInclusionPolicy'), matchLabelKeys: strings,
});

const volumeResourceRequirements = struct('v1.VolumeResourceRequirements', { limits: resourceList, requests: resourceList });
const pvcSpec = struct('v1.PersistentVolumeClaimSpec', {
  accessModes: list(str('v1.PersistentVolumeAccessMode')), selector: labelSelector, resources: volumeResourceRequirements, volumeName: str(),
  storageClassName: str(), volumeMode: str('v1.PersistentVolumeMode'), dataSource: any, dataSourceRef: any, volumeAttributesClassName: str(),
});
const volume = struct('v1.Volume', {
  name: str(),
  persistentVolumeClaim: struct('v1.PersistentVolumeClaimVolumeSource', { claimName: str(), readOnly: bool }),
  ephemeral: struct('v1.EphemeralVolumeSource', {
    volumeClaimTemplate: struct('v1.PersistentVolumeClaimTemplate', { metadata: objectMeta, spec: pvcSpec }),
  }),
  hostPath: any, emptyDir: any, gcePersistentDisk: any, awsElasticBlockStore: any, gitRepo: any, secret: any, nfs: any, iscsi: any,
  glusterfs: any, rbd: any, flexVolume: any, cinder: any, cephfs: any, flocker: any, downwardAPI: any, fc: any, azureFile: any,
  configMap: any, vsphereVolume: any, quobyte: any, azureDisk: any, photonPersistentDisk: any, projected: any, portworxVolume: any,
  scaleIO: any, storageos: any, csi: any, image: any,
});

const podSpec = struct('v1.PodSpec', {
  volumes: list(volume), initContainers: list(container), containers: list(container), ephemeralContainers: any,
  restartPolicy: str('v1.RestartPolicy'), terminationGracePeriodSeconds: int64, activeDeadlineSeconds: int64, dnsPolicy: str('v1.DNSPolicy'),
  nodeSelector: map(str()), serviceAccountName: str(), serviceAccount: str(), automountServiceAccountToken: bool, nodeName: str(),
  hostNetwork: bool, hostPID: bool, hostIPC: bool, shareProcessNamespace: bool, securityContext: any,
  imagePullSecrets: list(struct('v1.LocalObjectReference', { name: str() })), hostname: str(), subdomain: str(), affinity,
  schedulerName: str(), tolerations: list(toleration), hostAliases: any, priorityClassName: str(), priority: int32, dnsConfig: any,
  readinessGates: any, runtimeClassName: str(), enableServiceLinks: bool, preemptionPolicy: str('v1.PreemptionPolicy'), overhead: resourceList,
  topologySpreadConstraints: list(topologySpreadConstraint), setHostnameAsFQDN: bool, os: struct('v1.PodOS', { name: str('v1.OSName') }),
  hostUsers: bool, schedulingGates: list(struct('v1.PodSchedulingGate', { name: str() })),
  resourceClaims: list(struct('v1.PodResourceClaim', { name: str(), resourceClaimName: str(), resourceClaimTemplateName: str() })),
  resources: resourceRequirements,
});

const podCondition = struct('v1.PodCondition', {
  type: str('v1.PodConditionType'), status: str('v1.ConditionStatus'), lastProbeTime: time, lastTransitionTime: time, reason: str(), message: str(),
});
const containerStatus = struct('v1.ContainerStatus', {
  name: str(), state: any, lastState: any, ready: bool, restartCount: int32, image: str(), imageID: str(), containerID: str(), started: bool,
  allocatedResources: resourceList, resources: resourceRequirements,
});
const podStatus = struct('v1.PodStatus', {
  phase: str('v1.PodPhase'), conditions: list(podCondition), message: str(), reason: str(), nominatedNodeName: str(), hostIP: str(),
  podIP: str(), startTime: time, containerStatuses: list(containerStatus), initContainerStatuses: list(containerStatus), qosClass: str('v1.PodQOSClass'),
  resize: str('v1.PodResizeStatus'), podIPs: any, hostIPs: any, ephemeralContainerStatuses: any,
  resourceClaimStatuses: list(struct('v1.PodResourceClaimStatus', { name: str(), resourceClaimName: str() })),
});

const typeMeta = { apiVersion: str(), kind: str() };

export const pod = struct('v1.Pod', { ...typeMeta, metadata: objectMeta, spec: podSpec, status: podStatus });

/**
 * The fields of a pod the scheduler reads, typed: what a pod from elsewhere (a real API server, a
 * library caller) is checked against before the scheduler trusts it, at a fraction of the full
 * shape's cost (no timestamps, images, probes, environment).
 */
const schedulingContainer = struct('v1.Container', {
  name: str(), ports: list(containerPort), resources: resourceRequirements, restartPolicy: str('v1.ContainerRestartPolicy'),
});
export const podSchedulingView = struct('v1.Pod', {
  metadata: struct('v1.ObjectMeta', { name: str(), namespace: str(), uid: str('types.UID'), labels: map(str()), ownerReferences: list(ownerReference) }),
  spec: struct('v1.PodSpec', {
    ...Object.fromEntries(podSpec.fields), containers: list(schedulingContainer), initContainers: list(schedulingContainer),
  }),
  status: struct('v1.PodStatus', {
    phase: str('v1.PodPhase'), nominatedNodeName: str(), resize: str('v1.PodResizeStatus'),
    containerStatuses: list(struct('v1.ContainerStatus', { name: str(), allocatedResources: resourceList, resources: resourceRequirements })),
    initContainerStatuses: list(struct('v1.ContainerStatus', { name: str(), allocatedResources: resourceList, resources: resourceRequirements })),
  }),
});
const podTemplateSpec = struct('v1.PodTemplateSpec', { metadata: objectMeta, spec: podSpec });

// ---- core/v1: nodes

const taint = struct('v1.Taint', { key: str(), value: str(), effect: taintEffect, timeAdded: time });
export const node = struct('v1.Node', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.NodeSpec', { podCIDR: str(), podCIDRs: strings, providerID: str(), unschedulable: bool, taints: list(taint), configSource: any, externalID: str() }),
  status: struct('v1.NodeStatus', {
    capacity: resourceList, allocatable: resourceList, phase: str('v1.NodePhase'),
    conditions: list(struct('v1.NodeCondition', {
      type: str('v1.NodeConditionType'), status: str('v1.ConditionStatus'), lastHeartbeatTime: time, lastTransitionTime: time, reason: str(), message: str(),
    })),
    addresses: list(struct('v1.NodeAddress', { type: str('v1.NodeAddressType'), address: str() })),
    daemonEndpoints: any, nodeInfo: any, images: list(struct('v1.ContainerImage', { names: strings, sizeBytes: int64 })),
    volumesInUse: strings, volumesAttached: any, config: any, runtimeHandlers: any, features: any, declaredFeatures: strings,
  }),
});

/** The fields of a node the scheduler reads, typed (see podSchedulingView). */
export const nodeSchedulingView = struct('v1.Node', {
  metadata: struct('v1.ObjectMeta', { name: str(), uid: str('types.UID'), labels: map(str()) }),
  spec: struct('v1.NodeSpec', { unschedulable: bool, taints: list(struct('v1.Taint', { key: str(), value: str(), effect: taintEffect, timeAdded: any })) }),
  status: struct('v1.NodeStatus', {
    capacity: resourceList, allocatable: resourceList,
    conditions: list(struct('v1.NodeCondition', { type: str('v1.NodeConditionType'), status: str('v1.ConditionStatus') })),
    images: list(struct('v1.ContainerImage', { names: strings, sizeBytes: int64 })),
    declaredFeatures: strings,
  }),
});

// ---- core/v1: volumes, namespaces, services, replication controllers

const objectReference = struct('v1.ObjectReference', {
  kind: str(), namespace: str(), name: str(), uid: str('types.UID'), apiVersion: str(), resourceVersion: str(), fieldPath: str(),
});
export const persistentVolume = struct('v1.PersistentVolume', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.PersistentVolumeSpec', {
    capacity: resourceList, accessModes: list(str('v1.PersistentVolumeAccessMode')), claimRef: objectReference,
    persistentVolumeReclaimPolicy: str('v1.PersistentVolumeReclaimPolicy'), storageClassName: str(), mountOptions: strings,
    volumeMode: str('v1.PersistentVolumeMode'), nodeAffinity: struct('v1.VolumeNodeAffinity', { required: nodeSelector }), volumeAttributesClassName: str(),
    csi: struct('v1.CSIPersistentVolumeSource', {
      driver: str(), volumeHandle: str(), readOnly: bool, fsType: str(), volumeAttributes: map(str()),
      controllerPublishSecretRef: any, nodeStageSecretRef: any, nodePublishSecretRef: any, controllerExpandSecretRef: any, nodeExpandSecretRef: any,
    }),
    hostPath: struct('v1.HostPathVolumeSource', { path: str(), type: str('v1.HostPathType') }),
    local: struct('v1.LocalVolumeSource', { path: str(), fsType: str() }),
    gcePersistentDisk: any, awsElasticBlockStore: any, glusterfs: any, nfs: any, rbd: any, iscsi: any, cinder: any, cephfs: any, fc: any,
    flocker: any, flexVolume: any, azureFile: any, vsphereVolume: any, quobyte: any, azureDisk: any, photonPersistentDisk: any,
    portworxVolume: any, scaleIO: any, storageos: any,
  }),
  status: struct('v1.PersistentVolumeStatus', { phase: str('v1.PersistentVolumePhase'), message: str(), reason: str(), lastPhaseTransitionTime: time }),
});

export const persistentVolumeClaim = struct('v1.PersistentVolumeClaim', {
  ...typeMeta,
  metadata: objectMeta,
  spec: pvcSpec,
  status: struct('v1.PersistentVolumeClaimStatus', {
    phase: str('v1.PersistentVolumeClaimPhase'), accessModes: list(str('v1.PersistentVolumeAccessMode')), capacity: resourceList,
    conditions: any, allocatedResources: resourceList, allocatedResourceStatuses: any, currentVolumeAttributesClassName: str(), modifyVolumeStatus: any,
  }),
});

export const namespace = struct('v1.Namespace', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.NamespaceSpec', { finalizers: list(str('v1.FinalizerName')) }),
  status: struct('v1.NamespaceStatus', { phase: str('v1.NamespacePhase'), conditions: any }),
});

export const service = struct('v1.Service', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.ServiceSpec', {
    ports: list(struct('v1.ServicePort', { name: str(), protocol: str('v1.Protocol'), appProtocol: str(), port: int32, targetPort: intOrString, nodePort: int32 })),
    selector: map(str()), clusterIP: str(), clusterIPs: strings, type: str('v1.ServiceType'), externalIPs: strings,
    sessionAffinity: str('v1.ServiceAffinity'), loadBalancerIP: str(), loadBalancerSourceRanges: strings, externalName: str(),
    externalTrafficPolicy: str('v1.ServiceExternalTrafficPolicy'), healthCheckNodePort: int32, publishNotReadyAddresses: bool,
    sessionAffinityConfig: any, ipFamilies: list(str('v1.IPFamily')), ipFamilyPolicy: str('v1.IPFamilyPolicy'), allocateLoadBalancerNodePorts: bool,
    loadBalancerClass: str(), internalTrafficPolicy: str('v1.ServiceInternalTrafficPolicy'), trafficDistribution: str(),
  }),
  status: any,
});

export const replicationController = struct('v1.ReplicationController', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.ReplicationControllerSpec', { replicas: int32, minReadySeconds: int32, selector: map(str()), template: podTemplateSpec }),
  status: any,
});

// ---- apps/v1, batch/v1

export const replicaSet = struct('v1.ReplicaSet', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.ReplicaSetSpec', { replicas: int32, minReadySeconds: int32, selector: labelSelector, template: podTemplateSpec }),
  status: any,
});

export const statefulSet = struct('v1.StatefulSet', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.StatefulSetSpec', {
    replicas: int32, selector: labelSelector, template: podTemplateSpec, volumeClaimTemplates: list(persistentVolumeClaim), serviceName: str(),
    podManagementPolicy: str('v1.PodManagementPolicyType'), updateStrategy: any, revisionHistoryLimit: int32, minReadySeconds: int32,
    persistentVolumeClaimRetentionPolicy: any, ordinals: any,
  }),
  status: any,
});

export const deployment = struct('v1.Deployment', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.DeploymentSpec', {
    replicas: int32, selector: labelSelector, template: podTemplateSpec, strategy: any, minReadySeconds: int32, revisionHistoryLimit: int32,
    paused: bool, progressDeadlineSeconds: int32,
  }),
  status: any,
});

export const daemonSet = struct('v1.DaemonSet', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.DaemonSetSpec', { selector: labelSelector, template: podTemplateSpec, updateStrategy: any, minReadySeconds: int32, revisionHistoryLimit: int32 }),
  status: any,
});

export const job = struct('v1.Job', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.JobSpec', {
    parallelism: int32, completions: int32, activeDeadlineSeconds: int64, podFailurePolicy: any, successPolicy: any, backoffLimit: int32,
    backoffLimitPerIndex: int32, maxFailedIndexes: int32, selector: labelSelector, manualSelector: bool, template: podTemplateSpec,
    ttlSecondsAfterFinished: int32, completionMode: str('v1.CompletionMode'), suspend: bool, podReplacementPolicy: str('v1.PodReplacementPolicy'),
    managedBy: str(), scheduling: jobSchedulingConfiguration(),
  }),
  status: any,
});

/** batch/v1 JobSchedulingConfiguration (WorkloadWithJob): the pod group the Job's Workload describes. */
function jobSchedulingConfiguration() {
  return struct('v1.JobSchedulingConfiguration', {
    schedulingPolicy: struct('v1alpha3.WorkloadPodGroupSchedulingPolicy', {
      basic: struct('v1alpha3.WorkloadPodGroupBasicSchedulingPolicy', {}), gang: struct('v1alpha3.WorkloadPodGroupGangSchedulingPolicy', { minCount: int32 }),
    }),
    schedulingConstraints: struct('v1alpha3.WorkloadPodGroupSchedulingConstraints', { topology: list(struct('v1alpha3.TopologyConstraint', { key: str() })) }),
    disruptionMode: struct('v1alpha3.WorkloadPodGroupDisruptionMode', {
      single: struct('v1alpha3.WorkloadPodGroupSingleDisruptionMode', {}), all: struct('v1alpha3.WorkloadPodGroupAllDisruptionMode', {}),
    }),
    resourceClaims: list(struct('v1alpha3.WorkloadPodGroupResourceClaim', { name: str(), resourceClaimName: str(), resourceClaimTemplateName: str() })),
  });
}

// ---- policy/v1, scheduling/v1

export const podDisruptionBudget = struct('v1.PodDisruptionBudget', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.PodDisruptionBudgetSpec', {
    minAvailable: intOrString, selector: labelSelector, maxUnavailable: intOrString, unhealthyPodEvictionPolicy: str('v1.UnhealthyPodEvictionPolicyType'),
  }),
  status: any,
});

export const priorityClass = struct('v1.PriorityClass', {
  ...typeMeta, metadata: objectMeta, value: int32, globalDefault: bool, description: str(), preemptionPolicy: str('v1.PreemptionPolicy'),
});

// ---- scheduling/v1beta1 (GenericWorkload)

const emptyStruct = (go: string) => struct(go, {});
const podGroupSchedulingPolicy = struct('v1beta1.PodGroupSchedulingPolicy', {
  basic: emptyStruct('v1beta1.BasicSchedulingPolicy'), gang: struct('v1beta1.GangSchedulingPolicy', { minCount: int32 }),
});
const podGroupFields = {
  schedulingPolicy: podGroupSchedulingPolicy,
  schedulingConstraints: struct('v1beta1.PodGroupSchedulingConstraints', { topology: list(struct('v1beta1.TopologyConstraint', { key: str() })) }),
  resourceClaims: list(struct('v1beta1.PodGroupResourceClaim', { name: str(), resourceClaimName: str(), resourceClaimTemplateName: str() })),
  disruptionMode: struct('v1beta1.DisruptionMode', { single: emptyStruct('v1beta1.SingleDisruptionMode'), all: emptyStruct('v1beta1.AllDisruptionMode') }),
  priorityClassName: str(), priority: int32, preemptionPolicy: str('v1beta1.PreemptionPolicy'),
};
const podGroupTemplate = struct('v1beta1.PodGroupTemplate', { name: str(), ...podGroupFields });
const compositePodGroupFields = {
  schedulingPolicy: struct('v1beta1.CompositePodGroupSchedulingPolicy', {
    basic: emptyStruct('v1beta1.CompositeBasicSchedulingPolicy'), gang: struct('v1beta1.CompositeGangSchedulingPolicy', { minGroupCount: int32 }),
  }),
  schedulingConstraints: struct('v1beta1.CompositePodGroupSchedulingConstraints', { topology: list(struct('v1beta1.TopologyConstraint', { key: str() })) }),
  disruptionMode: struct('v1beta1.CompositeDisruptionMode', { single: emptyStruct('v1beta1.SingleCompositeDisruptionMode'), all: emptyStruct('v1beta1.AllCompositeDisruptionMode') }),
  priorityClassName: str(), priority: int32, preemptionPolicy: str('v1beta1.PreemptionPolicy'),
};
/** A composite template holds composite templates: the shape refers to itself. */
const compositePodGroupTemplate = struct('v1beta1.CompositePodGroupTemplate', { name: str(), ...compositePodGroupFields, podGroupTemplates: list(podGroupTemplate) });
(compositePodGroupTemplate.fields as Map<string, Shape>).set('compositePodGroupTemplates', list(compositePodGroupTemplate));
const workloadReference = struct('v1beta1.WorkloadReference', { workloadName: str(), templateName: str() });
export const workload = struct('v1beta1.Workload', {
  ...typeMeta, metadata: objectMeta,
  spec: struct('v1beta1.WorkloadSpec', {
    controllerRef: struct('v1beta1.TypedLocalObjectReference', { apiGroup: str(), kind: str(), name: str() }),
    podGroupTemplates: list(podGroupTemplate),
    compositePodGroupTemplates: list(compositePodGroupTemplate),
  }),
});
export const podGroup = struct('v1beta1.PodGroup', {
  ...typeMeta, metadata: objectMeta,
  spec: struct('v1beta1.PodGroupSpec', {
    parentCompositePodGroupName: str(), workloadRef: workloadReference, ...podGroupFields,
  }),
  status: any,
});
// scheduling/v1alpha3 (CompositePodGroup): its Workload and PodGroup are v1beta1's.
export const compositePodGroup = struct('v1alpha3.CompositePodGroup', {
  ...typeMeta, metadata: objectMeta,
  spec: struct('v1alpha3.CompositePodGroupSpec', { parentCompositePodGroupName: str(), workloadRef: workloadReference, ...compositePodGroupFields }),
  status: any,
});

// ---- scheduling.x-k8s.io/v1alpha1 (scheduler-plugins' CRD, apis/scheduling/v1alpha1/types.go)

export const coschedulingPodGroup = struct('v1alpha1.PodGroup', {
  ...typeMeta, metadata: objectMeta,
  spec: struct('v1alpha1.PodGroupSpec', { minMember: int32, minResources: map(quantity, 'v1.ResourceList'), scheduleTimeoutSeconds: int32 }),
  status: struct('v1alpha1.PodGroupStatus', {
    phase: str('v1alpha1.PodGroupPhase'), occupiedBy: str(), scheduled: int32, running: int32, succeeded: int32, failed: int32, scheduleStartTime: time,
  }),
});

// ---- apiextensions.k8s.io/v1 (the schema and the rest of a version are kept as given)
export const customResourceDefinition = struct('v1.CustomResourceDefinition', {
  ...typeMeta, metadata: objectMeta,
  spec: struct('v1.CustomResourceDefinitionSpec', {
    group: str(),
    names: struct('v1.CustomResourceDefinitionNames', { plural: str(), singular: str(), shortNames: strings, kind: str(), listKind: str(), categories: strings }),
    scope: str('v1.ResourceScope'),
    versions: list(struct('v1.CustomResourceDefinitionVersion', {
      name: str(), served: bool, storage: bool, deprecated: bool, deprecationWarning: str(), schema: any, subresources: any,
      additionalPrinterColumns: any, selectableFields: any,
    })),
    conversion: any, preserveUnknownFields: bool,
  }),
  status: any,
});

// ---- storage/v1

export const storageClass = struct('v1.StorageClass', {
  ...typeMeta,
  metadata: objectMeta, provisioner: str(), parameters: map(str()), reclaimPolicy: str('v1.PersistentVolumeReclaimPolicy'), mountOptions: strings,
  allowVolumeExpansion: bool, volumeBindingMode: str('v1.VolumeBindingMode'),
  allowedTopologies: list(struct('v1.TopologySelectorTerm', {
    matchLabelExpressions: list(struct('v1.TopologySelectorLabelRequirement', { key: str(), values: strings })),
  })),
});

export const csiNode = struct('v1.CSINode', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.CSINodeSpec', {
    drivers: list(struct('v1.CSINodeDriver', {
      name: str(), nodeID: str(), topologyKeys: strings, allocatable: struct('v1.VolumeNodeResources', { count: int32 }),
    })),
  }),
});

export const csiDriver = struct('v1.CSIDriver', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.CSIDriverSpec', {
    attachRequired: bool, podInfoOnMount: bool, volumeLifecycleModes: list(str('v1.VolumeLifecycleMode')), storageCapacity: bool,
    fsGroupPolicy: str('v1.FSGroupPolicy'), tokenRequests: any, requiresRepublish: bool, seLinuxMount: bool, nodeAllocatableUpdatePeriodSeconds: int64,
    preventPodSchedulingIfMissing: bool,
  }),
});

export const csiStorageCapacity = struct('v1.CSIStorageCapacity', {
  ...typeMeta, metadata: objectMeta, nodeTopology: labelSelector, storageClassName: str(), capacity: quantity, maximumVolumeSize: quantity,
});

export const volumeAttachment = struct('v1.VolumeAttachment', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.VolumeAttachmentSpec', {
    attacher: str(), source: struct('v1.VolumeAttachmentSource', { persistentVolumeName: str(), inlineVolumeSpec: any }), nodeName: str(),
  }),
  status: struct('v1.VolumeAttachmentStatus', { attached: bool, attachmentMetadata: map(str()), attachError: any, detachError: any }),
});

// ---- resource.k8s.io/v1 (staging/src/k8s.io/api/resource/v1/types.go)

const deviceSelector = struct('v1.DeviceSelector', { cel: struct('v1.CELDeviceSelector', { expression: str() }) });
const deviceToleration = struct('v1.DeviceToleration', {
  key: str(), operator: str('v1.DeviceTolerationOperator'), value: str(), effect: str('v1.DeviceTaintEffect'), tolerationSeconds: int64,
});
const capacityRequirements = struct('v1.CapacityRequirements', { requests: map(quantity, 'map[v1.QualifiedName]resource.Quantity') });
const derivedAttribute = struct('v1.DeviceDerivedAttribute', { name: str('v1.FullyQualifiedName'), expression: str() });
const requestFields = {
  deviceClassName: str(), selectors: list(deviceSelector), allocationMode: str('v1.DeviceAllocationMode'), count: int64,
  tolerations: list(deviceToleration), capacity: capacityRequirements, derivedAttributes: list(derivedAttribute),
};
const opaqueConfig = struct('v1.OpaqueDeviceConfiguration', { driver: str(), parameters: any });
const deviceClaim = struct('v1.DeviceClaim', {
  requests: list(struct('v1.DeviceRequest', {
    name: str(),
    exactly: struct('v1.ExactDeviceRequest', { ...requestFields, adminAccess: bool }),
    firstAvailable: list(struct('v1.DeviceSubRequest', { name: str(), ...requestFields })),
  })),
  constraints: list(struct('v1.DeviceConstraint', { requests: strings, matchAttribute: str('v1.FullyQualifiedName'), distinctAttribute: str('v1.FullyQualifiedName') })),
  config: list(struct('v1.DeviceClaimConfiguration', { requests: strings, opaque: opaqueConfig })),
});
const resourceClaimSpec = struct('v1.ResourceClaimSpec', { devices: deviceClaim });
const condition = struct('v1.Condition', {
  type: str(), status: str('v1.ConditionStatus'), observedGeneration: int64, lastTransitionTime: time, reason: str(), message: str(),
});
const resourceClaimStatus = struct('v1.ResourceClaimStatus', {
  allocation: struct('v1.AllocationResult', {
    devices: struct('v1.DeviceAllocationResult', {
      results: list(struct('v1.DeviceRequestAllocationResult', {
        request: str(), driver: str(), pool: str(), device: str(), adminAccess: bool, tolerations: list(deviceToleration),
        bindingConditions: strings, bindingFailureConditions: strings, shareID: str('types.UID'),
        consumedCapacity: map(quantity, 'map[v1.QualifiedName]resource.Quantity'), skipNodeOperations: strings,
      })),
      config: list(struct('v1.DeviceAllocationConfiguration', { source: str('v1.AllocationConfigSource'), requests: strings, opaque: opaqueConfig })),
    }),
    nodeSelector,
    allocationTimestamp: time,
  }),
  reservedFor: list(struct('v1.ResourceClaimConsumerReference', { apiGroup: str(), resource: str(), name: str(), uid: str('types.UID') })),
  devices: list(struct('v1.AllocatedDeviceStatus', {
    driver: str(), pool: str(), device: str(), shareID: str(), conditions: list(condition), data: any,
    networkData: struct('v1.NetworkDeviceData', { interfaceName: str(), ips: strings, hardwareAddress: str() }),
  })),
});

export const resourceClaim = struct('v1.ResourceClaim', { ...typeMeta, metadata: objectMeta, spec: resourceClaimSpec, status: resourceClaimStatus });

export const resourceClaimTemplate = struct('v1.ResourceClaimTemplate', {
  ...typeMeta, metadata: objectMeta, spec: struct('v1.ResourceClaimTemplateSpec', { metadata: objectMeta, spec: resourceClaimSpec }),
});

export const deviceClass = struct('v1.DeviceClass', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.DeviceClassSpec', {
    selectors: list(deviceSelector), config: list(struct('v1.DeviceClassConfiguration', { opaque: opaqueConfig })), extendedResourceName: str(),
  }),
});

const deviceTaint = struct('v1.DeviceTaint', { key: str(), value: str(), effect: str('v1.DeviceTaintEffect'), timeAdded: time });
const counters = map(struct('v1.Counter', { value: quantity }), 'map[string]v1.Counter');
const deviceAttribute = struct('v1.DeviceAttribute', {
  int: int64, bool, string: str(), version: str(), ints: list(int64), bools: list(bool), strings, versions: strings,
});
const device = struct('v1.Device', {
  name: str(),
  attributes: map(deviceAttribute, 'map[v1.QualifiedName]v1.DeviceAttribute'),
  capacity: map(struct('v1.DeviceCapacity', { value: quantity, requestPolicy: any }), 'map[v1.QualifiedName]v1.DeviceCapacity'),
  consumesCounters: list(struct('v1.DeviceCounterConsumption', { counterSet: str(), counters, compatibilityGroups: strings })),
  nodeName: str(), nodeSelector, allNodes: bool, taints: list(deviceTaint), bindsToNode: bool, bindingConditions: strings,
  bindingFailureConditions: strings, allowMultipleAllocations: bool, nodeAllocatableResources: any,
});

export const resourceSlice = struct('v1.ResourceSlice', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.ResourceSliceSpec', {
    driver: str(),
    pool: struct('v1.ResourcePool', { name: str(), generation: int64, resourceSliceCount: int64 }),
    nodeName: str(), nodeSelector, allNodes: bool, perDeviceNodeSelection: bool, devices: list(device),
    sharedCounters: list(struct('v1.CounterSet', { name: str(), counters })), partitionTypeAttribute: str('v1.FullyQualifiedName'), skipNodeOperations: strings,
  }),
});

export const deviceTaintRule = struct('v1.DeviceTaintRule', {
  ...typeMeta,
  metadata: objectMeta,
  spec: struct('v1.DeviceTaintRuleSpec', {
    deviceSelector: struct('v1.DeviceTaintSelector', { driver: str(), pool: str(), device: str() }), taint: deviceTaint,
  }),
  status: struct('v1.DeviceTaintRuleStatus', { conditions: list(condition) }),
});

/** Kinds whose spec the scheduler does not read: metadata is checked, the rest passes. */
export function metadataOnly(go: string): StructShape {
  return struct(go, { ...typeMeta, metadata: objectMeta });
}
