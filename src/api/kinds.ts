// The Kubernetes kinds this scheduler knows, each declared once: group/version, plural, scope, what
// the scheduler does with it (scheduler.go's informers, the listers plugins read, the cluster event
// resource of framework/types.go) and the gate it needs. Every other list of kinds derives from here.
// Kinds are keyed by group and kind: Kubernetes' own kinds by their name alone (kube-apiserver
// serves each name once, Event aside), custom resources by "Kind.group" (schema.GroupKind.String()),
// so scheduler-plugins' PodGroup and scheduling.k8s.io's are two kinds.
import { featureSpecs } from './feature_gate_specs.js';

export interface KindInfo {
  readonly kind: string;
  /** "v1" for the core group, "<group>/<version>" otherwise. */
  readonly apiVersion: string;
  /** The resource name in URLs and RBAC rules ("storageclasses"). */
  readonly plural: string;
  readonly namespaced: boolean;
  /** A custom resource (a CRD's, not kube-apiserver's own): keyed "Kind.group" in the table, the store and watch events. */
  readonly crd?: true;
  /** The scheduler has an informer for it; the table's order is the order initial lists are delivered. */
  readonly watched?: true;
  /** Plugins read it through the Handle's object lister (framework ListedKind). */
  readonly listed?: true;
  /** Its changes reach the queue as the cluster event resource of the same name (framework EventResource). */
  readonly event?: true;
  /**
   * Its events wake a plugin that registers none (framework/types.go UnrollWildCardResource), with
   * its gate when it has one; a pod's as AssignedPod and UnscheduledPod.
   */
  readonly wildcardUnrolled?: true;
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
  { kind: 'StorageClass', apiVersion: 'storage.k8s.io/v1', plural: 'storageclasses', namespaced: false, watched: true, listed: true, event: true, wildcardUnrolled: true },
  { kind: 'CSINode', apiVersion: 'storage.k8s.io/v1', plural: 'csinodes', namespaced: false, watched: true, listed: true, event: true, wildcardUnrolled: true },
  { kind: 'VolumeAttachment', apiVersion: 'storage.k8s.io/v1', plural: 'volumeattachments', namespaced: false, watched: true, listed: true, event: true },
  { kind: 'CSIDriver', apiVersion: 'storage.k8s.io/v1', plural: 'csidrivers', namespaced: false, watched: true, listed: true, event: true, wildcardUnrolled: true },
  { kind: 'CSIStorageCapacity', apiVersion: 'storage.k8s.io/v1', plural: 'csistoragecapacities', namespaced: true, watched: true, listed: true, event: true, wildcardUnrolled: true },
  { kind: 'PersistentVolume', apiVersion: 'v1', plural: 'persistentvolumes', namespaced: false, watched: true, listed: true, event: true, wildcardUnrolled: true },
  { kind: 'PersistentVolumeClaim', apiVersion: 'v1', plural: 'persistentvolumeclaims', namespaced: true, watched: true, listed: true, event: true, wildcardUnrolled: true },
  { kind: 'Service', apiVersion: 'v1', plural: 'services', namespaced: true, watched: true, listed: true, event: true },
  { kind: 'ReplicationController', apiVersion: 'v1', plural: 'replicationcontrollers', namespaced: true, watched: true, listed: true },
  { kind: 'ReplicaSet', apiVersion: 'apps/v1', plural: 'replicasets', namespaced: true, watched: true, listed: true },
  { kind: 'StatefulSet', apiVersion: 'apps/v1', plural: 'statefulsets', namespaced: true, watched: true, listed: true },
  { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1', plural: 'poddisruptionbudgets', namespaced: true, watched: true, listed: true, event: true },
  // Dynamic resource allocation (DynamicResourceAllocation is locked on in v1.37). Without
  // DRADeviceTaintRules the ResourceSlice tracker has no DeviceTaintRule informer; the rules it
  // applies reach the queue as slice updates, so they have no event resource of their own.
  { kind: 'DeviceClass', apiVersion: 'resource.k8s.io/v1', plural: 'deviceclasses', namespaced: false, watched: true, listed: true, event: true, wildcardUnrolled: true },
  { kind: 'DeviceTaintRule', apiVersion: 'resource.k8s.io/v1', plural: 'devicetaintrules', namespaced: false, watched: true, listed: true, gate: 'DRADeviceTaintRules' },
  { kind: 'ResourceSlice', apiVersion: 'resource.k8s.io/v1', plural: 'resourceslices', namespaced: false, watched: true, listed: true, event: true },
  // Not watched by upstream's scheduler: the embedded claim controller and imports use it.
  { kind: 'ResourceClaimTemplate', apiVersion: 'resource.k8s.io/v1', plural: 'resourceclaimtemplates', namespaced: true, listed: true },
  { kind: 'ResourceClaim', apiVersion: 'resource.k8s.io/v1', plural: 'resourceclaims', namespaced: true, watched: true, listed: true, event: true, wildcardUnrolled: true },
  // A composite group before the groups under it (the scheduler's cache links children to parents).
  { kind: 'CompositePodGroup', apiVersion: 'scheduling.k8s.io/v1alpha3', plural: 'compositepodgroups', namespaced: true, watched: true, event: true, gate: 'CompositePodGroup' },
  { kind: 'PodGroup', apiVersion: 'scheduling.k8s.io/v1beta1', plural: 'podgroups', namespaced: true, watched: true, event: true, wildcardUnrolled: true, gate: 'GenericWorkload' },
  // A custom resource: scheduler-plugins' PodGroup, which its Coscheduling plugin reads. Watched
  // under `run` only while a profile enables such a plugin (PluginDefinition.watches).
  { kind: 'PodGroup', apiVersion: 'scheduling.x-k8s.io/v1alpha1', plural: 'podgroups', namespaced: true, crd: true, listed: true, event: true },
  { kind: 'Node', apiVersion: 'v1', plural: 'nodes', namespaced: false, watched: true, event: true, wildcardUnrolled: true },
  // Listed as the pod informer's lister (scheduler-plugins' Coscheduling lists a gang's pods).
  { kind: 'Pod', apiVersion: 'v1', plural: 'pods', namespaced: true, watched: true, listed: true, event: true, wildcardUnrolled: true },
  { kind: 'Deployment', apiVersion: 'apps/v1', plural: 'deployments', namespaced: true },
  { kind: 'DaemonSet', apiVersion: 'apps/v1', plural: 'daemonsets', namespaced: true },
  { kind: 'Job', apiVersion: 'batch/v1', plural: 'jobs', namespaced: true },
  { kind: 'Workload', apiVersion: 'scheduling.k8s.io/v1beta1', plural: 'workloads', namespaced: true, gate: 'GenericWorkload' },
  { kind: 'Event', apiVersion: 'v1', plural: 'events', namespaced: true },
  { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', plural: 'leases', namespaced: true },
  // Installs the custom resources above (api/crds.ts): the embedded API server serves one only while its CRD exists.
  { kind: 'CustomResourceDefinition', apiVersion: 'apiextensions.k8s.io/v1', plural: 'customresourcedefinitions', namespaced: false },
] as const satisfies readonly KindInfo[];

/** The gates of the table's kinds that are off at the pinned release's defaults (GenericWorkload, beta; CompositePodGroup, alpha). */
export const kindGatesOffByDefault: ReadonlySet<string> = new Set(
  kinds.flatMap((k: KindInfo) => (k.gate !== undefined && featureSpecs[k.gate]?.default !== true ? [k.gate] : [])),
);

type Kinds = (typeof kinds)[number];

/** A row's key: its kind, or "Kind.group" for a custom resource ("Pod", "PodGroup.scheduling.x-k8s.io"). */
type KeyOf<K> = K extends { readonly crd: true; readonly kind: infer N extends string; readonly apiVersion: `${infer G}/${string}` }
  ? `${N}.${G}` : K extends { readonly kind: infer N extends string } ? N : never;

/** The kinds plugins read through the object lister, by key. */
export type ListedKindName = KeyOf<Extract<Kinds, { readonly listed: true }>>;

/** The kinds whose changes are cluster events of the same name. */
export type EventKindName = KeyOf<Extract<Kinds, { readonly event: true }>>;

/** The API group of an apiVersion ('' for the core group's "v1"). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** The key of a row of the table. */
export function kindKey(k: Pick<KindInfo, 'kind' | 'apiVersion' | 'crd'>): string {
  return k.crd === true ? `${k.kind}.${groupOf(k.apiVersion)}` : k.kind;
}

const byKey: ReadonlyMap<string, KindInfo> = new Map(kinds.map((k) => [kindKey(k), k]));
const crds: readonly KindInfo[] = kinds.filter((k: KindInfo) => k.crd === true);
/** Kind names some custom resource has: any other kind is keyed by its name without a lookup. */
const crdKindNames: ReadonlySet<string> = new Set(crds.map((k) => k.kind));
/** Custom resources by "group kind" as objects spell them. */
const crdByGroupKind: ReadonlyMap<string, string> = new Map(crds.map((k) => [`${groupOf(k.apiVersion)} ${k.kind}`, kindKey(k)]));

/**
 * The key an object of `kind` and `apiVersion` is kept under: the custom resource's of that group
 * when there is one, else the kind itself (a built-in kind named under another group is refused by
 * validation with its own message, not taken for another kind).
 */
export function kindKeyOf(o: { readonly apiVersion?: string | undefined; readonly kind?: string | undefined }): string {
  const kind = o.kind ?? '';
  // Every event and store write asks: most kinds answer without building a string.
  if (o.apiVersion === undefined || !crdKindNames.has(kind)) return kind;
  return crdByGroupKind.get(`${groupOf(o.apiVersion)} ${kind}`) ?? kind;
}

/** The table's entry of a kind key; throws for a key the table does not declare (a programming error). */
export function kindInfo(key: string): KindInfo {
  const k = byKey.get(key);
  if (k === undefined) throw new Error(`kind ${key} is not declared in api/kinds.ts`);
  return k;
}

/** Keys of the kinds that carry no namespace. */
export const clusterScopedKinds: ReadonlySet<string> = new Set(kinds.filter((k) => !k.namespaced).map((k) => kindKey(k)));
