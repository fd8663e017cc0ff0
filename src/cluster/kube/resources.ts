// The kinds the scheduler lists and watches, with their API paths, in the order their initial lists
// are delivered (objects the plugins read first, nodes, then pods), as scheduler.go's informers.
import { kindGatesOffByDefault, kindInfo, kindKey, kinds, type KindInfo } from '../../api/kinds.js';

export interface ResourceSpec {
  /** The kind's key in api/kinds.ts: the kind, or "Kind.group" for a custom resource. */
  readonly key: string;
  readonly kind: string;
  readonly apiVersion: string;
  /** Cluster-wide collection path (all namespaces). */
  readonly path: string;
  readonly namespaced: boolean;
  readonly fieldSelector?: string;
}

/** A kind's collection (by kind key), cluster-wide: /api/v1/<plural> or /apis/<group>/<version>/<plural>. */
export function resourceSpec(key: string): ResourceSpec {
  const k = kindInfo(key);
  const path = k.apiVersion.includes('/') ? `/apis/${k.apiVersion}/${k.plural}` : `/api/${k.apiVersion}/${k.plural}`;
  const spec: ResourceSpec = { key: kindKey(k), kind: k.kind, apiVersion: k.apiVersion, path, namespaced: k.namespaced };
  return k.kind === 'Pod' ? { ...spec, fieldSelector: nonTerminalPodsSelector } : spec;
}

/**
 * Kinds whose informer drops each object's metadata.managedFields: pods, as upstream's newPodInformer
 * (pkg/scheduler/scheduler.go) does, and nodes, which upstream keeps but nothing of the scheduler
 * reads. Both lists are the start's largest; their items' managedFields are cut before parsing.
 */
export function informerDropsManagedFields(kind: string): boolean {
  return kind === 'Pod' || kind === 'Node';
}

/** Pods in a terminal phase hold no resources: the scheduler's pod informer leaves them out (NewInformerFactory). */
const nonTerminalPodsSelector = 'status.phase!=Succeeded,status.phase!=Failed';

/** Every kind the scheduler may watch, in delivery order (the `watched` kinds of api/kinds.ts). */
const allResources: readonly { spec: ResourceSpec; gate: string | undefined }[] = kinds
  .filter((k: KindInfo) => k.watched === true)
  .map((k: KindInfo) => ({ spec: resourceSpec(kindKey(k)), gate: k.gate }));


/**
 * A kind a cluster at the pinned release's defaults does not serve: gated off by default
 * (GenericWorkload's), or a custom resource whose CRD may not be installed.
 */
export function servedOnlyBeyondDefaults(key: string): boolean {
  const k = kindInfo(key);
  return k.crd === true || (k.gate !== undefined && kindGatesOffByDefault.has(k.gate));
}

/** The kinds watched with the given feature gates. */
export function watchedResourcesFor(enabled: (gate: string) => boolean): readonly ResourceSpec[] {
  return allResources.filter((r) => r.gate === undefined || enabled(r.gate)).map((r) => r.spec);
}

/** The kinds watched at the pinned release's defaults. */
export const watchedResources: readonly ResourceSpec[] = watchedResourcesFor((gate) => !kindGatesOffByDefault.has(gate));

/** `specs` without repeats, in the kinds table's order (the order their initial lists are delivered). */
export function inTableOrder(specs: readonly ResourceSpec[]): ResourceSpec[] {
  const rank = (s: ResourceSpec) => kinds.findIndex((k: KindInfo) => kindKey(k) === s.key);
  const unique = specs.filter((s, i) => specs.findIndex((t) => t.key === s.key) === i);
  return unique.map((s, i) => ({ s, i })).sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i).map((x) => x.s);
}

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

/** What a list of `spec` asks the server for (path and field selector): a list made elsewhere is reused only for the same. */
export const listKeyOf = (spec: ResourceSpec): string => `${spec.path}?fieldSelector=${spec.fieldSelector ?? ''}`;
