// Builders and a small allocator for the DynamicResources tests: claims, classes, slices in the
// shapes upstream's tests use (st.MakeResourceClaim, ...), and a cluster client that stores claim
// writes with resourceVersion checks.
import type { Node, Pod, PodExtendedResourceClaimStatus } from '../../api/types.js';
import type { AllocationResult, DeviceClass, DeviceRequestAllocationResult, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import type { MapObjectLister } from '../../framework/object_lister.js';
import type { PluginClusterClient } from '../../framework/interfaces.js';
import { makePod } from '../../testing/builders.js';
import { cloneJSON } from '../../util/json_clone.js';
import type { Allocator, AllocatorInputs } from './allocator_interface.js';
import { makeDeviceID as deviceID } from '../../dra/structured/index.js';

export const driver = 'some-driver';
export const className = 'my-resource-class';

export function deviceClass(name = className): DeviceClass {
  return { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name }, spec: {} };
}

/** A claim asking for `count` devices of the class in request req-1. */
export function pendingClaim(name: string, o: { count?: number; uid?: string; firstAvailable?: string[] } = {}): ResourceClaim {
  const request =
    o.firstAvailable !== undefined
      ? { name: 'req-1', firstAvailable: o.firstAvailable.map((cls, i) => ({ name: `sub-${i}`, deviceClassName: cls })) }
      : { name: 'req-1', exactly: { deviceClassName: className, allocationMode: 'ExactCount' as const, count: o.count ?? 1 } };
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace: 'default', uid: o.uid ?? `uid-${name}`, resourceVersion: '1' },
    spec: { devices: { requests: [request] } },
  };
}

const nodeSelectorFor = (node: string) => ({
  nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: [node] }] }],
});

function allocation(node: string | null, devices: string[], request = 'req-1'): AllocationResult {
  const results: DeviceRequestAllocationResult[] = devices.map((d) => ({ request, driver, pool: node ?? 'network', device: d }));
  return { devices: { results }, ...(node !== null ? { nodeSelector: nodeSelectorFor(node) } : {}) };
}

export function allocatedClaim(name: string, node: string | null, devices: string[], o: { uid?: string; reservedFor?: Pod[] } = {}): ResourceClaim {
  const c = pendingClaim(name, { count: devices.length, uid: o.uid });
  c.metadata.finalizers = ['resource.kubernetes.io/delete-protection'];
  c.status = { allocation: allocation(node, devices) };
  if (o.reservedFor) c.status.reservedFor = o.reservedFor.map((p) => ({ resource: 'pods', name: p.metadata.name!, uid: p.metadata.uid! }));
  return c;
}

/** A node-local slice with devices dev-0 .. dev-(n-1), its pool named after the node. */
export function nodeSlice(node: string, n: number): ResourceSlice {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: `${node}-slice` },
    spec: {
      driver,
      pool: { name: node, generation: 1, resourceSliceCount: 1 },
      nodeName: node,
      devices: Array.from({ length: n }, (_, i) => ({ name: `dev-${i}` })),
    },
  };
}

export function podWithClaimName(name: string, claimName: string, uid = `uid-pod-${name}`): Pod {
  return makePod(name, { uid, spec: { resourceClaims: [{ name: 'my-resource', resourceClaimName: claimName }] } });
}

export function podWithTemplate(name: string, generated: string | null | undefined, uid = `uid-pod-${name}`): Pod {
  const pod = makePod(name, { uid, spec: { resourceClaims: [{ name: 'my-resource', resourceClaimTemplateName: 'my-template' }] } });
  if (generated !== undefined) pod.status = { resourceClaimStatuses: [generated === null ? { name: 'my-resource' } : { name: 'my-resource', resourceClaimName: generated }] };
  return pod;
}

/** A claim generated for the pod from a template (owned by it). */
export function generatedClaim(pod: Pod, name: string): ResourceClaim {
  const c = pendingClaim(name);
  c.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name!, uid: pod.metadata.uid!, controller: true }];
  return c;
}

/**
 * A stand-in for src/dra/structured, enough to drive the plugin: exact requests take the first free
 * devices of the node's slices in order; a selector's CEL "expression" is read as a device name
 * prefix here (class selectors too); firstAvailable takes the first alternative whose class name
 * prefixes a free device.
 */
export class FakeAllocator implements Allocator {
  calls = 0;
  constructor(private readonly inputs: AllocatorInputs) {}

