// Collects what `simulate --report` shows while a simulation runs: every pod's last decision (the
// explain record, compacted), the queue's lengths over the run, the preemptions, and at the end
// the utilisation of every node and device pool. Sized for 5,000 nodes and 100,000 pods: nodes
// are indices, messages and rejection tables are shared between pods, score tables are columns
// of typed values (the best rows up to a limit a size budget sets, or all), and the queue is
// sampled with a stride that doubles as the run grows.
import type { Node, Pod } from '../../api/types.js';
import type { MemoryCluster } from '../../cluster/memory/store.js';
import type { Features } from '../../framework/features.js';
import type { SchedulingQueue } from '../../queue/scheduling_queue.js';
import type { AttemptRecord } from '../../scheduler/scheduler.js';
import { explainAttempt, type ExplainAttempt } from '../explain/explain.js';
import { deviceDiagnosis, podClaims, podDevices } from './dra_report.js';
import {
  encodeRuns, groupAllFilters, groupDeviceDiagnosis, groupFilter, groupPreemptionNodes, knownExplainFields, reportOutcomes,
  type AllFiltersGroup, type ExplainDiagnosis, type FilterGroup, type QueueSeries, type ReportData, type ReportDecision,
  type ReportNode, type ReportOutcome, type ReportPreemption,
} from './report_model.js';
import { ColumnWriter, encodeScores } from './report_scores.js';
import { groupCounts } from './group_counts.js';
import type { NodeAllocation, SimReport, SimulationObserver } from '../simulate/simulate.js';

/** Queue samples kept; when full, every other one is dropped and the stride doubles. */
const maxQueueSamples = 2048;
/** An explain field a newer schema adds is kept per pod only below this size (JSON characters). */
const maxExtraFieldChars = 16_384;
/** A pod's attempts kept in the report: its last ones (a pod retried for hours has thousands). */
const maxAttemptsPerPod = 20;

/**
 * Score rows the report keeps across all pods by default (about 5 bytes each before gzip): 400
 * per pod at 10,000 pods, about every scored node (upstream scores about 420 of 1,000 nodes and
 * 500 of 5,000), fewer per pod beyond, never under 10.
 */
const defaultScoreRowBudget = 4_000_000;
const minDefaultScoreRows = 10;

export interface ReportOptions {
  title: string;
  /** Best-scored rows kept per pod ('all': every scored node); by default what the row budget allows. */
  scoreLimit?: number | 'all';
}

/** The report's data and the bytes of its score columns (`renderReportHtml` embeds both). */
export interface BuiltReport {
  data: ReportData;
  columns: Uint8Array;
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
  /** The scheduler's features, for the device diagnosis at the end. */
  private features: Features | null = null;
  private readonly columns = new ColumnWriter();
  /** Pods with resource claims whose last attempt failed: their devices are diagnosed at the end. */
  private readonly unplacedWithClaims = new Map<string, AttemptRecord>();
  private readonly scoreLimit: number | 'all';

