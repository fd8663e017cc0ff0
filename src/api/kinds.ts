// The Kubernetes kinds this scheduler knows, each declared once: group/version, plural, scope, what
// the scheduler does with it (scheduler.go's informers, the listers plugins read, the cluster event
// resource of framework/types.go) and the gate it needs. Every other list of kinds derives from here.

export interface KindInfo {
  readonly kind: string;
  /** "v1" for the core group, "<group>/<version>" otherwise. */
  readonly apiVersion: string;
  /** The resource name in URLs and RBAC rules ("storageclasses"). */
  readonly plural: string;
  readonly namespaced: boolean;
  /** The scheduler has an informer for it; the table's order is the order initial lists are delivered. */
  readonly watched?: true;
  /** Plugins read it through the Handle's object lister (framework ListedKind). */
  readonly listed?: true;
  /** Its changes reach the queue as the cluster event resource of the same name (framework EventResource). */
  readonly event?: true;
  /** The feature gate without which the scheduler does not watch it (nor the API server serve it). */
  readonly gate?: string;
}

/**
 * Objects the plugins read come first, then pod groups before their members, nodes, and pods; the
 * kinds only the embedded API server and its controllers use close the table.
 */
export const kinds = [
  { kind: 'Namespace', apiVersion: 'v1', plural: 'namespaces', namespaced: false, watched: true, listed: true, event: true },
  // Not watched: admission of pods reads it in the embedded cluster, and simulations import it.
  { kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1', plural: 'priorityclasses', namespaced: false, listed: true },
  { kind: 'StorageClass', apiVersion: 'storage.k8s.io/v1', plural: 'storageclasses', namespaced: false, watched: true, listed: true, event: true },
  { kind: 'CSINode', apiVersion: 'storage.k8s.io/v1', plural: 'csinodes', namespaced: false, watched: true, listed: true, event: true },
  { kind: 'VolumeAttachment', apiVersion: 'storage.k8s.io/v1', plural: 'volumeattachments', namespaced: false, watched: true, listed: true, event: true },
  { kind: 'CSIDriver', apiVersion: 'storage.k8s.io/v1', plural: 'csidrivers', namespaced: false, watched: true, listed: true, event: true },
  { kind: 'CSIStorageCapacity', apiVersion: 'storage.k8s.io/v1', plural: 'csistoragecapacities', namespaced: true, watched: true, listed: true, event: true },
  { kind: 'PersistentVolume', apiVersion: 'v1', plural: 'persistentvolumes', namespaced: false, watched: true, listed: true, event: true },
  { kind: 'PersistentVolumeClaim', apiVersion: 'v1', plural: 'persistentvolumeclaims', namespaced: true, watched: true, listed: true, event: true },
  { kind: 'Service', apiVersion: 'v1', plural: 'services', namespaced: true, watched: true, listed: true, event: true },
  { kind: 'ReplicationController', apiVersion: 'v1', plural: 'replicationcontrollers', namespaced: true, watched: true, listed: true },
  { kind: 'ReplicaSet', apiVersion: 'apps/v1', plural: 'replicasets', namespaced: true, watched: true, listed: true },
  { kind: 'StatefulSet', apiVersion: 'apps/v1', plural: 'statefulsets', namespaced: true, watched: true, listed: true },
  { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1', plural: 'poddisruptionbudgets', namespaced: true, watched: true, listed: true, event: true },
  // Dynamic resource allocation (DynamicResourceAllocation is locked on in v1.37). Without
  // DRADeviceTaintRules the ResourceSlice tracker has no DeviceTaintRule informer; the rules it
  // applies reach the queue as slice updates, so they have no event resource of their own.
  { kind: 'DeviceClass', apiVersion: 'resource.k8s.io/v1', plural: 'deviceclasses', namespaced: false, watched: true, listed: true, event: true },
  { kind: 'DeviceTaintRule', apiVersion: 'resource.k8s.io/v1', plural: 'devicetaintrules', namespaced: false, watched: true, listed: true, gate: 'DRADeviceTaintRules' },
  { kind: 'ResourceSlice', apiVersion: 'resource.k8s.io/v1', plural: 'resourceslices', namespaced: false, watched: true, listed: true, event: true },
  // Not watched by upstream's scheduler: the embedded claim controller and imports use it.
  { kind: 'ResourceClaimTemplate', apiVersion: 'resource.k8s.io/v1', plural: 'resourceclaimtemplates', namespaced: true, listed: true },
  { kind: 'ResourceClaim', apiVersion: 'resource.k8s.io/v1', plural: 'resourceclaims', namespaced: true, watched: true, listed: true, event: true },
  { kind: 'PodGroup', apiVersion: 'scheduling.k8s.io/v1beta1', plural: 'podgroups', namespaced: true, watched: true, event: true, gate: 'GenericWorkload' },
  { kind: 'Node', apiVersion: 'v1', plural: 'nodes', namespaced: false, watched: true, event: true },
  { kind: 'Pod', apiVersion: 'v1', plural: 'pods', namespaced: true, watched: true, event: true },
  { kind: 'Deployment', apiVersion: 'apps/v1', plural: 'deployments', namespaced: true },
  { kind: 'DaemonSet', apiVersion: 'apps/v1', plural: 'daemonsets', namespaced: true },
  { kind: 'Job', apiVersion: 'batch/v1', plural: 'jobs', namespaced: true },
  { kind: 'Workload', apiVersion: 'scheduling.k8s.io/v1beta1', plural: 'workloads', namespaced: true, gate: 'GenericWorkload' },
  { kind: 'Event', apiVersion: 'v1', plural: 'events', namespaced: true },
  { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', plural: 'leases', namespaced: true },
] as const satisfies readonly KindInfo[];

type Kinds = (typeof kinds)[number];

/** The kinds plugins read through the object lister. */
export type ListedKindName = Extract<Kinds, { readonly listed: true }>['kind'];

/** The kinds whose changes are cluster events of the same name. */
export type EventKindName = Extract<Kinds, { readonly event: true }>['kind'];

const byName: ReadonlyMap<string, KindInfo> = new Map(kinds.map((k) => [k.kind, k]));

/** The table's entry of a kind; throws for a kind the table does not declare (a programming error). */
export function kindInfo(kind: string): KindInfo {
  const k = byName.get(kind);
  if (k === undefined) throw new Error(`kind ${kind} is not declared in api/kinds.ts`);
  return k;
}

/** Kinds that carry no namespace. */
export const clusterScopedKinds: ReadonlySet<string> = new Set(kinds.filter((k) => !k.namespaced).map((k) => k.kind));
