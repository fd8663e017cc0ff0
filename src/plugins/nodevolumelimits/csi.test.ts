// Scenarios of upstream's nodevolumelimits/csi_test.go (TestCSILimits and the queueing hint tests).
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CSIDriver, CSINode, KubeObject, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass, VolumeAttachment } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, ActionTypeUpdate, QueueingHint } from '../../framework/events.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, type Status } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import {
  CSILimits,
  ErrReasonMaxVolumeCountExceeded,
  MigratedPluginsAnnotationKey,
  isSchedulableAfterCSINodeUpdated,
  isSchedulableAfterPVCAdded,
  isSchedulableAfterPodDeleted,
  isSchedulableAfterVolumeAttachmentDeleted,
  nodeVolumeLimitsDefinition,
} from './index.js';
import type { Volume } from './translator.js';

const ebs = 'ebs.csi.aws.com';
const gce = 'pd.csi.storage.gke.io';
const ebsInTree = 'kubernetes.io/aws-ebs';
const hostpathInTree = 'kubernetes.io/hostpath';
const nodeName = 'node-for-max-pd-test-1';
const scName = 'csi-sc';

let podSeq = 0;
/** A pod in "default" with the given volumes (a unique name, so a node can hold several). */
function podWith(volumes: Volume[], o: { name?: string; namespace?: string; uid?: string } = {}): Pod {
  const name = o.name ?? `pod-${++podSeq}`;
  return makePod(name, { ...(o.namespace ? { namespace: o.namespace } : {}), ...(o.uid ? { uid: o.uid } : {}), spec: { containers: [{ name: 'c' }], volumes } });
}
const claimVol = (claimName: string, i = 0): Volume => ({ name: `v${i}-${claimName}`, persistentVolumeClaim: { claimName } });
const pvcPod = (...claims: string[]) => podWith(claims.map((c, i) => claimVol(c, i)));
const ebsInline = (volumeID: string): Volume => ({ name: '', awsElasticBlockStore: { volumeID } });
const configMapAndSecret: Volume[] = [
  { name: 'cm', configMap: {} },
  { name: 'secret', secret: {} },
];

function pvc(name: string, spec: PersistentVolumeClaim['spec'], namespace = 'default', owner?: { name: string; uid: string }): PersistentVolumeClaim {
  return {
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace,
      ...(owner ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: owner.name, uid: owner.uid, controller: true }] } : {}),
    },
    spec,
  };
}

/** PVs and bound PVCs "csi-<driver>-<0..3>" per driver, plus the unbound, class-less and PV-less claims 4, 5 and 6. */
function volumeObjects(drivers: readonly string[]): KubeObject[] {
  const out: KubeObject[] = [];
  for (const driver of drivers) {
    for (let j = 0; j < 4; j++) {
      const name = `csi-${driver}-${j}`;
      let spec: PersistentVolume['spec'];
      if (driver === ebsInTree) spec = { awsElasticBlockStore: { volumeID: name } };
      else if (driver === hostpathInTree) spec = { hostPath: { path: '/tmp' } };
      else spec = { csi: { driver, volumeHandle: name } };
      out.push({ kind: 'PersistentVolume', metadata: { name }, spec } as PersistentVolume);
      out.push(pvc(name, { volumeName: name }));
    }
  }
  out.push(pvc('csi-4', { storageClassName: scName }));
  out.push(pvc('csi-5', {}));
  out.push(pvc('csi-6', { storageClassName: scName, volumeName: 'missing-in-action' }));
  const sc: StorageClass = { kind: 'StorageClass', metadata: { name: scName }, provisioner: drivers[0]! };
  out.push(sc);
  return out;
}

type LimitSource = 'csinode' | 'csinode-with-no-limit' | 'no-csi-driver' | 'none';

/** The node's CSINode (migration of EBS announced), listing each driver with or without a count. */
function csiNodeFor(source: LimitSource, drivers: readonly string[], limit: number): CSINode | null {
  if (source === 'none') return null;
  const listed = source === 'no-csi-driver' ? [] : drivers;
  return {
    kind: 'CSINode',
    metadata: { name: nodeName, annotations: { [MigratedPluginsAnnotationKey]: ebsInTree } },
    spec: { drivers: listed.map((name) => ({ name, nodeID: nodeName, ...(source === 'csinode' ? { allocatable: { count: limit } } : {}) })) },
  };
}

