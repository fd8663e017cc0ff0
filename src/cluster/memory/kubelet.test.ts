import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, Node, Pod } from '../../api/types.js';
import { FakeClock, seededRandom } from '../../util/clock.js';
import { completedPodStatus, Kubelet } from './kubelet.js';
import { MemoryCluster } from './store.js';

const start = Date.parse('2026-01-02T03:04:05.678Z');
const rfc3339NoMillis = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

function setup(podStartDelayMs: number) {
  const clock = new FakeClock(start);
  const cluster = new MemoryCluster({ clock, volumeController: false, resourceClaimController: false, uuidRandom: seededRandom(3) });
  cluster.create<Node>({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { allocatable: { cpu: '4', pods: '10' } } });
  const kubelet = new Kubelet(cluster, clock, { podStartDelayMs });
  kubelet.start();
  return { clock, cluster, kubelet };
}

const pod = (name: string, nodeName?: string, phase?: string): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'img:1' }] },
  ...(phase ? { status: { phase } } : {}),
});

/** Lets the kubelet act on the changes queued in this tick (it acts once they reached every watcher). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('kubelet stand-in (KWOK fast stages)', () => {
  it('makes a node Ready with a lease in kube-node-lease, renewed every 10 s', async () => {
    const { clock, cluster, kubelet } = setup(0);
    const node = cluster.get<Node>('Node', '', 'n1')!;
    assert.deepEqual(node.status?.conditions?.map((c) => `${c.type}=${c.status}`), ['MemoryPressure=False', 'DiskPressure=False', 'PIDPressure=False', 'Ready=True']);
    assert.deepEqual(node.status?.addresses, [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n1' }]);
    assert.deepEqual(node.status?.allocatable, { cpu: '4', pods: '10' }, 'capacity is left as the scenario gives it');
    const lease = () => cluster.get<KubeObject & { spec: { holderIdentity: string; renewTime: string } }>('Lease', 'kube-node-lease', 'n1')!;
    assert.equal(lease().spec.holderIdentity, 'n1');
    assert.equal(lease().spec.renewTime, '2026-01-02T03:04:05.678000Z');
    clock.runUntil(start + 10_000);
    assert.equal(lease().spec.renewTime, '2026-01-02T03:04:15.678000Z');
    cluster.remove('Node', '', 'n1');
    await settle();
    assert.equal(cluster.get('Lease', 'kube-node-lease', 'n1'), undefined);
    kubelet.stop();
  });

  it('runs a bound pod after the delay: Running, Ready, an IP, a start time, running containers', async () => {
    const { clock, cluster, kubelet } = setup(2000);
    cluster.create(pod('web'));
    await settle();
    await cluster.bind(cluster.getPod('default', 'web')!, 'n1');
    await settle();
    clock.runUntil(start + 1999);
    assert.equal(cluster.getPod('default', 'web')!.status?.phase, 'Pending', 'not before the delay');
    clock.runUntil(start + 2000);
    const p = cluster.getPod('default', 'web')!;
    assert.equal(p.status?.phase, 'Running');
    assert.equal(p.status?.podIP, '10.244.0.1');
    assert.equal(p.status?.hostIP, '10.0.0.1');
    assert.equal(p.status?.startTime, '2026-01-02T03:04:07Z');
    assert.deepEqual(p.status?.conditions?.map((c) => `${c.type}=${c.status}`),
      ['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
    assert.deepEqual(p.status?.containerStatuses?.map((c) => [c.name, c.ready, c.state]), [['c', true, { running: { startedAt: '2026-01-02T03:04:07Z' } }]]);
    assert.match(p.metadata.uid ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(String(p.metadata.creationTimestamp), rfc3339NoMillis);
    kubelet.stop();
  });

  it('leaves unbound pods Pending and pods with a phase of their own as they are', async () => {
    const { clock, cluster, kubelet } = setup(0);
    cluster.create(pod('waiting'));
    cluster.create(pod('done', 'n1', 'Succeeded'));
    await settle();
    clock.runUntil(start + 60_000);
    assert.equal(cluster.getPod('default', 'waiting')!.status?.phase ?? 'Pending', 'Pending');
    assert.equal(cluster.getPod('default', 'done')!.status?.phase, 'Succeeded');
    assert.equal(cluster.getPod('default', 'done')!.status?.containerStatuses, undefined);
    kubelet.stop();
  });

  it('a finished pod (its run time over) has terminated containers and is no longer Ready', () => {
    const p = { ...pod('job-1', 'n1'), status: { phase: 'Running', startTime: '2026-01-02T03:04:05Z', conditions: [{ type: 'Ready', status: 'True' }] } } as Pod;
    const s = completedPodStatus(p, start + 90_000);
    assert.equal(s.phase, 'Succeeded');
    assert.deepEqual(s.conditions?.map((c) => `${c.type}=${c.status}`), ['Ready=False']);
    assert.deepEqual(s.containerStatuses?.[0]?.state, { terminated: { exitCode: 0, reason: 'Completed', startedAt: '2026-01-02T03:04:05Z', finishedAt: '2026-01-02T03:05:35Z' } });
  });
});
