// Pods with resource claims end to end: DynamicResources holds a pod back until its claims exist,
// while the other pods schedule.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../src/api/types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import type { Scenario } from '../src/sim/scenario.js';
import { runSimulation } from '../src/sim/simulate.js';
import { makeNode, makePod } from '../src/testing/builders.js';

const gpuPod: Pod = makePod('gpu', { requests: { cpu: '100m' }, spec: { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'single-gpu' }] } });
const plainPods = ['a', 'b'].map((n) => makePod(n, { requests: { cpu: '100m' } }));

function scenario(config: Record<string, unknown> | null): Scenario {
  const nodes = ['node-1', 'node-2'].map((n) => makeNode(n));
  return { name: 'dra-claims', metadata: {}, config, nodes, pods: [], pending: [plainPods[0]!, gpuPod, plainPods[1]!], objects: [], steps: [] };
}

async function simulate(config: Record<string, unknown> | null) {
  const registry = inTreeRegistry();
  const sc = scenario(config);
  return runSimulation(sc, { config: resolveConfiguration({ scenario: sc, registry }), registry, seed: 1 });
}

describe('pods with resource claims, end to end', () => {
  it('wait in PreEnqueue while their claim is not created, under the default profile, while other pods schedule', async () => {
    const report = await simulate(null);
    const gpu = report.pods.find((p) => p.pod === 'default/gpu');
    assert.ok(gpu, 'the gpu pod is reported');
    assert.equal(gpu.outcome, 'Gated');
    assert.equal(gpu.node, '');
    const others = report.pods.filter((p) => p !== gpu);
    assert.deepEqual(others.map((p) => p.outcome), ['Scheduled', 'Scheduled']);
    assert.deepEqual(report.unavailablePlugins, []);
  });

  it('are scheduled without their claims checked only when a profile disables DynamicResources, as upstream', async () => {
    const config = {
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [{ schedulerName: 'default-scheduler', plugins: { multiPoint: { disabled: [{ name: 'DynamicResources' }] } } }],
    };
    const report = await simulate(config);
    assert.deepEqual(report.pods.map((p) => p.outcome), ['Scheduled', 'Scheduled', 'Scheduled']);
  });
});
