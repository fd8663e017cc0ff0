// The workbench behind `simulate --serve`'s web UI (/ui/): the built front end, and the endpoints
// the Kubernetes API has no place for: a pod's last decision (the explain record, with its DRA
// devices), the queue, device use per node and pool, the scheduler configuration (read, replace and re-schedule), and the cluster as a scenario
// (export, import). Objects themselves are read, watched and written through the API.
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { MountedHandler } from '../../apiserver/server.js';
import { resources } from '../../apiserver/resources.js';
import type { KubeObject, Pod } from '../../api/types.js';
import { podKey } from '../../api/types.js';
import { systemPriorityClassObjects } from '../../api/validation/index.js';
import { podGroupFieldGates, type MemoryCluster } from '../../cluster/memory/store.js';
import { parseConfig } from '../../config/index.js';
import type { AttemptRecord, ResolvedConfig, Scheduler } from '../../scheduler/scheduler.js';
import { attemptSummary, explainAttempt, type ExplainAttempt, type ExplainPod, type ExplainStatus } from '../explain/explain.js';
import { explainTrees, treeRootKey, type ExplainTree, type MemberRecord } from '../explain/explain_groups.js';
import type { CompositePlacementRecord } from '../../scheduler/composite_algorithm.js';
import type { CompositePodGroup, PodGroup, SchedulingGroup } from '../../api/scheduling.js';
import { deviceDiagnosis, deviceReport, podClaims, podDevices } from '../report/dra_report.js';
import { bestScoredNodes } from '../report/report_scores.js';
import { parseScenario, type Scenario } from '../scenario/scenario.js';
import { populateCluster } from '../scenario/embedded.js';
import { uiAssetDir } from '../report/ui_assets.js';
import { profilePlugins } from './simulator_annotation_writer.js';
import type { Registry } from '../../framework/registry.js';
import { BadInputError } from '../../util/bad_input.js';

export interface WorkbenchHost {
  readonly cluster: MemoryCluster;
  readonly registry: Registry;
  readonly scheduler: Scheduler;
  /**
   * Stops the running scheduler, runs `whileStopped` (changes no scheduler should see half of),
   * and starts one built from `config` over the same cluster.
   */
  replaceScheduler(config: ResolvedConfig, whileStopped?: () => void): Promise<void>;
}

