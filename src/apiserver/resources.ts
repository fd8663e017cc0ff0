// The resources the embedded API server serves and its discovery documents
// (staging/src/k8s.io/apiserver/pkg/endpoints/discovery, pkg/registry/*/storage for verbs and short names).
import { crdNameOf } from '../api/crds.js';
import { groupOf, kindGatesOffByDefault, kindInfo, kindKey } from '../api/kinds.js';

export interface Resource {
  /** API group; '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** The plural resource name in URLs ("pods"). */
  readonly name: string;
  readonly singularName: string;
  readonly kind: string;
  /** The kind key objects are kept under in the embedded store (api/kinds.ts; both event APIs share "Event"). */
  readonly storeKind: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** Has a status subresource: the main resource keeps the stored status, status writes keep the rest. */
  readonly hasStatus: boolean;
  /** Field selectors beyond metadata.name and metadata.namespace. */
  readonly fields?: readonly string[];
  /** PUT of a missing object creates it (rest.RESTUpdateStrategy.AllowCreateOnUpdate). */
  readonly allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion is refused (AllowUnconditionalUpdate false). */
  readonly requireResourceVersion?: boolean;
  /** DELETE answers with the deleted object instead of a Status (Store.ReturnDeletedObject). */
  readonly returnDeletedObject?: boolean;
  /** Creation sets metadata.generation and spec changes increment it. */
  readonly tracksGeneration?: boolean;
  /** Status fields the create strategy keeps (the rest of status is dropped on create); undefined keeps all. */
  readonly statusOnCreate?: 'reset' | 'keep';
  /** Status writes keep all of the stored metadata, labels and annotations too (metav1.ResetObjectMetaForStatus). */
  readonly statusResetsMetadata?: boolean;
  /** Has a scale subresource (autoscaling/v1 Scale over spec.replicas). */
  readonly scale?: boolean;
  /** The feature gate without which kube-apiserver does not serve it (api/kinds.ts). */
  readonly gate?: string;
  /** The group/version stored objects carry when this is another version of the kind (its table version). */
  readonly storageVersion?: string;
  /** A custom resource: the CustomResourceDefinition without which it is not served. */
  readonly definedBy?: string;
}

const podFields = ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork',
  'status.phase', 'status.podIP', 'status.nominatedNodeName'];
const coreEventFields = ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
  'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'];
const eventsV1Fields = ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'regarding.apiVersion',
  'regarding.resourceVersion', 'regarding.fieldPath', 'reason', 'reportingController', 'type'];

/** A kind of api/kinds.ts (by key) as served: its group, version, plural and scope from the table. */
function served(key: string): Pick<Resource, 'group' | 'version' | 'name' | 'singularName' | 'kind' | 'storeKind' | 'namespaced' | 'gate' | 'definedBy'> {
  const k = kindInfo(key);
  return {
    group: groupOf(k.apiVersion), version: k.apiVersion.slice(k.apiVersion.indexOf('/') + 1), name: k.plural,
    singularName: k.kind.toLowerCase(), kind: k.kind, storeKind: kindKey(k), namespaced: k.namespaced,
    ...(k.gate !== undefined ? { gate: k.gate } : {}),
    ...(k.crd === true ? { definedBy: crdNameOf(key) } : {}),
  };
}

/** Another version of a kind of the table, served under `gate`, its objects stored as the table's version. */
function servedAs(key: string, version: string, gate: string): ReturnType<typeof served> & Pick<Resource, 'storageVersion'> {
  return { ...served(key), version, gate, storageVersion: kindInfo(key).apiVersion };
}