/** `count` attachments per driver on the node, of the PVs "csi-<driver>-<j>". */
function attachments(count: number, drivers: readonly string[]): VolumeAttachment[] {
  const out: VolumeAttachment[] = [];
  for (const driver of drivers) {
    for (let j = 0; j < count; j++) {
      out.push({ kind: 'VolumeAttachment', metadata: { name: `va-${driver}-${j}` }, spec: { nodeName, attacher: driver, source: { persistentVolumeName: `csi-${driver}-${j}` } } });
    }
  }
  return out;
}

function assertStatus(what: string, got: Status | null | undefined, want: { code: Code; reason?: string } | undefined): void {
  if (!want) {
    assert.equal(got ?? null, null, `${what}: want success, got ${got?.message()}`);
    return;
  }
  assert.equal(got?.code, want.code, `${what}: code (${got?.message()})`);
  if (want.reason !== undefined) assert.deepEqual(got?.reasons, [want.reason], `${what}: reasons`);
}

const exceeded = { code: Code.Unschedulable, reason: ErrReasonMaxVolumeCountExceeded };

describe('NodeVolumeLimits PreFilter and Filter', () => {
  const runningPod = pvcPod(`csi-${ebs}-3`);
  const pendingVolumePod = pvcPod('csi-4');
  const unboundPVCPod2 = pvcPod('csi-4');
  const missingPVPod = pvcPod('csi-6');
  const noSCPVCPod = pvcPod('csi-5');
  const gceTwoVolPod = pvcPod(`csi-${gce}-1`, `csi-${gce}-2`);
  const inTreeOneVolPod = pvcPod(`csi-${ebsInTree}-0`);
  const inTreeTwoVolPod = pvcPod(`csi-${ebsInTree}-1`, `csi-${ebsInTree}-2`);
  const csiEBSOneVolPod = pvcPod(`csi-${ebs}-0`);
  const csiEBSTwoVolPod = pvcPod(`csi-${ebs}-1`, `csi-${ebs}-2`);
  const inTreeNonMigratableOneVolPod = pvcPod(`csi-${hostpathInTree}-0`);

  const ephemeralVolumePod = podWith([{ name: 'xyz', ephemeral: {} }], { name: 'abc', namespace: 'test', uid: '12345' });
  const ephemeralClaim = pvc('abc-xyz', { storageClassName: scName }, 'test', { name: 'abc', uid: '12345' });
  const conflictingClaim = pvc('abc-xyz', { storageClassName: scName }, 'test');
  const ephemeralTwoVolumePod = podWith(
    [
      { name: 'x', ephemeral: {} },
      { name: 'y', ephemeral: {} },
    ],
    { name: 'abc', namespace: 'test', uid: '12345II' },
  );
  const ephemeralClaimX = pvc('abc-x', { storageClassName: scName }, 'test', { name: 'abc', uid: '12345II' });
  const ephemeralClaimY = pvc('abc-y', { storageClassName: scName }, 'test', { name: 'abc', uid: '12345II' });
  const inTreeInlineVolPod = podWith([ebsInline('aws-inline1')]);
  const inTreeInlineVolPodWithSameCSIVolumeID = podWith([ebsInline(`csi-${ebs}-1`)]);
  const onlyConfigmapAndSecretVolPod = podWith(configMapAndSecret);
  const pvcPodWithConfigmapAndSecret = podWith([...configMapAndSecret, claimVol(`csi-${ebs}-0`)]);
  const ephemeralPodWithConfigmapAndSecret = podWith([...configMapAndSecret, { name: 'xyz', ephemeral: {} }], { name: 'abc', namespace: 'test' });
  const inlineMigratablePodWithConfigmapAndSecret = podWith([...configMapAndSecret, ebsInline('aws-inline1')]);

  interface Case {
    name: string;
    newPod: Pod;
    existingPods?: Pod[];
    extraClaims?: PersistentVolumeClaim[];
    maxVols?: number;
    vaCount?: number;
    drivers: string[];
    limitSource: LimitSource;
    wantSkip?: boolean;
    want?: { code: Code; reason?: string };
  }
  const cases: Case[] = [
    { name: 'should count VolumeAttachments towards volume limit when no pods exist', newPod: csiEBSOneVolPod, maxVols: 2, vaCount: 2, drivers: [ebs], limitSource: 'csinode', want: exceeded },
    { name: 'should schedule pod when VolumeAttachments count does not exceed limit', newPod: csiEBSOneVolPod, maxVols: 2, vaCount: 1, drivers: [ebs], limitSource: 'csinode' },
    { name: 'fits when node volume limit >= new pods CSI volume', newPod: csiEBSOneVolPod, existingPods: [runningPod, csiEBSTwoVolPod], maxVols: 4, drivers: [ebs], limitSource: 'csinode' },
    { name: "doesn't when node volume limit <= pods CSI volume", newPod: csiEBSOneVolPod, existingPods: [runningPod, csiEBSTwoVolPod], maxVols: 2, drivers: [ebs], limitSource: 'csinode', want: exceeded },
    { name: 'fits when the driver does not report a volume limit', newPod: csiEBSOneVolPod, existingPods: [runningPod, csiEBSTwoVolPod], maxVols: 2, drivers: [ebs], limitSource: 'csinode-with-no-limit' },
    { name: 'count pending PVCs towards volume limit <= pods CSI volume', newPod: csiEBSOneVolPod, existingPods: [pendingVolumePod, csiEBSTwoVolPod], maxVols: 2, drivers: [ebs], limitSource: 'csinode', want: exceeded },
    {
      name: 'count multiple pending pvcs towards volume limit >= pods CSI volume (one unbound claim counts once)',
      newPod: csiEBSOneVolPod,
      existingPods: [pendingVolumePod, unboundPVCPod2, csiEBSTwoVolPod],
      maxVols: 4,
      drivers: [ebs],
      limitSource: 'csinode',
    },
    { name: 'should count PVCs with invalid PV name but valid SC', newPod: csiEBSOneVolPod, existingPods: [missingPVPod, csiEBSTwoVolPod], maxVols: 2, drivers: [ebs], limitSource: 'csinode', want: exceeded },
    { name: "don't count pvcs with missing SC towards volume limit", newPod: csiEBSOneVolPod, existingPods: [runningPod, noSCPVCPod], maxVols: 2, drivers: [ebs], limitSource: 'csinode' },
    { name: 'count pvcs with the same type towards volume limit', newPod: csiEBSOneVolPod, existingPods: [gceTwoVolPod, csiEBSTwoVolPod], maxVols: 2, drivers: [ebs, gce], limitSource: 'csinode', want: exceeded },
    { name: "don't count pvcs with different type towards volume limit", newPod: gceTwoVolPod, existingPods: [csiEBSTwoVolPod, runningPod], maxVols: 2, drivers: [ebs, gce], limitSource: 'csinode' },
    // In-tree volumes migrated to CSI.
    { name: 'should count in-tree volumes if migration is enabled', newPod: inTreeOneVolPod, existingPods: [inTreeTwoVolPod], maxVols: 2, drivers: [ebsInTree, ebs], limitSource: 'csinode', want: exceeded },
    { name: 'nil csi node: inline in-tree volumes are not migrated', newPod: inTreeInlineVolPod, existingPods: [inTreeTwoVolPod], drivers: [ebsInTree, ebs], limitSource: 'none' },
    { name: 'should count unbound in-tree volumes if migration is enabled', newPod: pendingVolumePod, existingPods: [inTreeTwoVolPod], maxVols: 2, drivers: [ebsInTree, ebs], limitSource: 'csinode', want: exceeded },
    { name: 'should not limit pod if volume used does not report limits', newPod: inTreeOneVolPod, existingPods: [inTreeTwoVolPod], maxVols: 2, drivers: [ebsInTree, ebs], limitSource: 'csinode-with-no-limit' },
    { name: 'should not count non-migratable in-tree volumes', newPod: inTreeNonMigratableOneVolPod, existingPods: [csiEBSTwoVolPod], maxVols: 2, drivers: [hostpathInTree, ebs], limitSource: 'csinode' },
    { name: 'should count in-tree inline volumes if migration is enabled', newPod: inTreeInlineVolPod, existingPods: [inTreeTwoVolPod], maxVols: 2, drivers: [ebsInTree, ebs], limitSource: 'csinode', want: exceeded },
    {
      name: 'should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)',
      newPod: inTreeOneVolPod,
      existingPods: [csiEBSTwoVolPod],
      maxVols: 2,
      drivers: [ebsInTree, ebs],
      limitSource: 'csinode',
      want: exceeded,
    },
    {
      name: 'should count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree volumes)',
      newPod: inTreeInlineVolPod,
      existingPods: [csiEBSTwoVolPod, inTreeOneVolPod],
      maxVols: 3,
      drivers: [ebsInTree, ebs],
      limitSource: 'csinode',
      want: exceeded,
    },
    {
      name: 'an inline in-tree volume with the handle of an attached CSI volume takes no new slot',
      newPod: inTreeInlineVolPodWithSameCSIVolumeID,
      existingPods: [csiEBSTwoVolPod, inTreeOneVolPod],
      maxVols: 3,
      drivers: [ebsInTree, ebs],
      limitSource: 'csinode',
    },
    {
      name: 'should count in-tree and csi volumes if migration is enabled (when scheduling csi volumes)',
      newPod: csiEBSOneVolPod,
      existingPods: [inTreeTwoVolPod],
      maxVols: 2,
      drivers: [ebsInTree, ebs],
      limitSource: 'csinode',
      want: exceeded,
    },
    // Generic ephemeral volumes.
    {
      name: 'ephemeral volume missing',
      newPod: ephemeralVolumePod,
      drivers: [ebs],
      limitSource: 'csinode-with-no-limit',
      want: { code: Code.UnschedulableAndUnresolvable, reason: 'looking up PVC test/abc-xyz: persistentvolumeclaims "abc-xyz" not found' },
    },
    {
      name: 'ephemeral volume not owned',
      newPod: ephemeralVolumePod,
      extraClaims: [conflictingClaim],
      drivers: [ebs],
      limitSource: 'csinode-with-no-limit',
      want: { code: Code.Error, reason: 'PVC test/abc-xyz was not created for pod test/abc (pod is not owner)' },
    },
    { name: 'ephemeral volume unbound', newPod: ephemeralVolumePod, extraClaims: [ephemeralClaim], drivers: [ebs], limitSource: 'csinode-with-no-limit' },
    {
      name: "ephemeral doesn't when node volume limit <= pods CSI volume",
      newPod: ephemeralVolumePod,
      extraClaims: [ephemeralClaim],
      existingPods: [runningPod, csiEBSTwoVolPod],
      maxVols: 2,
      drivers: [ebs],
      limitSource: 'csinode',
      want: exceeded,
    },
    {
      name: "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
      newPod: csiEBSOneVolPod,
      extraClaims: [ephemeralClaimX, ephemeralClaimY],
      existingPods: [runningPod, ephemeralTwoVolumePod],
      maxVols: 2,
      drivers: [ebs],
      limitSource: 'csinode',
      want: exceeded,
    },
    {
      name: "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume",
      newPod: csiEBSOneVolPod,
      extraClaims: [ephemeralClaim],
      existingPods: [runningPod, ephemeralVolumePod, csiEBSTwoVolPod],
      maxVols: 3,
      drivers: [ebs],
      limitSource: 'csinode',
      want: exceeded,
    },
    {
      name: 'persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume',
      newPod: csiEBSOneVolPod,
      extraClaims: [ephemeralClaim],
      existingPods: [runningPod, ephemeralVolumePod, csiEBSTwoVolPod],
      maxVols: 5,
      drivers: [ebs],
      limitSource: 'csinode',
    },
    // PreFilter skips pods without countable volumes.
    { name: 'skip Filter when the pod only uses secrets and configmaps', newPod: onlyConfigmapAndSecretVolPod, maxVols: 2, drivers: [ebs], limitSource: 'csinode', wantSkip: true },
    { name: 'skip Filter when the pod has no volumes', newPod: makePod('plain'), maxVols: 2, drivers: [ebs], limitSource: 'csinode', wantSkip: true },
    { name: "don't skip Filter when the pod has pvcs", newPod: pvcPodWithConfigmapAndSecret, maxVols: 2, drivers: [ebs], limitSource: 'csinode' },
    {
      name: "don't skip Filter when the pod has ephemeral volumes",
      newPod: ephemeralPodWithConfigmapAndSecret,
      drivers: [ebs],
      limitSource: 'csinode-with-no-limit',
      want: { code: Code.UnschedulableAndUnresolvable, reason: 'looking up PVC test/abc-xyz: persistentvolumeclaims "abc-xyz" not found' },
    },
    {
      name: "don't skip Filter when the pod has inline migratable volumes",
      newPod: inlineMigratablePodWithConfigmapAndSecret,
      existingPods: [inTreeTwoVolPod],
      maxVols: 2,
      drivers: [ebsInTree, ebs],
      limitSource: 'csinode',
      want: exceeded,
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const csiNode = csiNodeFor(c.limitSource, c.drivers, c.maxVols ?? 0);
      const objects: KubeObject[] = [...volumeObjects(c.drivers), ...(c.extraClaims ?? []), ...attachments(c.vaCount ?? 0, c.drivers)];
      if (csiNode) objects.push(csiNode);
      const pl = new CSILimits(newTestHandle({ objects }).objects(), 'prefix');
      const ni = new NodeInfo(makeNode(nodeName));
      for (const p of c.existingPods ?? []) ni.addPod(new PodInfo(p));
      const state = new CycleState();
      const pod = new PodInfo(c.newPod);
      const pre = pl.preFilter(state, pod);
      if (c.wantSkip) {
        assert.equal(pre?.status?.code, Code.Skip);
        return;
      }
      assert.equal(pre, null);
      assertStatus('Filter', pl.filter(state, pod, ni), c.want);
      // Filter reaches the same verdict when it has to list the attachments itself.
      assertStatus('Filter without PreFilter state', pl.filter(new CycleState(), pod, ni), c.want);
    });
  }

  it('counts a volume attached to the node once, whether a pod or a VolumeAttachment holds it', () => {
    const objects: KubeObject[] = [...volumeObjects([ebs]), ...attachments(2, [ebs]), csiNodeFor('csinode', [ebs], 3)!];
    const pl = new CSILimits(newTestHandle({ objects }).objects(), 'prefix');
    const ni = new NodeInfo(makeNode(nodeName));
    ni.addPod(new PodInfo(pvcPod(`csi-${ebs}-0`, `csi-${ebs}-1`)));
    const pod = new PodInfo(pvcPod(`csi-${ebs}-2`));
    const state = new CycleState();
    pl.preFilter(state, pod);
    assert.equal(pl.filter(state, pod, ni), null);
    const twoNew = new PodInfo(pvcPod(`csi-${ebs}-2`, `csi-${ebs}-3`));
    assertStatus('two new volumes', pl.filter(state, twoNew, ni), exceeded);
  });

  it('ignores attachments of other nodes, without an attacher, or of a non-CSI PV', () => {
    const odd: VolumeAttachment[] = [
      { kind: 'VolumeAttachment', metadata: { name: 'other-node' }, spec: { nodeName: 'elsewhere', attacher: ebs, source: { persistentVolumeName: `csi-${ebs}-1` } } },
      { kind: 'VolumeAttachment', metadata: { name: 'no-attacher' }, spec: { nodeName, attacher: '', source: { persistentVolumeName: `csi-${ebs}-2` } } },
      { kind: 'VolumeAttachment', metadata: { name: 'no-pv' }, spec: { nodeName, attacher: ebs, source: {} } },
      { kind: 'VolumeAttachment', metadata: { name: 'missing-pv' }, spec: { nodeName, attacher: ebs, source: { persistentVolumeName: 'gone' } } },
      { kind: 'VolumeAttachment', metadata: { name: 'in-tree-pv' }, spec: { nodeName, attacher: ebs, source: { persistentVolumeName: `csi-${ebsInTree}-0` } } },
    ];
    const objects: KubeObject[] = [...volumeObjects([ebs, ebsInTree]), ...odd, csiNodeFor('csinode', [ebs], 1)!];
    const pl = new CSILimits(newTestHandle({ objects }).objects(), 'prefix');
    const pod = new PodInfo(pvcPod(`csi-${ebs}-0`));
    const state = new CycleState();
    pl.preFilter(state, pod);
    assert.equal(pl.filter(state, pod, new NodeInfo(makeNode(nodeName))), null);
  });

  it('a missing PVC of a pod already on the node is not counted', () => {
    const objects: KubeObject[] = [...volumeObjects([ebs]), csiNodeFor('csinode', [ebs], 1)!];
    const pl = new CSILimits(newTestHandle({ objects }).objects(), 'prefix');
    const ni = new NodeInfo(makeNode(nodeName));
    ni.addPod(new PodInfo(pvcPod('no-such-claim')));
    const pod = new PodInfo(csiEBSOneVolPod);
    const state = new CycleState();
    pl.preFilter(state, pod);
    assert.equal(pl.filter(state, pod, ni), null);
  });

  it('an inline EBS volume id that cannot be translated is an error', () => {
    const objects: KubeObject[] = [csiNodeFor('csinode', [ebs], 1)!];
    const pl = new CSILimits(newTestHandle({ objects }).objects(), 'prefix');
    const pod = new PodInfo(podWith([{ name: 'bad', awsElasticBlockStore: { volumeID: 'aws://zone/not-a-volume' } }]));
    const state = new CycleState();
    pl.preFilter(state, pod);
    assertStatus('Filter', pl.filter(state, pod, new NodeInfo(makeNode(nodeName))), {
      code: Code.Error,
      reason: 'converting volume(bad) from inline to csi: failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume (aws://zone/not-a-volume)',
    });
  });

  it('the definition builds the plugin from the handle', () => {
    const pl = nodeVolumeLimitsDefinition.factory(undefined, newTestHandle(), defaultFeatures);
    assert.equal(pl.name, 'NodeVolumeLimits');
  });
});

