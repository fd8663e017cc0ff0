// The DRA family of the differential generator: ResourceSlices (node-local pools, some split in
// two slices or left behind by a newer generation, partitionable GPUs drawing on shared counters,
// FPGAs attached to a zone through a nodeSelector, a pool for all nodes), DeviceClasses with CEL
// selectors, claims and templates (exactly with count, All, selectors, adminAccess, tolerations;
// firstAvailable; matchAttribute constraints), a class backing an extended resource, existing pods
// holding allocated claims, and pending pods with one to three claims or the extended resource.
// See README.md for what the harness does with them.

type Obj = Record<string, unknown>;

/** The part of the generator's random source this family uses. */
export interface DraRand {
  float(): number;
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  some<T>(items: readonly T[], k: number): T[];
}

/** The part of the generator's scenario builder this family uses. */
export interface DraBuilder {
  readonly r: DraRand;
  readonly nodes: Obj[];
  readonly pending: Obj[];
  readonly objects: Obj[];
  readonly nodeZones: Map<string, string>;
  nodeNames(): string[];
  pod(app: string, o?: { namespace?: string }): Obj;
  bind(pod: Obj, node: string): void;
}

const gpu = 'gpu.example.com';
const nic = 'nic.example.com';
const fpga = 'fpga.example.com';
const scratch = 'scratch.example.com';
const models = [
  { model: 'a100', memory: 80, version: '1.4.0' },
  { model: 'h100', memory: 80, version: '2.1.3' },
  { model: 't4', memory: 16, version: '1.2.0' },
  { model: 'l4', memory: 24, version: '2.0.0' },
];
/** The namespace whose claims may ask for admin access (the API server wants this label). */
const adminNamespace = 'ops';

const cel = (expression: string): Obj => ({ cel: { expression } });

/** The selectors requests add to their class's, each valid for the class it is used with. */
const gpuSelectors = [
  `device.attributes["${gpu}"].model == "a100"`,
  `device.attributes["${gpu}"].model in ["h100", "l4"]`,
  `device.capacity["${gpu}"].memory.compareTo(quantity("20Gi")) >= 0`,
  `device.attributes["${gpu}"].driverVersion.isGreaterThan(semver("1.3.0"))`,
  `device.attributes["${gpu}"].index < 2`,
  `"partition" in device.attributes["${gpu}"]`,
];

const deviceClasses: Obj[] = [
  { name: gpu, selectors: [cel(`device.driver == "${gpu}"`)] },
  { name: 'large-gpu', selectors: [cel(`device.driver == "${gpu}"`), cel(`device.capacity["${gpu}"].memory.compareTo(quantity("40Gi")) >= 0`)] },
  { name: 'whole-gpu', selectors: [cel(`device.driver == "${gpu}" && !("partition" in device.attributes["${gpu}"])`)],
    config: [{ opaque: { driver: gpu, parameters: { sharing: 'none' } } }] },
  { name: nic, selectors: [cel(`device.driver == "${nic}"`)] },
  { name: fpga, selectors: [cel(`device.driver == "${fpga}" && device.attributes["${fpga}"].firmware.isGreaterThan(semver("2.0.0"))`)] },
  { name: scratch, selectors: [cel(`device.driver == "${scratch}"`)] },
].map(({ name, selectors, config }) => ({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name }, spec: { selectors, ...(config ? { config } : {}) } }));

interface SliceDevice {
  driver: string;
  pool: string;
  name: string;
  /** The class names that select it (for the existing load's allocations). */
  classes: string[];
}

const slice = (name: string, driver: string, pool: string, generation: number, count: number, where: Obj, body: Obj): Obj =>
  ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name }, spec: { driver, pool: { name: pool, generation, resourceSliceCount: count }, ...where, ...body } });

