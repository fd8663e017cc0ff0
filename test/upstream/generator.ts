// Seeded random scenarios for the differential test, one family at a time. Every scenario is
// built so upstream's answer is unique: fewer than 100 nodes (every node is evaluated), every
// existing pod with its own start time (preemption's last tie-break), an unbound claim used by
// one pending pod at most, and pending pods that name a node only where preemption is off.
import { seededRandom } from '../../src/util/clock.js';
import { draFamily } from './generator_dra.js';
import { workloadFamily } from './generator_workload.js';

export const families = ['node-local', 'topology-spread', 'inter-pod-affinity', 'mixed', 'scoring', 'preemption', 'preemption-prebind', 'volumes', 'dra', 'batching', 'workload'] as const;
export type Family = (typeof families)[number];

type Obj = Record<string, unknown>;

export interface GeneratedScenario {
  metadata: { name: string; family: Family; seed: number; index: number; generator: string };
  config: Obj;
  objects: Obj[];
  nodes: Obj[];
  pods: Obj[];
  pending: Obj[];
}

class Rand {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  float(): number {
    return this.next();
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** k distinct items, in the input's order. */
  some<T>(items: readonly T[], k: number): T[] {
    const idx = items.map((_, i) => ({ i, r: this.next() })).sort((a, b) => a.r - b.r).slice(0, k).map((x) => x.i).sort((a, b) => a - b);
    return idx.map((i) => items[i]!);
  }
}

const zones = ['zone-a', 'zone-b', 'zone-c', 'zone-d'];
const apps = ['web', 'api', 'db', 'cache', 'queue', 'batch'];
const namespaces = ['default', 'team-a', 'team-b', 'prod'];
const images = [
  { name: 'registry.example/web:1.0', size: 180_000_000 },
  { name: 'registry.example/api:2.3', size: 620_000_000 },
  { name: 'registry.example/db:15', size: 1_200_000_000 },
  { name: 'registry.example/tiny:1', size: 9_000_000 },
  { name: 'registry.example/ml:0.9', size: 3_400_000_000 },
];
/** Features nodes declare in v1.37, sorted; the last is not in the scheduler's registry. */
const declarableFeatures = ['ExtendWebSocketsToKubelet', 'RestartAllContainersOnContainerExits', 'UserNamespacesHostNetworkSupport', 'ZetaUnknown'];
const ebs = 'ebs.csi.aws.com';
const gce = 'pd.csi.storage.gke.io';

const priorityClasses = [
  { name: 'best-effort', value: -10 },
  { name: 'low', value: 100 },
  { name: 'standard', value: 500 },
  { name: 'high', value: 10_000 },
  { name: 'urgent', value: 50_000 },
  { name: 'nonpreempting', value: 50_005, preemptionPolicy: 'Never' },
  { name: 'critical', value: 1_000_000 },
];

/** State shared by the builders of one scenario. */
class Builder {
  readonly r: Rand;
  readonly nodes: Obj[] = [];
  readonly pods: Obj[] = [];
  readonly pending: Obj[] = [];
  readonly objects: Obj[] = [];
  private podSeq = 0;
  private startSeq = 0;
  readonly nodeZones = new Map<string, string>();
  preemption = false;
  /** Some pods get pod-level requests (spec.resources), which only BalancedAllocation scores. */
  podLevelResources = false;
  /** Some nodes declare features (status.declaredFeatures), for NodeDeclaredFeatures. */
  declaredFeatures = false;

  constructor(seed: number) {
    this.r = new Rand(seed);
  }

