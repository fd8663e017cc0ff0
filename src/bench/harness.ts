// Runs one benchmark workload against the embedded cluster and scheduler, op by op, as upstream's
// WorkloadExecutor does (test/integration/scheduler_perf/executor.go, operations.go, create.go).
// Everything runs on one thread: the scheduler's loop runs in real time, as in `run`, and the ops
// play the API server clients (creations, churn, deletions) in between, measuring on the wall clock.
import type { FeatureGates } from '../config/feature_gates.js';
import { clusterGates } from '../sim/scenario/embedded.js';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuUsage } from 'node:process';
import { CelCache } from '../api/cel/cache.js';
import { configFromObject } from '../config/index.js';
import type { DeviceClass, ResourceClaim, ResourceSlice } from '../api/dra_types.js';
import type { CSINode, KubeObject, Node, ObjectMeta, PersistentVolume, PersistentVolumeClaim, Pod } from '../api/types.js';
import { admitPod } from '../cluster/memory/admission.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { shallowCopy } from '../util/shallow_copy.js';
import type { WatchEvent } from '../cluster/types.js';
import { Registry } from '../framework/registry.js';
import { NodeDeclaredFeatures as NodeDeclaredFeaturesName } from '../framework/names.js';
import { FeatureRegistry, nodeDeclaredFeaturesWith } from '../plugins/nodedeclaredfeatures/index.js';
import { allocatorFeatures } from '../plugins/dynamicresources/index.js';
import { addAllocation, Allocator, DefaultFeatures, newAllocatedState, type AllocatedState } from '../dra/structured/index.js';
import { Scheduler, type ResolvedConfig } from '../scheduler/scheduler.js';
import { rowPassWorkers } from '../scheduler/parallel/row_pass_pool.js';
import { RealClock, seededRandom } from '../util/clock.js';
import { DurationRecorder, MemorySampler, ThroughputCollector, type AttemptSummary, type ThroughputSummary } from './metrics.js';
import type { TemplateContext } from './dra_templates.js';
import { template } from './templates.js';
import type { AllocResourceClaimsOp, BarrierOp, ChurnOp, Counted, CreateAnyOp, CreateNamespacesOp, CreateNodesOp, CreatePodGroupsOp, CreatePodsOp, DeletePodsOp, Op, StartCollectingMetricsOp, TemplateParam, TestCase, UpdateAnyOp, Workload, WorkloadParam } from './types.js';

export interface HarnessOptions {
  registry: Registry;
  config: ResolvedConfig;
  /** Plugins named by the profile that are not built: the scheduler runs without them. */
  notYetAvailable?: ReadonlySet<string>;
  /** --feature-gates; the pinned release's defaults when absent. */
  featureGates?: FeatureGates;
  seed?: number;
  /** Longest wait for one op's pods (ms); upstream waits 10 minutes. */
  opTimeoutMs?: number;
  /** Write a V8 CPU profile of the measured op to `<dir>/<file>` (open it in Chrome DevTools). */
  cpuProfile?: { dir: string; file: string };
  /** Worker threads for long Filter walks (SchedulerDeps.rowPass); none when absent. */
  rowWorkers?: number;
}

/** What one measured createPods op yields. */
export interface Measurement {
  throughput: ThroughputSummary;
  attempts: AttemptSummary;
  measuredPods: number;
  seconds: number;
  /** CPU time the process used during the op (user + system, all threads). */
  cpuSeconds: number;
  peakRssBytes: number;
  peakHeapUsedBytes: number;
}

export interface WorkloadRun {
  nodes: number;
  initPods: number;
  measurement: Measurement | null;
}

class BenchError extends Error {
  override name = 'BenchError';
}

interface BackgroundTask {
  nextAt: number;
  readonly intervalMs: number;
  /** Runs one tick; false when the task is done. */
  tick(): boolean;
}

interface ActiveMeasurement {
  /** Whether a pod's binding counts (its namespace, and labels for a metrics window). */
  readonly counts: (pod: Pod) => boolean;
  /** Pods counted that got bound since the measurement began. */
  bound: number;
  readonly collector: ThroughputCollector;
  readonly attempts: DurationRecorder;
  readonly memory: MemorySampler;
  readonly startedAt: number;
  readonly cpuAtStart: NodeJS.CpuUsage;
}

/** How often a waiting op looks at the clock: background ops, throughput windows, a stalled queue. */
const checkEveryMs = 5;

