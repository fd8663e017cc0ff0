// The per-node volume cache of NodeVolumeLimits: a plugin that has filtered before (warm cache)
// reaches the verdicts of a new plugin (nothing cached) after pods and objects change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CSINode, KubeObject, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { ObjectLister } from '../../framework/interfaces.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, type Status } from '../../framework/status.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { CSILimits, MigratedPluginsAnnotationKey } from './index.js';

const ebs = 'ebs.csi.aws.com';
const gce = 'pd.csi.storage.gke.io';
const ebsInTree = 'kubernetes.io/aws-ebs';
const portworx = 'pxd.portworx.com';
const portworxInTree = 'kubernetes.io/portworx-volume';

let podSeq = 0;
function podWith(...claims: string[]): PodInfo {
  const pod: Pod = makePod(`pod-${++podSeq}`, {
    spec: { containers: [{ name: 'c' }], volumes: claims.map((claimName, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName } })) },
  });
  return new PodInfo(pod);
}
const csiPV = (name: string, driver: string): PersistentVolume => ({ kind: 'PersistentVolume', metadata: { name }, spec: { csi: { driver, volumeHandle: name } } });
const ebsInTreePV = (name: string): PersistentVolume => ({ kind: 'PersistentVolume', metadata: { name }, spec: { awsElasticBlockStore: { volumeID: name } } });
const portworxPV = (name: string): PersistentVolume => ({ kind: 'PersistentVolume', metadata: { name }, spec: { portworxVolume: { volumeID: name } } });
const claim = (name: string, spec: PersistentVolumeClaim['spec']): PersistentVolumeClaim => ({ kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'default' }, spec });
const storageClass = (provisioner: string): StorageClass => ({ kind: 'StorageClass', metadata: { name: 'sc' }, provisioner });
function csiNode(name: string, limit: number, migrated = ''): CSINode {
  return {
    kind: 'CSINode',
    metadata: { name, ...(migrated ? { annotations: { [MigratedPluginsAnnotationKey]: migrated } } : {}) },
    spec: { drivers: [ebs, gce, portworx].map((d) => ({ name: d, nodeID: name, allocatable: { count: d === portworx ? 1 : limit } })) },
  };
}

/** PVs and bound claims "ebs-0..3", "gce-0..1", "px-0..1" (Portworx in-tree), an in-tree EBS volume and an unbound claim of class "sc". */
function clusterObjects(): KubeObject[] {
  const out: KubeObject[] = [];
  for (let i = 0; i < 4; i++) out.push(csiPV(`ebs-${i}`, ebs), claim(`ebs-${i}`, { volumeName: `ebs-${i}` }));
  for (let i = 0; i < 2; i++) out.push(csiPV(`gce-${i}`, gce), claim(`gce-${i}`, { volumeName: `gce-${i}` }));
  for (let i = 0; i < 2; i++) out.push(portworxPV(`px-${i}`), claim(`px-${i}`, { volumeName: `px-${i}` }));
  out.push(ebsInTreePV('intree-0'), claim('intree-0', { volumeName: 'intree-0' }));
  out.push(claim('pending', { storageClassName: 'sc' }), storageClass(ebs));
  out.push(csiNode('n1', 2), csiNode('n2', 2));
  return out;
}

/** A lister that does not report its changes: the cache then checks every entry before use. */
function silentLister(objects: MapObjectLister): ObjectLister {
  return { list: (kind, namespace) => objects.list(kind, namespace), get: (kind, namespace, name) => objects.get(kind, namespace, name) };
}

function verdict(s: Status | null): string {
  return s === null ? 'fits' : s.code === Code.Unschedulable ? 'exceeded' : `${s.code}: ${s.reasons.join(', ')}`;
}

/** The pods being scheduled in each check: one bound CSI volume, two, the unbound claim, in-tree volumes. */
const incoming = [podWith('ebs-3'), podWith('ebs-2', 'ebs-3'), podWith('pending'), podWith('intree-0'), podWith('gce-1'), podWith('px-1'), podWith('missing')];
const portworxPod = incoming[5]!;

/**
 * Filters every incoming pod on every node with the warm plugin and with a new one, asserts they
 * agree, and returns the warm verdicts of `watched` per node.
 */
function agree(warm: CSILimits, objects: ObjectLister, nodes: readonly NodeInfo[], step: string, watched = incoming[0]): string[] {
  const cold = new CSILimits(objects, 'prefix');
  const first: string[] = [];
  for (const pod of incoming) {
    const warmState = new CycleState();
    const coldState = new CycleState();
    warm.preFilter(warmState, pod);
    cold.preFilter(coldState, pod);
    for (const ni of nodes) {
      const got = verdict(warm.filter(warmState, pod, ni));
      assert.equal(got, verdict(cold.filter(coldState, pod, ni)), `${step}: pod ${pod.pod.metadata.name} on ${ni.name}`);
      if (pod === watched) first.push(got);
    }
  }
  return first;
}

