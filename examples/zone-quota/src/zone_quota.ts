// ZoneQuota, an out-of-tree plugin: at most `maxPerZone` pods of one quota group (the value of the
// pod label `groupLabel`) per zone. PreFilter counts the group's pods per zone once per cycle into
// the cycle state, Filter reads the count per node, the PreFilter extensions keep the count right
// while preemption tries removing pods, and the registered events requeue a rejected pod only
// when a pod of its group goes away or a node gets a zone.
import {
  ActionType,
  Code,
  eventObjectsAs,
  fieldInvalid,
  fieldRequired,
  QueueingHint,
  Status,
  type ClusterEventWithHint,
  type CycleState,
  type EnqueueExtensions,
  type FieldError,
  type FilterPlugin,
  type NodeInfo,
  type Pod,
  type PodInfo,
  type PluginDefinition,
  type PreFilterOutcome,
  type PreFilterPlugin,
  type StateData,
} from 'kube-scheduler-ts/plugin';

export const name = 'ZoneQuota';
const zoneLabel = 'topology.kubernetes.io/zone';
const stateKey = `PreFilter${name}`;

export interface ZoneQuotaArgs {
  /** The pod label whose value names the quota group. */
  groupLabel: string;
  /** Pods of one group a zone may hold. */
  maxPerZone: number;
}

/** The group's pods per zone, counted at PreFilter; cloned for preemption's dry runs. */
class ZoneCounts implements StateData {
  constructor(readonly group: string, readonly perZone: Map<string, number>) {}

  clone(): ZoneCounts {
    return new ZoneCounts(this.group, new Map(this.perZone));
  }

  add(zone: string, delta: number): void {
    this.perZone.set(zone, (this.perZone.get(zone) ?? 0) + delta);
  }
}

const zoneOf = (nodeInfo: NodeInfo): string | undefined => nodeInfo.node?.metadata.labels?.[zoneLabel];

export class ZoneQuota implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = name;

  constructor(private readonly args: ZoneQuotaArgs) {}

  private groupOf(pod: Pod): string | undefined {
    return pod.metadata.labels?.[this.args.groupLabel];
  }

  preFilter(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[]): PreFilterOutcome | null {
    const group = this.groupOf(pod.pod);
    // Pods outside every group are not this plugin's business: skip its Filter for the cycle.
    if (group === undefined) return { status: Status.skip() };
    const counts = new ZoneCounts(group, new Map());
    for (const nodeInfo of nodes) {
      const zone = zoneOf(nodeInfo);
      if (zone === undefined) continue;
      for (const existing of nodeInfo.pods) if (this.groupOf(existing.pod) === group) counts.add(zone, 1);
    }
    state.write(stateKey, counts);
    return null;
  }

  preFilterExtensions() {
    const change = (delta: number) => (state: CycleState, _pod: PodInfo, other: PodInfo, nodeInfo: NodeInfo): Status | null => {
      const counts = state.read<ZoneCounts>(stateKey);
      const zone = zoneOf(nodeInfo);
      if (counts && zone !== undefined && this.groupOf(other.pod) === counts.group) counts.add(zone, delta);
      return null;
    };
    return { addPod: change(1), removePod: change(-1) };
  }

  filter(state: CycleState, _pod: PodInfo, nodeInfo: NodeInfo): Status | null {
    const counts = state.read<ZoneCounts>(stateKey);
    if (!counts) return Status.error(`${stateKey} not found in the cycle state`);
    const zone = zoneOf(nodeInfo);
    // A node outside every zone can never take a pod of a group: no event but a relabel helps.
    if (zone === undefined) return new Status(Code.UnschedulableAndUnresolvable, [`node(s) had no ${zoneLabel} label`]);
    if ((counts.perZone.get(zone) ?? 0) < this.args.maxPerZone) return null;
    // Unschedulable, not unresolvable: preempting a pod of the group in the zone makes room.
    return Status.unschedulable(`node(s) in a zone already holding ${this.args.maxPerZone} pod(s) of group ${counts.group}`);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'AssignedPod', actionType: ActionType.Delete | ActionType.UpdatePodLabel }, queueingHintFn: (pod, oldObj, newObj) => this.afterPodChange(pod, oldObj, newObj) },
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel }, queueingHintFn: (_pod, oldObj, newObj) => this.afterNodeChange(oldObj, newObj) },
    ];
  }

  /** A pod of the rejected pod's group left (deleted, or relabelled out of the group). */
  private afterPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const objects = eventObjectsAs('Pod', oldObj, newObj);
    if (objects === null) return QueueingHint.Queue;
    const group = this.groupOf(pod);
    const was = objects.oldObj && this.groupOf(objects.oldObj) === group;
    const is = objects.newObj && this.groupOf(objects.newObj) === group;
    return was && !is ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** A node came with a zone, or got one or another. */
  private afterNodeChange(oldObj: unknown, newObj: unknown): QueueingHint {
    const objects = eventObjectsAs('Node', oldObj, newObj);
    if (objects === null) return QueueingHint.Queue;
    const before = objects.oldObj?.metadata.labels?.[zoneLabel];
    const after = objects.newObj?.metadata.labels?.[zoneLabel];
    return after !== undefined && after !== before ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }
}

function validateArgs(args: ZoneQuotaArgs, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (args.groupLabel === '') errors.push(fieldRequired(`${path}.groupLabel`, 'the pod label naming the quota group'));
  if (!Number.isInteger(args.maxPerZone) || args.maxPerZone < 1) errors.push(fieldInvalid(`${path}.maxPerZone`, args.maxPerZone, 'must be a whole number of at least 1'));
  return errors;
}

export const zoneQuota: PluginDefinition<ZoneQuotaArgs> = {
  name,
  argsKind: 'ZoneQuotaArgs',
  defaultArgs: (given) => ({
    groupLabel: typeof given.groupLabel === 'string' ? given.groupLabel : 'quota-group',
    maxPerZone: given.maxPerZone === undefined ? 1 : (given.maxPerZone as number),
  }),
  validateArgs,
  factory: (args) => new ZoneQuota(args),
};

/** What `--plugins` reads from a plugins module. */
export const plugins = [zoneQuota];
