// Scenarios of upstream's volumerestrictions/volume_restrictions_test.go, plus the read-only rules,
// the PreFilter extensions and the queueing hints.
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertStatus } from '../../testing/assert_status.js';
import type { KubeObject, Node, PersistentVolumeClaim, Pod } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import {
  ErrReasonDiskConflict,
  ErrReasonReadWriteOncePodConflict,
  Name,
  VolumeRestrictions,
  isSchedulableAfterPersistentVolumeClaimAdded,
  isSchedulableAfterPodDeleted,
  volumeRestrictionsDefinition,
} from './index.js';

type Volume = NonNullable<Pod['spec']['volumes']>[number];

function podWith(name: string, volumes: Volume[], o: { namespace?: string; node?: string } = {}): Pod {
  return makePod(name, { ...o, spec: { volumes } });
}

function nodeInfoWith(...pods: Pod[]): NodeInfo {
  const ni = new NodeInfo(makeNode('node-1'));
  for (const p of pods) ni.addPod(new PodInfo(p));
  return ni;
}

const claim = (claimName: string): Volume => ({ name: claimName, persistentVolumeClaim: { claimName } });

function pvc(name: string, mode: string, namespace = 'default'): PersistentVolumeClaim {
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace }, spec: { accessModes: [mode] } };
}

interface Case {
  name: string;
  pod: Pod;
  nodeInfo: NodeInfo;
  /** PreFilter's verdict: null (proceed), Skip, or a rejection. */
  preFilter?: Code | null;
  preFilterReason?: string;
  /** Filter's verdict when PreFilter proceeds. */
  filter?: Code | null;
  filterReason?: string;
}

function runCases(cases: Case[], setup: { nodes?: Node[]; pods?: Pod[]; objects?: KubeObject[] } = {}): void {
  for (const c of cases) {
    it(c.name, () => {
      const pl = new VolumeRestrictions(newTestHandle(setup));
      const state = new CycleState();
      const pod = new PodInfo(c.pod);
      const out = pl.preFilter(state, pod);
      assertStatus(out?.status, c.preFilter ?? null, c.preFilterReason);
      // The framework runs Filter only when PreFilter neither skipped nor rejected.
      if (out !== null) return;
      assertStatus(pl.filter(state, pod, c.nodeInfo), c.filter ?? null, c.filterReason);
    });
  }
}

/** The four tables upstream keeps per disk kind: nothing, one state, same state, different state. */
function diskCases(kind: string, vol: Volume, other: Volume): Case[] {
  return [
    { name: `${kind}: nothing`, pod: makePod('p'), nodeInfo: nodeInfoWith(), preFilter: Code.Skip },
    { name: `${kind}: one state`, pod: makePod('p'), nodeInfo: nodeInfoWith(podWith('e', [vol])), preFilter: Code.Skip },
    {
      name: `${kind}: same state`,
      pod: podWith('p', [vol]),
      nodeInfo: nodeInfoWith(podWith('e', [vol])),
      filter: Code.Unschedulable,
      filterReason: ErrReasonDiskConflict,
    },
    { name: `${kind}: different state`, pod: podWith('p', [other]), nodeInfo: nodeInfoWith(podWith('e', [vol])) },
  ];
}

