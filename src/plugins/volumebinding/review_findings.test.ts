// Review findings for VolumeBinding: behaviours upstream's binder.go pins down that the first
// version missed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolumeClaim, StorageClass } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { PluginClusterClient } from '../../framework/interfaces.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code, type Status } from '../../framework/status.js';
import { MapObjectLister, waitForObjects } from '../../framework/object_lister.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { FakeClock } from '../../util/clock.js';
import { VolumeBinding, defaultVolumeBindingArgs } from './index.js';

const provisionSC: StorageClass = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'provision-sc' },
  provisioner: 'csi.example.com',
  volumeBindingMode: 'WaitForFirstConsumer',
};

const claim: PersistentVolumeClaim = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'pvc-a', namespace: 'default', uid: 'uid-pvc-a', resourceVersion: '1' },
  spec: { storageClassName: 'provision-sc', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  status: { phase: 'Pending' },
};

interface PreBindRun {
  lister: MapObjectLister;
  clock: FakeClock;
  /** Marks the pod deleted (what the scheduler's pod-delete handler reports). */
  deletePod(): void;
  /** The claim's next resourceVersion. */
  nextVersion(): string;
  /** PreBind of a pod with claim pvc-a on node-a, after PreFilter, Filter and Reserve. */
  done: Promise<Status | null>;
}

/** A pod whose WaitForFirstConsumer claim is being provisioned, waiting in PreBind. */
async function startPreBind(signal?: AbortSignal): Promise<PreBindRun> {
  const lister = new MapObjectLister([provisionSC, claim]);
  const clock = new FakeClock(0);
  let rv = 10;
  let podExists = true;
  const client: PluginClusterClient = {
    bind: async () => {},
    deletePod: async () => {},
    clearNominatedNodeName: async () => {},
    updatePersistentVolumeClaim: async (o) => {
      const stored = { ...o, metadata: { ...o.metadata, resourceVersion: String(++rv) } };
      lister.upsert(stored);
      return stored;
    },
    waitUntil: (ready, timeoutMs, sig) => waitForObjects(lister, clock, ready, timeoutMs, sig),
    podExists: () => podExists,
  };
  const nodeA = makeNode('node-a');
  const handle = newTestHandle({ nodes: [nodeA], overrides: { objects: () => lister, client: () => client } });
  const plugin = new VolumeBinding(defaultVolumeBindingArgs({}), handle);
  const pod = new PodInfo(makePod('pod-a', { spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'pvc-a' } }] } }));
  const state = new CycleState();
  plugin.preFilter(state, pod);
  assert.equal(plugin.filter(state, pod, new NodeInfo(nodeA)), null);
  assert.equal(plugin.reserve(state, pod, 'node-a'), null);
  const done = plugin.preBind(state, pod, 'node-a', signal);
  await Promise.resolve();
  return {
    lister,
    clock,
    deletePod: () => {
      podExists = false;
      lister.notifyChange('Pod');
    },
    nextVersion: () => String(++rv),
    done,
  };
}

describe('VolumeBinding review findings', () => {
  it('PreBind wraps a failure found while waiting as upstream does ("binding volumes: ...")', async () => {
    const run = await startPreBind();
    // The provisioner gives up: it drops the selected-node annotation.
    const written = run.lister.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'pvc-a')!;
    run.lister.upsert({ ...written, metadata: { ...written.metadata, annotations: {}, resourceVersion: run.nextVersion() } });
    const s = await run.done;
    assert.deepEqual([s?.code, s?.reasons], [Code.Error, ['binding volumes: provisioning failed for PVC "pvc-a"']]);
  });

  it('PreBind stops waiting once the pod is deleted ("pod does not exist any more")', async () => {
    const run = await startPreBind();
    // Deleted while the provisioner works: the scheduler's pod-delete handler notifies the lister.
    run.deletePod();
    const s = await run.done;
    assert.deepEqual([s?.code, s?.reasons], [Code.Error, ['binding volumes: pod does not exist any more: pod "pod-a" not found']]);
    assert.equal(run.clock.now(), 0, 'no timeout was needed');
  });

  it('PreBind stops waiting once its binding is cancelled (upstream: a cancelled context)', async () => {
    const cancel = new AbortController();
    const run = await startPreBind(cancel.signal);
    cancel.abort(new Error('preempted by DefaultPreemption'));
    const s = await run.done;
    assert.deepEqual([s?.code, s?.reasons], [Code.Error, ['binding volumes: context canceled']]);
    assert.equal(run.clock.now(), 0, 'no timeout was needed');
  });
});
