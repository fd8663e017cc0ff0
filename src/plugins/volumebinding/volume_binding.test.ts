// Scenarios of upstream's volumebinding/volume_binding_test.go and binder_test.go, in our words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import type { PluginClusterClient } from '../../framework/interfaces.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, type Status } from '../../framework/status.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import {
  AnnBindCompleted,
  AnnSelectedNode,
  ErrReasonBindConflict,
  ErrReasonNodeConflict,
  ErrReasonPVNotExist,
  VolumeBinding,
  VolumeBindingState,
  defaultVolumeBindingArgs,
  isSchedulableAfterCSINodeChange,
  isSchedulableAfterCSIStorageCapacityChange,
  isSchedulableAfterPersistentVolumeClaimChange,
  isSchedulableAfterStorageClassChange,
  validateVolumeBindingArgs,
} from './index.js';

const sc = (name: string, mode: string, extra: Partial<StorageClass> = {}): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: '',
  volumeBindingMode: mode,
  ...extra,
});
const immediateSC = sc('immediate-sc', 'Immediate');
const waitSC = sc('wait-sc', 'WaitForFirstConsumer');
const waitHDDSC = sc('wait-hdd-sc', 'WaitForFirstConsumer');
const provisionSC = sc('provision-sc', 'WaitForFirstConsumer', { provisioner: 'csi.example.com' });
const topoSC = sc('topo-sc', 'WaitForFirstConsumer', {
  provisioner: 'csi.example.com',
  allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['zone-a'] }] }],
});

interface PVCOpts {
  boundTo?: string;
  request?: string;
  phase?: string;
  selectedNode?: string;
  deleting?: boolean;
  volumeName?: string;
}

function pvc(name: string, className: string, o: PVCOpts = {}): PersistentVolumeClaim {
  const annotations: Record<string, string> = {};
  if (o.boundTo) annotations[AnnBindCompleted] = 'yes';
  if (o.selectedNode) annotations[AnnSelectedNode] = o.selectedNode;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '1',
      annotations,
      ...(o.deleting ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    },
    spec: {
      storageClassName: className,
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: o.request ?? '1Gi' } },
      ...(o.boundTo || o.volumeName ? { volumeName: o.boundTo ?? o.volumeName } : {}),
    },
    status: { phase: o.phase ?? (o.boundTo ? 'Bound' : 'Pending') },
  };
}

interface PVOpts {
  phase?: string;
  capacity?: string;
  affinity?: Record<string, string[]>;
  claimRef?: string;
}

function pv(name: string, className: string, o: PVOpts = {}): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, resourceVersion: '1' },
    spec: {
      storageClassName: className,
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: o.capacity ?? '1Gi' },
      ...(o.claimRef ? { claimRef: { namespace: 'default', name: o.claimRef } } : {}),
      ...(o.affinity
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  { matchExpressions: Object.entries(o.affinity).map(([key, values]) => ({ key, operator: 'In', values })) },
                ],
              },
            },
          }
        : {}),
    },
    status: { phase: o.phase ?? 'Available' },
  };
}

function podWithClaims(name: string, ...claims: string[]): Pod {
  return makePod(name, { spec: { volumes: claims.map((c, i) => ({ name: `vol-${i}`, persistentVolumeClaim: { claimName: c } })) } });
}

/** A plugin over a lister the test can change, with a client that writes to it. */
function setup(objects: KubeObject[], nodes: Node[]) {
  const lister = new MapObjectLister([immediateSC, waitSC, waitHDDSC, provisionSC, topoSC, ...objects]);
  let rv = 100;
  const waiters = new Set<() => void>();
  const writes: KubeObject[] = [];
  const store = <T extends KubeObject>(o: T): T => {
    const stored = structuredClone(o);
    stored.metadata = { ...stored.metadata, resourceVersion: String(++rv) };
    lister.upsert(stored);
    writes.push(stored);
    for (const w of [...waiters]) w();
    return stored;
  };
  const client: PluginClusterClient = {
    bind: async () => {},
    deletePod: async () => {},
    clearNominatedNodeName: async () => {},
    updatePersistentVolume: async (o) => store(o),
    updatePersistentVolumeClaim: async (o) => store(o),
    waitUntil: (ready, _timeoutMs) =>
      new Promise<boolean>((resolve, reject) => {
        const check = () => {
          try {
            if (ready()) {
              waiters.delete(check);
              resolve(true);
            }
          } catch (err) {
            waiters.delete(check);
            reject(err as Error);
          }
        };
        waiters.add(check);
        check();
      }),
  };
  const handle = newTestHandle({ nodes, overrides: { objects: () => lister, client: () => client } });
  const plugin = new VolumeBinding(defaultVolumeBindingArgs({}), handle);
  return { plugin, lister, store, writes, client };
}