/** GPUs of one node: whole devices, sometimes split over two slices, or partitions of one GPU sharing its counters. */
function nodeGPUs(b: DraBuilder, node: string, devices: SliceDevice[]): void {
  const r = b.r;
  const m = r.pick(models);
  const where = { nodeName: node };
  const pool = `${node}-gpu`;
  const generation = r.int(1, 3);
  const whole = (i: number): Obj => {
    const d: Obj = { name: `gpu-${i}`, attributes: { model: { string: m.model }, index: { int: i }, driverVersion: { version: m.version } }, capacity: { memory: { value: `${m.memory}Gi` } } };
    if (r.chance(0.08)) d.taints = [{ key: 'example.com/unhealthy', value: 'ecc', effect: r.pick(['NoSchedule', 'NoExecute']) }];
    return d;
  };
  const classes = ['gpu.example.com', 'whole-gpu', ...(m.memory >= 40 ? ['large-gpu'] : [])];
  const n = r.int(2, 6);
  if (r.chance(0.25)) {
    // One GPU offered whole or as two halves: all three draw on the same counters.
    const half = `${m.memory / 2}Gi`;
    const consumes = (value: string): Obj[] => [{ counterSet: 'gpu-0-memory', counters: { memory: { value } } }];
    const partition = (i: number): Obj => ({ name: `gpu-0-half-${i}`, attributes: { model: { string: m.model }, index: { int: 0 }, partition: { int: i }, driverVersion: { version: m.version } },
      capacity: { memory: { value: half } }, consumesCounters: consumes(half) });
    b.objects.push(slice(`${pool}-counters`, gpu, pool, generation, 2, where, { sharedCounters: [{ name: 'gpu-0-memory', counters: { memory: { value: `${m.memory}Gi` } } }] }));
    b.objects.push(slice(`${pool}-devices`, gpu, pool, generation, 2, where, { devices: [{ ...whole(0), consumesCounters: consumes(`${m.memory}Gi`) }, partition(0), partition(1)] }));
    devices.push({ driver: gpu, pool, name: 'gpu-0', classes });
    return;
  }
  const all = Array.from({ length: n }, (_, i) => whole(i));
  if (n > 1 && r.chance(0.3)) {
    b.objects.push(slice(`${pool}-a`, gpu, pool, generation, 2, where, { devices: all.slice(0, 1) }));
    b.objects.push(slice(`${pool}-b`, gpu, pool, generation, 2, where, { devices: all.slice(1) }));
  } else {
    b.objects.push(slice(pool, gpu, pool, generation, 1, where, { devices: all }));
  }
  if (generation > 1 && r.chance(0.3)) {
    // A slice of an older generation that the driver has not deleted yet: the allocator ignores it.
    b.objects.push(slice(`${pool}-stale`, gpu, pool, generation - 1, 1, where, { devices: [{ name: 'gpu-stale', attributes: { model: { string: 'h100' } }, capacity: { memory: { value: '80Gi' } } }] }));
  }
  for (const d of all) if (!d.taints) devices.push({ driver: gpu, pool, name: d.name as string, classes });
}

/** Slices: GPUs and NICs on some nodes, FPGAs per zone, scratch devices usable on every node. */
function resourceSlices(b: DraBuilder): SliceDevice[] {
  const r = b.r;
  const devices: SliceDevice[] = [];
  for (const node of b.nodeNames()) {
    if (r.chance(0.6)) nodeGPUs(b, node, devices);
    if (r.chance(0.3)) {
      const n = r.int(1, 2);
      b.objects.push(slice(`${node}-nic`, nic, `${node}-nic`, 1, 1, { nodeName: node }, {
        devices: Array.from({ length: n }, (_, i) => ({ name: `eth${i + 1}`, attributes: { speedGbps: { int: r.pick([25, 100]) } } })),
      }));
    }
  }
  for (const zone of new Set(b.nodeZones.values())) {
    if (!r.chance(0.5)) continue;
    b.objects.push(slice(`fpga-${zone}`, fpga, `fpga-${zone}`, 1, 1,
      { nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }] }] } },
      { devices: Array.from({ length: r.int(1, 3) }, (_, i) => ({ name: `fpga-${i}`, attributes: { firmware: { version: r.pick(['1.9.0', '2.1.0', '3.0.0']) } } })) }));
  }
  if (r.chance(0.4)) {
    b.objects.push(slice('scratch', scratch, 'cluster', 1, 1, { allNodes: true }, { devices: Array.from({ length: r.int(1, 4) }, (_, i) => ({ name: `scratch-${i}` })) }));
  }
  return devices;
}

/** One device request, or a prioritized list of them. */
function request(r: DraRand, name: string, admin: boolean): Obj {
  const exactly = (): Obj => {
    // A class nobody defined, now and then: PreFilter's own rejection.
    const className = r.chance(0.03) ? 'tpu.example.com' : r.pick([gpu, gpu, gpu, 'large-gpu', 'whole-gpu', nic, fpga, scratch]);
    const e: Obj = { deviceClassName: className };
    const mode = r.float();
    if (mode < 0.05) e.allocationMode = 'All';
    else if (mode < 0.25) e.count = r.int(2, 3);
    if (className.startsWith('gpu') || className.endsWith('-gpu')) {
      if (r.chance(0.35)) e.selectors = [cel(r.pick(gpuSelectors))];
      if (r.chance(0.1)) e.tolerations = [{ key: 'example.com/unhealthy', operator: 'Exists' }];
    }
    if (admin && r.chance(0.5)) e.adminAccess = true;
    return e;
  };
  if (!admin && r.chance(0.25)) {
    const options = r.some(['large', 'any', 'nic', 'scratch'], r.int(2, 3));
    return {
      name,
      firstAvailable: options.map((o) => ({
        name: o,
        deviceClassName: { large: 'large-gpu', any: gpu, nic, scratch }[o]!,
        ...(o === 'any' && r.chance(0.4) ? { count: 2 } : {}),
      })),
    };
  }
  return { name, exactly: exactly() };
}

function claimSpec(r: DraRand, admin: boolean): Obj {
  const requests = Array.from({ length: r.chance(0.2) ? 2 : 1 }, (_, i) => request(r, `req-${i}`, admin));
  const devices: Obj = { requests };
  const multi = requests.filter((q) => ((q.exactly as Obj | undefined)?.count ?? 1) !== 1 || requests.length > 1);
  if (multi.length > 0 && r.chance(0.4)) devices.constraints = [{ matchAttribute: `${gpu}/model` }];
  return { devices };
}

