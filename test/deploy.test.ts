// deploy/: the manifests hold a configuration and plugins `run` accepts, and RBAC that grants what
// it uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { importedResources } from '../src/cluster/kube/import.js';
import { resourceSpec, watchedResourcesFor, type ResourceSpec } from '../src/cluster/kube/resources.js';
import { coscheduling } from '../src/outoftree/coscheduling/index.js';
import { DefaultSchedulerPort, parseRunFlags, resolveRunConfiguration } from '../src/cli/commands/run_flags.js';
import { registryWithPlugins } from '../src/cli/plugins.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const deployDir = join(root, 'deploy');

type Probe = { httpGet: { path: string; port: number; scheme: string } };
interface Deployment {
  spec: {
    replicas: number;
    template: {
      spec: {
        containers: ({ args: string[]; volumeMounts: { name: string; mountPath: string }[] } & Record<'livenessProbe' | 'readinessProbe' | 'startupProbe', Probe>)[];
        volumes: { name: string; configMap?: { name: string } }[];
      };
    };
  };
}

const manifest = <T>(file: string): T => parseYaml(readFileSync(join(deployDir, file), 'utf8')) as T;
const deployment = manifest<Deployment>('deployment.yaml');
const container = deployment.spec.template.spec.containers[0]!;
const runFlags = parseRunFlags(container.args.slice(1));
const pluginModules = manifest<{ metadata: { name: string }; data: Record<string, string> }>('plugins.yaml');
const needsBuild = existsSync(join(root, 'dist/index.js')) ? false : 'the plugin imports the built package (npm ci builds it)';

test('deploy/: the Deployment runs two replicas probed over HTTPS on the secure port', () => {
  assert.equal(container.args[0], 'run');
  assert.equal(deployment.spec.replicas, 2);
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    assert.equal(container[probe].httpGet.scheme, 'HTTPS', probe);
    assert.equal(container[probe].httpGet.port, DefaultSchedulerPort, probe);
  }
  assert.deepEqual([container.livenessProbe.httpGet.path, container.readinessProbe.httpGet.path], ['/healthz', '/readyz']);
  assert.equal(runFlags.securePort, DefaultSchedulerPort);
});

test('deploy/: the Deployment loads every plugin module of plugins.yaml from its mount', () => {
  const volume = deployment.spec.template.spec.volumes.find((v) => v.configMap?.name === pluginModules.metadata.name)!;
  const mount = container.volumeMounts.find((m) => m.name === volume.name)!;
  assert.deepEqual(runFlags.plugins, Object.keys(pluginModules.data).map((file) => `${mount.mountPath}/${file}`));
  // Inside the package (the image's WORKDIR), so the modules' `import ... from 'kube-scheduler-ts'` resolves.
  assert.ok(mount.mountPath.startsWith('/app/'), mount.mountPath);
});

test('deploy/: plugins.yaml ships examples/avoid-zone.ts as it is', () => {
  assert.equal(pluginModules.data['avoid-zone.ts'], readFileSync(join(root, 'examples/avoid-zone.ts'), 'utf8'));
});

test('deploy/: the ConfigMap holds a valid configuration with three profiles and its own lease', { skip: needsBuild }, async () => {
  const cm = manifest<{ data: Record<string, string> }>('config.yaml');
  const dir = mkdtempSync(join(tmpdir(), 'kst-cfg-'));
  writeFileSync(join(dir, 'config.yaml'), cm.data['config.yaml']!);
  const registry = await registryWithPlugins([join(root, 'examples/avoid-zone.ts')]);
  const cfg = resolveRunConfiguration({ ...runFlags, config: join(dir, 'config.yaml') }, registry);
  assert.deepEqual(cfg.profiles.map((p) => p.schedulerName), ['kube-scheduler-ts', 'kube-scheduler-ts-binpack', 'kube-scheduler-ts-avoid-zone']);
  assert.deepEqual(cfg.profiles[2]!.pluginConfig.find((c) => c.name === 'AvoidZone')?.args, { zone: 'zone-c' });
  assert.equal(cfg.leaderElection.leaderElect, true);
  assert.equal(cfg.leaderElection.resourceName, 'kube-scheduler-ts');
});

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
const rbacDocs = parseAllDocuments(readFileSync(join(deployDir, 'rbac.yaml'), 'utf8')).map((d) => d.toJSON() as { kind: string; metadata: { name: string }; rules?: Rule[]; roleRef?: { name: string } });
const clusterRoleRules = (names: readonly string[]): Rule[] => rbacDocs.filter((d) => d.kind === 'ClusterRole' && names.includes(d.metadata.name)).flatMap((d) => d.rules ?? []);
const allowedBy = (rules: readonly Rule[]) => (group: string, resource: string, verb: string, name?: string) =>
  rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb) && (!r.resourceNames || (name !== undefined && r.resourceNames.includes(name))));
