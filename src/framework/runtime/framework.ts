// The framework runtime for one profile: instantiates plugins, expands multiPoint, and runs each
// extension point (runtime/framework.go). It is also the Handle plugins receive.
import type { Pod } from '../../api/types.js';
import type { Clock } from '../../util/clock.js';
import { CycleState } from '../cycle_state.js';
import { ActionTypeAll, type ClusterEventWithHint } from '../events.js';
import * as fw from '../interfaces.js';
import { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import type { Registry } from '../registry.js';
import { Code, Status, isSuccess } from '../status.js';
import { WaitingPodImpl } from './waiting_pods.js';
import { type Extender, ExtenderName } from '../../extender/extender.js';

export interface PluginRef {
  name: string;
  weight?: number;
}
export interface PluginSetConfig {
  enabled?: PluginRef[];
  disabled?: { name: string }[];
}
export type ExtensionPointName =
  | 'preEnqueue' | 'queueSort' | 'preFilter' | 'filter' | 'postFilter' | 'preScore' | 'score'
  | 'reserve' | 'permit' | 'preBind' | 'bind' | 'postBind';
export type PluginsConfig = Partial<Record<ExtensionPointName | 'multiPoint', PluginSetConfig>>;

export interface ProfileConfig {
  schedulerName: string;
  percentageOfNodesToScore?: number | null;
  plugins: PluginsConfig;
  pluginConfig?: { name: string; args?: unknown }[];
}

/** What a framework needs from the scheduler around it. */
export interface FrameworkDeps {
  registry: Registry;
  snapshot: () => fw.SharedLister;
  objects: fw.ObjectLister;
  client: fw.PluginClusterClient;
  eventRecorder: fw.EventRecorder;
  nominator: fw.PodNominatorReader;
  clock: Clock;
  random: () => number;
  parallelism: number;
  /** In-tree plugin names we do not implement yet: skipped with a warning instead of failing. */
  notYetAvailable?: ReadonlySet<string>;
  /** The scheduler's HTTP extenders (Handle.extenders). */
  extenders?: readonly Extender[];
}

type Guard<T extends fw.Plugin> = (p: fw.Plugin) => p is T;

const extensionPoints: { name: ExtensionPointName; guard: Guard<fw.Plugin>; label: string }[] = [
  { name: 'preEnqueue', guard: fw.isPreEnqueuePlugin, label: 'PreEnqueuePlugin' },
  { name: 'queueSort', guard: fw.isQueueSortPlugin, label: 'QueueSortPlugin' },
  { name: 'preFilter', guard: fw.isPreFilterPlugin, label: 'PreFilterPlugin' },
  { name: 'filter', guard: fw.isFilterPlugin, label: 'FilterPlugin' },
  { name: 'postFilter', guard: fw.isPostFilterPlugin, label: 'PostFilterPlugin' },
  { name: 'preScore', guard: fw.isPreScorePlugin, label: 'PreScorePlugin' },
  { name: 'score', guard: fw.isScorePlugin, label: 'ScorePlugin' },
  { name: 'reserve', guard: fw.isReservePlugin, label: 'ReservePlugin' },
  { name: 'permit', guard: fw.isPermitPlugin, label: 'PermitPlugin' },
  { name: 'preBind', guard: fw.isPreBindPlugin, label: 'PreBindPlugin' },
  { name: 'bind', guard: fw.isBindPlugin, label: 'BindPlugin' },
  { name: 'postBind', guard: fw.isPostBindPlugin, label: 'PostBindPlugin' },
];

/** Result of running PreFilter over all plugins. */
export interface PreFilterRunResult {
  nodeNames: ReadonlySet<string> | null;
  status: Status | null;
  /** Plugins that returned a node subset (for messages and requeueing). */
  pluginsWithNodes: string[];
}

export interface PluginScore {
  readonly name: string;
  readonly score: number;
}

/** Weighted scores of one node (framework.NodePluginScores). */
export interface NodePluginScores {
  readonly name: string;
  readonly scores: PluginScore[];
  totalScore: number;
}

const noScores: PluginScore[] = [];

export class FrameworkError extends Error {
  override name = 'FrameworkError';
}

export class Framework implements fw.Handle {
  readonly profileName: string;
  readonly parallelism: number;
  readonly percentageOfNodesToScore: number | null;
  /** Plugins configured but not built yet (reported at start-up). */
  readonly unavailablePlugins: string[] = [];

  readonly pluginsByName = new Map<string, fw.Plugin>();
  preEnqueuePlugins: fw.PreEnqueuePlugin[] = [];
  queueSortPlugins: fw.QueueSortPlugin[] = [];
  preFilterPlugins: fw.PreFilterPlugin[] = [];
  filterPlugins: fw.FilterPlugin[] = [];
  postFilterPlugins: fw.PostFilterPlugin[] = [];
  preScorePlugins: fw.PreScorePlugin[] = [];
  scorePlugins: fw.ScorePlugin[] = [];
  reservePlugins: fw.ReservePlugin[] = [];
  permitPlugins: fw.PermitPlugin[] = [];
  preBindPlugins: fw.PreBindPlugin[] = [];
  bindPlugins: fw.BindPlugin[] = [];
  postBindPlugins: fw.PostBindPlugin[] = [];
  readonly scorePluginWeight = new Map<string, number>();
  private readonly waitingPods = new Map<string, WaitingPodImpl>();

  constructor(
    profile: ProfileConfig,
    private readonly deps: FrameworkDeps,
  ) {
    this.profileName = profile.schedulerName;
    this.parallelism = deps.parallelism;
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore ?? null;
    this.instantiate(profile);
    for (const ep of extensionPoints) this.updatePluginList(ep.name, profile.plugins[ep.name]);
    if ((profile.plugins.multiPoint?.enabled ?? []).length > 0) this.expandMultiPoint(profile.plugins);
    if (this.queueSortPlugins.length !== 1) {
      throw new FrameworkError(`only one queue sort plugin required for profile with scheduler name "${this.profileName}", but got ${this.queueSortPlugins.length}`);
    }
    if (this.bindPlugins.length === 0) {
      throw new FrameworkError(`at least one bind plugin is needed for profile with scheduler name "${this.profileName}"`);
    }
    this.setScoreWeights([...(profile.plugins.score?.enabled ?? []), ...(profile.plugins.multiPoint?.enabled ?? [])]);
  }

  private instantiate(profile: ProfileConfig): void {
    const needed = new Set<string>();
    for (const set of Object.values(profile.plugins)) for (const p of set?.enabled ?? []) needed.add(p.name);
    const argsByName = new Map<string, unknown>();
    for (const pc of profile.pluginConfig ?? []) {
      if (argsByName.has(pc.name)) throw new FrameworkError(`repeated config for plugin ${pc.name}`);
      argsByName.set(pc.name, pc.args);
    }
    for (const name of needed) {
      const def = this.deps.registry.get(name);
      if (!def) {
        if (this.deps.notYetAvailable?.has(name)) {
          this.unavailablePlugins.push(name);
          continue;
        }
        throw new FrameworkError(`plugin "${name}" does not exist`);
      }
      let args = argsByName.get(name);
      if (def.defaultArgs && (args === undefined || args === null)) args = def.defaultArgs({});
      let plugin: fw.Plugin;
      try {
        plugin = def.factory(args, this);
      } catch (err) {
        throw new FrameworkError(`initializing plugin "${name}": ${(err as Error).message}`);
      }
      this.pluginsByName.set(name, plugin);
    }
  }

  private listFor(ep: ExtensionPointName): fw.Plugin[] {
    return (this as unknown as Record<string, fw.Plugin[]>)[`${ep}Plugins`]!;
  }

  private setList(ep: ExtensionPointName, list: fw.Plugin[]): void {
    (this as unknown as Record<string, fw.Plugin[]>)[`${ep}Plugins`] = list;
  }

  private updatePluginList(ep: ExtensionPointName, set: PluginSetConfig | undefined): void {
    const meta = extensionPoints.find((e) => e.name === ep)!;
    const list = this.listFor(ep);
    const seen = new Set<string>();
    for (const ref of set?.enabled ?? []) {
      const p = this.pluginsByName.get(ref.name);
      if (!p) continue; // not yet available, already reported
      if (!meta.guard(p)) throw new FrameworkError(`plugin "${ref.name}" does not extend ${meta.label} plugin`);
      if (seen.has(ref.name)) throw new FrameworkError(`plugin "${ref.name}" already registered as "${meta.label}"`);
      seen.add(ref.name);
      list.push(p);
    }
  }

  /**
   * multiPoint expansion with upstream's order: plugins also enabled explicitly at this point come
   * first, in their explicit order (the explicit setting overrides multiPoint), then the
   * multiPoint-only ones in multiPoint order, then the remaining explicit ones.
   */
  private expandMultiPoint(plugins: PluginsConfig): void {
    for (const ep of extensionPoints) {
      const set = plugins[ep.name];
      const disabled = new Set((set?.disabled ?? []).map((d) => d.name));
      if (disabled.has('*')) continue;
      const explicitNames: string[] = [];
      for (const p of this.listFor(ep.name)) explicitNames.push(p.name);
      const overrides = new Set<string>();
      const fromMultiPoint: string[] = [];
      for (const ref of plugins.multiPoint?.enabled ?? []) {
        const p = this.pluginsByName.get(ref.name);
        if (!p) continue;
        if (!ep.guard(p) || disabled.has(ref.name)) continue;
        if (explicitNames.includes(ref.name)) {
          overrides.add(ref.name);
          continue;
        }
        if (fromMultiPoint.includes(ref.name)) throw new FrameworkError(`plugin "${ref.name}" already registered as "${ep.label}"`);
        fromMultiPoint.push(ref.name);
      }
      const order: string[] = [];
      for (const n of explicitNames) if (overrides.has(n)) order.push(n);
      order.push(...fromMultiPoint);
      for (const n of explicitNames) if (!overrides.has(n)) order.push(n);
      this.setList(ep.name, order.map((n) => this.pluginsByName.get(n)!));
    }
  }

  private setScoreWeights(refs: PluginRef[]): void {
    const weights = new Map<string, number>();
    for (const r of refs) if (!weights.has(r.name)) weights.set(r.name, Math.max(r.weight ?? 0, 1));
    let total = 0;
    for (const p of this.scorePlugins) {
      const w = weights.get(p.name) ?? 1;
      this.scorePluginWeight.set(p.name, w);
      if (w * fw.MaxNodeScore > fw.MaxTotalScore - total) throw new FrameworkError('total score of Score plugins could overflow');
      total += w * fw.MaxNodeScore;
    }
  }

  // ---- Handle ----
  snapshotSharedLister(): fw.SharedLister {
    return this.deps.snapshot();
  }
  objects(): fw.ObjectLister {
    return this.deps.objects;
  }
  client(): fw.PluginClusterClient {
    return this.deps.client;
  }
  eventRecorder(): fw.EventRecorder {
    return this.deps.eventRecorder;
  }
  nominator(): fw.PodNominatorReader {
    return this.deps.nominator;
  }
  now(): number {
    return this.deps.clock.now();
  }
  random(): number {
    return this.deps.random();
  }
  getWaitingPod(uid: string): fw.WaitingPod | undefined {
    return this.waitingPods.get(uid);
  }
  iterateOverWaitingPods(fn: (wp: fw.WaitingPod) => void): void {
    for (const wp of [...this.waitingPods.values()]) fn(wp);
  }
  rejectWaitingPod(uid: string): boolean {
    const wp = this.waitingPods.get(uid);
    if (!wp) return false;
    wp.reject('', 'removed');
    return true;
  }

  /**
   * The cluster events each plugin registered, for the queue's requeueing. Only PreEnqueue,
   * PreFilter, Filter, Reserve and Permit plugins can reject a pod, so only theirs count; one of
   * those without eventsToRegister is woken by every event, as upstream's default extension does.
   */
  eventsToRegister(): Map<string, ClusterEventWithHint[]> {
    const out = new Map<string, ClusterEventWithHint[]>();
    for (const p of this.pluginsByName.values()) {
      if (!(fw.isPreEnqueuePlugin(p) || fw.isPreFilterPlugin(p) || fw.isFilterPlugin(p) || fw.isReservePlugin(p) || fw.isPermitPlugin(p))) continue;
      out.set(p.name, fw.isEnqueueExtensions(p) ? p.eventsToRegister() : [{ event: { resource: 'WildCard', actionType: ActionTypeAll } }]);
    }
    // Extenders register no events: a pod they rejected is retried on any (defaultEnqueueExtension).
    if (this.extenders().length > 0) out.set(ExtenderName, [{ event: { resource: 'WildCard', actionType: ActionTypeAll } }]);
    return out;
  }

  hasFilterPlugins(): boolean {
    return this.filterPlugins.length > 0;
  }
  hasPostFilterPlugins(): boolean {
    return this.postFilterPlugins.length > 0;
  }
  hasScorePlugins(): boolean {
    return this.scorePlugins.length > 0;
  }

  queueSortLess(): (a: fw.QueuedPodInfo, b: fw.QueuedPodInfo) => boolean {
    const p = this.queueSortPlugins[0]!;
    return (a, b) => p.less(a, b);
  }

  // ---- extension points ----

  runPreEnqueuePlugins(pod: Pod): Status | null {
    for (const p of this.preEnqueuePlugins) {
      const s = p.preEnqueue(pod);
      if (isSuccess(s)) continue;
      s!.withPlugin(p.name);
      if (s!.isRejected()) return s;
      return Status.error(`running PreEnqueue plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /**
   * Runs every PreFilter plugin and intersects their node subsets. UnschedulableAndUnresolvable
   * stops at once; Unschedulable lets the others run (preemption needs their state) and the last
   * one is returned; Skip marks the plugin's Filter as skipped.
   */
  runPreFilterPlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterRunResult {
    let nodeNames: Set<string> | null = null;
    const pluginsWithNodes: string[] = [];
    const skip = new Set<string>();
    state.skipFilterPlugins = skip;
    let returnStatus: Status | null = null;
    for (const p of this.preFilterPlugins) {
      const out = p.preFilter(state, pod, nodes);
      const s = out?.status ?? null;
      if (s && s.code === Code.Skip) {
        skip.add(p.name);
        continue;
      }
      if (!isSuccess(s)) {
        s!.withPlugin(p.name);
        if (s!.code === Code.UnschedulableAndUnresolvable) return { nodeNames: null, status: s, pluginsWithNodes: [] };
        if (s!.code === Code.Unschedulable) {
          returnStatus = s;
          continue;
        }
        return {
          nodeNames: null,
          status: Status.error(`running PreFilter plugin "${p.name}": ${s!.message()}`).withPlugin(p.name),
          pluginsWithNodes: [],
        };
      }
      const r = out?.result?.nodeNames;
      if (r) {
        if (!pluginsWithNodes.includes(p.name)) pluginsWithNodes.push(p.name);
        nodeNames = nodeNames === null ? new Set(r) : intersect(nodeNames, r);
        if (nodeNames.size === 0) {
          const sorted = [...pluginsWithNodes].sort();
          const msg = sorted.length === 1
            ? `node(s) didn't satisfy plugin ${sorted[0]}`
            : `node(s) didn't satisfy plugin(s) [${sorted.join(' ')}] simultaneously`;
          return { nodeNames, status: new Status(Code.UnschedulableAndUnresolvable, [msg]), pluginsWithNodes };
        }
      }
    }
    return { nodeNames, status: returnStatus, pluginsWithNodes };
  }

  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): Status | null {
    for (const p of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(p.name)) continue;
      const ext = p.preFilterExtensions?.();
      if (!ext) continue;
      const s = ext.addPod(state, podToSchedule, podToAdd, nodeInfo);
      if (!isSuccess(s)) return Status.error(`running AddPod on PreFilter plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | null {
    for (const p of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(p.name)) continue;
      const ext = p.preFilterExtensions?.();
      if (!ext) continue;
      const s = ext.removePod(state, podToSchedule, podToRemove, nodeInfo);
      if (!isSuccess(s)) return Status.error(`running RemovePod on PreFilter plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /** Runs Filter plugins in order and stops at the first rejection. */
  runFilterPlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const plugins = this.activeFilterPlugins(state);
    for (let i = 0; i < plugins.length; i++) {
      const p = plugins[i]!;
      const s = p.filter(state, pod, nodeInfo);
      if (s === null || s.code === Code.Success) continue;
      if (!s.isRejected()) return Status.error(`running "${p.name}" filter plugin: ${s.message()}`).withPlugin(p.name);
      return s.withPlugin(p.name);
    }
    return null;
  }

  /** The Filter plugins whose PreFilter did not Skip, worked out once per skip set (per attempt). */
  private activeFilterPlugins(state: CycleState): readonly fw.FilterPlugin[] {
    const skip = state.skipFilterPlugins;
    if (skip.size === 0) return this.filterPlugins;
    if (this.activeFiltersFor === skip) return this.activeFilters;
    this.activeFilters = this.filterPlugins.filter((p) => !skip.has(p.name));
    this.activeFiltersFor = skip;
    return this.activeFilters;
  }

  private activeFilters: readonly fw.FilterPlugin[] = [];
  private activeFiltersFor: ReadonlySet<string> | null = null;

  /**
   * Filters with nominated pods of equal or higher priority added first, then (if any were
   * added and the node passed) without them, so the pod fits either way.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const nominator = this.deps.nominator;
    if (nominator.hasNominatedPods !== undefined && !nominator.hasNominatedPods()) return this.runFilterPlugins(state, pod, nodeInfo);
    let status: Status | null = null;
    let podsAdded = false;
    for (let pass = 0; pass < 2; pass++) {
      let stateToUse = state;
      let nodeInfoToUse = nodeInfo;
      if (pass === 0) {
        const added = this.addNominatedPods(state, pod, nodeInfo);
        if (added instanceof Status) return added;
        if (added) {
          podsAdded = true;
          stateToUse = added.state;
          nodeInfoToUse = added.nodeInfo;
        }
      } else if (!podsAdded || !isSuccess(status)) {
        break;
      }
      status = this.runFilterPlugins(stateToUse, pod, nodeInfoToUse);
      if (!isSuccess(status) && !status!.isRejected()) return status;
    }
    return status;
  }

  private addNominatedPods(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): { state: CycleState; nodeInfo: NodeInfo } | Status | null {
    if (!nodeInfo.node) return null;
    const nominated = this.deps.nominator.nominatedPodsForNode(nodeInfo.name);
    if (nominated.length === 0) return null;
    let out: { state: CycleState; nodeInfo: NodeInfo } | null = null;
    for (const npi of nominated) {
      if (npi.priority < pod.priority || npi.uid === pod.uid) continue;
      out ??= { state: state.clone(), nodeInfo: nodeInfo.clone() };
      out.nodeInfo.addPod(npi);
      const s = this.runPreFilterExtensionAddPod(out.state, pod, npi, out.nodeInfo);
      if (!isSuccess(s)) return s;
    }
    return out;
  }

  runPostFilterPlugins(state: CycleState, pod: PodInfo, statuses: fw.NodeToStatusReader): { result: fw.PostFilterResult | null; status: Status } {
    const acc = new PostFilterAccumulator();
    for (const p of this.postFilterPlugins) {
      const done = acc.add(p.name, p.postFilter(state, pod, statuses));
      if (done !== null) return done;
    }
    return acc.finish();
  }

  /** runPostFilterPlugins when extenders are configured: plugins may wait for them. */
  async runPostFilterPluginsWithExtenders(state: CycleState, pod: PodInfo, statuses: fw.NodeToStatusReader): Promise<{ result: fw.PostFilterResult | null; status: Status }> {
    const acc = new PostFilterAccumulator();
    for (const p of this.postFilterPlugins) {
      const outcome = p.postFilterWithExtenders ? await p.postFilterWithExtenders(state, pod, statuses) : p.postFilter(state, pod, statuses);
      const done = acc.add(p.name, outcome);
      if (done !== null) return done;
    }
    return acc.finish();
  }

  extenders(): readonly Extender[] {
    return this.deps.extenders ?? [];
  }

  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null {
    const skip = new Set<string>();
    state.skipScorePlugins = skip;
    for (const p of this.preScorePlugins) {
      const s = p.preScore(state, pod, nodes);
      if (s && s.code === Code.Skip) {
        skip.add(p.name);
        continue;
      }
      if (!isSuccess(s)) return Status.error(`running PreScore plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /**
   * Score, NormalizeScore and weights for every node (RunScorePlugins), with each plugin's
   * weighted score per node when `breakdown` is true (explain reads them).
   */
  runScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], breakdown = true): NodePluginScores[] | Status {
    const n = nodes.length;
    const totals = new Float64Array(n);
    const perPlugin: { name: string; weighted: Float64Array }[] | null = breakdown ? [] : null;
    const s = this.scoreInto(state, pod, nodes, totals, perPlugin);
    if (s !== null) return s;
    const out: NodePluginScores[] = new Array(n);
    for (let i = 0; i < n; i++) {
      let scores: PluginScore[] = noScores;
      if (perPlugin) {
        scores = new Array(perPlugin.length);
        for (let j = 0; j < perPlugin.length; j++) scores[j] = { name: perPlugin[j]!.name, score: perPlugin[j]!.weighted[i]! };
      }
      out[i] = { name: nodes[i]!.name, scores, totalScore: totals[i]! };
    }
    return out;
  }

  /**
   * The hot path's form of runScorePlugins: only each node's weighted total, into `totals`
   * (zeroed first), with no per-node objects.
   */
  runScorePluginTotals(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], totals: Float64Array): Status | null {
    totals.fill(0, 0, nodes.length);
    return this.scoreInto(state, pod, nodes, totals, null);
  }

  private scoreInto(
    state: CycleState,
    pod: PodInfo,
    nodes: readonly NodeInfo[],
    totals: Float64Array,
    perPlugin: { name: string; weighted: Float64Array }[] | null,
  ): Status | null {
    const skip = state.skipScorePlugins;
    const n = nodes.length;
    // One list serves every plugin in turn (each is done with it before the next starts).
    // Each plugin writes every entry (score per node, or scoreNodes by contract): no re-zeroing.
    const list = this.scoreBuffer(nodes);
    const max = fw.MaxNodeScore;
    const min = fw.MinNodeScore;
    for (const p of this.scorePlugins) {
      if (skip.size > 0 && skip.has(p.name)) continue;
      if (p.scoreNodes !== undefined) {
        const r = p.scoreNodes(state, pod, nodes, list);
        if (r !== null && r.code !== Code.Success) return Status.error(`running Score plugins: plugin "${p.name}" failed with: ${r.message()}`).withPlugin(p.name);
      } else {
        for (let i = 0; i < n; i++) {
          const r = p.score(state, pod, nodes[i]!);
          if (typeof r !== 'number') return Status.error(`running Score plugins: plugin "${p.name}" failed with: ${r.message()}`).withPlugin(p.name);
          list[i]!.score = r;
        }
      }
      const ext = p.scoreExtensions?.();
      if (ext) {
        const s = ext.normalizeScore(state, pod, list);
        if (!isSuccess(s)) return Status.error(`running Normalize on Score plugins: plugin "${p.name}" failed with: ${s!.message()}`).withPlugin(p.name);
      }
      const weight = this.scorePluginWeight.get(p.name)!;
      const weighted = perPlugin ? new Float64Array(n) : null;
      for (let i = 0; i < n; i++) {
        const s = list[i]!.score;
        if (s > max || s < min) {
          return Status.error(`applying score defaultWeights on Score plugins: plugin "${p.name}" returns an invalid score ${s}, it should in the range of [${fw.MinNodeScore}, ${fw.MaxNodeScore}] after normalizing`).withPlugin(p.name);
        }
        totals[i]! += s * weight;
        if (weighted) weighted[i] = s * weight;
      }
      if (perPlugin) perPlugin.push({ name: p.name, weighted: weighted! });
    }
    return null;
  }

  private readonly scoreList: fw.NodeScore[] = [];

  /** The NodeScore list named after `nodes`, scores zeroed; reused between cycles. */
  private scoreBuffer(nodes: readonly NodeInfo[]): fw.NodeScore[] {
    const list = this.scoreList;
    const n = nodes.length;
    for (let i = list.length; i < n; i++) list.push({ name: '', score: 0 });
    list.length = n;
    for (let i = 0; i < n; i++) {
      const e = list[i]!;
      e.name = nodes[i]!.name;
      e.score = 0;
    }
    return list;
  }

  runReservePluginsReserve(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    for (const p of this.reservePlugins) {
      const s = p.reserve(state, pod, nodeName);
      if (isSuccess(s)) continue;
      if (s!.isRejected()) return s!.withPlugin(p.name);
      return Status.error(`running Reserve plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /** Unreserve runs in reverse order of Reserve. */
  runReservePluginsUnreserve(state: CycleState, pod: PodInfo, nodeName: string): void {
    for (let i = this.reservePlugins.length - 1; i >= 0; i--) this.reservePlugins[i]!.unreserve(state, pod, nodeName);
  }

  runPermitPlugins(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const waits = new Map<string, number>();
    for (const p of this.permitPlugins) {
      const { status, timeoutMs } = p.permit(state, pod, nodeName);
      if (isSuccess(status)) continue;
      if (status!.isRejected()) return status!.withPlugin(p.name);
      if (status!.code === Code.Wait) {
        // Upstream caps a permit wait at 15 minutes.
        waits.set(p.name, Math.min(timeoutMs, 15 * 60 * 1000));
        continue;
      }
      return Status.error(`running Permit plugin "${p.name}": ${status!.message()}`).withPlugin(p.name);
    }
    if (waits.size > 0) {
      this.waitingPods.set(pod.uid, new WaitingPodImpl(pod.pod, waits, this.deps.clock));
      return new Status(Code.Wait, [`one or more plugins asked to wait and no plugin rejected pod "${pod.name}"`]);
    }
    return null;
  }

  async waitOnPermit(pod: PodInfo): Promise<Status | null> {
    const wp = this.waitingPods.get(pod.uid);
    if (!wp) return null;
    const s = await wp.result;
    this.waitingPods.delete(pod.uid);
    if (isSuccess(s)) return null;
    if (s!.isRejected()) return s;
    return Status.error(`waiting on permit for pod: ${s!.message()}`).withPlugin(s!.plugin);
  }

  async runPreBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status | null> {
    for (const p of this.preBindPlugins) {
      const s = await p.preBind(state, pod, nodeName);
      if (isSuccess(s)) continue;
      if (s!.isRejected()) return s!.withPlugin(p.name);
      return Status.error(`running PreBind plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  async runBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status> {
    let last: Status | null = null;
    for (const p of this.bindPlugins) {
      const s = await p.bind(state, pod, nodeName);
      if (s && s.code === Code.Skip) {
        last = s;
        continue;
      }
      if (!isSuccess(s)) {
        if (s!.isRejected()) return s!.withPlugin(p.name);
        return Status.error(`running Bind plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
      }
      return new Status(Code.Success).withPlugin(p.name);
    }
    return last ?? new Status(Code.Skip);
  }

  runPostBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): void {
    for (const p of this.postBindPlugins) p.postBind(state, pod, nodeName);
  }
}

function intersect(a: Set<string>, b: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) if (b.has(x)) out.add(x);
  return out;
}

/**
 * Folds PostFilter plugins' outcomes as upstream's RunPostFilterPlugins: the first success or
 * unresolvable verdict ends the run; an error ends it as an error; rejections accumulate.
 */
class PostFilterAccumulator {
  private readonly reasons: string[] = [];
  private rejector: string | null = null;
  private lastResult: fw.PostFilterResult | null = null;

  /** The final outcome when this plugin's ends the run, else null. */
  add(plugin: string, { result, status }: fw.PostFilterOutcome): { result: fw.PostFilterResult | null; status: Status } | null {
    if (isSuccess(status)) return { result, status: status ?? new Status(Code.Success) };
    if (status!.code === Code.UnschedulableAndUnresolvable) return { result, status: status!.withPlugin(plugin) };
    if (!status!.isRejected()) return { result: null, status: Status.error(status!.asError()).withPlugin(plugin) };
    if (result) this.lastResult = result;
    this.reasons.push(...status!.reasons);
    this.rejector ??= plugin;
    return null;
  }

  finish(): { result: fw.PostFilterResult | null; status: Status } {
    return { result: this.lastResult, status: new Status(Code.Unschedulable, this.reasons).withPlugin(this.rejector ?? '') };
  }
}