describe('VolumeRestrictions disk conflicts', () => {
  const gce = (pdName: string, readOnly?: boolean): Volume => ({ name: 'gce', gcePersistentDisk: { pdName, ...(readOnly ? { readOnly } : {}) } });
  const ebs = (volumeID: string, readOnly?: boolean): Volume => ({
    name: 'ebs',
    awsElasticBlockStore: { volumeID, ...(readOnly ? { readOnly } : {}) },
  });
  const rbd = (monitors: string[], pool: string, image: string, readOnly?: boolean): Volume => ({
    name: 'rbd',
    rbd: { monitors, pool, image, fsType: 'ext4', ...(readOnly ? { readOnly } : {}) },
  });
  const iscsi = (iqn: string, readOnly?: boolean): Volume => ({
    name: 'iscsi',
    iscsi: { targetPortal: '127.0.0.1:3260', iqn, fsType: 'ext4', lun: 0, ...(readOnly ? { readOnly } : {}) },
  });
  const iqn1 = 'iqn.2016-12.server:storage.target01';
  const iqn2 = 'iqn.2017-12.server:storage.target01';

  runCases([
    ...diskCases('GCE PD', gce('foo'), gce('bar')),
    {
      name: 'GCE PD: pod with a volume that has no restrictions',
      pod: podWith('p', [{ name: 'volume with no restriction' }]),
      nodeInfo: nodeInfoWith(),
      preFilter: Code.Skip,
    },
    { name: 'GCE PD: same disk read-only in both pods fits', pod: podWith('p', [gce('foo', true)]), nodeInfo: nodeInfoWith(podWith('e', [gce('foo', true)])) },
    {
      name: 'GCE PD: same disk read-only in one pod only conflicts',
      pod: podWith('p', [gce('foo', true)]),
      nodeInfo: nodeInfoWith(podWith('e', [gce('foo')])),
      filter: Code.Unschedulable,
      filterReason: ErrReasonDiskConflict,
    },
    {
      name: 'GCE PD: a pod of another namespace holding the disk conflicts too',
      pod: podWith('p', [gce('foo')]),
      nodeInfo: nodeInfoWith(podWith('e', [gce('foo')], { namespace: 'other' })),
      filter: Code.Unschedulable,
      filterReason: ErrReasonDiskConflict,
    },
    ...diskCases('AWS EBS', ebs('foo'), ebs('bar')),
    {
      name: 'AWS EBS: same volume conflicts even when both are read-only',
      pod: podWith('p', [ebs('foo', true)]),
      nodeInfo: nodeInfoWith(podWith('e', [ebs('foo', true)])),
      filter: Code.Unschedulable,
      filterReason: ErrReasonDiskConflict,
    },
    ...diskCases('RBD', rbd(['a', 'b'], 'foo', 'bar'), rbd(['c', 'd'], 'foo', 'bar')),
    {
      name: 'RBD: one shared monitor, same pool and image conflicts',
      pod: podWith('p', [rbd(['b', 'c'], 'foo', 'bar')]),
      nodeInfo: nodeInfoWith(podWith('e', [rbd(['a', 'b'], 'foo', 'bar')])),
      filter: Code.Unschedulable,
      filterReason: ErrReasonDiskConflict,
    },
    { name: 'RBD: same monitors, other pool fits', pod: podWith('p', [rbd(['a', 'b'], 'baz', 'bar')]), nodeInfo: nodeInfoWith(podWith('e', [rbd(['a', 'b'], 'foo', 'bar')])) },
    { name: 'RBD: same monitors, other image fits', pod: podWith('p', [rbd(['a'], 'foo', 'baz')]), nodeInfo: nodeInfoWith(podWith('e', [rbd(['a'], 'foo', 'bar')])) },
    {
      name: 'RBD: same image read-only in both pods fits',
      pod: podWith('p', [rbd(['a'], 'foo', 'bar', true)]),
      nodeInfo: nodeInfoWith(podWith('e', [rbd(['a'], 'foo', 'bar', true)])),
    },
    ...diskCases('ISCSI', iscsi(iqn1), iscsi(iqn2)),
    { name: 'ISCSI: same IQN read-only in both pods fits', pod: podWith('p', [iscsi(iqn1, true)]), nodeInfo: nodeInfoWith(podWith('e', [iscsi(iqn1, true)])) },
    {
      name: 'ISCSI: same IQN read-only in one pod only conflicts',
      pod: podWith('p', [iscsi(iqn1)]),
      nodeInfo: nodeInfoWith(podWith('e', [iscsi(iqn1, true)])),
      filter: Code.Unschedulable,
      filterReason: ErrReasonDiskConflict,
    },
    {
      name: 'different kinds of disk never conflict',
      pod: podWith('p', [gce('foo'), iscsi(iqn1)]),
      nodeInfo: nodeInfoWith(podWith('e', [ebs('foo'), rbd(['a'], 'foo', 'bar')])),
    },
  ]);
});

