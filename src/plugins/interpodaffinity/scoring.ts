// PreScore, Score and NormalizeScore of InterPodAffinity
// (pkg/scheduler/framework/plugins/interpodaffinity/scoring.go).
import type { Labels } from '../../api/labels.js';
import type { Pod } from '../../api/types.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { MaxNodeScore, type Handle, type NodeScore } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { affinityTermMatches, type AffinityTerm, type PodInfo, type WeightedAffinityTerm } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import { InterPodAffinity as Name } from '../names.js';
import type { InterPodAffinityArgs } from './args.js';
import { affinityParseError, hasPodAffinitySpec, mergeTermsNamespaces, namespaceLabels, podNamespace } from './terms.js';
import { labelValue, TopologyCounts } from './topology.js';

export const preScoreStateKey = 'PreScore' + Name;

/** Summed weights per topology pair; Score adds up the pairs of a node's labels. */
export class PreScoreState implements StateData {
  constructor(readonly topologyScore: TopologyCounts) {}

  /** Read-only after PreScore, so sharing is safe (as upstream). */
  clone(): PreScoreState {
    return this;
  }
}

/** Adds `weight` to the pair of `term`'s key on the node when `pod` matches the term. */
function processTerm(
  scores: TopologyCounts,
  term: AffinityTerm,
  weight: number,
  pod: Pod,
  nsLabels: Labels,
  nodeLabels: Labels,
): void {
  if (!affinityTermMatches(term, pod, nsLabels)) return;
  const value = labelValue(nodeLabels, term.topologyKey);
  if (value !== undefined) scores.accumulate(term.topologyKey, value, weight);
}

function processTerms(
  scores: TopologyCounts,
  terms: readonly WeightedAffinityTerm[],
  sign: 1 | -1,
  pod: Pod,
  nsLabels: Labels,
  nodeLabels: Labels,
): void {
  for (let i = 0; i < terms.length; i++) processTerm(scores, terms[i]!, sign * terms[i]!.weight, pod, nsLabels, nodeLabels);
}

interface IncomingPod {
  readonly pod: Pod;
  readonly nsLabels: Labels;
  readonly preferredAffinityTerms: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinityTerms: readonly WeightedAffinityTerm[];
}

function processExistingPod(
  scores: TopologyCounts,
  args: InterPodAffinityArgs,
  incoming: IncomingPod,
  existing: PodInfo,
  nodeLabels: Labels,
): void {
  // The incoming pod's terms have their namespaceSelector unrolled: no namespace labels needed.
  processTerms(scores, incoming.preferredAffinityTerms, 1, existing.pod, undefined, nodeLabels);
  processTerms(scores, incoming.preferredAntiAffinityTerms, -1, existing.pod, undefined, nodeLabels);
  // The existing pod's terms are matched against the incoming pod with its namespace's labels.
  if (args.hardPodAffinityWeight > 0) {
    const required = existing.requiredAffinityTerms;
    for (let i = 0; i < required.length; i++) {
      processTerm(scores, required[i]!, args.hardPodAffinityWeight, incoming.pod, incoming.nsLabels, nodeLabels);
    }
  }
  processTerms(scores, existing.preferredAffinityTerms, 1, incoming.pod, incoming.nsLabels, nodeLabels);
  processTerms(scores, existing.preferredAntiAffinityTerms, -1, incoming.pod, incoming.nsLabels, nodeLabels);
}

export function preScore(handle: Handle, args: InterPodAffinityArgs, state: CycleState, podInfo: PodInfo): Status | null {
  const pod = podInfo.pod;
  const affinity = pod.spec.affinity;
  const hasPreferredAffinity = (affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  const hasPreferredAntiAffinity = (affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  const hasConstraints = hasPreferredAffinity || hasPreferredAntiAffinity;
  if (args.ignorePreferredTermsOfExistingPods && !hasConstraints) return Status.skip();

  if (podInfo.parseError !== null && hasPodAffinitySpec(pod)) {
    const err = affinityParseError(pod);
    if (err !== null) return Status.error(`failed to parse pod: ${err}`);
  }

  // Without preferred terms of its own, only existing pods with (anti-)affinity can add to the score.
  const lister = handle.snapshotSharedLister().nodeInfos();
  const nodes = hasConstraints ? lister.list() : lister.havePodsWithAffinityList();
  const objects = handle.objects();
  const incoming: IncomingPod = {
    pod,
    nsLabels: namespaceLabels(objects, podNamespace(pod)),
    preferredAffinityTerms: mergeTermsNamespaces(podInfo.preferredAffinityTerms, objects),
    preferredAntiAffinityTerms: mergeTermsNamespaces(podInfo.preferredAntiAffinityTerms, objects),
  };

  const scores = new TopologyCounts();
  for (let i = 0; i < nodes.length; i++) {
    const ni = nodes[i]!;
    const labels = ni.node?.metadata.labels;
    if (labels === undefined || labels === null) continue;
    const pods = hasConstraints ? ni.pods : ni.podsWithAffinity;
    for (let j = 0; j < pods.length; j++) processExistingPod(scores, args, incoming, pods[j]!, labels);
  }
  // No term matched anywhere: every node would score the same.
  if (scores.size === 0) return Status.skip();
  state.write(preScoreStateKey, new PreScoreState(scores));
  return null;
}

function readPreScoreState(state: CycleState): PreScoreState | Status {
  const s = state.read<PreScoreState>(preScoreStateKey);
  if (s === undefined) return Status.error(`failed to read "${preScoreStateKey}" from cycleState: not found`);
  return s;
}

/** The summed weights of the node's topology pairs: positive for affinity, negative for anti-affinity. */
export function score(state: CycleState, nodeInfo: NodeInfo): number | Status {
  const s = readPreScoreState(state);
  if (s instanceof Status) return s;
  return s.topologyScore.sumFor(nodeInfo.node?.metadata.labels);
}

/** Scales scores linearly so the lowest becomes 0 and the highest MaxNodeScore (all 0 when equal). */
export function normalizeScore(state: CycleState, scores: NodeScore[]): Status | null {
  const s = readPreScoreState(state);
  if (s instanceof Status) return s;
  if (s.topologyScore.size === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i]!.score;
    if (v > max) max = v;
    if (v < min) min = v;
  }
  const diff = max - min;
  for (let i = 0; i < scores.length; i++) {
    scores[i]!.score = diff > 0 ? Math.trunc(MaxNodeScore * ((scores[i]!.score - min) / diff)) : 0;
  }
  return null;
}
