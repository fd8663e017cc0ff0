// The done-when session of issue 25: one kubectl session against `simulate --serve`, and the same
// session against the pinned kube-apiserver and kube-controller-manager with our `run`
// scheduling; both end in the same objects, placements and eviction answers. Skipped, saying why,
// without kubectl (and the upstream half without upstream/bin/).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Node } from '../../src/api/types.js';
import { defaultConfiguration } from '../../src/config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../src/plugins/registry.js';
import { serveScenario, type Serving } from '../../src/sim/serve/serve.js';
import { Child, ControlPlane, eventually, missingBinaries } from './control_plane.js';
import { binDir } from '../upstream/harness.js';
import { addNode } from './planner_cluster.js';
import { kubectlOnPath, kubectlWith, runSession, sessionNodes, type SessionOutcome } from './kubectl_session.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const kubeControllerManager = join(binDir, 'kube-controller-manager');
const noKubectl = kubectlOnPath() ? false : 'kubectl is not on PATH (apt-get install kubernetes-client)';
const noUpstream = missingBinaries() ?? (existsSync(kubeControllerManager) ? null : `not built: ${kubeControllerManager} (npm run upstream:build, needs Go)`);

function kubeconfigFor(server: string): string {
  return ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: c', '  cluster:', `    server: ${server}`,
    'contexts:', '- name: c', '  context: {cluster: c, user: u, namespace: default}', 'users:', '- name: u', '  user: {}', 'current-context: c', ''].join('\n');
}

describe('one kubectl session against simulate --serve and the pinned control plane', { skip: noKubectl, timeout: 600_000 }, () => {
  let dir: string;
  let ours: SessionOutcome;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kst-session-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('simulate --serve: the session runs, the budget refuses the second eviction, the big pod stays pending', async () => {
    const registry = inTreeRegistry();
    const serving: Serving = await serveScenario({
      name: 'session', metadata: {}, config: null, objects: [], pods: [], pending: [], steps: [], nodes: sessionNodes as Node[],
      // No kubelet stand-in: the pinned control plane runs none either, so both sides get their
      // pods' readiness from the session's status patches and answer evictions alike.
    }, { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, port: 0, kubelet: false });
    try {
      const work = mkdtempSync(join(dir, 'ours-'));
      writeFileSync(join(work, 'kubeconfig'), kubeconfigFor(serving.url));
      ours = await runSession(kubectlWith(join(work, 'kubeconfig'), work), work);
    } finally {
      await serving.close();
    }
    const out = (step: string) => ours.steps.find((s) => s.step === step)!.out;
    assert.match(out('create namespace'), /namespace\/team created/);
    assert.match(out('create priorityclass'), /priorityclass.scheduling.k8s.io\/high created/);
    assert.match(out('rollout status'), /deployment "web" successfully rolled out/);
    assert.match(out('drain'), /evicted/);
    assert.match(out('drain'), /Cannot evict pod as it would violate the pod's disruption budget\./);
    assert.match(out('describe pending pod'), /^0\/3 nodes are available: 1 node\(s\) were unschedulable, 2 Insufficient cpu\./);
    assert.equal(out('pending pods').trim(), 'pod/big');
    assert.ok(!ours.placements.some((p) => /^api@node-a$/.test(p)), ours.placements.join(' '));
    assert.ok(ours.objects.includes('nodes/node-a true'), ours.objects.join(' '));
  });

  it('the pinned kube-apiserver and kube-controller-manager with our run end in the same state', { skip: noUpstream ?? false }, async () => {
    assert.ok(ours, 'the embedded session ran first');
    const cp = await ControlPlane.start();
    const children: Child[] = [];
    try {
      children.push(new Child('kube-controller-manager', kubeControllerManager, [
        '--kubeconfig', cp.kubeconfig, '--leader-elect=false', '--secure-port=0', '--use-service-account-credentials=false',
        // The workload controllers, the budgets' and the default ServiceAccount of new namespaces (ServiceAccount admission wants it); no node lifecycle controller: no kubelet renews leases here.
        '--controllers=deployment-controller,replicaset-controller,daemonset-controller,job-controller,disruption-controller,garbage-collector-controller,serviceaccount-controller',
      ]));
      const config = join(cp.dir, 'ours.yaml');
      writeFileSync(config, ['apiVersion: kubescheduler.config.k8s.io/v1', 'kind: KubeSchedulerConfiguration',
        'clientConnection:', `  kubeconfig: ${cp.kubeconfig}`, 'leaderElection:', '  leaderElect: false', ''].join('\n'));
      children.push(new Child('kube-scheduler-ts', process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), 'run', '--config', config, '--secure-port', '0']));
      for (const n of sessionNodes) await addNode(cp, n);
      await eventually('the nodes to be listed', async () => ((await cp.api('GET', '/api/v1/nodes')).status === 200 ? true : undefined));
      const work = mkdtempSync(join(dir, 'upstream-'));
      const k = kubectlWith(cp.kubeconfig, work);
      const theirs = await runSession(k, work).catch(async (err: Error) => {
        const state = await k(['get', 'all,events', '-n', 'team', '-o', 'wide']);
        throw new Error(`${err.message}\n${state.stdout}${state.stderr}\n${children.map((c) => `--- ${c.name}\n${c.tail()}`).join('\n')}`);
      });
      assert.deepEqual(theirs.steps, ours.steps);
      assert.deepEqual(theirs.placements, ours.placements);
      assert.deepEqual(theirs.objects, ours.objects);
    } finally {
      for (const c of children) await c.stop();
      await cp.stop();
    }
  });
});
