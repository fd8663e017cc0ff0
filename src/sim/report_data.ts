// Collects what `simulate --report` shows while a simulation runs: every pod's last decision (the
// explain record, compacted), the queue's lengths over the run, the preemptions, and at the end
// the utilisation of every node. Sized for 5,000 nodes and 100,000 pods: nodes are indices,
// messages and rejection tables are shared between pods, score tables keep the top rows only,
// and the queue is sampled with a stride that doubles as the run grows.
import type { Node } from '../api/types.js';
import type { ResourceClaim, ResourceSlice } from '../api/resource.js';
import type { MemoryCluster } from '../cluster/memory/store.js';
import type { SchedulingQueue } from '../queue/scheduling_queue.js';
import type { AttemptRecord } from '../scheduler/scheduler.js';
import { explainAttempt, type ExplainAttempt } from './explain.js';
import {
  encodeRuns, groupAllFilters, groupFilter, groupPreemptionNodes, knownExplainFields, reportOutcomes, topScores,
  type AllFiltersGroup, type ExplainDiagnosis, type FilterGroup, type QueueSeries, type ReportData, type ReportDecision,
  type ReportNode, type ReportOutcome, type ReportPreemption,
} from './report_model.js';
import type { SimReport, SimulationObserver } from './simulate.js';

/** Queue samples kept; when full, every other one is dropped and the stride doubles. */
const maxQueueSamples = 2048;
/** An explain field a newer schema adds is kept per pod only below this size (JSON characters). */
const maxExtraFieldChars = 16_384;
/** A pod's attempts kept in the report: its last ones (a pod retried for hours has thousands). */
const maxAttemptsPerPod = 20;

export interface ReportOptions {
  title: string;
  /** Score rows kept per pod; by default 10, or 3 past 20,000 pods. */
  scoreLimit?: number;
}

const zoneLabels = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];

export class ReportCollector implements SimulationObserver {
  private readonly nodeIndex = new Map<string, number>();
  private readonly nodeNames: string[] = [];
  private readonly messageIndex = new Map<string, number>();
  private readonly messages: string[] = [];
  private readonly tableIndex = new Map<string, number>();
  private readonly filterTables: FilterGroup<number>[][] = [];
  private readonly allFiltersIndex = new Map<string, number>();
  private readonly allFiltersTables: AllFiltersGroup<number>[][] = [];
  private readonly decisions = new Map<string, ReportDecision>();
  private readonly attemptsByPod = new Map<string, number>();
  private readonly preemptions: ReportPreemption[] = [];
  private readonly omitted = new Set<string>();
  private readonly queue: QueueSeries = { attempt: [], time: [], active: [], backoff: [], unschedulable: [], gated: [], scheduled: [] };
  private attempts = 0;
  private scheduled = 0;
  private stride = 1;
  private cluster: MemoryCluster | null = null;

  constructor(private readonly opts: ReportOptions, private readonly expectedPods: number) {}

  private get scoreLimit(): number {
    return this.opts.scoreLimit ?? (this.expectedPods > 20_000 ? 3 : 10);
  }

  private node(name: string): number {
    if (!name) return -1;
    let i = this.nodeIndex.get(name);
    if (i === undefined) {
      i = this.nodeNames.length;
      this.nodeIndex.set(name, i);
      this.nodeNames.push(name);
    }
    return i;
  }

  private message(text: string): number {
    let i = this.messageIndex.get(text);
    if (i === undefined) {
      i = this.messages.length;
      this.messageIndex.set(text, i);
      this.messages.push(text);
    }
    return i;
  }

  private filterTable(filter: Parameters<typeof groupFilter>[0]): number {
    const groups = groupFilter(filter);
    if (groups.length === 0) return -1;
    const table = groups.map((g) => ({
      plugin: g.plugin, code: g.code, reasons: g.reasons,
      nodes: encodeRuns(g.nodes.map((n) => this.node(n)).sort((a, b) => a - b)),
    }));
    const key = JSON.stringify(table);
    let i = this.tableIndex.get(key);
    if (i === undefined) {
      i = this.filterTables.length;
      this.tableIndex.set(key, i);
      this.filterTables.push(table);
    }
    return i;
  }

