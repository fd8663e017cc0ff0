// NodeAffinity filters and scores nodes by the pod's nodeSelector and node affinity, plus the
// profile's added affinity (pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go).
import { NodeSelectorMatcher, PreferredTermsScorer } from '../../api/nodeselector.js';
import type { Pod } from '../../api/types.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import { defaultNormalizeScore, MaxNodeScore } from '../../framework/helpers/normalize.js';
import type {
  EnqueueExtensions,
  FilterPlugin,
  NodeScore,
  PreFilterOutcome,
  PreFilterPlugin,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
} from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { NodeAffinity as Name } from '../../framework/names.js';
import type { NodeAffinityArgs } from './args.js';
import { MatchResult, RequiredNodeAffinity } from '../../api/nodeselector.js';
import { aggregateMessage, validatePreferredSchedulingTerms } from './validation.js';
import type { SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { deferredFragment, NodeAffinitySignerName, NodeSelectorSignerName, nodeAffinitySigner } from '../../framework/signers.js';

export { Name };

const preScoreStateKey = 'PreScore' + Name;
const preFilterStateKey = 'PreFilter' + Name;

/** The pod's nodeSelector or required node affinity rejects the node. */
export const ErrReasonPod = "node(s) didn't match Pod's node affinity/selector";
/** The profile's added affinity rejects the node. */
export const errReasonEnforced = "node(s) didn't match scheduler-enforced node affinity";
/** Every required term pins the pod to node names that exclude each other. */
export const errReasonConflict = 'pod affinity terms conflict';

const rejectedByPod = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonPod);
const rejectedByEnforced = Status.constant(Code.UnschedulableAndUnresolvable, Name, errReasonEnforced);

const metadataNameField = 'metadata.name';

class PreFilterState implements StateData {
  constructor(readonly required: RequiredNodeAffinity) {}

  clone(): StateData {
    return this;
  }
}

class PreScoreState implements StateData {
  constructor(readonly preferred: PreferredTermsScorer | null) {}

  clone(): StateData {
    return this;
  }
}

