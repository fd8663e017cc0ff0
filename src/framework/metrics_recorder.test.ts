import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extensionPointLabels, runtimeExtensionPoints, type ExtensionPointLabel } from '../api/extension_points.js';
import * as specs from './runtime/call_specs.js';

/**
 * The extension_point label values of pkg/scheduler/metrics/metrics.go at v1.37.2, in its order.
 * A label added upstream, or one of ours no longer upstream's, fails here.
 */
const upstreamLabels = [
  'PreFilter', 'Filter', 'PreFilterExtensionAddPod', 'PreFilterExtensionRemovePod', 'PostFilter', 'PreScore', 'Score',
  'ScoreExtensionNormalize', 'PreBind', 'PreBindPreFlight', 'Bind', 'PostBind', 'Reserve', 'Unreserve', 'Permit', 'Sign',
  'PlacementGenerate', 'PlacementFeasible', 'PlacementScore', 'PlacementScoreExtensionNormalize', 'PodGroupPostFilter',
];

describe('ExtensionPointLabel (derived from api/extension_points.ts)', () => {
  it("is upstream's set of labels, each once", () => {
    assert.deepEqual([...extensionPointLabels].sort(), [...upstreamLabels].sort());
    assert.equal(new Set(extensionPointLabels).size, extensionPointLabels.length);
  });

  it("labels each point after its plugin type first, then its extensions' calls", () => {
    for (const p of runtimeExtensionPoints) {
      if (p.labels.length === 0) continue;
      assert.equal(p.labels[0], p.pluginType.replace(/Plugin$/, ''), p.name);
      for (const l of p.labels.slice(1)) assert.ok(l.toLowerCase().includes(p.labels[0]!.toLowerCase()), `${p.name}: ${l}`);
    }
  });

  it("times every runtime call under a label of the table", () => {
    const used = new Set<string>();
    for (const spec of Object.values(specs)) if (spec.point !== null) used.add(spec.point);
    for (const l of used) assert.ok((extensionPointLabels as readonly string[]).includes(l), l);
    // The runtime times every label of the points it runs but pod groups' PlacementFeasible and
    // PodGroupPostFilter (run by scheduler/pod_group_cycle.ts without timing).
    const untimed = extensionPointLabels.filter((l) => !used.has(l));
    assert.deepEqual(untimed.sort(), ['PlacementFeasible', 'PodGroupPostFilter']);
  });

  it('is a union of literals, not any string', () => {
    const ok: ExtensionPointLabel = 'ScoreExtensionNormalize';
    // @ts-expect-error a label the table does not declare
    const bad: ExtensionPointLabel = 'PreEnqueue';
    assert.notEqual(ok, bad);
  });
});
