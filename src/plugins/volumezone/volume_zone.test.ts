// Scenarios of upstream's volumezone/volume_zone_test.go, plus the error paths it lists objects for.
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, ActionTypeUpdate, QueueingHint } from '../../framework/events.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, type Status } from '../../framework/status.js';
import { makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import {
  ErrReasonConflict,
  LabelFailureDomainBetaRegion as betaRegion,
  LabelFailureDomainBetaZone as betaZone,
  LabelTopologyRegion as gaRegion,
  LabelTopologyZone as gaZone,
  VolumeZone,
  isSchedulableAfterPersistentVolumeChange,
  isSchedulableAfterPersistentVolumeClaimChange,
  isSchedulableAfterStorageClassAdded,
  labelZonesToSet,
  volumeZoneDefinition,
} from './index.js';

function pv(name: string, labels: Record<string, string> = {}): PersistentVolume {
  return { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, labels } };
}

function pvc(name: string, spec: PersistentVolumeClaim['spec'] = {}, o: { namespace?: string; annotations?: Record<string, string> } = {}): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: o.namespace ?? 'default', ...(o.annotations ? { annotations: o.annotations } : {}) },
    spec,
  };
}

function storageClass(name: string, volumeBindingMode?: string): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner: 'p',
    ...(volumeBindingMode ? { volumeBindingMode } : {}),
  };
}

/** A pod in "default" with one PVC volume per claim name. */
function podWithClaims(...claims: string[]): Pod {
  return makePod('pod_1', { spec: { containers: [{ name: 'c' }], volumes: claims.map((claimName, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName } })) } });
}

function nodeInfo(labels?: Record<string, string>): NodeInfo {
  const node: Node = { metadata: { name: 'host1', ...(labels ? { labels } : {}) }, spec: {}, status: {} };
  return new NodeInfo(node);
}

function assertStatus(what: string, got: Status | null | undefined, want: { code: Code; reason?: string } | undefined): void {
  if (!want) {
    assert.equal(got ?? null, null, `${what}: want success, got ${got?.message()}`);
    return;
  }
  assert.equal(got?.code, want.code, `${what}: code`);
  if (want.reason !== undefined) assert.deepEqual(got?.reasons, [want.reason], `${what}: reasons`);
}

interface Case {
  name: string;
  pod: Pod;
  labels?: Record<string, string>;
  wantPreFilter?: { code: Code; reason?: string };
  wantFilter?: { code: Code; reason?: string };
}

const skip = { code: Code.Skip };
const conflict = { code: Code.UnschedulableAndUnresolvable, reason: ErrReasonConflict };
const unresolvable = (reason: string) => ({ code: Code.UnschedulableAndUnresolvable, reason });

/** Runs PreFilter then Filter on one state, as upstream's tests do (Filter runs even after a rejection). */
function runCases(objects: KubeObject[], cases: Case[]): void {
  for (const c of cases) {
    it(c.name, () => {
      const pl = new VolumeZone(newTestHandle({ objects }));
      const state = new CycleState();
      const pod = new PodInfo(c.pod);
      assertStatus('PreFilter', pl.preFilter(state, pod)?.status, c.wantPreFilter);
      assertStatus('Filter', pl.filter(state, pod, nodeInfo(c.labels)), c.wantFilter);
    });
  }
}