  namespaces(): void {
    this.objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a', env: 'dev' } } });
    this.objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b', labels: { team: 'b', env: 'dev' } } });
    this.objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'prod', labels: { env: 'prod' } } });
  }

  priorityClasses(): void {
    for (const pc of priorityClasses) {
      this.objects.push({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: pc.name }, value: pc.value, ...(pc.preemptionPolicy ? { preemptionPolicy: pc.preemptionPolicy } : {}) });
    }
  }

  /** Nodes with zones, sizes, optional taints, unschedulable flags and cached images. */
  addNodes(n: number, o: { taints: boolean; unschedulable: boolean; images: boolean; smallPodCount: boolean }): void {
    const r = this.r;
    const naming = r.pick(['node-%02d', 'pool-%s-%02d', 'ip-10-0-%d.internal']);
    const usedZones = zones.slice(0, r.int(2, 4));
    for (let i = 1; i <= n; i++) {
      const zone = usedZones[(i + r.int(0, 1)) % usedZones.length]!;
      const name = naming === 'node-%02d' ? `node-${String(i).padStart(2, '0')}` : naming === 'pool-%s-%02d' ? `pool-${zone.slice(-1)}-${String(i).padStart(2, '0')}` : `ip-10-0-${i * 7}.internal`;
      this.nodeZones.set(name, zone);
      const cpu = r.pick(['2', '4', '8', '16', '32', '3500m', '7900m']);
      const memGi = r.pick([4, 8, 16, 32, 64, 128]);
      const pods = o.smallPodCount && r.chance(0.2) ? String(r.int(2, 8)) : '110';
      const capacity: Record<string, string> = { cpu, memory: `${memGi}Gi`, pods, 'ephemeral-storage': `${r.pick([20, 50, 100])}Gi` };
      if (r.chance(0.2)) capacity['example.com/gpu'] = String(r.pick([1, 2, 4, 8]));
      const labels: Record<string, string> = {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': r.chance(0.8) ? 'amd64' : 'arm64',
        'topology.kubernetes.io/zone': zone,
        'topology.kubernetes.io/region': 'region-1',
        'node-type': r.pick(['general', 'compute', 'memory', 'gpu']),
        disktype: r.pick(['ssd', 'hdd']),
      };
      if (r.chance(0.3)) labels['cpu-gen'] = String(r.int(1, 4));
      const spec: Obj = {};
      if (o.taints && r.chance(0.25)) {
        spec.taints = r.some([
          { key: 'dedicated', value: r.pick(['team-a', 'team-b']), effect: 'NoSchedule' },
          { key: 'example.com/gpu', value: 'present', effect: 'NoSchedule' },
          { key: 'maintenance', effect: r.pick(['NoExecute', 'NoSchedule']) },
          { key: 'spot', value: 'true', effect: 'PreferNoSchedule' },
          { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
        ], r.int(1, 2));
      }
      if (o.unschedulable && r.chance(0.08)) spec.unschedulable = true;
      const status: Obj = { capacity };
      if (r.chance(0.7)) {
        const allocatable = { ...capacity };
        if (r.chance(0.5)) allocatable.memory = `${memGi * 1024 - 512}Mi`;
        status.allocatable = allocatable;
      }
      if (o.images && r.chance(0.6)) {
        status.images = r.some(images, r.int(1, 3)).map((im) => ({ names: [im.name], sizeBytes: im.size }));
      }
      // Sorted, as kubelets publish them; one unknown to the scheduler's registry is ignored.
      if (this.declaredFeatures && r.chance(0.5)) status.declaredFeatures = r.some(declarableFeatures, r.int(1, 3));
      this.nodes.push({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec, status });
    }
  }

  nodeNames(): string[] {
    return this.nodes.map((n) => (n.metadata as { name: string }).name);
  }

  /** A pod of an app: labels, requests of a plausible size, and options the families add. */
  pod(app: string, o: { namespace?: string; priorityClass?: string; heavy?: boolean } = {}): Obj {
    const r = this.r;
    const name = `${app}-${(this.podSeq++).toString(36).padStart(3, '0')}`;
    const labels: Record<string, string> = { app, 'pod-template-hash': `h${r.int(1, 3)}` };
    if (r.chance(0.4)) labels.tier = r.pick(['frontend', 'backend']);
    const cpu = o.heavy ? r.pick(['1', '2', '3500m', '6']) : r.pick(['50m', '100m', '250m', '500m', '1', '1500m']);
    const memory = o.heavy ? r.pick(['2Gi', '4Gi', '12Gi']) : r.pick(['64Mi', '128Mi', '256Mi', '512Mi', '1Gi', '3Gi']);
    const resources: Obj = {};
    const style = r.float();
    if (style < 0.65) resources.requests = { cpu, memory };
    else if (style < 0.8) resources.limits = { cpu, memory };
    else if (style < 0.9) resources.requests = { cpu };
    // else: best-effort
    const container: Obj = { name: 'main', image: r.pick(images).name, resources };
    const spec: Obj = { containers: [container] };
    if (r.chance(0.1)) {
      (spec.containers as Obj[]).push({ name: 'sidecar', image: 'registry.example/tiny:1', resources: { requests: { cpu: '20m', memory: '32Mi' } } });
    }
    if (r.chance(0.08)) spec.initContainers = [{ name: 'init', image: 'registry.example/tiny:1', resources: { requests: { cpu: r.pick(['200m', '2']), memory: '64Mi' } } }];
    if (r.chance(0.06)) spec.overhead = { cpu: r.pick(['100m', '250m']), memory: '120Mi' };
    if (r.chance(0.05) && !o.heavy) {
      // An extended resource cannot be overcommitted: the API server wants its limit equal.
      const rs = resources as { requests?: Obj; limits?: Obj };
      rs.requests = { ...(rs.requests ?? {}), 'example.com/gpu': '1' };
      rs.limits = { ...(rs.limits ?? {}), 'example.com/gpu': '1' };
    }
    // At least the containers' aggregate (sidecar and init container included), as the API server wants.
    if (this.podLevelResources && !o.heavy && r.chance(0.35)) spec.resources = { requests: r.pick([{ cpu: r.pick(['2', '3']) }, { memory: r.pick(['4Gi', '6Gi']) }, { cpu: '4', memory: '8Gi' }]) };
    if (o.priorityClass) spec.priorityClassName = o.priorityClass;
    return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: o.namespace ?? this.r.pick(namespaces), labels }, spec };
  }

  /**
   * Makes the pod need a declared feature: a restart rule restarting all containers, or (without
   * host ports, which host network would have to match) host network with user namespaces.
   */
  needFeature(pod: Obj): void {
    const spec = pod.spec as Obj;
    const main = (spec.containers as Obj[])[0]!;
    if (main.ports === undefined && this.r.chance(0.5)) {
      spec.hostNetwork = true;
      spec.hostUsers = false;
    } else {
      main.restartPolicyRules = [{ action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [this.r.int(1, 9)] } }];
    }
  }

  /** Binds a pod as existing load, with its own start time. */
  bind(pod: Obj, node: string): void {
    (pod.spec as Obj).nodeName = node;
    const t = new Date(Date.UTC(2024, 1, 1, 0, 0, 0) + 37_000 * ++this.startSeq).toISOString().replace('.000Z', 'Z');
    pod.status = { phase: 'Running', startTime: t };
    this.pods.push(pod);
  }

  existingLoad(perNode: [number, number], o: { priorities?: boolean; ports?: boolean; heavy?: number } = {}): void {
    for (const node of this.nodeNames()) {
      const k = this.r.int(perNode[0], perNode[1]);
      for (let i = 0; i < k; i++) {
        const p = this.pod(this.r.pick(apps), { heavy: this.r.chance(o.heavy ?? 0), priorityClass: o.priorities ? this.r.pick(['best-effort', 'low', 'standard', 'low']) : undefined });
        if (o.ports && this.r.chance(0.15)) (((p.spec as Obj).containers as Obj[])[0]!).ports = [{ containerPort: 8080, hostPort: this.r.pick([8080, 9090]) }];
        this.bind(p, node);
      }
    }
  }

  tolerations(pod: Obj): void {
    const r = this.r;
    const options: Obj[] = [
      { key: 'dedicated', operator: 'Equal', value: r.pick(['team-a', 'team-b']), effect: 'NoSchedule' },
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'maintenance', operator: 'Exists' },
      { key: 'spot', operator: 'Equal', value: 'true', effect: 'PreferNoSchedule' },
      { operator: 'Exists', effect: 'NoSchedule' },
    ];
    (pod.spec as Obj).tolerations = r.some(options, r.int(1, 2));
  }

  nodeAffinity(pod: Obj): void {
    const r = this.r;
    const spec = pod.spec as Obj;
    const expr = (): Obj => r.pick<Obj>([
      { key: 'topology.kubernetes.io/zone', operator: 'In', values: r.some(zones, r.int(1, 2)) },
      { key: 'node-type', operator: 'NotIn', values: ['gpu'] },
      { key: 'disktype', operator: 'In', values: ['ssd'] },
      { key: 'cpu-gen', operator: 'Gt', values: [String(r.int(1, 3))] },
      { key: 'cpu-gen', operator: 'Exists' },
      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
    ]);
    const style = r.float();
    if (style < 0.3) spec.nodeSelector = r.pick([{ disktype: 'ssd' }, { 'kubernetes.io/arch': 'amd64' }, { 'node-type': r.pick(['general', 'compute']) }]);
    const affinity: Obj = {};
    if (style >= 0.3 && style < 0.7) {
      affinity.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: Array.from({ length: r.int(1, 2) }, () => ({ matchExpressions: [expr()] })) };
    }
    if (r.chance(0.5)) {
      affinity.preferredDuringSchedulingIgnoredDuringExecution = Array.from({ length: r.int(1, 2) }, () => ({ weight: r.int(1, 100), preference: { matchExpressions: [expr()] } }));
    }
    if (Object.keys(affinity).length > 0) spec.affinity = { ...(spec.affinity as Obj | undefined), nodeAffinity: affinity };
  }

  hostPort(pod: Obj): void {
    (((pod.spec as Obj).containers as Obj[])[0]!).ports = [{ containerPort: 8080, hostPort: this.r.pick([8080, 9090]), protocol: this.r.chance(0.8) ? 'TCP' : 'UDP' }];
  }

  images(pod: Obj): void {
    const spec = pod.spec as Obj;
    (spec.containers as Obj[])[0]!.image = this.r.pick(images).name;
    // An image volume's image counts for ImageLocality as a container's does.
    if (this.r.chance(0.3)) spec.volumes = [...((spec.volumes as Obj[] | undefined) ?? []), { name: 'data', image: { reference: this.r.pick(images).name } }];
  }

  spread(pod: Obj): void {
    const r = this.r;
    const labels = (pod.metadata as { labels: Record<string, string> }).labels;
    const constraints: Obj[] = [];
    // One constraint per topology key: the API server refuses two with the same key and action.
    const keys = r.chance(0.5) ? ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'] : ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'];
    for (let i = 0, n = r.int(1, 2); i < n; i++) {
      const hard = r.chance(0.6);
      const c: Obj = {
        maxSkew: r.int(1, 3),
        topologyKey: keys[i]!,
        whenUnsatisfiable: hard ? 'DoNotSchedule' : 'ScheduleAnyway',
        labelSelector: { matchLabels: { app: labels.app! } },
      };
      if (hard && r.chance(0.3)) c.minDomains = r.int(2, 5);
      if (r.chance(0.3)) c.nodeAffinityPolicy = r.pick(['Honor', 'Ignore']);
      if (r.chance(0.3)) c.nodeTaintsPolicy = r.pick(['Honor', 'Ignore']);
      if (r.chance(0.2)) c.matchLabelKeys = ['pod-template-hash'];
      constraints.push(c);
    }
    (pod.spec as Obj).topologySpreadConstraints = constraints;
  }

  podAffinity(pod: Obj): void {
    const r = this.r;
    const term = (): Obj => {
      const t: Obj = {
        labelSelector: r.chance(0.7) ? { matchLabels: { app: r.pick(apps) } } : { matchExpressions: [{ key: 'app', operator: 'In', values: r.some(apps, 2) }] },
        topologyKey: r.pick(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']),
      };
      const ns = r.float();
      if (ns < 0.2) t.namespaces = r.some(namespaces, 2);
      else if (ns < 0.35) t.namespaceSelector = r.chance(0.5) ? {} : { matchLabels: { env: 'dev' } };
      if (r.chance(0.1)) t.matchLabelKeys = ['pod-template-hash'];
      return t;
    };
    const affinity: Obj = {};
    const kind = r.float();
    if (kind < 0.35) affinity.podAffinity = r.chance(0.5) ? { requiredDuringSchedulingIgnoredDuringExecution: [term()] } : { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: r.int(1, 100), podAffinityTerm: term() }] };
    else if (kind < 0.8) affinity.podAntiAffinity = r.chance(0.5) ? { requiredDuringSchedulingIgnoredDuringExecution: [term()] } : { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: r.int(1, 100), podAffinityTerm: term() }] };
    else {
      affinity.podAffinity = { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: r.int(1, 100), podAffinityTerm: term() }] };
      affinity.podAntiAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [term()] };
    }
    (pod.spec as Obj).affinity = { ...((pod.spec as Obj).affinity as Obj | undefined), ...affinity };
  }

  /** An existing pod that others are attracted to or repelled by: pods of an app with affinity terms of their own. */
  affinityLoad(): void {
    for (const p of this.pods) if (this.r.chance(0.15)) this.podAffinity(p);
  }

  nodeNameOn(pod: Obj): void {
    (pod.spec as Obj).nodeName = this.r.pick(this.nodeNames());
  }

  scenario(name: string, family: Family, seed: number, index: number, config: Obj): GeneratedScenario {
    return {
      metadata: { name, family, seed, index, generator: 'test/upstream/generator.ts' },
      config,
      objects: this.objects,
      nodes: this.nodes,
      pods: this.pods,
      pending: this.pending,
    };
  }
}