export const resources: readonly Resource[] = [
  { ...served('Pod'), shortNames: ['po'], categories: ['all'],
    hasStatus: true, fields: podFields, returnDeletedObject: true, tracksGeneration: true, statusOnCreate: 'reset' },
  { ...served('Node'), shortNames: ['no'],
    hasStatus: true, fields: ['spec.unschedulable'], statusOnCreate: 'keep' },
  { ...served('Namespace'), shortNames: ['ns'],
    hasStatus: true, fields: ['status.phase'], returnDeletedObject: true, statusOnCreate: 'reset' },
  { ...served('Event'), shortNames: ['ev'],
    hasStatus: false, fields: coreEventFields, allowCreateOnUpdate: true },
  { ...served('Service'), shortNames: ['svc'], categories: ['all'],
    hasStatus: true, allowCreateOnUpdate: true, returnDeletedObject: true, statusOnCreate: 'reset' },
  { ...served('PersistentVolume'), shortNames: ['pv'],
    hasStatus: true, statusOnCreate: 'reset' },
  { ...served('PersistentVolumeClaim'), shortNames: ['pvc'],
    hasStatus: true, statusOnCreate: 'reset' },
  { ...served('ReplicationController'), shortNames: ['rc'], categories: ['all'],
    hasStatus: true, fields: ['status.replicas'], tracksGeneration: true, statusOnCreate: 'reset', scale: true },
  { ...served('Deployment'), shortNames: ['deploy'], categories: ['all'],
    hasStatus: true, tracksGeneration: true, statusOnCreate: 'reset', scale: true },
  { ...served('DaemonSet'), shortNames: ['ds'], categories: ['all'],
    hasStatus: true, tracksGeneration: true, statusOnCreate: 'reset' },
  { ...served('ReplicaSet'), shortNames: ['rs'], categories: ['all'],
    hasStatus: true, fields: ['status.replicas'], tracksGeneration: true, statusOnCreate: 'reset', scale: true },
  { ...served('StatefulSet'), shortNames: ['sts'], categories: ['all'],
    hasStatus: true, tracksGeneration: true, statusOnCreate: 'reset', scale: true },
  { ...served('Job'), categories: ['all'],
    hasStatus: true, tracksGeneration: true, statusOnCreate: 'reset' },
  { ...served('PodDisruptionBudget'), shortNames: ['pdb'],
    hasStatus: true, tracksGeneration: true, statusOnCreate: 'reset' },
  { ...served('PriorityClass'), shortNames: ['pc'],
    hasStatus: false },
  { ...served('StorageClass'), shortNames: ['sc'],
    hasStatus: false },
  { ...served('CSINode'), 
    hasStatus: false },
  { ...served('VolumeAttachment'), 
    hasStatus: true, statusOnCreate: 'reset' },
  { ...served('CSIDriver'), 
    hasStatus: false },
  { ...served('CSIStorageCapacity'), 
    hasStatus: false },
  { ...served('DeviceClass'), 
    hasStatus: false, tracksGeneration: true },
  { ...served('DeviceTaintRule'), 
    hasStatus: true, tracksGeneration: true, statusOnCreate: 'reset', requireResourceVersion: true },
  { ...served('ResourceClaim'), 
    hasStatus: true, statusOnCreate: 'reset', statusResetsMetadata: true },
  { ...served('ResourceClaimTemplate'), 
    hasStatus: false },
  { ...served('ResourceSlice'), 
    hasStatus: false, fields: ['spec.nodeName', 'spec.driver', 'spec.pool.name'], tracksGeneration: true },
  { ...served('Lease'), 
    hasStatus: false, requireResourceVersion: true },
  // scheduling.k8s.io/v1beta1 under GenericWorkload (pkg/registry/scheduling: no generation, no
  // unconditional update; a PodGroup's status is its own subresource).
  { ...served('Workload'),
    hasStatus: false, requireResourceVersion: true },
  { ...served('PodGroup'),
    hasStatus: true, requireResourceVersion: true, statusOnCreate: 'reset', statusResetsMetadata: true },
  // scheduling.k8s.io/v1alpha3: Workload and PodGroup as v1beta1's (the same fields, stored as
  // v1beta1), and CompositePodGroup (pkg/registry/scheduling/rest v1alpha3Storage). kube-apiserver
  // serves the version when runtime-config enables it; here the CompositePodGroup gate does.
  { ...servedAs('Workload', 'v1alpha3', 'CompositePodGroup'),
    hasStatus: false, requireResourceVersion: true },
  { ...servedAs('PodGroup', 'v1alpha3', 'CompositePodGroup'),
    hasStatus: true, requireResourceVersion: true, statusOnCreate: 'reset', statusResetsMetadata: true },
  { ...served('CompositePodGroup'),
    hasStatus: true, requireResourceVersion: true, statusOnCreate: 'reset', statusResetsMetadata: true },
  { ...served('CustomResourceDefinition'), shortNames: ['crd', 'crds'], categories: ['api-extensions'],
    hasStatus: true, tracksGeneration: true, statusOnCreate: 'reset' },
  // Custom resources, served as their CRDs do while those are installed.
  { ...served('PodGroup.scheduling.x-k8s.io'), shortNames: ['pg', 'pgs'],
    hasStatus: true, tracksGeneration: true, statusOnCreate: 'reset' },
  { group: 'events.k8s.io', version: 'v1', name: 'events', singularName: 'event', kind: 'Event', storeKind: 'Event', namespaced: true, shortNames: ['ev'],
    hasStatus: false, fields: eventsV1Fields, allowCreateOnUpdate: true },
];