export class NodeAffinity
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions, SignPlugin
{
  readonly name = Name;

  /** Verdicts and scores follow the pod's node affinity and node selector. */
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [
      deferredFragment(NodeAffinitySignerName, nodeAffinitySigner, pod.pod),
      { key: NodeSelectorSignerName, value: pod.pod.spec.nodeSelector ?? null },
    ];
  }
  private readonly addedNodeSelector: NodeSelectorMatcher | null = null;
  private readonly addedPrefSchedTerms: PreferredTermsScorer | null = null;

  /** `args` must be validated: the added affinity parses. */
  constructor(args: NodeAffinityArgs) {
    const added = args.addedAffinity;
    const required = added?.requiredDuringSchedulingIgnoredDuringExecution;
    if (required) this.addedNodeSelector = new NodeSelectorMatcher(required.nodeSelectorTerms ?? []);
    const preferred = added?.preferredDuringSchedulingIgnoredDuringExecution;
    if (preferred && preferred.length > 0) this.addedPrefSchedTerms = new PreferredTermsScorer(preferred);
  }

  preFilter(state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    const spec = pod.pod.spec;
    const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (!required && this.addedNodeSelector === null && (spec.nodeSelector === undefined || spec.nodeSelector === null)) {
      return { status: Status.skip() };
    }
    state.write(preFilterStateKey, new PreFilterState(RequiredNodeAffinity.fromPod(pod.pod)));
    const terms = required?.nodeSelectorTerms;
    if (!terms || terms.length === 0) return null;

    // When every term pins metadata.name, only the union of those names can match.
    let nodeNames: Set<string> | null = null;
    for (const term of terms) {
      let termNames: Set<string> | null = null;
      for (const r of term.matchFields ?? []) {
        if (r.key !== metadataNameField || r.operator !== 'In') continue;
        const values = new Set(r.values ?? []);
        if (termNames === null) termNames = values;
        else for (const n of termNames) if (!values.has(n)) termNames.delete(n);
      }
      // A term without a node name requirement lets any node through (terms are ORed).
      if (termNames === null) return null;
      if (nodeNames === null) nodeNames = termNames;
      else for (const n of termNames) nodeNames.add(n);
    }
    if (nodeNames === null) return null;
    if (nodeNames.size === 0) return { status: Status.unresolvable(errReasonConflict) };
    return { result: { nodeNames } };
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const node = nodeInfo.node;
    if (node === null) return Status.error('node not found');
    if (this.addedNodeSelector !== null && !this.addedNodeSelector.matches(node)) {
      return rejectedByEnforced;
    }
    // Without PreFilter (disabled), parse here; parse errors only make terms unmatchable.
    const s = state.read<PreFilterState>(preFilterStateKey);
    const required = s !== undefined ? s.required : RequiredNodeAffinity.fromPod(pod.pod);
    return required.matches(node) ? null : rejectedByPod;
  }

  preScore(state: CycleState, pod: PodInfo): Status | null {
    const preferred = podPreferredNodeAffinity(pod.pod);
    if (preferred instanceof Status) return preferred;
    if (preferred === null && this.addedPrefSchedTerms === null) return Status.skip();
    state.write(preScoreStateKey, new PreScoreState(preferred));
    return null;
  }

  /** The sum of the weights of the preferred terms (the pod's and the added ones) the node matches. */
  score(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): number | Status {
    const node = nodeInfo.node;
    if (node === null) return Status.error('node not found');
    let count = 0;
    if (this.addedPrefSchedTerms !== null) count += this.addedPrefSchedTerms.score(node);
    let preferred: PreferredTermsScorer | null;
    const s = state.read<PreScoreState>(preScoreStateKey);
    if (s !== undefined) {
      preferred = s.preferred;
    } else {
      const parsed = podPreferredNodeAffinity(pod.pod);
      if (parsed instanceof Status) return parsed;
      preferred = parsed;
    }
    if (preferred !== null) count += preferred.score(node);
    return count;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(_state: CycleState, _pod: PodInfo, scores: NodeScore[]): Status | null {
    defaultNormalizeScore(MaxNodeScore, false, scores);
    return null;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
    ];
  }

  /** Queues when an added node matches, or an updated node starts to match, the pod's required affinity. */
  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objects = eventObjectsAs('Node', oldObj, newObj);
    if (objects?.newObj == null) return QueueingHint.Queue;
    const { oldObj: original, newObj: modified } = objects;
    if (this.addedNodeSelector !== null && !this.addedNodeSelector.matches(modified)) return QueueingHint.QueueSkip;
    const required = RequiredNodeAffinity.fromPod(pod);
    const now = required.matchResult(modified);
    if (now === MatchResult.ParseError) return QueueingHint.Queue;
    if (now === MatchResult.NoMatch) return QueueingHint.QueueSkip;
    if (original === null) return QueueingHint.Queue;
    const before = required.matchResult(original);
    if (before === MatchResult.ParseError) return QueueingHint.Queue;
    return before === MatchResult.Match ? QueueingHint.QueueSkip : QueueingHint.Queue;
  }
}

/**
 * The pod's preferred terms, null when it has none, or an Error status naming the unparsable
 * fields (PreScore fails for such a pod, as upstream's does).
 */
function podPreferredNodeAffinity(pod: Pod): PreferredTermsScorer | null | Status {
  const terms = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
  if (terms === undefined || terms === null) return null;
  try {
    return new PreferredTermsScorer(terms);
  } catch (err) {
    const errs = validatePreferredSchedulingTerms(terms, '');
    const detail = errs.length > 0 ? aggregateMessage(errs) : (err as Error).message;
    return Status.error(`pod ${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''} has an invalid preferred node affinity: ${detail}`);
  }
}
