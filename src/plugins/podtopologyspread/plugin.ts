// Mirrors upstream pkg/scheduler/framework/plugins/podtopologyspread/plugin.go (and common.go's
// buildDefaultConstraints): construction, constraint selection, events and queueing hints.
import type { Labels } from '../../api/labels.js';
import { labelsEqual, taintsEqual, tolerationsEqual } from '../../api/equality.js';
import { podKey, type Pod, type TopologySpreadConstraint } from '../../api/types.js';
import type { CycleState } from '../../framework/cycle_state.js';
import type { Features } from '../../framework/features.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type {
  EnqueueExtensions,
  FilterPlugin,
  Handle,
  NodeScore,
  PreFilterExtensions,
  PreFilterOutcome,
  PreFilterPlugin,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
} from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import type { PodTopologySpreadArgs } from './args.js';
import {
  filterTopologySpreadConstraints,
  withSelector,
  LabelHostname,
  LabelTopologyZone,
  nodeLabelsMatchSpreadConstraints,
  podLabelsMatchSpreadConstraints,
  type SpreadConstraint,
  type UnsatisfiableConstraintAction,
} from './common.js';
import { defaultSelector } from './default_selector.js';
import { SpreadCountsCache } from './counts_cache.js';
import { calPreFilterState, filterNode, getPreFilterState, preFilterCountingSpec, preFilterStateKey, updateWithPod } from './filtering.js';
import { calPreScoreState, getPreScoreState, normalizeScores, preScoreCountingSpec, preScoreStateKey, scoreNode, scoreNodes } from './scoring.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { Code } from '../../framework/status.js';

export const Name = 'PodTopologySpread';
const unsignableConstraints = Status.constant(Code.Unschedulable, Name, 'pods with topology constraints are not signable');
const unsignableDefaultConstraints = Status.constant(Code.Unschedulable, Name, 'pods with default topology constraints are not signable');

