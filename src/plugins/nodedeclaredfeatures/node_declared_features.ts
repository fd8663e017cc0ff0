// NodeDeclaredFeatures keeps pods off nodes that do not declare the features the pod needs
// (pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go). Its gate is GA
// and locked on in v1.37, so the plugin is always active.
import type { Pod } from '../../api/types.js';
import { stringListsEqual } from '../../api/equality.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { eventObjectsAs } from '../../framework/event_objects.js';
import { ActionType, ActionTypeUpdate, QueueingHint, type ClusterEventWithHint } from '../../framework/events.js';
import type { EnqueueExtensions, FilterPlugin, PreFilterOutcome, PreFilterPlugin, SignFragment, SignPlugin } from '../../framework/interfaces.js';
import { NodeDeclaredFeatures as Name } from '../../framework/names.js';
import { FeaturesSignerName } from '../../framework/signers.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status } from '../../framework/status.js';
import { defaultFeatureRegistry, sameFeatures, type FeatureRegistry, type FeatureSet } from './feature_registry.js';

export { Name };

/** Why a node is rejected: it lacks a feature the pod requires. */
export const ErrReasonUnsatisfiedRequirements = "node(s) didn't match Pod's required features";

const preFilterStateKey = `PreFilter${Name}`;
const unsatisfied = Status.constant(Code.UnschedulableAndUnresolvable, Name, ErrReasonUnsatisfiedRequirements);

class PreFilterState implements StateData {
  constructor(readonly required: FeatureSet) {}

  clone(): StateData {
    return this;
  }
}

export class NodeDeclaredFeatures implements PreFilterPlugin, FilterPlugin, SignPlugin, EnqueueExtensions {
  readonly name = Name;

  /** `registry`: the features the framework knows (the pinned release's unless a benchmark mocks them). */
  constructor(private readonly registry: FeatureRegistry = defaultFeatureRegistry) {}

  // The last spec's inferred features: a cycle signs the pod, then runs PreFilter on the same spec
  // (stored pod specs are never changed in place, a new version is a new object).
  private lastSpec: Pod['spec'] | null = null;
  private lastRequired: FeatureSet = [];

  private required(spec: Pod['spec']): FeatureSet {
    if (spec !== this.lastSpec) {
      this.lastRequired = this.registry.inferForPodScheduling(spec);
      this.lastSpec = spec;
    }
    return this.lastRequired;
  }

  // Pods that need the same declared features get the same verdict on every node.
  signPod(pod: PodInfo): readonly SignFragment[] {
    return [{ key: FeaturesSignerName, value: this.registry.featureNames(this.required(pod.pod.spec)) }];
  }

  preFilter(state: CycleState, pod: PodInfo): PreFilterOutcome | null {
    const required = this.required(pod.pod.spec);
    // Most pods need no declared feature: Filter is skipped for them.
    if (required.length === 0) return { status: Status.skip() };
    state.write(preFilterStateKey, new PreFilterState(required));
    return null;
  }

  preFilterExtensions(): null {
    return null;
  }

  filter(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const s = state.read<PreFilterState>(preFilterStateKey);
    if (!(s instanceof PreFilterState)) return Status.error(`error reading "${preFilterStateKey}" from cycle-state: not found`);
    return this.registry.satisfies(s.required, nodeInfo.node?.status?.declaredFeatures) ? null : unsatisfied;
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeDeclaredFeature }, queueingHintFn: isSchedulableAfterNodeChange },
      // Upstream's TargetPod: an update of the rejected pod itself.
      { event: { resource: 'UnscheduledPod', actionType: ActionTypeUpdate }, queueingHintFn: (pod, oldObj, newObj) => isSchedulableAfterTargetPodUpdate(pod, oldObj, newObj, this.registry) },
    ];
  }
}

/** Queues for a new node, or one whose declared features changed. */
export function isSchedulableAfterNodeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
  const objects = eventObjectsAs('Node', oldObj, newObj);
  if (objects?.newObj == null) return QueueingHint.Queue;
  const { oldObj: original, newObj: modified } = objects;
  if (original !== null && stringListsEqual(original.status?.declaredFeatures, modified.status?.declaredFeatures)) return QueueingHint.QueueSkip;
  return QueueingHint.Queue;
}

/** Queues when an update of the pod itself changed the features it requires. */
export function isSchedulableAfterTargetPodUpdate(pod: Pod, oldObj: unknown, newObj: unknown, registry = defaultFeatureRegistry): QueueingHint {
  const objects = eventObjectsAs('Pod', oldObj, newObj);
  if (objects?.newObj == null || objects.oldObj === null) return QueueingHint.Queue;
  const { oldObj: original, newObj: modified } = objects;
  if (modified.metadata.uid !== pod.metadata.uid) return QueueingHint.QueueSkip;
  return sameFeatures(registry.inferForPodScheduling(original.spec), registry.inferForPodScheduling(modified.spec)) ? QueueingHint.QueueSkip : QueueingHint.Queue;
}
