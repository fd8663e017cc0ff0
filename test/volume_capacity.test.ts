// Storage capacity tracking end to end: CSIDriver and CSIStorageCapacity objects reach the
// VolumeBinding plugin through the scheduler's listers, and a new capacity requeues the pod.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CSIDriver, CSIStorageCapacity, KubeObject, PersistentVolumeClaim, Pod, StorageClass } from '../src/api/types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import type { Scenario, ScenarioStep } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';
import { makeNode, makePod } from '../src/testing/builders.js';

const driver = 'csi.example.com';
const storageClass: StorageClass = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'local' },
  provisioner: driver,
  volumeBindingMode: 'WaitForFirstConsumer',
};
const csiDriver: CSIDriver = { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: driver }, spec: { storageCapacity: true } };
const claim: PersistentVolumeClaim = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default' },
  spec: { storageClassName: 'local', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } },
  status: { phase: 'Pending' },
};
const capacityOn = (node: string, size: string): CSIStorageCapacity => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIStorageCapacity',
  metadata: { name: `local-${node}`, namespace: 'kube-system' },
  storageClassName: 'local',
  nodeTopology: { matchLabels: { 'kubernetes.io/hostname': node } },
  capacity: size,
});
const pod: Pod = makePod('app', { spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] } });

async function outcome(objects: KubeObject[], steps: ScenarioStep[] = []) {
  const registry = inTreeRegistry();
  const nodes = ['node-a', 'node-b'].map((n) => makeNode(n, { labels: { 'kubernetes.io/hostname': n } }));
  const sc: Scenario = { name: 'capacity', metadata: {}, config: null, nodes, pods: [], pending: [pod], objects, steps };
  const report = await runSimulation(sc, { config: resolveConfiguration({ scenario: sc, registry }), registry, seed: 1 });
  return report.pods.map((p) => [p.outcome, p.node, p.message]);
}

describe('storage capacity tracking, end to end', () => {
  it('the pod goes to the only node with enough capacity', async () => {
    const objects = [storageClass, csiDriver, claim, capacityOn('node-a', '1Gi'), capacityOn('node-b', '10Gi')];
    assert.deepEqual((await outcome(objects)).map(([o, n]) => [o, n]), [['Scheduled', 'node-b']]);
  });

  it('without enough capacity anywhere the pod waits, and a new capacity object lets it in', async () => {
    const objects = [storageClass, csiDriver, claim, capacityOn('node-a', '1Gi')];
    const results = (await outcome(objects)) as [string, string, string][];
    assert.equal(results.length, 1);
    const [result, , message] = results[0]!;
    assert.equal(result, 'Unschedulable');
    assert.match(message, /node\(s\) did not have enough free storage/);
    const later: ScenarioStep = { afterMs: 1000, create: [capacityOn('node-b', '10Gi')], update: [], delete: [] };
    assert.deepEqual((await outcome(objects, [later])).map(([o, n]) => [o, n]), [['Scheduled', 'node-b']]);
  });
});
