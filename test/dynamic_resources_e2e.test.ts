// Pods with resource claims end to end: until DRA is built, the DynamicResources guard keeps them
// unschedulable with a clear message while the other pods schedule, and none of them is bound.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../src/api/types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { ErrReasonNotSupported } from '../src/plugins/dynamicresources/index.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import type { Scenario } from '../src/sim/scenario.js';
import { runSimulation } from '../src/sim/simulate.js';
import { makeNode, makePod } from '../src/testing/builders.js';

const gpuPod: Pod = makePod('gpu', { requests: { cpu: '100m' }, spec: { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'single-gpu' }] } });
const plainPods = ['a', 'b'].map((n) => makePod(n, { requests: { cpu: '100m' } }));

function scenario(config: Record<string, unknown> | null): Scenario {
  const nodes = ['node-1', 'node-2'].map((n) => makeNode(n));
  return { name: 'dra-guard', metadata: {}, config, nodes, pods: [], pending: [plainPods[0]!, gpuPod, plainPods[1]!], objects: [], steps: [] };
}

async function simulate(config: Record<string, unknown> | null) {
  const registry = inTreeRegistry();
  const sc = scenario(config);
  return runSimulation(sc, { config: resolveConfiguration({ scenario: sc, registry }), registry, seed: 1 });
}

describe('pods with resource claims, end to end', () => {
  it('stay unschedulable with the reason under the default profile, while other pods schedule', async () => {
    const report = await simulate(null);
    const gpu = report.pods.find((p) => p.pod === 'default/gpu');
    assert.ok(gpu, 'the gpu pod is reported');
    assert.equal(gpu.outcome, 'Unschedulable');
    assert.equal(gpu.node, '');
    assert.ok(gpu.message.startsWith(`0/2 nodes are available: ${ErrReasonNotSupported}. preemption: `), gpu.message);
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
