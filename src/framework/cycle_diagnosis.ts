// What a scheduling cycle records for diagnosis when asked (explain, the workbench): every
// rejecting Filter plugin per node, and what preemption found per node. Upstream records only
// the first failing plugin; this is ours (ARCHITECTURE design rule 8). A cycle without a
// CycleDiagnosis (CycleState.diagnosis null, the default) records nothing.
import type { Status } from './status.js';

/** A PreemptionDiagnosis per node: why preemption can or cannot make room there. */
export type PreemptionNodeVerdict =
  /** The node's filter verdict was UnschedulableAndUnresolvable: removing pods cannot help. */
  | 'NotHelpful'
  /** No pod on the node has a lower priority than the preemptor. */
  | 'NoLowerPriorityPods'
  /** With every lower-priority pod removed, a Filter plugin still rejects the pod. */
  | 'StillRejected'
  /** The pod fits once the victims are evicted. */
  | 'Candidate'
  /** The dry run failed on this node. */
  | 'Error';

/** One node a preemptor would fit on, and what evicting its victims costs (the rules' inputs). */
export interface PreemptionCandidateDiagnosis {
  readonly node: string;
  /** "namespace/name", most important first. */
  readonly victims: readonly string[];
  /** Victims whose eviction exceeds a PodDisruptionBudget's allowed disruptions. */
  readonly pdbViolations: number;
  /** The budgets ("namespace/name") those victims would exceed. */
  readonly violatedBudgets: readonly string[];
  readonly highestVictimPriority: number;
  readonly sumOfVictimPriorities: number;
  readonly victimCount: number;
  /** Earliest start (ms since the epoch) among the highest-priority victims; null when none started. */
  readonly earliestStartOfHighestPriorityVictims: number | null;
}

export interface PreemptionNodeDiagnosis {
  readonly node: string;
  readonly verdict: PreemptionNodeVerdict;
  /** The rejecting (or failing) plugin's status: NotHelpful, StillRejected, Error. */
  readonly status: Status | null;
  /** StillRejected: every Filter plugin that still rejects, in order. */
  readonly stillRejectedBy: readonly Status[];
  /** Candidate: the victims and their cost. */
  readonly candidate: PreemptionCandidateDiagnosis | null;
  /** Whether the scheduler's own dry run looked at this node (it stops once it has enough candidates). */
  readonly dryRun: boolean;
}

/** Which rule of pickOneNodeForPreemption settled the choice, each breaking the previous ones' ties. */
export type PreemptionDecidingRule =
  | 'OnlyCandidate'
  | 'FewestPDBViolations'
  | 'LowestHighestVictimPriority'
  | 'SmallestSumOfVictimPriorities'
  | 'FewestVictims'
  | 'LatestStartOfHighestPriorityVictims'
  | 'FirstCandidate';

export interface PreemptionDiagnosis {
  /** Why the pod may not preempt at all (preemptionPolicy Never, ...); '' when it may. */
  readonly notEligible: string;
  /** Every node, in snapshot order (empty when not eligible). */
  readonly nodes: readonly PreemptionNodeDiagnosis[];
  /** The candidates the scheduler chose among, in its order (after extenders narrowed them). */
  readonly candidates: readonly PreemptionCandidateDiagnosis[];
  /** The node chosen; '' when preemption found none. */
  readonly chosen: string;
  /** The rule that chose it; null when nothing was chosen. */
  readonly decidedBy: PreemptionDecidingRule | null;
  /** The rule that ruled out each candidate not chosen, by node. */
  readonly eliminatedBy: ReadonlyMap<string, PreemptionDecidingRule>;
}

export class CycleDiagnosis {
  /**
   * Every plugin that rejected the node in the last Filter run (the runtime refills it on each
   * call, so the caller reads it right after the call it asked about).
   */
  readonly filterVerdicts: Status[] = [];
  /** What the preemption plugin found, when it ran. */
  preemption: PreemptionDiagnosis | null = null;
}
