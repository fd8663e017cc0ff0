// Diagnosis only watches: on a fidelity corpus scenario, explain and simulate decide exactly the
// same with every attempt diagnosed (all Filter plugins run, preemption dry-run on every node) as
// without. `npm test` checks a sample of the corpus, `npm run test:e2e` the rest: four runs of
// each scenario took 3 s of the fast suite's CPU for all 80.
import assert from 'node:assert/strict';
import { admitPod } from '../src/cluster/memory/admission.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../src/plugins/registry.js';
import { corpusFamily, corpusScenario } from './fidelity_corpus.js';
import { runExplain, type ExplainPod } from '../src/sim/explain/explain.js';
import { runSimulation, type SimReport } from '../src/sim/simulate/simulate.js';
import { explainCorpus } from './upstream/ours.js';

/** The fields explain had before diagnosis: what upstream's harness compares. */
const decision = ({ pod, outcome, node, message, filter, preFilter, scores, bestNodes, nominatedNode, victims }: ExplainPod) =>
  ({ pod, outcome, node, message, filter, preFilter, scores, bestNodes, nominatedNode, victims });

const fates = (r: SimReport) => ({ pods: r.pods, nodes: r.nodes, scheduled: r.summary.scheduled, simulatedSeconds: r.summary.simulatedSeconds });

/** The fast suite's sample: the first two scenarios of each family, so every family is covered. */
export function fastSample(files: readonly string[]): string[] {
  const taken = new Map<string, number>();
  return files.filter((file) => {
    const family = corpusFamily(file);
    const n = taken.get(family) ?? 0;
    taken.set(family, n + 1);
    return n < 2;
  });
}

export async function assertDiagnosisChangesNoDecision(file: string): Promise<void> {
  const registry = inTreeRegistry();
  const scenario = corpusScenario(file);
  const config = resolveConfiguration({ scenario, registry });
  const opts = { config, registry, notYetAvailable: notYetAvailablePlugins, admitPod };
  const plain = await runExplain(scenario, { ...opts, tieBreakByName: true });
  // The diagnosed answer is the one the fidelity suite compares with upstream's, computed once.
  const diagnosed = await explainCorpus(file);
  assert.deepEqual(diagnosed.pods.map(decision), plain.pods.map(decision), 'explain');
  // Sampled tie-breaks too: diagnosis must draw no random number.
  const simulated = await runSimulation(scenario, opts);
  const simulatedDiagnosed = await runSimulation(scenario, { ...opts, diagnose: true });
  assert.deepEqual(fates(simulatedDiagnosed), fates(simulated), 'simulate');
}
