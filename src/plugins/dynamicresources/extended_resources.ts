// Extended resources backed by DRA (KEP-5004): the claim DynamicResources makes for a pod's
// extended resources that no node advertises, and its requests per node
// (pkg/scheduler/framework/plugins/dynamicresources/extendeddynamicresources.go).
import { exactScaledValue } from '../../api/quantity.js';
import type { Container, ContainerExtendedResourceRequest, Pod } from '../../api/types.js';
import type { DeviceRequest, ResourceClaim } from '../../api/dra_types.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import { Status } from '../../framework/status.js';
import { ExtendedResourceClaimAnnotation, isDRAExtendedResourceName, type DeviceClassResolver } from '../../dra/device_class_resolver.js';

/** What the extended-resource logic asks of the resolver (a table in tests). */
export type DeviceClassLookup = Pick<DeviceClassResolver, 'getDeviceClass'>;
import type { DynamicResourcesState, ExtendedNeeds, NodeExtendedResourceClaim } from './state.js';

/**
 * The name of the claim while it lives only in the scheduler (specialClaimInMemName): not a valid
 * object name, so it never clashes with a real claim; PreBind creates it with a generated name.
 */
export const SpecialClaimInMemName = '<extended-resources>';

export const isSpecialClaimName = (name: string | undefined): boolean => name === SpecialClaimInMemName;

/** Whether the pod asks for (a non-zero amount of) a resource some DeviceClass backs. */
export function hasDeviceClassMappedExtendedResource(scalars: ReadonlyMap<string, number>, classes: DeviceClassLookup): boolean {
  for (const [name, quantity] of scalars) {
    if (quantity !== 0 && isDRAExtendedResourceName(name) && classes.getDeviceClass(name) !== undefined) return true;
  }
  return false;
}

/** The extended-resources claim an earlier attempt created for the pod: annotated, controlled by the pod. */
export function findExtendedResourceClaim(pod: Pod, claims: readonly ResourceClaim[]): ResourceClaim | undefined {
  for (const c of claims) {
    if (c.metadata.annotations?.[ExtendedResourceClaimAnnotation] !== 'true') continue;
    for (const o of c.metadata.ownerReferences ?? []) {
      if (o.name === pod.metadata.name && o.controller === true && o.uid === pod.metadata.uid) return c;
    }
  }
  return undefined;
}

const sameObject = (a: ResourceClaim, b: ResourceClaim): boolean => a.metadata.name === b.metadata.name && a.metadata.namespace === b.metadata.namespace;

/** The UIDs of a claim's controlling owners, when it is an extended-resources claim. */
function controllerUIDs(claim: ResourceClaim | undefined): string[] {
  if (claim === undefined || claim.metadata.annotations?.[ExtendedResourceClaimAnnotation] !== 'true') return [];
  const out: string[] = [];
  for (const o of claim.metadata.ownerReferences ?? []) if (o.controller === true) out.push(o.uid ?? '');
  return out;
}

/**
 * findExtendedResourceClaim over every claim, answered from the extended-resources claims indexed
 * by their controlling owner's UID: upstream scans every claim for every pod, which at thousands
 * of claims costs more than the rest of the pod's PreFilter. The index follows the lister's
 * changes and keeps each owner's claims in the lister's order, so the first match is the scan's.
 */
export class ExtendedResourceClaimIndex {
  /** null: to be built from the list (at first use, or after a change the lister did not name). */
  private byOwner: Map<string, ResourceClaim[]> | null = null;
  private readonly watched: boolean;

  constructor(private readonly lister: ObjectLister) {
    this.watched = lister.onChange !== undefined;
    lister.onChange?.((kind, oldObj, newObj) => {
      if (kind !== 'ResourceClaim' || this.byOwner === null) return;
      if (oldObj === undefined && newObj === undefined) this.byOwner = null;
      else changeIndexed(this.byOwner, oldObj as ResourceClaim | undefined, newObj as ResourceClaim | undefined);
    });
  }

