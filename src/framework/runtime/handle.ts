// The Handle a profile's plugins receive (framework.Handle as runtime/framework.go's
// frameworkImpl provides it): the scheduler's listers, clients and clock, the waiting pods and
// the pods in PreBind. The runners it offers plugins are the Framework's.
import type { Pod } from '../../api/types.js';
import { deferDraws, type Clock } from '../../util/clock.js';
import type { CycleState } from '../cycle_state.js';
import type { Extender } from '../extender.js';
import type { Features } from '../features.js';
import type * as fw from '../interfaces.js';
import type { MetricsRecorder } from '../metrics_recorder.js';
import type { NodeInfo } from '../node_info.js';
import type { PodInfo } from '../pod_info.js';
import type { SharedDRAManager } from '../shared_dra_manager.js';
import type { Status } from '../status.js';
import type { PluginBuildDeps } from './profile_plugins.js';
import { PodInPreBindImpl } from './pods_in_prebind.js';
import { thrownMessage } from './thrown.js';
import type { WaitingPodImpl } from './waiting_pods.js';

/** What a framework needs from the scheduler around it. */
export interface FrameworkDeps extends PluginBuildDeps {
  snapshot: () => fw.SharedLister;
  objects: fw.ObjectLister;
  client: fw.PluginClusterClient;
  eventRecorder: fw.EventRecorder;
  nominator: fw.PodNominatorReader;
  clock: Clock;
  random: () => number;
  parallelism: number;
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

export abstract class FrameworkHandle implements fw.Handle {
  readonly parallelism: number;
  protected readonly waitingPods = new Map<string, WaitingPodImpl>();
  private readonly podsInPreBind = new Map<string, PodInPreBindImpl>();

  constructor(
    readonly profileName: string,
    protected readonly deps: FrameworkDeps,
  ) {
    this.parallelism = deps.parallelism;
  }

  abstract runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null;
  abstract runPreFilterExtensionAddPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): Status | null;
  abstract runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | null;

  /** The feature gates the profile was built with (what the scheduler's cycles check, as upstream reads its gates). */
  get features(): Features {
    return this.deps.features;
  }
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
  deferRandom(draws: number): () => number {
    return deferDraws(this.deps.random, draws);
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
  /** Whether the pod waits at Permit (WillWaitOnPermit). */
  willWaitOnPermit(pod: PodInfo): boolean {
    return this.waitingPods.has(pod.uid);
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
    return this.deps.metrics ?? null;
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
}
