// The kinds the scheduler lists and watches, with their API paths, in the order their initial lists
// are delivered (objects the plugins read first, nodes, then pods), as scheduler.go's informers.

export interface ResourceSpec {
  readonly kind: string;
  readonly apiVersion: string;
  /** Cluster-wide collection path (all namespaces). */
  readonly path: string;
  readonly namespaced: boolean;
  readonly fieldSelector?: string;
}

const core = (kind: string, plural: string, namespaced: boolean, fieldSelector?: string): ResourceSpec => ({
  kind, apiVersion: 'v1', path: `/api/v1/${plural}`, namespaced, fieldSelector,
});
/** A kind of an API group: its collection at /apis/<group>/<version>/<plural>. */
export const group = (kind: string, gv: string, plural: string, namespaced: boolean): ResourceSpec => ({
  kind, apiVersion: gv, path: `/apis/${gv}/${plural}`, namespaced,
});

/** Pods in a terminal phase hold no resources: the scheduler's pod informer leaves them out (NewInformerFactory). */
const nonTerminalPodsSelector = 'status.phase!=Succeeded,status.phase!=Failed';

/** Every kind the scheduler may watch, in delivery order. */
const allResources: readonly ResourceSpec[] = [
  core('Namespace', 'namespaces', false),
  group('StorageClass', 'storage.k8s.io/v1', 'storageclasses', false),
  group('CSINode', 'storage.k8s.io/v1', 'csinodes', false),
  group('VolumeAttachment', 'storage.k8s.io/v1', 'volumeattachments', false),
  group('CSIDriver', 'storage.k8s.io/v1', 'csidrivers', false),
  group('CSIStorageCapacity', 'storage.k8s.io/v1', 'csistoragecapacities', true),
  core('PersistentVolume', 'persistentvolumes', false),
  core('PersistentVolumeClaim', 'persistentvolumeclaims', true),
  core('Service', 'services', true),
  core('ReplicationController', 'replicationcontrollers', true),
  group('ReplicaSet', 'apps/v1', 'replicasets', true),
  group('StatefulSet', 'apps/v1', 'statefulsets', true),
  group('PodDisruptionBudget', 'policy/v1', 'poddisruptionbudgets', true),
  // Dynamic resource allocation (DynamicResourceAllocation is locked on in v1.37).
  group('DeviceClass', 'resource.k8s.io/v1', 'deviceclasses', false),
  group('DeviceTaintRule', 'resource.k8s.io/v1', 'devicetaintrules', false),
  group('ResourceSlice', 'resource.k8s.io/v1', 'resourceslices', false),
  group('ResourceClaim', 'resource.k8s.io/v1', 'resourceclaims', true),
  // Pod groups (GenericWorkload), before their members.
  group('PodGroup', 'scheduling.k8s.io/v1beta1', 'podgroups', true),
  core('Node', 'nodes', false),
  core('Pod', 'pods', true, nonTerminalPodsSelector),
];

/**
 * Kinds watched only with a gate on: without DRADeviceTaintRules scheduler.go builds the
 * ResourceSlice tracker with no DeviceTaintRule informer (and needs no RBAC for them); without
 * GenericWorkload it has no PodGroup informer (and the API server does not serve them).
 */
const gateOfKind: Readonly<Record<string, string>> = { DeviceTaintRule: 'DRADeviceTaintRules', PodGroup: 'GenericWorkload' };

/** The gates above that are off by default. */
const offByDefault: ReadonlySet<string> = new Set(['GenericWorkload']);

/** The kinds watched with the given feature gates. */
export function watchedResourcesFor(enabled: (gate: string) => boolean): readonly ResourceSpec[] {
  return allResources.filter((r) => {
    const gate = gateOfKind[r.kind];
    return gate === undefined || enabled(gate);
  });
}

/** The kinds watched at the pinned release's defaults. */
export const watchedResources: readonly ResourceSpec[] = watchedResourcesFor((gate) => !offByDefault.has(gate));

/** Path of one namespaced pod, with an optional subresource. */
export function podPath(namespace: string, name: string, subresource?: string): string {
  const base = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`;
  return subresource ? `${base}/${subresource}` : base;
}

/** Path of one ResourceClaim, with an optional subresource. */
export function resourceClaimPath(namespace: string, name?: string, subresource?: string): string {
  const base = `/apis/resource.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/resourceclaims`;
  if (name === undefined) return base;
  return subresource ? `${base}/${encodeURIComponent(name)}/${subresource}` : `${base}/${encodeURIComponent(name)}`;
}

/** The cache key of an object: namespace/name, or name for cluster-scoped kinds. */
export function storeKey(o: { metadata?: { namespace?: string; name?: string } }): string {
  const ns = o.metadata?.namespace;
  return ns ? `${ns}/${o.metadata?.name ?? ''}` : (o.metadata?.name ?? '');
}