function codeAndReasons(s: Status | null | undefined): [Code, readonly string[]] | null {
  return s ? [s.code, s.reasons] : null;
}

describe('VolumeBinding PreFilter and Filter', () => {
  interface Case {
    name: string;
    pod: Pod;
    nodes: Node[];
    objects?: KubeObject[];
    wantPreFilter?: [Code, string[]];
    wantFilter?: ([Code, string[]] | null)[];
  }
  const nodeA = makeNode('node-a');
  const cases: Case[] = [
    { name: 'pod has no PVCs: Skip', pod: makePod('pod-a'), nodes: [nodeA], wantPreFilter: [Code.Skip, []] },
    {
      name: 'all bound',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', waitSC.metadata!.name!, { boundTo: 'pv-a' }), pv('pv-a', 'wait-sc')],
      wantFilter: [null],
    },
    {
      name: 'all bound with local volumes on the node',
      pod: podWithClaims('pod-a', 'pvc-a', 'pvc-b'),
      nodes: [nodeA, makeNode('node-b')],
      objects: [
        pvc('pvc-a', 'wait-sc', { boundTo: 'pv-a' }),
        pvc('pvc-b', 'wait-sc', { boundTo: 'pv-b' }),
        pv('pv-a', 'wait-sc', { phase: 'Bound', affinity: { 'kubernetes.io/hostname': ['node-a'] } }),
        pv('pv-b', 'wait-sc', { phase: 'Bound', affinity: { 'kubernetes.io/hostname': ['node-a'] } }),
      ],
      wantFilter: [null, [Code.UnschedulableAndUnresolvable, [ErrReasonNodeConflict]]],
    },
    {
      name: 'PVC does not exist',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['persistentvolumeclaim "pvc-a" not found']],
    },
    {
      name: 'part of the PVCs do not exist',
      pod: podWithClaims('pod-a', 'pvc-a', 'pvc-b'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'wait-sc', { boundTo: 'pv-a' })],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['persistentvolumeclaim "pvc-b" not found']],
    },
    {
      name: 'immediate claims not bound',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'immediate-sc')],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['pod has unbound immediate PersistentVolumeClaims']],
    },
    {
      name: 'a claim pre-bound to a volume counts as immediate',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'wait-sc', { volumeName: 'pv-a' })],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['pod has unbound immediate PersistentVolumeClaims']],
    },
    {
      name: 'a claim of a missing class is immediate',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'no-such-sc')],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['pod has unbound immediate PersistentVolumeClaims']],
    },
    {
      name: 'a class without binding mode is an error',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [{ ...sc('no-mode', 'x'), volumeBindingMode: undefined } as StorageClass, pvc('pvc-a', 'no-mode')],
      wantPreFilter: [Code.Error, ['VolumeBindingMode not set for StorageClass "no-mode"']],
    },
    {
      name: 'claim being deleted',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'wait-sc', { deleting: true })],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['persistentvolumeclaim "pvc-a" is being deleted']],
    },
    {
      name: 'unbound claims no matches',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'wait-sc')],
      wantFilter: [[Code.UnschedulableAndUnresolvable, [ErrReasonBindConflict]]],
    },
    {
      name: 'bound and unbound unsatisfied',
      pod: podWithClaims('pod-a', 'pvc-a', 'pvc-b'),
      nodes: [makeNode('node-a', { labels: { foo: 'barbar' } })],
      objects: [pvc('pvc-a', 'wait-sc', { boundTo: 'pv-a' }), pvc('pvc-b', 'wait-sc'), pv('pv-a', 'wait-sc', { affinity: { foo: ['bar'] } })],
      wantFilter: [[Code.UnschedulableAndUnresolvable, [ErrReasonNodeConflict, ErrReasonBindConflict]]],
    },
    {
      name: 'pv not found',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'wait-sc', { boundTo: 'pv-a' })],
      wantFilter: [[Code.UnschedulableAndUnresolvable, [ErrReasonPVNotExist]]],
    },
    {
      name: 'pv not found, claim lost',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'wait-sc', { boundTo: 'pv-a', phase: 'Lost' })],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a"']],
    },
    {
      name: 'static binding: a local volume on one node only',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA, makeNode('node-b'), makeNode('node-c')],
      objects: [
        pvc('pvc-a', 'wait-sc', { request: '50Gi' }),
        pv('pv-a-0', 'wait-sc', { capacity: '200Gi', affinity: { 'kubernetes.io/hostname': ['node-a'] } }),
        pv('pv-b-0', 'wait-sc', { capacity: '100Gi', affinity: { 'kubernetes.io/hostname': ['node-b'] } }),
        pv('pv-c-0', 'wait-sc', { capacity: '10Gi', affinity: { 'kubernetes.io/hostname': ['node-c'] } }),
      ],
      wantFilter: [null, null, [Code.UnschedulableAndUnresolvable, [ErrReasonBindConflict]]],
    },
    {
      name: 'volumes of another class, bound elsewhere or not Available do not match',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [
        pvc('pvc-a', 'wait-sc'),
        pv('pv-other-class', 'wait-hdd-sc'),
        pv('pv-claimed', 'wait-sc', { claimRef: 'someone-else' }),
        pv('pv-released', 'wait-sc', { phase: 'Released' }),
      ],
      wantFilter: [[Code.UnschedulableAndUnresolvable, [ErrReasonBindConflict]]],
    },
    {
      name: 'dynamic provisioning with a provisioner',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [pvc('pvc-a', 'provision-sc')],
      wantFilter: [null],
    },
    {
      name: 'provisioning restricted by allowedTopologies',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [makeNode('node-a', { labels: { 'topology.kubernetes.io/zone': 'zone-a' } }), makeNode('node-b', { labels: { 'topology.kubernetes.io/zone': 'zone-b' } })],
      objects: [pvc('pvc-a', 'topo-sc')],
      wantFilter: [null, [Code.UnschedulableAndUnresolvable, [ErrReasonBindConflict]]],
    },
    {
      name: 'a claim already provisioning for another node',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA, makeNode('node-b')],
      objects: [pvc('pvc-a', 'provision-sc', { selectedNode: 'node-b' })],
      wantFilter: [[Code.UnschedulableAndUnresolvable, [ErrReasonBindConflict]], null],
    },
    {
      name: 'provisioning needs a class with a provisioner',
      pod: podWithClaims('pod-a', 'pvc-a'),
      nodes: [nodeA],
      objects: [sc('none', 'WaitForFirstConsumer', { provisioner: 'kubernetes.io/no-provisioner' }), pvc('pvc-a', 'none')],
      wantFilter: [[Code.UnschedulableAndUnresolvable, [ErrReasonBindConflict]]],
    },
    {
      name: 'ephemeral volume whose claim is not created yet',
      pod: makePod('pod-a', { spec: { volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }] } }),
      nodes: [nodeA],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['waiting for ephemeral volume controller to create the persistentvolumeclaim "pod-a-scratch"']],
    },
    {
      name: 'ephemeral volume whose claim the pod does not own',
      pod: makePod('pod-a', { spec: { volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }] } }),
      nodes: [nodeA],
      objects: [pvc('pod-a-scratch', 'wait-sc')],
      wantPreFilter: [Code.UnschedulableAndUnresolvable, ['PVC default/pod-a-scratch was not created for pod default/pod-a (pod is not owner)']],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { plugin } = setup(c.objects ?? [], c.nodes);
      const state = new CycleState();
      const pod = new PodInfo(c.pod);
      const out = plugin.preFilter(state, pod);
      assert.deepEqual(codeAndReasons(out?.status), c.wantPreFilter ?? null);
      if (c.wantPreFilter) return;
      assert.equal(out?.result ?? null, null);
      c.nodes.forEach((n, i) => {
        assert.deepEqual(codeAndReasons(plugin.filter(state, pod, new NodeInfo(n))), c.wantFilter![i] ?? null, n.metadata.name);
      });
      assert.equal(plugin.preScore(state), null);
    });
  }

  it('picks the smallest fitting volume, smallest claims first, never one volume twice', () => {
    const { plugin } = setup(
      [
        pvc('pvc-big', 'wait-sc', { request: '5Gi' }),
        pvc('pvc-small', 'wait-sc', { request: '1Gi' }),
        pv('pv-10', 'wait-sc', { capacity: '10Gi' }),
        pv('pv-5', 'wait-sc', { capacity: '5Gi' }),
        pv('pv-1', 'wait-sc', { capacity: '1Gi' }),
      ],
      [nodeA],
    );
    const state = new CycleState();
    const pod = new PodInfo(podWithClaims('pod-a', 'pvc-big', 'pvc-small'));
    plugin.preFilter(state, pod);
    assert.equal(plugin.filter(state, pod, new NodeInfo(nodeA)), null);
    const chosen = state.read<VolumeBindingState>('VolumeBinding')!.podVolumesByNode.get('node-a')!.staticBindings;
    assert.deepEqual(chosen.map((b) => [b.pvc.metadata?.name, b.pv.metadata?.name]), [['pvc-small', 'pv-1'], ['pvc-big', 'pv-5']]);
  });
});