  /** Every-Filter-plugin groups with node runs, stored once for the pods that share them. */
  private allFiltersTable(allFilters: ExplainDiagnosis['allFilters']): number {
    const groups = groupAllFilters(allFilters ?? {});
    if (groups.length === 0) return -1;
    const table = groups.map((g) => ({ rejections: g.rejections, nodes: encodeRuns(g.nodes.map((n) => this.node(n)).sort((x, y) => x - y)) }));
    const key = JSON.stringify(table);
    let i = this.allFiltersIndex.get(key);
    if (i === undefined) {
      i = this.allFiltersTables.length;
      this.allFiltersIndex.set(key, i);
      this.allFiltersTables.push(table);
    }
    return i;
  }

  attempt(a: AttemptRecord, queue: SchedulingQueue): void {
    this.attempts++;
    if (a.outcome === 'Scheduled') this.scheduled++;
    const e = explainAttempt(a);
    this.attemptsByPod.set(e.pod, a.attempt);
    const top = topScores(e.scores, this.scoreLimit);
    const decision: ReportDecision = {
      outcome: e.outcome,
      node: this.node(e.node),
      message: this.message(e.message),
      preFilter: e.preFilter,
      filterTable: this.filterTable(e.filter),
      rejectedNodes: Object.keys(e.filter).length,
      scores: { plugins: top.plugins, rows: top.rows.map(([n, ...rest]) => [this.node(n), ...rest] as [number, number, ...number[]]) },
      scoredNodes: Object.keys(e.scores).length,
      bestNodes: e.bestNodes.slice(0, this.scoreLimit).map((n) => this.node(n)),
      nominatedNode: this.node(e.nominatedNode),
      victims: e.victims,
    };
    if (e.filterPlugins) decision.filterPlugins = e.filterPlugins;
    if (e.allFilters) decision.allFiltersTable = this.allFiltersTable(e.allFilters);
    if (e.scoreDetails) {
      const details = e.scoreDetails;
      decision.scoreDetails = top.rows.filter(([n]) => details[n]).map(([n]) => [this.node(n), details[n]!]);
    }
    if (e.preemption) {
      decision.preemption = {
        ...e.preemption,
        nodes: groupPreemptionNodes(e.preemption.nodes).map((g) => ({ ...g, nodes: encodeRuns(g.nodes.map((n) => this.node(n)).sort((x, y) => x - y)) })),
      };
    }
    if (e.attempts) decision.attempts = this.attemptHistory(e.pod, e.attempts);
    for (const [k, v] of Object.entries(e)) {
      if (knownExplainFields.has(k)) continue;
      const size = JSON.stringify(v)?.length ?? 0;
      if (size > maxExtraFieldChars) {
        this.omitted.add(k);
        continue;
      }
      (decision.extra ??= {})[k] = v;
    }
    this.decisions.set(e.pod, decision);
    if (e.victims.length > 0) this.preemptions.push({ preemptor: e.pod, node: e.nominatedNode, victims: e.victims, time: a.time / 1000 });
    if (this.attempts % this.stride === 0) this.sample(queue, a.time);
  }

  /** The pod's attempts so far, its last ones kept: explain records list one attempt each in a simulation. */
  private attemptHistory(pod: string, latest: ExplainAttempt[]): ExplainAttempt[] {
    const before = this.decisions.get(pod)?.attempts ?? [];
    const seen = new Set(latest.map((x) => x.attempt));
    return [...before.filter((x) => !seen.has(x.attempt)), ...latest].slice(-maxAttemptsPerPod);
  }

