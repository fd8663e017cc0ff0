// Storage capacity tracking: the scenarios of upstream's TestCapacity (binder_test.go), through the
// plugin's Filter, with and without the driver opting in, and a few of our own around them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CSIDriver, CSIStorageCapacity, KubeObject, Node, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, type Status } from '../../framework/status.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { ErrReasonBindConflict, ErrReasonNodeConflict, ErrReasonNotEnoughSpace, VolumeBinding, defaultVolumeBindingArgs } from './index.js';

const provisioner = 'test-provisioner';
const nodeLabelKey = 'nodeKey';

const storageClass = (name: string, classProvisioner: string): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: classProvisioner,
  volumeBindingMode: 'WaitForFirstConsumer',
});
const waitClass = storageClass('wait', '');
const waitClassWithProvisioner = storageClass('wait-with-provisioner', provisioner);

const csiDriver = (name: string, storageCapacity: boolean | undefined): CSIDriver => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIDriver',
  metadata: { name },
  spec: storageCapacity === undefined ? {} : { storageCapacity },
});

/** Upstream's makeCapacity: reachable from every node without one, else from the node's label. */
function capacity(name: string, className: string, node: Node | null, size: string, maximumVolumeSize: string): CSIStorageCapacity {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIStorageCapacity',
    metadata: { name, namespace: 'kube-system' },
    storageClassName: className,
    nodeTopology: node === null ? {} : { matchLabels: { [nodeLabelKey]: node.metadata.labels![nodeLabelKey]! } },
    ...(size !== '' ? { capacity: size } : {}),
    ...(maximumVolumeSize !== '' ? { maximumVolumeSize } : {}),
  };
}

function claim(name: string, className: string, request: string | null = '1Gi'): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'testns', uid: `uid-${name}`, resourceVersion: '1' },
    spec: { storageClassName: className, accessModes: ['ReadWriteOnce'], resources: request === null ? {} : { requests: { storage: request } } },
    status: { phase: 'Pending' },
  };
}

const node1 = makeNode('node1', { labels: { [nodeLabelKey]: 'node1' } });
const node2 = makeNode('node2', { labels: { [nodeLabelKey]: 'node2' } });
const provisionedPVC = claim('provisioned-pvc', waitClassWithProvisioner.metadata!.name!);

/** Runs PreFilter, then Filter on each node, for a pod using the claims. */
function filterEach(objects: KubeObject[], claims: PersistentVolumeClaim[], nodes: Node[]): ([Code, readonly string[]] | null)[] {
  const lister = new MapObjectLister([waitClass, waitClassWithProvisioner, ...claims, ...objects]);
  const handle = newTestHandle({ nodes, overrides: { objects: () => lister } });
  const plugin = new VolumeBinding(defaultVolumeBindingArgs({}), handle);
  const pod = new PodInfo(
    makePod('test-pod', { namespace: 'testns', spec: { volumes: claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c.metadata!.name! } })) } }),
  );
  const state = new CycleState();
  assert.equal(plugin.preFilter(state, pod), null);
  return nodes.map((n) => {
    const s: Status | null = plugin.filter(state, pod, new NodeInfo(n));
    return s === null ? null : [s.code, s.reasons];
  });
}

const notEnoughSpace: [Code, string[]] = [Code.UnschedulableAndUnresolvable, [ErrReasonNotEnoughSpace]];

describe('VolumeBinding storage capacity (upstream TestCapacity)', () => {
  interface Case {
    name: string;
    capacities: CSIStorageCapacity[];
    /** Without a reason the node fits. */
    reason?: true;
  }
  const cases: Case[] = [
    { name: 'network-attached storage reachable from every node', capacities: [capacity('net', 'wait-with-provisioner', null, '1Gi', '')] },
    { name: 'local storage of the node', capacities: [capacity('net', 'wait-with-provisioner', node1, '1Gi', '')] },
    {
      name: 'several capacities, one of them the node\'s',
      capacities: [capacity('net', 'wait-with-provisioner', null, '1Gi', ''), capacity('net', 'wait-with-provisioner', node2, '1Gi', ''), capacity('net', 'wait-with-provisioner', node1, '1Gi', '')],
    },
    { name: 'no capacity objects at all', capacities: [], reason: true },
    { name: 'capacity only on another node', capacities: [capacity('net', 'wait-with-provisioner', node2, '1Gi', '')], reason: true },
    { name: 'capacity of another storage class', capacities: [capacity('net', 'wait', node1, '1Gi', '')], reason: true },
    { name: 'capacity smaller than the claim', capacities: [capacity('net', 'wait-with-provisioner', node1, '1Mi', '')], reason: true },
    { name: 'maximumVolumeSize smaller than the claim wins over a large capacity', capacities: [capacity('net', 'wait-with-provisioner', node1, '1Gi', '1Mi')], reason: true },
    { name: 'zero capacity', capacities: [capacity('net', 'wait-with-provisioner', node1, '0Mi', '')], reason: true },
    { name: 'zero maximumVolumeSize', capacities: [capacity('net', 'wait-with-provisioner', node1, '', '0Mi')], reason: true },
    { name: 'neither capacity nor maximumVolumeSize', capacities: [capacity('net', 'wait-with-provisioner', node1, '', '')], reason: true },
  ];
  for (const optIn of [true, false]) {
    describe(`CSIDriver storageCapacity=${optIn}`, () => {
      for (const c of cases) {
        it(c.name, () => {
          const got = filterEach([csiDriver(provisioner, optIn), ...c.capacities], [provisionedPVC], [node1]);
          // A driver that does not opt in is never checked.
          assert.deepEqual(got, [c.reason && optIn ? notEnoughSpace : null]);
        });
      }
    });
  }
});

