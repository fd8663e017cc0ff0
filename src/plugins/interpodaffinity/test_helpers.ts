// Terse builders for InterPodAffinity tests (the PodAffinityIn/PodAntiAffinityExists helpers of
// upstream's st.MakePod()).
import type { LabelSelector, Namespace, Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import { newTestHandle } from '../../testing/handle.js';
import { defaultInterPodAffinityArgs } from './args.js';
import { InterPodAffinity } from './plugin.js';

type Op = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** A selector with one requirement; values are ignored for Exists/DoesNotExist. */
export function sel(key: string, operator: Op, values: string[] = []): LabelSelector {
  return { matchExpressions: [{ key, operator, ...(operator === 'In' || operator === 'NotIn' ? { values } : {}) }] };
}

export function term(selector: LabelSelector | undefined, topologyKey: string, extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm {
  return { ...(selector ? { labelSelector: selector } : {}), topologyKey, ...extra };
}

export function weighted(weight: number, t: PodAffinityTerm): WeightedPodAffinityTerm {
  return { weight, podAffinityTerm: t };
}

export interface AffinitySpec {
  affinity?: PodAffinityTerm[];
  antiAffinity?: PodAffinityTerm[];
  preferredAffinity?: WeightedPodAffinityTerm[];
  preferredAntiAffinity?: WeightedPodAffinityTerm[];
}

export interface TestPodOptions extends AffinitySpec {
  namespace?: string;
  labels?: Record<string, string>;
  node?: string;
}

let seq = 0;

/** A pod with the given labels, node and (anti-)affinity; name and uid are made unique when omitted. */
export function pod(name: string | null, o: TestPodOptions = {}): Pod {
  const n = name ?? `pod-${++seq}`;
  const ns = o.namespace ?? 'default';
  const spec: Pod['spec'] = { containers: [{ name: 'c', image: 'pause' }] };
  if (o.node) spec.nodeName = o.node;
  if (o.affinity || o.preferredAffinity) {
    spec.affinity = { ...spec.affinity, podAffinity: {} };
    if (o.affinity) spec.affinity.podAffinity!.requiredDuringSchedulingIgnoredDuringExecution = o.affinity;
    if (o.preferredAffinity) spec.affinity.podAffinity!.preferredDuringSchedulingIgnoredDuringExecution = o.preferredAffinity;
  }
  if (o.antiAffinity || o.preferredAntiAffinity) {
    spec.affinity = { ...spec.affinity, podAntiAffinity: {} };
    if (o.antiAffinity) spec.affinity.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution = o.antiAffinity;
    if (o.preferredAntiAffinity) spec.affinity.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution = o.preferredAntiAffinity;
  }
  return { metadata: { name: n, namespace: ns, uid: `${ns}/${n}`, labels: o.labels ?? {} }, spec };
}

/** A node with exactly these labels (no hostname label added, unlike makeNode). */
export function node(name: string, labels: Record<string, string> = {}): Node {
  return { metadata: { name, labels }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } };
}

export function namespace(name: string, labels: Record<string, string> = {}): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

/** The namespaces upstream's tests register: two teams with two subteams each. */
const teamNamespaces: Namespace[] = [
  namespace('subteam1.team1', { team: 'team1' }),
  namespace('subteam2.team1', { team: 'team1' }),
  namespace('subteam1.team2', { team: 'team2' }),
  namespace('subteam2.team2', { team: 'team2' }),
];

export interface Setup {
  plugin: InterPodAffinity;
  handle: ReturnType<typeof newTestHandle>;
  state: CycleState;
}

/** A plugin over a snapshot of `pods` on `nodes`, with the given args (defaulted) and objects. */
export function setup(
  pods: Pod[],
  nodes: Node[],
  args: Record<string, unknown> = {},
  objects: Namespace[] = teamNamespaces,
): Setup {
  const handle = newTestHandle({ pods, nodes, objects });
  return { plugin: new InterPodAffinity(defaultInterPodAffinityArgs(args), handle), handle, state: new CycleState() };
}

export { PodInfo };
