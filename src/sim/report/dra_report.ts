// DRA in the reports: the devices `explain` shows per pod (chosen per claim, and why a node had
// none), and the device use `simulate` reports per node and per pool.
import type { KubeObject, Node, Pod } from '../../api/types.js';
import type { DeviceClass, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import { computePodResourceRequests } from '../../api/resource_requests.js';
import type { Features } from '../../framework/features.js';
import { NodeInfo } from '../../framework/node_info.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import {
  AllocatedDevices,
  allocatorFeatures,
  makeDeviceID,
  diagnoseNode,
  ErrReasonCannotAllocate,
  structuredAllocator,
  SliceLister,
  DeviceClassResolver,
  extendedResourceClaimForNode,
  findExtendedResourceClaim,
  type RequestShortfall,
} from '../../plugins/dynamicresources/index.js';
import { DynamicResources as DynamicResourcesName } from '../../framework/names.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';

/** The objects the reports read (the embedded cluster). */
export interface DraObjects {
  list<T extends KubeObject>(kind: string): T[];
  get<T extends KubeObject>(kind: string, namespace: string, name: string): T | undefined;
}

/** One device given to a pod: which claim and request it serves. */
export interface ExplainDevice {
  claim: string;
  request: string;
  driver: string;
  pool: string;
  device: string;
  /** Set when the device was given for admin access (shared with its other users). */
  adminAccess?: true;
}

/** The claims the pod names and its extended-resources claim, as the cluster has them now (missing ones left out). */
export function podClaims(pod: Pod, objects: DraObjects): ResourceClaim[] {
  const ns = pod.metadata.namespace ?? 'default';
  const current = objects.get<Pod>('Pod', ns, pod.metadata.name ?? '') ?? pod;
  const out: ResourceClaim[] = [];
  for (const entry of current.spec.resourceClaims ?? []) {
    const name = entry.resourceClaimName ?? current.status?.resourceClaimStatuses?.find((s) => s.name === entry.name)?.resourceClaimName;
    const claim = name ? objects.get<ResourceClaim>('ResourceClaim', ns, name) : undefined;
    if (claim) out.push(claim);
  }
  // The claim DynamicResources made for the pod's extended resources, like any other.
  const extended = current.status?.extendedResourceClaimStatus?.resourceClaimName;
  const claim = extended ? objects.get<ResourceClaim>('ResourceClaim', ns, extended) : undefined;
  if (claim) out.push(claim);
  return out;
}

/** The devices allocated to the pod's claims (reserved for it), per claim and request. */
export function podDevices(pod: Pod, objects: DraObjects): ExplainDevice[] {
  const out: ExplainDevice[] = [];
  for (const c of podClaims(pod, objects)) {
    if (!(c.status?.reservedFor ?? []).some((r) => r.uid === pod.metadata.uid)) continue;
    for (const r of c.status?.allocation?.devices?.results ?? []) {
      out.push({ claim: c.metadata.name ?? '', request: r.request, driver: r.driver, pool: r.pool, device: r.device, ...(r.adminAccess === true ? { adminAccess: true as const } : {}) });
    }
  }
  return out;
}

/**
 * For each node DynamicResources rejected with "cannot allocate all claims": the requests the
 * node fell short on, asked of the allocator with the pod's claims as they were before the
 * attempt and the other claims' devices taken.
 */
export function deviceDiagnosis(a: AttemptRecord, objects: DraObjects, claimsBefore: readonly ResourceClaim[], features: Features): Record<string, RequestShortfall[]> {
  const out: Record<string, RequestShortfall[]> = {};
  const rejected: string[] = [];
  for (const [node, s] of a.diagnosis?.nodeToStatus.entries() ?? []) {
    if (s.plugin === DynamicResourcesName && s.reasons.includes(ErrReasonCannotAllocate)) rejected.push(node);
  }
  if (rejected.length === 0) return out;
  const mine = claimsBefore;
  const toAllocate = mine.filter((c) => c.status?.allocation === undefined);
  const mineUIDs = new Set(mine.map((c) => c.metadata.uid));
  const devices = new AllocatedDevices(features.enableDRAConsumableCapacity);
  for (const c of objects.list<ResourceClaim>('ResourceClaim')) if (!mineUIDs.has(c.metadata.uid)) devices.update(undefined, c);
  const lister = new MapObjectLister([...objects.list<ResourceSlice>('ResourceSlice'), ...objects.list<ResourceSlice>('DeviceTaintRule')]);
  const classes = { get: (name: string) => objects.get<DeviceClass>('DeviceClass', '', name) };
  const inputs = {
    features: allocatorFeatures(features),
    allocatedState: devices.gather([]),
    classLister: classes,
    slices: new SliceLister(lister, features.enableDRADeviceTaintRules).list(),
  };
  const newAllocator = structuredAllocator();
  const extended = extendedResourceRequests(a.pod, claimsBefore, objects, features);
  for (const name of rejected.sort()) {
    const node = objects.get<Node>('Node', '', name);
    if (!node) continue;
    const extendedClaim = extended === null ? null : extendedResourceClaimForNode(a.pod, extended.scalars, new NodeInfo(node), extended.classes);
    const shortfalls = diagnoseNode(newAllocator, inputs, node, extendedClaim === null ? toAllocate : [...toAllocate, extendedClaim]);
    if (shortfalls.length > 0) out[name] = shortfalls;
  }
  return out;
}