const groupAndPlural = (spec: ResourceSpec): [string, string] => [spec.apiVersion.includes('/') ? spec.apiVersion.split('/')[0]! : '', spec.path.split('/').at(-1)!];

test('deploy/: the ClusterRoles grant what run uses, and nothing upstream does not grant', () => {
  // The roles the scheduler's ServiceAccount is bound to (the import role is for people, not for run).
  const boundRoles = rbacDocs.filter((d) => d.kind === 'ClusterRoleBinding').map((d) => d.roleRef!.name);
  const rules = clusterRoleRules(boundRoles);
  const allows = allowedBy(rules);
  assert.ok(!boundRoles.includes('kube-scheduler-ts-import'), 'the scheduler is not bound to the import role');
  // Every gate's informers, and those of the shipped plugins (Coscheduling's PodGroups).
  for (const spec of [...watchedResourcesFor(() => true), ...(coscheduling.watches ?? []).map((key) => resourceSpec(key))]) {
    const [group, plural] = groupAndPlural(spec);
    for (const verb of ['list', 'watch']) assert.ok(allows(group, plural, verb), `${verb} ${plural}.${group}`);
  }
  assert.ok(allows('', 'pods/binding', 'create'));
  assert.ok(allows('', 'pods/status', 'patch'));
  assert.ok(allows('resource.k8s.io', 'resourceclaims/status', 'update'), 'DRA PreBind writes claim status');
  assert.ok(allows('resource.k8s.io', 'resourceclaims', 'update'), 'DRA PreBind adds the finalizer');
  assert.ok(allows('', 'pods', 'delete'));
  assert.ok(allows('events.k8s.io', 'events', 'create'));
  assert.ok(allows('coordination.k8s.io', 'leases', 'create'));
  for (const verb of ['get', 'update']) assert.ok(allows('coordination.k8s.io', 'leases', verb, 'kube-scheduler-ts'), `${verb} lease`);
  assert.ok(!allows('coordination.k8s.io', 'leases', 'get', 'kube-scheduler'), 'not the default scheduler\'s lease');
  assert.ok(!rules.some((r) => r.verbs.includes('*') || r.resources.includes('*')), 'no wildcards');
  // Delegated authentication and authorization of the secure endpoints, through the cluster's own roles.
  type Binding = { kind: string; metadata: { namespace?: string }; roleRef: { kind: string; name: string }; subjects: { name: string; namespace: string }[] };
  const bindings = rbacDocs.filter((d) => d.kind.endsWith('Binding')) as unknown as Binding[];
  const bound = (kind: string, role: string, namespace?: string) =>
    bindings.some((b) => b.roleRef.kind === kind && b.roleRef.name === role && b.metadata.namespace === namespace && b.subjects.some((s) => s.name === 'kube-scheduler-ts' && s.namespace === 'kube-system'));
  assert.ok(bound('ClusterRole', 'system:auth-delegator'));
  assert.ok(bound('Role', 'extension-apiserver-authentication-reader', 'kube-system'));
});

test('deploy/: the import ClusterRole lets snapshot and --from-cluster list every kind they import, and only read', () => {
  const rules = clusterRoleRules(['kube-scheduler-ts-import']);
  const allows = allowedBy(rules);
  for (const spec of importedResources) {
    const [group, plural] = groupAndPlural(spec);
    for (const verb of ['get', 'list']) assert.ok(allows(group, plural, verb), `${verb} ${plural}.${group}`);
  }
  assert.ok(rules.length > 0);
  for (const r of rules) assert.deepEqual([...r.verbs].sort(), ['get', 'list'], `read-only: ${r.resources.join(',')}`);
  // Nothing beyond what the import reads, so the role cannot drift into granting more.
  const imported = new Set(importedResources.map((spec) => groupAndPlural(spec).join('/')));
  for (const r of rules) for (const g of r.apiGroups) for (const res of r.resources) assert.ok(imported.has(`${g}/${res}`), `${res}.${g} is not imported`);
});
