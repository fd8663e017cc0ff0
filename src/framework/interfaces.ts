// Plugin interfaces, one per extension point, and the Handle plugins get (framework/interface.go).
// A plugin is an object with a `name` and the optional methods it implements; the runtime finds
// them with the type guards below.
import type { Features } from './features.js';
import type { KubeObject, PersistentVolume, PersistentVolumeClaim, Pod, PodExtendedResourceClaimStatus } from '../api/types.js';
import type { ResourceClaim } from '../api/dra_types.js';
import type { CompositePodGroup, PodGroup, SchedulingGroup } from '../api/scheduling.js';
import type { ListedKindName } from '../api/kinds.js';
import type { CycleState } from './cycle_state.js';
import type { ClusterEventWithHint } from './events.js';
import type { NodeInfo } from './node_info.js';
import type { NodeRows } from './node_rows.js';
import type { RowResourceCheck, RowScoring } from './row_pass.js';
import type { PodInfo } from './pod_info.js';
import type { Status } from './status.js';
import type { Extender } from './extender.js';
import type { MetricsRecorder } from './metrics_recorder.js';
import type { SharedDRAManager } from './shared_dra_manager.js';

/** The highest score a Score plugin may return after normalization. */
export const MaxNodeScore = 100;
export const MinNodeScore = 0;
export const MaxTotalScore = Number.MAX_SAFE_INTEGER;

/**
 * A plugin: an object with a `name` and the methods of the extension points it implements, found
 * by the `is...Plugin` guards below. A PluginDefinition's factory builds it once per profile.
 */
export interface Plugin {
  /** The name configurations enable it by; unique in a registry. */
  readonly name: string;
}

/** A pod waiting in the queue, with its attempt bookkeeping (framework.QueuedPodInfo). */
export interface QueuedPodInfo {
  podInfo: PodInfo;
  /** When the pod was added to the queue (ms on the scheduler clock). */
  timestamp: number;
  /** Scheduling attempts so far. */
  attempts: number;
  /** When the pod was first added (ms), for latency metrics. */
  initialAttemptTimestamp: number | null;
  /** Plugins that rejected the pod in its last attempt. */
  unschedulablePlugins: Set<string>;
  /** Plugins that returned Pending in its last attempt. */
  pendingPlugins: Set<string>;
  /** The plugin whose PreEnqueue keeps the pod out of activeQ, when gated. */
  gatingPlugin: string | null;
  /** Order of arrival in the queue: breaks ties the QueueSort leaves open, so equal pods stay FIFO. */
  sequence?: number;
  /** What last moved the pod out of unschedulablePods or back from an attempt (none before its first). */
  requeuedBy?: RequeueCause;
  /**
   * Set when this entry is a pod group (GenericWorkload): the queue holds and pops the group's
   * queued members as one entity; `podInfo` is then its first member's.
   */
  group?: QueuedPodGroup;
}

/**
 * The queued members of a root group and the tree of groups under it (framework.QueuedPodGroupInfo):
 * a PodGroup, or with the CompositePodGroup gate a composite group whose leaves are PodGroups.
 */
export interface QueuedPodGroup {
  /** "podgroup:namespace/name" or "compositepodgroup:namespace/name": the entity's key in the queue. */
  readonly key: string;
  readonly kind: GroupKey['kind'];
  readonly namespace: string;
  readonly name: string;
  /** The root's object: a PodGroup root's (then the tree is just it). */
  podGroup?: PodGroup;
  /** The root's object: a composite root's. */
  compositePodGroup?: CompositePodGroup;
  /** The root and the observed groups under it, as the queue last saw them. */
  tree: GroupTree;
  /** Every queued member of the tree's PodGroups, ordered by priority, attempts (most first), queue time, then name. */
  members: QueuedPodInfo[];
}

/** A group and the observed groups under it (framework.PodGroupInfo with its Children). */
export interface GroupTree extends GroupKey {
  readonly podGroup?: PodGroup;
  readonly compositePodGroup?: CompositePodGroup;
  /** A composite's children; none for a PodGroup. */
  readonly children: readonly GroupTree[];
}

/** The event that requeued a pod, and the plugin whose queueing hint let it ('' when no hint decided). */
export interface RequeueCause {
  readonly event: string;
  readonly plugin: string;
}

