// Pods with resource claims end to end on the embedded cluster (scenarios/dra-gpu.yaml): claims
// from templates, CEL device classes, one or several devices per pod, a pod that cannot fit until
// devices are freed, a shared claim used again after its pod is deleted; and what explain shows.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Pod } from '../src/api/types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import { loadScenario, type Scenario } from '../src/sim/scenario/scenario.js';
import { runExplain } from '../src/sim/explain/explain.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';
import { makeNode, makePod } from '../src/testing/builders.js';

const gpuScenario = join(dirname(fileURLToPath(import.meta.url)), '../scenarios/dra-gpu.yaml');

function options(sc: Scenario) {
  const registry = inTreeRegistry();
  return { config: resolveConfiguration({ scenario: sc, registry }), registry, seed: 1 };
}

describe('the GPU scenario, simulated', () => {
  it('places every pod on the node with its devices, and the second training job once the first is gone', async () => {
    const sc = loadScenario(gpuScenario);
    const report = await runSimulation(sc, options(sc));
    const byPod = Object.fromEntries(report.pods.map((p) => [p.pod.slice('default/'.length), p]));
    assert.deepEqual(
      Object.fromEntries(Object.entries(byPod).map(([name, p]) => [name, [p.outcome, p.node]])),
      {
        'train-a': ['Deleted', 'gpu-node-1'],
        'infer-1': ['Scheduled', 'gpu-node-2'],
        'notebook-1': ['Deleted', 'gpu-node-2'],
        'train-b': ['Scheduled', 'gpu-node-1'],
        web: ['Scheduled', 'cpu-node'],
        'notebook-2': ['Scheduled', 'gpu-node-2'],
      },
    );
    assert.equal(byPod['train-b']!.scheduledAt, 30, 'train-b is placed when train-a goes, not later');
    assert.equal(byPod['train-b']!.attempts, 2);
    assert.deepEqual(report.devices, {
      nodes: [
        { node: 'gpu-node-1', allocated: 1, total: 2 },
        { node: 'gpu-node-2', allocated: 2, total: 2 },
      ],
      pools: [
        { driver: 'gpu.example.com', pool: 'gpu-node-1', allocated: 1, total: 2 },
        { driver: 'gpu.example.com', pool: 'gpu-node-2', allocated: 2, total: 2 },
      ],
    });
  });

  it('replays the same way for the same seed', async () => {
    const sc = loadScenario(gpuScenario);
    const a = await runSimulation(sc, options(sc));
    const b = await runSimulation(sc, options(sc));
    assert.deepEqual(a.pods, b.pods);
  });
});

describe('the GPU scenario, explained', () => {
  it('shows the devices each pod got, and for the one that does not fit, upstream\'s message and why each node had none', async () => {
    const sc = loadScenario(gpuScenario);
    const { pods } = await runExplain(sc, { ...options(sc), tieBreakByName: true });
    const byPod = Object.fromEntries(pods.map((p) => [p.pod.slice('default/'.length), p]));
    const devices = (name: string) => byPod[name]!.devices?.map((d) => `${d.request}:${d.pool}/${d.device}`);
    assert.deepEqual(devices('train-a'), ['gpus:gpu-node-1/gpu-0', 'gpus:gpu-node-1/gpu-1']);
    assert.deepEqual(devices('infer-1'), ['gpu:gpu-node-2/gpu-0']);
    assert.deepEqual(devices('notebook-1'), ['gpu:gpu-node-2/gpu-1']);
    assert.equal(byPod['web']!.devices, undefined, 'pods without claims get no DRA fields');
    assert.equal(byPod['web']!.deviceDiagnosis, undefined, 'nor a diagnosis');

    const trainB = byPod['train-b']!;
    assert.equal(trainB.outcome, 'Unschedulable');
    assert.equal(trainB.message, '0/3 nodes are available: 3 cannot allocate all claims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
    assert.deepEqual(trainB.devices, []);
    const diag = trainB.deviceDiagnosis!;
    assert.deepEqual(Object.keys(diag), ['cpu-node', 'gpu-node-1', 'gpu-node-2']);
    assert.equal(diag['gpu-node-1']![0]!.reason, 'enough matching devices, but other claims hold them');
    // The L4s are too small for the class and taken anyway: neither alone explains it.
    assert.deepEqual({ ...diag['gpu-node-2']![0]!, claim: '' }, { claim: '', request: 'gpu', wanted: 1, available: 0 });
    assert.deepEqual({ ...diag['cpu-node']![0]!, claim: '' }, { claim: '', request: 'gpu', wanted: 1, available: 0 });
  });
});

describe('pods with resource claims that cannot start', () => {
  const claimPod: Pod = makePod('gpu', { requests: { cpu: '100m' }, spec: { resourceClaims: [{ name: 'gpu', resourceClaimName: 'missing' }] } });
  const plainPods = ['a', 'b'].map((n) => makePod(n, { requests: { cpu: '100m' } }));
  const scenario = (config: Record<string, unknown> | null): Scenario => ({
    name: 'dra-missing-claim',
    metadata: {},
    config,
    nodes: ['node-1', 'node-2'].map((n) => makeNode(n)),
    pods: [],
    pending: [plainPods[0]!, claimPod, plainPods[1]!],
    objects: [],
    steps: [],
  });

  it('wait in PreEnqueue while a claim they name does not exist, while other pods schedule', async () => {
    const sc = scenario(null);
    const report = await runSimulation(sc, options(sc));
    assert.deepEqual(report.pods.map((p) => [p.pod, p.outcome]), [['default/a', 'Scheduled'], ['default/gpu', 'Gated'], ['default/b', 'Scheduled']]);
  });

  it('are scheduled without their claims looked at when a profile disables DynamicResources, as upstream', async () => {
    const sc = scenario({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [{ schedulerName: 'default-scheduler', plugins: { multiPoint: { disabled: [{ name: 'DynamicResources' }] } } }],
    });
    const report = await runSimulation(sc, options(sc));
    assert.deepEqual(report.pods.map((p) => p.outcome), ['Scheduled', 'Scheduled', 'Scheduled']);
  });
});

describe('the extended-resources scenario, explained', () => {
  const scenarioPath = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/scenarios/dra/extended-resources.yaml');

  it('says why each node had no devices for a pod whose only DRA use is an extended resource', async () => {
    const sc = loadScenario(scenarioPath);
    const { pods } = await runExplain(sc, options(sc));
    const e = pods.find((p) => p.pod === 'default/e')!;
    assert.equal(e.outcome, 'Unschedulable');
    assert.equal(e.devices, undefined, 'no devices: the claim is made only once a node fits');
    // Filter's requests of the in-memory claim, named as upstream names them (container 0, its second resource).
    assert.deepEqual(e.deviceDiagnosis, {
      'node-1': [{ claim: 'default/<extended-resources>', request: 'container-0-request-1', wanted: 2, available: 0, reason: 'enough matching devices, but other claims hold them' }],
      'node-2': [{ claim: 'default/<extended-resources>', request: 'container-0-request-1', wanted: 2, available: 1, reason: 'enough matching devices, but other claims hold them' }],
    });
  });
});