export class WorkloadExecutor {
  private readonly cluster: MemoryCluster;
  private readonly scheduler: Scheduler;
  /** Pods currently bound, by namespace (what upstream's pod informer lists). */
  private readonly scheduledPerNamespace = new Map<string, number>();
  /** Pods ever bound, by namespace: what throughput counts (a steady-state op deletes bound pods). */
  private readonly boundTotalPerNamespace = new Map<string, number>();
  /** The namespace of a running steady-state op, and its pods bound since it last replaced them. */
  private steady: { namespace: string; bound: Pod[] } | null = null;
  /** Pods created without waiting, by namespace, for a later barrier. */
  private expectedPerNamespace = new Map<string, number>();
  private readonly namespaces = new Set<string>();
  private readonly background: BackgroundTask[] = [];
  private measuring: ActiveMeasurement | null = null;
  private measurement: Measurement | null = null;
  private nameSeq = 0;
  /** The ops' own random source (allocResourceClaims' node order), apart from the scheduler's. */
  private readonly random: () => number;
  private nodeCount = 0;
  /** Mock features every node declares, and the plugin's registry holds, when the test case mocks them. */
  private readonly declaredFeatures: readonly string[] | null;
  private initPodCount = 0;
  private profiler: Session | null = null;
  /** What the waiting op waits for, checked whenever a pod is bound or unbound. */
  private awaited: (() => boolean) | null = null;
  private wakeOp: (() => void) | null = null;

  private constructor(
    private readonly tc: TestCase,
    private readonly params: Record<string, WorkloadParam>,
    private readonly opts: HarnessOptions,
  ) {
    const clock = new RealClock();
    this.random = seededRandom((opts.seed ?? 1) + 1);
    // The embedded API server and controllers read the run's gates, as in simulate.
    // No API server serves this store, so no watch can resume from its history, and nothing reads
    // the events it records: it keeps neither.
    this.cluster = new MemoryCluster({ clock, admitPod, gates: clusterGates(opts.featureGates), watchHistorySize: 0, recordedEventsLimit: 0 });
    // An extender in --config is called as in any run (its latency counts in the figures).
    const config = tc.schedulerConfig ? configFromObject(tc.schedulerConfig, `${tc.name}'s scheduler configuration`, opts.registry) : opts.config;
    this.declaredFeatures = this.mockDeclaredFeatures();
    this.scheduler = Scheduler.fromConfig(config, {
      registry: this.declaredFeatures ? withFeatureRegistry(opts.registry, this.declaredFeatures) : opts.registry,
      client: this.cluster,
      clock,
      random: seededRandom(opts.seed ?? 1),
      notYetAvailable: opts.notYetAvailable,
      featureGates: opts.featureGates,
      // Attempt durations as upstream reads them: from the scheduling cycle through the binding.
      onAttempt: (a) => this.measuring?.attempts.add(a.durationSeconds),
      rowPass: rowPassWorkers(opts.rowWorkers),
    });
  }

  /** Runs every op of the workload; resolves with the measured op's figures. */
  static async run(tc: TestCase, w: Workload, opts: HarnessOptions): Promise<WorkloadRun> {
    const e = new WorkloadExecutor(tc, w.params, opts);
    await e.cluster.start((ev) => e.observe(ev));
    await e.scheduler.start();
    e.scheduler.loop.start();
    try {
      const ops = e.unrolled();
      for (let i = 0; i < ops.length; i++) await e.runOp(ops[i]!, i);
    } finally {
      e.background.length = 0;
      await e.scheduler.loop.stop();
      await e.scheduler.waitForBindings();
      e.scheduler.stop();
    }
    return { nodes: e.nodeCount, initPods: e.initPodCount, measurement: e.measurement };
  }

  /** Feature1..FeatureN, sorted as the node status lists them, N the test case's parameter. */
  private mockDeclaredFeatures(): string[] | null {
    const param = this.tc.mockDeclaredFeaturesParam;
    if (param === undefined) return null;
    const n = this.params[param.slice(1)];
    if (typeof n !== 'number') throw new BenchError(`${this.tc.name}: parameter ${param} is not a number`);
    return Array.from({ length: n }, (_, i) => `Feature${i + 1}`).sort();
  }

  /** The workload's ops with each createPodSets replaced by its createPods ops (upstream's unrollWorkloadTemplate). */
  private unrolled(): Op[] {
    return this.tc.workloadTemplate.flatMap((op): Op[] => {
      if (op.opcode !== 'createPodSets') return [op];
      return Array.from({ length: this.count(op, 'createPodSets') }, (_, i) => ({ ...op.createPodsOp, namespace: `${op.namespacePrefix}-${i}` }));
    });
  }

  // ---- the informer side: count bound pods per namespace ----

  private observe(ev: WatchEvent): void {
    if (ev.kind !== 'Pod') return;
    const pod = ev.object as Pod;
    const ns = pod.metadata.namespace ?? 'default';
    const wasBound = !!(ev.oldObject as Pod | undefined)?.spec.nodeName;
    const bound = !!pod.spec.nodeName;
    let delta = 0;
    if (ev.type === 'DELETED') delta = wasBound ? -1 : 0;
    else if (bound && !wasBound) delta = 1;
    if (delta === 0) return;
    this.scheduledPerNamespace.set(ns, (this.scheduledPerNamespace.get(ns) ?? 0) + delta);
    if (delta > 0) {
      this.boundTotalPerNamespace.set(ns, (this.boundTotalPerNamespace.get(ns) ?? 0) + 1);
      if (this.measuring?.counts(pod)) this.measuring.bound++;
      if (this.steady?.namespace === ns) {
        this.steady.bound.push(pod);
        this.wakeOp?.();
        return;
      }
    }
    if (this.awaited?.()) this.wakeOp?.();
  }

