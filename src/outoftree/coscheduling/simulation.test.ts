// Coscheduling in a whole simulation: a gang binds only when minMember of it fit at once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../plugin.js';
import { makeNode, makePod, scenario, simulate } from '../../testing/index.js';
import { coschedulingDefinition, PodGroupLabel } from './index.js';
import { fixedSource, makePodGroup } from './test_helpers.js';
import { scenarioFromDocuments } from '../../sim/scenario/scenario.js';

const gangPod = (name: string, group: string, cpu: string): Pod => makePod(name, { labels: { [PodGroupLabel]: group }, requests: { cpu } });
const config = {
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  profiles: [{
    schedulerName: 'default-scheduler',
    plugins: { multiPoint: { enabled: [{ name: 'Coscheduling' }], disabled: [{ name: 'PrioritySort' }] } },
    pluginConfig: [{ name: 'Coscheduling', args: { permitWaitingTimeSeconds: 5 } }],
  }],
};

// Not here: a gang of which fewer than minMember fit. Its placed members wait at Permit for the
// timeout, and a simulation's drain does not move the clock while a binding cycle waits (loop.ts),
// so such a run never ends; see docs/coscheduling.md.
describe('Coscheduling simulation', () => {
  const cases = [
    { name: 'a gang that fits binds whole', minMember: 3, pods: ['a', 'b', 'c'].map((n) => gangPod(n, 'pg', '2')), wantScheduled: 3 },
    { name: 'a gang with too few members waits in PreFilter', minMember: 4, pods: ['a', 'b', 'c'].map((n) => gangPod(n, 'pg', '1')), wantScheduled: 0 },
    { name: 'minMember 2 of 3: the two that fit bind', minMember: 2, pods: ['a', 'b', 'c'].map((n) => gangPod(n, 'pg', '3')), wantScheduled: 2 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const pg = makePodGroup('pg', { minMember: c.minMember });
      const sc = scenario(c.name).withNodes(makeNode('n1'), makeNode('n2')).withPendingPods(...c.pods).withConfig(config).build();
      const report = await simulate(sc, { plugins: [coschedulingDefinition(() => fixedSource([pg], c.pods))] });
      assert.equal(report.summary.scheduled, c.wantScheduled, JSON.stringify(report.pods.map((p) => [p.pod, p.outcome, p.node, p.message])));
    });
  }
});

// The shipped plugin by name, its PodGroups a scenario's scheduling.x-k8s.io/v1alpha1 documents
// (beside a scheduling.k8s.io PodGroup of the same name, which it does not read).
describe('Coscheduling by name over a scenario\'s PodGroups', () => {
  const cases = [
    { name: 'a gang that fits binds whole', minMember: 3, pods: ['a', 'b', 'c'].map((n) => gangPod(n, 'pg', '2')), wantScheduled: 3, wantMessage: undefined },
    { name: 'too few members: none binds, with PreFilter\'s message', minMember: 4, pods: ['a', 'b', 'c'].map((n) => gangPod(n, 'pg', '1')), wantScheduled: 0,
      wantMessage: /pre-filter pod a cannot find enough sibling pods, current pods number: 3, minMember of group: 4/ },
    { name: 'no PodGroup of that name in scheduling.x-k8s.io: Permit refuses', minMember: 1, pods: [gangPod('a', 'other', '1')], wantScheduled: 0, wantMessage: /PodGroup not found/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const builtIn = { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'other', namespace: 'default' }, spec: { schedulingPolicy: { gang: { minCount: 1 } } } };
      const sc = scenario(c.name).withNodes(makeNode('n1'), makeNode('n2')).withPendingPods(...c.pods)
        .withObjects(makePodGroup('pg', { minMember: c.minMember }) as never, builtIn as never).withConfig(config).build();
      const report = await simulate(sc);
      const outcomes = JSON.stringify(report.pods.map((p) => [p.pod, p.outcome, p.node, p.message]));
      assert.equal(report.summary.scheduled, c.wantScheduled, outcomes);
      if (c.wantMessage !== undefined) assert.match(report.pods[0]!.message ?? '', c.wantMessage, outcomes);
    });
  }
});

describe('Coscheduling requeues on its PodGroups\' events', () => {
  it('members refused with "PodGroup not found" bind once a step creates their PodGroup', async () => {
    const pods = ['a', 'b'].map((n) => gangPod(n, 'late', '1'));
    const sc = scenarioFromDocuments([{
      nodes: [makeNode('n1')], pending: pods, config,
      steps: [{ after: '1s', create: [makePodGroup('late', { minMember: 2 })] }],
    }], 'late-podgroup');
    const report = await simulate(sc);
    assert.equal(report.summary.scheduled, 2, JSON.stringify(report.pods.map((p) => [p.pod, p.outcome, p.message])));
  });
});
