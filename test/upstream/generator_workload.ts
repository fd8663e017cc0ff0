// The workload family of the differential generator: pod groups (GenericWorkload) — gangs that
// fit whole, gangs that do not, basic groups, and with TopologyAwareWorkloadScheduling groups
// constrained to one of several racks — among single pods, on nodes with some load.
// With DRAWorkloadResourceClaims, some groups list a claim by name that all their members share
// (one GPU from node-local slices, allocated by the first member and reserved for the group).
// With CompositePodGroup, some scenarios add a tree or two: a composite (gang by minGroupCount, or
// basic, maybe rack-constrained) over pod groups and maybe a nested composite; with priorities,
// every group and member of a tree takes its root's class, and a bound low-priority tree (its root
// maybe `disruptionMode: all`, a leaf maybe too) is there to be preempted; in 70% of those
// scenarios the cluster is under pressure: the low tree holds most of every node and the first
// tree, mostly of a class that preempts, is a gang of all its children whose first is too big for
// what is left (the children not reached then share the root's failed status, as upstream's
// results do: PodGroupPostFilter's answer is appended to that status once per group sharing it).
// Every gang has at least minCount pending members (a smaller one would wait at PreEnqueue,
// which explain cannot attempt); a tree's group held back until its members wait
// (createAfterMembers) is created before the tree is attempted. With priorities, the groups preempt: lower-priority single pods
// and bound groups (`disruptionMode: all` or `single`) are the victims.

import { createAfterMembers } from '../../src/sim/explain/tree_roots.js';

type Obj = Record<string, unknown>;

/** What the family needs of the generator's Builder. */
export interface WorkloadBuilder {
  readonly r: { int(lo: number, hi: number): number; chance(p: number): boolean; pick<T>(items: readonly T[]): T };
  readonly objects: Obj[];
  readonly nodes: Obj[];
  readonly pending: Obj[];
  pod(app: string, o?: { namespace?: string; heavy?: boolean; priorityClass?: string }): Obj;
  priorityClasses(): void;
  bind(pod: Obj, node: string): void;
  nodeNames(): string[];
}

/** The classes groups take (Priority admission fills a group's priority from its class on both sides). */
const groupClasses = [
  { name: 'low', value: 100 },
  { name: 'standard', value: 500 },
  { name: 'high', value: 10_000 },
  { name: 'urgent', value: 50_000 },
  // Its groups state Never (see below).
  { name: 'nonpreempting', value: 50_005 },
];

/** Bound groups of low priority, whole or disrupted one pod at a time: victims for the pending groups. */
function victimGroups(b: WorkloadBuilder): void {
  const r = b.r;
  const nodes = b.nodeNames();
  for (let g = 0, n = r.int(1, 3); g < n; g++) {
    const name = `running-${g}`;
    const cls = r.pick(groupClasses.slice(0, 2));
    b.objects.push({
      apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name, namespace: 'default' },
      spec: { schedulingPolicy: { basic: {} }, priorityClassName: cls.name, disruptionMode: r.chance(0.6) ? { all: {} } : { single: {} } },
    });
    const size = r.pick(sizes);
    for (let i = 0, m = r.int(1, 4); i < m; i++) {
      const pod: Obj = {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: `${name}-m${i}`, namespace: 'default', labels: { app: 'server', group: name } },
        spec: { priorityClassName: cls.name, schedulingGroup: { podGroupName: name }, containers: [{ name: 'main', image: 'registry.example/ml:0.9', resources: { requests: { ...size } } }] },
      };
      b.bind(pod, r.pick(nodes));
    }
  }
}


const sizes = [
  { cpu: '500m', memory: '1Gi' },
  { cpu: '1', memory: '2Gi' },
  { cpu: '2', memory: '4Gi' },
  { cpu: '3500m', memory: '8Gi' },
];

/**
 * The rack label of the topology constraints: one to three racks over a random part of the nodes
 * (maybe none), of different sizes. Upstream tries placements in Go map order and breaks ties
 * between equally scored ones at random; the harness and `explain --tie-break name` both take them
 * by name (upstream/internal/explain/placement_order.go), so every scenario has one answer.
 */
const rackKey = 'example.com/rack';

const gpuDriver = 'gpu.example.com';

