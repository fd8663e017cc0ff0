// A preemption candidate: a node and the victims that make room on it (framework/preemption/candidate.go).
import type { PodInfo } from '../../framework/pod_info.js';

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
