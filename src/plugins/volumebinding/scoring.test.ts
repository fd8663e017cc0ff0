// StorageCapacityScoring (on by default since v1.37): the scoring scenarios of upstream's
// volume_binding_test.go TestVolumeBinding, through PreFilter, Filter, PreScore and Score.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CSIDriver, CSIStorageCapacity, KubeObject, Node, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { VolumeBinding, defaultVolumeBindingArgs } from './index.js';

const nodeLabelKey = 'nodeKey';
const provisioner = 'test-provisioner';
const waitSC: StorageClass = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'wait-sc' }, provisioner: '', volumeBindingMode: 'WaitForFirstConsumer' };
const capacitySC: StorageClass = { ...waitSC, metadata: { name: 'wait-sc-with-storage-capacity' }, provisioner };
const driver: CSIDriver = { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: provisioner }, spec: { storageCapacity: true } };

const node = (name: string): Node => makeNode(name, { labels: { [nodeLabelKey]: name, 'kubernetes.io/hostname': name } });

function claim(name: string, className: string, request: string): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '1' },
    spec: { storageClassName: className, accessModes: ['ReadWriteOnce'], resources: { requests: { storage: request } } },
    status: { phase: 'Pending' },
  };
}

function localPV(name: string, capacity: string, host: string): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, resourceVersion: '1' },
    spec: {
      storageClassName: waitSC.metadata!.name!,
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: capacity },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [host] }] }] } },
    },
    status: { phase: 'Available' },
  };
}

function capacityOn(host: string, size: string): CSIStorageCapacity {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIStorageCapacity',
    metadata: { name: host, namespace: 'kube-system' },
    storageClassName: capacitySC.metadata!.name!,
    nodeTopology: { matchLabels: { [nodeLabelKey]: host } },
    capacity: size,
  };
}

interface Case {
  name: string;
  claims: PersistentVolumeClaim[];
  objects: KubeObject[];
  nodes: string[];
  shape?: { utilization: number; score: number }[];
  /** Score per node; null where Filter rejects the node. */
  want: (number | null)[];
}

const cases: Case[] = [
  {
    // 50Gi on 200Gi volumes: 25% -> 75; on 100Gi: 50% -> 50; node-c has no volume.
    name: 'local volumes with more free capacity are preferred',
    claims: [claim('pvc-a', 'wait-sc', '50Gi')],
    objects: [localPV('pv-a-0', '200Gi', 'node-a'), localPV('pv-a-1', '200Gi', 'node-a'), localPV('pv-b-0', '100Gi', 'node-b'), localPV('pv-b-1', '100Gi', 'node-b')],
    nodes: ['node-a', 'node-b', 'node-c'],
    want: [75, 50, null],
  },
  {
    name: 'a custom shape scores the same utilizations its own way',
    claims: [claim('pvc-a', 'wait-sc', '50Gi')],
    objects: [localPV('pv-a-0', '200Gi', 'node-a'), localPV('pv-b-0', '100Gi', 'node-b')],
    nodes: ['node-a', 'node-b'],
    shape: [{ utilization: 0, score: 0 }, { utilization: 100, score: 10 }],
    want: [25, 50],
  },
  {
    // 10Gi of a node's 100Gi, 50Gi and 10Gi.
    name: 'storage capacity score',
    claims: [claim('pvc-dynamic', capacitySC.metadata!.name!, '10Gi')],
    objects: [capacityOn('node-a', '100Gi'), capacityOn('node-b', '50Gi'), capacityOn('node-c', '10Gi')],
    nodes: ['node-a', 'node-b', 'node-c'],
    want: [90, 80, 0],
  },
  {
    // With a static binding only the static bindings count: 50Gi of 100Gi everywhere.
    name: 'storage capacity score with static binds',
    claims: [claim('pvc-dynamic', capacitySC.metadata!.name!, '10Gi'), claim('pvc-static', 'wait-sc', '50Gi')],
    objects: [
      localPV('pv-static-a', '100Gi', 'node-a'),
      localPV('pv-static-b', '100Gi', 'node-b'),
      localPV('pv-static-c', '100Gi', 'node-c'),
      capacityOn('node-a', '100Gi'),
      capacityOn('node-b', '50Gi'),
      capacityOn('node-c', '10Gi'),
    ],
    nodes: ['node-a', 'node-b', 'node-c'],
    want: [50, 50, 50],
  },
  {
    // Two 50Gi claims of one class share the node's 100Gi: 100% -> 0.
    name: 'dynamic provisioning with multiple PVCs of the same StorageClass',
    claims: [claim('pvc-dynamic-0', capacitySC.metadata!.name!, '50Gi'), claim('pvc-dynamic-1', capacitySC.metadata!.name!, '50Gi')],
    objects: [capacityOn('node-a', '100Gi')],
    nodes: ['node-a'],
    want: [0],
  },
];

describe('VolumeBinding StorageCapacityScoring (upstream TestVolumeBinding)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const nodes = c.nodes.map(node);
      const lister = new MapObjectLister([waitSC, capacitySC, driver, ...c.claims, ...c.objects]);
      const handle = newTestHandle({ nodes, overrides: { objects: () => lister } });
      const plugin = new VolumeBinding(defaultVolumeBindingArgs(c.shape ? { shape: c.shape } : {}), handle);
      const pod = new PodInfo(makePod('pod-a', { spec: { volumes: c.claims.map((p, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: p.metadata!.name! } })) } }));
      const state = new CycleState();
      assert.equal(plugin.preFilter(state, pod), null);
      const feasible = nodes.map((n) => plugin.filter(state, pod, new NodeInfo(n)) === null);
      assert.equal(plugin.preScore(state), null);
      const got = nodes.map((n, i) => (feasible[i] ? plugin.score(state, pod, new NodeInfo(n)) : null));
      assert.deepEqual(got, c.want);
    });
  }

  it('a pod without claims is scored 0, not skipped', () => {
    const plugin = new VolumeBinding(defaultVolumeBindingArgs({}), newTestHandle({ nodes: [node('node-a')] }));
    const state = new CycleState();
    const pod = new PodInfo(makePod('p'));
    plugin.preFilter(state, pod);
    assert.equal(plugin.preScore(state), null);
    assert.equal(plugin.score(state, pod, new NodeInfo(node('node-a'))), 0);
  });
});