export interface PreFilterResult {
  /** When set, only these nodes may be evaluated (set semantics; intersected across plugins). */
  readonly nodeNames: ReadonlySet<string> | null;
}

export interface PreFilterOutcome {
  readonly result?: PreFilterResult | null;
  readonly status?: Status | null;
}

export interface NodeScore {
  name: string;
  score: number;
}

export interface PostFilterResult {
  readonly nominatedNodeName: string;
  /**
   * The pods this PostFilter evicts to make room (a preemption's victims); the scheduling cycle
   * credits them to the pod's attempt. Absent when it evicts none.
   */
  readonly victims?: readonly Pod[];
}

export interface PermitOutcome {
  readonly status: Status | null;
  /** How long to wait when status is Wait, in ms. */
  readonly timeoutMs: number;
}

/** Per-node rejection statuses from the filter phase (framework.NodeToStatus). */
export interface NodeToStatusReader {
  get(nodeName: string): Status | null;
  /** Status for nodes not explicitly listed (rejected by PreFilter's node subset). */
  readonly absentNodesStatus: Status | null;
  entries(): IterableIterator<[string, Status]>;
  readonly size: number;
}

/**
 * PreEnqueue: a gate before a pod enters activeQ or backoffQ (SchedulingGates is one). Runs in the
 * event handlers for every pod added or requeued, so it must be cheap and never wait on I/O.
 */
export interface PreEnqueuePlugin extends Plugin {
  /**
   * `null` lets the pod in; any status keeps it out, gated, in the unschedulable pool until an
   * event this plugin registered (or a wildcard event) makes the queue ask again.
   */
  preEnqueue(pod: Pod): Status | null;
}

/** QueueSort: the order of activeQ. Exactly one is enabled per scheduler (PrioritySort by default). */
export interface QueueSortPlugin extends Plugin {
  /** True when `a` should be scheduled before `b`. */
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/**
 * EnqueueExtensions: which cluster events may make a pod this plugin rejected schedulable. A pod
 * rejected at PreEnqueue, PreFilter, Filter, Reserve or Permit waits in the unschedulable pool
 * until an event registered by one of its rejecting plugins arrives and that plugin's queueing
 * hint answers Queue; then it is requeued (through backoff unless the rejection was Pending).
 * Failures elsewhere (Error, PreBind, Bind) are retried after backoff without asking.
 * A rejecting plugin without this method is requeued by every event (slow, but never stuck); one
 * that registers nothing strands the pods it rejects until the periodic flush.
 */
export interface EnqueueExtensions extends Plugin {
  /** Asked once, when the scheduler is built: the answer must not depend on the cluster's state. */
  eventsToRegister(): ClusterEventWithHint[];
}

/**
 * Incremental updates of what PreFilter computed into the cycle state, for preemption and
 * nominated pods: the framework calls them on a copy of the state, possibly many times, after
 * PreFilter and before Filter on one node. The nodeInfo is read-only here.
 */
export interface PreFilterExtensions {
  addPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): Status | null;
  removePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | null;
}

/**
 * PreFilter: runs once per cycle before any Filter, to check the pod and compute what Filter will
 * read per node into the cycle state. Any status but Success or Skip rejects the pod for this
 * cycle (Unschedulable lets preemption run). Skip drops this plugin's Filter and extensions for
 * the cycle. A result with `nodeNames` limits the nodes evaluated; the nodes it leaves out count as
 * UnschedulableAndUnresolvable.
 */
export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterOutcome | null;
  preFilterExtensions?(): PreFilterExtensions | null;
}

/**
 * Filter: may the pod run on this node? `null` for yes; Unschedulable or
 * UnschedulableAndUnresolvable (with the reason) for no; Error aborts the whole attempt. Read the
 * node from `nodeInfo`, not the snapshot: preemption passes copies with pods removed. Called for
 * every node of every cycle: allocate nothing when the node passes.
 */
