// The framework runtime for one profile: instantiates plugins, expands multiPoint, and runs each
// extension point (runtime/framework.go). It is also the Handle plugins receive. With a metrics
// recorder it times every extension point, and each plugin call in sampled cycles
// (CycleState.recordPluginMetrics); a plugin that throws ends its extension point with an error
// status naming it, as a returned error would.
import type { Features } from '../features.js';
import type { Pod } from '../../api/types.js';
import type { PodGroup } from '../../api/scheduling.js';
import { runtimeExtensionPoints, type RuntimeExtensionPointName as ExtensionPointName } from '../../api/extension_points.js';
import type { Clock } from '../../util/clock.js';
import { CycleState } from '../cycle_state.js';
import { ActionTypeAll, type ClusterEventWithHint } from '../events.js';
import { type Extender, ExtenderName } from '../extender.js';
import * as fw from '../interfaces.js';
import { andThen, type MaybePromise } from '../../util/maybe_promise.js';
import { thrownMessage } from './thrown.js';
import type { ExtensionPointLabel, MetricsRecorder } from '../metrics_recorder.js';
import type { SharedDRAManager } from '../shared_dra_manager.js';
import { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import type { Registry } from '../registry.js';
import { Code, Status, codeName, isSuccess } from '../status.js';
import { OpportunisticBatch, type BatchHandle } from './batch.js';
import { normalizeScores, runRawScorePlugins } from './batch_scores.js';
import { PodSigner } from './pod_signer.js';
import { WaitingPodImpl } from './waiting_pods.js';
import { BadInputError } from '../../util/bad_input.js';
import { PodInPreBindImpl } from './pods_in_prebind.js';

export interface PluginRef {
  name: string;
  weight?: number;
}
export interface PluginSetConfig {
  enabled?: PluginRef[];
  disabled?: { name: string }[];
}
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
  /** The feature gates' values each plugin factory receives. */
  features: Features;
  /** In-tree plugin names we do not implement yet: skipped with a warning instead of failing. */
  notYetAvailable?: ReadonlySet<string>;
  /** The scheduler's HTTP extenders (Handle.extenders). */
  extenders?: readonly Extender[];
  /** Pod groups and their members (Handle.podGroups), with GenericWorkload on. */
  podGroups?: fw.PodGroupLister;
  /** Where durations go; none means nothing is measured. */
  metrics?: MetricsRecorder | null;
  /** Monotonic seconds for durations (performance.now() by default). */
  monotonicSeconds?: () => number;
  /** Reports what no status can carry (a plugin throwing in Unreserve or PostBind). */
  log?: (level: number, msg: string) => void;
  /** The OpportunisticBatching gate (KEP-5598): sign pods and reuse rankings between them. */
  opportunisticBatching?: boolean;
  /** Moves pods to the active queue (Handle.activate). */
  activate?: (pods: Iterable<Pod>) => void;
  /** Tracks a plugin's background work (Handle.runInBackground). */
  runInBackground?: (work: Promise<void>) => void;
  /** The scheduler's DRA manager (Handle.sharedDRAManager), one for all its profiles, built on first use. */
  sharedDRAManager?: () => SharedDRAManager | null;
}

type Guard<T extends fw.Plugin> = (p: fw.Plugin) => p is T;

/** How the runtime recognises each extension point's plugins: a point without a guard does not compile. */
const guards: Readonly<Record<ExtensionPointName, Guard<fw.Plugin>>> = {
  preEnqueue: fw.isPreEnqueuePlugin,
  queueSort: fw.isQueueSortPlugin,
  preFilter: fw.isPreFilterPlugin,
  filter: fw.isFilterPlugin,
  postFilter: fw.isPostFilterPlugin,
  preScore: fw.isPreScorePlugin,
  score: fw.isScorePlugin,
  reserve: fw.isReservePlugin,
  permit: fw.isPermitPlugin,
  preBind: fw.isPreBindPlugin,
  bind: fw.isBindPlugin,
  postBind: fw.isPostBindPlugin,
  placementGenerate: fw.isPlacementGeneratePlugin,
  placementScore: fw.isPlacementScorePlugin,
};

const extensionPoints: readonly { name: ExtensionPointName; guard: Guard<fw.Plugin>; label: string }[] =
  runtimeExtensionPoints.map((p) => ({ name: p.name, guard: guards[p.name], label: p.pluginType }));

/**
 * getValidScoreWeights: each plugin's weight from its first reference (at least 1), refusing a
 * profile whose weighted maximum could overflow; `prefix` names the extension point in the error.
 */
function setWeights(plugins: readonly fw.Plugin[], refs: readonly PluginRef[], out: Map<string, number>, prefix: string): void {
  const weights = new Map<string, number>();
  for (const r of refs) if (!weights.has(r.name)) weights.set(r.name, Math.max(r.weight ?? 0, 1));
  let total = 0;
  for (const p of plugins) {
    const w = weights.get(p.name) ?? 1;
    out.set(p.name, w);
    if (w * fw.MaxNodeScore > fw.MaxTotalScore - total) throw new FrameworkError(`${prefix}total score of Score plugins could overflow`);
    total += w * fw.MaxNodeScore;
  }
}

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

