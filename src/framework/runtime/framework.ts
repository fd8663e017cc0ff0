// The framework runtime for one profile (runtime/framework.go's frameworkImpl): built from a
// profile's plugins (profile_plugins.ts), it is the Handle they receive (handle.ts) and runs each
// extension point. Every plugin call and every point's duration goes through PluginCalls
// (plugin_calls.ts, with call_specs.ts): timed with a metrics recorder (plugin calls in sampled
// cycles, CycleState.recordPluginMetrics), and a plugin that throws ends its extension point
// with an error status naming it, as a returned error would.
import type { Pod } from '../../api/types.js';
import type { SchedulingGroup } from '../../api/scheduling.js';
import type { CycleState } from '../cycle_state.js';
import type { ClusterEventWithHint } from '../events.js';
import { unrolledWildCardEvents } from './default_enqueue_events.js';
import { ExtenderName } from '../extender.js';
import * as fw from '../interfaces.js';
import type { MaybePromise } from '../../util/maybe_promise.js';
import type { ExtensionPointLabel } from '../metrics_recorder.js';
import type { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import type { RowResourceCheck, RowScoring } from '../row_pass.js';
import { Code, Status, codeName, isSuccess } from '../status.js';
import { OpportunisticBatch, type BatchHandle } from './batch.js';
import { normalizeScores, runRawScorePlugins } from './batch_scores.js';
import * as calls from './call_specs.js';
import { FrameworkHandle, type FrameworkDeps } from './handle.js';
import { runPlacementGeneratePlugins, runPlacementScorePlugins, type GeneratedPlacements, type PlacementTotals } from './placement_runners.js';
import { PluginCalls, statusName, type CallSpec } from './plugin_calls.js';
import { PluginNameSets } from './plugin_name_sets.js';
import { PodSigner } from './pod_signer.js';
import { buildProfilePlugins, type ProfileConfig } from './profile_plugins.js';
import { WaitingPodImpl } from './waiting_pods.js';

/** Result of running PreFilter over all plugins. */
export interface PreFilterRunResult {
  nodeNames: ReadonlySet<string> | null;
  status: Status | null;
  /** Plugins that returned a node subset (for messages and requeueing). */
  pluginsWithNodes: string[];
}

/** What PostFilter ends with: the nominated node, if any, and the verdict. */
export interface PostFilterRunResult {
  result: fw.PostFilterResult | null;
  status: Status;
}

export interface PluginScore {
  readonly name: string;
  /** Weighted. */
  readonly score: number;
  /** In a diagnosed cycle (and always for extenders): the Score answer, the normalized score and the weight. */
  readonly raw?: number;
  readonly normalized?: number;
  readonly weight?: number;
}

/** Weighted scores of one node (framework.NodePluginScores). */
export interface NodePluginScores {
  readonly name: string;
  readonly scores: PluginScore[];
  totalScore: number;
}

/**
 * One plugin's weighted score per node, index-aligned with the scored nodes (explain reads them);
 * in a diagnosed cycle also its Score answer (raw) and the NormalizeScore result.
 */
export interface PluginScoreColumn {
  readonly name: string;
  readonly weight: number;
  readonly weighted: Float64Array;
  readonly raw: Float64Array | null;
  readonly normalized: Float64Array | null;
}

const itself = (s: Status | null): Status | null => s;
/** PreBindPreFlight's answer when every plugin skipped (shared: nothing changes it). */
const allPreBindSkipped = Object.freeze(new Status(Code.Skip));
/** PreFilter runs so far, of every framework (CycleState.preFilterRun): a run's number is its own. */
let preFilterRuns = 0;

export class Framework extends FrameworkHandle {
  readonly percentageOfNodesToScore: number | null;
  /** Plugins configured but not built yet (reported at start-up). */
  readonly unavailablePlugins: string[];

  readonly pluginsByName: Map<string, fw.Plugin>;
  readonly preEnqueuePlugins: readonly fw.PreEnqueuePlugin[];
  readonly queueSortPlugins: readonly fw.QueueSortPlugin[];
  readonly preFilterPlugins: readonly fw.PreFilterPlugin[];
  readonly filterPlugins: readonly fw.FilterPlugin[];
  readonly postFilterPlugins: readonly fw.PostFilterPlugin[];
  readonly preScorePlugins: readonly fw.PreScorePlugin[];
  readonly scorePlugins: readonly fw.ScorePlugin[];
  readonly reservePlugins: readonly fw.ReservePlugin[];
  readonly permitPlugins: readonly fw.PermitPlugin[];
  readonly preBindPlugins: readonly fw.PreBindPlugin[];
  readonly bindPlugins: readonly fw.BindPlugin[];
  readonly postBindPlugins: readonly fw.PostBindPlugin[];
  /** TopologyAwareWorkloadScheduling: the first one generates a pod group's candidate placements. */
  readonly placementGeneratePlugins: readonly fw.PlacementGeneratePlugin[];
  readonly placementScorePlugins: readonly fw.PlacementScorePlugin[];
  readonly placementScorePluginWeight: ReadonlyMap<string, number>;
  readonly scorePluginWeight: ReadonlyMap<string, number>;
  /** The Reserve plugins in the reverse order, Unreserve's. */
  private readonly unreservePlugins: readonly fw.ReservePlugin[];
  /** Every plugin call and extension point goes through here (timing, metrics, throws). */
  readonly calls: PluginCalls;
  /** Monotonic seconds, for the durations the recorder receives. */
  readonly monotonicSeconds: () => number;
  /** Signs pods for opportunistic batching; null with the gate off. */
  readonly podSigner: PodSigner | null;
  /** The ranking kept between cycles (OpportunisticBatching); null with the gate off. */
  readonly batch: OpportunisticBatch | null;
  // The plugin name sets the cycle state gets (skipped, parallel), one per combination.
  private readonly skippedFilterPlugins: PluginNameSets;
  private readonly skippedScorePlugins: PluginNameSets;
  private readonly skippedPreBindPlugins: PluginNameSets;
  private readonly parallelPreBindPlugins: PluginNameSets;

  constructor(profile: ProfileConfig, deps: FrameworkDeps) {
    super(profile.schedulerName, deps);
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore ?? null;
    this.calls = new PluginCalls(deps.metrics ?? null, this.profileName, deps.monotonicSeconds);
    this.monotonicSeconds = this.calls.monotonicSeconds;
    const built = buildProfilePlugins(profile, this, deps);
    this.pluginsByName = built.byName;
    this.unavailablePlugins = built.unavailable;
    const lists = built.lists;
    this.preEnqueuePlugins = lists.preEnqueue;
    this.queueSortPlugins = lists.queueSort;
    this.preFilterPlugins = lists.preFilter;
    this.filterPlugins = lists.filter;
    this.postFilterPlugins = lists.postFilter;
    this.preScorePlugins = lists.preScore;
    this.scorePlugins = lists.score;
    this.reservePlugins = lists.reserve;
    this.permitPlugins = lists.permit;
    this.preBindPlugins = lists.preBind;
    this.bindPlugins = lists.bind;
    this.postBindPlugins = lists.postBind;
    this.placementGeneratePlugins = lists.placementGenerate;
    this.placementScorePlugins = lists.placementScore;
    this.unreservePlugins = [...this.reservePlugins].reverse();
    const names = (plugins: readonly fw.Plugin[]): string[] => plugins.map((p) => p.name);
    this.skippedFilterPlugins = new PluginNameSets(names(this.preFilterPlugins));
    this.skippedScorePlugins = new PluginNameSets(names(this.preScorePlugins));
    this.skippedPreBindPlugins = new PluginNameSets(names(this.preBindPlugins));
    this.parallelPreBindPlugins = new PluginNameSets(names(this.preBindPlugins));
    this.scorePluginWeight = built.scoreWeights;
    this.placementScorePluginWeight = built.placementScoreWeights;
    const batching = deps.opportunisticBatching ?? false;
    this.podSigner = batching ? new PodSigner(this, (deps.extenders?.length ?? 0) > 0, this.calls, deps.log) : null;
    this.batch = batching ? new OpportunisticBatch(batchHandle(this, deps), deps.features.enableGenericWorkload) : null;
  }

  /** The plugins that judge a pod group's partial placement. */
  placementFeasiblePlugins(): fw.PlacementFeasiblePlugin[] {
    return [...this.pluginsByName.values()].filter(fw.isPlacementFeasiblePlugin);
  }

  /**
   * The cluster events each plugin registered, for the queue's requeueing. Only PreEnqueue,
   * PreFilter, Filter, Reserve and Permit plugins can reject a pod, so only theirs count; one of
   * those without eventsToRegister gets upstream's default extension's events (unrolledWildCardEvents).
   */
  eventsToRegister(): Map<string, ClusterEventWithHint[]> {
    const out = new Map<string, ClusterEventWithHint[]>();
    for (const p of this.pluginsByName.values()) {
      if (!(fw.isPreEnqueuePlugin(p) || fw.isPreFilterPlugin(p) || fw.isFilterPlugin(p) || fw.isReservePlugin(p) || fw.isPermitPlugin(p))) continue;
      out.set(p.name, fw.isEnqueueExtensions(p) ? p.eventsToRegister() : unrolledWildCardEvents(this.features.enableGenericWorkload));
    }
    // Extenders register no events: a pod they rejected is retried as by such a plugin (defaultEnqueueExtension).
    if (this.extenders().length > 0) out.set(ExtenderName, unrolledWildCardEvents(this.features.enableGenericWorkload));
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

  /** Records an extension point's duration since `start` (the scheduler times the Filter walk itself). */
  observeExtensionPoint(point: ExtensionPointLabel, s: Status | null | undefined, start: number): void {
    this.calls.observeExtensionPoint(point, s, start);
  }

  // ---- the pod's scheduling cycle ----

  runPreEnqueuePlugins(pod: Pod): Status | null {
    for (const p of this.preEnqueuePlugins) {
      const s = this.calls.call(calls.preEnqueueCall, p, false, pod, undefined, undefined);
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
    const start = this.calls.pointStart();
    const r = this.preFilter(state, pod, nodes);
    this.calls.observeExtensionPoint('PreFilter', r.status, start);
    return r;
  }

  private preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterRunResult {
    const skip = this.skippedFilterPlugins;
    skip.begin();
    let nodeNames: Set<string> | null = null;
    const pluginsWithNodes: string[] = [];
    const timed = state.recordPluginMetrics;
    let returnStatus: Status | null = null;
    const plugins = this.preFilterPlugins;
    for (let i = 0; i < plugins.length; i++) {
      const p = plugins[i]!;
      const out = this.calls.call(calls.preFilterCall, p, timed, state, pod, nodes);
      const s = out?.status ?? null;
      if (s && s.code === Code.Skip) {
        skip.add(i);
        continue;
      }
      if (!isSuccess(s)) {
        s!.withPlugin(p.name);
        if (s!.code === Code.UnschedulableAndUnresolvable) return this.endPreFilter(state, { nodeNames: null, status: s, pluginsWithNodes: [] });
        if (s!.code === Code.Unschedulable) {
          returnStatus = s;
          continue;
        }
        return this.endPreFilter(state, {
          nodeNames: null,
          status: Status.error(`running PreFilter plugin "${p.name}": ${s!.message()}`).withPlugin(p.name),
          pluginsWithNodes: [],
        });
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
          return this.endPreFilter(state, { nodeNames, status: new Status(Code.UnschedulableAndUnresolvable, [msg]), pluginsWithNodes });
        }
      }
    }
    const r = this.endPreFilter(state, { nodeNames, status: returnStatus, pluginsWithNodes });
    this.planFilterWalk(state, pod);
    return r;
  }

  /** As upstream, the state gets the skipped plugins once PreFilter is over, whatever it returns. */
  private endPreFilter(state: CycleState, r: PreFilterRunResult): PreFilterRunResult {
    state.skipFilterPlugins = this.skippedFilterPlugins.end();
    state.preFilterRun = ++preFilterRuns;
    return r;
  }

  /**
   * Works out, once per attempt, the Filter plugins that may reject this pod on some node: those
   * whose PreFilter did not Skip, less those that say they pass it everywhere (passesEveryNode).
   * The plain per-node loop runs only these; lists are kept per combination, so a pod allocates none.
   */
  private planFilterWalk(state: CycleState, pod: PodInfo): void {
    const all = this.filterPlugins;
    const skip = state.skipFilterPlugins;
    let walk: readonly fw.FilterPlugin[] | undefined;
    if (all.length > 31) {
      // Past a bit per plugin: the walk is every active plugin.
      walk = this.activeFilterPlugins(state);
    } else {
      let mask = 0;
      for (let i = 0; i < all.length; i++) {
        const p = all[i]!;
        if (skip.has(p.name)) continue;
        if (p.passesEveryNode !== undefined && this.calls.call(calls.passesEveryNodeCall, p, false, state, pod, undefined)) continue;
        mask |= 1 << i;
      }
      walk = this.filterWalks.get(mask);
      if (walk === undefined) {
        walk = all.filter((_, i) => (mask & (1 << i)) !== 0);
        this.filterWalks.set(mask, walk);
      }
    }
    this.filterWalk = walk;
    this.filterWalkRun = state.preFilterRun;
    this.filterWalkPod = pod;
    let byRows = true;
    for (let i = 0; i < walk.length; i++) if (walk[i]!.filterRows === undefined) byRows = false;
    this.filterWalkByRows = byRows;
  }

  /**
   * The attempt's per-node walk when every plugin in it has filterRows and the cycle records
   * neither diagnosis nor plugin metrics (the plain loop's conditions); else null.
   */
  rowFilterWalk(state: CycleState, pod: PodInfo): readonly fw.FilterPlugin[] | null {
    if (!this.filterWalkByRows || state.diagnosis !== null || state.recordPluginMetrics) return null;
    return state.preFilterRun === this.filterWalkRun && pod === this.filterWalkPod ? this.filterWalk : null;
  }

  /**
   * The row pass's work for a row walk (`walk`, from rowFilterWalk): its one plugin's check as data
   * and every Score plugin's row scoring of the pod; null when the walk's check is not one.
   */
  rowPassOf(state: CycleState, pod: PodInfo, walk: readonly fw.FilterPlugin[]): { check: RowResourceCheck; scorings: RowScoring[] } | null {
    if (walk.length !== 1 || walk[0]!.rowCheck === undefined) return null;
    const check = walk[0]!.rowCheck(state, pod);
    if (check === null) return null;
    const scorings: RowScoring[] = [];
    for (const p of this.scorePlugins) {
      if (p.rowScoring === undefined) continue;
      const scoring = p.rowScoring(state, pod);
      if (scoring !== null) scorings.push(scoring);
    }
    return { check, scorings };
  }

  // The last attempt's walk, for its PreFilter run (numbered per run, shared by the state's
  // clones) and its pod; any other state or pod runs every active plugin.
  private filterWalk: readonly fw.FilterPlugin[] = [];
  private filterWalkRun = 0;
  private filterWalkPod: PodInfo | null = null;
  private filterWalkByRows = false;
  private readonly filterWalks = new Map<number, readonly fw.FilterPlugin[]>();

  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): Status | null {
    return this.runPreFilterExtension(calls.addPodCall, 'AddPod', state, podToSchedule, podToAdd, nodeInfo);
  }

  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | null {
    return this.runPreFilterExtension(calls.removePodCall, 'RemovePod', state, podToSchedule, podToRemove, nodeInfo);
  }

  private runPreFilterExtension(spec: typeof calls.addPodCall, op: string, state: CycleState, podToSchedule: PodInfo, other: PodInfo, nodeInfo: NodeInfo): Status | null {
    const timed = state.recordPluginMetrics;
    for (const p of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(p.name)) continue;
      const ext = this.calls.call(calls.preFilterExtensionsOf, p, false, undefined, undefined, undefined);
      if (ext === null) continue;
      const s = ext instanceof Status ? ext : this.calls.call(spec, p, timed, state, podToSchedule, other, nodeInfo);
      if (!isSuccess(s)) return Status.error(`running ${op} on PreFilter plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /**
   * Runs Filter plugins in order and stops at the first rejection; a diagnosed cycle runs them
   * all (the verdict is still the first rejection).
   */
  runFilterPlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    if (state.diagnosis !== null) return this.runAllFilterPlugins(state, pod, nodeInfo, state.diagnosis.filterVerdicts);
    if (!state.recordPluginMetrics) {
      // Per node: a plain loop over a list worked out once per attempt, nothing allocated. A
      // NodeInfo without its Node meets every active plugin (some reject it for that alone).
      const plugins = state.preFilterRun === this.filterWalkRun && pod === this.filterWalkPod && nodeInfo.node !== null
        ? this.filterWalk
        : this.activeFilterPlugins(state);
      // The untimed loop here rather than behind another call: one call less per node. One try
      // around the whole loop: a try per call cost SchedulingSecrets about 5% of its CPU per pod.
      let i = 0;
      try {
        for (; i < plugins.length; i++) {
          const s = plugins[i]!.filter(state, pod, nodeInfo);
          if (s === null || s.code === Code.Success) continue;
          return filterRejection(plugins[i]!.name, s);
        }
      } catch (err) {
        const s = calls.filterCall.thrown(Status.fromThrown(err), plugins[i]!);
        return s === null ? null : filterRejection(plugins[i]!.name, s);
      }
      return null;
    }
    const plugins = this.activeFilterPlugins(state);
    for (let i = 0; i < plugins.length; i++) {
      const p = plugins[i]!;
      const s = this.calls.call(calls.filterCall, p, true, state, pod, nodeInfo);
      if (s === null || s.code === Code.Success) continue;
      return filterRejection(p.name, s);
    }
    return null;
  }

  /**
   * Every Filter plugin past the first rejection, for diagnosis: each rejection goes into
   * `verdicts` (emptied first). The answer is what the plain walk answers: the first rejection,
   * or an error met before any rejection; an error after one is only recorded.
   */
  private runAllFilterPlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo, verdicts: Status[]): Status | null {
    verdicts.length = 0;
    const timed = state.recordPluginMetrics;
    // Past the first rejection the plain walk would have stopped: those plugins run on a copy, so
    // what they record (a claim unavailable here, for DynamicResources' PostFilter) changes nothing.
    let runState = state;
    for (const p of this.activeFilterPlugins(state)) {
      if (verdicts.length === 1 && runState === state) runState = state.diagnosticClone();
      const r = this.calls.call(calls.filterCall, p, timed, runState, pod, nodeInfo);
      if (r === null || r.code === Code.Success) continue;
      const s = filterRejection(p.name, r);
      if (verdicts.length === 0 && !s.isRejected()) return s;
      verdicts.push(s);
    }
    return verdicts.length > 0 ? verdicts[0]! : null;
  }

  /** The Filter plugins a cycle runs: those whose PreFilter did not Skip, in order. */
  filterPluginNames(state: CycleState): string[] {
    return this.activeFilterPlugins(state).map((p) => p.name);
  }

  /**
   * The Filter plugins whose PreFilter did not Skip, worked out once per skip set (per attempt).
   * Called per node: the closure lives in findActiveFilters, since a closure over `skip` here
   * would cost a context allocation on every call (a fifth of SchedulingBasic's scavenges).
   */
  private activeFilterPlugins(state: CycleState): readonly fw.FilterPlugin[] {
    const skip = state.skipFilterPlugins;
    if (skip.size === 0) return this.filterPlugins;
    if (this.activeFiltersFor !== skip) this.findActiveFilters(skip);
    return this.activeFilters;
  }

  private findActiveFilters(skip: ReadonlySet<string>): void {
    this.activeFilters = this.filterPlugins.filter((p) => !skip.has(p.name));
    this.activeFiltersFor = skip;
  }

  private activeFilters: readonly fw.FilterPlugin[] = [];
  private activeFiltersFor: ReadonlySet<string> | null = null;

  /**
   * Filters with nominated pods of equal or higher priority added first, then (if any were
   * added and the node passed) without them, so the pod fits either way.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    if (!this.mayHaveNominatedPods()) return this.runFilterPlugins(state, pod, nodeInfo);
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

  /**
   * False when no pod is nominated anywhere: runFilterPluginsWithNominatedPods is then
   * runFilterPlugins. Nothing nominates a pod during a synchronous Filter walk, so a walk asks once.
   */
  mayHaveNominatedPods(): boolean {
    const nominator = this.deps.nominator;
    return nominator.hasNominatedPods === undefined || nominator.hasNominatedPods();
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

  /**
   * Runs PostFilter plugins until one succeeds, errs or finds the pod unresolvable (see
   * PostFilterAccumulator). Synchronous unless a plugin answers with a promise (it waits for an
   * extender); the rest then runs once that answer is in.
   */
  runPostFilterPlugins(state: CycleState, pod: PodInfo, statuses: fw.NodeToStatusReader): MaybePromise<PostFilterRunResult> {
    return this.calls.pointAsync('PostFilter', () => this.postFilterFrom(0, new PostFilterAccumulator(), state, pod, statuses), (r) => r.status);
  }

  private postFilterFrom(first: number, acc: PostFilterAccumulator, state: CycleState, pod: PodInfo, statuses: fw.NodeToStatusReader): MaybePromise<PostFilterRunResult> {
    const timed = state.recordPluginMetrics;
    for (let i = first; i < this.postFilterPlugins.length; i++) {
      const p = this.postFilterPlugins[i]!;
      const out = this.calls.callAsync(calls.postFilterCall, p, timed, state, pod, statuses);
      if (out instanceof Promise) return out.then((o) => acc.add(p.name, o) ?? this.postFilterFrom(i + 1, acc, state, pod, statuses));
      const done = acc.add(p.name, out);
      if (done !== null) return done;
    }
    return acc.finish();
  }

  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null {
    const start = this.calls.pointStart();
    const s = this.preScore(state, pod, nodes);
    this.calls.observeExtensionPoint('PreScore', s, start);
    return s;
  }

  private preScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null {
    const skip = this.skippedScorePlugins;
    skip.begin();
    const timed = state.recordPluginMetrics;
    const plugins = this.preScorePlugins;
    let status: Status | null = null;
    for (let i = 0; i < plugins.length; i++) {
      const p = plugins[i]!;
      const s = this.calls.call(calls.preScoreCall, p, timed, state, pod, nodes);
      if (s && s.code === Code.Skip) {
        skip.add(i);
        continue;
      }
      if (!isSuccess(s)) {
        status = Status.error(`running PreScore plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
        break;
      }
    }
    // As upstream, set once PreScore is over, whatever it returns.
    state.skipScorePlugins = skip.end();
    return status;
  }

  /**
   * Score, NormalizeScore and weights for every node (RunScorePlugins): each node's weighted
   * total goes into `totals` (every entry written, index-aligned with `nodes`), and each plugin's
   * weighted scores into `breakdown` when given (explain); the hot path passes null and
   * allocates nothing per node.
   */
  runScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], totals: Float64Array, breakdown: PluginScoreColumn[] | null): Status | null {
    const start = this.calls.pointStart();
    const s = this.score(state, pod, nodes, totals, breakdown);
    this.calls.observeExtensionPoint('Score', s, start);
    return s;
  }

  private score(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], totals: Float64Array, breakdown: PluginScoreColumn[] | null): Status | null {
    const skip = state.skipScorePlugins;
    const n = nodes.length;
    // Each plugin's scores land in one column of numbers; the NodeScore list is built only for
    // a plugin that needs it (no scoreNodesInto, or a NormalizeScore).
    this.scoreListFor = null;
    const column = this.scoreColumnOf(n);
    const diagnosed = breakdown !== null && (state.diagnosis !== null || state.recordRawScores);
    // Plugin metrics and recorded scores need every plugin to run; otherwise a plugin that knows
    // its score is the same on every node is left out and that score added to every total.
    const shortcut = breakdown === null && !state.recordPluginMetrics;
    // The totals are written by the first plugin scoring node by node, starting from the points
    // of the uniform plugins before it (`pending`, added in the same order as one by one).
    let pending = 0;
    let written = false;
    for (const p of this.scorePlugins) {
      if (skip.size > 0 && skip.has(p.name)) continue;
      if (shortcut && p.uniformScore !== undefined) {
        const uniform = this.uniformScoreOf(p, state, pod, nodes);
        if (uniform instanceof Status) return uniform;
        if (uniform !== null) {
          const points = uniform * this.scorePluginWeight.get(p.name)!;
          if (!written) pending += points;
          else if (points !== 0) for (let i = 0; i < n; i++) totals[i]! += points;
          continue;
        }
      }
      const weight = this.scorePluginWeight.get(p.name)!;
      if (shortcut && p.addScoresOnto !== undefined && this.calls.call(calls.scoreExtensionsOf, p, false, undefined, undefined, undefined) === null) {
        // The scores straight onto the totals: no column to fill and read again.
        const onto = this.onto;
        onto.weight = weight;
        onto.base = written ? null : pending;
        onto.totals = totals;
        const r = this.calls.call(calls.addScoresOntoCall, p, false, state, pod, nodes, onto);
        if (r === true) {
          written = true;
          continue;
        }
        if (r instanceof Status) return scoreFailed(p.name, r);
        if (typeof r === 'number') return invalidScore(p.name, r);
      }
      const raw = diagnosed ? new Float64Array(n) : null;
      const failed = this.scoreWithPlugin(p, state, pod, nodes, column, raw);
      if (failed !== null) return failed;
      const bad = written ? addWeighted(column, n, weight, totals) : setWeighted(column, n, weight, pending, totals);
      written = true;
      if (bad >= 0) return invalidScore(p.name, column[bad]!);
      if (breakdown) {
        const weighted = new Float64Array(n);
        for (let i = 0; i < n; i++) weighted[i] = column[i]! * weight;
        breakdown.push({ name: p.name, weight, weighted, raw, normalized: diagnosed ? column.slice(0, n) : null });
      }
    }
    if (!written) totals.fill(pending, 0, n);
    return null;
  }

  /** A plugin's uniformScore, checked as Score's results are; an error as Score's would be. */
  private uniformScoreOf(p: fw.ScorePlugin, state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): number | null | Status {
    const u = this.calls.call(calls.uniformScoreCall, p, false, state, pod, nodes);
    if (u instanceof Status) return scoreFailed(p.name, u);
    if (u !== null && (u > fw.MaxNodeScore || u < fw.MinNodeScore)) return invalidScore(p.name, u);
    return u;
  }

  /**
   * One plugin's Score (batch when it has scoreNodesInto or scoreNodes) and NormalizeScore into
   * `column`, the scores before normalizing copied into `raw` when given; the error, if any.
   */
  private scoreWithPlugin(p: fw.ScorePlugin, state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], column: Float64Array, raw: Float64Array | null): Status | null {
    const timed = state.recordPluginMetrics;
    const n = nodes.length;
    let list: fw.NodeScore[] | null = null;
    if (p.scoreNodesInto !== undefined) {
      const r = this.calls.call(calls.scoreNodesIntoCall, p, timed, state, pod, nodes, column);
      if (r !== null && r.code !== Code.Success) return scoreFailed(p.name, r);
    } else {
      list = this.scoreList(nodes);
      if (p.scoreNodes !== undefined) {
        const r = this.calls.call(calls.scoreNodesCall, p, timed, state, pod, nodes, list);
        if (r !== null && r.code !== Code.Success) return scoreFailed(p.name, r);
      } else {
        for (let i = 0; i < n; i++) {
          const r = this.calls.callScore(calls.scoreCall, p, timed, state, pod, nodes[i]!);
          if (typeof r !== 'number') return scoreFailed(p.name, r);
          list[i]!.score = r;
        }
      }
    }
    if (raw !== null) for (let i = 0; i < n; i++) raw[i] = list === null ? column[i]! : list[i]!.score;
    const ext = this.calls.call(calls.scoreExtensionsOf, p, false, undefined, undefined, undefined);
    if (ext !== null) {
      if (list === null) {
        list = this.scoreList(nodes);
        for (let i = 0; i < n; i++) list[i]!.score = column[i]!;
      }
      const s = ext instanceof Status ? ext : this.calls.call(calls.normalizeScoreCall, p, timed, ext, state, pod, list);
      if (!isSuccess(s)) return Status.error(`running Normalize on Score plugins: plugin "${p.name}" failed with: ${s!.message()}`).withPlugin(p.name);
    }
    if (list !== null) for (let i = 0; i < n; i++) column[i] = list[i]!.score;
    return null;
  }

  private scoreColumn = new Float64Array(64);
  /** addScoresOnto's argument, reused between plugins and cycles. */
  private readonly onto: { weight: number; base: number | null; totals: Float64Array } = { weight: 0, base: null, totals: new Float64Array(0) };

  /** The score column, with room for `n` nodes; reused between cycles. */
  private scoreColumnOf(n: number): Float64Array {
    if (this.scoreColumn.length < n) this.scoreColumn = new Float64Array(Math.max(n, this.scoreColumn.length * 2));
    return this.scoreColumn;
  }

  private readonly scoreListEntries: fw.NodeScore[] = [];
  /** The nodes scoreListEntries is named after in this cycle (null: not built yet). */
  private scoreListFor: readonly NodeInfo[] | null = null;

  /**
   * The NodeScore list named after `nodes`, built once per cycle (each plugin writes every entry
   * before reading it, so no re-zeroing between plugins); reused between cycles.
   */
  private scoreList(nodes: readonly NodeInfo[]): fw.NodeScore[] {
    const list = this.scoreListEntries;
    if (this.scoreListFor === nodes) return list;
    const n = nodes.length;
    for (let i = list.length; i < n; i++) list.push({ name: '', score: 0 });
    list.length = n;
    for (let i = 0; i < n; i++) {
      const e = list[i]!;
      e.name = nodes[i]!.name;
      e.score = 0;
    }
    this.scoreListFor = nodes;
    return list;
  }

  // ---- the binding cycle ----

  runReservePluginsReserve(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const start = this.calls.pointStart();
    const s = this.reserve(state, pod, nodeName);
    this.calls.observeExtensionPoint('Reserve', s, start);
    return s;
  }

  private reserve(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const timed = state.recordPluginMetrics;
    for (const p of this.reservePlugins) {
      const s = this.calls.call(calls.reserveCall, p, timed, state, pod, nodeName);
      if (isSuccess(s)) continue;
      if (s!.isRejected()) return s!.withPlugin(p.name);
      return Status.error(`running Reserve plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /** Unreserve runs in reverse order of Reserve. */
  runReservePluginsUnreserve(state: CycleState, pod: PodInfo, nodeName: string): void {
    this.calls.point('Unreserve', () => this.runInformational(calls.unreserveCall, this.unreservePlugins, state, pod, nodeName), () => null);
  }

  runPermitPlugins(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const start = this.calls.pointStart();
    const s = this.permit(state, pod, nodeName);
    this.calls.observeExtensionPoint('Permit', s, start);
    return s;
  }

  private permit(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const waits = new Map<string, number>();
    const timed = state.recordPluginMetrics;
    for (const p of this.permitPlugins) {
      const { status, timeoutMs } = this.calls.call(calls.permitCall, p, timed, state, pod, nodeName);
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
    const recorder = this.metricsRecorder();
    const start = recorder === null ? 0 : this.monotonicSeconds();
    const s = await wp.result;
    recorder?.observePermitWaitDuration(statusName(s), this.monotonicSeconds() - start);
    this.waitingPods.delete(pod.uid);
    if (isSuccess(s)) return null;
    if (s!.isRejected()) return s;
    return Status.error(`waiting on permit for pod: ${s!.message()}`).withPlugin(s!.plugin);
  }

  /**
   * The PreBind plugins' pre-flights (RunPreBindPreFlights): null (Success) when one or more has
   * work, Skip when none has, else an Error. Notes in the state which plugins to skip and which
   * may run in parallel.
   */
  runPreBindPreFlights(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const start = this.calls.pointStart();
    const s = this.preBindPreFlights(state, pod, nodeName);
    this.calls.observeExtensionPoint('PreBindPreFlight', s, start);
    return s;
  }

  private preBindPreFlights(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const skip = this.skippedPreBindPlugins;
    const parallel = this.parallelPreBindPlugins;
    skip.begin();
    parallel.begin();
    const timed = state.recordPluginMetrics;
    let status: Status | null = allPreBindSkipped;
    const plugins = this.preBindPlugins;
    for (let i = 0; i < plugins.length; i++) {
      const p = plugins[i]!;
      const out = this.calls.call(calls.preBindPreFlightCall, p, timed, state, pod, nodeName);
      if (out.result?.allowParallel) parallel.add(i);
      const s = out.status;
      if (s === null || s.code === Code.Success) status = null;
      else if (s.code === Code.Skip) skip.add(i);
      else if (s.code === Code.Error) return Status.error(`running PreBindPreFlight "${p.name}": ${s.message()}`).withPlugin(p.name);
      else return Status.error(`PreBindPreFlight ${p.name} returned "${codeName(s.code)}", which is unsupported. It is supposed to return Success, Skip, or Error status`).withPlugin(p.name);
    }
    state.skipPreBindPlugins = skip.end();
    state.parallelPreBindPlugins = parallel.end();
    return status;
  }

  async runPreBindPlugins(state: CycleState, pod: PodInfo, nodeName: string, signal?: AbortSignal): Promise<Status | null> {
    return this.calls.pointAsync('PreBind', () => this.preBind(state, pod, nodeName, signal), itself);
  }

  /**
   * Runs the PreBind plugins not skipped by their pre-flight, in order; consecutive plugins that
   * allow it run at the same time, and then the first failure in plugin order is reported.
   */
  private async preBind(state: CycleState, pod: PodInfo, nodeName: string, signal: AbortSignal | undefined): Promise<Status | null> {
    const skip = state.skipPreBindPlugins;
    const parallel = state.parallelPreBindPlugins;
    const plugins = this.preBindPlugins;
    for (let i = 0; i < plugins.length; ) {
      if (!parallel.has(plugins[i]!.name)) {
        const p = plugins[i++]!;
        if (skip.has(p.name)) continue;
        const s = await this.runPreBindPlugin(p, state, pod, nodeName, signal);
        if (s !== null) return s;
        continue;
      }
      const group: Promise<Status | null>[] = [];
      for (; i < plugins.length && parallel.has(plugins[i]!.name); i++) {
        if (!skip.has(plugins[i]!.name)) group.push(this.runPreBindPlugin(plugins[i]!, state, pod, nodeName, signal));
      }
      for (const s of await Promise.all(group)) if (s !== null) return s;
    }
    return null;
  }

  private async runPreBindPlugin(p: fw.PreBindPlugin, state: CycleState, pod: PodInfo, nodeName: string, signal: AbortSignal | undefined): Promise<Status | null> {
    const s = await this.calls.callAsync(calls.preBindCall, p, state.recordPluginMetrics, state, pod, nodeName, signal);
    if (isSuccess(s)) return null;
    if (s!.isRejected()) return s!.withPlugin(p.name);
    return Status.error(`running PreBind plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
  }

  async runBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status> {
    return this.calls.pointAsync('Bind', () => this.bind(state, pod, nodeName), itself);
  }

  private async bind(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status> {
    const timed = state.recordPluginMetrics;
    let last: Status | null = null;
    for (const p of this.bindPlugins) {
      const s = await this.calls.callAsync(calls.bindCall, p, timed, state, pod, nodeName);
      if (s && s.code === Code.Skip) {
        last = s;
        continue;
      }
      if (!isSuccess(s)) {
        if (s!.isRejected()) return s!.withPlugin(p.name);
        // The cause stays reachable: the scheduler tells a refused binding from one whose answer was lost.
        return Status.error(new Error(`running Bind plugin "${p.name}": ${s!.message()}`, { cause: s!.error })).withPlugin(p.name);
      }
      return new Status(Code.Success).withPlugin(p.name);
    }
    return last ?? new Status(Code.Skip);
  }

  runPostBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): void {
    const start = this.calls.pointStart();
    this.runInformational(calls.postBindCall, this.postBindPlugins, state, pod, nodeName);
    this.calls.observeExtensionPoint('PostBind', null, start);
  }

  /** Points whose plugins return nothing (Unreserve, PostBind): one that throws is logged, the rest still run. */
  private runInformational<P extends fw.Plugin>(spec: CallSpecOf<P>, plugins: readonly P[], state: CycleState, pod: PodInfo, nodeName: string): void {
    const timed = state.recordPluginMetrics;
    for (const p of plugins) {
      const s = this.calls.call(spec, p, timed, state, pod, nodeName);
      if (s !== null) this.log(1, `running ${spec.point} plugin "${p.name}" for pod ${pod.key}: ${s.message()}`);
    }
  }

  // ---- a pod group's placements ----

  /** RunPlacementGeneratePlugins (placement_runners.ts). */
  runPlacementGeneratePlugins(state: CycleState, podGroup: SchedulingGroup, nodes: readonly NodeInfo[]): GeneratedPlacements {
    return runPlacementGeneratePlugins(this, state, podGroup, nodes);
  }

  /** RunPlacementScorePlugins (placement_runners.ts). */
  runPlacementScorePlugins(podGroupState: CycleState, podGroup: SchedulingGroup, assignments: readonly fw.PodGroupAssignments[], states: readonly CycleState[]): PlacementTotals {
    return runPlacementScorePlugins(this, podGroupState, podGroup, assignments, states);
  }
}

/** The spec of a point whose plugins answer nothing. */
type CallSpecOf<P extends fw.Plugin> = CallSpec<P, CycleState, PodInfo, string, Status | null>;

/** A Filter plugin's verdict against the node: a rejection as it is, anything else an error. */
function filterRejection(plugin: string, s: Status): Status {
  if (!s.isRejected()) return Status.error(`running "${plugin}" filter plugin: ${s.message()}`).withPlugin(plugin);
  return s.withPlugin(plugin);
}

/** addWeighted onto totals that all start at `base`: the first plugin's pass writes them. */
function setWeighted(column: Float64Array, n: number, weight: number, base: number, totals: Float64Array): number {
  const max = fw.MaxNodeScore;
  const min = fw.MinNodeScore;
  for (let i = 0; i < n; i++) {
    const s = column[i]!;
    if (s > max || s < min) return i;
    totals[i] = base + s * weight;
  }
  return -1;
}

/**
 * Adds `weight` times each of the first `n` scores of `column` into `totals`; the index of the
 * first score outside [MinNodeScore, MaxNodeScore] (then `totals` is partly added and the cycle
 * fails), else -1. One tight loop over two typed arrays: it runs per plugin over every scored node.
 */
function addWeighted(column: Float64Array, n: number, weight: number, totals: Float64Array): number {
  const max = fw.MaxNodeScore;
  const min = fw.MinNodeScore;
  for (let i = 0; i < n; i++) {
    const s = column[i]!;
    if (s > max || s < min) return i;
    totals[i]! += s * weight;
  }
  return -1;
}

function scoreFailed(plugin: string, s: Status): Status {
  return Status.error(`running Score plugins: plugin "${plugin}" failed with: ${s.message()}`).withPlugin(plugin);
}

function invalidScore(plugin: string, score: number): Status {
  return Status.error(`applying score defaultWeights on Score plugins: plugin "${plugin}" returns an invalid score ${score}, it should in the range of [${fw.MinNodeScore}, ${fw.MaxNodeScore}] after normalizing`).withPlugin(plugin);
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
  add(plugin: string, { result, status }: fw.PostFilterOutcome): PostFilterRunResult | null {
    if (isSuccess(status)) return { result, status: status ?? new Status(Code.Success) };
    if (status!.code === Code.UnschedulableAndUnresolvable) return { result, status: status!.withPlugin(plugin) };
    if (!status!.isRejected()) return { result: null, status: Status.error(status!.asError()).withPlugin(plugin) };
    if (result) this.lastResult = result;
    this.reasons.push(...status!.reasons);
    this.rejector ??= plugin;
    return null;
  }

  finish(): PostFilterRunResult {
    return { result: this.lastResult, status: new Status(Code.Unschedulable, this.reasons).withPlugin(this.rejector ?? '') };
  }
}

/** What opportunistic batching uses of a framework. */
function batchHandle(f: Framework, deps: FrameworkDeps): BatchHandle {
  return {
    profileName: f.profileName,
    nodeInfo: (name) => deps.snapshot().nodeInfos().get(name),
    runFilterPlugins: (state, pod, ni) => f.runFilterPlugins(state, pod, ni),
    runPreScorePlugins: (state, pod, nodes) => f.runPreScorePlugins(state, pod, nodes),
    runRawScorePlugins: (state, pod, ni) => runRawScorePlugins(f, state, pod, ni),
    normalizeScores: (state, pod, candidates) => normalizeScores(f, state, pod, candidates),
    now: () => deps.clock.now(),
    monotonicSeconds: f.monotonicSeconds,
    metrics: deps.metrics ?? null,
  };
}