export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null;
  /**
   * Optional: true when `filter` would let this pod pass on every node of this cycle that has
   * its Node object (also on copies with pods added or removed), given what PreFilter stored in
   * `state`. It must be cheap and never wrong: a cycle that records neither plugin metrics nor
   * diagnosis then leaves this plugin out of its per-node walk, which changes no verdict.
   */
  passesEveryNode?(state: CycleState, pod: PodInfo): boolean;
  /**
   * Optional: for the nodes at rows `first` to `first + count - 1` of `rows` (nodes of the
   * snapshot's list), sets `passes[k]` (row `first + k`) to 0 where the row's numbers alone
   * cannot tell that `filter` would let this pod pass on that node, and leaves it as it is
   * elsewhere. It must never be wrong: a node left at 1 (and with its Node) is taken as passing
   * without calling `filter`; a node set to 0 goes to `filter`, which decides and builds the
   * status. A plain walk whose plugins all have it reads a passing node's row only, never the
   * NodeInfo object, and calls each plugin once per stretch of nodes rather than once per node.
   * With `rejections` (given when this plugin is the walk's only one), for each row it sets to 0
   * it also writes `rejections[k]`: the rejection `filter` would return for that node when the row
   * tells it, else null (`filter` then runs). A walk over nodes it rejects (full ones) then reads
   * rows only too.
   */
  filterRows?(state: CycleState, pod: PodInfo, rows: NodeRows, first: number, count: number, passes: Uint8Array, rejections: (Status | null)[] | null): void;
  /**
   * filterRows's check as data, for the row pass on worker threads (framework/row_pass.ts); null
   * when this pod's check is not one (the walk then calls filterRows on the main thread).
   */
  rowCheck?(state: CycleState, pod: PodInfo): RowResourceCheck | null;
}

/** What a PostFilter plugin returns: a nominated node (or none) and its verdict. */
export interface PostFilterOutcome {
  result: PostFilterResult | null;
  status: Status | null;
}

/**
 * PostFilter: runs when PreFilter or Filter left no node, in order, until one returns Success
 * (DefaultPreemption is one). `filteredNodeStatusMap` holds each node's verdict; nodes marked
 * UnschedulableAndUnresolvable are this plugin's to pass over. Return Success (with a nominated
 * node, when preempting) when the pod can be made to fit, Unschedulable when not, Error when the
 * plugin failed.
 */
export interface PostFilterPlugin extends Plugin {
  /**
   * Returns a promise only when it waits for I/O (DefaultPreemption asking extenders with a
   * preempt verb, see Handle.extenders); the scheduling cycle stays synchronous otherwise.
   */
  postFilter(state: CycleState, pod: PodInfo, filteredNodeStatusMap: NodeToStatusReader): PostFilterOutcome | Promise<PostFilterOutcome>;
}

/**
 * PreScore: runs once per cycle over the nodes that passed Filter, to compute what Score reads. A
 * status other than Success or Skip fails the attempt; Skip drops this plugin's Score for the cycle.
 * The `nodes` list (Score's too) is the scheduler's, reused by the next cycle: keep what you read
 * of it, not the list.
 */
export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): Status | null;
}

/** NormalizeScore: rescales this plugin's scores of all nodes into [MinNodeScore, MaxNodeScore] in place. */
export interface ScoreExtensions {
  normalizeScore(state: CycleState, pod: PodInfo, scores: NodeScore[]): Status | null;
}

/** Where addScoresOnto puts a plugin's weighted scores: totals by node, index-aligned with the nodes. */
export interface ScoresOnto {
  readonly weight: number;
  /** Null: add to each total; a number: write base + score * weight over each. */
  readonly base: number | null;
  readonly totals: Float64Array;
}

/**
 * Score: ranks each node that passed Filter. The scores, normalized, are weighted by the profile's
 * weight for the plugin and summed; the highest total wins (ties broken by the random source). A
 * Status fails the attempt.
 */
