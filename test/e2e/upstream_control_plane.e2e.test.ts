// `run` against a real control plane: the pinned release's kube-apiserver and etcd, and its own
// kube-scheduler beside ours (upstream/bin/, built by `npm run upstream:build`). Skipped, saying
// why, when those binaries are not built. Real time: every wait is bounded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binaries, Child, ControlPlane, eventually, missingBinaries } from './control_plane.js';
import type { ResourceClaim } from '../../src/api/dra_types.js';
import { KubeClusterClient } from '../../src/cluster/kube/client.js';
import { HttpTransport, loadKubeConfig } from '../../src/cluster/kube/rest.js';
import { ApiError, type WatchEvent } from '../../src/cluster/types.js';
import { discardLogger } from '../../src/log/logger.js';
import { RealClock } from '../../src/util/clock.js';
import { makeNode, makePod } from '../../src/testing/builders.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ours = 'kube-scheduler-ts';
const skip = missingBinaries();

interface Pod {
  metadata: { name: string; namespace?: string };
  spec: { nodeName?: string; schedulerName?: string };
  status?: { nominatedNodeName?: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

interface Event {
  reason: string;
  note?: string;
  reportingController?: string;
  regarding: { name: string; namespace?: string };
}

const node = (name: string, cpu: string) => makeNode(name, { allocatable: { cpu, memory: '8Gi', pods: '110' } });

// The API server replaces the kit's uid with its own.
const pod = (name: string, schedulerName: string, cpu = '100m') => makePod(name, { schedulerName, image: 'registry.example/app:1', requests: { cpu } });

describe('run against the pinned kube-apiserver', { skip: skip ?? false, timeout: 600_000 }, () => {
  let cp: ControlPlane;
  const schedulers: Child[] = [];

  /** Our `run`, from the sources, with a profile of its own and a short lease so a failover is quick. */
  function startOurs(name: string, leaderElect: boolean): Child {
    const config = join(cp.dir, `${name}.yaml`);
    writeFileSync(config, [
      'apiVersion: kubescheduler.config.k8s.io/v1',
      'kind: KubeSchedulerConfiguration',
      'clientConnection:', `  kubeconfig: ${cp.kubeconfig}`,
      'leaderElection:', `  leaderElect: ${leaderElect}`, '  leaseDuration: 4s', '  renewDeadline: 3s', '  retryPeriod: 1s',
      '  resourceName: kube-scheduler-ts', '  resourceNamespace: kube-system',
      'profiles:', `- schedulerName: ${ours}`, '',
    ].join('\n'));
    const child = new Child(name, process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), 'run', '--config', config, '--secure-port', '0', '-v=2']);
    schedulers.push(child);
    return child;
  }

  async function getPod(name: string): Promise<Pod> {
    const r = await cp.api('GET', `/api/v1/namespaces/default/pods/${name}`);
    if (r.status !== 200) throw new Error(`GET pod ${name}: ${r.status}`);
    return r.body as Pod;
  }

  const boundNode = (name: string, timeoutMs = 30_000) =>
    eventually(`pod ${name} to be bound`, async () => (await getPod(name)).spec.nodeName || undefined, timeoutMs);

  async function eventsFor(name: string): Promise<Event[]> {
    const r = await cp.api('GET', `/apis/events.k8s.io/v1/namespaces/default/events`);
    return ((r.body as { items?: Event[] }).items ?? []).filter((e) => e.regarding.name === name);
  }

  before(async () => {
    cp = await ControlPlane.start();
    for (const [name, cpu] of [['node-a', '2'], ['node-b', '4']] as const) {
      await cp.create('/api/v1/nodes', node(name, cpu));
      // Admission taints a new node not-ready until its kubelet reports; there is no kubelet here.
      const r = await cp.api('PATCH', `/api/v1/nodes/${name}`, { spec: { taints: null } }, 'application/merge-patch+json');
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
  });

  after(async () => {
    for (const s of schedulers) await s.stop();
    await cp?.stop();
  });

  it('run\'s client sees DRA objects through its informers and writes claim status as the API server checks it', async () => {
    const clock = new RealClock();
    const client = new KubeClusterClient({ transport: new HttpTransport(loadKubeConfig(cp.kubeconfig)), clock, log: discardLogger });
    const seen: string[] = [];
    await cp.create('/apis/resource.k8s.io/v1/deviceclasses', { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu.example.com' }, spec: {} });
    await client.start((e: WatchEvent) => seen.push(`${e.type} ${e.kind} ${e.object.metadata?.name ?? ''}`));
    try {
      assert.ok(seen.includes('ADDED DeviceClass gpu.example.com'), seen.join('; '));
      const created = await cp.create('/apis/resource.k8s.io/v1/namespaces/default/resourceclaims', {
        apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'dra-e2e' },
        spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
      }) as ResourceClaim;
      await eventually('the claim in the informer', async () => (seen.includes('ADDED ResourceClaim dra-e2e') ? true : undefined));
      const allocation = { devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-a', device: 'gpu-0' }] } };
      const written = await client.updateResourceClaimStatus({ ...created, status: { allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: '11111111-2222-3333-4444-555555555555' }] } });
      assert.equal(written.status?.reservedFor?.length, 1);
      assert.deepEqual(written.spec.devices?.requests?.[0]?.exactly, { deviceClassName: 'gpu.example.com', allocationMode: 'ExactCount', count: 1 });
      await assert.rejects(client.updateResourceClaimStatus({ ...created, status: {} }), (e: unknown) => e instanceof ApiError && e.code === 409);
      await assert.rejects(client.updateResourceClaimStatus({ ...written, status: { reservedFor: written.status?.reservedFor } }), (e: unknown) => e instanceof ApiError && e.code === 422);
      await eventually('the status write in the informer', async () => (seen.includes('MODIFIED ResourceClaim dra-e2e') ? true : undefined));
    } finally {
      client.stop();
      await cp.api('DELETE', '/apis/resource.k8s.io/v1/namespaces/default/resourceclaims/dra-e2e');
      await cp.api('DELETE', '/apis/resource.k8s.io/v1/deviceclasses/gpu.example.com');
    }
  });

  it('binds a pod, records Scheduled, and marks an unschedulable one with its condition and event', async (t) => {
    const s = startOurs('single', false);
    try {
      await cp.create('/api/v1/namespaces/default/pods', pod('small', ours));
      // LeastAllocated and BalancedAllocation both prefer the larger node for a cpu-only pod.
      assert.equal(await boundNode('small'), 'node-b');
      const scheduled = await eventually('the Scheduled event', async () => (await eventsFor('small')).find((e) => e.reason === 'Scheduled'));
      assert.equal(scheduled.note, 'Successfully assigned default/small to node-b');
      assert.equal(scheduled.reportingController, ours);

      await cp.create('/api/v1/namespaces/default/pods', pod('huge', ours, '64'));
      const condition = await eventually('PodScheduled=False', async () => (await getPod('huge')).status?.conditions?.find((c) => c.type === 'PodScheduled'));
      assert.equal(condition.status, 'False');
      assert.equal(condition.reason, 'Unschedulable');
      assert.match(condition.message ?? '', /^0\/2 nodes are available: 2 Insufficient cpu\./);
      const failed = await eventually('the FailedScheduling event', async () => (await eventsFor('huge')).find((e) => e.reason === 'FailedScheduling'));
      assert.match(failed.note ?? '', /^0\/2 nodes are available: 2 Insufficient cpu\./);
    } catch (err) {
      t.diagnostic(`${s.tail()}\n${cp.logs()}`);
      throw err;
    } finally {
      await s.stop();
      await cp.api('DELETE', '/api/v1/namespaces/default/pods/huge');
    }
  });

  it('keeps scheduling after the API server restarts', async (t) => {
    const s = startOurs('restart', false);
    try {
      await cp.create('/api/v1/namespaces/default/pods', pod('before-restart', ours));
      await boundNode('before-restart');
      await cp.restartAPIServer(3000);
      const created = Date.now();
      await cp.create('/api/v1/namespaces/default/pods', pod('after-restart', ours));
      await boundNode('after-restart', 60_000);
      t.diagnostic(`bound ${Date.now() - created} ms after its creation on the restarted API server`);
      assert.ok(s.running, 'the scheduler survived the restart');
    } catch (err) {
      t.diagnostic(`${s.tail()}\n${cp.logs()}`);
      throw err;
    } finally {
      await s.stop();
    }
  });

  it('two leader-elected replicas: one schedules, the other takes over when it dies', async (t) => {
    const a = startOurs('replica-a', true);
    const b = startOurs('replica-b', true);
    try {
      const holder = async () => ((await cp.api('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler-ts')).body as { spec?: { holderIdentity?: string } }).spec?.holderIdentity || undefined;
      const first = await eventually('a lease holder', holder);
      await cp.create('/api/v1/namespaces/default/pods', pod('led-1', ours));
      await boundNode('led-1');
      // The follower logs who leads ("New leader elected"); kill the leader outright (no lease
      // release), so the follower has to wait the lease out.
      const follower = await eventually('the follower to see the leader', async () => [a, b].find((r) => r.output.join('').includes(first)));
      const leader = follower === a ? b : a;
      await leader.kill();
      const second = await eventually('another lease holder', async () => {
        const h = await holder();
        return h && h !== first ? h : undefined;
      }, 30_000);
      assert.notEqual(second, first);
      await cp.create('/api/v1/namespaces/default/pods', pod('led-2', ours));
      await boundNode('led-2');
      assert.ok(follower.running, 'the new leader keeps running');
    } catch (err) {
      t.diagnostic(`${a.tail()}\n${b.tail()}`);
      throw err;
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('runs beside upstream kube-scheduler, each binding only the pods that name it', async (t) => {
    const upstream = new Child('kube-scheduler', binaries.kubeScheduler, [
      '--kubeconfig', cp.kubeconfig, '--authentication-kubeconfig', cp.kubeconfig, '--authorization-kubeconfig', cp.kubeconfig,
      '--leader-elect=false', '--secure-port', '0',
    ]);
    schedulers.push(upstream);
    const s = startOurs('beside', false);
    const names = ['mix-0', 'mix-1', 'mix-2', 'mix-3', 'mix-4', 'mix-5'];
    try {
      for (const [i, name] of names.entries()) await cp.create('/api/v1/namespaces/default/pods', pod(name, i % 2 === 0 ? ours : 'default-scheduler'));
      for (const name of names) await boundNode(name, 60_000);
      for (const [i, name] of names.entries()) {
        const want = i % 2 === 0 ? ours : 'default-scheduler';
        const scheduled = await eventually(`the Scheduled event of ${name}`, async () => {
          const evs = (await eventsFor(name)).filter((e) => e.reason === 'Scheduled');
          return evs.length > 0 ? evs : undefined;
        });
        assert.deepEqual(scheduled.map((e) => e.reportingController), [want], `${name} was bound by ${want} only`);
      }
    } catch (err) {
      t.diagnostic(`${s.tail()}\n--- upstream kube-scheduler\n${upstream.tail()}`);
      throw err;
    } finally {
      await s.stop();
      await upstream.stop();
    }
  });
});

if (skip) console.log(`# upstream control plane e2e skipped: ${skip}`);