function configWith(profile: Obj, extra: Obj = {}): Obj {
  return { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', ...extra, profiles: [{ schedulerName: 'default-scheduler', ...profile }] };
}

const noPreemption = { plugins: { multiPoint: { disabled: [{ name: 'DefaultPreemption' }] } } };

function nodeLocal(b: Builder): Obj {
  const r = b.r;
  b.declaredFeatures = true;
  b.addNodes(r.int(5, 30), { taints: true, unschedulable: true, images: true, smallPodCount: true });
  b.existingLoad([0, 4], { ports: true });
  for (let i = 0, n = r.int(3, 14); i < n; i++) {
    const p = b.pod(r.pick(apps), { heavy: r.chance(0.2) });
    if (r.chance(0.4)) b.tolerations(p);
    if (r.chance(0.5)) b.nodeAffinity(p);
    if (r.chance(0.2)) b.hostPort(p);
    if (r.chance(0.25)) b.needFeature(p);
    if (r.chance(0.08)) b.nodeNameOn(p);
    b.pending.push(p);
  }
  return configWith(noPreemption);
}

function topologySpread(b: Builder): Obj {
  const r = b.r;
  b.addNodes(r.int(4, 20), { taints: true, unschedulable: true, images: false, smallPodCount: false });
  b.existingLoad([0, 5]);
  for (let i = 0, n = r.int(6, 18); i < n; i++) {
    const p = b.pod(r.pick(apps.slice(0, 2)));
    b.spread(p);
    if (r.chance(0.3)) b.nodeAffinity(p);
    if (r.chance(0.2)) b.tolerations(p);
    b.pending.push(p);
  }
  // Half the time the default constraints come from a Service selecting the pods.
  if (r.chance(0.5)) b.objects.push({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
  return configWith(noPreemption);
}

function interPodAffinity(b: Builder): Obj {
  const r = b.r;
  b.addNodes(r.int(5, 24), { taints: false, unschedulable: true, images: false, smallPodCount: false });
  b.existingLoad([0, 4]);
  b.affinityLoad();
  for (let i = 0, n = r.int(4, 14); i < n; i++) {
    const p = b.pod(r.pick(apps));
    b.podAffinity(p);
    if (r.chance(0.2)) b.nodeAffinity(p);
    b.pending.push(p);
  }
  return configWith(noPreemption);
}

function mixed(b: Builder): Obj {
  const r = b.r;
  b.addNodes(r.int(6, 36), { taints: true, unschedulable: true, images: true, smallPodCount: true });
  b.existingLoad([0, 5], { ports: true });
  b.affinityLoad();
  for (let i = 0, n = r.int(4, 15); i < n; i++) {
    const p = b.pod(r.pick(apps), { heavy: r.chance(0.15) });
    if (r.chance(0.3)) b.tolerations(p);
    if (r.chance(0.3)) b.nodeAffinity(p);
    if (r.chance(0.3)) b.spread(p);
    if (r.chance(0.3)) b.podAffinity(p);
    if (r.chance(0.1)) b.hostPort(p);
    if (r.chance(0.05)) b.nodeNameOn(p);
    b.pending.push(p);
  }
  return configWith(noPreemption);
}

/** Non-default scoring: strategies, weights, shapes, spread defaults and affinity args. */
function scoring(b: Builder): Obj {
  const r = b.r;
  b.podLevelResources = true;
  b.addNodes(r.int(5, 24), { taints: true, unschedulable: false, images: true, smallPodCount: false });
  b.existingLoad([0, 5]);
  b.affinityLoad();
  for (let i = 0, n = r.int(4, 12); i < n; i++) {
    const p = b.pod(r.pick(apps));
    if (r.chance(0.3)) b.nodeAffinity(p);
    if (r.chance(0.3)) b.spread(p);
    if (r.chance(0.3)) b.podAffinity(p);
    if (r.chance(0.2)) b.tolerations(p);
    b.pending.push(p);
  }
  const resources = r.chance(0.5) ? [{ name: 'cpu', weight: r.int(1, 5) }, { name: 'memory', weight: r.int(1, 5) }] : [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }, { name: 'example.com/gpu', weight: r.int(1, 3) }];
  const strategy = r.pick([
    { type: 'LeastAllocated', resources },
    { type: 'MostAllocated', resources },
    { type: 'RequestedToCapacityRatio', resources, requestedToCapacityRatio: { shape: [{ utilization: 0, score: r.int(0, 3) }, { utilization: r.int(40, 80), score: r.int(4, 10) }, { utilization: 100, score: r.int(0, 10) }] } },
  ]);
  const pluginConfig: Obj[] = [{ name: 'NodeResourcesFit', args: { scoringStrategy: strategy } }];
  if (r.chance(0.4)) pluginConfig.push({ name: 'NodeResourcesBalancedAllocation', args: { resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }, ...(r.chance(0.5) ? [{ name: 'example.com/gpu', weight: 1 }] : [])] } });
  if (r.chance(0.4)) {
    pluginConfig.push({
      name: 'PodTopologySpread',
      args: r.chance(0.5)
        ? { defaultingType: 'List', defaultConstraints: [{ maxSkew: r.int(1, 3), topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' }] }
        : { defaultingType: 'System' },
    });
  }
  if (r.chance(0.4)) pluginConfig.push({ name: 'InterPodAffinity', args: { hardPodAffinityWeight: r.int(0, 100), ignorePreferredTermsOfExistingPods: r.chance(0.5) } });
  const score: Obj = {
    enabled: r.some([
      { name: 'NodeResourcesFit', weight: r.int(1, 5) },
      { name: 'ImageLocality', weight: r.int(1, 5) },
      { name: 'TaintToleration', weight: r.int(1, 5) },
      { name: 'InterPodAffinity', weight: r.int(1, 5) },
      { name: 'PodTopologySpread', weight: r.int(1, 5) },
      { name: 'NodeAffinity', weight: r.int(1, 5) },
    ], r.int(0, 3)),
  };
  if (r.chance(0.3)) score.disabled = r.some([{ name: 'NodeResourcesBalancedAllocation' }, { name: 'ImageLocality' }, { name: 'TaintToleration' }], 1);
  return configWith({ plugins: { ...noPreemption.plugins, score }, pluginConfig }, r.chance(0.2) ? { percentageOfNodesToScore: r.pick([0, 50, 100]) } : {});
}

function preemption(b: Builder): Obj {
  const r = b.r;
  b.preemption = true;
  b.priorityClasses();
  b.addNodes(r.int(4, 14), { taints: true, unschedulable: true, images: false, smallPodCount: true });
  // Nodes mostly full of lower-priority pods, so the pending ones often have to preempt.
  b.existingLoad([2, 7], { priorities: true, ports: true, heavy: 0.5 });
  if (r.chance(0.5)) {
    const app = r.pick(apps);
    const allowed = r.int(0, 2);
    b.objects.push({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: `${app}-pdb`, namespace: 'default' },
      spec: { selector: { matchLabels: { app } }, minAvailable: 1 },
      status: { observedGeneration: 1, disruptionsAllowed: allowed, currentHealthy: allowed + 1, desiredHealthy: 1, expectedPods: allowed + 1 } });
  }
  for (let i = 0, n = r.int(3, 10); i < n; i++) {
    const p = b.pod(r.pick(apps), { heavy: r.chance(0.6), priorityClass: r.pick(['high', 'urgent', 'critical', 'nonpreempting', 'standard', 'low']) });
    if (r.chance(0.2)) b.nodeAffinity(p);
    if (r.chance(0.15)) b.tolerations(p);
    if (r.chance(0.1)) b.hostPort(p);
    b.pending.push(p);
  }
  return configWith({});
}

/**
 * Preemption timelines through the binding cycle: low-priority pods with unbound
 * WaitForFirstConsumer claims stay in VolumeBinding's PreBind (no PV controller runs; with
 * NominatedNodeNameForExpectation their node is written as nominated first), and then
 * pods that have to preempt the existing load (not the pods in PreBind: see below).
 */
function preemptionPreBind(b: Builder): Obj {
  const r = b.r;
  b.preemption = true;
  b.priorityClasses();
  b.addNodes(r.int(2, 5), { taints: false, unschedulable: false, images: false, smallPodCount: true });
  b.existingLoad([0, 3], { priorities: true, ports: false, heavy: 0.5 });
  b.objects.push({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard' }, provisioner: ebs, volumeBindingMode: 'WaitForFirstConsumer' });
  for (let i = 0, n = r.int(1, 4); i < n; i++) {
    // Above every preemptor: cancelling such a victim's binding can make upstream's queue pop
    // another waiting pod before the next pending one, which the harness refuses (README.md).
    const p = b.pod(r.pick(apps), { namespace: 'default', heavy: r.chance(0.7), priorityClass: 'critical' });
    const claim = `data-${i}`;
    b.objects.push({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: claim, namespace: 'default' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' } });
    (p.spec as Obj).volumes = [{ name: 'data', persistentVolumeClaim: { claimName: claim } }];
    b.pending.push(p);
  }
  for (let i = 0, n = r.int(1, 4); i < n; i++) {
    b.pending.push(b.pod(r.pick(apps), { heavy: r.chance(0.8), priorityClass: r.pick(['high', 'urgent']) }));
  }
  return configWith({});
}

/** Bound and unbound claims, WaitForFirstConsumer, zonal and local volumes, CSI limits and drivers. */
function volumes(b: Builder): Obj {
  const r = b.r;
  b.addNodes(r.int(4, 16), { taints: false, unschedulable: true, images: false, smallPodCount: false });
  const nodes = b.nodeNames();
  b.objects.push(
    { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard' }, provisioner: ebs, volumeBindingMode: 'WaitForFirstConsumer' },
    { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'zonal-immediate' }, provisioner: gce, volumeBindingMode: 'Immediate' },
    { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'local' }, provisioner: 'kubernetes.io/no-provisioner', volumeBindingMode: 'WaitForFirstConsumer' },
    // VolumeLimitScaling: with preventPodSchedulingIfMissing a node without the driver in its CSINode rejects the pod.
    { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: ebs }, spec: { attachRequired: true, ...(r.chance(0.3) ? { preventPodSchedulingIfMissing: true } : {}) } },
  );
  for (const n of nodes) {
    if (r.chance(0.8)) {
      b.objects.push({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: n },
        spec: { drivers: [{ name: ebs, nodeID: `i-${n}`, topologyKeys: ['topology.kubernetes.io/zone'], allocatable: { count: r.int(1, 4) } }] } });
    }
  }
  let volSeq = 0;
  const claim = (ns: string, o: { bound: boolean; className: string; mode?: string }): string => {
    const name = `data-${(volSeq++).toString(36)}`;
    const pvName = `pv-${name}-${ns}`;
    const mode = o.mode ?? (r.chance(0.15) ? 'ReadWriteOncePod' : 'ReadWriteOnce');
    const pvc: Obj = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: ns },
      spec: { accessModes: [mode], resources: { requests: { storage: `${r.pick([1, 5, 10])}Gi` } }, storageClassName: o.className } };
    if (o.bound) {
      const zone = r.pick([...new Set(b.nodeZones.values())]);
      const pv: Obj = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: pvName, labels: { 'topology.kubernetes.io/zone': zone } },
        spec: { capacity: { storage: '10Gi' }, accessModes: [mode], storageClassName: o.className, persistentVolumeReclaimPolicy: 'Delete',
          claimRef: { kind: 'PersistentVolumeClaim', namespace: ns, name },
          csi: { driver: ebs, volumeHandle: `vol-${pvName}` },
          nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }] }] } } },
        status: { phase: 'Bound' } };
      // As the PV controller leaves a claim it has bound; without bind-completed upstream treats
      // the claim as pre-bound and waits for the controller.
      (pvc.metadata as Obj).annotations = { 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' };
      (pvc.spec as Obj).volumeName = pvName;
      pvc.status = { phase: 'Bound', accessModes: [mode], capacity: { storage: '10Gi' } };
      b.objects.push(pv);
    }
    b.objects.push(pvc);
    return name;
  };
  // Local volumes waiting for a consumer, each usable on one node.
  for (let i = 0, n = r.int(0, 4); i < n; i++) {
    const node = r.pick(nodes);
    b.objects.push({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: `local-${i}` },
      spec: { capacity: { storage: `${r.pick([5, 10, 20])}Gi` }, accessModes: ['ReadWriteOnce'], storageClassName: 'local', persistentVolumeReclaimPolicy: 'Retain',
        local: { path: `/mnt/disk${i}` },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } } },
      status: { phase: 'Available' } });
  }
  const withVolumes = (p: Obj, claims: string[]): void => {
    (p.spec as Obj).volumes = claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } }));
  };
  // Existing pods using bound claims count against the nodes' CSI limits.
  for (const n of nodes) {
    for (let i = 0, k = r.int(0, 2); i < k; i++) {
      const p = b.pod(r.pick(apps), { namespace: 'default' });
      withVolumes(p, [claim('default', { bound: true, className: 'standard', mode: 'ReadWriteOnce' })]);
      b.bind(p, n);
    }
  }
  const shared = claim('default', { bound: true, className: 'standard', mode: r.chance(0.5) ? 'ReadWriteOncePod' : 'ReadWriteOnce' });
  for (let i = 0, n = r.int(3, 10); i < n; i++) {
    const p = b.pod(r.pick(apps), { namespace: 'default' });
    const kind = r.float();
    const claims: string[] = [];
    if (kind < 0.3) claims.push(claim('default', { bound: true, className: 'standard' }));
    else if (kind < 0.55) claims.push(claim('default', { bound: false, className: 'standard' }));
    else if (kind < 0.7) claims.push(claim('default', { bound: false, className: 'local', mode: 'ReadWriteOnce' }));
    else if (kind < 0.8) claims.push(shared);
    else claims.push(claim('default', { bound: true, className: 'standard' }), claim('default', { bound: r.chance(0.5), className: 'standard' }));
    if (r.chance(0.2)) claims.push(`missing-${i}`);
    withVolumes(p, claims);
    if (r.chance(0.2)) b.nodeAffinity(p);
    b.pending.push(p);
  }
  return configWith(noPreemption);
}