/** A GPU class and one to three GPUs on some nodes, for the groups' shared claims. */
function gpuSlices(b: WorkloadBuilder): void {
  const r = b.r;
  b.objects.push({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: gpuDriver }, spec: { selectors: [{ cel: { expression: `device.driver == "${gpuDriver}"` } }] } });
  for (const node of b.nodeNames()) {
    if (!r.chance(0.6)) continue;
    b.objects.push({
      apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: { name: `${node}-gpu` },
      spec: { driver: gpuDriver, pool: { name: `${node}-gpu`, generation: 1, resourceSliceCount: 1 }, nodeName: node, devices: Array.from({ length: r.int(1, 3) }, (_, i) => ({ name: `gpu-${i}` })) },
    });
  }
}

/**
 * Adds the groups and single pods; the caller chose the nodes, their load and the configuration.
 * With `topology`, some groups are constrained to the rack (TopologyAwareWorkloadScheduling); with
 * `priorities`, lower-priority pods and groups are there to be preempted; with `sharedClaims`
 * (DRAWorkloadResourceClaims), some groups share a claim.
 */
export function workloadFamily(b: WorkloadBuilder, topology = false, priorities = false, sharedClaims = false, composites = false): void {
  const r = b.r;
  const pressure = composites && compositeTrees(b, topology, priorities);
  if (sharedClaims) gpuSlices(b);
  if (topology) {
    const racks = r.int(1, 3);
    for (const node of b.nodes) {
      const labels = (node.metadata as { labels: Record<string, string> }).labels;
      if (r.chance(0.8)) labels[rackKey] = `rack-${r.int(1, racks)}`;
    }
  }
  if (priorities) victimGroups(b);
  for (let g = 0, groups = r.int(1, 4); g < groups; g++) {
    const name = `group-${g}`;
    const gang = r.chance(0.7);
    const members = gang ? r.int(2, 8) : r.int(1, 6);
    const minCount = gang ? r.int(1, members) : 0;
    const spec: Obj = { schedulingPolicy: gang ? { gang: { minCount } } : { basic: {} } };
    if (topology && r.chance(0.6)) spec.schedulingConstraints = { topology: [{ key: rackKey }] };
    const cls = priorities ? r.pick(groupClasses) : null;
    // Now and then the value too, which admission accepts when it is the class's.
    if (cls) spec.priorityClassName = cls.name;
    if (cls && r.chance(0.3)) spec.priority = cls.value;
    // With PodGroupPreemptionPolicy, defaulting gives an unstated policy PreemptLowerPriority,
    // which admission refuses for a class of policy Never (the field is dropped with the gate off).
    if (cls?.name === 'nonpreempting') spec.preemptionPolicy = 'Never';
    // The members' entry is the group's: one claim, one allocation, reserved for the group.
    const claim = sharedClaims && r.chance(0.6) ? `${name}-gpu` : null;
    if (claim !== null) {
      spec.resourceClaims = [{ name: 'gpu', resourceClaimName: claim }];
      b.objects.push({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: claim, namespace: 'default' },
        spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: gpuDriver } }] } } });
    }
    b.objects.push({ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name, namespace: 'default' }, spec });
    const size = r.pick(sizes);
    const gpu = r.chance(0.2);
    for (let i = 0; i < members; i++) {
      const requests: Record<string, string> = { ...size };
      const resources: Obj = { requests };
      // An extended resource is not overcommitted: its limit equals its request.
      if (gpu) {
        requests['example.com/gpu'] = '1';
        resources.limits = { 'example.com/gpu': '1' };
      }
      if (claim !== null) resources.claims = [{ name: 'gpu' }];
      b.pending.push({
        apiVersion: 'v1', kind: 'Pod', metadata: { name: `${name}-m${i}`, namespace: 'default', labels: { app: 'trainer', group: name } },
        spec: {
          ...(cls ? { priorityClassName: cls.name } : {}), schedulingGroup: { podGroupName: name }, containers: [{ name: 'main', image: 'registry.example/ml:0.9', resources }],
          ...(claim !== null ? { resourceClaims: [{ name: 'gpu', resourceClaimName: claim }] } : {}),
        },
      });
    }
    // With priorities, single pods preempt too: a running group's pods with disruptionMode all go together.
    // Under pressure they stay below the low tree: its `all` pods sit on every node, so every node
    // would offer the same victims, and upstream picks among such tied candidates in map order.
    for (let i = 0, n = r.int(0, 2); i < n; i++) {
      const priorityClass = priorities ? (pressure ? 'low' : r.pick(['high', 'urgent', 'standard'])) : undefined;
      b.pending.push(b.pod(r.pick(['web', 'api', 'batch']), { namespace: 'default', heavy: priorities && r.chance(0.5), priorityClass }));
    }
  }
}