  allocate(node: Node, claims: readonly ResourceClaim[]): AllocationResult[] | null {
    this.calls++;
    const nodeName = node.metadata.name!;
    const free: { pool: string; device: string; driver: string }[] = [];
    for (const s of this.inputs.slices) {
      if (s.spec.nodeName !== nodeName && s.spec.allNodes !== true) continue;
      for (const d of s.spec.devices ?? []) {
        if (!this.inputs.allocatedState.allocatedDevices.has(deviceID(s.spec.driver, s.spec.pool.name, d.name))) {
          free.push({ pool: s.spec.pool.name, device: d.name, driver: s.spec.driver });
        }
      }
    }
    const out: AllocationResult[] = [];
    for (const claim of claims) {
      const results: DeviceRequestAllocationResult[] = [];
      for (const req of claim.spec.devices?.requests ?? []) {
        if (req.exactly) {
          const cls = this.inputs.classLister.get(req.exactly.deviceClassName);
          if (cls === undefined) throw new Error(`request ${req.name}: could not retrieve device class ${req.exactly.deviceClassName}`);
          const prefixes = [...(cls.spec.selectors ?? []), ...(req.exactly.selectors ?? [])].map((sel) => sel.cel?.expression ?? '');
          const matching = free.filter((d) => prefixes.every((p) => d.device.startsWith(p)));
          const n = req.exactly.allocationMode === 'All' ? matching.length : (req.exactly.count ?? 1);
          if (n === 0 || matching.length < n) return null;
          for (const d of matching.slice(0, n)) {
            free.splice(free.indexOf(d), 1);
            results.push({ request: req.name, ...d });
          }
          continue;
        }
        const subs = req.firstAvailable ?? [];
        const i = subs.findIndex((sub) => free.some((d) => d.device.startsWith(sub.deviceClassName)));
        if (i < 0) return null;
        const at = free.findIndex((d) => d.device.startsWith(subs[i]!.deviceClassName));
        const [d] = free.splice(at, 1);
        results.push({ request: `${req.name}/${subs[i]!.name}`, ...d! });
      }
      out.push({ devices: { results }, nodeSelector: nodeSelectorFor(nodeName) });
    }
    return out;
  }
}

export interface ClaimWrites {
  statusWrites: ResourceClaim[];
  updates: ResourceClaim[];
  /** Conflicts to answer before writes succeed again. */
  conflicts: number;
  /** An error every status write fails with, when set. */
  failWith: Error | null;
  /** Claims created (the extended-resources claim) and deleted ("namespace/name"). */
  created: ResourceClaim[];
  deleted: string[];
  /** Pod status writes of status.extendedResourceClaimStatus, by pod name. */
  extendedStatuses: Map<string, PodExtendedResourceClaimStatus>;
}

class FakeApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** updateResourceClaim(Status) storing into `objects` with resourceVersion checks, as the API server. */
export function claimClient(objects: MapObjectLister, base: PluginClusterClient): PluginClusterClient & { writes: ClaimWrites } {
  const writes: ClaimWrites = { statusWrites: [], updates: [], conflicts: 0, failWith: null, created: [], deleted: [], extendedStatuses: new Map() };
  const store = (claim: ResourceClaim, keepStatus: boolean): ResourceClaim => {
    const ns = claim.metadata.namespace ?? '';
    const name = claim.metadata.name ?? '';
    const stored = objects.get<ResourceClaim>('ResourceClaim', ns, name);
    if (stored === undefined) throw new FakeApiError(404, `resourceclaims.resource.k8s.io "${name}" not found`);
    if (writes.conflicts > 0 || stored.metadata.resourceVersion !== claim.metadata.resourceVersion) {
      writes.conflicts = Math.max(0, writes.conflicts - 1);
      throw new FakeApiError(409, `Operation cannot be fulfilled on resourceclaims.resource.k8s.io "${name}": the object has been modified; please apply your changes to the latest version and try again`);
    }
    const next = cloneJSON(claim);
    const resourceVersion = String(Number(stored.metadata.resourceVersion ?? '0') + 1);
    next.metadata = { ...next.metadata, resourceVersion };
    if (keepStatus) {
      next.spec = stored.spec;
      next.metadata = { ...stored.metadata, resourceVersion };
    } else if (stored.status) next.status = stored.status;
    else delete next.status;
    objects.upsert(next);
    return next;
  };
  return {
    ...base,
    writes,
    updateResourceClaimStatus: async (claim) => {
      if (writes.failWith) throw writes.failWith;
      const stored = store(claim, true);
      writes.statusWrites.push(stored);
      return stored;
    },
    updateResourceClaim: async (claim) => {
      const stored = store(claim, false);
      writes.updates.push(stored);
      return stored;
    },
    createResourceClaim: async (claim) => {
      // The API server's generated name: five characters after generateName, here always the same.
      const name = claim.metadata.name ?? `${claim.metadata.generateName ?? ''}xxxxx`;
      const created: ResourceClaim = { ...cloneJSON(claim), metadata: { ...cloneJSON(claim.metadata), name, uid: `uid-${name}`, resourceVersion: '1' } };
      objects.upsert(created);
      writes.created.push(created);
      return created;
    },
    deleteResourceClaim: async (namespace, name) => {
      const stored = objects.get<ResourceClaim>('ResourceClaim', namespace, name);
      if (stored === undefined) throw new FakeApiError(404, `resourceclaims.resource.k8s.io "${name}" not found`);
      objects.remove(stored);
      writes.deleted.push(`${namespace}/${name}`);
    },
    setExtendedResourceClaimStatus: async (pod, status) => {
      writes.extendedStatuses.set(pod.metadata.name ?? '', status);
    },
  };
}
