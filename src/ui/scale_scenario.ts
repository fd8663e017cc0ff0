// A generated cluster for sizing the workbench (the browser test at 2,000 nodes and 20,000 pods,
// `npm run workbench:scale` up to 5,000 nodes and 100,000 pods): nodes in three zones of three
// sizes, some tainted; pods of ten shapes, some pinned to a zone, some too large for any node;
// with `preemption`, premium nodes nearly full of low-priority load that high-priority pods evict;
// with `volumes`, pods whose claims wait for their first consumer; with `bound`, that many pods
// already running (spread over the nodes), which cost the scheduler nothing. Deterministic by index.
import type { KubeObject, Node, Pod } from '../api/types.js';
import type { Scenario } from '../sim/scenario/scenario.js';

interface ScaleOptions {
  nodes: number;
  /** Pending pods. */
  pods: number;
  /** Pods already bound, round-robin over the nodes. */
  bound?: number;
  preemption?: boolean;
  volumes?: boolean;
}

const zoneLabel = 'topology.kubernetes.io/zone';
const zones = ['zone-a', 'zone-b', 'zone-c'];
const nodeCpu = [8, 16, 32];
const nodeMemoryGi = [32, 64, 128];
/** Every n-th node: tainted (dedicated=infra), premium (the high-priority pods' nodes). */
const taintedEvery = 50;
const premiumEvery = 100;
/** Every n-th pod: pinned to a zone, too large for any node, high priority, with a claim. */
const zonedEvery = 7;
const hugeEvery = 97;
const highPriorityEvery = 200;
const claimEvery = 20;

const pad = (i: number) => String(i).padStart(5, '0');

function node(i: number): Node {
  const size = i % 3;
  const labels: Record<string, string> = { [zoneLabel]: zones[i % zones.length]!, 'kubernetes.io/hostname': `node-${pad(i)}` };
  if (i % premiumEvery === 0) labels.tier = 'premium';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `node-${pad(i)}`, labels },
    spec: i % taintedEvery === taintedEvery - 1 ? { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] } : {},
    status: { allocatable: { cpu: String(nodeCpu[size]), memory: `${nodeMemoryGi[size]}Gi`, pods: '110' } },
  };
}

function pod(name: string, cpuMilli: number, memoryMi: number, spec: Partial<Pod['spec']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name.replace(/-\d+$/, '') } },
    spec: { ...spec, containers: [{ name: 'main', image: 'registry.example/app:1', resources: { requests: { cpu: `${cpuMilli}m`, memory: `${memoryMi}Mi` } } }] },
  };
}

function pendingPod(i: number, o: ScaleOptions): Pod {
  if (i % hugeEvery === hugeEvery - 1) return pod(`huge-${pad(i)}`, 64_000, 1024);
  if (o.preemption && i % highPriorityEvery === highPriorityEvery - 1) {
    return pod(`critical-${pad(i)}`, 4000, 4096, { priorityClassName: 'high', nodeSelector: { tier: 'premium' } });
  }
  const shape = i % 10;
  const spec: Partial<Pod['spec']> = {};
  if (i % zonedEvery === 0) spec.nodeSelector = { [zoneLabel]: zones[i % zones.length]! };
  if (o.volumes && i % claimEvery === 0) spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: `data-${pad(i)}` } }];
  return pod(`app${shape}-${pad(i)}`, 100 + 150 * shape, 128 + 256 * shape, spec);
}

export function scaleScenario(o: ScaleOptions): Scenario {
  const nodes = Array.from({ length: o.nodes }, (_v, i) => node(i));
  const objects: KubeObject[] = [];
  const existing: Pod[] = [];
  if (o.preemption) {
    objects.push({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 } as KubeObject);
    for (let i = 0; i < o.nodes; i += premiumEvery) {
      // All but 2 cores of each premium node taken by low-priority load: a 4-core critical pod evicts it.
      existing.push(pod(`batch-${pad(i)}`, nodeCpu[i % 3]! * 1000 - 2000, 2048, { nodeName: node(i).metadata.name! }));
    }
  }
  for (let i = 0; i < (o.bound ?? 0); i++) existing.push(pod(`load-${pad(i)}`, 100, 128, { nodeName: node(i % o.nodes).metadata.name! }));
  if (o.volumes) {
    objects.push({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'zonal' }, provisioner: 'csi.example.com', volumeBindingMode: 'WaitForFirstConsumer' } as KubeObject);
    for (let i = 0; i < o.pods; i += claimEvery) {
      objects.push({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: `data-${pad(i)}`, namespace: 'default' },
        spec: { storageClassName: 'zonal', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
      } as KubeObject);
    }
  }
  const pending = Array.from({ length: o.pods }, (_v, i) => pendingPod(i, o));
  return { name: `scale-${o.nodes}-nodes-${o.pods}-pods${o.bound ? `-${o.bound}-bound` : ''}`, metadata: {}, config: null, nodes, pods: existing, pending, objects, steps: [] };
}
