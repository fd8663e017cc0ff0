// DRADeviceTaintRules through simulate and explain: with the gate off a DeviceTaintRule's taint
// neither keeps a device from a claim nor counts in explain's deviceDiagnosis.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../src/api/types.js';
import type { DeviceClass, DeviceTaintRule, ResourceClaim, ResourceSlice } from '../src/api/dra_types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { FeatureGates } from '../src/config/feature_gates.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import { runExplain } from '../src/sim/explain/explain.js';
import type { Scenario } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';
import { makeNode, makePod } from '../src/testing/builders.js';

const driver = 'gpu.example.com';

/** One node with two GPUs, the first tainted NoSchedule by a rule, and a pod whose claim wants `count`. */
function scenario(count: number): Scenario {
  const gpuClass: DeviceClass = { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu' }, spec: {} };
  const slice: ResourceSlice = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: 'node-1-gpus' },
    spec: { driver, nodeName: 'node-1', pool: { name: 'node-1', generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'gpu-0' }, { name: 'gpu-1' }] },
  };
  const rule: DeviceTaintRule = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceTaintRule',
    metadata: { name: 'gpu-0-broken' },
    spec: { deviceSelector: { driver, device: 'gpu-0' }, taint: { key: 'broken', effect: 'NoSchedule' } },
  };
  const claim: ResourceClaim = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'gpus', namespace: 'default' },
    spec: { devices: { requests: [{ name: 'gpus', exactly: { deviceClassName: 'gpu', allocationMode: 'ExactCount', count } }] } },
  };
  const pod: Pod = makePod('trainer', { requests: { cpu: '100m' }, spec: { resourceClaims: [{ name: 'gpus', resourceClaimName: 'gpus' }] } });
  return { name: 'device-taint-rules', metadata: {}, config: null, nodes: [makeNode('node-1')], pods: [], pending: [pod], objects: [gpuClass, slice, rule, claim], steps: [] };
}

function options(sc: Scenario, gates: string[]) {
  const registry = inTreeRegistry();
  return { config: resolveConfiguration({ scenario: sc, registry }), registry, seed: 1, featureGates: FeatureGates.parse(gates) };
}

describe('DRADeviceTaintRules in simulate and explain', () => {
  const cases = [
    { gates: [], outcome: 'Unschedulable', available: 1 },
    { gates: ['DRADeviceTaintRules=false'], outcome: 'Scheduled', available: 2 },
  ];
  for (const tc of cases) {
    const name = tc.gates.join(',') || 'defaults';
    it(`${name}: a claim for both GPUs is ${tc.outcome}`, async () => {
      const sc = scenario(2);
      const report = await runSimulation(sc, options(sc, tc.gates));
      assert.deepEqual(report.pods.map((p) => p.outcome), [tc.outcome]);
    });

    it(`${name}: explain counts ${tc.available} GPUs for a claim of three`, async () => {
      const sc = scenario(3);
      const { pods } = await runExplain(sc, options(sc, tc.gates));
      const diag = pods[0]!.deviceDiagnosis!;
      assert.deepEqual(diag['node-1']!.map((s) => [s.request, s.wanted, s.available]), [['gpus', 3, tc.available]]);
    });
  }
});