describe('NodeVolumeLimits with VolumeLimitScaling (CSIDriver spec.preventPodSchedulingIfMissing)', () => {
  const driverObject = (prevent?: boolean): CSIDriver => ({ kind: 'CSIDriver', metadata: { name: ebs }, spec: prevent === undefined ? {} : { preventPodSchedulingIfMissing: prevent } });
  const notInstalled = { code: Code.Unschedulable, reason: `${ebs} CSI driver is not installed on the node` };
  const cases: { name: string; driver: CSIDriver | null; nodeDrivers: string[] | null; gateOff?: boolean; want?: typeof notInstalled }[] = [
    { name: 'a driver that asks for it and is on the node fits', driver: driverObject(true), nodeDrivers: [ebs] },
    { name: 'a driver that asks for it and is not on the node is Unschedulable', driver: driverObject(true), nodeDrivers: [gce], want: notInstalled },
    { name: 'a node without a CSINode lacks every driver', driver: driverObject(true), nodeDrivers: null, want: notInstalled },
    { name: 'a driver that does not ask for it fits anywhere', driver: driverObject(false), nodeDrivers: [gce] },
    { name: 'a driver without its field set fits anywhere', driver: driverObject(), nodeDrivers: [gce] },
    { name: 'a driver without a CSIDriver object may not be CSI: it fits', driver: null, nodeDrivers: [gce] },
    { name: 'with the gate off the field is not read', driver: driverObject(true), nodeDrivers: [gce], gateOff: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const objects: KubeObject[] = [...volumeObjects([ebs]), ...(c.driver ? [c.driver] : [])];
      if (c.nodeDrivers) objects.push({ kind: 'CSINode', metadata: { name: nodeName }, spec: { drivers: c.nodeDrivers.map((name) => ({ name, nodeID: nodeName })) } } as CSINode);
      const pl = new CSILimits(newTestHandle({ objects }).objects(), 'prefix', { enableVolumeLimitScaling: !c.gateOff });
      const pod = new PodInfo(pvcPod(`csi-${ebs}-0`));
      const state = new CycleState();
      assert.equal(pl.preFilter(state, pod), null);
      assertStatus('Filter', pl.filter(state, pod, new NodeInfo(makeNode(nodeName))), c.want);
    });
  }
});