  constructor(private readonly opts: ReportOptions, expectedPods: number) {
    this.scoreLimit = opts.scoreLimit ?? Math.max(minDefaultScoreRows, Math.floor(defaultScoreRowBudget / Math.max(1, expectedPods)));
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
      nodes: this.nodeRuns(g.nodes),
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
    const table = groups.map((g) => ({ rejections: g.rejections, nodes: this.nodeRuns(g.nodes) }));
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
    const limit = this.scoreLimit === 'all' ? Infinity : this.scoreLimit;
    const decision: ReportDecision = {
      outcome: e.outcome,
      node: this.node(e.node),
      message: this.message(e.message),
      preFilter: e.preFilter,
      filterTable: this.filterTable(e.filter),
      rejectedNodes: Object.keys(e.filter).length,
      scores: encodeScores(e.scores, e.scoreDetails, limit, e.node, (n) => this.node(n), this.columns),
      scoredNodes: Object.keys(e.scores).length,
      bestNodes: e.bestNodes.slice(0, limit).map((n) => this.node(n)),
      nominatedNode: this.node(e.nominatedNode),
      victims: e.victims,
    };
    if (e.filterPlugins) decision.filterPlugins = e.filterPlugins;
    if (e.allFilters) decision.allFiltersTable = this.allFiltersTable(e.allFilters);
    if (e.preemption) {
      decision.preemption = {
        ...e.preemption,
        nodes: groupPreemptionNodes(e.preemption.nodes).map((g) => ({ ...g, nodes: this.nodeRuns(g.nodes) })),
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
    if (a.outcome !== 'Scheduled' && (a.pod.spec.resourceClaims?.length ?? 0) > 0) this.unplacedWithClaims.set(e.pod, a);
    else this.unplacedWithClaims.delete(e.pod);
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

  finished(cluster: MemoryCluster, features: Features): void {
    this.cluster = cluster;
    this.features = features;
  }

  /**
   * The devices of pods with resource claims: those allocated to the scheduled ones, and for
   * the others why each node DynamicResources rejected had none (asked of the cluster as the
   * run left it, as their last attempt found it).
   */
  private addDevices(cluster: MemoryCluster, features: Features): void {
    for (const pod of cluster.list<Pod>('Pod')) {
      if ((pod.spec.resourceClaims?.length ?? 0) === 0) continue;
      const key = `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;
      const d = this.decisions.get(key);
      if (!d) continue;
      const devices = podDevices(pod, cluster);
      if (devices.length > 0) d.devices = devices;
      const last = this.unplacedWithClaims.get(key);
      if (!last) continue;
      const groups = groupDeviceDiagnosis(deviceDiagnosis(last, cluster, podClaims(pod, cluster), features));
      if (groups.length > 0) d.deviceGroups = groups.map((g) => ({ shortfalls: g.shortfalls, nodes: this.nodeRuns(g.nodes) }));
    }
  }

  private nodeRuns(names: readonly string[]): number[] {
    return encodeRuns(names.map((n) => this.node(n)).sort((a, b) => a - b));
  }

  /** The report's data, from the simulation's result and the cluster it left. */
  build(sim: SimReport): BuiltReport {
    const { cluster, features } = this;
    if (!cluster || !features) throw new Error('the simulation has not finished');
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
    this.addDevices(cluster, features);
    const alloc = new Map(sim.nodes.map((a) => [a.node, a]));
    const devices = new Map((sim.devices?.nodes ?? []).map((d) => [d.node, d]));
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
    const data: ReportData = {
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
    if (sim.devices) data.devicePools = sim.devices.pools;
    const extended = extendedColumns(this.nodeNames, alloc);
    if (extended.length > 0) data.extended = extended;
    const scheduled = new Set(sim.pods.filter((p) => p.outcome === 'Scheduled').map((p) => p.pod));
    // The pods the cluster holds at the end (a deleted member no longer counts for its group).
    const groups = groupCounts(cluster.list('PodGroup'), cluster.list<Pod>('Pod'), scheduled);
    if (groups !== null) data.groups = groups;
    return { data, columns: this.columns.bytes };
  }
}

/** Each extended resource any node offers, its requested and allocatable amounts per node in `names`' order. */
function extendedColumns(names: readonly string[], alloc: ReadonlyMap<string, NodeAllocation>): NonNullable<ReportData['extended']> {
  const byName = new Map<string, { name: string; requested: number[]; allocatable: number[] }>();
  names.forEach((node, i) => {
    for (const e of alloc.get(node)?.extended ?? []) {
      let col = byName.get(e.name);
      if (col === undefined) byName.set(e.name, (col = { name: e.name, requested: new Array<number>(names.length).fill(0), allocatable: new Array<number>(names.length).fill(0) }));
      col.requested[i] = e.requested;
      col.allocatable[i] = e.allocatable;
    }
  });
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