/**
 * What the pod's extended resources backed by a DeviceClass need to be asked of the allocator per
 * node, as DynamicResources asks it: null when the pod requests none, DRAExtendedResource is off,
 * or an earlier attempt already made the pod's claim (the pod's claims list it then).
 */
function extendedResourceRequests(
  pod: Pod,
  claims: readonly ResourceClaim[],
  objects: DraObjects,
  features: Features,
): { scalars: ReadonlyMap<string, number>; classes: DeviceClassResolver } | null {
  if (!features.enableDRAExtendedResource || findExtendedResourceClaim(pod, claims) !== undefined) return null;
  const scalars = computePodResourceRequests(pod).resource.scalarResources;
  if (scalars === null) return null;
  return { scalars, classes: new DeviceClassResolver(new MapObjectLister(objects.list<DeviceClass>('DeviceClass'))) };
}

interface DeviceUse {
  allocated: number;
  total: number;
}

export interface DeviceReport {
  /** Devices local to each node (slices or devices with nodeName), for nodes that have any. */
  nodes: ({ node: string } & DeviceUse)[];
  /** Every pool's newest generation, network-attached ones included. */
  pools: ({ driver: string; pool: string } & DeviceUse)[];
}

/** Device use at the end of a simulation; null when the cluster has no ResourceSlice. */
export function deviceReport(objects: DraObjects): DeviceReport | null {
  const slices = objects.list<ResourceSlice>('ResourceSlice');
  if (slices.length === 0) return null;
  const allocated = new Set<string>();
  for (const c of objects.list<ResourceClaim>('ResourceClaim')) {
    for (const r of c.status?.allocation?.devices?.results ?? []) allocated.add(makeDeviceID(r.driver, r.pool, r.device));
  }
  // Only the newest generation of a pool counts, as the allocator's pool gathering.
  const newest = new Map<string, number>();
  for (const s of slices) {
    const key = `${s.spec.driver}/${s.spec.pool.name}`;
    newest.set(key, Math.max(newest.get(key) ?? 0, s.spec.pool.generation));
  }
  const pools = new Map<string, { driver: string; pool: string } & DeviceUse>();
  const nodes = new Map<string, DeviceUse>();
  for (const s of slices) {
    const key = `${s.spec.driver}/${s.spec.pool.name}`;
    if (s.spec.pool.generation !== newest.get(key)) continue;
    let p = pools.get(key);
    if (!p) pools.set(key, (p = { driver: s.spec.driver, pool: s.spec.pool.name, allocated: 0, total: 0 }));
    for (const d of s.spec.devices ?? []) {
      const used = allocated.has(makeDeviceID(s.spec.driver, s.spec.pool.name, d.name)) ? 1 : 0;
      p.total++;
      p.allocated += used;
      const nodeName = s.spec.nodeName ?? d.nodeName;
      if (nodeName === undefined) continue;
      let n = nodes.get(nodeName);
      if (!n) nodes.set(nodeName, (n = { allocated: 0, total: 0 }));
      n.total++;
      n.allocated += used;
    }
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    nodes: [...nodes.entries()].sort((a, b) => byName(a[0], b[0])).map(([node, u]) => ({ node, ...u })),
    pools: [...pools.values()].sort((a, b) => byName(`${a.driver}/${a.pool}`, `${b.driver}/${b.pool}`)),
  };
}