/** Allocated claims for existing pods: one device each, on the pod's node, reserved for it. */
function existingLoad(b: DraBuilder, devices: SliceDevice[]): void {
  const r = b.r;
  const used = new Set<string>();
  let seq = 0;
  for (const d of devices) {
    if (!r.chance(0.35) || used.has(`${d.pool}/${d.name}`)) continue;
    used.add(`${d.pool}/${d.name}`);
    const node = d.pool.replace(/-gpu$/, '');
    const p = b.pod('batch', { namespace: 'default' });
    const uid = `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
    (p.metadata as Obj).uid = uid;
    const claimName = `held-${seq}`;
    (p.spec as Obj).resourceClaims = [{ name: 'gpu', resourceClaimName: claimName }];
    b.objects.push({
      apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: claimName, namespace: 'default' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: r.pick(d.classes) } }] } },
      status: {
        allocation: {
          devices: { results: [{ request: 'gpu', driver: d.driver, pool: d.pool, device: d.name }] },
          nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
        },
        reservedFor: [{ resource: 'pods', name: (p.metadata as { name: string }).name, uid }],
      },
    });
    b.bind(p, node);
  }
}

/**
 * Builds the family into b; returns the KubeSchedulerConfiguration's profile (DefaultPreemption
 * half the time, since a preemption dry run reports DRA's reasons too).
 */
export function draFamily(b: DraBuilder): Obj {
  const r = b.r;
  b.objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: adminNamespace, labels: { 'resource.kubernetes.io/admin-access': 'true' } } });
  b.objects.push(...deviceClasses);
  const devices = resourceSlices(b);
  existingLoad(b, devices);
  // Extended resources backed by devices: a node without example.com/gpu in its allocatable
  // serves the pods requesting it from this class's devices.
  const extended = r.chance(0.3);
  if (extended) {
    b.objects.push({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu-extended' },
      spec: { extendedResourceName: 'example.com/gpu', selectors: [cel(`device.driver == "${gpu}" && !("partition" in device.attributes["${gpu}"])`)] } });
  }
  const templates: Record<string, string[]> = { default: [], [adminNamespace]: [] };
  for (const ns of ['default', adminNamespace]) {
    for (let i = 0, n = r.int(2, 4); i < n; i++) {
      const name = `template-${i}`;
      b.objects.push({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name, namespace: ns }, spec: { spec: claimSpec(r, ns === adminNamespace) } });
      templates[ns]!.push(name);
    }
  }
  // A claim shared by the first pods that name it: the first allocates it, the others follow it.
  const shared = r.chance(0.4) ? 'shared' : '';
  if (shared) b.objects.push({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: shared, namespace: 'default' }, spec: claimSpec(r, false) });
  let claimSeq = 0;
  for (let i = 0, n = r.int(3, 10); i < n; i++) {
    const ns = r.chance(0.2) ? adminNamespace : 'default';
    const p = b.pod(r.pick(['train', 'serve', 'notebook']), { namespace: ns });
    const entries: Obj[] = [];
    for (let k = 0, m = r.pick([1, 1, 1, 1, 1, 2, 2, 3]); k < m; k++) {
      const kind = r.float();
      const entry = `claim-${k}`;
      if (shared && ns === 'default' && kind < 0.15) {
        if (entries.some((e) => e.resourceClaimName === shared)) continue;
        entries.push({ name: entry, resourceClaimName: shared });
      } else if (kind < 0.35) {
        const name = `claim-${(claimSeq++).toString(36)}`;
        b.objects.push({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name, namespace: ns }, spec: claimSpec(r, ns === adminNamespace) });
        entries.push({ name: entry, resourceClaimName: name });
      } else {
        entries.push({ name: entry, resourceClaimTemplateName: r.pick(templates[ns]!) });
      }
    }
    const spec = p.spec as { resourceClaims?: Obj[]; containers: Obj[] };
    const container = spec.containers[0]! as { resources?: { requests?: Obj; limits?: Obj; claims?: Obj[] } };
    const resources = container.resources ?? {};
    if (extended && r.chance(0.3)) {
      // An extended resource cannot be overcommitted: its limit equals its request. Beside claims
      // half the time: v1.37.2's PreBind then fails on a node that advertises the resource itself
      // ("nil or empty request mappings"), and ours with it.
      const n = String(r.int(1, 2));
      resources.requests = { ...resources.requests, 'example.com/gpu': n };
      resources.limits = { ...resources.limits, 'example.com/gpu': n };
      if (r.chance(0.5)) entries.length = 0;
    } else if (extended) {
      delete resources.requests?.['example.com/gpu'];
      delete resources.limits?.['example.com/gpu'];
    }
    if (entries.length > 0) {
      spec.resourceClaims = entries;
      resources.claims = entries.map((e) => ({ name: e.name }));
    }
    container.resources = resources;
    b.pending.push(p);
  }
  return r.chance(0.5) ? {} : { plugins: { multiPoint: { disabled: [{ name: 'DefaultPreemption' }] } } };
}
