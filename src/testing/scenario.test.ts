import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Status } from '../framework/status.js';
import type { FilterPlugin } from '../framework/interfaces.js';
import type { PluginDefinition } from '../framework/registry.js';
import { ScenarioError } from '../sim/scenario/scenario.js';
import { makeNode, makePod } from './builders.js';
import { scenario, simulate } from './scenario.js';

/** Refuses nodes labelled `avoid: "true"`. */
const avoidLabelled: PluginDefinition = {
  name: 'AvoidLabelled',
  factory: (): FilterPlugin => ({
    name: 'AvoidLabelled',
    filter: (_state, _pod, nodeInfo) => (nodeInfo.node?.metadata.labels?.avoid === 'true' ? Status.unresolvable('node(s) were avoided') : null),
  }),
};
const enableAvoidLabelled = {
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  profiles: [{ schedulerName: 'default-scheduler', plugins: { multiPoint: { enabled: [{ name: 'AvoidLabelled' }] } } }],
};

describe('testing kit: scenario builder and simulate', () => {
  it('builds what a scenario file holds: nodes, bound pods as load, pending pods in order', () => {
    const sc = scenario('built')
      .withNodes(makeNode('a'), makeNode('b'))
      .withRunningPods(makePod('running', { node: 'a' }))
      .withPendingPods(makePod('p1'), makePod('p2'))
      .build();
    assert.deepEqual(sc.nodes.map((n) => n.metadata.name), ['a', 'b']);
    assert.deepEqual(sc.pods.map((p) => p.spec.nodeName), ['a']);
    assert.deepEqual(sc.pending.map((p) => p.metadata.name), ['p1', 'p2']);
    assert.equal(sc.config, null);
  });

  it('refuses a bad object as the loader refuses a file, naming the field', () => {
    const bad = makePod('bad', { requests: { cpu: 'lots' } });
    assert.throws(() => scenario('bad').withNodes(makeNode('a')).withPendingPods(bad).build(), (err: unknown) =>
      err instanceof ScenarioError && /bad/.test(err.message) && /resources\.requests/.test(err.message));
  });

  const cases = [
    { name: 'in-tree defaults only: the pod goes to the emptier node (LeastAllocated)', plugins: [], config: undefined, want: [['default/p', 'avoided']] },
    { name: 'the out-of-tree plugin enabled keeps the pod off the avoided node', plugins: [avoidLabelled], config: enableAvoidLabelled, want: [['default/p', 'free']] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const sc = scenario()
        .withNodes(makeNode('avoided', { labels: { avoid: 'true' } }), makeNode('free'))
        .withRunningPods(makePod('load', { node: 'free', requests: { cpu: '2' } }))
        .withPendingPods(makePod('p', { requests: { cpu: '1' } }))
        .build();
      const report = await simulate(sc, { plugins: c.plugins, ...(c.config ? { config: c.config } : {}) });
      assert.deepEqual(report.pods.filter((p) => p.pod === 'default/p').map((p) => [p.pod, p.node]), c.want);
    });
  }

  it('reports the out-of-tree plugin\'s reason when no node is left', async () => {
    const sc = scenario().withNodes(makeNode('avoided', { labels: { avoid: 'true' } })).withPendingPods(makePod('p')).build();
    const report = await simulate(sc, { plugins: [avoidLabelled], config: enableAvoidLabelled });
    assert.equal(report.pods[0]!.outcome, 'Unschedulable');
    assert.equal(report.pods[0]!.message, '0/1 nodes are available: 1 node(s) were avoided. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.');
  });
});
