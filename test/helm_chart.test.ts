// deploy/charts/kube-scheduler-ts rendered by `helm template` (built by `npm run upstream:helm`,
// or $HELM): a second scheduler with Coscheduling, its RBAC and the PodGroup CRD. Skips without helm.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { configFromObject } from '../src/config/index.js';
import { inTreeRegistry } from '../src/plugins/registry.js';
import { Registry } from '../src/framework/registry.js';
import { coschedulingDefinition } from '../src/outoftree/coscheduling/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const chart = join(root, 'deploy/charts/kube-scheduler-ts');
const helm = process.env.HELM ?? join(root, 'upstream/bin/helm');
const skip = existsSync(helm) ? false : `no helm at ${helm} (npm run upstream:helm)`;

interface Obj {
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  rules?: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
  spec?: {
    replicas?: number;
    template?: { spec: { containers: { args: string[]; volumeMounts: { name: string; mountPath: string }[] }[]; volumes: { name: string; configMap: { name: string } }[] } };
  };
}

function render(...extra: string[]): Obj[] {
  const out = execFileSync(helm, ['template', 'sched', chart, '--namespace', 'scheduler-plugins', '--include-crds', ...extra], { encoding: 'utf8' });
  return parseAllDocuments(out).map((d) => d.toJSON() as Obj).filter((o) => o !== null);
}
const find = (objs: Obj[], kind: string, name: string): Obj => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  assert.ok(o, `${kind} ${name} rendered`);
  return o;
};

describe('deploy/charts/kube-scheduler-ts', { skip }, () => {
  it('passes helm lint', () => {
    const out = execFileSync(helm, ['lint', chart], { encoding: 'utf8' });
    assert.match(out, /1 chart\(s\) linted, 0 chart\(s\) failed/);
  });

  it('renders a second scheduler, its RBAC, its configuration and the PodGroup CRD', () => {
    const objs = render();
    assert.deepEqual(objs.map((o) => `${o.kind}/${o.metadata.name}`).sort(), [
      'ClusterRole/sched', 'ClusterRole/sched-volume', 'ClusterRoleBinding/sched', 'ClusterRoleBinding/sched-volume', 'ClusterRoleBinding/sched:auth-delegator',
      'ConfigMap/sched', 'CustomResourceDefinition/podgroups.scheduling.x-k8s.io', 'Deployment/sched', 'RoleBinding/sched:extension-apiserver-authentication-reader',
      'ServiceAccount/sched',
    ]);
    const args = find(objs, 'Deployment', 'sched').spec!.template!.spec.containers[0]!.args;
    assert.deepEqual(args.slice(0, 2), ['run', '--config=/etc/kube-scheduler-ts/config.yaml']);
    assert.ok(!args.some((a) => a.startsWith('--plugins')), 'no plugin modules by default');
  });

  it("the configuration is one profile with Coscheduling at multiPoint and its args, valid for run's loader", () => {
    const cfg = parseYaml(find(render(), 'ConfigMap', 'sched').data!['config.yaml']!) as Record<string, unknown>;
    const registry = inTreeRegistry().merge(new Registry([coschedulingDefinition(() => ({ podGroup: () => undefined, memberPods: () => [] }))]));
    const loaded = configFromObject(cfg, 'chart config', registry);
    assert.equal(loaded.profiles.length, 1);
    const profile = loaded.profiles[0]!;
    assert.equal(profile.schedulerName, 'scheduler-plugins-scheduler');
    const multiPoint = profile.plugins.multiPoint.enabled.map((p) => p.name);
    assert.ok(multiPoint.includes('Coscheduling'), 'Coscheduling at multiPoint');
    assert.ok(!multiPoint.includes('PrioritySort'), 'PrioritySort disabled: one QueueSort plugin');
    assert.deepEqual(profile.pluginConfig.find((p) => p.name === 'Coscheduling')?.args, { permitWaitingTimeSeconds: 10, podGroupBackoffSeconds: 0 });
  });

  it('grants the PodGroups of scheduling.x-k8s.io and the release-named Lease', () => {
    const rules = find(render(), 'ClusterRole', 'sched').rules!;
    const grants = (group: string, resource: string) => rules.filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource)).flatMap((r) => r.verbs).sort();
    assert.deepEqual(grants('scheduling.x-k8s.io', 'podgroups'), ['get', 'list', 'watch']);
    assert.deepEqual(grants('scheduling.x-k8s.io', 'podgroups/status'), ['patch', 'update']);
    assert.ok(rules.some((r) => r.resources.includes('leases') && (r as { resourceNames?: string[] }).resourceNames?.includes('sched')));
  });

  it('mounts each plugin module of the values and loads it with --plugins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chart-'));
    const values = join(dir, 'values.yaml');
    writeFileSync(values, 'pluginModules:\n  my-plugin.ts: |\n    export const plugins = [];\nscheduler:\n  replicaCount: 2\n  leaderElect: true\n');
    const objs = render('-f', values);
    const deployment = find(objs, 'Deployment', 'sched');
    const pod = deployment.spec!.template!.spec;
    assert.equal(deployment.spec!.replicas, 2);
    assert.ok(pod.containers[0]!.args.includes('--plugins=/app/plugins/my-plugin.ts'));
    assert.deepEqual(pod.containers[0]!.volumeMounts.find((m) => m.name === 'plugins')?.mountPath, '/app/plugins');
    assert.equal(pod.volumes.find((v) => v.name === 'plugins')?.configMap.name, 'sched-plugins');
    assert.equal(find(objs, 'ConfigMap', 'sched-plugins').data!['my-plugin.ts'], 'export const plugins = [];\n');
    const cfg = parseYaml(find(objs, 'ConfigMap', 'sched').data!['config.yaml']!) as { leaderElection: { leaderElect: boolean; resourceName: string } };
    assert.deepEqual(cfg.leaderElection, { leaderElect: true, resourceName: 'sched', resourceNamespace: 'scheduler-plugins' });
  });
});