  /** The extended-resources claim an earlier attempt created for the pod, as findExtendedResourceClaim finds it in the list. */
  find(pod: Pod): ResourceClaim | undefined {
    if (!this.watched) return findExtendedResourceClaim(pod, this.lister.list<ResourceClaim>('ResourceClaim'));
    if (this.byOwner === null) {
      const byOwner = new Map<string, ResourceClaim[]>();
      for (const claim of this.lister.list<ResourceClaim>('ResourceClaim')) changeIndexed(byOwner, undefined, claim);
      this.byOwner = byOwner;
    }
    const claims = this.byOwner.get(pod.metadata.uid ?? '');
    return claims === undefined ? undefined : findExtendedResourceClaim(pod, claims);
  }
}

/** Replaces `oldObj` by `newObj` (either may be absent) where they are indexed; an update keeps its place. */
function changeIndexed(byOwner: Map<string, ResourceClaim[]>, oldObj: ResourceClaim | undefined, newObj: ResourceClaim | undefined): void {
  const added = controllerUIDs(newObj);
  for (const uid of controllerUIDs(oldObj)) {
    if (added.includes(uid)) continue;
    const claims = byOwner.get(uid);
    const i = claims === undefined ? -1 : claims.findIndex((c) => sameObject(c, oldObj!));
    if (i < 0) continue;
    claims!.splice(i, 1);
    if (claims!.length === 0) byOwner.delete(uid);
  }
  for (const uid of added) {
    let claims = byOwner.get(uid);
    if (claims === undefined) byOwner.set(uid, (claims = []));
    const i = claims.findIndex((c) => sameObject(c, newObj!));
    if (i >= 0) claims[i] = newObj!;
    else claims.push(newObj!);
  }
}

/** The in-memory claim, without requests until Filter knows the node; `uid` stands in until it is created. */
export function newExtendedResourceClaim(pod: Pod, uid: string): ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      namespace: pod.metadata.namespace ?? 'default',
      name: SpecialClaimInMemName,
      uid,
      generateName: `${pod.metadata.name ?? ''}-extended-resources-`,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', controller: true }],
      annotations: { [ExtendedResourceClaimAnnotation]: 'true' },
    },
    spec: {},
  };
}


/**
 * filterExtendedResources: null when devices serve nothing here (or the pod has no such claim),
 * else the claim with the requests for what the node does not advertise in its allocatable.
 */
export function filterExtendedResources(state: DynamicResourcesState, pod: Pod, nodeInfo: NodeInfo, classes: DeviceClassLookup): NodeExtendedResourceClaim | null | Status {
  const claim = state.extendedResourceClaim();
  if (claim === null || state.extended === null) return null;
  // A claim an earlier attempt made: PostFilter deletes it and the next attempt starts anew.
  if ((claim.spec.devices?.requests?.length ?? 0) > 0) return Status.unresolvable('cannot schedule extended resource claim');
  const podScalars = state.extended.podScalarResources;
  // Per attempt, not per node (no closure made per node either).
  const needs = (state.extendedNeeds ??= neededExtendedResources(podScalars, classes));
  let mask = -1;
  if (needs.fits) {
    // The node's needs as a bit mask: no map and no key per node, the variant found by it.
    const scalars = nodeInfo.allocatable.scalarResources;
    mask = 0;
    for (let i = 0; i < needs.names.length; i++) {
      const onNode = scalars?.get(needs.names[i]!);
      if (needs.backed[i] === true && (onNode ?? 0) === 0) mask |= 1 << i;
      else if (onNode === undefined) return Status.unresolvable('cannot fit resource');
    }
    if (state.noUserClaim && mask === 0) return null;
    if (claim.status?.allocation !== undefined) return null;
    const variant = state.maskVariant(claim, mask);
    if (variant !== undefined) return variant;
  }
  const extendedResources = resourcesFromDevices(podScalars, nodeInfo, classes);
  if (extendedResources instanceof Status) return extendedResources;
  if (state.noUserClaim && extendedResources.size === 0) return null;
  if (claim.status?.allocation !== undefined) return null;
  // Nodes that need devices for the same resources get the same variant object, so the allocator
  // sees one question (its key and kept answers) instead of a new claim per node.
  let key = '';
  for (const [name, quantity] of extendedResources) key += `${name}=${quantity}:${classes.getDeviceClass(name)?.metadata.name ?? ''}\n`;
  const kept = state.nodeVariant(claim, key);
  if (kept !== undefined) return mask >= 0 ? state.keepNodeVariant(claim, key, kept, mask) : kept;
  const { requests, mappings } = createRequestsAndMappings(pod, extendedResources, classes);
  return state.keepNodeVariant(claim, key, { claim: { ...claim, spec: { ...claim.spec, devices: { ...claim.spec.devices, requests } } }, mappings }, mask);
}