const staticFiles: Record<string, string> = {
  '': 'text/html; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** Kinds an exported scenario leaves out: what the cluster and the scheduler make themselves. */
const notExported = new Set(['Event', 'Lease']);
const builtinPriorityClasses = new Set(systemPriorityClassObjects().map((pc) => pc.metadata?.name ?? ''));
const systemNamespaces = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
const maxBodyBytes = 64 * 1024 * 1024;
/** Attempts a pod's decision lists: its last ones. */
const maxAttemptsListed = 20;
/** Score rows a pod's kept decision holds (the UI draws 50; explain --pod has every one). */
const maxScoreRowsKept = 100;
/** Pods the queue endpoint lists (the counts cover all): the UI polls it every second. */
const maxQueuePods = 1000;
export const defaultConfigText = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';

interface StoredDecision {
  explain: ExplainPod;
  attempts: number;
  /** Milliseconds on the scheduler's clock when the attempt ended. */
  time: number;
  scoredNodes: number;
  /** The attempt of a pod with claims that failed, for its device diagnosis (asked when shown). */
  failedWithClaims: AttemptRecord | null;
}

/** Leaves the record's `limit` best-scored nodes (bestScoredNodes: the chosen one kept) in its scores and details. */
function keepBestScores(e: ExplainPod, limit: number): void {
  if (Object.keys(e.scores).length <= limit) return;
  const scores: ExplainPod['scores'] = {};
  const details: ExplainPod['scoreDetails'] = {};
  for (const n of bestScoredNodes(e.scores, limit, e.node)) {
    scores[n] = e.scores[n]!;
    if (e.scoreDetails[n]) details[n] = e.scoreDetails[n];
  }
  e.scores = scores;
  e.scoreDetails = details;
}

class HttpProblem extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

export class Workbench implements MountedHandler {
  readonly prefix = '/ui/';
  /** Each pod's last decision, compacted as it is recorded (see `recordAttempt`). */
  private readonly decisions = new Map<string, StoredDecision>();
  /** Each group member's last verdict, slim (recordAttempt), for its tree's view. */
  private readonly memberRecords = new Map<string, MemberRecord>();
  /** Each composite's last round of placements (recordCompositePlacements). */
  private readonly placementRounds = new Map<string, CompositePlacementRecord>();
  /** One object per distinct rejection, shared by the nodes and pods that have it. */
  private readonly statuses = new Map<string, ExplainStatus>();
  /** Each pod's attempts, its last ones kept. */
  private readonly attemptLists = new Map<string, ExplainAttempt[]>();
  /** The built files, read and gzipped once (CodeMirror makes app.js about 560 KiB, 180 KiB gzipped). */
  private readonly assets = new Map<string, { raw: Buffer; gzipped: Buffer }>();

  /** `startedAtMs`: when serving began; attempt times are seconds since then, as a simulation's since its start. */
  constructor(private readonly host: WorkbenchHost, private configText: string, private readonly startedAtMs = 0) {}

  /**
   * Keeps each pod's last decision for its tables (the scheduler's onAttempt), as the explain
   * record compacted at once: the best score rows only, each distinct rejection one shared
   * object. Holding the attempt records themselves took 4 GiB at 2,000 nodes and 20,000 pods.
   */
  recordAttempt(a: AttemptRecord): void {
    const key = podKey(a.pod);
    // A group member's verdict, slim, for its tree's view (the diagnosis only as the plugins that rejected it).
    if (a.pod.spec.schedulingGroup?.podGroupName) {
      this.memberRecords.set(key, { outcome: a.outcome, node: a.node, message: a.message, victims: a.victims, plugin: a.plugin,
        diagnosis: a.diagnosis === null ? null : { unschedulablePlugins: new Set(a.diagnosis.unschedulablePlugins) } });
    }
    const list = this.attemptLists.get(key) ?? [];
    list.push({ ...attemptSummary(a), time: (a.time - this.startedAtMs) / 1000 });
    if (list.length > maxAttemptsListed) list.shift();
    this.attemptLists.set(key, list);
    const explain = explainAttempt(a, list);
    const scoredNodes = Object.keys(explain.scores).length;
    keepBestScores(explain, maxScoreRowsKept);
    this.shareStatuses(explain);
    const withClaims = (a.pod.spec.resourceClaims?.length ?? 0) > 0;
    this.decisions.set(key, { explain, attempts: a.attempt, time: a.time, scoredNodes, failedWithClaims: withClaims && a.outcome !== 'Scheduled' ? a : null });
  }

  private shareStatuses(e: ExplainPod): void {
    const shared = (s: ExplainStatus): ExplainStatus => {
      const k = `${s.plugin}\u0000${s.code}\u0000${s.reasons.join('\u0000')}`;
      const found = this.statuses.get(k);
      if (found) return found;
      this.statuses.set(k, s);
      return s;
    };
    for (const node of Object.keys(e.filter)) e.filter[node] = shared(e.filter[node]!);
    for (const node of Object.keys(e.allFilters)) e.allFilters[node] = e.allFilters[node]!.map(shared);
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.slice(this.prefix.length);
    const method = req.method ?? 'GET';
    try {
      if (!path.startsWith('api/')) return await this.serveStatic(res, path, method, String(req.headers['accept-encoding'] ?? ''));
      const route = path.slice('api/'.length).split('/').map(decodeURIComponent);
      const body = method === 'GET' || method === 'HEAD' ? '' : await readBody(req);
      await this.serveApi(res, method, route, body);
    } catch (err) {
      if (err instanceof HttpProblem) return sendJson(res, err.code, { message: err.message });
      if (err instanceof BadInputError) return sendJson(res, 400, { message: err.message });
      throw err;
    }
  }

  private async serveStatic(res: ServerResponse, path: string, method: string, acceptEncoding: string): Promise<void> {
    const type = staticFiles[path];
    if (type === undefined || (method !== 'GET' && method !== 'HEAD')) throw new HttpProblem(404, `no such page: /ui/${path}`);
    const file = path === '' ? 'index.html' : path;
    let asset = this.assets.get(file);
    if (!asset) {
      const raw = await readFile(`${uiAssetDir()}${file}`);
      this.assets.set(file, (asset = { raw, gzipped: gzipSync(raw) }));
    }
    const gzip = /\bgzip\b/.test(acceptEncoding);
    const body = gzip ? asset.gzipped : asset.raw;
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
    res.end(method === 'HEAD' ? undefined : body);
  }

  private async serveApi(res: ServerResponse, method: string, route: string[], body: string): Promise<void> {
    const [what, ...rest] = route;
    if (what === 'explain' && method === 'GET' && rest.length === 2) return sendJson(res, 200, this.explain(rest[0]!, rest[1]!));
    if (what === 'queue' && method === 'GET') return sendJson(res, 200, this.queue());
    if (what === 'devices' && method === 'GET') return sendJson(res, 200, deviceReport(this.host.cluster) ?? { nodes: [], pools: [] });
    if (what === 'kinds' && method === 'GET') return sendJson(res, 200, this.kinds());
    if (what === 'config' && method === 'GET') return sendJson(res, 200, { yaml: this.configText, profiles: this.effectiveProfiles() });
    if (what === 'config' && method === 'PUT') {
      const config = parseConfig(body, 'configuration', this.host.registry);
      await this.host.replaceScheduler(config);
      this.configText = body;
      this.decisions.clear();
      this.attemptLists.clear();
      return sendJson(res, 200, { message: 'configuration applied; the pending pods are being scheduled again' });
    }
    if (what === 'scenario' && method === 'GET') {
      const text = stringifyYaml(this.exportScenario());
      res.writeHead(200, { 'Content-Type': 'application/yaml', 'Content-Disposition': 'attachment; filename="cluster-scenario.yaml"', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    if (what === 'scenario' && method === 'POST') return sendJson(res, 200, await this.importScenario(parseScenario(body, 'imported scenario', { gates: podGroupFieldGates(this.host.cluster.gates) })));
    throw new HttpProblem(404, `no such endpoint: ${method} /ui/api/${route.join('/')}`);
  }

  /** Keeps a composite's last round of placements for its tree's view (the scheduler's onCompositePlacements). */
  recordCompositePlacements(r: CompositePlacementRecord): void {
    this.placementRounds.set(r.group, r);
  }

  /**
   * The pod's last decision; `scoredNodes` counts the nodes scored, of which `scores` has the best.
   * A member of a CompositePodGroup tree also gets the tree's last cycle (`tree`, as explain's).
   */
  private explain(namespace: string, name: string) {
    const d = this.decisions.get(`${namespace}/${name}`);
    if (!d) throw new HttpProblem(404, `pod ${namespace}/${name} has no scheduling attempt yet`);
    const e: ExplainPod = { ...d.explain };
    this.addDevices(e, d.failedWithClaims, namespace, name);
    const tree = this.treeOf(namespace, name);
    return { explain: e, attempts: d.attempts, time: new Date(d.time).toISOString(), scoredNodes: d.scoredNodes, ...(tree !== null ? { tree } : {}) };
  }

  /** The tree the pod's group hangs under, from the live groups and pods and each member's last attempt; null outside a composite. */
  private treeOf(namespace: string, name: string): ExplainTree | null {
    const { cluster } = this.host;
    const pod = cluster.get<Pod>('Pod', namespace, name);
    if (pod?.spec.schedulingGroup?.podGroupName === undefined || cluster.gates.compositePodGroup !== true) return null;
    const groups: SchedulingGroup[] = [
      ...cluster.list<PodGroup>('PodGroup').map((g) => ({ ...g, kind: 'PodGroup' as const })),
      ...cluster.list<CompositePodGroup>('CompositePodGroup').map((g) => ({ ...g, kind: 'CompositePodGroup' as const })),
    ];
    const rootOf = treeRootKey(groups);
    const root = rootOf(pod);
    const members = cluster.list<Pod>('Pod').filter((p) => p.metadata.namespace === namespace && rootOf(p) === root);
    const waiting = new Map(members.filter((m) => !this.memberRecords.has(podKey(m))).map((m) => [podKey(m), { plugin: '', message: 'not attempted yet' }]));
    return explainTrees(members, groups, this.memberRecords, waiting, this.placementRounds)[0] ?? null;
  }

  /**
   * A pod with resource claims: the devices its claims hold now, and after a failed attempt why
   * each node DynamicResources rejected has none for it (asked of the cluster as it is now).
   */
  private addDevices(e: ExplainPod, failed: AttemptRecord | null, namespace: string, name: string): void {
    const c = this.host.cluster;
    const pod = c.getPod(namespace, name);
    if (!pod || (pod.spec.resourceClaims?.length ?? 0) === 0) return;
    e.devices = podDevices(pod, c);
    if (failed) e.deviceDiagnosis = deviceDiagnosis(failed, c, podClaims(pod, c), this.host.scheduler.features);
  }

  private queue() {
    const q = this.host.scheduler.queue;
    const pods = q.pendingPods().map((qp) => {
      const key = qp.podInfo.key;
      return {
        pod: key,
        queue: q.whereIs(qp.podInfo.uid) ?? 'unknown',
        attempts: qp.attempts,
        plugins: [...qp.unschedulablePlugins, ...qp.pendingPlugins].sort(),
        gatingPlugin: qp.gatingPlugin,
        message: this.decisions.get(key)?.explain.message ?? '',
      };
    });
    pods.sort((a, b) => a.queue.localeCompare(b.queue) || a.pod.localeCompare(b.pod));
    return { counts: q.pendingCounts(), pods: pods.slice(0, maxQueuePods), more: Math.max(0, pods.length - maxQueuePods) };
  }

  /**
   * What the running scheduler's profiles do after defaulting: each extension point's plugins in
   * the order they run, and each Score plugin's weight (the configuration text leaves most implicit).
   */
  private effectiveProfiles() {
    return [...this.host.scheduler.profiles].map(([schedulerName, fwk]) => ({
      schedulerName, plugins: profilePlugins(fwk), scoreWeights: Object.fromEntries(fwk.scorePluginWeight),
    }));
  }

  /** The kinds the API serves, for the UI's editor. */
  private kinds() {
    return resources.map((r) => ({ kind: r.kind, group: r.group, version: r.version, plural: r.name, namespaced: r.namespaced }));
  }

  /** The cluster as a scenario: nodes, bound pods, pending pods in creation order, and the other objects. */
  exportScenario(): Record<string, unknown> {
    const c = this.host.cluster;
    // Uids stay: owner references name their owner by uid, and the controllers find what they own by it.
    const clean = (o: KubeObject): KubeObject => {
      const { resourceVersion: _rv, creationTimestamp: _ct, managedFields: _mf, generation: _g, ...metadata } = o.metadata ?? {};
      return { ...o, metadata };
    };
    const pods = c.list<Pod>('Pod');
    const bound = pods.filter((p) => p.spec.nodeName).map((p) => {
      const { status: _status, ...rest } = clean(p) as Pod;
      return rest;
    });
    const pending = pods.filter((p) => !p.spec.nodeName)
      .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
      .map((p) => {
        const { status: _status, ...rest } = clean(p) as Pod;
        return rest;
      });
    const objects: KubeObject[] = [];
    for (const r of resources) {
      if (r.kind === 'Pod' || r.kind === 'Node' || notExported.has(r.kind) || r.group === 'events.k8s.io') continue;
      for (const o of c.list(r.storeKind)) {
        if (r.kind === 'Namespace' && systemNamespaces.has(o.metadata?.name ?? '')) continue;
        // Every API server makes these itself.
        if (r.kind === 'PriorityClass' && builtinPriorityClasses.has(o.metadata?.name ?? '')) continue;
        objects.push(clean(o));
      }
    }
    const config = this.configText === defaultConfigText ? undefined : (parseYaml(this.configText) as unknown);
    return {
      metadata: { name: 'exported-cluster' },
      ...(config ? { config } : {}),
      nodes: c.list('Node').map(clean),
      pods: bound,
      pending,
      objects,
    };
  }

  /** Replaces the cluster's objects with the scenario's and schedules its pending pods. */
  private async importScenario(sc: Scenario): Promise<{ message: string }> {
    const config = sc.config ? parseConfig(stringifyYaml(sc.config), `${sc.name}: config`, this.host.registry) : undefined;
    const c = this.host.cluster;
    await this.host.replaceScheduler(config ?? parseConfig(this.configText, 'configuration', this.host.registry), () => {
      for (const r of resources) {
        if (r.kind === 'Namespace' || r.kind === 'Lease') continue;
        for (const o of c.list(r.storeKind)) c.remove(r.storeKind, o.metadata?.namespace ?? '', o.metadata?.name ?? '');
      }
      const existingNamespaces = new Set(c.list('Namespace').map((n) => n.metadata?.name ?? ''));
      populateCluster(c, { ...sc, objects: sc.objects.filter((o) => o.kind !== 'Namespace' || !existingNamespaces.has(o.metadata?.name ?? '')) });
      for (const p of sc.pending) c.create(p);
      this.decisions.clear();
      this.attemptLists.clear();
    });
    if (config) this.configText = stringifyYaml(sc.config);
    return { message: `imported ${sc.name}: ${sc.nodes.length} node(s), ${sc.pods.length + sc.pending.length} pod(s), ${sc.objects.length} other object(s)` };
  }
}

function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache' });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new HttpProblem(413, `the body is larger than ${maxBodyBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