/** Used for pods without constraints when defaultingType is System. */
const systemDefaultConstraints: readonly TopologySpreadConstraint[] = [
  { topologyKey: LabelHostname, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LabelTopologyZone, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions, PreFilterExtensions, ScoreExtensions, SignPlugin {
  readonly name = Name;

  /**
   * Spreading depends on where other pods are, not on the pod and node alone: a pod with
   * constraints, its own or the defaults (System's included), is not signed.
   */
  signPod(pod: PodInfo): readonly SignFragment[] | Status {
    if ((pod.pod.spec.topologySpreadConstraints?.length ?? 0) > 0) return unsignableConstraints;
    if (this.defaultConstraints.length > 0) return unsignableDefaultConstraints;
    return [];
  }
  private readonly defaultConstraints: readonly TopologySpreadConstraint[];
  private readonly systemDefaulted: boolean;
  /** Matching pods per domain for recent pods' constraints, kept in step with the snapshot. */
  private readonly counts = new SpreadCountsCache(16);

  constructor(
    args: PodTopologySpreadArgs,
    private readonly handle: Handle,
    private readonly features: Pick<Features, 'enableMatchLabelKeysInPodTopologySpread'>,
  ) {
    this.systemDefaulted = args.defaultingType === 'System';
    this.defaultConstraints = this.systemDefaulted ? systemDefaultConstraints : args.defaultConstraints;
  }

  /** The pod's own constraints with `action`, or the default ones built from its controllers. */
  getConstraints(pod: Pod, action: UnsatisfiableConstraintAction): SpreadConstraint[] {
    const own = pod.spec.topologySpreadConstraints;
    if (own && own.length > 0) return filterTopologySpreadConstraints(own, pod.metadata.labels, action, this.features.enableMatchLabelKeysInPodTopologySpread);
    return this.buildDefaultConstraints(pod, action);
  }

  private buildDefaultConstraints(pod: Pod, action: UnsatisfiableConstraintAction): SpreadConstraint[] {
    // Upstream filters the defaults, then drops them all when nothing selects the pod. Building them
    // cannot fail (default constraints carry no labelSelector), so the selector is asked first and
    // most pods (no Service or controller) build none.
    if (!anyWithAction(this.defaultConstraints, action)) return [];
    const selector = defaultSelector(pod, this.handle.objects());
    if (selector.isEverything) return [];
    const constraints = filterTopologySpreadConstraints(this.defaultConstraints, pod.metadata.labels, action, this.features.enableMatchLabelKeysInPodTopologySpread);
    for (let i = 0; i < constraints.length; i++) constraints[i] = withSelector(constraints[i]!, selector);
    return constraints;
  }

  preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterOutcome | null {
    let constraints: SpreadConstraint[];
    try {
      constraints = this.getConstraints(pod.pod, 'DoNotSchedule');
    } catch (err) {
      return { status: Status.error(`get constraints from pod: obtaining pod's hard topology spread constraints: ${(err as Error).message}`) };
    }
    if (constraints.length === 0) return { status: Status.skip() };
    const lister = this.handle.snapshotSharedLister().nodeInfos();
    const counts = this.counts.countsFor(preFilterCountingSpec(pod, constraints), nodes, lister);
    state.write(preFilterStateKey, calPreFilterState(constraints, counts));
    return null;
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): Status | null {
    const s = getPreFilterState(state);
    if (s instanceof Status) return s;
    updateWithPod(s, podToAdd.pod, podToSchedule.pod, nodeInfo.node, 1);
    return null;
  }

  removePod(state: CycleState, podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | null {
    const s = getPreFilterState(state);
    if (s instanceof Status) return s;
    updateWithPod(s, podToRemove.pod, podToSchedule.pod, nodeInfo.node, -1);
    return null;
  }

  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const s = getPreFilterState(state);
    if (s instanceof Status) return s;
    return filterNode(s, pod, nodeInfo);
  }

  preScore(state: CycleState, pod: PodInfo, filteredNodes: readonly NodeInfo[]): Status | null {
    const lister = this.handle.snapshotSharedLister().nodeInfos();
    const allNodes = lister.list();
    if (allNodes.length === 0) return Status.skip();
    let constraints: SpreadConstraint[];
    try {
      constraints = this.getConstraints(pod.pod, 'ScheduleAnyway');
    } catch (err) {
      return Status.error(`calculating preScoreState: obtaining pod's soft topology spread constraints: ${(err as Error).message}`);
    }
    if (constraints.length === 0) return Status.skip();
    // Only the system defaults tolerate nodes missing a topology key (hostname spreading still works).
    const requireAllTopologies = (pod.pod.spec.topologySpreadConstraints?.length ?? 0) > 0 || !this.systemDefaulted;
    const counts = this.counts.countsFor(preScoreCountingSpec(pod, constraints, requireAllTopologies), allNodes, lister);
    state.write(preScoreStateKey, calPreScoreState(pod, constraints, filteredNodes, counts, requireAllTopologies));
    return null;
  }

  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    const s = getPreScoreState(state);
    if (s instanceof Status) return s;
    return scoreNode(s, pod, nodeInfo);
  }

  scoreNodes(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null {
    const s = getPreScoreState(state);
    if (s instanceof Status) return s;
    scoreNodes(s, pod, nodes, out);
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(state: CycleState, _pod: PodInfo, scores: NodeScore[]): Status | null {
    const s = getPreScoreState(state);
    if (s instanceof Status) return s;
    normalizeScores(s, scores);
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      // A matching pod added, relabelled or deleted changes the counts; a new toleration on the
      // pod itself matters when a constraint honours taints (queueing hints are on by default).
      {
        event: { resource: 'Pod', actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.UpdatePodToleration | ActionType.Delete },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterPodChange(pod, oldObj, newObj),
      },
      // A node added, removed, relabelled or retainted may add, drop or move a domain.
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
    ];
  }

  isSchedulableAfterPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objects = eventObjectsAs('Pod', oldObj, newObj);
    if (objects === null) return QueueingHint.Queue;
    const { oldObj: originalPod, newObj: modifiedPod } = objects;
    if ((modifiedPod && !involvedInTopologySpreading(modifiedPod, pod)) || (originalPod && !involvedInTopologySpreading(originalPod, pod))) {
      return QueueingHint.QueueSkip;
    }
    let constraints: SpreadConstraint[];
    try {
      constraints = this.getConstraints(pod, 'DoNotSchedule');
    } catch {
      return QueueingHint.Queue;
    }

    if (modifiedPod && originalPod) {
      if (
        podUID(pod) === podUID(modifiedPod) &&
        !tolerationsEqual(modifiedPod.spec.tolerations, originalPod.spec.tolerations) &&
        hasConstraintWithNodeTaintsPolicyHonor(constraints)
      ) {
        return QueueingHint.Queue;
      }
      if (labelsEqual(modifiedPod.metadata.labels, originalPod.metadata.labels)) return QueueingHint.QueueSkip;
      for (const c of constraints) {
        if (c.selector.matches(originalPod.metadata.labels) !== c.selector.matches(modifiedPod.metadata.labels)) return QueueingHint.Queue;
      }
      return QueueingHint.QueueSkip;
    }
    if (modifiedPod) {
      return podLabelsMatchSpreadConstraints(constraints, modifiedPod.metadata.labels) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    }
    if (originalPod) {
      return podLabelsMatchSpreadConstraints(constraints, originalPod.metadata.labels) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    }
    return QueueingHint.QueueSkip;
  }

  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objects = eventObjectsAs('Node', oldObj, newObj);
    if (objects === null) return QueueingHint.Queue;
    const { oldObj: originalNode, newObj: modifiedNode } = objects;
    let constraints: SpreadConstraint[];
    try {
      constraints = this.getConstraints(pod, 'DoNotSchedule');
    } catch {
      return QueueingHint.Queue;
    }
    const originalMatching = originalNode ? nodeLabelsMatchSpreadConstraints(originalNode.metadata.labels ?? {}, constraints) : false;
    const modifiedMatching = modifiedNode ? nodeLabelsMatchSpreadConstraints(modifiedNode.metadata.labels ?? {}, constraints) : false;

    if (originalNode && modifiedNode) {
      if (originalMatching !== modifiedMatching) return QueueingHint.Queue;
      if (
        modifiedMatching &&
        (topologyKeyLabelsChanged(originalNode.metadata.labels, modifiedNode.metadata.labels, constraints) ||
          !taintsEqual(originalNode.spec?.taints, modifiedNode.spec?.taints))
      ) {
        return QueueingHint.Queue;
      }
      return QueueingHint.QueueSkip;
    }
    if (modifiedNode) return modifiedMatching ? QueueingHint.Queue : QueueingHint.QueueSkip;
    return originalMatching ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }
}

/** An event about `incoming` can affect `target` when it is the pod itself or a bound pod in its namespace. */
function involvedInTopologySpreading(incoming: Pod, target: Pod): boolean {
  return (
    podUID(incoming) === podUID(target) ||
    (!!incoming.spec.nodeName && (incoming.metadata.namespace ?? 'default') === (target.metadata.namespace ?? 'default'))
  );
}

function podUID(pod: Pod): string {
  return pod.metadata.uid ?? podKey(pod);
}

function hasConstraintWithNodeTaintsPolicyHonor(constraints: readonly SpreadConstraint[]): boolean {
  for (const c of constraints) if (c.nodeTaintsPolicy === 'Honor') return true;
  return false;
}

function topologyKeyLabelsChanged(original: Labels, modified: Labels, constraints: readonly SpreadConstraint[]): boolean {
  for (const c of constraints) if ((original?.[c.topologyKey] ?? '') !== (modified?.[c.topologyKey] ?? '')) return true;
  return false;
}

function anyWithAction(constraints: readonly TopologySpreadConstraint[], action: UnsatisfiableConstraintAction): boolean {
  for (let i = 0; i < constraints.length; i++) if (constraints[i]!.whenUnsatisfiable === action) return true;
  return false;
}
