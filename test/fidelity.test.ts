// Fidelity: every scenario of the public corpus (copied from shared/scenarios/public) goes through
// `explain --tie-break name` and must match upstream kube-scheduler's own decisions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runExplain, type ExplainPod } from '../src/sim/explain.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../src/plugins/registry.js';
import { admitPod } from '../src/cluster/memory/admission.js';
import { corpusFamily, corpusFiles, corpusPath, corpusScenario } from '../src/testing/fidelity_corpus.js';
import { comparePod, knownScoreChanges } from './fidelity_compare.js';

/** Families whose plugins are not built yet, with the issue that brings them. */
const skippedFamilies: Record<string, string> = {};

describe('fidelity corpus (upstream kube-scheduler decisions)', () => {
  for (const file of corpusFiles()) {
    const path = corpusPath(file);
    const family = corpusFamily(file);
    const skip = skippedFamilies[family];
    it(`${file} (${family})`, { skip: skip ? `family ${family} waits for ${skip}` : false }, async (t) => {
      const scenario = corpusScenario(file);
      const expected = JSON.parse(readFileSync(path.replace(/\.yaml$/, '.expected.json'), 'utf8')) as { pods: ExplainPod[] };
      const registry = inTreeRegistry();
      const config = resolveConfiguration({ scenario, registry });
      const actual = await runExplain(scenario, { config, registry, notYetAvailable: notYetAvailablePlugins, tieBreakByName: true, admitPod });
      const failures: string[] = [];
      const pendingByKey = new Map(scenario.pending.map((p) => [`${p.metadata.namespace ?? 'default'}/${p.metadata.name}`, p]));
      for (let i = 0; i < expected.pods.length; i++) {
        const e = expected.pods[i]!;
        const a = actual.pods[i]?.pod === e.pod ? actual.pods[i] : actual.pods.find((p) => p.pod === e.pod);
        const known = a ? knownScoreChanges(pendingByKey.get(e.pod)!, e, a) : new Map<string, string>();
        const diffs = comparePod(e, a, known);
        if (diffs.length > 0) failures.push(`${e.pod}:\n    ${diffs.slice(0, 8).join('\n    ')}`);
        if (known.size > 0 && a && a.node !== e.node) {
          // From here on the cluster differs from v1.26's for a documented reason.
          t.diagnostic(`${e.pod}: placed on ${a.node} (v1.26: ${e.node}) because ${[...new Set(known.values())].join('; ')}; ${expected.pods.length - i - 1} later pod(s) not compared`);
          break;
        }
      }
      assert.equal(actual.pods.length, expected.pods.length, 'number of pods explained');
      assert.deepEqual(failures, [], `pods differing from upstream:\n${failures.join('\n')}`);
    });
  }
});