describe('VolumeBinding Reserve, Unreserve and PreBind', () => {
  const nodeA = makeNode('node-a');

  it('two pods in a row do not pick the same volume; Unreserve gives it back', () => {
    const { plugin } = setup([pvc('pvc-1', 'wait-sc'), pvc('pvc-2', 'wait-sc'), pv('pv-only', 'wait-sc')], [nodeA]);
    const first = new PodInfo(podWithClaims('pod-1', 'pvc-1'));
    const s1 = new CycleState();
    plugin.preFilter(s1, first);
    assert.equal(plugin.filter(s1, first, new NodeInfo(nodeA)), null);
    assert.equal(plugin.reserve(s1, first, 'node-a'), null);

    const second = new PodInfo(podWithClaims('pod-2', 'pvc-2'));
    const s2 = new CycleState();
    plugin.preFilter(s2, second);
    assert.deepEqual(codeAndReasons(plugin.filter(s2, second, new NodeInfo(nodeA))), [Code.UnschedulableAndUnresolvable, [ErrReasonBindConflict]]);

    plugin.unreserve(s1, first, 'node-a');
    const s3 = new CycleState();
    plugin.preFilter(s3, second);
    assert.equal(plugin.filter(s3, second, new NodeInfo(nodeA)), null);
  });

  it('PreBind writes the claimRef and waits until the claim is bound', async () => {
    const { plugin, store, writes, lister } = setup([pvc('pvc-a', 'wait-sc'), pv('pv-a', 'wait-sc')], [nodeA]);
    const pod = new PodInfo(podWithClaims('pod-a', 'pvc-a'));
    const state = new CycleState();
    plugin.preFilter(state, pod);
    plugin.filter(state, pod, new NodeInfo(nodeA));
    assert.equal(plugin.reserve(state, pod, 'node-a'), null);
    let settled = false;
    const done = plugin.preBind(state, pod, 'node-a').then((s) => {
      settled = true;
      return s;
    });
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(writes.length, 1);
    const written = writes[0] as PersistentVolume;
    assert.deepEqual(
      [written.spec?.claimRef?.name, written.spec?.claimRef?.uid, written.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller']],
      ['pvc-a', 'uid-pvc-a', 'yes'],
    );
    assert.equal(settled, false);
    // The PV controller completes the binding.
    const claim = lister.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'pvc-a')!;
    store({ ...claim, metadata: { ...claim.metadata, annotations: { [AnnBindCompleted]: 'yes' } }, spec: { ...claim.spec, volumeName: 'pv-a' } });
    assert.equal(await done, null);
  });

  it('PreBind annotates the claim with the selected node for provisioning', async () => {
    const { plugin, store, writes, lister } = setup([pvc('pvc-a', 'provision-sc')], [nodeA]);
    const pod = new PodInfo(podWithClaims('pod-a', 'pvc-a'));
    const state = new CycleState();
    plugin.preFilter(state, pod);
    plugin.filter(state, pod, new NodeInfo(nodeA));
    plugin.reserve(state, pod, 'node-a');
    const done = plugin.preBind(state, pod, 'node-a');
    await Promise.resolve();
    assert.equal((writes[0] as PersistentVolumeClaim).metadata?.annotations?.[AnnSelectedNode], 'node-a');
    store(pv('pvc-a-volume', 'provision-sc', { phase: 'Bound', claimRef: 'pvc-a' }));
    const claim = lister.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'pvc-a')!;
    store({ ...claim, metadata: { ...claim.metadata, annotations: { ...claim.metadata?.annotations, [AnnBindCompleted]: 'yes' } }, spec: { ...claim.spec, volumeName: 'pvc-a-volume' } });
    assert.equal(await done, null);
  });

  it('PreBind fails when the provisioner drops the selected node', async () => {
    const { plugin, store, lister } = setup([pvc('pvc-a', 'provision-sc')], [nodeA]);
    const pod = new PodInfo(podWithClaims('pod-a', 'pvc-a'));
    const state = new CycleState();
    plugin.preFilter(state, pod);
    plugin.filter(state, pod, new NodeInfo(nodeA));
    plugin.reserve(state, pod, 'node-a');
    const done = plugin.preBind(state, pod, 'node-a');
    await Promise.resolve();
    const claim = lister.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'pvc-a')!;
    store({ ...claim, metadata: { ...claim.metadata, annotations: {} } });
    const s = await done;
    assert.deepEqual(codeAndReasons(s), [Code.Error, ['binding volumes: provisioning failed for PVC "pvc-a"']]);
  });

  it('PreBind does nothing when every claim is bound', async () => {
    const { plugin, writes } = setup([pvc('pvc-a', 'wait-sc', { boundTo: 'pv-a' }), pv('pv-a', 'wait-sc', { phase: 'Bound' })], [nodeA]);
    const pod = new PodInfo(podWithClaims('pod-a', 'pvc-a'));
    const state = new CycleState();
    plugin.preFilter(state, pod);
    plugin.filter(state, pod, new NodeInfo(nodeA));
    plugin.reserve(state, pod, 'node-a');
    assert.equal(await plugin.preBind(state, pod, 'node-a'), null);
    assert.equal(writes.length, 0);
  });

  it('PreBind reports a timeout as upstream does', async () => {
    const { plugin, client } = setup([pvc('pvc-a', 'wait-sc'), pv('pv-a', 'wait-sc')], [nodeA]);
    const pod = new PodInfo(podWithClaims('pod-a', 'pvc-a'));
    const state = new CycleState();
    plugin.preFilter(state, pod);
    plugin.filter(state, pod, new NodeInfo(nodeA));
    plugin.reserve(state, pod, 'node-a');
    client.waitUntil = async () => false;
    assert.deepEqual(codeAndReasons(await plugin.preBind(state, pod, 'node-a')), [Code.Error, ['binding volumes: context deadline exceeded']]);
  });
});