  private scheduledIn(ns: string): number {
    return this.scheduledPerNamespace.get(ns) ?? 0;
  }

  private boundTotalIn(ns: string): number {
    return this.boundTotalPerNamespace.get(ns) ?? 0;
  }

  // ---- ops ----

  private count(op: Counted, what: string): number {
    if (op.countParam !== undefined) {
      const v = this.params[op.countParam.slice(1)];
      if (typeof v !== 'number') throw new BenchError(`${this.tc.name}: ${what}: parameter ${op.countParam} is ${v === undefined ? 'not set' : 'not a number'}`);
      return v;
    }
    return op.count ?? 1;
  }

  /** A template parameter's value: `$name|default` takes the workload's parameter, else the default. */
  private templateParam(p: TemplateParam): WorkloadParam | undefined {
    if (typeof p !== 'string' || !p.startsWith('$')) return p;
    const [name, fallback] = p.slice(1).split('|', 2) as [string, string | undefined];
    const v = this.params[name];
    if (v !== undefined) return v;
    if (fallback === undefined || fallback === '') return undefined;
    return Number.isNaN(Number(fallback)) ? fallback : Number(fallback);
  }

  private async runOp(op: Op, index: number): Promise<void> {
    switch (op.opcode) {
      case 'createNodes': return this.createNodes(op, index);
      case 'createNamespaces': return this.createNamespaces(op);
      case 'createPodSets': throw new BenchError(`${this.tc.name}: createPodSets is unrolled before the run`);
      case 'createPods': return this.createPods(op, index);
      case 'createPodGroups': return this.createPodGroups(op);
      case 'createAny': return this.createAny(op);
      case 'allocResourceClaims': return this.allocResourceClaims(op);
      case 'churn': return this.churn(op, index);
      case 'barrier': return this.barrier(op);
      case 'sleep': return this.drive(() => false, 'sleep', performance.now() + op.durationMs);
      case 'deletePods': return this.deletePods(op);
      case 'startCollectingMetrics': return this.startCollectingMetrics(op);
      case 'stopCollectingMetrics': return this.stopCollectingMetrics();
      case 'updateAny': return this.updateAny(op);
    }
  }

  private generatedName(obj: KubeObject): string {
    const meta = obj.metadata ?? {};
    if (meta.name) return meta.name;
    return `${meta.generateName ?? 'obj-'}${this.nameSeq++}`;
  }

  private instantiate<T extends KubeObject>(path: string, namespace?: string, ctx?: TemplateContext): T {
    const t = template(path, ctx);
    // Copied key by key without generateName: a spread given a new key and a delete would each
    // give every pod's metadata a hidden class of its own (util/shallow_copy.ts).
    const metadata: Record<string, unknown> = {};
    const src = (t.metadata ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(src)) if (k !== 'generateName') metadata[k] = src[k];
    metadata.name = this.generatedName(t);
    if (namespace !== undefined) metadata.namespace = namespace;
    return { ...t, metadata: metadata as ObjectMeta } as T;
  }

