// Compares our explain output with the harness's for one scenario, pod by pod: each
// disagreement is either explained by a known difference (known_differences.ts) or reported.
import type { ExplainPod } from '../../src/sim/explain.js';
import type { Scenario } from '../../src/sim/scenario.js';
import { comparePod } from '../fidelity_compare.js';
import { knownDifferences, type KnownDifference } from './known_differences.js';

export interface PodComparison {
  pod: string;
  /** Field-by-field differences nothing explains ("expected" is upstream, "actual" ours). */
  diffs: string[];
  /** Known differences that explain the rest. */
  known: string[];
  /** An earlier pod of the scenario was placed differently, so the cluster already differed. */
  afterDivergence: boolean;
}

/** The pod's differences once every applicable known difference has been undone. */
export function explainDifferences(upstream: ExplainPod, ours: ExplainPod | undefined, scenario: Scenario, known: readonly KnownDifference[] = knownDifferences): { diffs: string[]; known: string[] } {
  let diffs = comparePod(upstream, ours);
  const used: string[] = [];
  if (diffs.length === 0 || !ours) return { diffs, known: used };
  let rewritten = upstream;
  for (const k of known) {
    const undone = k.undo(rewritten, ours, scenario);
    if (undone === null) continue;
    const left = comparePod(undone, ours);
    if (left.length < diffs.length) {
      rewritten = undone;
      diffs = left;
      used.push(k.id);
    }
    if (diffs.length === 0) break;
  }
  return { diffs, known: used };
}

export function compareScenario(scenario: Scenario, upstream: { pods: ExplainPod[] }, ours: { pods: ExplainPod[] }): PodComparison[] {
  const out: PodComparison[] = [];
  let diverged = false;
  for (const u of upstream.pods) {
    const o = ours.pods.find((p) => p.pod === u.pod);
    const { diffs, known } = explainDifferences(u, o, scenario);
    out.push({ pod: u.pod, diffs, known, afterDivergence: diverged });
    if (!o || o.node !== u.node || o.nominatedNode !== u.nominatedNode || o.victims.join() !== u.victims.join()) diverged = true;
  }
  for (const o of ours.pods) {
    if (!upstream.pods.some((u) => u.pod === o.pod)) out.push({ pod: o.pod, diffs: ['missing in upstream output'], known: [], afterDivergence: diverged });
  }
  return out;
}