export interface ScorePlugin extends Plugin {
  /** Returns the node's score, or a Status on error. */
  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number | Status;
  /**
   * Optional batch form of `score`: sets `out[i].score` for every `nodes[i]` (the entries hold
   * the previous plugin's values until then), or returns the Status
   * `score` would have returned for the first node that fails. It must give exactly `score`'s
   * results; the framework prefers it, since it reads the cycle state once instead of per node.
   */
  scoreNodes?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null;
  /**
   * Optional: `scoreNodes` into a column of numbers, `scores[i]` for every `nodes[i]` (the column
   * may be longer than `nodes`). Preferred over both: a cycle whose plugins all have it (and no
   * NormalizeScore) builds no NodeScore list. When `state.scoredRows.rowsFor(nodes)` is not
   * null, `state.scoredRows.positions[i]` is the row of `nodes[i]` in it.
   */
  scoreNodesInto?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], scores: Float64Array): Status | null;
  /**
   * Optional: scoreNodesInto's scores, each times `onto.weight`, added to `onto.totals[i]` (or,
   * when `onto.base` is not null, written there as base + score * weight), for a cycle that keeps
   * no per-plugin scores, of a plugin without NormalizeScore: the scores are read once. Answers
   * true when done, false when it cannot for these nodes (the framework then asks scoreNodesInto),
   * a number for the first score outside MinNodeScore..MaxNodeScore met (the cycle then fails as
   * with Score's), or an error Status.
   */
  addScoresOnto?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], onto: ScoresOnto): Status | boolean | number;
  /**
   * How the row pass may score `pod` for this plugin ahead of Score (asked before PreScore, so a
   * plugin whose PreScore would skip the pod answers null): scoreNodesInto then takes the
   * precomputed scores it finds in `state.scoredRows.pass` for itself.
   */
  rowScoring?(state: CycleState, pod: PodInfo): RowScoring | null;
  scoreExtensions?(): ScoreExtensions | null;
  /**
   * Optional: when this pod would get the same final score (after NormalizeScore) on every one of
   * `nodes`, that score; otherwise null. It must be cheap (no per-node scoring) and never wrong:
   * a cycle that keeps no per-plugin scores then adds it to every node's total without running
   * Score and NormalizeScore, which changes no total and so no choice.
   */
  uniformScore?(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): number | null;
}

/**
 * One part of a pod's scheduling signature (framework.SignFragment): a key naming what the value
 * was derived from (the names in signers.ts), and a JSON-serialisable value. Fragments with one
 * key are expected to carry one value for one pod, so plugins can share a signer.
 */
export interface SignFragment {
  readonly key: string;
  readonly value: unknown;
}

/**
 * A Filter or Score plugin that can say which parts of a pod decide its verdicts and scores
 * (framework.SignPlugin, KEP-5598). Two pods whose fragments agree across every plugin get the
 * same feasibility and scores on the same nodes, so opportunistic batching may reuse one's
 * ranking for the next. Returning a non-success Status makes the pod unsignable (no batching for
 * it); every PreFilter, Filter, PreScore and Score plugin of a profile must implement it, or no
 * pod of that profile is batched.
 */
export interface SignPlugin extends Plugin {
  signPod(pod: PodInfo): readonly SignFragment[] | Status;
}

/**
 * Reserve: the node is chosen and the pod assumed in the cache; update the plugin's own
 * bookkeeping (claims, volumes) before binding. A failure rejects the pod and every Reserve
 * plugin's `unreserve` runs. `unreserve` also runs when a later step fails; it must be idempotent
 * and may run without a prior `reserve`.
 */
export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: PodInfo, nodeName: string): Status | null;
  unreserve(state: CycleState, pod: PodInfo, nodeName: string): void;
}

/**
 * Permit: the last say before the binding cycle: Success lets the pod go on, Wait holds it (up to
 * `timeoutMs`, until every waiting plugin allows it through the Handle's waiting pods), anything
 * else rejects it and runs Unreserve. A timeout or a rejection while waiting rejects it too.
 */
export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: PodInfo, nodeName: string): PermitOutcome;
}

/** What a PreBind plugin's pre-flight tells besides its status (framework.PreBindPreFlightResult). */
export interface PreBindPreFlightResult {
  /** Its PreBind may run at the same time as the other plugins' that allow it. */
  readonly allowParallel: boolean;
}

export interface PreBindPreFlightOutcome {
  readonly result: PreBindPreFlightResult | null;
  /** null (Success): PreBind has work for this pod; Skip: it has none and is not run; or Error. */
  readonly status: Status | null;
}

/**
 * PreBind: work the binding needs first (provisioning volumes, allocating claims), off the
 * scheduling cycle. A failure unreserves the pod and retries it after backoff.
 */
