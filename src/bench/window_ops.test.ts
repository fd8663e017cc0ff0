// The ops of upstream's event-handling and starvation cases on tiny workloads: a metrics window
// over several ops (startCollectingMetrics / stopCollectingMetrics), updateAny, and upstream's
// YAML templates filled as text/template fills them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultConfiguration } from '../config/index.js';
import type { Node, Pod } from '../api/types.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../plugins/registry.js';
import { runWorkload } from './runner.js';
import { template } from './templates.js';
import type { Op, TestCase } from './types.js';

const registry = inTreeRegistry();
const opts = { registry, config: defaultConfiguration(registry), notYetAvailable: notYetAvailablePlugins, opTimeoutMs: 30_000 };

function run(name: string, workloadTemplate: Op[], params: Record<string, number> = {}) {
  const tc: TestCase = { name, source: 'test', workloadTemplate, workloads: [{ name: 'w', params }] };
  return runWorkload({ testCase: tc, workload: tc.workloads[0]!, fullName: `${name}/w` }, {}, opts);
}

describe('upstream YAML templates', () => {
  it('fills .Index, .Count and the integer helpers, and reads numbers in resource maps as quantities', () => {
    const blocker = template('event_handling/podupdate-pod-blocker.yaml', { index: 7, count: 1000, params: {} }) as Pod;
    assert.equal(blocker.metadata.name, 'pod-blocker-7');
    assert.deepEqual(blocker.metadata.labels, { color: 'green-7', topology: 'blue' });
    assert.deepEqual(blocker.spec.containers[0]!.resources?.requests, { cpu: '0.0001', memory: '30Mi' });
    const ports = template('event_handling/poddelete-pod-blocker-topology-ports-resources.yaml', { index: 25, params: {} }) as Pod;
    assert.equal(ports.spec.containers[0]!.ports?.[0]?.hostPort, 81);
    const toleration = template('event_handling/nodeupdate-pod-tainttoleration.yaml', { index: 25, params: {} }) as Pod;
    assert.equal(toleration.spec.tolerations?.[0]?.key, 'toleration-2');
    const node = template('nodedeclaredfeatures/node-base.yaml') as Node;
    assert.equal(node.status?.capacity?.cpu, '128');
  });

  it('refuses a template whose value the op does not give', () => {
    assert.throws(() => template('event_handling/podupdate-pod-blocker.yaml', { index: 0, params: {} }), /podupdate-pod-blocker\.yaml: template value \.Count is not set/);
  });

  it('gives each caller its own object', () => {
    const a = template('starvation/victim-pod.yaml') as Pod;
    a.spec.priority = 5;
    assert.equal((template('starvation/victim-pod.yaml') as Pod).spec.priority, 0);
  });
});

describe('metrics window and updateAny', () => {
  it('counts only the bindings of pods in its namespaces with its labels', async () => {
    const r = await run('window', [
      { opcode: 'createNodes', count: 2 },
      { opcode: 'createPods', count: 2, namespace: 'ev' },
      { opcode: 'startCollectingMetrics', namespaces: ['ev'], labelSelector: { type: 'unsched' } },
      { opcode: 'createPods', count: 3, namespace: 'ev', podTemplatePath: 'event_handling/poddelete-pod-noderesources.yaml' },
      { opcode: 'createPods', count: 4, namespace: 'ev' },
      { opcode: 'createPods', count: 5, namespace: 'other', podTemplatePath: 'event_handling/poddelete-pod-noderesources.yaml' },
      { opcode: 'stopCollectingMetrics' },
    ]);
    assert.equal(r.skipped, undefined);
    assert.equal(r.measuredPods, 3);
    // Pods made before the window are initial; those made inside it are measured.
    assert.equal(r.initPods, 2);
  });

  it('frees pods waiting on unschedulable nodes by updating the nodes, at the given rate', async () => {
    const r = await run('nodeupdate', [
      { opcode: 'startCollectingMetrics', namespaces: ['u'] },
      { opcode: 'createNodes', countParam: '$nodes', nodeTemplatePath: 'event_handling/nodeupdate-node-unschedulable.yaml' },
      { opcode: 'createPods', countParam: '$pods', namespace: 'u', podTemplatePath: 'event_handling/nodeupdate-pod-nodeunschedulable.yaml', skipWaitToCompletion: true },
      { opcode: 'barrier', stageRequirement: 'Attempted' },
      { opcode: 'updateAny', countParam: '$nodes', templatePath: 'event_handling/nodeupdate-node-unschedulable-update.yaml', updatePerSecond: 100 },
      { opcode: 'barrier' },
      { opcode: 'stopCollectingMetrics' },
    ], { nodes: 2, pods: 4 });
    assert.equal(r.measuredPods, 4);
    assert.equal(r.nodes, 2);
  });

  it('refuses a window closed without being opened, or opened twice', async () => {
    await assert.rejects(run('unopened', [{ opcode: 'stopCollectingMetrics' }]), /stopCollectingMetrics without startCollectingMetrics/);
    await assert.rejects(run('twice', [
      { opcode: 'startCollectingMetrics', namespaces: ['a'] },
      { opcode: 'startCollectingMetrics', namespaces: ['b'] },
    ]), /only one op may collect metrics/);
    await assert.rejects(run('missing', [
      { opcode: 'updateAny', count: 1, templatePath: 'event_handling/nodeupdate-node-unschedulable-update.yaml' },
    ]), /updateAny: Node node-unschedulable-0 does not exist/);
  });
});