  private ensureNamespace(name: string, templatePath?: string): void {
    if (this.namespaces.has(name)) return;
    this.namespaces.add(name);
    const labels = templatePath !== undefined ? template(templatePath).metadata?.labels : undefined;
    this.cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: labels ? { name, labels: { ...labels } } : { name } });
  }

  private createNodes(op: CreateNodesOp, _index: number): void {
    const n = this.count(op, 'createNodes');
    const labels = op.labelNodePrepareStrategy;
    const allocatable = op.nodeAllocatableStrategy;
    for (let i = 0; i < n; i++) {
      const node = this.instantiate<Node>(op.nodeTemplatePath ?? 'node-default.yaml', undefined, { index: i, params: this.params });
      if (labels) node.metadata.labels = { ...node.metadata.labels, [labels.labelKey]: labels.labelValues[i % labels.labelValues.length]! };
      if (this.declaredFeatures) node.status = { ...node.status, declaredFeatures: [...this.declaredFeatures] };
      // nodeAllocatable is not applied: upstream's strategy patches it onto the Node itself
      // (scheduler_perf/runners.go PreparePatch, a merge patch of the whole object), and the API
      // server keeps the old status on any such update (registry/core/node/strategy.go
      // PrepareForUpdate), so in scheduler_perf it never reaches the node. Its CSINode does.
      this.cluster.create(node);
      if (allocatable) this.cluster.create(csiNodeFor(node.metadata.name!, allocatable));
    }
    this.nodeCount += n;
  }

  private createNamespaces(op: CreateNamespacesOp): void {
    const n = this.count(op, 'createNamespaces');
    for (let i = 0; i < n; i++) this.ensureNamespace(`${op.prefix}-${i}`, op.namespaceTemplatePath);
  }

  private createAny(op: CreateAnyOp): void {
    if (op.namespace) this.ensureNamespace(op.namespace);
    const n = this.count(op, 'createAny');
    const params = this.resolvedParams(op.templateParams);
    for (let i = 0; i < n; i++) this.cluster.create(this.instantiate(op.templatePath, op.namespace, { index: i, params }));
  }

  /** An op's template parameters resolved against the workload's. */
  private resolvedParams(templateParams: Record<string, TemplateParam> | undefined): Record<string, WorkloadParam | undefined> {
    const params: Record<string, WorkloadParam | undefined> = {};
    for (const [k, v] of Object.entries(templateParams ?? {})) params[k] = this.templateParam(v);
    return params;
  }

  /** The scheduler's informers see the groups at once here: the embedded cluster delivers synchronously. */
  private createPodGroups(op: CreatePodGroupsOp): void {
    this.ensureNamespace(op.namespace);
    const n = this.count(op, 'createPodGroups');
    const params = { ...this.params, ...this.resolvedParams(op.templateParams) };
    for (let i = 0; i < n; i++) this.cluster.create(this.instantiate(op.templatePath, op.namespace, { index: i, params }));
  }

  /**
   * Each unallocated claim of the namespace in turn, on the first node in a seeded random order
   * that can hold it, the allocation written at once so the next claim sees it (upstream's
   * allocResourceClaims, which shuffles the nodes with math/rand).
   */
  private async allocResourceClaims(op: AllocResourceClaimsOp): Promise<void> {
    const claims = this.cluster.list<ResourceClaim>('ResourceClaim').filter((c) => c.metadata.namespace === op.namespace && !c.status?.allocation);
    if (claims.length === 0) return;
    const nodes = this.cluster.list<Node>('Node');
    const slices = this.cluster.list<ResourceSlice>('ResourceSlice');
    const classLister = (name: string) => this.cluster.get<DeviceClass>('DeviceClass', '', name);
    // The run's DRA gates, as upstream's op takes the allocator features from its feature gate.
    const features = allocatorFeatures(this.scheduler.features);
    const celCache = new CelCache(10, { consumableCapacity: features.consumableCapacity, listTypeAttributes: features.listTypeAttributes });
    claims: for (const [i, claim] of claims.entries()) {
      const allocator = new Allocator({ features, allocatedState: this.allocatedState(), classLister, slices, celCache });
      shuffle(nodes, this.random);
      for (const node of nodes) {
        const result = allocator.allocate(node, [claim]);
        if (!result) continue;
        const status: NonNullable<ResourceClaim['status']> = shallowCopy(claim.status ?? {});
        status.allocation = result[0];
        await this.cluster.updateResourceClaimStatus({ ...claim, status });
        continue claims;
      }
      throw new BenchError(`${this.tc.name}: allocResourceClaims: could not allocate claim ${i} of ${claims.length} in ${op.namespace}`);
    }
  }

  /** What the cluster's claims hold (upstream's op gathers it from every allocated claim the same way). */
  private allocatedState(): AllocatedState {
    const state = newAllocatedState();
    for (const c of this.cluster.list<ResourceClaim>('ResourceClaim')) addAllocation(state, c.status?.allocation, DefaultFeatures.consumableCapacity);
    return state;
  }

  private async createPods(op: CreatePodsOp, index: number): Promise<void> {
    const ns = op.namespace ?? `namespace-${index}`;
    this.ensureNamespace(ns);
    // Without either, upstream's makeBasePod: the same pause pod as pod-default.yaml.
    const templatePath = op.podTemplatePath ?? this.tc.defaultPodTemplatePath;
    const path = templatePath ?? 'pod-default.yaml';
    const n = this.count(op, 'createPods') * (op.countMultiplierParam ? this.count({ countParam: op.countMultiplierParam }, 'createPods countMultiplier') : 1);
    const podParams = op.templateParams ? { ...this.params, ...this.resolvedParams(op.templateParams) } : this.params;
    const batch = op.signatureBatchSizeParam ? this.count({ countParam: op.signatureBatchSizeParam }, 'createPods signatureBatchSize') : 1;
    const newPod = (i: number): Pod => {
      const pod = this.instantiate<Pod>(path, ns, { index: i, count: n, params: podParams });
      // As upstream, only pods made from a template file carry the signature label.
      if (templatePath !== undefined) {
        const labels = shallowCopy(pod.metadata.labels ?? {});
        labels.signature = `signature-label-${Math.floor(i / batch)}`;
        pod.metadata.labels = labels;
      }
      return pod;
    };
    const steadyFor = this.steadyStateSeconds(op);
    if (op.collectMetrics) {
      await this.startMeasurement((pod) => pod.metadata.namespace === ns);
    } else if (!this.measuring) {
      // Pods made inside a metrics window are measured, not initial.
      this.initPodCount += n;
    }
    const volumes = op.persistentVolumeTemplatePath && op.persistentVolumeClaimTemplatePath
      ? { pv: op.persistentVolumeTemplatePath, pvc: op.persistentVolumeClaimTemplatePath }
      : null;
    for (let i = 0; i < n; i++) {
      const pod = newPod(i);
      if (volumes) this.createBoundVolume(volumes.pv, volumes.pvc, ns, i, pod);
      this.cluster.create(pod);
    }
    const boundBefore = this.boundTotalIn(ns);
    if (steadyFor !== null) {
      await this.keepSteady(ns, newPod, n, steadyFor);
    } else if (op.skipWaitToCompletion) {
      this.expectedPerNamespace.set(ns, (this.expectedPerNamespace.get(ns) ?? 0) + n);
    } else {
      // As upstream: done when the namespace holds at least n scheduled pods.
      await this.drive(() => this.scheduledIn(ns) >= n, `${n} pods in namespace ${ns}`);
    }
    if (op.collectMetrics) {
      // The last pods' attempts end with their binding cycles, just after the bind that ended the wait.
      await this.scheduler.waitForBindings();
      this.finishMeasurement(steadyFor === null ? n : this.boundTotalIn(ns) - boundBefore);
      await this.stopProfile();
    }
  }

  /** Begins the one measurement of the workload, counting the bindings of the pods `counts` accepts. */
  private async startMeasurement(counts: (pod: Pod) => boolean): Promise<void> {
    if (this.measuring || this.measurement) throw new BenchError(`${this.tc.name}: only one op may collect metrics`);
    await this.startProfile();
    const now = performance.now();
    const memory = new MemorySampler();
    memory.sample();
    this.measuring = { counts, bound: 0, collector: new ThroughputCollector(now, 0), attempts: new DurationRecorder(), memory, startedAt: now, cpuAtStart: cpuUsage() };
  }

  private async startCollectingMetrics(op: StartCollectingMetricsOp): Promise<void> {
    if (op.namespaces.length === 0) throw new BenchError(`${this.tc.name}: startCollectingMetrics: namespaces cannot be empty`);
    for (const ns of op.namespaces) this.ensureNamespace(ns);
    const namespaces = new Set(op.namespaces);
    const selector = op.labelSelector ?? {};
    await this.startMeasurement((pod) => namespaces.has(pod.metadata.namespace ?? 'default') && matchesLabels(pod, selector));
  }

  private async stopCollectingMetrics(): Promise<void> {
    const m = this.measuring;
    if (!m) throw new BenchError(`${this.tc.name}: stopCollectingMetrics without startCollectingMetrics`);
    await this.scheduler.waitForBindings();
    this.finishMeasurement(m.bound);
    await this.stopProfile();
  }

  /**
   * Replaces existing objects by the template's, as upstream's updateAny (an update, then a status
   * update; the resize subresource changes only a pod's container resources). The store keeps
   * what the API server keeps of an update: identity, and a pod's binding.
   */
  private async updateAny(op: UpdateAnyOp): Promise<void> {
    if (op.namespace) this.ensureNamespace(op.namespace);
    const count = this.count(op, 'updateAny');
    const resize = op.subresources?.includes('resize') ?? false;
    const update = (index: number): void => {
      const obj = template(op.templatePath, { index, count, params: this.params });
      const name = obj.metadata?.name;
      const kind = obj.kind ?? '';
      const current = name === undefined ? undefined : this.cluster.get<KubeObject>(kind, op.namespace ?? '', name);
      if (!current) throw new BenchError(`${this.tc.name}: updateAny: ${kind} ${op.namespace ? `${op.namespace}/` : ''}${name ?? '(no name)'} does not exist`);
      this.cluster.update(updatedObject(current, obj, resize));
    };
    // Upstream's op waits for its ticker through every update before the next op starts.
    await this.atRate(count, op.updatePerSecond ?? 0, update, true, `${count} updates from ${op.templatePath}`);
  }

  /**
   * Runs `act(0..count-1)`, all at once when `perSecond` is 0, else one per tick in the background
   * (waiting for the last when `wait`).
   */
  private async atRate(count: number, perSecond: number, act: (i: number) => void, wait: boolean, what: string): Promise<void> {
    if (perSecond <= 0) {
      for (let i = 0; i < count; i++) act(i);
      return;
    }
    let next = 0;
    const intervalMs = 1000 / perSecond;
    this.background.push({
      nextAt: performance.now() + intervalMs,
      intervalMs,
      tick: () => {
        if (next < count) act(next++);
        return next < count;
      },
    });
    if (wait) await this.drive(() => next >= count, what);
  }

  /** How long the op keeps a steady state, in seconds; null for an op that creates its pods once. */
  private steadyStateSeconds(op: CreatePodsOp): number | null {
    if (op.steadyStateParam === undefined || this.templateParam(op.steadyStateParam) !== true) return null;
    const d = op.durationParam === undefined ? undefined : this.templateParam(op.durationParam);
    const m = typeof d === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(d) : null;
    if (!m) throw new BenchError(`${this.tc.name}: a steady-state createPods op needs a duration such as 10s, got ${JSON.stringify(d)}`);
    return Number(m[1]) * { ms: 0.001, s: 1, m: 60 }[m[2] as 'ms' | 's' | 'm'];
  }

  /**
   * For `seconds`: every pod of `ns` that gets bound is deleted and another one created, so the
   * scheduler always has `n` pods to work on while the cluster stays as it started.
   */
  private async keepSteady(ns: string, newPod: (index: number) => Pod, n: number, seconds: number): Promise<void> {
    const steady = { namespace: ns, bound: [] as Pod[] };
    this.steady = steady;
    let next = n;
    try {
      await this.drive(() => false, `steady state in ${ns}`, performance.now() + seconds * 1000, () => {
        for (const pod of steady.bound.splice(0)) {
          this.cluster.remove('Pod', ns, pod.metadata.name!);
          this.cluster.create(newPod(next++));
        }
      });
    } finally {
      this.steady = null;
    }
  }

  /**
   * PVC `pvc-<i>` bound to PV `<ns>-vol-<i>` (AWS volume ID `vol-<i>`, CSI handle the PV's name),
   * mounted by `pod` (upstream's CreatePodWithPersistentVolume with bindVolume).
   */
  private createBoundVolume(pvPath: string, pvcPath: string, ns: string, i: number, pod: Pod): void {
    const claimName = `pvc-${i}`;
    const pvTemplate = template(pvPath) as PersistentVolume;
    const pvName = `${ns}-vol-${i}`;
    const spec = structuredClone(pvTemplate.spec ?? {});
    if (spec.csi) spec.csi.volumeHandle = pvName;
    else if (spec.awsElasticBlockStore) spec.awsElasticBlockStore.volumeID = `vol-${i}`;
    spec.claimRef = { kind: 'PersistentVolumeClaim', namespace: ns, name: claimName, apiVersion: 'v1' };
    const pvcTemplate = template(pvcPath) as PersistentVolumeClaim;
    // The claim first: the volume refers to it.
    // Copies given their new keys by assignment: spreads given new keys would make a hidden class
    // per object (util/shallow_copy.ts).
    const pvc = shallowCopy(pvcTemplate) as PersistentVolumeClaim;
    const pvcMeta = shallowCopy(pvcTemplate.metadata ?? {});
    pvcMeta.name = claimName;
    pvcMeta.namespace = ns;
    const pvcSpec = shallowCopy(pvcTemplate.spec ?? {});
    pvcSpec.volumeName = pvName;
    pvc.metadata = pvcMeta;
    pvc.spec = pvcSpec;
    (pvc as { status?: PersistentVolumeClaim['status'] }).status = { phase: 'Bound' };
    this.cluster.create(pvc);
    const pv = shallowCopy(pvTemplate) as PersistentVolume;
    pv.metadata = { name: pvName };
    pv.spec = spec;
    (pv as { status?: PersistentVolume['status'] }).status = { phase: 'Bound' };
    this.cluster.create(pv);
    const podSpec = shallowCopy(pod.spec);
    podSpec.volumes = [{ name: 'vol', persistentVolumeClaim: { claimName } }];
    pod.spec = podSpec;
  }

  private async startProfile(): Promise<void> {
    if (!this.opts.cpuProfile) return;
    this.profiler = new Session();
    this.profiler.connect();
    await this.profiler.post('Profiler.enable');
    // A finer sampling interval (µs) for short ops: BENCH_PROFILE_INTERVAL_US; V8's default is 1,000.
    const interval = Number(process.env['BENCH_PROFILE_INTERVAL_US']);
    if (interval > 0) await this.profiler.post('Profiler.setSamplingInterval', { interval });
    await this.profiler.post('Profiler.start');
  }

  private async stopProfile(): Promise<void> {
    const session = this.profiler;
    if (!session || !this.opts.cpuProfile) return;
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    this.profiler = null;
    writeFileSync(join(this.opts.cpuProfile.dir, this.opts.cpuProfile.file), JSON.stringify(profile));
  }

  private finishMeasurement(n: number): void {
    const m = this.measuring!;
    const now = performance.now();
    m.memory.sample();
    this.measurement = {
      throughput: m.collector.finish(now, m.bound),
      attempts: m.attempts.summary(),
      measuredPods: n,
      seconds: (now - m.startedAt) / 1000,
      cpuSeconds: cpuSecondsSince(m.cpuAtStart),
      peakRssBytes: m.memory.peakRssBytes,
      peakHeapUsedBytes: m.memory.peakHeapUsedBytes,
    };
    this.measuring = null;
  }

  private churn(op: ChurnOp, index: number): void {
    const ns = op.namespace ?? `namespace-${index}`;
    this.ensureNamespace(ns);
    const intervalMs = op.intervalMilliseconds ?? 500;
    const limit = op.number ?? 0;
    const paths = op.templatePaths;
    const create = (path: string): KubeObject => {
      const obj = this.instantiate(path, template(path).kind === 'Node' ? undefined : ns);
      return this.cluster.create(obj);
    };
    let ticks = 0;
    if (op.mode === 'create') {
      this.background.push({
        nextAt: performance.now() + intervalMs,
        intervalMs,
        tick: () => {
          for (const path of paths) create(path);
          ticks++;
          return limit === 0 || ticks < limit;
        },
      });
      return;
    }
    // recreate: each template has `number` slots; a tick fills an empty slot or empties a full one.
    const slots: (KubeObject | null)[][] = paths.map(() => new Array<KubeObject | null>(limit).fill(null));
    this.background.push({
      nextAt: performance.now() + intervalMs,
      intervalMs,
      tick: () => {
        const slot = ticks % limit;
        for (let i = 0; i < paths.length; i++) {
          const held = slots[i]![slot]!;
          if (held) {
            const meta = held.metadata!;
            this.cluster.remove(held.kind!, held.kind === 'Node' ? '' : (meta.namespace ?? ns), meta.name!);
            slots[i]![slot] = null;
          } else {
            slots[i]![slot] = create(paths[i]!);
          }
        }
        ticks++;
        return true;
      },
    });
  }

  private async barrier(op: BarrierOp): Promise<void> {
    if (op.stageRequirement === 'Attempted') {
      // Every pod created so far has been popped at least once (gated pods never enter activeQ).
      await this.drive(() => this.scheduler.queue.activeLength === 0 && this.scheduler.bindingsInFlight === 0, 'pods to be attempted');
      return;
    }
    const namespaces = op.namespaces?.length ? op.namespaces : [...this.expectedPerNamespace.keys()];
    const selector = op.labelSelector;
    // With a selector, only the namespace's bound pods that carry the labels count (upstream lists them).
    const scheduled = selector === undefined ? (ns: string) => this.scheduledIn(ns) : (ns: string) => this.boundMatching(ns, selector);
    await this.drive(() => namespaces.every((ns) => scheduled(ns) >= (this.expectedPerNamespace.get(ns) ?? 0)), `pods in ${namespaces.join(', ')}`);
    if (op.namespaces?.length) for (const ns of namespaces) this.expectedPerNamespace.delete(ns);
    else this.expectedPerNamespace = new Map();
  }

  private boundMatching(ns: string, selector: Readonly<Record<string, string>>): number {
    let n = 0;
    for (const pod of this.cluster.list<Pod>('Pod')) {
      if (pod.spec.nodeName && (pod.metadata.namespace ?? 'default') === ns && matchesLabels(pod, selector)) n++;
    }
    return n;
  }

  private async deletePods(op: DeletePodsOp): Promise<void> {
    const selector = op.labelSelector ?? {};
    const victims: Pod[] = [];
    for (const pod of this.cluster.list<Pod>('Pod')) {
      if ((pod.metadata.namespace ?? 'default') === op.namespace && matchesLabels(pod, selector)) victims.push(pod);
    }
    // As the API server: a pod held by a finalizer only gets its deletionTimestamp (the scheduler drops it then).
    const remove = (pod: Pod) => {
      if ((pod.metadata.finalizers ?? []).length === 0) return this.cluster.remove('Pod', op.namespace, pod.metadata.name!);
      const current = this.cluster.getPod(op.namespace, pod.metadata.name!);
      if (current && !current.metadata.deletionTimestamp) this.cluster.update({ ...current, metadata: { ...current.metadata, deletionTimestamp: new Date().toISOString() } });
      return true;
    };
    await this.atRate(victims.length, op.deletePodsPerSecond ?? 0, (i) => void remove(victims[i]!), !op.skipWaitToCompletion, `deletion of ${victims.length} pods`);
  }

  // ---- the loop ----

  private runBackground(now: number): void {
    for (let i = 0; i < this.background.length; i++) {
      const t = this.background[i]!;
      if (now < t.nextAt) continue;
      // As a Go ticker with a slow receiver: late ticks are dropped, not replayed.
      t.nextAt += t.intervalMs;
      if (t.nextAt <= now) t.nextAt = now + t.intervalMs;
      if (!t.tick()) this.background.splice(i--, 1);
    }
  }

  private nextBackgroundAt(): number {
    let at = Infinity;
    for (const t of this.background) if (t.nextAt < at) at = t.nextAt;
    return at;
  }

  /**
   * Waits, while the scheduler's loop schedules, until `done()` holds (checked at every binding),
   * running background ops when due, `onWake` whenever it wakes, and sampling the measured op's
   * figures. Throws when nothing can make progress any more, or after the op timeout.
   */
  private async drive(done: () => boolean, what: string, until = Infinity, onWake?: () => void): Promise<void> {
    const sched = this.scheduler;
    const started = performance.now();
    const deadline = started + (this.opts.opTimeoutMs ?? 10 * 60_000);
    this.awaited = done;
    let stalledBefore = false;
    try {
      for (;;) {
        onWake?.();
        const now = performance.now();
        this.runBackground(now);
        const m = this.measuring;
        if (m && m.collector.due(now)) {
          m.collector.sample(now, m.bound);
          m.memory.sample();
        }
        if (now >= until || done()) return;
        if (now > deadline) throw new BenchError(`${this.tc.name}: timed out after ${((now - started) / 1000).toFixed(0)}s waiting for ${what} (${this.describeQueue()})`);
        // Asleep with nothing in flight, nothing backing off and no op to come, twice in a row
        // (the cluster's controllers, such as the resourceclaim controller making a pod's claims,
        // act in between): no pod can move.
        const stalled = sched.loop.isIdle && sched.bindingsInFlight === 0 && sched.queue.nextBackoffExpiry() === undefined
          && this.background.length === 0 && until === Infinity;
        if (stalled && stalledBefore) {
          throw new BenchError(`${this.tc.name}: waiting for ${what}: no pod left to schedule (${this.describeQueue()})`);
        }
        stalledBefore = stalled;
        const wakeAt = Math.min(this.nextBackgroundAt(), until, now + checkEveryMs);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => this.wake(), Math.max(0, wakeAt - now));
          this.wakeOp = () => {
            clearTimeout(timer);
            this.wakeOp = null;
            resolve();
          };
        });
      }
    } finally {
      this.awaited = null;
    }
  }

  private wake(): void {
    this.wakeOp?.();
  }

  private describeQueue(): string {
    const c = this.scheduler.queue.pendingCounts();
    const ns = [...this.scheduledPerNamespace].map(([k, v]) => `${k}=${v}`).join(' ');
    return `queue: active ${c.active}, backoff ${c.backoff}, unschedulable ${c.unschedulable}, gated ${c.gated}; scheduled: ${ns || 'none'}`;
  }
}