describe('VolumeZone with single-zone volumes', () => {
  const objects = [
    pv('Vol_1', { [betaZone]: 'us-west1-a' }),
    pv('Vol_2', { [betaRegion]: 'us-west1', uselessLabel: 'none' }),
    pv('Vol_3', { [betaRegion]: 'us-west1' }),
    pv('Vol_Stable_1', { [gaZone]: 'us-west1-a' }),
    pv('Vol_Stable_2', { [gaRegion]: 'us-west1', uselessLabel: 'none' }),
    pv('Vol_Stable_3', { [gaZone]: 'us-west1-a', [gaRegion]: 'us-west1-a' }),
    pvc('PVC_1', { volumeName: 'Vol_1' }),
    pvc('PVC_2', { volumeName: 'Vol_2' }),
    pvc('PVC_3', { volumeName: 'Vol_3' }),
    pvc('PVC_4', { volumeName: 'Vol_not_exist' }),
    pvc('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
    pvc('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
    pvc('PVC_Stable_3', { volumeName: 'Vol_Stable_3' }),
  ];
  runCases(objects, [
    { name: 'pod without volume is skipped', pod: makePod('pod_1'), labels: { [betaZone]: 'us-west1-a' }, wantPreFilter: skip },
    { name: 'node without labels fits', pod: podWithClaims('PVC_1') },
    { name: 'beta zone label matched', pod: podWithClaims('PVC_1'), labels: { [betaZone]: 'us-west1-a', uselessLabel: 'none' } },
    { name: 'beta region label matched', pod: podWithClaims('PVC_2'), labels: { [betaRegion]: 'us-west1', uselessLabel: 'none' } },
    {
      name: "beta region label doesn't match",
      pod: podWithClaims('PVC_2'),
      labels: { [betaRegion]: 'no_us-west1', uselessLabel: 'none' },
      wantFilter: conflict,
    },
    {
      name: "beta zone label doesn't match",
      pod: podWithClaims('PVC_1'),
      labels: { [betaZone]: 'no_us-west1-a', uselessLabel: 'none' },
      wantFilter: conflict,
    },
    { name: 'zone label matched', pod: podWithClaims('PVC_Stable_1'), labels: { [gaZone]: 'us-west1-a', uselessLabel: 'none' } },
    { name: 'region label matched', pod: podWithClaims('PVC_Stable_2'), labels: { [gaRegion]: 'us-west1', uselessLabel: 'none' } },
    {
      name: "region label doesn't match",
      pod: podWithClaims('PVC_Stable_2'),
      labels: { [gaRegion]: 'no_us-west1', uselessLabel: 'none' },
      wantFilter: conflict,
    },
    {
      name: "zone label doesn't match",
      pod: podWithClaims('PVC_Stable_1'),
      labels: { [gaZone]: 'no_us-west1-a', uselessLabel: 'none' },
      wantFilter: conflict,
    },
    { name: 'pv with zone and region, node with only zone', pod: podWithClaims('PVC_Stable_3'), labels: { [gaZone]: 'us-west1-a' }, wantFilter: conflict },
    { name: 'pv with GA zone, node with beta zone only', pod: podWithClaims('PVC_Stable_1'), labels: { [betaZone]: 'us-west1-a' }, wantFilter: conflict },
    { name: 'pv with beta label, node with GA label, matched', pod: podWithClaims('PVC_1'), labels: { [gaZone]: 'us-west1-a' } },
    { name: "pv with beta label, node with GA label, don't match", pod: podWithClaims('PVC_1'), labels: { [gaZone]: 'us-west1-b' }, wantFilter: conflict },
    {
      name: 'node with only unrelated labels has no zone constraint',
      pod: podWithClaims('PVC_Stable_3'),
      labels: { uselessLabel: 'none' },
    },
    {
      name: 'every volume must match: the second one conflicts',
      pod: podWithClaims('PVC_Stable_1', 'PVC_Stable_2'),
      labels: { [gaZone]: 'us-west1-a', [gaRegion]: 'us-east1' },
      wantFilter: conflict,
    },
    {
      name: 'every volume must match: both do',
      pod: podWithClaims('PVC_Stable_1', 'PVC_Stable_2'),
      labels: { [gaZone]: 'us-west1-a', [gaRegion]: 'us-west1' },
    },
  ]);
});

describe('VolumeZone with multi-zone volumes', () => {
  const objects = [
    pv('Vol_1', { [betaZone]: 'us-west1-a' }),
    pv('Vol_2', { [betaZone]: 'us-west1-b', uselessLabel: 'none' }),
    pv('Vol_3', { [betaZone]: 'us-west1-c__us-west1-a' }),
    pv('Vol_Stable_1', { [gaZone]: 'us-west1-a' }),
    pv('Vol_Stable_2', { [gaZone]: 'us-west1-c__us-west1-a' }),
    pvc('PVC_1', { volumeName: 'Vol_1' }),
    pvc('PVC_2', { volumeName: 'Vol_2' }),
    pvc('PVC_3', { volumeName: 'Vol_3' }),
    pvc('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
    pvc('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
  ];
  runCases(objects, [
    { name: 'node without labels fits', pod: podWithClaims('PVC_3') },
    { name: 'beta zone label matched', pod: podWithClaims('PVC_3'), labels: { [betaZone]: 'us-west1-a', uselessLabel: 'none' } },
    { name: "beta zone label doesn't match", pod: podWithClaims('PVC_1'), labels: { [betaZone]: 'us-west1-b', uselessLabel: 'none' }, wantFilter: conflict },
    { name: 'zone label matched', pod: podWithClaims('PVC_Stable_2'), labels: { [gaZone]: 'us-west1-a', uselessLabel: 'none' } },
    { name: "zone label doesn't match", pod: podWithClaims('PVC_Stable_1'), labels: { [gaZone]: 'us-west1-b', uselessLabel: 'none' }, wantFilter: conflict },
  ]);
});

describe('VolumeZone with binding modes and missing objects', () => {
  const testNode = { [betaZone]: 'us-west1-a', uselessLabel: 'none' };
  const objects = [
    storageClass('Class_Immediate'),
    storageClass('Class_Wait', 'WaitForFirstConsumer'),
    storageClass('Class_ExplicitImmediate', 'Immediate'),
    pv('Vol_1', { [betaZone]: 'us-west1-a' }),
    pvc('PVC_1', { volumeName: 'Vol_1' }),
    pvc('PVC_NoSC', { storageClassName: 'Class_0' }),
    pvc('PVC_EmptySC'),
    pvc('PVC_WaitSC', { storageClassName: 'Class_Wait' }),
    pvc('PVC_ImmediateSC', { storageClassName: 'Class_Immediate' }),
    pvc('PVC_ExplicitImmediateSC', { storageClassName: 'Class_ExplicitImmediate' }),
    pvc('PVC_AnnotatedWait', { storageClassName: 'Class_Immediate' }, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'Class_Wait' } }),
    pvc('PVC_DanglingPV', { volumeName: 'Vol_not_exist' }),
  ];
  const noPVNoSC = unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
  const scNotFound = unresolvable('storageclass.storage.k8s.io "Class_0" not found');
  const modeNotSet = unresolvable('VolumeBindingMode not set for StorageClass "Class_Immediate"');
  const pvNoName = unresolvable('PersistentVolume had no name');
  const pvcNotFound = unresolvable('persistentvolumeclaim "PVC_missing" not found');
  const pvNotFound = unresolvable('persistentvolume "Vol_not_exist" not found');
  const noClaimName = unresolvable('PersistentVolumeClaim had no name');
  runCases(objects, [
    { name: 'label zone failure domain matched', pod: podWithClaims('PVC_1'), labels: testNode },
    { name: 'unbound volume empty storage class', pod: podWithClaims('PVC_EmptySC'), labels: testNode, wantPreFilter: noPVNoSC, wantFilter: noPVNoSC },
    { name: 'unbound volume no storage class', pod: podWithClaims('PVC_NoSC'), labels: testNode, wantPreFilter: scNotFound, wantFilter: scNotFound },
    {
      name: 'unbound volume of a class without binding mode',
      pod: podWithClaims('PVC_ImmediateSC'),
      labels: testNode,
      wantPreFilter: modeNotSet,
      wantFilter: modeNotSet,
    },
    { name: 'unbound volume wait binding mode is skipped', pod: podWithClaims('PVC_WaitSC'), labels: testNode, wantPreFilter: skip },
    {
      name: 'unbound volume immediate binding mode',
      pod: podWithClaims('PVC_ExplicitImmediateSC'),
      labels: testNode,
      wantPreFilter: pvNoName,
      wantFilter: pvNoName,
    },
    { name: 'the beta storage-class annotation wins over spec.storageClassName', pod: podWithClaims('PVC_AnnotatedWait'), labels: testNode, wantPreFilter: skip },
    { name: 'unbound wait volume next to a bound one that matches', pod: podWithClaims('PVC_WaitSC', 'PVC_1'), labels: testNode },
    {
      name: 'unbound wait volume next to a bound one that conflicts',
      pod: podWithClaims('PVC_WaitSC', 'PVC_1'),
      labels: { [gaZone]: 'us-west1-b' },
      wantFilter: conflict,
    },
    { name: 'missing claim', pod: podWithClaims('PVC_missing'), labels: testNode, wantPreFilter: pvcNotFound, wantFilter: pvcNotFound },
    { name: 'claim bound to a missing volume', pod: podWithClaims('PVC_DanglingPV'), labels: testNode, wantPreFilter: pvNotFound, wantFilter: pvNotFound },
    { name: 'claim without a name', pod: podWithClaims(''), labels: testNode, wantPreFilter: noClaimName, wantFilter: noClaimName },
    {
      name: 'the first failing claim decides',
      pod: podWithClaims('PVC_1', 'PVC_missing', 'PVC_EmptySC'),
      labels: testNode,
      wantPreFilter: pvcNotFound,
      wantFilter: pvcNotFound,
    },
    {
      name: 'a claim in another namespace is not found',
      pod: makePod('pod_1', { namespace: 'ns1', spec: { containers: [{ name: 'c' }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'PVC_1' } }] } }),
      labels: testNode,
      wantPreFilter: unresolvable('persistentvolumeclaim "PVC_1" not found'),
      wantFilter: unresolvable('persistentvolumeclaim "PVC_1" not found'),
    },
    {
      name: 'volumes that are not claims are ignored',
      pod: makePod('pod_1', { spec: { containers: [{ name: 'c' }], volumes: [{ name: 'scratch', emptyDir: {} }] } }),
      labels: testNode,
      wantPreFilter: skip,
    },
  ]);

  it('Filter without PreFilter looks the volumes up itself', () => {
    const pl = new VolumeZone(newTestHandle({ objects }));
    const pod = new PodInfo(podWithClaims('PVC_1'));
    assert.equal(pl.filter(new CycleState(), pod, nodeInfo(testNode)), null);
    assertStatus('Filter', pl.filter(new CycleState(), pod, nodeInfo({ [betaZone]: 'us-west1-b' })), conflict);
  });
});

