// Terse builders for the PodTopologySpread tests (the shape of upstream's st.MakePod().SpreadConstraint()).
import { defaultFeatures, type Features } from '../../framework/features.js';
import type { KubeObject, LabelSelector, Node, Pod, Taint, TopologySpreadConstraint } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import type { PodTopologySpreadArgs } from './args.js';
import { PodTopologySpread } from './plugin.js';
import type { TopologyCounts } from '../../framework/topology/topology_counts.js';

export const fooSelector: LabelSelector = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };
export const barSelector: LabelSelector = { matchExpressions: [{ key: 'bar', operator: 'Exists' }] };
export const unschedulableTaint: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export interface SpreadOptions {
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

export function spread(
  maxSkew: number,
  topologyKey: string,
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway',
  labelSelector: LabelSelector | undefined,
  o: SpreadOptions = {},
): TopologySpreadConstraint {
  return {
    maxSkew,
    topologyKey,
    whenUnsatisfiable,
    ...(labelSelector ? { labelSelector } : {}),
    ...(o.minDomains !== undefined ? { minDomains: o.minDomains } : {}),
    ...(o.nodeAffinityPolicy ? { nodeAffinityPolicy: o.nodeAffinityPolicy } : {}),
    ...(o.nodeTaintsPolicy ? { nodeTaintsPolicy: o.nodeTaintsPolicy } : {}),
    ...(o.matchLabelKeys ? { matchLabelKeys: o.matchLabelKeys } : {}),
  };
}

export interface TestPodOptions {
  labels?: Record<string, string>;
  namespace?: string;
  node?: string;
  constraints?: TopologySpreadConstraint[];
  nodeSelector?: Record<string, string>;
  /** Required node affinity: one term with these expressions. */
  nodeAffinity?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
  tolerations?: Pod['spec']['tolerations'];
  terminating?: boolean;
  owner?: { apiVersion: string; kind: string; name: string };
}

export function pod(name: string, o: TestPodOptions = {}): Pod {
  const p = makePod(name, {
    labels: o.labels ?? {},
    ...(o.namespace ? { namespace: o.namespace } : {}),
    ...(o.node ? { node: o.node } : {}),
    ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
    ...(o.tolerations ? { tolerations: o.tolerations } : {}),
  });
  if (o.constraints) p.spec.topologySpreadConstraints = o.constraints;
  if (o.nodeAffinity) {
    p.spec.affinity = {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: o.nodeAffinity }] } },
    };
  }
  if (o.terminating) p.metadata = { ...p.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' };
  if (o.owner) p.metadata.ownerReferences = [{ ...o.owner, uid: `${o.owner.name}-uid`, controller: true }];
  return p;
}

/** A node with exactly these labels (no implicit hostname label). */
export function node(name: string, labels: Record<string, string>, taints?: Taint[]): Node {
  const n = makeNode(name, taints ? { taints } : {});
  n.metadata.labels = { ...labels };
  return n;
}

export interface Setup {
  plugin: PodTopologySpread;
  handle: ReturnType<typeof newTestHandle>;
}

export function setup(
  pods: Pod[],
  nodes: Node[],
  args: PodTopologySpreadArgs = { defaultingType: 'List', defaultConstraints: [] },
  objects: KubeObject[] = [],
  features: Features = defaultFeatures,
): Setup {
  const handle = newTestHandle({ pods, nodes, objects });
  return { plugin: new PodTopologySpread(args, handle, features), handle };
}

export function newState(): CycleState {
  return new CycleState();
}

export function info(p: Pod): PodInfo {
  return new PodInfo(p);
}

/** One constraint's domains with their counts, in iteration (insertion) order. */
export function domainEntries(m: TopologyCounts): [string, number][] {
  const out: [string, number][] = [];
  m.forEach((_key, value, count) => out.push([value, count]));
  return out;
}