export interface PreBindPlugin extends Plugin {
  /**
   * Says cheaply, before Permit's wait, whether PreBind will have work for this pod on this node
   * (PreBindPreFlight). With NominatedNodeNameForExpectation, when some plugin has, the binding
   * cycle writes the pod's nominatedNodeName first, so that others (an autoscaler) see where it
   * is going while PreBind works; a plugin that returns Skip is not run in PreBind. Success,
   * Skip or Error only. A plugin without it counts as having work on every pod, not in parallel.
   */
  preBindPreFlight?(state: CycleState, pod: PodInfo, nodeName: string): PreBindPreFlightOutcome;
  /**
   * Does the work. `signal` (upstream's context) is aborted when the binding is cancelled: a
   * preemption that picks this pod as a victim while it is in PreBind (SchedulerAsyncPreemption).
   * A plugin waiting on something should stop then and return an error (Go's `context canceled`;
   * `PluginClusterClient.waitUntil` does so when given the signal); the binding fails either way,
   * but a plugin that ignores the signal holds the binding cycle until it returns.
   */
  preBind(state: CycleState, pod: PodInfo, nodeName: string, signal?: AbortSignal): Promise<Status | null>;
}

/**
 * Bind: writes the binding. Bind plugins run in order until one does not return Skip; a failure
 * unreserves the pod and retries it after backoff.
 */
export interface BindPlugin extends Plugin {
  /** Returns Skip to let the next bind plugin decide. */
  bind(state: CycleState, pod: PodInfo, nodeName: string): Promise<Status | null>;
}

/** PostBind: informational, after a successful binding (clean-up); cannot fail. */
export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: PodInfo, nodeName: string): void;
}

export type AnyPlugin = Plugin &
  Partial<
    Omit<PreEnqueuePlugin, 'name'> &
      Omit<QueueSortPlugin, 'name'> &
      Omit<EnqueueExtensions, 'name'> &
      Omit<PreFilterPlugin, 'name'> &
      Omit<FilterPlugin, 'name'> &
      Omit<PostFilterPlugin, 'name'> &
      Omit<PreScorePlugin, 'name'> &
      Omit<ScorePlugin, 'name'> &
      Omit<SignPlugin, 'name'> &
      Omit<ReservePlugin, 'name'> &
      Omit<PermitPlugin, 'name'> &
      Omit<PreBindPlugin, 'name'> &
      Omit<BindPlugin, 'name'> &
      Omit<PostBindPlugin, 'name'> &
      Omit<PlacementFeasiblePlugin, 'name'> &
      Omit<PlacementGeneratePlugin, 'name'> &
      Omit<PlacementScorePlugin, 'name'>
  >;

export const isPreEnqueuePlugin = (p: Plugin): p is PreEnqueuePlugin => typeof (p as AnyPlugin).preEnqueue === 'function';
export const isQueueSortPlugin = (p: Plugin): p is QueueSortPlugin => typeof (p as AnyPlugin).less === 'function';
export const isEnqueueExtensions = (p: Plugin): p is EnqueueExtensions => typeof (p as AnyPlugin).eventsToRegister === 'function';
export const isPreFilterPlugin = (p: Plugin): p is PreFilterPlugin => typeof (p as AnyPlugin).preFilter === 'function';
export const isFilterPlugin = (p: Plugin): p is FilterPlugin => typeof (p as AnyPlugin).filter === 'function';
export const isPostFilterPlugin = (p: Plugin): p is PostFilterPlugin => typeof (p as AnyPlugin).postFilter === 'function';
export const isPreScorePlugin = (p: Plugin): p is PreScorePlugin => typeof (p as AnyPlugin).preScore === 'function';
export const isScorePlugin = (p: Plugin): p is ScorePlugin => typeof (p as AnyPlugin).score === 'function';
export const isSignPlugin = (p: Plugin): p is SignPlugin => typeof (p as AnyPlugin).signPod === 'function';
export const isReservePlugin = (p: Plugin): p is ReservePlugin => typeof (p as AnyPlugin).reserve === 'function';
export const isPlacementFeasiblePlugin = (p: Plugin): p is PlacementFeasiblePlugin => typeof (p as AnyPlugin).placementFeasible === 'function';
export const isPlacementGeneratePlugin = (p: Plugin): p is PlacementGeneratePlugin => typeof (p as AnyPlugin).generatePlacements === 'function';
export const isPlacementScorePlugin = (p: Plugin): p is PlacementScorePlugin => typeof (p as AnyPlugin).scorePlacement === 'function';
export const isPermitPlugin = (p: Plugin): p is PermitPlugin => typeof (p as AnyPlugin).permit === 'function';
export const isPreBindPlugin = (p: Plugin): p is PreBindPlugin => typeof (p as AnyPlugin).preBind === 'function';
export const isBindPlugin = (p: Plugin): p is BindPlugin => typeof (p as AnyPlugin).bind === 'function';
export const isPostBindPlugin = (p: Plugin): p is PostBindPlugin => typeof (p as AnyPlugin).postBind === 'function';

