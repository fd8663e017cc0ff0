// Preemption explained per node for a diagnosed cycle: the dry run the Evaluator does
// (framework/preemption/preemption.go DryRunPreemption, SelectCandidate), repeated on every node
// rather than only until enough candidates are found, plus the inputs of the rules that chose
// among the candidates. Upstream reports none of this (kubernetes#97182).
import type { PodDisruptionBudget } from '../../api/types.js';
import type {
  PreemptionCandidateDiagnosis, PreemptionDecidingRule, PreemptionDiagnosis, PreemptionNodeDiagnosis,
} from '../../framework/cycle_diagnosis.js';
import type { CycleState } from '../../framework/cycle_state.js';
import type { Handle, NodeToStatusReader } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import { Code, Status, isSuccess } from '../../framework/status.js';
import type { Candidate, PreemptionPolicy } from './candidate.js';
import { decidePreemptionNode } from './pick_node.js';
import { earliestStartOfHighestPriority, sortByImportance } from './importance.js';
import { compileDisruptionBudgets, filterPodsWithPDBViolation, type DisruptionBudget } from './pdb.js';

/** What the Evaluator's own run found, for the diagnosis to set beside its per-node dry runs. */
export interface EvaluatorFindings {
  /** The nodes the Evaluator's dry run looked at. */
  readonly dryRunNodes: ReadonlySet<string>;
  /** The candidates it chose among (after extenders). */
  readonly candidates: readonly Candidate[];
  /** The one it chose, if any. */
  readonly chosen: Candidate | null;
}

/**
 * Explains preemption for `pod` on the cycle's snapshot. Works on clones only and draws no random
 * number, so the scheduling decision is the same with or without it.
 */
export function diagnosePreemption(
  handle: Handle,
  policy: PreemptionPolicy,
  state: CycleState,
  pod: PodInfo,
  m: NodeToStatusReader,
  found: EvaluatorFindings,
): PreemptionDiagnosis {
  const notEligible = policy.podEligibleToPreemptOthers(pod, m.get(pod.pod.status?.nominatedNodeName ?? ''));
  if (notEligible !== null) return { notEligible, nodes: [], candidates: [], chosen: '', decidedBy: null, eliminatedBy: new Map() };
  const pdbs = compileDisruptionBudgets(handle.objects().list<PodDisruptionBudget>('PodDisruptionBudget'));
  const lister = handle.snapshotSharedLister().nodeInfos();
  const nodes: PreemptionNodeDiagnosis[] = [];
  for (const ni of lister.list()) nodes.push(diagnoseNode(policy, state, pod, ni, m.get(ni.name), pdbs, found.dryRunNodes.has(ni.name)));
  const candidates: PreemptionCandidateDiagnosis[] = [];
  for (const c of found.candidates) {
    const ni = lister.get(c.name);
    if (ni) candidates.push(candidateCost(pod, ni, c.victims.pods, c.victims.numPDBViolations, pdbs));
  }
  const chosen = found.chosen;
  const eliminatedBy = new Map<string, PreemptionDecidingRule>();
  let decidedBy: PreemptionDecidingRule | null = null;
  if (chosen !== null) decidedBy = found.candidates.length === 1 ? 'OnlyCandidate' : decidePreemptionNode(found.candidates, eliminatedBy).rule;
  return { notEligible: '', nodes, candidates, chosen: chosen?.name ?? '', decidedBy, eliminatedBy };
}

function diagnoseNode(
  policy: PreemptionPolicy,
  state: CycleState,
  pod: PodInfo,
  ni: NodeInfo,
  filterStatus: Status | null,
  pdbs: readonly DisruptionBudget[],
  dryRun: boolean,
): PreemptionNodeDiagnosis {
  const verdict = (v: PreemptionNodeDiagnosis['verdict'], status: Status | null, stillRejectedBy: readonly Status[] = [], candidate: PreemptionCandidateDiagnosis | null = null): PreemptionNodeDiagnosis =>
    ({ node: ni.name, verdict: v, status, stillRejectedBy, candidate, dryRun });
  // Only a plain rejection may be lifted by removing pods (upstream's nodesWherePreemptionMightHelp).
  if (filterStatus?.code !== Code.Unschedulable) return verdict('NotHelpful', filterStatus);
  if (!ni.pods.some((p) => p.priority < pod.priority)) return verdict('NoLowerPriorityPods', null);
  // On a diagnostic clone: the Evaluator's own dry run did not necessarily look at this node.
  const sel = policy.selectVictimsOnNode(state.diagnosticClone(), pod, ni.clone(), pdbs);
  if (!isSuccess(sel.status)) {
    const s = sel.status!;
    if (!s.isRejected()) return verdict('Error', s);
    // The dry run's last Filter run is the one that answered `s`: its verdicts name every plugin.
    const verdicts = state.diagnosis?.filterVerdicts ?? [];
    return verdict('StillRejected', s, verdicts[0] === s ? [...verdicts] : [s]);
  }
  if (sel.victims.length === 0) return verdict('Error', Status.error(`expected at least one victim pod on node "${ni.name}"`));
  return verdict('Candidate', null, [], candidateCost(pod, ni, sel.victims, sel.numPDBViolations, pdbs));
}

/** What pickOneNodeForPreemption compares for one candidate, and which budgets its victims exceed. */
function candidateCost(pod: PodInfo, ni: NodeInfo, victims: readonly PodInfo[], pdbViolations: number, pdbs: readonly DisruptionBudget[]): PreemptionCandidateDiagnosis {
  // The same order and accounting as SelectVictimsOnNode, to name the budgets.
  const potential = ni.pods.filter((p) => p.priority < pod.priority);
  sortByImportance(potential);
  const exceeded = new Map<PodInfo, string[]>();
  filterPodsWithPDBViolation(potential, pdbs, exceeded);
  const byUid = new Map<string, string[]>();
  for (const [p, budgets] of exceeded) byUid.set(p.uid, budgets);
  const budgets = new Set<string>();
  let sum = 0;
  for (const v of victims) {
    sum += v.priority;
    for (const b of byUid.get(v.uid) ?? []) budgets.add(b);
  }
  const earliest = earliestStartOfHighestPriority(victims);
  return {
    node: ni.name,
    victims: victims.map((v) => v.key),
    pdbViolations,
    violatedBudgets: [...budgets].sort(),
    // As the rule reads it: the first victim is the most important.
    highestVictimPriority: victims.length > 0 ? victims[0]!.priority : 0,
    sumOfVictimPriorities: sum,
    victimCount: victims.length,
    earliestStartOfHighestPriorityVictims: Number.isFinite(earliest) ? earliest : null,
  };
}
