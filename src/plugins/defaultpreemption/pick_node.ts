// Choosing among preemption candidates (framework/preemption/preemption.go pickOneNodeForPreemption).
import type { PreemptionDecidingRule } from '../../framework/cycle_diagnosis.js';
import type { Candidate, Victims } from './candidate.js';
import { earliestStartOfHighestPriority } from './importance.js';

/** Priorities shifted to be non-negative, so more negative-priority victims never sum lower. */
const priorityShift = 2 ** 31;

/**
 * Picks the node whose eviction hurts least, each rule breaking the previous one's ties:
 * fewest PDB violations, lowest highest-victim priority, smallest sum of (shifted) priorities,
 * fewest victims, latest start among the highest-priority victims; then the first candidate.
 */
export function pickOneNodeForPreemption(candidates: readonly Candidate[]): string {
  return decidePreemptionNode(candidates).node;
}

/** The rules of pickOneNodeForPreemption in order, by the name diagnosis reports. */
const preemptionRules: readonly PreemptionDecidingRule[] = [
  'FewestPDBViolations', 'LowestHighestVictimPriority', 'SmallestSumOfVictimPriorities', 'FewestVictims', 'LatestStartOfHighestPriorityVictims',
];

/**
 * pickOneNodeForPreemption's choice and the rule that made it ('' and FirstCandidate for none);
 * with `eliminated` (diagnosis), the rule that ruled out each other candidate goes there.
 */
export function decidePreemptionNode(
  candidates: readonly Candidate[],
  eliminated: Map<string, PreemptionDecidingRule> | null = null,
): { node: string; rule: PreemptionDecidingRule } {
  if (candidates.length === 0) return { node: '', rule: 'FirstCandidate' };
  let current: readonly Candidate[] = candidates;
  for (let rule = 0; rule < preemptionRules.length; rule++) {
    const selected: Candidate[] = [];
    let maxScore = -Infinity;
    for (const c of current) {
      const score = preemptionScore(rule, c.victims);
      if (score > maxScore) {
        maxScore = score;
        selected.length = 0;
      }
      if (score === maxScore) selected.push(c);
    }
    if (eliminated !== null) {
      for (const c of current) if (!selected.includes(c)) eliminated.set(c.name, preemptionRules[rule]!);
    }
    if (selected.length === 1) return { node: selected[0]!.name, rule: preemptionRules[rule]! };
    current = selected;
  }
  if (eliminated !== null) for (let i = 1; i < current.length; i++) eliminated.set(current[i]!.name, 'FirstCandidate');
  return { node: current[0]!.name, rule: 'FirstCandidate' };
}

/** The score of one rule of pickOneNodeForPreemption; higher is better. */
function preemptionScore(rule: number, v: Victims): number {
  switch (rule) {
    case 0:
      return -v.numPDBViolations;
    case 1:
      return -v.pods[0]!.priority;
    case 2: {
      let sum = 0;
      for (const p of v.pods) sum += p.priority + priorityShift;
      return -sum;
    }
    case 3:
      return -v.pods.length;
    default:
      return earliestStartOfHighestPriority(v.pods);
  }
}