/** Resource claims (DRA): slices, classes, claims and templates in generator_dra.ts. */
function dra(b: Builder): Obj {
  b.addNodes(b.r.int(4, 16), { taints: false, unschedulable: true, images: false, smallPodCount: false });
  b.existingLoad([0, 2]);
  return configWith(draFamily(b));
}

/**
 * Opportunistic batching (KEP-5598) at work: PodTopologySpread without default constraints (so
 * every default plugin signs a pod), and runs of identical pods, light ones that share a node and
 * heavy ones that fill it, sometimes broken by another pod, under varied scoring strategies.
 */
function batching(b: Builder): Obj {
  const r = b.r;
  b.addNodes(r.int(4, 20), { taints: true, unschedulable: true, images: true, smallPodCount: true });
  b.existingLoad([0, 3], { ports: true });
  const templates: Obj[] = [];
  for (let i = 0, n = r.int(1, 3); i < n; i++) {
    const t = b.pod(r.pick(apps), { heavy: r.chance(0.5) });
    if (r.chance(0.3)) b.tolerations(t);
    if (r.chance(0.25)) b.nodeAffinity(t);
    if (r.chance(0.1)) b.hostPort(t);
    templates.push(t);
  }
  for (let run = 0, runs = r.int(1, 4); run < runs; run++) {
    const t = r.pick(templates);
    for (let k = 0, n = r.int(2, 8); k < n; k++) {
      const p = structuredClone(t);
      (p.metadata as Obj).name = `${((t.metadata as Obj).name as string)}-${run}-${k}`;
      b.pending.push(p);
    }
    // Another pod in between: its own signature, or none (a spread constraint signs no pod).
    if (r.chance(0.3)) {
      const other = b.pod(r.pick(apps));
      if (r.chance(0.5)) b.spread(other);
      b.pending.push(other);
    }
  }
  const strategy = r.pick(['LeastAllocated', 'MostAllocated']);
  const pluginConfig: Obj[] = [
    { name: 'PodTopologySpread', args: { defaultingType: 'List' } },
    { name: 'NodeResourcesFit', args: { scoringStrategy: { type: strategy, resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } } },
  ];
  if (r.chance(0.3)) pluginConfig.push({ name: 'InterPodAffinity', args: { ignorePreferredTermsOfExistingPods: r.chance(0.5) } });
  return configWith({ ...noPreemption, pluginConfig });
}

