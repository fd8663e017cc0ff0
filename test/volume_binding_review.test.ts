// Review findings, end to end: the embedded PV controller binds claims statically as the real one
// does (classless or Immediate claims to an Available volume, claims pre-bound through
// spec.volumeName), so their pods are schedulable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, PersistentVolume, PersistentVolumeClaim, Pod } from '../src/api/types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import type { Scenario } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';
import { makeNode, makePod } from '../src/testing/builders.js';

const claim = (spec: Partial<NonNullable<PersistentVolumeClaim['spec']>>): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } }, ...spec },
  status: { phase: 'Pending' },
});
const volume: PersistentVolume = {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'pv-1' },
  spec: { storageClassName: '', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/mnt' } },
  status: { phase: 'Available' },
};
const pod: Pod = makePod('app', { spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] } });

async function outcome(objects: KubeObject[]) {
  const registry = inTreeRegistry();
  const sc: Scenario = { name: 'review', metadata: {}, config: null, nodes: [makeNode('node-a')], pods: [], pending: [pod], objects, steps: [] };
  const report = await runSimulation(sc, { config: resolveConfiguration({ scenario: sc, registry }), registry, seed: 1 });
  return report.pods.map((p) => [p.outcome, p.node]);
}

describe('volume binding review: embedded PV controller static binding', () => {
  it('a classless claim binds to a classless Available volume', async () => {
    assert.deepEqual(await outcome([claim({ storageClassName: '' }), volume]), [['Scheduled', 'node-a']]);
  });
  it('a claim pre-bound through spec.volumeName binds to that volume', async () => {
    assert.deepEqual(await outcome([claim({ storageClassName: '', volumeName: 'pv-1' }), volume]), [['Scheduled', 'node-a']]);
  });
});
