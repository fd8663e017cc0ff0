// The embedded stand-in for scheduler-plugins' PodGroup controller: statuses follow the labelled
// pods through the store's changes, as `kubectl get podgroups` shows them on such a cluster.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, Pod } from '../../../api/types.js';
import { FakeClock } from '../../../util/clock.js';
import { MemoryCluster } from '../store.js';
import { coschedulingPodGroupKind, type CoschedulingGroup } from './podgroup.js';

const group = (name: string, minMember: number): KubeObject => ({ apiVersion: 'scheduling.x-k8s.io/v1alpha1', kind: 'PodGroup', metadata: { name, namespace: 'default' }, spec: { minMember } } as KubeObject);
const member = (name: string, groupName: string): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { 'scheduling.x-k8s.io/pod-group': groupName }, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'train', uid: 'u-1' }] },
  spec: { containers: [{ name: 'c', image: 'x' }] },
});

describe('the PodGroup controller stand-in', () => {
  it('walks a group from Pending through PreScheduling, and from Scheduling to Running and Finished as its pods do', async () => {
    const c = new MemoryCluster({ clock: new FakeClock(0), workloadControllers: true });
    const status = () => c.get<CoschedulingGroup>(coschedulingPodGroupKind, 'default', 'gang')!.status;
    c.create(group('gang', 2));
    await c.controllers.settled();
    assert.deepEqual(status(), { phase: 'Pending' });
    c.create(member('m0', 'gang'));
    await c.controllers.settled();
    assert.deepEqual(status(), { phase: 'Pending' }, 'one member of two');
    c.create(member('m1', 'gang'));
    await c.controllers.settled();
    // Its own status write wakes it again (as the watch of its PodGroups does upstream): the counts follow.
    assert.deepEqual(status(), { phase: 'PreScheduling', occupiedBy: 'default/train', running: 0, succeeded: 0, failed: 0 });
    // What the controller never writes itself: a group in Scheduling with its scheduled count.
    c.update({ ...c.get<CoschedulingGroup>(coschedulingPodGroupKind, 'default', 'gang')!, status: { ...status(), phase: 'Scheduling', scheduled: 2 } });
    for (const name of ['m0', 'm1']) c.update<Pod>({ ...c.get<Pod>('Pod', 'default', name)!, status: { phase: 'Running' } });
    await c.controllers.settled();
    assert.deepEqual(status(), { phase: 'Running', occupiedBy: 'default/train', scheduled: 2, running: 2, succeeded: 0, failed: 0 });
    for (const name of ['m0', 'm1']) c.update<Pod>({ ...c.get<Pod>('Pod', 'default', name)!, status: { phase: 'Succeeded' } });
    await c.controllers.settled();
    assert.equal(status()?.phase, 'Finished');
    assert.equal(status()?.succeeded, 2);
  });

  it('leaves groups alone where the workload controllers are off (plain simulations)', async () => {
    const c = new MemoryCluster({ clock: new FakeClock(0) });
    c.create(group('gang', 1));
    await c.controllers.settled();
    assert.equal(c.get<CoschedulingGroup>(coschedulingPodGroupKind, 'default', 'gang')!.status, undefined);
  });
});