/** A profile the framework cannot build (checks configuration validation cannot make ahead): bad input. */
class FrameworkError extends BadInputError {
  override name = 'FrameworkError';
}

const defaultMonotonicSeconds = (): number => performance.now() / 1000;
const itself = (s: Status | null): Status | null => s;
const statusName = (s: Status | null | undefined) => codeName(s ? s.code : Code.Success);

export class Framework implements fw.Handle {
  readonly profileName: string;
  /** The feature gates the profile was built with (what the scheduler's cycles check, as upstream reads its gates). */
  get features(): Features {
    return this.deps.features;
  }
  readonly parallelism: number;
  readonly percentageOfNodesToScore: number | null;
  /** Plugins configured but not built yet (reported at start-up). */
  readonly unavailablePlugins: string[] = [];

  readonly pluginsByName = new Map<string, fw.Plugin>();
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
  readonly placementScorePluginWeight = new Map<string, number>();
  /** The Reserve plugins in the reverse order, Unreserve's. */
  private readonly unreservePlugins: readonly fw.ReservePlugin[];
  readonly scorePluginWeight = new Map<string, number>();
  private readonly waitingPods = new Map<string, WaitingPodImpl>();
  private readonly podsInPreBind = new Map<string, PodInPreBindImpl>();
  private readonly recorder: MetricsRecorder | null;
  /** Monotonic seconds, for the durations the recorder receives. */
  readonly monotonicSeconds: () => number;
  /** Signs pods for opportunistic batching; null with the gate off. */
  readonly podSigner: PodSigner | null;
  /** The ranking kept between cycles (OpportunisticBatching); null with the gate off. */
  readonly batch: OpportunisticBatch | null;