describe('VolumeRestrictions ReadWriteOncePod access mode', () => {
  const onNode = { node: 'node-1' };
  const podWithOnePVC = podWith('pod-with-one-pvc', [claim('claim-with-rwop-1')], onNode);
  const podWithTwoPVCs = podWith('pod-with-two-pvcs', [claim('claim-with-rwop-1'), claim('claim-with-rwop-2')], onNode);
  const podWithOneConflict = podWith('pod-with-one-conflict', [claim('claim-with-rwop-1')], onNode);
  const podWithTwoConflicts = podWith('pod-with-two-conflicts', [claim('claim-with-rwop-1'), claim('claim-with-rwop-2')], onNode);
  const podWithReadWriteManyPVC = podWith('pod-with-rwx', [claim('claim-with-rwx')], onNode);
  const nodes = [makeNode('node-1')];
  const rwop1 = pvc('claim-with-rwop-1', 'ReadWriteOncePod');
  const rwop2 = pvc('claim-with-rwop-2', 'ReadWriteOncePod');
  const rwx = pvc('claim-with-rwx', 'ReadWriteMany');

  describe('without existing objects', () => {
    runCases([
      { name: 'nothing', pod: makePod('p'), nodeInfo: nodeInfoWith(), preFilter: Code.Skip },
      {
        name: 'failed to get PVC',
        pod: podWithOnePVC,
        nodeInfo: nodeInfoWith(),
        preFilter: Code.UnschedulableAndUnresolvable,
        preFilterReason: 'persistentvolumeclaim "claim-with-rwop-1" not found',
      },
    ]);
  });
  describe('no access mode conflict', () => {
    runCases(
      [{ name: 'a pod using another claim skips', pod: podWithOnePVC, nodeInfo: nodeInfoWith(podWithReadWriteManyPVC), preFilter: Code.Skip }],
      { nodes, pods: [podWithReadWriteManyPVC], objects: [rwop1, rwx] },
    );
  });
  describe('access mode conflict, unschedulable', () => {
    runCases(
      [
        {
          name: 'one conflict',
          pod: podWithOneConflict,
          nodeInfo: nodeInfoWith(podWithOnePVC, podWithReadWriteManyPVC),
          filter: Code.Unschedulable,
          filterReason: ErrReasonReadWriteOncePodConflict,
        },
      ],
      { nodes, pods: [podWithOnePVC, podWithReadWriteManyPVC], objects: [rwop1, rwx] },
    );
  });
  describe('two conflicts, unschedulable', () => {
    runCases(
      [
        {
          name: 'two conflicts',
          pod: podWithTwoConflicts,
          nodeInfo: nodeInfoWith(podWithTwoPVCs, podWithReadWriteManyPVC),
          filter: Code.Unschedulable,
          filterReason: ErrReasonReadWriteOncePodConflict,
        },
        {
          // The claim is in use cluster-wide, so every node rejects the pod, not only the holder's.
          name: 'a node without the holder rejects too',
          pod: podWithOneConflict,
          nodeInfo: nodeInfoWith(),
          filter: Code.Unschedulable,
          filterReason: ErrReasonReadWriteOncePodConflict,
        },
      ],
      { nodes, pods: [podWithTwoPVCs, podWithReadWriteManyPVC], objects: [rwop1, rwop2, rwx] },
    );
  });
  describe('claims are looked up in the pod namespace', () => {
    const elsewhere = podWith('holder', [claim('claim-with-rwop-1')], { namespace: 'other', node: 'node-1' });
    runCases(
      [
        { name: 'a same-named claim used in another namespace does not conflict', pod: podWithOneConflict, nodeInfo: nodeInfoWith(elsewhere), preFilter: Code.Skip },
        {
          name: 'a missing claim is unresolvable whatever its mode would be',
          pod: podWith('p', [claim('claim-with-rwx'), claim('missing')]),
          nodeInfo: nodeInfoWith(),
          preFilter: Code.UnschedulableAndUnresolvable,
          preFilterReason: 'persistentvolumeclaim "missing" not found',
        },
      ],
      { nodes, pods: [elsewhere], objects: [rwop1, rwx, pvc('claim-with-rwop-1', 'ReadWriteOncePod', 'other')] },
    );
  });
});

