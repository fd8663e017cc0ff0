// What one dry-run request costs on a large served cluster: the copy of every object plus the
// scheduling of the asked pods, by default 5,000 nodes and 50,000 bound pods (README figures).
// Run: npx tsx test/bench/dryrun.ts [nodes] [pods]
import { MemoryCluster } from '../../src/cluster/memory/store.js';
import { defaultConfiguration } from '../../src/config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../src/plugins/registry.js';
import { FakeClock } from '../../src/util/clock.js';
import { dryRunSchedule } from '../../src/sim/serve/dryrun.js';
import type { Pod } from '../../src/api/types.js';
const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins };
const N = Number(process.argv[2] ?? 5000), P = Number(process.argv[3] ?? 50000);
const clock = new FakeClock(0);
const live = new MemoryCluster({ clock });
live.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
let t = performance.now();
for (let i = 0; i < N; i++) live.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: `n${i}`, labels: { 'kubernetes.io/hostname': `n${i}`, 'topology.kubernetes.io/zone': `z${i % 3}` } }, status: { allocatable: { cpu: '32', memory: '128Gi', pods: '110' } } } as never);
for (let i = 0; i < P; i++) live.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, namespace: 'default', labels: { app: `a${i % 50}` } }, spec: { nodeName: `n${i % N}`, containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '500m', memory: '1Gi' } } }] }, status: { phase: 'Running' } } as never);
console.log(`live built in ${((performance.now() - t) / 1000).toFixed(2)} s`);
const pods = (k: number): Pod[] => Array.from({ length: k }, (_, i) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `ask${i}`, namespace: 'default', labels: { app: 'new' } }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1', memory: '1Gi' } } }] } }));
for (const k of [1, 1, 100]) {
  t = performance.now();
  const cpu = process.cpuUsage();
  const r = await dryRunSchedule(live, clock, pods(k), opts);
  console.log(`${k} pod(s): ${((performance.now() - t) / 1000).toFixed(2)} s wall, ${(((u) => (u.user + u.system) / 1e6)(process.cpuUsage(cpu))).toFixed(2)} s cpu, ${r.scheduled} scheduled, first on ${r.pods[0]!.node}, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
}