  constructor(
    profile: ProfileConfig,
    private readonly deps: FrameworkDeps,
  ) {
    this.profileName = profile.schedulerName;
    this.parallelism = deps.parallelism;
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore ?? null;
    this.recorder = deps.metrics ?? null;
    this.monotonicSeconds = deps.monotonicSeconds ?? defaultMonotonicSeconds;
    this.instantiate(profile);
    const lists = this.pluginLists(profile.plugins);
    this.preEnqueuePlugins = lists.get('preEnqueue')!.filter(fw.isPreEnqueuePlugin);
    this.queueSortPlugins = lists.get('queueSort')!.filter(fw.isQueueSortPlugin);
    this.preFilterPlugins = lists.get('preFilter')!.filter(fw.isPreFilterPlugin);
    this.filterPlugins = lists.get('filter')!.filter(fw.isFilterPlugin);
    this.postFilterPlugins = lists.get('postFilter')!.filter(fw.isPostFilterPlugin);
    this.preScorePlugins = lists.get('preScore')!.filter(fw.isPreScorePlugin);
    this.scorePlugins = lists.get('score')!.filter(fw.isScorePlugin);
    this.reservePlugins = lists.get('reserve')!.filter(fw.isReservePlugin);
    this.permitPlugins = lists.get('permit')!.filter(fw.isPermitPlugin);
    this.preBindPlugins = lists.get('preBind')!.filter(fw.isPreBindPlugin);
    this.bindPlugins = lists.get('bind')!.filter(fw.isBindPlugin);
    this.postBindPlugins = lists.get('postBind')!.filter(fw.isPostBindPlugin);
    this.placementGeneratePlugins = lists.get('placementGenerate')!.filter(fw.isPlacementGeneratePlugin);
    this.placementScorePlugins = lists.get('placementScore')!.filter(fw.isPlacementScorePlugin);
    this.unreservePlugins = [...this.reservePlugins].reverse();
    if (this.queueSortPlugins.length !== 1) {
      throw new FrameworkError(`only one queue sort plugin required for profile with scheduler name "${this.profileName}", but got ${this.queueSortPlugins.length}`);
    }
    if (this.bindPlugins.length === 0) {
      throw new FrameworkError(`at least one bind plugin is needed for profile with scheduler name "${this.profileName}"`);
    }
    const multiPoint = profile.plugins.multiPoint?.enabled ?? [];
    this.setScoreWeights([...(profile.plugins.score?.enabled ?? []), ...multiPoint]);
    setWeights(this.placementScorePlugins, [...(profile.plugins.placementScore?.enabled ?? []), ...multiPoint], this.placementScorePluginWeight, 'placement score plugins: ');
    const batching = deps.opportunisticBatching ?? false;
    this.podSigner = batching ? new PodSigner(this, (deps.extenders?.length ?? 0) > 0, deps.log, this.recorder, this.monotonicSeconds) : null;
    this.batch = batching ? new OpportunisticBatch(batchHandle(this, deps), deps.features.enableGenericWorkload) : null;
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
        plugin = def.factory(args, this, this.deps.features);
      } catch (err) {
        throw new FrameworkError(`initializing plugin "${name}": ${thrownMessage(err)}`);
      }
      this.pluginsByName.set(name, plugin);
    }
  }

  /** Every extension point's plugins in order: the explicit lists, then multiPoint expanded into them. */
  private pluginLists(plugins: PluginsConfig): Map<ExtensionPointName, fw.Plugin[]> {
    const lists = new Map<ExtensionPointName, fw.Plugin[]>();
    for (const ep of extensionPoints) lists.set(ep.name, this.explicitList(ep, plugins[ep.name]));
    if ((plugins.multiPoint?.enabled ?? []).length === 0) return lists;
    for (const ep of extensionPoints) lists.set(ep.name, this.expandMultiPoint(ep, plugins, lists.get(ep.name)!));
    return lists;
  }

  private explicitList(ep: (typeof extensionPoints)[number], set: PluginSetConfig | undefined): fw.Plugin[] {
    const list: fw.Plugin[] = [];
    const seen = new Set<string>();
    for (const ref of set?.enabled ?? []) {
      const p = this.pluginsByName.get(ref.name);
      if (!p) continue; // not yet available, already reported
      if (!ep.guard(p)) throw new FrameworkError(`plugin "${ref.name}" does not extend ${ep.label} plugin`);
      if (seen.has(ref.name)) throw new FrameworkError(`plugin "${ref.name}" already registered as "${ep.label}"`);
      seen.add(ref.name);
      list.push(p);
    }
    return list;
  }

  /**
   * multiPoint expansion with upstream's order: plugins also enabled explicitly at this point come
   * first, in their explicit order (the explicit setting overrides multiPoint), then the
   * multiPoint-only ones in multiPoint order, then the remaining explicit ones.
   */
  private expandMultiPoint(ep: (typeof extensionPoints)[number], plugins: PluginsConfig, explicit: readonly fw.Plugin[]): fw.Plugin[] {
    const disabled = new Set((plugins[ep.name]?.disabled ?? []).map((d) => d.name));
    if (disabled.has('*')) return [...explicit];
    const explicitNames = explicit.map((p) => p.name);
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
    return order.map((n) => this.pluginsByName.get(n)!);
  }

  private setScoreWeights(refs: PluginRef[]): void {
    setWeights(this.scorePlugins, refs, this.scorePluginWeight, '');
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
  activate(pods: Iterable<Pod>): void {
    this.deps.activate?.(pods);
  }
  /** Reports what no status carries (a failure the cycle goes on after) through the scheduler's log. */
  log(level: number, msg: string): void {
    this.deps.log?.(level, msg);
  }
  runInBackground(work: Promise<void>): void {
    if (this.deps.runInBackground) this.deps.runInBackground(work);
    else work.catch((err: unknown) => this.deps.log?.(1, `background work: ${thrownMessage(err)}`));
  }
  getPodInPreBind(uid: string): fw.PodInPreBind | undefined {
    return this.podsInPreBind.get(uid);
  }
  /** Notes the pod as in PreBind, where preemption can cancel its binding (AddPodInPreBind). */
  addPodInPreBind(uid: string): PodInPreBindImpl {
    const p = new PodInPreBindImpl();
    this.podsInPreBind.set(uid, p);
    return p;
  }
  removePodInPreBind(uid: string): void {
    this.podsInPreBind.delete(uid);
  }
  extenders(): readonly Extender[] {
    return this.deps.extenders ?? [];
  }
  metricsRecorder(): MetricsRecorder | null {
    return this.recorder;
  }
  sharedDRAManager(): SharedDRAManager | null {
    return this.deps.sharedDRAManager?.() ?? null;
  }
  podGroups(): fw.PodGroupLister | undefined {
    return this.deps.podGroups;
  }
  /** Whether a pod group's cycle tries placements (the TopologyAwareWorkloadScheduling gate). */
  topologyAwareWorkloadScheduling(): boolean {
    return this.deps.features.enableTopologyAwareWorkloadScheduling;
  }
  /** The plugins that judge a pod group's partial placement. */
  placementFeasiblePlugins(): fw.PlacementFeasiblePlugin[] {
    return [...this.pluginsByName.values()].filter(fw.isPlacementFeasiblePlugin);
  }

  /**
   * RunPlacementGeneratePlugins: the first PlacementGenerate plugin's placements within all of
   * `nodes`, or the one placement of every node when the profile has none.
   */
  runPlacementGeneratePlugins(state: CycleState, podGroup: PodGroup, nodes: readonly NodeInfo[]): { placements: readonly fw.Placement[]; status: Status | null } {
    const parent: fw.Placement = { name: '', nodes };
    const start = this.recorder !== null ? this.monotonicSeconds() : 0;
    const r = this.generatePlacements(state, podGroup, parent);
    if (this.recorder !== null) this.observeExtensionPoint('PlacementGenerate', r.status, start);
    return r;
  }

  private generatePlacements(state: CycleState, podGroup: PodGroup, parent: fw.Placement): { placements: readonly fw.Placement[]; status: Status | null } {
    const p = this.placementGeneratePlugins[0];
    if (p === undefined) return { placements: [parent], status: null };
    let r: fw.GeneratePlacementsResult | Status;
    // Upstream records the placement plugins' durations in every group cycle, not only sampled ones.
    const start = this.recorder !== null ? this.monotonicSeconds() : 0;
    try {
      r = p.generatePlacements(state, podGroup, parent);
    } catch (err) {
      r = Status.error(thrownMessage(err));
    }
    if (this.recorder !== null) this.observePlugin(p.name, 'PlacementGenerate', r instanceof Status ? r : null, start);
    if (r instanceof Status) return { placements: [], status: r.withPlugin(p.name) };
    if (r.placements.length === 0) return { placements: [], status: new Status(Code.Unschedulable, ['no feasible placements found']).withPlugin(p.name) };
    return { placements: r.placements, status: null };
  }

  /**
   * RunPlacementScorePlugins: every plugin scores every feasible placement, normalizes its scores
   * and weights them; each placement's weighted sum, index-aligned with `assignments`, or an error.
   */
  runPlacementScorePlugins(podGroupState: CycleState, podGroup: PodGroup, assignments: readonly fw.PodGroupAssignments[], states: readonly CycleState[]): { totals: number[]; status: Status | null } {
    const start = this.recorder !== null ? this.monotonicSeconds() : 0;
    const r = this.scorePlacements(podGroupState, podGroup, assignments, states);
    if (this.recorder !== null) this.observeExtensionPoint('PlacementScore', r.status, start);
    return r;
  }

  private scorePlacements(podGroupState: CycleState, podGroup: PodGroup, assignments: readonly fw.PodGroupAssignments[], states: readonly CycleState[]): { totals: number[]; status: Status | null } {
    const totals = new Array<number>(assignments.length).fill(0);
    if (assignments.length !== states.length) {
      return { totals, status: Status.error(`expected one PlacementCycleState per PodGroupAssignments, got ${states.length} placement states for ${assignments.length} assignments`) };
    }
    const perPlugin: fw.PlacementScore[][] = this.placementScorePlugins.map(() => []);
    for (let i = 0; i < assignments.length; i++) {
      for (let j = 0; j < this.placementScorePlugins.length; j++) {
        const p = this.placementScorePlugins[j]!;
        let s: number | Status;
        const start = this.recorder !== null ? this.monotonicSeconds() : 0;
        try {
          s = p.scorePlacement(states[i]!, podGroup, assignments[i]!);
        } catch (err) {
          s = Status.error(thrownMessage(err));
        }
        if (this.recorder !== null) this.observePlugin(p.name, 'PlacementScore', s instanceof Status ? s : null, start);
        if (s instanceof Status) return { totals, status: Status.error(`running PlacementScore plugins: plugin "${p.name}" failed with: ${s.message()}`) };
        perPlugin[j]!.push({ placement: assignments[i]!.placement, score: s });
      }
    }
    for (let j = 0; j < this.placementScorePlugins.length; j++) {
      const p = this.placementScorePlugins[j]!;
      if (p.normalizePlacementScore === undefined) continue;
      let s: Status | null;
      const start = this.recorder !== null ? this.monotonicSeconds() : 0;
      try {
        s = p.normalizePlacementScore(podGroupState, podGroup, perPlugin[j]!);
      } catch (err) {
        s = Status.error(thrownMessage(err));
      }
      if (this.recorder !== null) this.observePlugin(p.name, 'PlacementScoreExtensionNormalize', s, start);
      if (!isSuccess(s)) return { totals, status: Status.error(`running NormalizePlacementScore on PlacementScore plugins: plugin "${p.name}" failed with: ${s!.message()}`) };
    }
    for (let j = 0; j < this.placementScorePlugins.length; j++) {
      const p = this.placementScorePlugins[j]!;
      const weight = this.placementScorePluginWeight.get(p.name)!;
      for (let i = 0; i < assignments.length; i++) {
        const score = perPlugin[j]![i]!.score;
        if (score > fw.MaxNodeScore || score < fw.MinNodeScore) {
          return {
            totals,
            status: Status.error(`applying score defaultWeights on PlacementScore plugins: plugin "${p.name}" returns an invalid score ${score}, it should in the range of [${fw.MinNodeScore}, ${fw.MaxNodeScore}] after normalizing`),
          };
        }
        totals[i]! += score * weight;
      }
    }
    return { totals, status: null };
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

  // ---- metrics ----

  /** Records an extension point's duration; callers check for a recorder first. */
  observeExtensionPoint(point: ExtensionPointLabel, s: Status | null | undefined, start: number): void {
    this.recorder!.observeExtensionPointDuration(point, statusName(s), this.profileName, this.monotonicSeconds() - start);
  }

  /** Runs an extension point timed (only called with a recorder). */
  private timedPoint<T>(point: ExtensionPointLabel, run: () => T, status: (r: T) => Status | null): T {
    const start = this.monotonicSeconds();
    const r = run();
    this.observeExtensionPoint(point, status(r), start);
    return r;
  }

  /** One plugin call answering a status: timed in sampled cycles, a throw turned into an error. */
  private callPlugin(point: ExtensionPointLabel, plugin: string, timed: boolean, call: () => Status | null): Status | null {
    const start = timed ? this.monotonicSeconds() : 0;
    let s: Status | null;
    try {
      s = call();
    } catch (err) {
      s = Status.fromThrown(err);
    }
    if (timed) this.observePlugin(plugin, point, s, start);
    return s;
  }

  /** Records one plugin call of a sampled cycle. */
  private observePlugin(plugin: string, point: ExtensionPointLabel, s: Status | null | undefined, start: number): void {
    this.recorder?.observePluginDuration(plugin, point, statusName(s), this.monotonicSeconds() - start);
  }

  // ---- extension points ----

  runPreEnqueuePlugins(pod: Pod): Status | null {
    for (const p of this.preEnqueuePlugins) {
      let s: Status | null;
      try {
        s = p.preEnqueue(pod);
      } catch (err) {
        return Status.error(`running PreEnqueue plugin "${p.name}": ${thrownMessage(err)}`).withPlugin(p.name);
      }
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
    if (this.recorder === null) return this.preFilter(state, pod, nodes);
    return this.timedPoint('PreFilter', () => this.preFilter(state, pod, nodes), (r) => r.status);
  }

  private preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterRunResult {
    let nodeNames: Set<string> | null = null;
    const pluginsWithNodes: string[] = [];
    const skip = new Set<string>();
    state.skipFilterPlugins = skip;
    const timed = state.recordPluginMetrics;
    let returnStatus: Status | null = null;
    for (const p of this.preFilterPlugins) {
      let out: fw.PreFilterOutcome | null;
      const start = timed ? this.monotonicSeconds() : 0;
      try {
        out = p.preFilter(state, pod, nodes);
      } catch (err) {
        return { nodeNames: null, status: Status.error(`running PreFilter plugin "${p.name}": ${thrownMessage(err)}`).withPlugin(p.name), pluginsWithNodes: [] };
      }
      const s = out?.status ?? null;
      if (timed) this.observePlugin(p.name, 'PreFilter', s, start);
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
    return this.runPreFilterExtension(state, podToSchedule, podToAdd, nodeInfo, true);
  }

  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | null {
    return this.runPreFilterExtension(state, podToSchedule, podToRemove, nodeInfo, false);
  }

  private runPreFilterExtension(state: CycleState, podToSchedule: PodInfo, other: PodInfo, nodeInfo: NodeInfo, add: boolean): Status | null {
    const timed = state.recordPluginMetrics;
    for (const p of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(p.name)) continue;
      let s: Status | null;
      try {
        const ext = p.preFilterExtensions?.();
        if (!ext) continue;
        const start = timed ? this.monotonicSeconds() : 0;
        s = add ? ext.addPod(state, podToSchedule, other, nodeInfo) : ext.removePod(state, podToSchedule, other, nodeInfo);
        if (timed) this.observePlugin(p.name, add ? 'PreFilterExtensionAddPod' : 'PreFilterExtensionRemovePod', s, start);
      } catch (err) {
        s = Status.fromThrown(err);
      }
      if (!isSuccess(s)) return Status.error(`running ${add ? 'AddPod' : 'RemovePod'} on PreFilter plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /**
   * Runs Filter plugins in order and stops at the first rejection; a diagnosed cycle runs them
   * all (the verdict is still the first rejection).
   */
  runFilterPlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    // Per node, so the plain walk stays as tight as it can be; sampled and diagnosed cycles take the others.
    if (state.diagnosis !== null) return this.runAllFilterPlugins(state, pod, nodeInfo, state.diagnosis.filterVerdicts);
    if (state.recordPluginMetrics) return this.runFilterPluginsTimed(state, pod, nodeInfo);
    const plugins = this.activeFilterPlugins(state);
    let i = 0;
    try {
      for (; i < plugins.length; i++) {
        const s = plugins[i]!.filter(state, pod, nodeInfo);
        if (s === null || s.code === Code.Success) continue;
        return filterRejection(plugins[i]!.name, s);
      }
    } catch (err) {
      return filterThrew(plugins[i]!.name, err);
    }
    return null;
  }

  private runFilterPluginsTimed(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    for (const p of this.activeFilterPlugins(state)) {
      const start = this.monotonicSeconds();
      let s: Status | null;
      try {
        s = p.filter(state, pod, nodeInfo);
      } catch (err) {
        return filterThrew(p.name, err);
      }
      this.observePlugin(p.name, 'Filter', s, start);
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
      const start = timed ? this.monotonicSeconds() : 0;
      let s: Status | null;
      try {
        const r = p.filter(runState, pod, nodeInfo);
        s = r === null || r.code === Code.Success ? null : filterRejection(p.name, r);
      } catch (err) {
        s = filterThrew(p.name, err);
      }
      if (timed) this.observePlugin(p.name, 'Filter', s, start);
      if (s === null) continue;
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

  /**
   * Runs PostFilter plugins until one succeeds, errs or finds the pod unresolvable (see
   * PostFilterAccumulator). Synchronous unless a plugin answers with a promise (it waits for an
   * extender); the rest then runs once that answer is in.
   */
  runPostFilterPlugins(state: CycleState, pod: PodInfo, statuses: fw.NodeToStatusReader): MaybePromise<PostFilterRunResult> {
    const acc = new PostFilterAccumulator();
    if (this.recorder === null) return this.postFilterFrom(0, acc, state, pod, statuses);
    const start = this.monotonicSeconds();
    return andThen(this.postFilterFrom(0, acc, state, pod, statuses), (r) => {
      this.observeExtensionPoint('PostFilter', r.status, start);
      return r;
    });
  }

  private postFilterFrom(first: number, acc: PostFilterAccumulator, state: CycleState, pod: PodInfo, statuses: fw.NodeToStatusReader): MaybePromise<PostFilterRunResult> {
    const timed = state.recordPluginMetrics;
    for (let i = first; i < this.postFilterPlugins.length; i++) {
      const p = this.postFilterPlugins[i]!;
      const start = timed ? this.monotonicSeconds() : 0;
      let out: MaybePromise<fw.PostFilterOutcome>;
      try {
        out = p.postFilter(state, pod, statuses);
      } catch (err) {
        return postFilterThrew(p.name, err);
      }
      const next = (o: fw.PostFilterOutcome): MaybePromise<PostFilterRunResult> => {
        if (timed) this.observePlugin(p.name, 'PostFilter', o.status, start);
        return acc.add(p.name, o) ?? this.postFilterFrom(i + 1, acc, state, pod, statuses);
      };
      if (out instanceof Promise) return out.then(next, (err: unknown) => postFilterThrew(p.name, err));
      const done = acc.add(p.name, out);
      if (timed) this.observePlugin(p.name, 'PostFilter', out.status, start);
      if (done !== null) return done;
    }
    return acc.finish();
  }

  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null {
    if (this.recorder === null) return this.preScore(state, pod, nodes);
    return this.timedPoint('PreScore', () => this.preScore(state, pod, nodes), itself);
  }

  private preScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null {
    const skip = new Set<string>();
    state.skipScorePlugins = skip;
    const timed = state.recordPluginMetrics;
    for (const p of this.preScorePlugins) {
      const s = this.callPlugin('PreScore', p.name, timed, () => p.preScore(state, pod, nodes));
      if (s && s.code === Code.Skip) {
        skip.add(p.name);
        continue;
      }
      if (!isSuccess(s)) return Status.error(`running PreScore plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /**
   * Score, NormalizeScore and weights for every node (RunScorePlugins): each node's weighted
   * total goes into `totals` (zeroed first, index-aligned with `nodes`), and each plugin's
   * weighted scores into `breakdown` when given (explain); the hot path passes null and
   * allocates nothing per node.
   */
  runScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], totals: Float64Array, breakdown: PluginScoreColumn[] | null): Status | null {
    totals.fill(0, 0, nodes.length);
    if (this.recorder === null) return this.score(state, pod, nodes, totals, breakdown);
    return this.timedPoint('Score', () => this.score(state, pod, nodes, totals, breakdown), itself);
  }

  private score(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], totals: Float64Array, breakdown: PluginScoreColumn[] | null): Status | null {
    const skip = state.skipScorePlugins;
    const n = nodes.length;
    // One list serves every plugin in turn (each is done with it before the next starts).
    // Each plugin writes every entry (score per node, or scoreNodes by contract): no re-zeroing.
    const list = this.scoreBuffer(nodes);
    const max = fw.MaxNodeScore;
    const min = fw.MinNodeScore;
    const diagnosed = breakdown !== null && (state.diagnosis !== null || state.recordRawScores);
    // Plugin metrics and recorded scores need every plugin to run; otherwise a plugin that knows
    // its score is the same on every node is left out and that score added to every total.
    const shortcut = breakdown === null && !state.recordPluginMetrics;
    for (const p of this.scorePlugins) {
      if (skip.size > 0 && skip.has(p.name)) continue;
      if (shortcut && p.uniformScore !== undefined) {
        const uniform = this.uniformScoreOf(p, state, pod, nodes);
        if (uniform instanceof Status) return uniform;
        if (uniform !== null) {
          const points = uniform * this.scorePluginWeight.get(p.name)!;
          if (points !== 0) for (let i = 0; i < n; i++) totals[i]! += points;
          continue;
        }
      }
      const raw = diagnosed ? new Float64Array(n) : null;
      const failed = this.scoreWithPlugin(p, state, pod, nodes, list, raw);
      if (failed !== null) return failed;
      const weight = this.scorePluginWeight.get(p.name)!;
      const weighted = breakdown ? new Float64Array(n) : null;
      const normalized = diagnosed ? new Float64Array(n) : null;
      for (let i = 0; i < n; i++) {
        const s = list[i]!.score;
        if (s > max || s < min) {
          return Status.error(`applying score defaultWeights on Score plugins: plugin "${p.name}" returns an invalid score ${s}, it should in the range of [${fw.MinNodeScore}, ${fw.MaxNodeScore}] after normalizing`).withPlugin(p.name);
        }
        totals[i]! += s * weight;
        if (weighted) weighted[i] = s * weight;
        if (normalized) normalized[i] = s;
      }
      if (breakdown) breakdown.push({ name: p.name, weight, weighted: weighted!, raw, normalized });
    }
    return null;
  }

  /** A plugin's uniformScore, checked as Score's results are; an error as Score's would be. */
  private uniformScoreOf(p: fw.ScorePlugin, state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): number | null | Status {
    let u: number | null;
    try {
      u = p.uniformScore!(state, pod, nodes);
    } catch (err) {
      return Status.error(`running Score plugins: plugin "${p.name}" failed with: ${thrownMessage(err)}`).withPlugin(p.name);
    }
    if (u !== null && (u > fw.MaxNodeScore || u < fw.MinNodeScore)) {
      return Status.error(`applying score defaultWeights on Score plugins: plugin "${p.name}" returns an invalid score ${u}, it should in the range of [${fw.MinNodeScore}, ${fw.MaxNodeScore}] after normalizing`).withPlugin(p.name);
    }
    return u;
  }

  /**
   * One plugin's Score (batch when it has scoreNodes) and NormalizeScore into `list`, the scores
   * before normalizing copied into `raw` when given; the error, if any.
   */
  private scoreWithPlugin(p: fw.ScorePlugin, state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], list: fw.NodeScore[], raw: Float64Array | null): Status | null {
    const timed = state.recordPluginMetrics;
    try {
      if (p.scoreNodes !== undefined) {
        // A batch call is timed once for all nodes.
        const start = timed ? this.monotonicSeconds() : 0;
        const r = p.scoreNodes(state, pod, nodes, list);
        if (timed) this.observePlugin(p.name, 'Score', r, start);
        if (r !== null && r.code !== Code.Success) return Status.error(`running Score plugins: plugin "${p.name}" failed with: ${r.message()}`).withPlugin(p.name);
      } else if (!timed) {
        for (let i = 0; i < nodes.length; i++) {
          const r = p.score(state, pod, nodes[i]!);
          if (typeof r !== 'number') return Status.error(`running Score plugins: plugin "${p.name}" failed with: ${r.message()}`).withPlugin(p.name);
          list[i]!.score = r;
        }
      } else {
        for (let i = 0; i < nodes.length; i++) {
          const start = this.monotonicSeconds();
          const r = p.score(state, pod, nodes[i]!);
          this.observePlugin(p.name, 'Score', typeof r === 'number' ? null : r, start);
          if (typeof r !== 'number') return Status.error(`running Score plugins: plugin "${p.name}" failed with: ${r.message()}`).withPlugin(p.name);
          list[i]!.score = r;
        }
      }
    } catch (err) {
      return Status.error(`running Score plugins: plugin "${p.name}" failed with: ${thrownMessage(err)}`).withPlugin(p.name);
    }
    if (raw !== null) for (let i = 0; i < nodes.length; i++) raw[i] = list[i]!.score;
    let ext: fw.ScoreExtensions | null | undefined;
    try {
      ext = p.scoreExtensions?.();
    } catch (err) {
      ext = { normalizeScore: () => Status.fromThrown(err) };
    }
    if (!ext) return null;
    const s = this.callPlugin('ScoreExtensionNormalize', p.name, timed, () => ext.normalizeScore(state, pod, list));
    if (!isSuccess(s)) return Status.error(`running Normalize on Score plugins: plugin "${p.name}" failed with: ${s!.message()}`).withPlugin(p.name);
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
    if (this.recorder === null) return this.reserve(state, pod, nodeName);
    return this.timedPoint('Reserve', () => this.reserve(state, pod, nodeName), itself);
  }

  private reserve(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const timed = state.recordPluginMetrics;
    for (const p of this.reservePlugins) {
      const s = this.callPlugin('Reserve', p.name, timed, () => p.reserve(state, pod, nodeName));
      if (isSuccess(s)) continue;
      if (s!.isRejected()) return s!.withPlugin(p.name);
      return Status.error(`running Reserve plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /** Unreserve runs in reverse order of Reserve. */
  runReservePluginsUnreserve(state: CycleState, pod: PodInfo, nodeName: string): void {
    this.runInformational('Unreserve', this.unreservePlugins, state, pod, (p) => p.unreserve(state, pod, nodeName));
  }

  runPermitPlugins(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    if (this.recorder === null) return this.permit(state, pod, nodeName);
    return this.timedPoint('Permit', () => this.permit(state, pod, nodeName), itself);
  }

  private permit(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const waits = new Map<string, number>();
    const timed = state.recordPluginMetrics;
    for (const p of this.permitPlugins) {
      let out: fw.PermitOutcome;
      const start = timed ? this.monotonicSeconds() : 0;
      try {
        out = p.permit(state, pod, nodeName);
      } catch (err) {
        out = { status: Status.fromThrown(err), timeoutMs: 0 };
      }
      const { status, timeoutMs } = out;
      if (timed) this.observePlugin(p.name, 'Permit', status, start);
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
    const start = this.recorder === null ? 0 : this.monotonicSeconds();
    const s = await wp.result;
    this.recorder?.observePermitWaitDuration(statusName(s), this.monotonicSeconds() - start);
    this.waitingPods.delete(pod.uid);
    if (isSuccess(s)) return null;
    if (s!.isRejected()) return s;
    return Status.error(`waiting on permit for pod: ${s!.message()}`).withPlugin(s!.plugin);
  }

  async runPreBindPlugins(state: CycleState, pod: PodInfo, nodeName: string, signal?: AbortSignal): Promise<Status | null> {
    const start = this.recorder === null ? 0 : this.monotonicSeconds();
    const s = await this.preBind(state, pod, nodeName, signal);
    if (this.recorder !== null) this.observeExtensionPoint('PreBind', s, start);
    return s;
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
    const timed = state.recordPluginMetrics;
    let s: Status | null;
    const start = timed ? this.monotonicSeconds() : 0;
    try {
      s = await p.preBind(state, pod, nodeName, signal);
    } catch (err) {
      s = Status.fromThrown(err);
    }
    if (timed) this.observePlugin(p.name, 'PreBind', s, start);
    if (isSuccess(s)) return null;
    if (s!.isRejected()) return s!.withPlugin(p.name);
    return Status.error(`running PreBind plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
  }

  /**
   * The PreBind plugins' pre-flights (RunPreBindPreFlights): null (Success) when one or more has
   * work, Skip when none has, else an Error. Notes in the state which plugins to skip and which
   * may run in parallel.
   */
  runPreBindPreFlights(state: CycleState, pod: PodInfo, nodeName: string): Status | null {
    const skip = new Set<string>();
    const parallel = new Set<string>();
    let status: Status | null = new Status(Code.Skip);
    for (const p of this.preBindPlugins) {
      let out: fw.PreBindPreFlightOutcome;
      try {
        out = p.preBindPreFlight ? p.preBindPreFlight(state, pod, nodeName) : { result: null, status: null };
      } catch (err) {
        out = { result: null, status: Status.fromThrown(err) };
      }
      if (out.result?.allowParallel) parallel.add(p.name);
      const s = out.status;
      if (s === null || s.code === Code.Success) status = null;
      else if (s.code === Code.Skip) skip.add(p.name);
      else if (s.code === Code.Error) return Status.error(`running PreBindPreFlight "${p.name}": ${s.message()}`).withPlugin(p.name);
      else return Status.error(`PreBindPreFlight ${p.name} returned "${codeName(s.code)}", which is unsupported. It is supposed to return Success, Skip, or Error status`).withPlugin(p.name);
    }
    state.skipPreBindPlugins = skip;
    state.parallelPreBindPlugins = parallel;
    return status;
  }

  /** Whether the pod waits at Permit (WillWaitOnPermit). */
  willWaitOnPermit(pod: PodInfo): boolean {
    return this.waitingPods.has(pod.uid);
  }

  async runBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status> {
    const start = this.recorder === null ? 0 : this.monotonicSeconds();
    const s = await this.bind(state, pod, nodeName);
    if (this.recorder !== null) this.observeExtensionPoint('Bind', s, start);
    return s;
  }

  private async bind(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status> {
    const timed = state.recordPluginMetrics;
    let last: Status | null = null;
    for (const p of this.bindPlugins) {
      let s: Status | null;
      const start = timed ? this.monotonicSeconds() : 0;
      try {
        s = await p.bind(state, pod, nodeName);
      } catch (err) {
        s = Status.fromThrown(err);
      }
      if (timed) this.observePlugin(p.name, 'Bind', s, start);
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
    this.runInformational('PostBind', this.postBindPlugins, state, pod, (p) => p.postBind(state, pod, nodeName));
  }

  /** Points whose plugins return nothing (Unreserve, PostBind): one that throws is logged, the rest still run. */
  private runInformational<P extends fw.Plugin>(point: 'Unreserve' | 'PostBind', plugins: readonly P[], state: CycleState, pod: PodInfo, call: (p: P) => void): void {
    const start = this.recorder === null ? 0 : this.monotonicSeconds();
    const timed = state.recordPluginMetrics;
    for (const p of plugins) {
      const pluginStart = timed ? this.monotonicSeconds() : 0;
      try {
        call(p);
      } catch (err) {
        this.deps.log?.(1, `running ${point} plugin "${p.name}" for pod ${pod.key}: ${thrownMessage(err)}`);
      }
      if (timed) this.observePlugin(p.name, point, null, pluginStart);
    }
    if (this.recorder !== null) this.observeExtensionPoint(point, null, start);
  }
}

/** A Filter plugin's verdict against the node: a rejection as it is, anything else an error. */
function filterRejection(plugin: string, s: Status): Status {
  if (!s.isRejected()) return Status.error(`running "${plugin}" filter plugin: ${s.message()}`).withPlugin(plugin);
  return s.withPlugin(plugin);
}

function filterThrew(plugin: string, err: unknown): Status {
  return Status.error(`running "${plugin}" filter plugin: ${thrownMessage(err)}`).withPlugin(plugin);
}

function intersect(a: Set<string>, b: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) if (b.has(x)) out.add(x);
  return out;
}

/** A PostFilter plugin that threw (or whose answer rejected) ends the run as an error naming it. */
function postFilterThrew(plugin: string, err: unknown): PostFilterRunResult {
  return { result: null, status: Status.error(`running PostFilter plugin "${plugin}": ${thrownMessage(err)}`).withPlugin(plugin) };
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
