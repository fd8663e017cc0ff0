// `snapshot` of a real control plane (the pinned kube-apiserver and etcd), simulated, then the same
// pending pods scheduled by the pinned kube-scheduler: both must place every pod on the same node.
// Skipped, saying why, when the binaries are not built (npm run upstream:build).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runCli } from '../../src/cli/main.js';
import { loadScenario } from '../../src/sim/scenario/scenario.js';
import { binaries, Child, ControlPlane, eventually, missingBinaries } from './control_plane.js';
import type { Pod } from '../../src/api/types.js';
import { makePod } from '../../src/testing/builders.js';

const skip = missingBinaries();
const whatIf = 'what-if';

const nodeSizes: [string, string, string][] = [['n-a', '2', '4Gi'], ['n-b', '3', '7Gi'], ['n-c', '5', '6Gi'], ['n-d', '7', '13Gi'], ['n-e', '11', '9Gi']];
// The API server replaces the kit's uid with its own.
const pod = (name: string, cpu: string, memory: string, extra: Partial<Pod['spec']> = {}) =>
  makePod(name, { labels: { app: name.replace(/-\d+$/, '') }, image: 'registry.example/app:1', requests: { cpu, memory }, spec: extra });
const withScheduler = (name: string, cpu: string, memory: string, extra: Partial<Pod['spec']> = {}) => pod(name, cpu, memory, { ...extra, schedulerName: whatIf });

// Pods created after the snapshot, one at a time, each with one node that fits once the ones
// before it are placed: the answer then hangs on the imported load, sizes and labels, not
// on upstream's random choice among nodes that score the same.
const z1 = { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1'] }] }] } } } };
const pending = [
  withScheduler('p00-big-0', '9', '1Gi'), withScheduler('p01-mem-0', '4500m', '7Gi'), withScheduler('p02-z1-0', '2500m', '1Gi', z1),
  withScheduler('p03-db-0', '4', '5Gi'), withScheduler('p04-none-0', '3', '1Gi'), withScheduler('p05-small-0', '1500m', '1Gi'),
];

describe('snapshot agrees with the pinned kube-scheduler', { skip: skip ?? false, timeout: 600_000 }, () => {
  let cp: ControlPlane;
  let upstream: Child | undefined;

  before(async () => {
    cp = await ControlPlane.start();
    for (const [name, cpu, memory] of nodeSizes) {
      await cp.create('/api/v1/nodes', {
        metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': name < 'n-c' ? 'z1' : 'z2' } },
        status: { capacity: { cpu, memory, pods: '110' }, allocatable: { cpu, memory, pods: '110' } },
      });
      const r = await cp.api('PATCH', `/api/v1/nodes/${name}`, { spec: { taints: null } }, 'application/merge-patch+json');
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    // Existing load, bound directly.
    await cp.create('/api/v1/namespaces/default/pods', pod('load-0', '1500m', '1Gi', { nodeName: 'n-e' }));
    await cp.create('/api/v1/namespaces/default/pods', pod('load-1', '2', '5Gi', { nodeName: 'n-d' }));
  });

  after(async () => {
    await upstream?.stop();
    await cp?.stop();
  });

  it('simulating the snapshot places new pods where kube-scheduler then does', async (t) => {
    const config = join(cp.dir, 'what-if.yaml');
    writeFileSync(config, [
      'apiVersion: kubescheduler.config.k8s.io/v1', 'kind: KubeSchedulerConfiguration',
      'clientConnection:', `  kubeconfig: ${cp.kubeconfig}`, 'leaderElection:', '  leaderElect: false',
      'profiles:', `- schedulerName: ${whatIf}`, '',
    ].join('\n'));
    const file = join(cp.dir, 'snapshot.yaml');
    let err = '';
    const io = { stdout: () => undefined, stderr: (s: string) => (err += s) };
    assert.equal(await runCli(['snapshot', '--kubeconfig', cp.kubeconfig, '--config', config, '--page-size', '2', '-o', file], io), 0, err);
    const snap = loadScenario(file);
    assert.deepEqual(snap.nodes.map((n) => n.metadata.name), nodeSizes.map(([n]) => n));
    assert.deepEqual(snap.pods.map((p) => p.metadata.name).sort(), ['load-0', 'load-1']);

    // The what-if: the snapshot with the pods to come as its pending pods.
    const whatIfFile = join(cp.dir, 'what-if-scenario.yaml');
    const doc = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(whatIfFile, stringify({ ...doc, pending }));
    let out = '';
    assert.equal(await runCli(['simulate', whatIfFile, '-o', 'json'], { stdout: (s) => (out += s), stderr: (s) => (err += s) }), 0, err);
    const simulated = (JSON.parse(out) as { pods: { pod: string; node: string }[] }).pods
      .filter((p) => pending.some((q) => p.pod === `default/${q.metadata.name}`)).map((p) => [p.pod, p.node]);

    upstream = new Child('kube-scheduler', binaries.kubeScheduler, [
      '--config', config, '--authentication-kubeconfig', cp.kubeconfig, '--authorization-kubeconfig', cp.kubeconfig, '--secure-port', '0',
    ]);
    try {
      const placed: string[][] = [];
      for (const p of pending) {
        await cp.create('/api/v1/namespaces/default/pods', p);
        const node = await eventually(`kube-scheduler to decide on ${p.metadata.name}`, async () => {
          const r = await cp.api('GET', `/api/v1/namespaces/default/pods/${p.metadata.name}`);
          const got = r.body as { spec: { nodeName?: string }; status?: { conditions?: { type: string; reason?: string }[] } };
          if (got.spec.nodeName) return got.spec.nodeName;
          return got.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable') ? '-' : undefined;
        }, 60_000);
        placed.push([`default/${p.metadata.name}`, node === '-' ? '' : node]);
      }
      t.diagnostic(`placements: ${JSON.stringify(placed)}`);
      assert.deepEqual(simulated, placed);
      assert.deepEqual(placed.map(([, n]) => n), ['n-e', 'n-d', 'n-b', 'n-c', '', 'n-a']);
    } catch (e) {
      t.diagnostic(`${upstream.tail()}\n${cp.logs()}`);
      throw e;
    }
  });
});