/** The Workload every generated tree refers to (workloadRef is required of a composite and of a group under one). */
function treeWorkload(b: WorkloadBuilder): void {
  b.objects.push({
    apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'Workload', metadata: { name: 'trees', namespace: 'default' },
    spec: { compositePodGroupTemplates: [{ name: 'tree', schedulingPolicy: { basic: {} }, podGroupTemplates: [{ name: 'part', schedulingPolicy: { basic: {} } }] }] },
  });
}

const treeRef = (templateName: string) => ({ workloadName: 'trees', templateName });

/** The fields a tree's groups take from its class: the class, and Never stated for a Never class (see workloadFamily). */
function classSpec(cls: { name: string } | null): Obj {
  if (cls === null) return {};
  return { priorityClassName: cls.name, ...(cls.name === 'nonpreempting' ? { preemptionPolicy: 'Never' } : {}) };
}

/** A node's allocatable (else capacity) CPU in millicores. */
function cpuMilli(node: Obj): number {
  const status = node.status as { allocatable?: { cpu?: string }; capacity: { cpu: string } };
  const q = status.allocatable?.cpu ?? status.capacity.cpu;
  return q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000;
}

/**
 * 45% of the largest node's CPU, and a little memory: with 60% of every node held, no node has
 * room for it until preemption frees one of the largest.
 */
function bigSize(b: WorkloadBuilder): Record<string, string> {
  const cpu = Math.floor((Math.max(...b.nodes.map(cpuMilli)) * 0.45) / 100) * 100;
  return { cpu: `${cpu}m`, memory: '1Gi' };
}

/**
 * A bound tree of low priority: a root composite (`disruptionMode: all` or `single`) over two
 * PodGroups (one maybe `all` itself) whose members run: preemption's victims come from the
 * highest `all` group of their tree, at their root's priority. Under `pressure` one member sits on
 * every node, holding 60% of its CPU.
 */
function victimTree(b: WorkloadBuilder, pressure: boolean): void {
  const r = b.r;
  const nodes = b.nodeNames();
  const cls = r.pick(groupClasses.slice(0, 2));
  const root = 'old-tree';
  b.objects.push({
    apiVersion: 'scheduling.k8s.io/v1alpha3', kind: 'CompositePodGroup', metadata: { name: root, namespace: 'default' },
    spec: { workloadRef: treeRef('tree'), schedulingPolicy: { basic: {} }, ...classSpec(cls), disruptionMode: r.chance(0.6) ? { all: {} } : { single: {} } },
  });
  for (let c = 0; c < 2; c++) {
    const name = `${root}-${c}`;
    b.objects.push({
      apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name, namespace: 'default' },
      spec: { workloadRef: treeRef('part'), parentCompositePodGroupName: root, schedulingPolicy: { basic: {} }, ...classSpec(cls), ...(r.chance(0.3) ? { disruptionMode: { all: {} } } : {}) },
    });
    const size = r.pick(sizes);
    const member = (i: number, requests: Record<string, string>): Obj => ({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: `${name}-m${i}`, namespace: 'default', labels: { app: 'server', group: name } },
      spec: { priorityClassName: cls.name, schedulingGroup: { podGroupName: name }, containers: [{ name: 'main', image: 'registry.example/ml:0.9', resources: { requests } }] },
    });
    if (pressure) {
      // The children take the nodes in turn.
      b.nodes.forEach((node, i) => {
        if (i % 2 === c) b.bind(member(i, { cpu: `${Math.floor((cpuMilli(node) * 0.6) / 100) * 100}m`, memory: '1Gi' }), nodes[i]!);
      });
      continue;
    }
    for (let i = 0, m = r.int(1, 3); i < m; i++) b.bind(member(i, { ...size }), r.pick(nodes));
  }
}

/** Holds a group back until its tree's pending members exist (the harness's late_groups.go). */
const late = (o: Obj): void => {
  if (process.env.NO_LATE === undefined) (o.metadata as Obj).annotations = { [createAfterMembers]: 'true' };
};