describe('VolumeZone PV label values', () => {
  it('splits multi-zone values on "__" and trims each zone', () => {
    assert.deepEqual(labelZonesToSet('us-west1-a'), new Set(['us-west1-a']));
    assert.deepEqual(labelZonesToSet('us-west1-c__us-west1-a'), new Set(['us-west1-c', 'us-west1-a']));
    assert.deepEqual(labelZonesToSet(' a __ b '), new Set(['a', 'b']));
  });
  it('rejects a value with an empty zone', () => {
    assert.equal(labelZonesToSet(''), null);
    assert.equal(labelZonesToSet('a____b'), null);
    assert.equal(labelZonesToSet('a__ '), null);
  });
  const objects = [
    pv('Vol_Bad', { [gaZone]: 'a__', [gaRegion]: 'r1' }),
    pv('Vol_OnlyBad', { [gaZone]: '' }),
    pvc('PVC_Bad', { volumeName: 'Vol_Bad' }),
    pvc('PVC_OnlyBad', { volumeName: 'Vol_OnlyBad' }),
  ];
  runCases(objects, [
    { name: 'a label that does not parse is ignored, the others still count', pod: podWithClaims('PVC_Bad'), labels: { [gaZone]: 'b', [gaRegion]: 'r1' } },
    { name: 'the remaining valid label still rejects', pod: podWithClaims('PVC_Bad'), labels: { [gaZone]: 'b', [gaRegion]: 'r2' }, wantFilter: conflict },
    { name: 'a volume whose only label does not parse is skipped', pod: podWithClaims('PVC_OnlyBad'), labels: { [gaZone]: 'b' }, wantPreFilter: skip },
  ]);
});

