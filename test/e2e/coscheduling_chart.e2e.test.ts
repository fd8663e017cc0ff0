// The Helm chart's defaults under `run` against the pinned kube-apiserver: scheduler-plugins'
// PodGroup CRD installed from the chart, `run` started with the chart's rendered configuration (a
// second scheduler with Coscheduling, no plugin module), and two gangs: one that fits binds whole,
// one that cannot fit is held whole with Coscheduling's messages. Skipped, saying why, without the
// control plane's binaries or helm (npm run upstream:build, npm run upstream:helm). Real time;
// every wait is bounded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, parseAllDocuments, stringify as stringifyYaml } from 'yaml';
import { Child, ControlPlane, eventually, missingBinaries } from './control_plane.js';
import { makeNode } from '../../src/testing/builders.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const chart = join(root, 'deploy/charts/kube-scheduler-ts');
const helm = process.env.HELM ?? join(root, 'upstream/bin/helm');
const skip = missingBinaries() ?? (existsSync(helm) ? null : `no helm at ${helm} (npm run upstream:helm)`);
const groupLabel = 'scheduling.x-k8s.io/pod-group';

interface Pod {
  metadata: { name: string };
  spec: { nodeName?: string };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

/** The chart's configuration as `helm template` renders it with its default values. */
function renderedConfig(): Record<string, unknown> {
  const out = execFileSync(helm, ['template', 'sched', chart, '--namespace', 'kube-system'], { encoding: 'utf8' });
  const docs = parseAllDocuments(out).map((d) => d.toJSON() as { kind?: string; metadata?: { name?: string }; data?: Record<string, string> } | null);
  const cm = docs.find((d) => d?.kind === 'ConfigMap' && d.data?.['config.yaml'] !== undefined);
  assert.ok(cm?.data, 'the chart renders its configuration');
  return parseYaml(cm.data['config.yaml']!) as Record<string, unknown>;
}

const node = (name: string) => makeNode(name, { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } });

const podGroup = (name: string, minMember: number) => ({ apiVersion: 'scheduling.x-k8s.io/v1alpha1', kind: 'PodGroup', metadata: { name }, spec: { minMember } });

const member = (name: string, group: string, schedulerName: string, cpu: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { [groupLabel]: group } },
  spec: { schedulerName, containers: [{ name: 'c', image: 'registry.example/worker:1', resources: { requests: { cpu } } }] },
});

describe('the Helm chart\'s Coscheduling under run against the pinned kube-apiserver', { skip: skip ?? false, timeout: 300_000 }, () => {
  let cp: ControlPlane;
  let scheduler: Child | undefined;
  let schedulerName = '';

  async function getPod(name: string): Promise<Pod> {
    const r = await cp.api('GET', `/api/v1/namespaces/default/pods/${name}`);
    if (r.status !== 200) throw new Error(`GET pod ${name}: ${r.status}`);
    return r.body as Pod;
  }

  before(async () => {
    cp = await ControlPlane.start();
    for (const name of ['node-a', 'node-b']) {
      await cp.create('/api/v1/nodes', node(name));
      // Admission taints a new node not-ready until its kubelet reports; there is no kubelet here.
      const r = await cp.api('PATCH', `/api/v1/nodes/${name}`, { spec: { taints: null } }, 'application/merge-patch+json');
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    // The CRD as the chart ships it (helm installs crds/ before the templates).
    const crd = parseYaml(readFileSync(join(chart, 'crds/scheduling.x-k8s.io_podgroups.yaml'), 'utf8')) as unknown;
    await cp.create('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    await eventually('the PodGroup CRD to be served', async () => ((await cp.api('GET', '/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/podgroups')).status === 200 ? true : undefined));

    const config = renderedConfig();
    schedulerName = ((config.profiles as { schedulerName: string }[])[0]!).schedulerName;
    const path = join(cp.dir, 'chart-config.yaml');
    writeFileSync(path, stringifyYaml({ ...config, clientConnection: { kubeconfig: cp.kubeconfig } }));
    scheduler = new Child('run', process.execPath, ['--import', 'tsx', join(root, 'src/cli/bin.ts'), 'run', '--config', path, '--secure-port', '0', '-v=2']);
  });

  after(async () => {
    await scheduler?.stop();
    await cp?.stop();
  });

  it('binds a gang of minMember that fits, all of it', async () => {
    assert.equal(schedulerName, 'scheduler-plugins-scheduler');
    await cp.create('/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/podgroups', podGroup('fits', 3));
    for (const name of ['fits-0', 'fits-1', 'fits-2']) await cp.create('/api/v1/namespaces/default/pods', member(name, 'fits', schedulerName, '1'));
    for (const name of ['fits-0', 'fits-1', 'fits-2']) {
      await eventually(`${name} to be bound`, async () => (await getPod(name)).spec.nodeName || undefined, 60_000).catch((err: Error) => {
        throw new Error(`${err.message}\n${scheduler?.tail(60) ?? ''}`);
      });
    }
  });

  it('holds a gang that cannot fit whole: no member binds, with Coscheduling\'s messages', async () => {
    // 3 cpu each: one per node at most, after the first gang's 3 cpu, so never 3 at once.
    await cp.create('/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/podgroups', podGroup('too-big', 3));
    const names = ['too-big-0', 'too-big-1', 'too-big-2'];
    for (const name of names) await cp.create('/api/v1/namespaces/default/pods', member(name, 'too-big', schedulerName, '3'));
    const messages = await eventually('every member marked unschedulable', async () => {
      const pods = await Promise.all(names.map(getPod));
      const conditions = pods.map((p) => p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False'));
      return conditions.every((c) => c !== undefined) ? conditions.map((c) => c!.message ?? '') : undefined;
    }, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${scheduler?.tail(60) ?? ''}`);
    });
    assert.ok(messages.some((m) => /PodGroup default\/too-big gets rejected due to Pod too-big-\d is unschedulable even after PostFilter/.test(m)), messages.join('\n'));
    // Past the chart's 10 s Permit wait: still none bound.
    await new Promise((r) => setTimeout(r, 12_000));
    for (const name of names) assert.equal((await getPod(name)).spec.nodeName, undefined, name);
    const fits = await Promise.all(['fits-0', 'fits-1', 'fits-2'].map(getPod));
    assert.ok(fits.every((p) => p.spec.nodeName), 'the first gang stays bound');
  });
});
