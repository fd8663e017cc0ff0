// The workload family of the differential generator: pod groups (GenericWorkload) — gangs that
// fit whole, gangs that do not, basic groups, and with TopologyAwareWorkloadScheduling groups
// constrained to a rack — among single pods, on nodes with some load.
// Every gang has at least minCount pending members (a smaller one would wait at PreEnqueue,
// which explain cannot attempt), and every pod has priority 0: a cluster without lower-priority
// pods is one where PodGroupPostFilter finds no victims (group preemption is not built yet).

type Obj = Record<string, unknown>;

/** What the family needs of the generator's Builder. */
export interface WorkloadBuilder {
  readonly r: { int(lo: number, hi: number): number; chance(p: number): boolean; pick<T>(items: readonly T[]): T };
  readonly objects: Obj[];
  readonly nodes: Obj[];
  readonly pending: Obj[];
  pod(app: string, o?: { namespace?: string; heavy?: boolean }): Obj;
}

const sizes = [
  { cpu: '500m', memory: '1Gi' },
  { cpu: '1', memory: '2Gi' },
  { cpu: '2', memory: '4Gi' },
  { cpu: '3500m', memory: '8Gi' },
];

/**
 * The rack label of the topology constraints. Only one rack exists, on a random part of the nodes
 * (maybe none): upstream tries placements in Go map order and breaks ties between them at random,
 * so only a single placement (or none) gives a decision both sides must agree on.
 */
const rackKey = 'example.com/rack';

/**
 * Adds the groups and single pods; the caller chose the nodes, their load and the configuration.
 * With `topology`, some groups are constrained to the rack (TopologyAwareWorkloadScheduling).
 */
export function workloadFamily(b: WorkloadBuilder, topology = false): void {
  const r = b.r;
  if (topology) {
    for (const node of b.nodes) {
      const labels = (node.metadata as { labels: Record<string, string> }).labels;
      if (r.chance(0.6)) labels[rackKey] = 'rack-1';
    }
  }
  for (let g = 0, groups = r.int(1, 4); g < groups; g++) {
    const name = `group-${g}`;
    const gang = r.chance(0.7);
    const members = gang ? r.int(2, 8) : r.int(1, 6);
    const minCount = gang ? r.int(1, members) : 0;
    const spec: Obj = { schedulingPolicy: gang ? { gang: { minCount } } : { basic: {} } };
    if (topology && r.chance(0.6)) spec.schedulingConstraints = { topology: [{ key: rackKey }] };
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
      b.pending.push({
        apiVersion: 'v1', kind: 'Pod', metadata: { name: `${name}-m${i}`, namespace: 'default', labels: { app: 'trainer', group: name } },
        spec: { schedulingGroup: { podGroupName: name }, containers: [{ name: 'main', image: 'registry.example/ml:0.9', resources }] },
      });
    }
    for (let i = 0, n = r.int(0, 2); i < n; i++) b.pending.push(b.pod(r.pick(['web', 'api', 'batch']), { namespace: 'default' }));
  }
}
