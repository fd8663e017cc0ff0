// deploy/: the manifests hold a configuration `run` accepts and RBAC that grants what it uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { watchedResources } from '../src/cluster/kube/resources.js';
import { parseRunFlags, resolveRunConfiguration } from '../src/cli/commands/run.js';
import { inTreeRegistry } from '../src/plugins/registry.js';

const registry = inTreeRegistry();
const deployDir = join(dirname(fileURLToPath(import.meta.url)), '../deploy');

test('deploy/: the ConfigMap holds a valid configuration with a second profile and its own lease', () => {
  const cm = parseYaml(readFileSync(join(deployDir, 'config.yaml'), 'utf8')) as { data: Record<string, string> };
  const dir = mkdtempSync(join(tmpdir(), 'kst-cfg-'));
  writeFileSync(join(dir, 'config.yaml'), cm.data['config.yaml']!);
  const cfg = resolveRunConfiguration(parseRunFlags(['--config', join(dir, 'config.yaml')]), registry);
  assert.deepEqual(cfg.profiles.map((p) => p.schedulerName), ['kube-scheduler-ts', 'kube-scheduler-ts-binpack']);
  assert.equal(cfg.leaderElection.leaderElect, true);
  assert.equal(cfg.leaderElection.resourceName, 'kube-scheduler-ts');
  const deployment = parseYaml(readFileSync(join(deployDir, 'deployment.yaml'), 'utf8')) as { spec: { replicas: number } };
  assert.equal(deployment.spec.replicas, 2);
});

test('deploy/: the ClusterRoles grant what run uses, and nothing upstream does not grant', () => {
  type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
  const docs = parseAllDocuments(readFileSync(join(deployDir, 'rbac.yaml'), 'utf8')).map((d) => d.toJSON() as { kind: string; metadata: { name: string }; rules?: Rule[] });
  const rules = docs.filter((d) => d.kind === 'ClusterRole').flatMap((d) => d.rules ?? []);
  const allows = (group: string, resource: string, verb: string, name?: string) =>
    rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb) && (!r.resourceNames || (name !== undefined && r.resourceNames.includes(name))));
  for (const spec of watchedResources) {
    const group = spec.apiVersion.includes('/') ? spec.apiVersion.split('/')[0]! : '';
    const plural = spec.path.split('/').at(-1)!;
    for (const verb of ['list', 'watch']) assert.ok(allows(group, plural, verb), `${verb} ${plural}`);
  }
  assert.ok(allows('', 'pods/binding', 'create'));
  assert.ok(allows('', 'pods/status', 'patch'));
  assert.ok(allows('', 'pods', 'delete'));
  assert.ok(allows('events.k8s.io', 'events', 'create'));
  assert.ok(allows('coordination.k8s.io', 'leases', 'create'));
  for (const verb of ['get', 'update']) assert.ok(allows('coordination.k8s.io', 'leases', verb, 'kube-scheduler-ts'), `${verb} lease`);
  assert.ok(!allows('coordination.k8s.io', 'leases', 'get', 'kube-scheduler'), 'not the default scheduler\'s lease');
  assert.ok(!rules.some((r) => r.verbs.includes('*') || r.resources.includes('*')), 'no wildcards');
});
