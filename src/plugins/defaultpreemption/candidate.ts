// A preemption candidate: a node and the victims that make room on it (framework/preemption/candidate.go).
import type { CycleState } from '../../framework/cycle_state.js';
import type { NodeInfo } from '../../framework/node_info.js';
import type { PodInfo } from '../../framework/pod_info.js';
import type { Status } from '../../framework/status.js';
import type { DisruptionBudget } from './pdb.js';

/** The pods to evict on one node, most important first, and how many PDBs that violates. */
export interface Victims {
  readonly pods: readonly PodInfo[];
  readonly numPDBViolations: number;
}

/** A node the preemptor fits on once its victims are gone. */
export interface Candidate {
  readonly name: string;
  readonly victims: Victims;
}

/** What SelectVictimsOnNode found on one node; a non-null status means the node is no candidate. */
export interface VictimSelection {
  readonly victims: PodInfo[];
  readonly numPDBViolations: number;
  readonly status: Status | null;
}

/** The parts a preemption plugin decides for itself (preemption.Interface). */
export interface PreemptionPolicy {
  /** Where the dry run starts among the potential nodes, and how many candidates it looks for. */
  getOffsetAndNumCandidates(numNodes: number): { offset: number; numCandidates: number };
  /** Null when the pod may preempt others, or the reason it may not. */
  podEligibleToPreemptOthers(pod: PodInfo, nominatedNodeStatus: Status | null): string | null;
  /** Works on copies: `state` and `nodeInfo` are the dry run's own clones. */
  selectVictimsOnNode(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo, pdbs: readonly DisruptionBudget[]): VictimSelection;
}
