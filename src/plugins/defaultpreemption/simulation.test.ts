// DefaultPreemption inside the whole scheduler: an embedded cluster, the queue and the cycles.
// The preemptor must end up bound to the node it preempted on, its victims deleted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../../api/types.js';
import { Registry } from '../../framework/registry.js';
import type { ProfileConfig } from '../../framework/runtime/profile_plugins.js';
import { runSimulation } from '../../sim/simulate/simulate.js';
import type { Scenario } from '../../sim/scenario/scenario.js';
import { defaultBinderDefinition } from '../defaultbinder/index.js';
import { nodeResourcesFitDefinition } from '../noderesources/index.js';
import { prioritySortDefinition } from '../queuesort/index.js';
import { defaultPreemptionDefinition } from './index.js';
import { highPriority, lowPriority, mediumRes, midPriority, node, pdb, pod, smallRes, veryLargeRes } from './test_helpers.js';

const profile: ProfileConfig = {
  schedulerName: 'default-scheduler',
  plugins: {
    queueSort: { enabled: [{ name: 'PrioritySort' }] },
    preFilter: { enabled: [{ name: 'NodeResourcesFit' }] },
    filter: { enabled: [{ name: 'NodeResourcesFit' }] },
    postFilter: { enabled: [{ name: 'DefaultPreemption' }] },
    bind: { enabled: [{ name: 'DefaultBinder' }] },
  },
};

const registry = new Registry([prioritySortDefinition, nodeResourcesFitDefinition, defaultPreemptionDefinition, defaultBinderDefinition]);

function scenario(pods: Pod[], pending: Pod[], objects: KubeObject[] = []): Scenario {
  const strip = (p: Pod): Pod => ({ ...p, metadata: { name: p.metadata.name, namespace: p.metadata.namespace, labels: p.metadata.labels } });
  return {
    name: 'preemption',
    metadata: {},
    config: null,
    nodes: [node('node1', veryLargeRes), node('node2', veryLargeRes)],
    pods: pods.map(strip),
    pending: pending.map(strip),
    objects,
    steps: [],
  };
}

describe('DefaultPreemption in the scheduler', () => {
  it('evicts the lowest-priority victims and binds the preemptor to the nominated node', async () => {
    const sc = scenario(
      [
        pod('low-1', { node: 'node1', priority: lowPriority, requests: mediumRes }),
        pod('low-2', { node: 'node1', priority: lowPriority, requests: mediumRes }),
        pod('mid-1', { node: 'node2', priority: midPriority, requests: mediumRes }),
        pod('mid-2', { node: 'node2', priority: midPriority, requests: mediumRes }),
      ],
      [pod('high', { priority: highPriority, requests: veryLargeRes })],
    );
    const report = await runSimulation(sc, { config: { profiles: [profile] }, registry });
    const byName = new Map(report.pods.map((p) => [p.pod, p]));
    assert.equal(byName.get('default/high')?.outcome, 'Scheduled');
    assert.equal(byName.get('default/high')?.node, 'node1');
    assert.equal(byName.get('default/high')?.nominatedNode, 'node1');
    for (const v of ['default/low-1', 'default/low-2']) {
      assert.equal(byName.get(v)?.outcome, 'Preempted');
      assert.equal(byName.get(v)?.preemptedBy, 'default/high');
    }
    assert.equal(byName.get('default/mid-1')?.outcome, 'Scheduled');
  });

  it('prefers the node whose evictions violate no PodDisruptionBudget', async () => {
    const sc = scenario(
      [
        pod('guarded', { node: 'node1', priority: lowPriority, requests: veryLargeRes, labels: { app: 'db' } }),
        pod('free', { node: 'node2', priority: midPriority, requests: veryLargeRes }),
      ],
      [pod('high', { priority: highPriority, requests: smallRes })],
      [pdb('db', { app: 'db' }, 0)],
    );
    const report = await runSimulation(sc, { config: { profiles: [profile] }, registry });
    const byName = new Map(report.pods.map((p) => [p.pod, p]));
    assert.equal(byName.get('default/high')?.node, 'node2');
    assert.equal(byName.get('default/free')?.outcome, 'Preempted');
    assert.equal(byName.get('default/guarded')?.outcome, 'Scheduled');
  });

  it('leaves a pod with preemptionPolicy Never unschedulable, with upstream\'s message', async () => {
    const sc = scenario(
      [pod('low', { node: 'node1', priority: lowPriority, requests: veryLargeRes }), pod('low2', { node: 'node2', priority: lowPriority, requests: veryLargeRes })],
      [pod('polite', { priority: highPriority, requests: smallRes, preemptionPolicy: 'Never' })],
    );
    const report = await runSimulation(sc, { config: { profiles: [profile] }, registry });
    const polite = report.pods.find((p) => p.pod === 'default/polite')!;
    assert.equal(polite.outcome, 'Unschedulable');
    assert.equal(polite.message, '0/2 nodes are available: 2 Insufficient cpu, 2 Insufficient memory. preemption: not eligible due to preemptionPolicy=Never.');
  });
});
