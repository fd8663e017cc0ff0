// The generator of the differential test: the same arguments give the same scenario, every
// family loads through our scenario reader, and each scenario keeps the rules that make
// upstream's answer unique (see generator.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/api/types.js';
import { scenarioFromDocuments } from '../../src/sim/scenario.js';
import { families, generateScenario } from './generator.js';

describe('differential test generator', () => {
  it('gives the same scenario for the same seed and index, another for another seed', () => {
    assert.deepEqual(generateScenario(7, 3, 'mixed'), generateScenario(7, 3, 'mixed'));
    assert.notDeepEqual(generateScenario(7, 3, 'mixed').nodes, generateScenario(8, 3, 'mixed').nodes);
  });

  for (const family of families) {
    it(`${family}: loads as a scenario and keeps upstream's answer unique`, () => {
      for (let index = 0; index < 5; index++) {
        const generated = generateScenario(11, index, family);
        // run.ts hands ours the scenario as a JSON file: these values, loaded without parsing text.
        const sc = scenarioFromDocuments([structuredClone(generated)], `${family}-${index}`);
        assert.equal(sc.metadata.family, family);
        assert.ok(sc.nodes.length > 0 && sc.nodes.length < 100, 'fewer than 100 nodes: every node is evaluated');
        assert.ok(sc.pending.length > 0, 'pods to schedule');
        const starts = sc.pods.map((p) => p.status?.startTime);
        assert.ok(starts.every((t) => typeof t === 'string'), 'every existing pod has a start time');
        assert.equal(new Set(starts).size, starts.length, 'start times are distinct');
        const preemption = !JSON.stringify(sc.config).includes('DefaultPreemption');
        if (preemption) assert.ok(sc.pending.every((p) => !p.spec.nodeName), 'no pending pod names a node where preemption runs');
        assertUnboundClaimsUsedOnce(sc.pending, sc.objects as { kind?: string; metadata?: { name?: string }; spec?: { volumeName?: string } }[]);
      }
    });
  }
});

function assertUnboundClaimsUsedOnce(pending: Pod[], objects: { kind?: string; metadata?: { name?: string }; spec?: { volumeName?: string } }[]): void {
  const unbound = new Set(objects.filter((o) => o.kind === 'PersistentVolumeClaim' && !o.spec?.volumeName).map((o) => o.metadata?.name));
  const users = new Map<string, number>();
  for (const p of pending) {
    for (const v of p.spec.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (claim && unbound.has(claim)) users.set(claim, (users.get(claim) ?? 0) + 1);
    }
  }
  for (const [claim, n] of users) assert.equal(n, 1, `unbound claim ${claim} is used by ${n} pending pods`);
}
