// A preemption victim waiting in PreBind has its binding cancelled at once, as upstream cancels
// its PreBind context (SchedulerAsyncPreemption): VolumeBinding stops waiting for its volume
// there and then, not when its bind timeout (10 minutes of the injected clock) runs out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolumeClaim, Pod, StorageClass } from '../src/api/types.js';
import { MemoryCluster } from '../src/cluster/memory/store.js';
import { defaultConfiguration } from '../src/config/index.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import { Scheduler } from '../src/scheduler/scheduler.js';
import { makeNode, makePod } from '../src/testing/builders.js';
import { FakeClock, seededRandom } from '../src/util/clock.js';

const waitForFirstConsumer: StorageClass = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'wffc' },
  provisioner: 'csi.example.com',
  volumeBindingMode: 'WaitForFirstConsumer',
};

const claim: PersistentVolumeClaim = {
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'default' },
  spec: { storageClassName: 'wffc', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  status: { phase: 'Pending' },
};

function pod(name: string, priority: number, withClaim: boolean): Pod {
  const p = makePod(name, { requests: { cpu: '2' }, spec: { priority, ...(withClaim ? { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] } : {}) } });
  delete (p.metadata as { uid?: string }).uid;
  return p;
}

/** Lets the binding cycles and the preemption executor run their pending steps (no time passes). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('PreBind cancellation', () => {
  it('cancels a victim waiting in PreBind mid-wait: its binding fails with context canceled, no time passing', async () => {
    const clock = new FakeClock(0);
    // No PV controller: the claim is never provisioned, so the victim waits in VolumeBinding's PreBind.
    const cluster = new MemoryCluster({ clock, volumeController: false });
    const registry = inTreeRegistry();
    const sched = Scheduler.fromConfig(defaultConfiguration(registry), { registry, client: cluster, clock, random: seededRandom(1) });
    await sched.start();
    cluster.create(makeNode('n1', { allocatable: { cpu: '2', memory: '4Gi', pods: '10' } }));
    cluster.create(waitForFirstConsumer);
    cluster.create(claim);
    cluster.create(pod('victim', 0, true));
    await sched.scheduleOne();
    await settle();
    const victimUid = cluster.getPod('default', 'victim')!.metadata.uid!;
    const profile = sched.profiles.get('default-scheduler')!;
    assert.ok(profile.getPodInPreBind(victimUid), 'the victim waits in PreBind');
    assert.equal(cluster.get<PersistentVolumeClaim>('PersistentVolumeClaim', 'default', 'data')?.metadata?.annotations?.['volume.kubernetes.io/selected-node'], 'n1');

    cluster.create(pod('preemptor', 1000, false));
    await sched.scheduleOne();
    await settle();
    await sched.waitForBindings();

    const victim = cluster.getPod('default', 'victim')!;
    const scheduled = victim.status?.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(victim.spec.nodeName, undefined, 'the victim was not bound');
    assert.deepEqual([scheduled?.reason, scheduled?.message], ['SchedulerError', 'running PreBind plugin "VolumeBinding": binding volumes: context canceled']);
    assert.equal(clock.now(), 0, 'cancelled mid-PreBind, not at its 10-minute timeout');
    assert.equal(profile.getPodInPreBind(victimUid), undefined);
    // Preempted in memory, not deleted: the victim goes back to the queue for another attempt.
    assert.equal(sched.queue.whereIs(victimUid), 'errorBackoff');
    sched.stop();
  });
});