describe('VolumeRestrictions PreFilter extensions', () => {
  const holder = podWith('holder', [claim('rwop')], { node: 'node-1' });
  const handle = newTestHandle({ nodes: [makeNode('node-1')], pods: [holder], objects: [pvc('rwop', 'ReadWriteOncePod')] });
  const pod = new PodInfo(podWith('p', [claim('rwop')]));

  it('RemovePod of the holder lifts the conflict and AddPod restores it', () => {
    const pl = new VolumeRestrictions(handle);
    const state = new CycleState();
    assert.equal(pl.preFilter(state, pod), null);
    const ni = nodeInfoWith(holder);
    assertStatus(pl.filter(state, pod, ni), Code.Unschedulable, ErrReasonReadWriteOncePodConflict);
    const ext = pl.preFilterExtensions();
    assert.equal(ext.removePod(state, pod, new PodInfo(holder), ni), null);
    assert.equal(pl.filter(state, pod, ni), null);
    assert.equal(ext.addPod(state, pod, new PodInfo(holder), ni), null);
    assertStatus(pl.filter(state, pod, ni), Code.Unschedulable, ErrReasonReadWriteOncePodConflict);
  });

  it('a clone counts on its own', () => {
    const pl = new VolumeRestrictions(handle);
    const state = new CycleState();
    pl.preFilter(state, pod);
    const copy = state.clone();
    pl.preFilterExtensions().removePod(copy, pod, new PodInfo(holder), nodeInfoWith());
    assert.equal(pl.filter(copy, pod, nodeInfoWith()), null);
    assertStatus(pl.filter(state, pod, nodeInfoWith()), Code.Unschedulable, ErrReasonReadWriteOncePodConflict);
  });

  it('AddPod of a nominated pod using the claim makes the pod conflict', () => {
    const free = newTestHandle({ nodes: [makeNode('node-1')], objects: [pvc('rwop', 'ReadWriteOncePod')] });
    const pl = new VolumeRestrictions(free);
    const state = new CycleState();
    const withDisk = new PodInfo(podWith('p', [claim('rwop'), { name: 'gce', gcePersistentDisk: { pdName: 'd' } }]));
    // A restricted volume keeps PreFilter from skipping, so the extensions run.
    assert.equal(pl.preFilter(state, withDisk), null);
    assert.equal(pl.preFilterExtensions().addPod(state, withDisk, new PodInfo(holder), nodeInfoWith()), null);
    assertStatus(pl.filter(state, withDisk, nodeInfoWith()), Code.Unschedulable, ErrReasonReadWriteOncePodConflict);
  });

  it('without PreFilter state, the extensions and Filter report an error', () => {
    const pl = new VolumeRestrictions(handle);
    const state = new CycleState();
    assertStatus(pl.preFilterExtensions().addPod(state, pod, new PodInfo(holder), nodeInfoWith()), Code.Error);
    assertStatus(pl.preFilterExtensions().removePod(state, pod, new PodInfo(holder), nodeInfoWith()), Code.Error);
    assertStatus(pl.filter(state, pod, nodeInfoWith()), Code.Error, 'cannot read "PreFilterVolumeRestrictions" from cycleState');
  });

  it('Filter reports a disk conflict before it reads the state', () => {
    const disk: Volume = { name: 'ebs', awsElasticBlockStore: { volumeID: 'v' } };
    const pl = new VolumeRestrictions(handle);
    const s = pl.filter(new CycleState(), new PodInfo(podWith('p', [disk])), nodeInfoWith(podWith('e', [disk])));
    assertStatus(s, Code.Unschedulable, ErrReasonDiskConflict);
  });

  it('a lister without storage infos is an error when a ReadWriteOncePod claim must be checked', () => {
    const bare = newTestHandle({ objects: [pvc('rwop', 'ReadWriteOncePod')], overrides: { snapshotSharedLister: () => ({ nodeInfos: () => handle.snapshot }) } });
    const out = new VolumeRestrictions(bare).preFilter(new CycleState(), pod);
    assertStatus(out?.status, Code.Error);
  });
});

