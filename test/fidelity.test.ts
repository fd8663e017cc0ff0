// Fidelity: every scenario of the public corpus (test/fixtures/scenarios/public, a copy of
// shared/scenarios/public) goes through `explain --tie-break name` and must match the pinned
// upstream release's decisions, recorded by the differential harness
// (test/fixtures/scenarios/NNN.expected.json, `npm run test:upstream -- --record`). Where ours
// knowingly differs from that release, test/upstream/known_differences.ts says why.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExplainPod } from '../src/sim/explain/explain.js';
import { corpusFamily, corpusFiles, corpusScenario } from './fidelity_corpus.js';
import { compareScenario } from './upstream/compare.js';
import { explainCorpus } from './upstream/ours.js';

const recorded = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/scenarios');

describe('fidelity corpus (the pinned upstream release\'s decisions)', () => {
  for (const file of corpusFiles()) {
    it(`${file} (${corpusFamily(file)})`, async (t) => {
      const scenario = corpusScenario(file);
      const expected = JSON.parse(readFileSync(join(recorded, file.replace(/\.yaml$/, '.expected.json')), 'utf8')) as { pods: ExplainPod[] };
      const actual = await explainCorpus(file);
      assert.equal(actual.pods.length, expected.pods.length, 'number of pods explained');
      const failures: string[] = [];
      const known = new Set<string>();
      for (const r of compareScenario(scenario, expected, actual)) {
        for (const k of r.known) known.add(k);
        if (r.diffs.length === 0) continue;
        if (r.afterDivergence) {
          // The cluster already differs from the recording's (a known difference moved a pod).
          t.diagnostic(`${r.pod}: not compared, an earlier pod was placed differently`);
          continue;
        }
        failures.push(`${r.pod}:\n    ${r.diffs.slice(0, 8).join('\n    ')}`);
      }
      if (known.size > 0) t.diagnostic(`known differences: ${[...known].join(', ')}`);
      assert.deepEqual(failures, [], `pods differing from upstream ("expected" is upstream):\n${failures.join('\n')}`);
    });
  }
});
