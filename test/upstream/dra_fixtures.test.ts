// The project's DRA scenarios (test/fixtures/scenarios/dra) against the pinned release's
// decisions recorded beside them: same nodes, same messages, same claims and devices.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../../src/sim/scenario/scenario.js';
import { compareScenario, type ExplainPodWithClaims } from './compare.js';
import { explainOurs } from './ours.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/scenarios/dra');
const scenarios = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();

describe('DRA scenarios (the pinned upstream release\'s decisions)', () => {
  for (const file of scenarios) {
    it(file, async () => {
      const scenario = loadScenario(join(dir, file));
      const expected = JSON.parse(readFileSync(join(dir, file.replace(/\.yaml$/, '.expected.json')), 'utf8')) as { pods: ExplainPodWithClaims[] };
      const actual = await explainOurs(scenario);
      const failures = compareScenario(scenario, expected, actual).filter((r) => r.diffs.length > 0).map((r) => `${r.pod}:\n    ${r.diffs.join('\n    ')}`);
      assert.deepEqual(failures, [], `pods differing from upstream ("expected" is upstream):\n${failures.join('\n')}`);
    });
  }
});

describe('DRA scenario recordings', () => {
  it('every DRA scenario has its recording, with every pod with claims reporting them', () => {
    assert.ok(scenarios.length > 0, 'at least one DRA scenario');
    for (const file of scenarios) {
      const expected = JSON.parse(readFileSync(join(dir, file.replace(/\.yaml$/, '.expected.json')), 'utf8')) as { pods: ExplainPodWithClaims[] };
      const scenario = loadScenario(join(dir, file));
      assert.equal(expected.pods.length, scenario.pending.length, `${file}: one recorded attempt per pending pod`);
      for (const p of expected.pods) {
        const pending = scenario.pending.find((q) => `${q.metadata.namespace ?? 'default'}/${q.metadata.name}` === p.pod);
        assert.equal(p.claims?.length ?? 0, pending?.spec.resourceClaims?.length ?? 0, `${file}: ${p.pod} reports each of its claims`);
        if (p.outcome === 'Scheduled') assert.ok((p.claims ?? []).every((c) => c.devices.length > 0), `${file}: ${p.pod} was scheduled with every claim allocated`);
      }
    }
  });
});
