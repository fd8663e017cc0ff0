// TopologyPlacementGenerator: a pod group with a topology constraint is tried on each domain of
// its key, the nodes sharing one value of that label; once members are scheduled, only their
// domain (pkg/scheduler/framework/plugins/topologyaware/topology_placement.go). A composite group
// is placed by its own constraint, and its scheduled members are those of every group under it.
import type { SchedulingGroup } from '../../api/scheduling.js';
import { scheduledPodsUnder } from '../../framework/group_tree_walk.js';
import type { Pod } from '../../api/types.js';
import type { CycleState } from '../../framework/cycle_state.js';
import type { GeneratePlacementsResult, Handle, Placement, PlacementGeneratePlugin, PodGroupLister } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { Status } from '../../framework/status.js';

export const Name = 'TopologyPlacementGenerator';

/** The group's topology key: the API allows one constraint today. */
function topologyKeyOf(pg: SchedulingGroup): string | null {
  return pg.spec.schedulingConstraints?.topology?.[0]?.key ?? null;
}

const podRef = (pod: Pod): string => `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name ?? ''}`;

export class TopologyPlacement implements PlacementGeneratePlugin {
  readonly name = Name;
  private readonly groups: PodGroupLister;

  constructor(private readonly handle: Handle) {
    const groups = handle.podGroups?.();
    if (!groups) throw new Error(`${Name} needs the pod groups of the GenericWorkload feature`);
    this.groups = groups;
  }

  /**
   * One placement per domain of the key among `parent`'s nodes (nodes without the label are in
   * none), in the order the domains first appear there (upstream's order is a Go map's, so any).
   */
  generatePlacements(_state: CycleState, podGroup: SchedulingGroup, parent: Placement): GeneratePlacementsResult | Status {
    const key = topologyKeyOf(podGroup);
    if (key === null) return { placements: [parent] };
    const scheduled = scheduledPodsUnder(this.groups, podGroup);
    let required: string | null = null;
    if (scheduled.length > 0) {
      const domain = this.scheduledDomain(key, scheduled);
      if (domain instanceof Status) return domain;
      required = domain;
    }
    const byDomain = new Map<string, NodeInfo[]>();
    for (const ni of parent.nodes) {
      const domain = ni.node?.metadata.labels?.[key];
      if (domain === undefined || (required !== null && domain !== required)) continue;
      const nodes = byDomain.get(domain);
      if (nodes) nodes.push(ni);
      else byDomain.set(domain, [ni]);
    }
    return { placements: [...byDomain].map(([name, nodes]) => ({ name, nodes })) };
  }

  /** The one domain the group's scheduled members are in, or why there is none. */
  private scheduledDomain(key: string, pods: readonly Pod[]): string | Status {
    const lister = this.handle.snapshotSharedLister().nodeInfos();
    const fail = (why: string) => Status.error(`cannot determine domain for already scheduled pods: ${why}`);
    let found = '';
    for (const pod of pods) {
      const nodeName = pod.spec.nodeName ?? '';
      const ni = lister.get(nodeName);
      if (!ni?.node) return fail(`getting node for pod ${podRef(pod)}: nodeinfo not found for node name ${JSON.stringify(nodeName)}`);
      const domain = ni.node.metadata.labels?.[key];
      if (domain === undefined) return fail(`no topology domain found for pod ${podRef(pod)}`);
      if (found !== '' && found !== domain) return fail(`more than 1 domain found for pod group: ${found}, ${domain}`);
      found = domain;
    }
    return found;
  }
}
