// Diagnosis only watches: across the fidelity corpus, explain and simulate decide exactly the same
// with every attempt diagnosed (all Filter plugins run, preemption dry-run on every node) as without.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { admitPod } from '../src/cluster/memory/admission.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../src/plugins/registry.js';
import { corpusFiles, corpusScenario } from '../src/testing/fidelity_corpus.js';
import { runExplain, type ExplainPod } from '../src/sim/explain.js';
import { explainCorpus } from './upstream/ours.js';
import { runSimulation, type SimReport } from '../src/sim/simulate.js';

/** The fields explain had before diagnosis: what upstream's harness compares. */
const decision = ({ pod, outcome, node, message, filter, preFilter, scores, bestNodes, nominatedNode, victims }: ExplainPod) =>
  ({ pod, outcome, node, message, filter, preFilter, scores, bestNodes, nominatedNode, victims });

const fates = (r: SimReport) => ({ pods: r.pods, nodes: r.nodes, scheduled: r.summary.scheduled, simulatedSeconds: r.summary.simulatedSeconds });

describe('diagnosis changes no decision (fidelity corpus)', () => {
  const registry = inTreeRegistry();
  for (const file of corpusFiles()) {
    it(file, async () => {
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
    });
  }
});