describe('NodeVolumeLimits events and hints', () => {
  it('registers CSINode add and update, pod deletion, PVC addition and VolumeAttachment deletion', () => {
    const pl = new CSILimits(newTestHandle().objects(), 'prefix');
    assert.deepEqual(
      pl.eventsToRegister().map((e) => [e.event.resource, e.event.actionType, typeof e.queueingHintFn]),
      [
        ['CSINode', ActionType.Add, 'undefined'],
        ['CSINode', ActionTypeUpdate, 'function'],
        ['Pod', ActionType.Delete, 'function'],
        ['PersistentVolumeClaim', ActionType.Add, 'function'],
        ['VolumeAttachment', ActionType.Delete, 'function'],
      ],
    );
  });

  describe('pod deleted', () => {
    const target = pvcPod(`csi-${ebs}-2`);
    const onNode = (p: Pod) => ({ ...p, spec: { ...p.spec, nodeName: 'fake-node' } });
    const cases = [
      { name: 'return a Queue when a deleted pod has a PVC', deleted: onNode(pvcPod('placeholder')), want: QueueingHint.Queue },
      { name: 'return a Queue when a deleted pod has a inline migratable volume', deleted: onNode(podWith([ebsInline('')])), want: QueueingHint.Queue },
      { name: 'return a Queue when a deleted pod has an ephemeral volume', deleted: onNode(podWith([{ name: 'e', ephemeral: {} }])), want: QueueingHint.Queue },
      { name: "return a QueueSkip when a deleted pod doesn't have any volume", deleted: onNode(makePod('q')), want: QueueingHint.QueueSkip },
      { name: 'return a QueueSkip when a deleted pod has only configmaps and secrets', deleted: onNode(podWith(configMapAndSecret)), want: QueueingHint.QueueSkip },
      { name: 'return a QueueSkip when a deleted pod is not scheduled', deleted: pvcPod(`csi-${ebs}-0`), want: QueueingHint.QueueSkip },
      {
        name: 'return a Queue when a deleted pod was nominated to a node',
        deleted: { ...pvcPod(`csi-${ebs}-0`), status: { nominatedNodeName: 'fake-node' } },
        want: QueueingHint.Queue,
      },
      { name: 'return a Queue on an unexpected object', deleted: 'not-a-pod', want: QueueingHint.Queue },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterPodDeleted(target, c.deleted), c.want));
  });

  describe('PVC added', () => {
    const claim = (name: string, namespace: string) => pvc(name, {}, namespace);
    const cases = [
      { name: "a pod isn't in the same namespace as an added PVC", pod: podWith([claimVol('pvc1')], { namespace: 'ns1' }), added: claim('pvc1', 'ns2'), want: QueueingHint.QueueSkip },
      { name: 'a pod is in the same namespace as an added PVC', pod: podWith([claimVol('pvc1')], { namespace: 'ns1' }), added: claim('pvc1', 'ns1'), want: QueueingHint.Queue },
      {
        name: 'a pod has an ephemeral volume related to an added PVC',
        pod: podWith([{ name: 'ephemeral', ephemeral: {} }], { name: 'pod1', namespace: 'ns1' }),
        added: claim('pod1-ephemeral', 'ns1'),
        want: QueueingHint.Queue,
      },
      { name: "a pod doesn't have the same PVC as an added PVC", pod: podWith([claimVol('pvc1')], { namespace: 'ns1' }), added: claim('pvc2', 'ns1'), want: QueueingHint.QueueSkip },
      { name: "a pod doesn't have any PVC attached", pod: podWith([], { namespace: 'ns1' }), added: claim('pvc2', 'ns1'), want: QueueingHint.QueueSkip },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterPVCAdded(c.pod, null, c.added), c.want));
  });

  describe('VolumeAttachment deleted', () => {
    const va = (attacher: string): VolumeAttachment => ({ kind: 'VolumeAttachment', metadata: { name: 'volumeattachment1' }, spec: { nodeName: 'fake-node', attacher, source: { persistentVolumeName: 'pv1' } } });
    const inlineVA: VolumeAttachment = {
      kind: 'VolumeAttachment',
      metadata: { name: 'volumeattachment1' },
      spec: { nodeName: 'fake-node', attacher: ebs, source: { inlineVolumeSpec: { csi: { driver: ebs, volumeHandle: '' } } } },
    };
    const cases = [
      { name: 'a pod has PVC when VolumeAttachment is deleting', pod: podWith([claimVol('pvc1')], { namespace: 'ns1' }), deleted: va('test.storage.gke.io'), want: QueueingHint.Queue },
      { name: 'a pod has an inline migratable volume (EBS) when an EBS VolumeAttachment is deleting (match)', pod: podWith([ebsInline('test')]), deleted: inlineVA, want: QueueingHint.Queue },
      {
        name: 'a pod has an inline migratable volume (GCE PD) when an EBS VolumeAttachment is deleting (no match)',
        pod: podWith([{ name: '', gcePersistentDisk: { pdName: 'test' } }]),
        deleted: inlineVA,
        want: QueueingHint.QueueSkip,
      },
      { name: 'a pod has an inline migratable volume and a PVC when an EBS VolumeAttachment is deleting', pod: podWith([ebsInline('test'), claimVol('pvc1')]), deleted: inlineVA, want: QueueingHint.Queue },
      { name: 'a pod has an inline migratable volume and a PVC when another VolumeAttachment is deleting', pod: podWith([ebsInline('test'), claimVol('pvc1')]), deleted: va('test.storage.gke.io'), want: QueueingHint.Queue },
      { name: 'a pod has no PVC when VolumeAttachment is deleting', pod: podWith([], { namespace: 'ns1' }), deleted: va('test.storage.gke.io'), want: QueueingHint.QueueSkip },
      { name: 'an ephemeral volume alone does not match a deleted VolumeAttachment', pod: podWith([{ name: 'e', ephemeral: {} }]), deleted: va(ebs), want: QueueingHint.QueueSkip },
      { name: 'an inline volume that cannot be translated queues', pod: podWith([ebsInline('aws://zone/bad')]), deleted: va('other'), want: QueueingHint.Queue },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterVolumeAttachmentDeleted(c.pod, c.deleted), c.want));
  });

  describe('CSINode updated', () => {
    const target = pvcPod(`csi-${ebs}-0`);
    const csiNode = (drivers: { name: string; count?: number }[]): CSINode => ({
      kind: 'CSINode',
      metadata: { name: 'test-node' },
      spec: { drivers: drivers.map((d) => ({ name: d.name, nodeID: 'test-node', ...(d.count !== undefined ? { allocatable: { count: d.count } } : {}) })) },
    });
    const cases = [
      { name: 'limit raised, queue', old: [{ name: ebs, count: 1 }], now: [{ name: ebs, count: 2 }], want: QueueingHint.Queue },
      { name: 'limit decreased, skip queueing', old: [{ name: ebs, count: 2 }], now: [{ name: ebs, count: 1 }], want: QueueingHint.QueueSkip },
      { name: 'limit unchanged, skip queueing', old: [{ name: ebs, count: 1 }], now: [{ name: ebs, count: 1 }], want: QueueingHint.QueueSkip },
      { name: 'a new driver with a limit, queue', old: [{ name: ebs, count: 1 }], now: [{ name: ebs, count: 1 }, { name: gce, count: 1 }], want: QueueingHint.Queue },
      { name: 'a limit removed, skip queueing', old: [{ name: ebs, count: 1 }], now: [{ name: ebs }], want: QueueingHint.QueueSkip },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterCSINodeUpdated(target, csiNode(c.old), csiNode(c.now)), c.want));
  });
});