describe('VolumeRestrictions definition and events', () => {
  it('the definition builds the plugin from the handle', () => {
    assert.equal(volumeRestrictionsDefinition.name, 'VolumeRestrictions');
    assert.equal(volumeRestrictionsDefinition.factory(undefined, newTestHandle(), defaultFeatures).name, Name);
  });

  const summary = (pl: VolumeRestrictions) =>
    pl.eventsToRegister().map((e) => [e.event.resource, e.event.actionType, typeof e.queueingHintFn]);
  it('registers pod deletions, node additions and claim additions', () => {
    assert.deepEqual(summary(new VolumeRestrictions(newTestHandle())), [
      ['Pod', ActionType.Delete, 'function'],
      ['Node', ActionType.Add, 'undefined'],
      ['PersistentVolumeClaim', ActionType.Add, 'function'],
    ]);
  });
  it('without queueing hints, node label and taint updates stand in for additions', () => {
    const pl = new VolumeRestrictions(newTestHandle(), { enableSchedulingQueueHint: false });
    assert.deepEqual(summary(pl)[1], ['Node', ActionType.Add | ActionType.UpdateNodeTaint | ActionType.UpdateNodeLabel, 'undefined']);
  });
});

describe('VolumeRestrictions queueing hints', () => {
  describe('after a PersistentVolumeClaim is added', () => {
    const pod = podWith('pod_1', [claim('PVC_1')]);
    const cases = [
      { name: 'queue on a wrong new object', newObj: 'not-a-pvc' as unknown, want: QueueingHint.Queue },
      { name: 'skip a claim in another namespace', newObj: pvc('PVC_1', 'ReadWriteOncePod', 'other'), want: QueueingHint.QueueSkip },
      { name: 'queue when the pod mounts the new claim', newObj: pvc('PVC_1', 'ReadWriteOnce'), want: QueueingHint.Queue },
      { name: 'skip a claim the pod does not mount', newObj: pvc('PVC_2', 'ReadWriteOncePod'), want: QueueingHint.QueueSkip },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterPersistentVolumeClaimAdded(pod, null, c.newObj), c.want));
  });

  describe('after a pod is deleted', () => {
    const gce: Volume = { name: 'gce', gcePersistentDisk: { pdName: 'foo' } };
    const pod = podWith('pod_1', [claim('PVC_1'), gce]);
    const cases = [
      { name: 'queue on a wrong old object', oldObj: 'not-a-pod' as unknown, want: QueueingHint.Queue },
      { name: 'skip a pod of another namespace', oldObj: podWith('q', [claim('PVC_1'), gce], { namespace: 'other' }), want: QueueingHint.QueueSkip },
      { name: 'queue when the deleted pod held a conflicting disk', oldObj: podWith('q', [gce], { node: 'n' }), want: QueueingHint.Queue },
      {
        name: 'skip when the deleted pod held the disk read-only and the pod also wants it read-only',
        oldObj: podWith('q', [{ name: 'gce', gcePersistentDisk: { pdName: 'foo', readOnly: true } }]),
        pod: podWith('pod_1', [{ name: 'gce', gcePersistentDisk: { pdName: 'foo', readOnly: true } }]),
        want: QueueingHint.QueueSkip,
      },
      { name: 'queue when the deleted pod used a claim of the same name', oldObj: podWith('q', [claim('PVC_1')]), want: QueueingHint.Queue },
      { name: 'skip an unrelated pod', oldObj: podWith('q', [claim('PVC_2')]), want: QueueingHint.QueueSkip },
      { name: 'skip a pod without volumes', oldObj: makePod('q'), want: QueueingHint.QueueSkip },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterPodDeleted(c.pod ?? pod, c.oldObj), c.want));
  });
});
