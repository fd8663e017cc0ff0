// The InterPodAffinity plugin: extension points, events and queueing hints
// (pkg/scheduler/framework/plugins/interpodaffinity/plugin.go).
import type { Pod } from '../../api/types.js';
import type { CycleState } from '../../framework/cycle_state.js';
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
import { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { InterPodAffinity as Name } from '../../framework/names.js';
import type { InterPodAffinityArgs } from './args.js';
import { AggregateCache } from '../../framework/topology/node_shares.js';
import { DomainTable } from '../../framework/topology/domain_table.js';
import { TermLabelKeys } from './term_label_keys.js';
import { filter, preFilter, updateWithPod } from './filtering.js';
import { PreFilterCaches } from './filtering_counts.js';
import { normalizeScore, preScore, score, scoreNodes } from './scoring.js';
import { namespaceLabels, podMatchesAllTerms, podMatchesAnyTerm, podNamespace } from './terms.js';
import { labelValue } from '../../framework/topology/label_value.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { LabelsSignerName } from '../../framework/signers.js';

export { Name };

const unsignable = Status.constant(Code.Unschedulable, Name, 'pods with InterPodAffinity are not signable');

export class InterPodAffinity
  implements PreFilterPlugin, PreFilterExtensions, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions, SignPlugin
{
  readonly name = Name;

  /**
   * Verdicts depend on other pods: a pod with (anti-)affinity is not signed. Without one, the
   * pod's labels still decide how existing pods' preferred terms score it, unless those are ignored.
   */
  signPod(pod: PodInfo): readonly SignFragment[] | Status {
    const affinity = pod.pod.spec.affinity;
    if (affinity && (affinity.podAffinity || affinity.podAntiAffinity)) return unsignable;
    if (this.args.ignorePreferredTermsOfExistingPods) return [];
    return [{ key: LabelsSignerName, value: pod.pod.metadata.labels ?? null }];
  }
  /** Parsed terms of pods seen by the queueing hints, which get raw objects. */
  private readonly hintPodInfos = new WeakMap<Pod, PodInfo>();
  /** Counts kept between attempts (see aggregate.ts), all bound to one domain table (domains.ts). */
  private readonly domains = new DomainTable();
  /** The label keys existing pods' terms select on: what cache keys keep of the incoming pod's labels. */
  private readonly termLabelKeys = new TermLabelKeys();
  private readonly preFilterCaches = new PreFilterCaches(this.domains, this.termLabelKeys);
  private readonly preScoreCache = new AggregateCache(this.domains);

  constructor(
    readonly args: InterPodAffinityArgs,
    private readonly handle: Handle,
  ) {}

  preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterOutcome {
    return preFilter(this.handle, this.preFilterCaches, state, pod, nodes);
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, _podToSchedule: PodInfo, podToAdd: PodInfo, nodeInfo: NodeInfo): Status | null {
    return updateWithPod(state, podToAdd, nodeInfo, 1);
  }

  removePod(state: CycleState, _podToSchedule: PodInfo, podToRemove: PodInfo, nodeInfo: NodeInfo): Status | null {
    return updateWithPod(state, podToRemove, nodeInfo, -1);
  }

  filter(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    return filter(state, nodeInfo);
  }

  preScore(state: CycleState, pod: PodInfo, _nodes: readonly NodeInfo[]): Status | null {
    return preScore(this.handle, this.args, this.preScoreCache, this.termLabelKeys, state, pod);
  }

  score(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    return score(state, nodeInfo);
  }

  scoreNodes(state: CycleState, _pod: PodInfo, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null {
    return scoreNodes(state, nodes, out);
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(state: CycleState, _pod: PodInfo, scores: NodeScore[]): Status | null {
    return normalizeScore(state, scores);
  }

  /**
   * Assigned pods coming, going or relabelled can satisfy affinity or lift anti-affinity; nodes
   * added or relabelled can bring a topology domain. With queueing hints on (the default) upstream
   * leaves out UpdateNodeTaint, which only made up for the pre-check that hints replace.
   */
  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Pod', actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterPodChange(pod, oldObj, newObj),
      },
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
    ];
  }

  isSchedulableAfterPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const pods = eventObjectsAs('Pod', oldObj, newObj);
    if (pods === null) return QueueingHint.Queue;
    // A pod neither bound nor nominated to a node takes no part in inter-pod affinity.
    const original = placedOrNull(pods.oldObj);
    const modified = placedOrNull(pods.newObj);
    if (original === null && modified === null) return QueueingHint.QueueSkip;

    const target = this.podInfoFor(pod);
    // Upstream requeues when the target's terms cannot be parsed.
    if (target.parseError !== null) return QueueingHint.Queue;
    const terms = target.requiredAffinityTerms;
    const antiTerms = target.requiredAntiAffinityTerms;
    const objects = this.handle.objects();

    if (original !== null && modified !== null) {
      // A label update: it helps when the pod starts matching all affinity terms or stops
      // matching every anti-affinity term.
      const nsLabels = namespaceLabels(objects, podNamespace(modified));
      if (!podMatchesAllTerms(terms, original, nsLabels) && podMatchesAllTerms(terms, modified, nsLabels)) return QueueingHint.Queue;
      if (podMatchesAnyTerm(antiTerms, original, nsLabels) && !podMatchesAnyTerm(antiTerms, modified, nsLabels)) return QueueingHint.Queue;
      return QueueingHint.QueueSkip;
    }

    if (modified !== null) {
      const nsLabels = namespaceLabels(objects, podNamespace(modified));
      return podMatchesAllTerms(terms, modified, nsLabels) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    }

    // A pod was deleted: it helps when the target repelled it, or when it repelled the target.
    const deleted = original!;
    if (podMatchesAnyTerm(antiTerms, deleted, namespaceLabels(objects, podNamespace(deleted)))) return QueueingHint.Queue;
    const deletedAntiTerms = this.podInfoFor(deleted).requiredAntiAffinityTerms;
    if (podMatchesAnyTerm(deletedAntiTerms, pod, namespaceLabels(objects, podNamespace(pod)))) return QueueingHint.Queue;
    return QueueingHint.QueueSkip;
  }

  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objects = eventObjectsAs('Node', oldObj, newObj);
    if (objects?.newObj == null) return QueueingHint.Queue;
    const { oldObj: original, newObj: modified } = objects;
    const target = this.podInfoFor(pod);
    if (target.parseError !== null) return QueueingHint.Queue;
    const newLabels = modified.metadata.labels;
    const oldLabels = original?.metadata.labels;

    // Affinity: a domain appears (node added with the key, key added) or the node changes domain.
    for (const term of target.requiredAffinityTerms) {
      const after = labelValue(newLabels, term.topologyKey);
      if (after === undefined) continue;
      if (original === null) return QueueingHint.Queue;
      const before = labelValue(oldLabels, term.topologyKey);
      if (before === undefined || before !== after) return QueueingHint.Queue;
    }

    // Anti-affinity: any new node may do (a node without the key accepts the pod); an existing
    // node helps when it leaves a domain.
    for (const term of target.requiredAntiAffinityTerms) {
      if (original === null) return QueueingHint.Queue;
      const before = labelValue(oldLabels, term.topologyKey);
      if (before === undefined) continue;
      const after = labelValue(newLabels, term.topologyKey);
      if (after === undefined || after !== before) return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }

  private podInfoFor(pod: Pod): PodInfo {
    let pi = this.hintPodInfos.get(pod);
    if (pi === undefined) {
      pi = new PodInfo(pod);
      this.hintPodInfos.set(pod, pi);
    }
    return pi;
  }
}

function placedOrNull(pod: Pod | null): Pod | null {
  if (pod === null) return null;
  if (pod.spec.nodeName || pod.status?.nominatedNodeName) return pod;
  return null;
}
