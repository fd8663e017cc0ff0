// End-to-end volume binding in the embedded cluster: VolumeBinding picks a node and writes the
// binding, the embedded PV controller provisions or binds, and the pod is bound after its claims.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../src/api/types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { MemoryCluster } from '../src/cluster/memory/store.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../src/plugins/registry.js';
import { volumeBindingDefinition } from '../src/plugins/volumebinding/index.js';
import { createEmbedded } from '../src/sim/scenario/embedded.js';
import type { Scenario } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';
import { makeNode, makePod } from '../src/testing/builders.js';
import { FakeClock } from '../src/util/clock.js';

function registryWithVolumeBinding() {
  const registry = inTreeRegistry();
  if (!registry.has(volumeBindingDefinition.name)) registry.register(volumeBindingDefinition);
  const notYetAvailable = new Set([...notYetAvailablePlugins].filter((n) => n !== volumeBindingDefinition.name));
  return { registry, notYetAvailable };
}

const wffc = (name: string, extra: Partial<StorageClass> = {}): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'csi.example.com',
  volumeBindingMode: 'WaitForFirstConsumer',
  ...extra,
});

const claim = (name: string, className: string, storage = '5Gi'): PersistentVolumeClaim => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'default' },
  spec: { storageClassName: className, accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
  status: { phase: 'Pending' },
});

const withClaim = (name: string, claimName: string): Pod =>
  makePod(name, { requests: { cpu: '100m' }, spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] } });

function scenario(objects: KubeObject[], pending: Pod[], nodes = [makeNode('node-a', { labels: { 'topology.kubernetes.io/zone': 'zone-a' } }), makeNode('node-b', { labels: { 'topology.kubernetes.io/zone': 'zone-b' } })]): Scenario {
  return { name: 'volumes', metadata: {}, config: null, nodes, pods: [], pending, objects, steps: [] };
}

async function simulateWithCluster(sc: Scenario) {
  const { registry, notYetAvailable } = registryWithVolumeBinding();
  const config = resolveConfiguration({ scenario: sc, registry });
  const env = await createEmbedded(sc, { config, registry, notYetAvailable, seed: 1 });
  for (const p of sc.pending) env.cluster.create(p);
  while (env.scheduler.scheduleOne()) await env.scheduler.waitForBindings();
  await env.scheduler.waitForBindings();
  env.scheduler.stop();
  return env.cluster;
}

describe('volume binding end to end', () => {
  it('schedules a pod whose claim waits for its first consumer and ends with the claim bound', async () => {
    const sc = scenario([wffc('fast', { allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['zone-b'] }] }] }), claim('data', 'fast')], [withClaim('app', 'data')]);
    const { registry, notYetAvailable } = registryWithVolumeBinding();
    const config = resolveConfiguration({ scenario: sc, registry });
    const report = await runSimulation(sc, { config, registry, notYetAvailable, seed: 1 });
    assert.deepEqual(report.unavailablePlugins.includes('VolumeBinding'), false);
    assert.deepEqual(report.pods.map((p) => [p.pod, p.outcome, p.node]), [['default/app', 'Scheduled', 'node-b']]);

    const cluster = await simulateWithCluster(sc);
    const pvc = cluster.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'data')!;
    assert.equal(pvc.status?.phase, 'Bound');
    assert.equal(pvc.metadata?.annotations?.['volume.kubernetes.io/selected-node'], 'node-b');
    const pv = cluster.get<PersistentVolume>('PersistentVolume', '', pvc.spec!.volumeName!)!;
    assert.deepEqual(
      [pv.status?.phase, pv.spec?.capacity?.['storage'], pv.spec?.claimRef?.name, pv.spec?.nodeAffinity?.required?.nodeSelectorTerms[0]?.matchExpressions?.[0]],
      ['Bound', '5Gi', 'data', { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-b'] }],
    );
    assert.equal(cluster.get<Pod>('Pod', 'default', 'app')!.spec.nodeName, 'node-b');
  });

  it('binds two pods to the two local volumes, one each, on the volumes\' nodes', async () => {
    const local = (name: string, node: string): PersistentVolume => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: {
        storageClassName: 'local',
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        local: { path: '/mnt/disk' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
      },
      status: { phase: 'Available' },
    });
    const sc = scenario(
      [wffc('local', { provisioner: 'kubernetes.io/no-provisioner' }), local('pv-a', 'node-a'), local('pv-b', 'node-b'), claim('c1', 'local'), claim('c2', 'local')],
      [withClaim('p1', 'c1'), withClaim('p2', 'c2')],
    );
    const cluster = await simulateWithCluster(sc);
    const placed = ['p1', 'p2'].map((p) => {
      const node = cluster.get<Pod>('Pod', 'default', p)!.spec.nodeName;
      const c = cluster.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', p === 'p1' ? 'c1' : 'c2')!;
      return [node, c.spec?.volumeName, c.status?.phase];
    });
    assert.deepEqual(placed.map((x) => x[2]), ['Bound', 'Bound']);
    for (const [node, volume] of placed) assert.equal(volume, node === 'node-a' ? 'pv-a' : 'pv-b');
    assert.notEqual(placed[0]![0], placed[1]![0]);
  });

  for (const volumeController of [true, false]) {
    it(`the embedded PV controller provisions on the selected node unless turned off (${volumeController ? 'on' : 'off'})`, async () => {
      const cluster = new MemoryCluster({ clock: new FakeClock(0), volumeController });
      cluster.create(wffc('fast'));
      cluster.create(makeNode('node-a'));
      const c = cluster.create(claim('data', 'fast'));
      await Promise.resolve();
      assert.equal(cluster.list('PersistentVolume').length, 0);
      cluster.update({ ...c, metadata: { ...c.metadata, annotations: { 'volume.kubernetes.io/selected-node': 'node-a' } } });
      await Promise.resolve();
      assert.equal(cluster.list('PersistentVolume').length, volumeController ? 1 : 0);
      assert.equal(cluster.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'data')!.status?.phase, volumeController ? 'Bound' : 'Pending');
    });
  }
});