describe('VolumeBinding events and hints', () => {
  it('registers upstream events', () => {
    const { plugin } = setup([], []);
    assert.deepEqual(
      plugin.eventsToRegister().map((e) => [e.event.resource, e.event.actionType & ActionType.Add ? 'Add' : '', typeof e.queueingHintFn]),
      [
        ['StorageClass', 'Add', 'function'],
        ['PersistentVolumeClaim', 'Add', 'function'],
        ['PersistentVolume', 'Add', 'undefined'],
        ['Node', 'Add', 'undefined'],
        ['CSINode', 'Add', 'function'],
        ['CSIDriver', '', 'function'],
        ['CSIStorageCapacity', 'Add', 'function'],
      ],
    );
  });
  const pod = podWithClaims('pod-a', 'pvc-a');
  it('PVC: only the pod\'s claims in its namespace', () => {
    assert.equal(isSchedulableAfterPersistentVolumeClaimChange(pod, null, pvc('pvc-a', 'wait-sc')), QueueingHint.Queue);
    assert.equal(isSchedulableAfterPersistentVolumeClaimChange(pod, null, pvc('pvc-b', 'wait-sc')), QueueingHint.QueueSkip);
    const other = pvc('pvc-a', 'wait-sc');
    other.metadata!.namespace = 'other';
    assert.equal(isSchedulableAfterPersistentVolumeClaimChange(pod, null, other), QueueingHint.QueueSkip);
  });
  it('StorageClass: added, or allowedTopologies changed', () => {
    assert.equal(isSchedulableAfterStorageClassChange(pod, null, waitSC), QueueingHint.Queue);
    assert.equal(isSchedulableAfterStorageClassChange(pod, waitSC, { ...waitSC, parameters: { a: 'b' } }), QueueingHint.QueueSkip);
    assert.equal(isSchedulableAfterStorageClassChange(pod, provisionSC, { ...topoSC, metadata: provisionSC.metadata }), QueueingHint.Queue);
  });
  it('CSINode: added, or migrated plugins changed', () => {
    const node = { metadata: { name: 'n', annotations: { 'storage.alpha.kubernetes.io/migrated-plugins': 'a' } } };
    assert.equal(isSchedulableAfterCSINodeChange(pod, null, node), QueueingHint.Queue);
    assert.equal(isSchedulableAfterCSINodeChange(pod, node, node), QueueingHint.QueueSkip);
    assert.equal(isSchedulableAfterCSINodeChange(pod, node, { metadata: { name: 'n' } }), QueueingHint.Queue);
  });
  it('CSIStorageCapacity: added, or its volume limit grew', () => {
    assert.equal(isSchedulableAfterCSIStorageCapacityChange(pod, null, { capacity: '1Gi' }), QueueingHint.Queue);
    assert.equal(isSchedulableAfterCSIStorageCapacityChange(pod, { capacity: '1Gi' }, { capacity: '2Gi' }), QueueingHint.Queue);
    assert.equal(isSchedulableAfterCSIStorageCapacityChange(pod, { capacity: '2Gi' }, { capacity: '1Gi' }), QueueingHint.QueueSkip);
    assert.equal(isSchedulableAfterCSIStorageCapacityChange(pod, { capacity: '1Gi', maximumVolumeSize: '1Gi' }, { capacity: '5Gi', maximumVolumeSize: '1Gi' }), QueueingHint.QueueSkip);
  });
});

describe('VolumeBindingArgs', () => {
  it('defaults bindTimeoutSeconds to 600 and the shape to 0% -> 10, 100% -> 0', () => {
    assert.deepEqual(defaultVolumeBindingArgs({}), { bindTimeoutSeconds: 600, shape: [{ utilization: 0, score: 10 }, { utilization: 100, score: 0 }] });
    assert.deepEqual(defaultVolumeBindingArgs({ shape: [{ utilization: 50, score: 5 }] }).shape, [{ utilization: 50, score: 5 }]);
  });
  it('rejects a negative timeout and a shape out of order or out of range', () => {
    const shape = [{ utilization: 0, score: 10 }, { utilization: 100, score: 0 }];
    assert.deepEqual(validateVolumeBindingArgs({ bindTimeoutSeconds: -1, shape }, 'args').map((e) => `${e.path}: ${e.message}`), [
      'args.bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value',
    ]);
    assert.deepEqual(
      validateVolumeBindingArgs({ bindTimeoutSeconds: 1, shape: [{ utilization: 50, score: 11 }, { utilization: 10, score: 0 }] }, 'args').map((e) => e.path),
      ['args.shape[1].utilization', 'args.shape[0].score'],
    );
  });
});