export function groupVersion(r: Pick<Resource, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** The resources of `served` whose CRD, if they need one, `installed` holds (the apiextensions server's). */
export function withInstalledCrds(served: readonly Resource[], installed: (crdName: string, version: string) => boolean): readonly Resource[] {
  return served.some((r) => r.definedBy !== undefined) ? served.filter((r) => r.definedBy === undefined || installed(r.definedBy, r.version)) : served;
}

/** The resources served with the given feature gates: a gated kind only with its gate on, as kube-apiserver's storage providers. */
export function resourcesFor(enabled: (gate: string) => boolean): readonly Resource[] {
  return resources.filter((r) => r.gate === undefined || enabled(r.gate));
}

/** What a server at the pinned release's defaults serves. */
export const servedByDefault = resourcesFor((gate) => !kindGatesOffByDefault.has(gate));

/** The resource served at `group/version` under `name`, if any. */
export function findResource(group: string, version: string, name: string, served: readonly Resource[] = servedByDefault): Resource | undefined {
  for (const r of served) if (r.group === group && r.version === version && r.name === name) return r;
  return undefined;
}

/** Every group/version served, core first, in the order the table lists them. */
function groupVersions(served: readonly Resource[]): { group: string; version: string }[] {
  const out: { group: string; version: string }[] = [];
  for (const r of served) if (!out.some((g) => g.group === r.group && g.version === r.version)) out.push({ group: r.group, version: r.version });
  return out;
}

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** A custom resource's verbs, in the order apiextensions-apiserver's discovery writes them. */
const crdVerbs = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/**
 * The APIResourceList of one group/version, with its subresources. kube-apiserver lists a built-in
 * group's resources by name (its installer registers the storage paths sorted, subresources
 * included); a custom resource's group keeps each CRD's resource, status and scale together, as
 * apiextensions-apiserver's discovery controller appends them.
 */
export function apiResourceList(group: string, version: string, served: readonly Resource[] = servedByDefault): Record<string, unknown> | undefined {
  const list: Record<string, unknown>[] = [];
  let custom = false;
  for (const r of served) {
    if (r.group !== group || r.version !== version) continue;
    custom ||= r.definedBy !== undefined;
    const entry: Record<string, unknown> = { name: r.name, singularName: r.singularName, namespaced: r.namespaced, kind: r.kind, verbs: r.definedBy !== undefined ? crdVerbs : verbs };
    if (r.shortNames) entry.shortNames = r.shortNames;
    if (r.categories) entry.categories = r.categories;
    list.push(entry);
    if (r.kind === 'Pod') {
      list.push({ name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] });
      list.push({ name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    }
    if (r.hasStatus) list.push({ name: `${r.name}/status`, singularName: '', namespaced: r.namespaced, kind: r.kind, verbs: ['get', 'patch', 'update'] });
    if (r.scale) list.push({ name: `${r.name}/scale`, singularName: '', namespaced: r.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  }
  if (list.length === 0) return undefined;
  if (group === '') list.push({ name: 'bindings', singularName: 'binding', namespaced: true, kind: 'Binding', verbs: ['create'] });
  if (!custom) list.sort((a, b) => (a.name as string) < (b.name as string) ? -1 : 1);
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion({ group, version }), resources: list };
}

/** /api: the core group's versions. */
export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(group: string, served: readonly Resource[]): Record<string, unknown> {
  const versions = groupVersions(served).filter((g) => g.group === group).map((g) => ({ groupVersion: groupVersion(g), version: g.version }));
  return { name: group, versions, preferredVersion: versions[0] };
}

/** /apis: every named group. */
export function apiGroupList(served: readonly Resource[] = servedByDefault): Record<string, unknown> {
  const groups: Record<string, unknown>[] = [];
  for (const g of groupVersions(served)) if (g.group !== '' && !groups.some((x) => x.name === g.group)) groups.push(apiGroup(g.group, served));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** /apis/<group>, when the group is served. */
export function apiGroupDocument(group: string, served: readonly Resource[] = servedByDefault): Record<string, unknown> | undefined {
  if (!groupVersions(served).some((g) => g.group === group && group !== '')) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, served) };
}