/**
 * The registry with NodeDeclaredFeatures over mock features, each required by a pod with
 * pod-level resources (upstream's benchmark replaces the feature registry's AllFeatures so).
 */
function withFeatureRegistry(registry: Registry, names: readonly string[]): Registry {
  const features = new FeatureRegistry(names.map((name) => ({ name, inferForScheduling: (spec: Pod['spec']) => spec.resources !== undefined })));
  return new Registry(registry.names().map((n) => (n === NodeDeclaredFeaturesName ? nodeDeclaredFeaturesWith(features) : registry.get(n)!)));
}

function matchesLabels(obj: KubeObject, selector: Readonly<Record<string, string>>): boolean {
  for (const k in selector) if (obj.metadata?.labels?.[k] !== selector[k]) return false;
  return true;
}

/** Pod spec fields the API server defaults on creation, which an update leaving them out keeps. */
const defaultedPodFields = ['schedulerName', 'priority', 'priorityClassName', 'preemptionPolicy', 'restartPolicy', 'dnsPolicy', 'terminationGracePeriodSeconds', 'enableServiceLinks', 'securityContext'] as const;

/**
 * What the store holds after upstream's updateAny replaced `current` by the template's `next`:
 * the object as given (the status too: the op updates it as well), with the identity the API
 * server keeps; a pod keeps its binding and what admission defaulted. Through `resize`, only the
 * containers' resources change.
 */