describe('VolumeBinding storage capacity, around the check', () => {
  const node1Only = [capacity('local', 'wait-with-provisioner', node1, '10Gi', '')];

  it('without a CSIDriver object, or with storageCapacity unset, capacity is not checked', () => {
    assert.deepEqual(filterEach([], [provisionedPVC], [node1, node2]), [null, null]);
    assert.deepEqual(filterEach([csiDriver(provisioner, undefined)], [provisionedPVC], [node1, node2]), [null, null]);
  });

  it('a CSIDriver of another name does not opt the provisioner in', () => {
    assert.deepEqual(filterEach([csiDriver('other-provisioner', true)], [provisionedPVC], [node1, node2]), [null, null]);
  });

  it('a claim without a storage request has no size to check', () => {
    const sizeless = claim('sizeless', 'wait-with-provisioner', null);
    assert.deepEqual(filterEach([csiDriver(provisioner, true)], [sizeless], [node1]), [null]);
  });

  it('only the nodes that reach enough capacity fit', () => {
    assert.deepEqual(filterEach([csiDriver(provisioner, true), ...node1Only], [provisionedPVC], [node1, node2]), [null, notEnoughSpace]);
  });

  it('a capacity equal to the claim is enough', () => {
    const exact = [capacity('exact', 'wait-with-provisioner', node1, '1Gi', '')];
    assert.deepEqual(filterEach([csiDriver(provisioner, true), ...exact], [provisionedPVC], [node1]), [null]);
  });

  it('a capacity object without nodeTopology is reachable from no node', () => {
    const unavailable: CSIStorageCapacity = { ...capacity('nowhere', 'wait-with-provisioner', null, '10Gi', ''), nodeTopology: undefined };
    assert.deepEqual(filterEach([csiDriver(provisioner, true), unavailable], [provisionedPVC], [node1]), [notEnoughSpace]);
  });

  it('nodeTopology matchExpressions select the nodes too', () => {
    const zonal: CSIStorageCapacity = {
      ...capacity('zonal', 'wait-with-provisioner', null, '10Gi', ''),
      nodeTopology: { matchExpressions: [{ key: nodeLabelKey, operator: 'In', values: ['node2'] }] },
    };
    assert.deepEqual(filterEach([csiDriver(provisioner, true), zonal], [provisionedPVC], [node1, node2]), [notEnoughSpace, null]);
  });

  it('each claim to provision needs its own fitting capacity', () => {
    const big = claim('big-pvc', 'wait-with-provisioner', '5Gi');
    const small = [capacity('small', 'wait-with-provisioner', null, '2Gi', '')];
    assert.deepEqual(filterEach([csiDriver(provisioner, true), ...small], [provisionedPVC], [node1]), [null]);
    assert.deepEqual(filterEach([csiDriver(provisioner, true), ...small], [provisionedPVC, big], [node1]), [notEnoughSpace]);
  });

  it('lacking storage replaces the bind conflict of the claims left to provision, and joins a bound volume\'s node conflict', () => {
    const bound: PersistentVolumeClaim = {
      ...claim('bound-pvc', 'wait'),
      metadata: { ...claim('bound-pvc', 'wait').metadata, annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } },
      spec: { ...claim('bound-pvc', 'wait').spec, volumeName: 'pv-elsewhere' },
    };
    const pvElsewhere: PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-elsewhere', resourceVersion: '1' },
      spec: {
        storageClassName: 'wait',
        capacity: { storage: '1Gi' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: nodeLabelKey, operator: 'In', values: ['node2'] }] }] } },
      },
      status: { phase: 'Bound' },
    };
    assert.deepEqual(filterEach([csiDriver(provisioner, true), pvElsewhere], [bound, provisionedPVC], [node1]), [
      [Code.UnschedulableAndUnresolvable, [ErrReasonNodeConflict, ErrReasonNotEnoughSpace]],
    ]);
    // A class that cannot provision for the node fails before capacity is looked at.
    const noProvisioner = claim('no-provisioner', 'wait');
    assert.deepEqual(filterEach([csiDriver(provisioner, true)], [noProvisioner], [node1]), [[Code.UnschedulableAndUnresolvable, [ErrReasonBindConflict]]]);
  });

  it('sees capacity objects replaced between cycles', () => {
    const lister = new MapObjectLister([waitClassWithProvisioner, provisionedPVC, csiDriver(provisioner, true), capacity('c', 'wait-with-provisioner', node1, '1Mi', '')]);
    const handle = newTestHandle({ nodes: [node1], overrides: { objects: () => lister } });
    const plugin = new VolumeBinding(defaultVolumeBindingArgs({}), handle);
    const pod = new PodInfo(makePod('test-pod', { namespace: 'testns', spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'provisioned-pvc' } }] } }));
    const run = () => {
      const state = new CycleState();
      plugin.preFilter(state, pod);
      return plugin.filter(state, pod, new NodeInfo(node1))?.reasons ?? null;
    };
    assert.deepEqual(run(), [ErrReasonNotEnoughSpace]);
    lister.upsert(capacity('c', 'wait-with-provisioner', node1, '1Gi', ''));
    assert.equal(run(), null);
  });
});