/**
 * One or two trees: a root composite over two to three children, one of them maybe a nested
 * composite. Some trees have a child whose members already run, created only once the tree's
 * pending members wait (so only its add event, through GangScheduling's hint, can free them when
 * the root's quorum needs it), or hold back another of their groups likewise; the tree that must
 * preempt under pressure has neither. Says whether the cluster is under pressure.
 */
function compositeTrees(b: WorkloadBuilder, topology: boolean, priorities: boolean): boolean {
  const r = b.r;
  if (!r.chance(0.7)) return false;
  treeWorkload(b);
  const pressure = priorities && r.chance(0.7);
  if (priorities) victimTree(b, pressure);
  const ref = treeRef;
  for (let t = 0, trees = r.int(1, 2); t < trees; t++) {
    const root = `tree-${t}`;
    // Under pressure the first tree must preempt (Never now and then: its policy is the root's).
    const big = pressure && t === 0;
    const cls = !priorities ? null : big ? r.pick([groupClasses[2]!, groupClasses[2]!, groupClasses[3]!, groupClasses[3]!, groupClasses[4]!]) : r.pick(groupClasses);
    const composite = (name: string, children: number, parent?: string): Obj => {
      // Under pressure a gang of all its children: the big ones failing fail the root.
      const spec: Obj = {
        ...classSpec(cls),
        workloadRef: ref('tree'),
        schedulingPolicy: big ? { gang: { minGroupCount: children } } : r.chance(0.7) ? { gang: { minGroupCount: r.int(1, children) } } : { basic: {} },
        ...(parent !== undefined ? { parentCompositePodGroupName: parent } : {}),
      };
      if (topology && r.chance(0.5)) spec.schedulingConstraints = { topology: [{ key: rackKey }] };
      const obj: Obj = { apiVersion: 'scheduling.k8s.io/v1alpha3', kind: 'CompositePodGroup', metadata: { name, namespace: 'default' }, spec };
      b.objects.push(obj);
      return obj;
    };
    const leaf = (name: string, parent: string, running = false): Obj => {
      // Under pressure the first child (tried first) is big, one or two members; the others are not.
      const bigLeaf = big && name === `${root}-0`;
      const gang = r.chance(0.7);
      const members = bigLeaf ? r.int(1, 2) : gang ? r.int(1, 4) : r.int(1, 3);
      const spec: Obj = {
        ...classSpec(cls),
        workloadRef: ref('part'), parentCompositePodGroupName: parent,
        schedulingPolicy: gang ? { gang: { minCount: r.int(1, members) } } : { basic: {} },
      };
      if (topology && r.chance(0.4)) spec.schedulingConstraints = { topology: [{ key: rackKey }] };
      const obj: Obj = { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name, namespace: 'default' }, spec };
      b.objects.push(obj);
      const size = bigLeaf ? bigSize(b) : r.pick(sizes);
      const nodes = running ? b.nodeNames() : [];
      for (let i = 0; i < members; i++) {
        const pod: Obj = {
          apiVersion: 'v1', kind: 'Pod', metadata: { name: `${name}-m${i}`, namespace: 'default', labels: { app: 'trainer', group: name } },
          spec: { ...(cls ? { priorityClassName: cls.name } : {}), schedulingGroup: { podGroupName: name }, containers: [{ name: 'main', image: 'registry.example/ml:0.9', resources: { requests: { ...size } } }] },
        };
        if (running) b.bind(pod, r.pick(nodes));
        else b.pending.push(pod);
      }
      return obj;
    };
    const children = r.int(2, 3);
    const running = !big && r.chance(0.35);
    const rootObj = composite(root, children + (running ? 1 : 0));
    const held: Obj[] = [rootObj];
    for (let c = 0; c < children; c++) {
      const name = `${root}-${c}`;
      if (c === children - 1 && r.chance(0.3)) {
        held.push(composite(name, 2, root));
        held.push(leaf(`${name}-a`, name));
        held.push(leaf(`${name}-b`, name));
      } else held.push(leaf(name, root));
    }
    if (running) {
      const name = `${root}-running`;
      if (r.chance(0.5)) {
        late(composite(name, 1, root));
        leaf(`${name}-a`, name, true);
      } else late(leaf(name, root, true));
    } else if (!big && r.chance(0.4)) late(r.pick(held));
  }
  return pressure;
}
