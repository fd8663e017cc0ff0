// Our decisions for a scenario: what `kube-scheduler-ts explain --output json --tie-break name`
// prints (every attempt diagnosed, as the command does), computed in-process.
import { admitPod } from '../../src/cluster/memory/admission.js';
import { resolveConfiguration } from '../../src/cli/configuration.js';
import { FeatureGates } from '../../src/config/feature_gates.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../src/plugins/registry.js';
import { runExplain, type ExplainPod } from '../../src/sim/explain/explain.js';
import type { Scenario } from '../../src/sim/scenario/scenario.js';
import { corpusScenario } from '../fidelity_corpus.js';

export async function explainOurs(scenario: Scenario, featureGates = FeatureGates.defaults): Promise<{ pods: ExplainPod[] }> {
  const registry = inTreeRegistry();
  const config = resolveConfiguration({ scenario, registry });
  // As the harness's cluster: no PV controller, so a pod waiting for its volumes stays in PreBind.
  return runExplain(scenario, { config, registry, notYetAvailable: notYetAvailablePlugins, featureGates, tieBreakByName: true, admitPod, diagnose: true, recordWrites: true, volumeController: false });
}

const corpusAnswers = new Map<string, Promise<{ pods: ExplainPod[] }>>();

/** explainOurs of a fidelity corpus scenario, computed once per process: two suites check the same answer. */
export function explainCorpus(file: string): Promise<{ pods: ExplainPod[] }> {
  let answer = corpusAnswers.get(file);
  if (!answer) {
    answer = explainOurs(corpusScenario(file));
    corpusAnswers.set(file, answer);
  }
  return answer;
}
