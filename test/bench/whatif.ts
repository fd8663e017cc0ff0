// What capacity's three questions and a two-configuration compare cost on a large cluster: by
// default 5,000 nodes and 100,000 bound pods (plus 200 pending), CPU seconds per question (README figures).
// Run: npx tsx test/bench/whatif.ts [nodes] [pods] [fits|nodes|removable|placements|compare|gangs|composite|all]
// (placements: --removable --placements, the scheduler run for every node)
import type { Node, Pod } from '../../src/api/types.js';
import { admitPod } from '../../src/cluster/memory/admission.js';
import { configFromObject, defaultConfiguration } from '../../src/config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../src/plugins/registry.js';
import { countFits, nodesNeeded, removableNodes } from '../../src/sim/whatif/capacity.js';
import { countGangFits, gangMemberKeys, podGroupGang, withGang, type GangTemplate } from '../../src/sim/whatif/capacity_gangs.js';
import { FeatureGates } from '../../src/config/feature_gates.js';
import type { CompositePodGroup, PodGroup } from '../../src/api/scheduling.js';
import { compareVariants } from '../../src/sim/whatif/compare.js';
import type { Scenario } from '../../src/sim/scenario/scenario.js';

const N = Number(process.argv[2] ?? 5000);
const P = Number(process.argv[3] ?? 100_000);
const only = process.argv[4] ?? 'all';
const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, admitPod, seed: 1 };

const node = (i: number): Node => ({
  apiVersion: 'v1', kind: 'Node',
  metadata: { name: `n${i}`, labels: { 'kubernetes.io/hostname': `n${i}`, 'topology.kubernetes.io/zone': `z${i % 3}` } },
  status: { allocatable: { cpu: '32', memory: '128Gi', pods: '110' }, capacity: { cpu: '32', memory: '128Gi', pods: '110' } },
});
const pod = (name: string, cpu: string, nodeName?: string): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'default', labels: { app: `a${name.length % 50}` } },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'x', resources: { requests: { cpu, memory: '1Gi' } } }] },
});
// Bound pods fill nodes unevenly (0.5 to 2 cpu each), so some nodes are nearly full and some empty.
const sc: Scenario = {
  name: 'whatif-bench', metadata: {}, config: null, objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }],
  nodes: Array.from({ length: N }, (_, i) => node(i)),
  pods: Array.from({ length: P }, (_, i) => pod(`p${i}`, `${500 + (i % 4) * 500}m`, `n${(i * 7919) % N}`)),
  pending: Array.from({ length: 200 }, (_, i) => pod(`pending${i}`, '4')),
  steps: [],
};

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
async function measure(name: string, f: () => Promise<string>): Promise<void> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const answer = await f();
  console.log(`${name}: ${cpuSeconds(process.cpuUsage(cpu)).toFixed(2)} s cpu, ${((performance.now() - wall) / 1000).toFixed(2)} s wall, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB: ${answer}`);
}

console.log(`${N} nodes, ${P} bound pods, ${sc.pending.length} pending; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (only === 'all' || only === 'fits') {
  await measure('capacity --pod (2 cpu copies)', async () => {
    const r = await countFits(sc, pod('worker', '2'), opts);
    return `${r.fits} copies fit`;
  });
}
if (only === 'all' || only === 'nodes') {
  // 400 pending pods of 24 cpu: only an empty-ish node takes one, so nodes must be added.
  const big = { ...sc, pending: Array.from({ length: Number(process.env.BIG ?? 400) }, (_, i) => pod(`big${i}`, '24')) };
  await measure('capacity --add-nodes-like n0', async () => {
    const r = await nodesNeeded(big, sc.nodes[0]!, opts);
    return `${r.nodes} nodes, ${r.probes.length} simulations`;
  });
}
if (only === 'all' || only === 'gangs') {
  // Gangs of 8 workers of 4 cpu (minCount 8), all or nothing; then the nodes to add for one gang
  // of 64 workers of 24 cpu (only a nearly empty node takes one).
  const gates = { ...opts, featureGates: FeatureGates.parse(['GenericWorkload=true']) };
  const gang = (members: number, cpu: string): GangTemplate => podGroupGang(
    { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'train', namespace: 'default' }, spec: { schedulingPolicy: { gang: { minCount: members } } } },
    pod('worker', cpu), members);
  await measure('capacity --gang (8 x 4 cpu)', async () => {
    const r = await countGangFits(sc, gang(8, '4'), gates);
    return `${r.fits} gangs fit`;
  });
  const big = gang(64, '24');
  await measure('capacity --gang --add-nodes-like n0 (64 x 24 cpu)', async () => {
    const r = await nodesNeeded(withGang(sc, big), sc.nodes[0]!, { ...gates, only: new Set(gangMemberKeys(big)) });
    return `${r.nodes} nodes, ${r.probes.length} simulations`;
  });
}
if (only === 'all' || only === 'composite') {
  // A CompositePodGroup tree (gang, minGroupCount 2) over two gangs, 8 x 4 cpu and 4 x 8 cpu,
  // each copy all or nothing; then the nodes to add for one tree of two 32 x 24 cpu gangs.
  const gates = { ...opts, featureGates: FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true']) };
  const ref = { workloadName: 'w', templateName: 't' };
  const tree = (a: [number, string], b: [number, string]): GangTemplate => ({
    root: { apiVersion: 'scheduling.k8s.io/v1alpha3', kind: 'CompositePodGroup', metadata: { name: 'job', namespace: 'default' }, spec: { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 2 } } } } satisfies CompositePodGroup,
    below: (['a', 'b'] as const).map((n, i): PodGroup => ({ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: n, namespace: 'default' },
      spec: { parentCompositePodGroupName: 'job', workloadRef: ref, schedulingPolicy: { gang: { minCount: [a, b][i]![0] } } } })),
    members: new Map([['a', { pod: pod('a', a[1]), count: a[0] }], ['b', { pod: pod('b', b[1]), count: b[0] }]]),
  });
  await measure('capacity --gang composite (2 gangs: 8 x 4 cpu, 4 x 8 cpu)', async () => {
    const r = await countGangFits(sc, tree([8, '4'], [4, '8']), gates);
    return `${r.fits} trees fit`;
  });
  const big = tree([32, '24'], [32, '24']);
  await measure('capacity --gang composite --add-nodes-like n0 (2 x 32 x 24 cpu)', async () => {
    const r = await nodesNeeded(withGang(sc, big), sc.nodes[0]!, { ...gates, only: new Set(gangMemberKeys(big)) });
    return `${r.nodes} nodes, ${r.probes.length} simulations`;
  });
}
if (only === 'all' || only === 'removable') {
  await measure('capacity --removable', async () => {
    const r = await removableNodes(sc, opts);
    return `${r.filter((x) => x.removable).length} of ${r.length} removable, ${r.filter((x) => x.decidedBy === 'room').length} by room alone`;
  });
}
if (only === 'all' || only === 'placements') {
  await measure('capacity --removable --placements', async () => {
    const r = await removableNodes(sc, { ...opts, placements: true });
    return `${r.filter((x) => x.removable).length} of ${r.length} removable`;
  });
}
if (only === 'all' || only === 'compare') {
  const packing = configFromObject({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration',
    profiles: [{ pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }] } } }] }] }, 'packing', registry);
  await measure('compare (2 configurations)', async () => {
    const r = await compareVariants(sc, [{ name: 'defaults', options: opts }, { name: 'packing', options: { ...opts, config: packing } }]);
    return `${r.differences.length} of ${r.pods} pods differ`;
  });
}