function updatedObject(current: KubeObject, next: KubeObject, resize: boolean): KubeObject {
  if (current.kind !== 'Pod') return { ...next, metadata: { ...next.metadata, uid: current.metadata?.uid, namespace: current.metadata?.namespace } };
  const pod = current as Pod;
  const spec = (next as Pod).spec;
  const resources = new Map(spec.containers.map((c) => [c.name, c.resources]));
  const containers = pod.spec.containers.map((c) => (resources.has(c.name) ? { ...c, resources: resources.get(c.name) } : c));
  if (resize) {
    const resized: Pod = { ...pod, spec: { ...pod.spec, containers } };
    return resized;
  }
  // The spec and labels are replaced; what the API server defaulted stays where the template is silent.
  const kept: Partial<Pod['spec']> = {};
  for (const k of defaultedPodFields) if (spec[k] === undefined && pod.spec[k] !== undefined) Object.assign(kept, { [k]: pod.spec[k] });
  const updated: Pod = {
    ...pod,
    metadata: { ...pod.metadata, labels: next.metadata?.labels },
    spec: { ...kept, ...spec, containers, nodeName: pod.spec.nodeName ?? spec.nodeName },
  };
  return updated;
}

/** Fisher-Yates, in place. */
function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const d = cpuUsage(start);
  return (d.user + d.system) / 1e6;
}

/** The CSINode of a node under NodeAllocatableStrategy: its drivers' limits, migrated plugins annotated. */
function csiNodeFor(nodeName: string, s: NonNullable<CreateNodesOp['nodeAllocatableStrategy']>): CSINode {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name: nodeName, annotations: { 'storage.alpha.kubernetes.io/migrated-plugins': (s.migratedPlugins ?? []).join(',') } },
    spec: { drivers: Object.entries(s.csiNodeAllocatable ?? {}).map(([name, allocatable]) => ({ name, nodeID: nodeName, allocatable })) },
  };
}