/** The pod's resources resourcesFromDevices looks at, in its order (see ExtendedNeeds). */
function neededExtendedResources(podScalars: ReadonlyMap<string, number>, classes: DeviceClassLookup): ExtendedNeeds {
  const names: string[] = [];
  const backed: boolean[] = [];
  for (const [name, quantity] of podScalars) {
    if (quantity === 0 || !isDRAExtendedResourceName(name)) continue;
    names.push(name);
    backed.push(classes.getDeviceClass(name) !== undefined);
  }
  return { names, backed, fits: names.length <= 30 };
}

/**
 * The pod's extended resources the node must give as devices (a class backs them and the node
 * advertises none of them), or Filter's rejection of a resource nothing provides on the node.
 */
function resourcesFromDevices(podScalars: ReadonlyMap<string, number>, nodeInfo: NodeInfo, classes: DeviceClassLookup): Map<string, number> | Status {
  const out = new Map<string, number>();
  const allocatable = nodeInfo.allocatable;
  for (const [name, quantity] of podScalars) {
    if (quantity === 0 || !isDRAExtendedResourceName(name)) continue;
    const onNode = allocatable.scalarResources?.get(name);
    if (classes.getDeviceClass(name) !== undefined && (onNode ?? 0) === 0) out.set(name, quantity);
    else if (onNode === undefined) return Status.unresolvable('cannot fit resource');
  }
  return out;
}

/**
 * For explain's device diagnosis, which asks the allocator again: the extended-resources claim
 * Filter would allocate for the pod on this node (in-memory, with the node's requests), or null
 * when the node needs no devices for it or Filter turns it down before allocating.
 */
export function extendedResourceClaimForNode(pod: Pod, podScalars: ReadonlyMap<string, number>, nodeInfo: NodeInfo, classes: DeviceClassLookup): ResourceClaim | null {
  if (!hasDeviceClassMappedExtendedResource(podScalars, classes)) return null;
  const resources = resourcesFromDevices(podScalars, nodeInfo, classes);
  if (resources instanceof Status || resources.size === 0) return null;
  const claim = newExtendedResourceClaim(pod, '');
  return { ...claim, spec: { devices: { requests: createRequestsAndMappings(pod, resources, classes).requests } } };
}

/** Init containers that are not sidecars run one after another and end; the others run together. */
function partitionContainerIndices(containers: readonly Container[], numInitContainers: number): { longLived: number[]; shortLived: number[] } {
  const longLived: number[] = [];
  const shortLived: number[] = [];
  for (let i = 0; i < containers.length; i++) {
    if (i < numInitContainers && containers[i]!.restartPolicy !== 'Always') shortLived.push(i);
    else longLived.push(i);
  }
  return { longLived, shortLived };
}

/**
 * createResourceRequestAndMappings: the container's request for the resource, after using up what
 * `reusable` requests (of containers that start later) already give it; null when those suffice
 * or the container asks for none.
 */