/** Read access to the per-cycle snapshot of nodes (framework.NodeInfoLister). */
export interface NodeInfoLister {
  list(): readonly NodeInfo[];
  havePodsWithAffinityList(): readonly NodeInfo[];
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
  get(nodeName: string): NodeInfo | undefined;
  /**
   * Optional change tracking, for plugins that keep per-node aggregates between cycles.
   * `listEpoch` is unique to one node list (a new one when nodes are added, removed or moved);
   * `changedSince(epoch, cursor)` gives the NodeInfos updated in place since `changeCursor` was
   * read (compare generations; a node may repeat), or null when the caller must look at all.
   */
  readonly listEpoch?: number;
  readonly changeCursor?: number;
  changedSince?(epoch: number, cursor: number): readonly NodeInfo[] | null;
}

/** Read access to the snapshot's volume usage (framework.StorageInfoLister). */
export interface StorageInfoLister {
  /** True when a pod in the snapshot uses the PVC keyed "namespace/name". */
  isPVCUsedByPods(key: string): boolean;
}

export interface SharedLister {
  nodeInfos(): NodeInfoLister;
  /** Optional so listers built over nodes alone stay valid; the cache's Snapshot provides it. */
  storageInfos?(): StorageInfoLister;
}

/** Kinds plugins read from the cluster besides pods and nodes (the `listed` kinds of `api/kinds.ts`). */
export type ListedKind = ListedKindName;

/** Informer-backed read access to cluster objects (a lister per kind). */
export interface ObjectLister {
  list<T extends KubeObject>(kind: ListedKind, namespace?: string): readonly T[];
  get<T extends KubeObject>(kind: ListedKind, namespace: string, name: string): T | undefined;
  /**
   * Calls `fn` with the kind of every object added, replaced or removed from now on, with the
   * object before and after (undefined: absent; both undefined: a change of that kind not kept
   * here), until the returned function is called. Objects are replaced on change, never edited
   * in place.
   */
  onChange?(fn: (kind: string, oldObj: KubeObject | undefined, newObj: KubeObject | undefined) => void): () => void;
}

/** A pod waiting at Permit (framework.WaitingPod). */
export interface WaitingPod {
  readonly pod: Pod;
  pendingPlugins(): string[];
  allow(pluginName: string): void;
  reject(pluginName: string, message: string): void;
  /**
   * Ends the wait with an Error status (Preempt): unlike a rejection, the pod is not marked
   * unschedulable but retried after backoff. False when the wait had already ended.
   */
  preempt(pluginName: string, message: string): boolean;
}

/** A pod in PreBind, whose binding can still be cancelled (framework.PodInPreBind). */
export interface PodInPreBind {
  /**
   * Cancels the binding: once PreBind ends the binding cycle fails with `message` instead of
   * binding. False when the pod is already past PreBind.
   */
  cancel(message: string): boolean;
}

/** Nominated pods per node (framework.PodNominator), for preemption and filtering. */
export interface PodNominatorReader {
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /** False when no pod is nominated anywhere: the filter walk then skips the per-node lookup. */
  hasNominatedPods?(): boolean;
}