/** Pod groups among single pods (GenericWorkload), in generator_workload.ts. */
function workload(b: Builder, topology = false, sharedClaims = false, composites = false): Obj {
  b.addNodes(b.r.int(3, 12), { taints: false, unschedulable: false, images: false, smallPodCount: false });
  // Half the scenarios have priorities: lower-priority pods and groups the groups may preempt.
  const priorities = b.r.chance(0.5);
  if (priorities) b.priorityClasses();
  b.existingLoad([0, 3], { priorities });
  workloadFamily(b, topology, priorities, sharedClaims, composites);
  return configWith(b.r.chance(0.2) ? noPreemption : {});
}

const builders: Record<Family, (b: Builder) => Obj> = {
  'node-local': nodeLocal,
  'topology-spread': topologySpread,
  'inter-pod-affinity': interPodAffinity,
  mixed,
  scoring,
  preemption,
  'preemption-prebind': preemptionPreBind,
  volumes,
  dra,
  batching,
  workload,
};

/** What a family may add beyond its defaults. */
export interface GenerateOptions {
  /** Pod groups with topology constraints (TopologyAwareWorkloadScheduling on). */
  readonly topology?: boolean;
  /** Pod groups sharing a claim (DRAWorkloadResourceClaims on). */
  readonly sharedClaims?: boolean;
  /** Trees of CompositePodGroups over pod groups (CompositePodGroup on). */
  readonly composites?: boolean;
}

/** The index-th scenario of a seed, of one family; the same arguments give the same scenario. */
export function generateScenario(seed: number, index: number, family: Family, opts: GenerateOptions = {}): GeneratedScenario {
  const scenarioSeed = (Math.imul(seed, 1_000_003) + index * 7919 + families.indexOf(family)) >>> 0;
  const b = new Builder(scenarioSeed);
  b.namespaces();
  const config = family === 'workload' ? workload(b, opts.topology ?? false, opts.sharedClaims ?? false, opts.composites ?? false) : builders[family](b);
  return b.scenario(`gen-${seed}-${String(index).padStart(4, '0')}`, family, seed, index, config);
}