describe('VolumeZone definition', () => {
  it('builds the plugin with the handle objects', () => {
    const handle = newTestHandle({ objects: [pv('Vol_1', { [gaZone]: 'z1' }), pvc('PVC_1', { volumeName: 'Vol_1' })] });
    const pl = volumeZoneDefinition.factory({}, handle, defaultFeatures) as VolumeZone;
    assert.equal(pl.name, 'VolumeZone');
    const state = new CycleState();
    const pod = new PodInfo(podWithClaims('PVC_1'));
    assert.equal(pl.preFilter(state, pod), null);
    assertStatus('Filter', pl.filter(state, pod, nodeInfo({ [gaZone]: 'z2' })), conflict);
  });
});

describe('VolumeZone events and hints', () => {
  const shape = (pl: VolumeZone) => pl.eventsToRegister().map((e) => [e.event.resource, e.event.actionType, typeof e.queueingHintFn]);
  it('registers storage class, node, claim and volume events (queueing hints on)', () => {
    assert.deepEqual(shape(new VolumeZone(newTestHandle())), [
      ['StorageClass', ActionType.Add, 'function'],
      ['Node', ActionType.Add | ActionType.UpdateNodeLabel, 'undefined'],
      ['PersistentVolumeClaim', ActionType.Add | ActionTypeUpdate, 'function'],
      ['PersistentVolume', ActionType.Add | ActionTypeUpdate, 'function'],
    ]);
  });
  it('adds node taint updates when queueing hints are off', () => {
    const events = shape(new VolumeZone(newTestHandle(), { enableSchedulingQueueHint: false }));
    assert.deepEqual(events[1], ['Node', ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint, 'undefined']);
  });

  describe('PersistentVolumeClaim added or updated', () => {
    const cases: { name: string; pod: Pod; oldObj?: unknown; newObj: unknown; want: QueueingHint }[] = [
      { name: 'queue on a wrong new object', pod: podWithClaims('PVC_1'), newObj: 'not-a-pvc', want: QueueingHint.Queue },
      { name: 'skip when the pod uses no claim', pod: makePod('pod_1'), newObj: pvc('PVC_1', { volumeName: 'Vol_1' }), want: QueueingHint.QueueSkip },
      { name: 'skip a claim the pod does not use', pod: podWithClaims('PVC_2'), newObj: pvc('PVC_1', { volumeName: 'Vol_1' }), want: QueueingHint.QueueSkip },
      {
        name: 'skip a claim of the same name in another namespace',
        pod: podWithClaims('PVC_1'),
        newObj: pvc('PVC_1', { volumeName: 'Vol_1' }, { namespace: 'ns1' }),
        want: QueueingHint.QueueSkip,
      },
      { name: 'queue when a claim the pod uses was added', pod: podWithClaims('PVC_1'), newObj: pvc('PVC_1', { volumeName: 'Vol_1' }), want: QueueingHint.Queue },
      {
        name: 'queue when a claim the pod uses was updated',
        pod: podWithClaims('PVC_1'),
        oldObj: pvc('PVC_1', { volumeName: '' }),
        newObj: pvc('PVC_1', { volumeName: 'Vol_1' }),
        want: QueueingHint.Queue,
      },
      {
        name: 'skip an updated claim when the pod uses none',
        pod: makePod('pod_1'),
        oldObj: pvc('PVC_1', { volumeName: '' }),
        newObj: pvc('PVC_1', { volumeName: 'Vol_1' }),
        want: QueueingHint.QueueSkip,
      },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterPersistentVolumeClaimChange(c.pod, c.oldObj, c.newObj), c.want));
  });

  describe('StorageClass added', () => {
    const pod = podWithClaims('PVC_1');
    const cases: { name: string; newObj: unknown; want: QueueingHint }[] = [
      { name: 'queue on a wrong new object', newObj: 'not-a-storageclass', want: QueueingHint.Queue },
      { name: 'skip a class without binding mode', newObj: storageClass('SC_1'), want: QueueingHint.QueueSkip },
      { name: 'skip an Immediate class', newObj: storageClass('SC_1', 'Immediate'), want: QueueingHint.QueueSkip },
      { name: 'queue a WaitForFirstConsumer class', newObj: storageClass('SC_1', 'WaitForFirstConsumer'), want: QueueingHint.Queue },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterStorageClassAdded(pod, undefined, c.newObj), c.want));
  });

  describe('PersistentVolume added or updated', () => {
    const pod = podWithClaims('PVC_1');
    const cases: { name: string; oldObj?: unknown; newObj: unknown; want: QueueingHint }[] = [
      { name: 'queue on a wrong new object', newObj: 'not-a-pv', want: QueueingHint.Queue },
      { name: 'queue on a wrong old object', oldObj: 'not-a-pv', newObj: pv('Vol_1'), want: QueueingHint.Queue },
      { name: 'queue a new volume', newObj: pv('Vol_1', { [betaZone]: 'us-west1-b' }), want: QueueingHint.Queue },
      {
        name: 'queue when the topology changed',
        oldObj: pv('Vol_1', { [betaZone]: 'us-west1-a' }),
        newObj: pv('Vol_1', { [betaZone]: 'us-west1-b' }),
        want: QueueingHint.Queue,
      },
      {
        name: 'queue when a topology label was added',
        oldObj: pv('Vol_1', { [betaZone]: 'us-west1-a' }),
        newObj: pv('Vol_1', { [betaZone]: 'us-west1-a', [gaZone]: 'zone' }),
        want: QueueingHint.Queue,
      },
      {
        name: 'skip when the topology is unchanged',
        oldObj: pv('Vol_1', { [betaZone]: 'us-west1-a', [gaZone]: 'zone' }),
        newObj: pv('Vol_1', { [betaZone]: 'us-west1-a', [gaZone]: 'zone', other: 'x' }),
        want: QueueingHint.QueueSkip,
      },
      {
        name: 'skip when only the order of zones changed',
        oldObj: pv('Vol_1', { [gaZone]: 'a__b' }),
        newObj: pv('Vol_1', { [gaZone]: 'b__a' }),
        want: QueueingHint.QueueSkip,
      },
    ];
    for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterPersistentVolumeChange(pod, c.oldObj, c.newObj), c.want));
  });
});