/** Writes the scheduler makes to the cluster, as plugins see them. */
export interface PluginClusterClient {
  bind(pod: Pod, nodeName: string): Promise<void>;
  deletePod(pod: Pod, opts?: { disruptionReason?: string; message?: string }): Promise<void>;
  clearNominatedNodeName(pod: Pod): Promise<void>;
  /** Replaces a PersistentVolume (VolumeBinding's static binding); resolves with the stored object. */
  updatePersistentVolume?(pv: PersistentVolume): Promise<PersistentVolume>;
  /** Replaces a PersistentVolumeClaim (VolumeBinding's selected node); resolves with the stored object. */
  updatePersistentVolumeClaim?(pvc: PersistentVolumeClaim): Promise<PersistentVolumeClaim>;
  /**
   * Writes a ResourceClaim's status subresource (allocation, reservedFor, devices): spec and
   * metadata changes are ignored, a stale resourceVersion is refused with ApiError(409), a
   * missing claim with 404. Resolves with the stored claim (DynamicResources' PreBind, PostFilter).
   */
  updateResourceClaimStatus?(claim: ResourceClaim): Promise<ResourceClaim>;
  /** Replaces a ResourceClaim (metadata such as finalizers; status ignored), resourceVersion-checked. */
  updateResourceClaim?(claim: ResourceClaim): Promise<ResourceClaim>;
  /** Creates a ResourceClaim (claims for DRA-backed extended resources); resolves with the stored object. */
  createResourceClaim?(claim: ResourceClaim): Promise<ResourceClaim>;
  /** Deletes a ResourceClaim; rejects with ApiError(404) when it does not exist. */
  deleteResourceClaim?(namespace: string, name: string): Promise<void>;
  /** Sets the pod's status.extendedResourceClaimStatus (the claim DynamicResources made for its extended resources). */
  setExtendedResourceClaimStatus?(pod: Pod, status: PodExtendedResourceClaimStatus): Promise<void>;
  /**
   * Resolves true once `ready()` holds, checked now and after every change of the listed objects,
   * or false after `timeoutMs` on the scheduler clock; rejects when `ready` throws, or with
   * `context canceled` as soon as `signal` (PreBind's) is aborted.
   */
  waitUntil?(ready: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** Whether the pod still exists (the informer's view); waitUntil re-checks after pod deletions too. */
  podExists?(namespace: string, name: string): boolean;
  /** The pod as the informer sees it, or undefined when it is gone. */
  getPod?(namespace: string, name: string): Pod | undefined;
}

export interface EventRecorder {
  event(regarding: KubeObject, type: 'Normal' | 'Warning', reason: string, action: string, message: string): void;
}

/** What the framework hands to plugins (framework.Handle). */
export interface Handle {
  snapshotSharedLister(): SharedLister;
  objects(): ObjectLister;
  client(): PluginClusterClient;
  eventRecorder(): EventRecorder;
  nominator(): PodNominatorReader;
  /** Current time in ms on the scheduler's clock. */
  now(): number;
  /** The seeded random source, in [0, 1). */
  random(): number;
  /**
   * Moves the random source past its next `draws` draws and returns a source yielding exactly
   * those, for work that may never need them (optional; without it, draw them with `random`).
   */
  deferRandom?(draws: number): () => number;
  getWaitingPod(uid: string): WaitingPod | undefined;
  iterateOverWaitingPods(fn: (wp: WaitingPod) => void): void;
  rejectWaitingPod(uid: string): boolean;
  /** Runs every Filter plugin, with nominated pods taken into account (two passes). */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null;
  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): Status | null;
  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | null;
  /** The profile's scheduler name. */
  readonly profileName: string;
  /** Number of parallel workers from config (informational in a single-threaded runtime). */
  readonly parallelism: number;
  /** The scheduler's HTTP extenders, in the order it calls them (none when absent). */
  extenders?(): readonly Extender[];
  /**
   * Moves these pods from the unschedulable pods or backoff to the active queue (Activate), as a
   * plugin does outside a scheduling cycle when it knows no cluster event will wake them.
   */
  activate?(pods: Iterable<Pod>): void;
  /**
   * Work a plugin started outside the scheduling cycle (a preemption's evictions), as upstream
   * starts a goroutine: the scheduler waits for it before a simulation step ends.
   */
  runInBackground?(work: Promise<void>): void;
  /** The pod in PreBind with this uid, whose binding can still be cancelled (GetPodInPreBind). */
  getPodInPreBind?(uid: string): PodInPreBind | undefined;
  /** Where plugins report their own metrics (preemption attempts, victims); null when metrics are off. */
  metricsRecorder?(): MetricsRecorder | null;
  /**
   * The scheduler's one view of DRA objects (claims with allocations in flight, slices, classes),
   * shared by every plugin of every profile; null when the scheduler keeps none.
   */
  sharedDRAManager?(): SharedDRAManager | null;
  /** Pod groups and their members (GenericWorkload; fwk.Handle.PodGroupManager). */
  podGroups?(): PodGroupLister | undefined;
}

/** A PodGroup or CompositePodGroup of a workload's group tree (fwk.EntityKey of those kinds). */
export interface GroupKey {
  readonly kind: 'PodGroup' | 'CompositePodGroup';
  readonly namespace: string;
  readonly name: string;
}

/** Pod groups and their member pods, as the informers and the cache know them. */
export interface PodGroupLister {
  podGroup(namespace: string, name: string): PodGroup | undefined;
  /** The composite group (CompositePodGroup gate), when observed. */
  compositePodGroup?(namespace: string, name: string): CompositePodGroup | undefined;
  /** The observed groups whose parent is composite `name`. */
  childrenOf?(namespace: string, name: string): GroupKey[];
  /** The root of the tree `key` hangs in; null while a group on the way up is not observed. */
  rootOf?(key: GroupKey): GroupKey | null;
  /** Every member pod the informer has. */
  allPodsCount(namespace: string, name: string): number;
  /** Members bound or assumed. */
  scheduledPodsCount(namespace: string, name: string): number;
  /** Members neither bound nor assumed. */
  unscheduledPods(namespace: string, name: string): Pod[];
  /** Members assumed (waiting at Permit or binding). */
  assumedPods(namespace: string, name: string): Pod[];
  /** Members bound or assumed (an assumed one with the node it is assumed on). */
  scheduledPods(namespace: string, name: string): Pod[];
}

/** How far a pod group's cycle got (framework.PlacementProgress). */
export interface PlacementProgress {
  /** Members not tried yet in this cycle. */
  readonly remaining: number;
  /** Members scheduled (bound, assumed, or placed in this cycle). */
  readonly scheduled: number;
}

/** Decides, as a pod group's members are placed one by one, whether the group can still succeed. */
export interface PlacementFeasiblePlugin extends Plugin {
  placementFeasible(podGroup: SchedulingGroup, progress: PlacementProgress): Status | null;
}

/**
 * A candidate set of nodes a pod group's cycle is tried on (framework.Placement,
 * TopologyAwareWorkloadScheduling): the group's members see only these nodes while it is tried.
 */
export interface Placement {
  /** Chosen by the generator (TopologyPlacementGenerator: the topology domain's value); '' for all nodes. */
  readonly name: string;
  /** The nodes, in the snapshot's order, each the snapshot's own NodeInfo. */
  readonly nodes: readonly NodeInfo[];
}

/** What a PlacementGenerate plugin proposes (framework.GeneratePlacementsResult). */
export interface GeneratePlacementsResult {
  /** The placements to try; none makes the group unschedulable (`no feasible placements found`). */
  readonly placements: readonly Placement[];
}

/**
 * PlacementGenerate (TopologyAwareWorkloadScheduling): splits the nodes a pod group may use into
 * candidate placements, each then tried with the group's members. A profile runs at most one.
 */
export interface PlacementGeneratePlugin extends Plugin {
  /**
   * The candidate placements within `parent` (all nodes at the root), or a Status on error or
   * rejection. `state` is the group's cycle state, shared by every placement.
   */
  generatePlacements(state: CycleState, podGroup: SchedulingGroup, parent: Placement): GeneratePlacementsResult | Status;
}

/** One member placed on a node when its group was tried on a placement (framework.ProposedAssignment). */
export interface ProposedAssignment {
  readonly podInfo: PodInfo;
  readonly nodeName: string;
}

/** A feasible placement and where its trial put the members (framework.PodGroupAssignments). */
export interface PodGroupAssignments {
  readonly placement: Placement;
  /** The members placed in this trial, in the cycle's order. */
  readonly proposedAssignments: readonly ProposedAssignment[];
}

/** One plugin's score of one placement (framework.PlacementScore); NormalizePlacementScore rewrites `score`. */
export interface PlacementScore {
  readonly placement: Placement;
  score: number;
}

/**
 * PlacementScore (TopologyAwareWorkloadScheduling): scores each placement on which the whole group
 * was feasible; the weighted sum over the profile's plugins picks the placement (ties at random).
 */
export interface PlacementScorePlugin extends Plugin {
  /**
   * The placement's raw score (higher is better), or a Status on error. `state` is the placement's
   * own cycle state, the one its members' cycles saw.
   */
  scorePlacement(state: CycleState, podGroup: SchedulingGroup, assignments: PodGroupAssignments): number | Status;
  /**
   * Optional: rescales this plugin's scores of every feasible placement into
   * [MinNodeScore, MaxNodeScore] in place; null on success.
   */
  normalizePlacementScore?(state: CycleState, podGroup: SchedulingGroup, scores: PlacementScore[]): Status | null;
}

/** Builds a plugin from its (defaulted) args and the feature gates' values. */
export type PluginFactory = (args: unknown, handle: Handle, features: Features) => Plugin;