  private sample(queue: SchedulingQueue, timeMs: number): void {
    const c = queue.pendingCounts();
    const q = this.queue;
    q.attempt.push(this.attempts);
    q.time.push(timeMs / 1000);
    q.active.push(c.active);
    q.backoff.push(c.backoff);
    q.unschedulable.push(c.unschedulable);
    q.gated.push(c.gated);
    q.scheduled.push(this.scheduled);
    if (q.attempt.length < maxQueueSamples) return;
    for (const series of Object.values(q) as number[][]) {
      let w = 0;
      for (let r = 1; r < series.length; r += 2) series[w++] = series[r]!;
      series.length = w;
    }
    this.stride *= 2;
  }

  finished(cluster: MemoryCluster): void {
    this.cluster = cluster;
  }

  /** The report's data, from the simulation's result and the cluster it left. */
  build(sim: SimReport): ReportData {
    const cluster = this.cluster;
    if (!cluster) throw new Error('the simulation has not finished');
    const nodes = cluster.list<Node>('Node');
    for (const n of nodes) this.node(n.metadata.name ?? '');
    const zones: string[] = [];
    const zoneIndex = new Map<string, number>();
    const zoneOf = (n: Node | undefined): number => {
      const labels = n?.metadata.labels ?? {};
      const z = zoneLabels.map((l) => labels[l]).find((v) => v !== undefined) ?? '';
      let i = zoneIndex.get(z);
      if (i === undefined) zoneIndex.set(z, (i = zones.push(z) - 1));
      return i;
    };
    const byName = new Map(nodes.map((n) => [n.metadata.name ?? '', n]));
    const alloc = new Map(sim.nodes.map((a) => [a.node, a]));
    const devices = deviceCounts(cluster);
    const reportNodes: ReportNode[] = this.nodeNames.map((name) => {
      const a = alloc.get(name);
      const d = devices.get(name);
      return [name, zoneOf(byName.get(name)), a?.cpu.requested ?? 0, a?.cpu.allocatable ?? 0, a?.memory.requested ?? 0, a?.memory.allocatable ?? 0,
        a?.pods.count ?? 0, a?.pods.allocatable ?? 0, d?.allocated ?? 0, d?.total ?? 0];
    });
    const decisionList: ReportDecision[] = [];
    const outcomeIndex = (o: string) => Math.max(0, reportOutcomes.indexOf(o as ReportOutcome));
    const pods = sim.pods.map((p) => {
      const d = this.decisions.get(p.pod);
      let di = -1;
      if (d) di = decisionList.push(d) - 1;
      return [p.pod, outcomeIndex(p.outcome), this.node(p.node), this.attemptsByPod.get(p.pod) ?? p.attempts, di] as ReportData['pods'][number];
    });
    return {
      title: this.opts.title,
      summary: sim.summary,
      zones,
      nodes: reportNodes,
      pods,
      decisions: decisionList,
      messages: this.messages,
      filterTables: this.filterTables,
      allFiltersTables: this.allFiltersTables,
      preemptions: this.preemptions,
      queue: this.queue,
      scoreLimit: this.scoreLimit,
      omittedFields: [...this.omitted].sort(),
    };
  }
}

/** Devices per node from the ResourceSlices, and those allocated to claims (DRA). */
function deviceCounts(cluster: MemoryCluster): Map<string, { total: number; allocated: number }> {
  const out = new Map<string, { total: number; allocated: number }>();
  const poolNode = new Map<string, string>();
  for (const s of cluster.list<ResourceSlice>('ResourceSlice')) {
    const node = s.spec.nodeName;
    if (!node) continue;
    poolNode.set(`${s.spec.driver}/${s.spec.pool.name}`, node);
    const e = out.get(node) ?? { total: 0, allocated: 0 };
    e.total += s.spec.devices?.length ?? 0;
    out.set(node, e);
  }
  for (const c of cluster.list<ResourceClaim>('ResourceClaim')) {
    for (const r of c.status?.allocation?.devices?.results ?? []) {
      const node = poolNode.get(`${r.driver}/${r.pool}`);
      const e = node ? out.get(node) : undefined;
      if (e) e.allocated++;
    }
  }
  return out;
}

