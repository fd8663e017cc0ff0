// PreScore, Score and NormalizeScore of InterPodAffinity
// (pkg/scheduler/framework/plugins/interpodaffinity/scoring.go).
import type { Labels } from '../../api/labels.js';
import type { Pod } from '../../api/types.js';
import type { CycleState, StateData } from '../../framework/cycle_state.js';
import { MaxNodeScore, type Handle, type NodeScore } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { affinityTermMatches, type AffinityTerm, type PodInfo, type WeightedAffinityTerm } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import { InterPodAffinity as Name } from '../../framework/names.js';
import type { InterPodAffinityArgs } from './args.js';
import { tracksChanges } from '../../framework/topology/change_cursor.js';
import { countOnce, nodesOf, type AggregateCache, type PodSource, type ShareFunction, type ShareSink } from '../../framework/topology/node_shares.js';
import { preScoreKey } from './cache_keys.js';
import type { TermLabelKeys } from './term_label_keys.js';
import { affinityParseError, hasPodAffinitySpec, mergeTermsNamespaces, namespaceLabels, podNamespace } from './terms.js';
import { labelValue } from '../../framework/topology/label_value.js';
import type { TopologyCounts } from '../../framework/topology/topology_counts.js';

export const preScoreStateKey = 'PreScore' + Name;

/**
 * Summed weights per topology pair; Score adds up the pairs of a node's labels. The counts may be
 * the cache's, brought up to date by the next attempt's PreScore: valid for this attempt only.
 */
export class PreScoreState implements StateData {
  constructor(readonly topologyScore: TopologyCounts) {}

  /** Read-only after PreScore, so sharing is safe (as upstream). */
  clone(): PreScoreState {
    return this;
  }
}

/** Adds `weight` to the pair of `term`'s key on the node when `pod` matches the term. */
function processTerm(
  scores: ShareSink,
  term: AffinityTerm,
  weight: number,
  pod: Pod,
  nsLabels: Labels,
  nodeLabels: Labels,
): void {
  if (!affinityTermMatches(term, pod, nsLabels)) return;
  const value = labelValue(nodeLabels, term.topologyKey);
  if (value !== undefined) scores.add(term.topologyKey, value, weight);
}

function processTerms(
  scores: ShareSink,
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

/** The weights one existing pod adds (processExistingPod); cached by preScoreKey. */
class PreScoreShare implements ShareFunction {
  readonly source: PodSource;
  readonly weighted = true;

  constructor(
    allPods: boolean,
    private readonly args: InterPodAffinityArgs,
    private readonly incoming: IncomingPod,
  ) {
    // Without preferred terms of its own, only existing pods with (anti-)affinity can add to the score.
    this.source = allPods ? 'all' : 'withAffinity';
  }

  contribute(scores: ShareSink, existing: PodInfo, nodeLabels: Labels): void {
    const incoming = this.incoming;
    // The incoming pod's terms have their namespaceSelector unrolled: no namespace labels needed.
    processTerms(scores, incoming.preferredAffinityTerms, 1, existing.pod, undefined, nodeLabels);
    processTerms(scores, incoming.preferredAntiAffinityTerms, -1, existing.pod, undefined, nodeLabels);
    // The existing pod's terms are matched against the incoming pod with its namespace's labels.
    const hardWeight = this.args.hardPodAffinityWeight;
    if (hardWeight > 0) {
      const required = existing.requiredAffinityTerms;
      for (let i = 0; i < required.length; i++) {
        processTerm(scores, required[i]!, hardWeight, incoming.pod, incoming.nsLabels, nodeLabels);
      }
    }
    processTerms(scores, existing.preferredAffinityTerms, 1, incoming.pod, incoming.nsLabels, nodeLabels);
    processTerms(scores, existing.preferredAntiAffinityTerms, -1, incoming.pod, incoming.nsLabels, nodeLabels);
  }
}

export function preScore(
  handle: Handle,
  args: InterPodAffinityArgs,
  /** PreScore's counts kept between attempts; the plugin's own (its args are fixed). */
  cache: AggregateCache,
  /** The label keys existing pods' terms select on, for the cache key; the plugin's own. */
  vocabulary: TermLabelKeys,
  state: CycleState,
  podInfo: PodInfo,
): Status | null {
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

  const lister = handle.snapshotSharedLister().nodeInfos();
  // No preferred terms and no existing pod with (anti-)affinity: no term to match anywhere.
  if (!hasConstraints && lister.havePodsWithAffinityList().length === 0) return Status.skip();
  const objects = handle.objects();
  const incoming: IncomingPod = {
    pod,
    nsLabels: namespaceLabels(objects, podNamespace(pod)),
    preferredAffinityTerms: mergeTermsNamespaces(podInfo.preferredAffinityTerms, objects),
    preferredAntiAffinityTerms: mergeTermsNamespaces(podInfo.preferredAntiAffinityTerms, objects),
  };
  const fn = new PreScoreShare(hasConstraints, args, incoming);
  const tracked = tracksChanges(lister);
  if (tracked) {
    cache.table.sync(lister);
    vocabulary.sync(lister);
  }
  const scores = tracked
    ? cache.counts(
        preScoreKey(pod, incoming.nsLabels, vocabulary, hasConstraints, incoming.preferredAffinityTerms, incoming.preferredAntiAffinityTerms),
        fn,
        lister,
      )
    : countOnce(fn, nodesOf(lister, fn.source));
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
  return nodeScore(s.topologyScore, nodeInfo);
}

/** `score` for every node, reading the state once. */
export function scoreNodes(state: CycleState, nodes: readonly NodeInfo[], out: NodeScore[]): Status | null {
  if (nodes.length === 0) return null;
  const s = readPreScoreState(state);
  if (s instanceof Status) return s;
  const counts = s.topologyScore;
  for (let i = 0; i < nodes.length; i++) out[i]!.score = nodeScore(counts, nodes[i]!);
  return null;
}

function nodeScore(counts: TopologyCounts, ni: NodeInfo): number {
  // Counts from the cache are read by the node's position in their domain table (see domains.ts).
  const pos = counts.table === null ? -1 : counts.table.position(ni);
  return pos >= 0 ? counts.sumAt(pos) : counts.sumFor(ni.node?.metadata.labels);
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