for (const listerKind of ['a lister that reports changes', 'a lister that does not'] as const) {
  describe(`NodeVolumeLimits node cache, with ${listerKind}`, () => {
    function setup(): { lister: MapObjectLister; objects: ObjectLister; warm: CSILimits; n1: NodeInfo; n2: NodeInfo } {
      const lister = new MapObjectLister(clusterObjects());
      const objects = listerKind === 'a lister that reports changes' ? lister : silentLister(lister);
      const n1 = new NodeInfo(makeNode('n1'));
      const n2 = new NodeInfo(makeNode('n2'));
      n1.addPod(podWith('ebs-0'));
      return { lister, objects, warm: new CSILimits(objects, 'prefix'), n1, n2 };
    }

    it('follows pods added to and removed from a node', () => {
      const { objects, warm, n1, n2 } = setup();
      const nodes = [n1, n2];
      assert.deepEqual(agree(warm, objects, nodes, 'initial'), ['fits', 'fits']);
      const second = podWith('ebs-1');
      n1.addPod(second);
      assert.deepEqual(agree(warm, objects, nodes, 'pod added'), ['exceeded', 'fits']);
      n1.removePod(second);
      assert.deepEqual(agree(warm, objects, nodes, 'pod removed'), ['fits', 'fits']);
      // A preemption dry run's copy with a pod removed, next to the untouched original.
      n1.addPod(second);
      const copy = n1.clone();
      copy.removePod(second);
      assert.deepEqual(agree(warm, objects, [n1, copy], 'copy with a pod removed'), ['exceeded', 'fits']);
    });

    it('follows changes of claims, volumes, storage classes and CSINodes', () => {
      const { lister, objects, warm, n1, n2 } = setup();
      const nodes = [n1, n2];
      n1.addPod(podWith('pending'));
      assert.deepEqual(agree(warm, objects, nodes, 'unbound claim of an EBS class'), ['exceeded', 'fits']);
      lister.upsert(storageClass(gce));
      assert.deepEqual(agree(warm, objects, nodes, 'class provisioner changed'), ['fits', 'fits']);
      lister.upsert(claim('pending', { storageClassName: 'sc', volumeName: 'ebs-1' }));
      assert.deepEqual(agree(warm, objects, nodes, 'claim bound to an EBS volume'), ['exceeded', 'fits']);
      lister.remove(csiPV('ebs-1', ebs));
      assert.deepEqual(agree(warm, objects, nodes, 'its volume deleted: counted by class again'), ['fits', 'fits']);
      lister.upsert(csiPV('ebs-1', ebs));
      lister.upsert(csiPV('ebs-0', gce));
      assert.deepEqual(agree(warm, objects, nodes, 'volume moved to another driver'), ['fits', 'fits']);
      lister.remove(claim('ebs-0', {}));
      lister.upsert(csiNode('n1', 1));
      assert.deepEqual(agree(warm, objects, nodes, 'claim deleted, limit lowered'), ['exceeded', 'fits']);
      lister.upsert(claim('ebs-0', { volumeName: 'ebs-0' }));
      lister.remove(csiNode('n2', 0));
      assert.deepEqual(agree(warm, objects, nodes, 'claim back, CSINode of n2 gone'), ['exceeded', 'fits']);
    });

    it('counts migrated in-tree volumes as the CSINode says', () => {
      const { lister, objects, warm, n1, n2 } = setup();
      const nodes = [n1, n2];
      n1.addPod(podWith('intree-0'));
      n2.addPod(podWith('px-0'));
      assert.deepEqual(agree(warm, objects, nodes, 'in-tree EBS counted'), ['exceeded', 'fits']);
      assert.deepEqual(agree(warm, objects, nodes, 'Portworx not migrated', portworxPod), ['fits', 'fits']);
      lister.upsert(csiNode('n2', 2, portworxInTree));
      assert.deepEqual(agree(warm, objects, nodes, 'Portworx migrated on n2', portworxPod), ['fits', 'exceeded']);
      lister.upsert(csiNode('n1', 2, ebsInTree));
      assert.deepEqual(agree(warm, objects, nodes, 'annotation changed on n1'), ['exceeded', 'fits']);
    });

    it('an unbound claim has one made-up handle: shared by the pods that use it, it takes one slot', () => {
      const { objects, warm, n1, n2 } = setup();
      n1.addPod(podWith('pending'));
      n1.addPod(podWith('pending'));
      const samePending = podWith('pending');
      const state = new CycleState();
      warm.preFilter(state, samePending);
      assert.equal(warm.filter(state, samePending, n1), null);
      assert.deepEqual(agree(warm, objects, [n1, n2], 'claim shared'), ['exceeded', 'fits']);
    });
  });
}