function containerRequestAndMappings(
  containerIndex: number,
  container: Container,
  resourceName: string,
  className: string,
  reusable: readonly (DeviceRequest | null)[],
): { request: DeviceRequest | null; mappings: ContainerExtendedResourceRequest[] } {
  const mappings: ContainerExtendedResourceRequest[] = [];
  const requests = container.resources?.requests;
  const q = requests?.[resourceName];
  if (requests === undefined || q === undefined) return { request: null, mappings };
  const wanted = exactScaledValue(q, 0);
  if (wanted === undefined || wanted === 0) return { request: null, mappings };
  let sum = 0;
  for (const r of reusable) {
    if (r === null) continue;
    sum += r.exactly!.count!;
    mappings.push({ containerName: container.name, resourceName, requestName: r.name });
    if (sum >= wanted) return { request: null, mappings };
  }
  // The request is named by the container's index and the resource's place among its sorted requests.
  const resourceIndex = Object.keys(requests).sort().indexOf(resourceName);
  const name = `container-${containerIndex}-request-${resourceIndex}`;
  mappings.push({ containerName: container.name, resourceName, requestName: name });
  return { request: { name, exactly: { deviceClassName: className, allocationMode: 'ExactCount', count: wanted - sum } }, mappings };
}

/**
 * createRequestsAndMappings: one request per container and resource (short-lived init containers
 * share the largest of theirs and reuse the requests of containers that start after them), sorted
 * by name, and which request serves each container's resource.
 */
export function createRequestsAndMappings(
  pod: Pod,
  extendedResources: ReadonlyMap<string, number>,
  classes: DeviceClassLookup,
): { requests: DeviceRequest[]; mappings: ContainerExtendedResourceRequest[] } {
  const inits = pod.spec.initContainers ?? [];
  const containers = [...inits, ...pod.spec.containers];
  const { longLived, shortLived } = partitionContainerIndices(containers, inits.length);
  const requests: DeviceRequest[] = [];
  const mappings: ContainerExtendedResourceRequest[] = [];
  for (const resourceName of [...extendedResources.keys()].sort()) {
    const cls = classes.getDeviceClass(resourceName);
    if (cls === undefined) continue;
    const className = cls.metadata.name ?? '';
    const longLivedRequests: (DeviceRequest | null)[] = new Array<DeviceRequest | null>(containers.length).fill(null);
    const longLivedMappings: ContainerExtendedResourceRequest[] = [];
    for (const i of longLived) {
      const r = containerRequestAndMappings(i, containers[i]!, resourceName, className, []);
      longLivedRequests[i] = r.request;
      longLivedMappings.push(...r.mappings);
    }
    let maxShortLived: DeviceRequest | null = null;
    const shortLivedNames = new Set<string>();
    const shortLivedMappings: ContainerExtendedResourceRequest[] = [];
    for (const i of shortLived) {
      const r = containerRequestAndMappings(i, containers[i]!, resourceName, className, longLivedRequests.slice(i));
      if (r.request !== null) {
        shortLivedNames.add(r.request.name);
        if (maxShortLived === null || maxShortLived.exactly!.count! < r.request.exactly!.count!) maxShortLived = r.request;
      }
      shortLivedMappings.push(...r.mappings);
    }
    // Short-lived containers never run together: the largest of their requests serves them all.
    if (maxShortLived !== null && shortLivedNames.size > 1) {
      shortLivedNames.delete(maxShortLived.name);
      for (const m of shortLivedMappings) if (shortLivedNames.has(m.requestName)) m.requestName = maxShortLived.name;
    }
    if (maxShortLived !== null) requests.push(maxShortLived);
    for (const r of longLivedRequests) if (r !== null) requests.push(r);
    mappings.push(...longLivedMappings, ...shortLivedMappings);
  }
  requests.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { requests, mappings };
}
