// The kinds are declared once (src/api/kinds.ts): the lists the API server, the validation, the
// informers, the embedded store and the event handlers use agree with it, and no production file
// writes a list of kinds of its own (what does today is listed with its reason, and only shrinks).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clusterScopedKinds, kindGatesOffByDefault, kindKey, kindKeyOf, kinds as declared, type KindInfo } from '../src/api/kinds.js';
import { featureSpecs } from '../src/api/feature_gate_specs.js';
import { kindValidation, knownKinds } from '../src/api/validation/index.js';
import { findResource, resources, resourcesFor } from '../src/apiserver/resources.js';
import { watchedResourcesFor } from '../src/cluster/kube/resources.js';
import { importedResources } from '../src/cluster/kube/import.js';
import { MemoryCluster } from '../src/cluster/memory/store.js';
import { MapObjectLister } from '../src/framework/object_lister.js';
import { scenarioFromDocuments } from '../src/sim/scenario/scenario.js';
import type { WatchEvent } from '../src/cluster/types.js';
import { makeNode, makePod } from '../src/testing/index.js';
import { FakeClock } from '../src/util/clock.js';

const kinds: readonly KindInfo[] = declared;
const srcDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** Lines of production code naming at least this many kinds of the table are lists of kinds. */
const listThreshold = 4;

/** Lists of kinds that are not the table's concern, by file and with the reason. */
const allowedLists: Record<string, string> = {
  'api/validation/workloads.ts': 'the apps/v1 workloads whose pod template validation is shared',
  'sim/scenario/whatif_steps.ts': 'the controllers a what-if step can scale, a choice of the step',
  'sim/scenario/idle_workloads.ts': 'the controllers whose pods a simulation leaves alone',
  'cluster/memory/controllers/disruption.ts': "the disruption controller's scale owners (upstream's finders)",
  'plugins/nodevolumelimits/node_volumes.ts': 'the kinds a node\'s volume count is resolved through, a fact of the plugin',
};

function productionFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...productionFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'test_helpers.ts') out.push(p);
  }
  return out;
}

describe('the kinds table', () => {
  it('declares each group and kind once, with a plural and a group/version', () => {
    const seen = new Set<string>();
    for (const k of kinds) {
      const groupKind = `${splitApiVersion(k.apiVersion).group} ${k.kind}`;
      assert.ok(!seen.has(groupKind), `${groupKind} declared twice`);
      seen.add(groupKind);
      assert.match(k.plural, /^[a-z]+$/, k.kind);
      assert.match(k.apiVersion, /^([a-z0-9.-]+\/)?v\d+((alpha|beta)\d+)?$/, k.kind);
    }
  });

  it('every kind is validated with its group/version and scope, and nothing else is', () => {
    for (const k of kinds) {
      const v = kindValidation(kindKey(k));
      assert.ok(v, `${k.kind} has no validation`);
      assert.equal(v.kind, k.kind);
      assert.equal(v.apiVersion, k.apiVersion, k.kind);
      assert.equal(v.namespaced, k.namespaced, k.kind);
    }
    assert.deepEqual([...knownKinds()].sort(), kinds.map((k) => kindKey(k)).sort());
  });

  it('a kind\'s gate is one of the pinned release\'s, and the gates off by default are read from that table', () => {
    for (const k of kinds) if (k.gate !== undefined) assert.ok(featureSpecs[k.gate], `${k.kind}: ${k.gate} is not a gate of the pinned release`);
    // v1.37.2: GenericWorkload is beta and off, CompositePodGroup alpha, DRADeviceTaintRules beta and on.
    assert.deepEqual([...kindGatesOffByDefault].sort(), ['CompositePodGroup', 'GenericWorkload']);
  });

  it('the API server serves every kind whose gate is on by default under its plural, and the gated ones not at all', () => {
    for (const k of kinds) {
      const { group, version } = splitApiVersion(k.apiVersion);
      const r = findResource(group, version, k.plural);
      if (k.gate !== undefined && kindGatesOffByDefault.has(k.gate)) {
        assert.equal(r, undefined, k.kind);
        assert.equal(findResource(group, version, k.plural, resourcesFor(() => true))?.storeKind, kindKey(k), `${k.kind} is not served with its gate on`);
        continue;
      }
      assert.ok(r, `${k.kind} is not served`);
      assert.equal(r.kind, k.kind);
      assert.equal(r.storeKind, kindKey(k));
      assert.equal(r.namespaced, k.namespaced, k.kind);
    }
    // The one resource outside the table: events.k8s.io's view of the core Event.
    assert.deepEqual(resources.filter((r) => !kinds.some((k) => k.plural === r.name && kindKey(k) === r.storeKind)).map((r) => `${r.group}/${r.name}`), []);
  });

  it('the informers watch the watched kinds in table order, gated ones only with their gate', () => {
    const all = watchedResourcesFor(() => true);
    assert.deepEqual(all.map((r) => r.key), kinds.filter((k) => k.watched === true).map((k) => kindKey(k)));
    for (const r of all) assert.ok(r.path.endsWith(`/${kindOf(r.key).plural}`), r.path);
    const none = watchedResourcesFor(() => false).map((r) => r.key);
    for (const k of kinds) if (k.gate !== undefined && k.watched === true) assert.ok(!none.includes(kindKey(k)), k.kind);
    assert.equal(new Set(importedResources.map((r) => r.key)).size, importedResources.length);
  });

  it('cluster-scoped kinds are exactly the table\'s', () => {
    assert.deepEqual([...clusterScopedKinds].sort(), kinds.filter((k) => !k.namespaced).map((k) => kindKey(k)).sort());
  });

  it('the embedded cluster delivers its initial lists in the table\'s order, nodes before pods', async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(0) });
    cluster.create(makePod('p'));
    cluster.create(makeNode('n'));
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
    cluster.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'x' } as never);
    const order: string[] = [];
    await cluster.start((e: WatchEvent) => order.push(e.kind));
    const rank = (key: string) => kinds.findIndex((k) => kindKey(k) === key);
    const ranks = order.map(rank);
    assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), order.join(' '));
    assert.ok(order.indexOf('Node') < order.indexOf('Pod'));
  });

  it('no production file writes a list of kinds of its own', () => {
    const names = new Set<string>(kinds.map((k) => k.kind));
    const found = new Set<string>();
    for (const file of productionFiles(srcDir)) {
      const rel = relative(srcDir, file).split('\\').join('/');
      if (rel === 'api/kinds.ts') continue;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const quoted = new Set<string>();
        for (const m of line.matchAll(/'([A-Za-z]+)'/g)) if (names.has(m[1]!)) quoted.add(m[1]!);
        if (quoted.size < listThreshold) continue;
        assert.ok(rel in allowedLists, `${rel} lists kinds (${[...quoted].join(', ')}): derive it from src/api/kinds.ts`);
        found.add(rel);
      }
    }
    assert.deepEqual([...found].sort(), Object.keys(allowedLists).sort(), 'an allowed list no longer exists: remove it from allowedLists');
  });
});

describe('kinds keyed by group and kind', () => {
  const gangGroup = { apiVersion: 'scheduling.x-k8s.io/v1alpha1', kind: 'PodGroup', metadata: { name: 'g', namespace: 'ns' }, spec: { minMember: 2 } };
  const workloadGroup = { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'g', namespace: 'ns' }, spec: { schedulingPolicy: { basic: {} } } };

  it('keys Kubernetes\' own kinds by name and custom resources by Kind.group', () => {
    const cases: { apiVersion?: string; kind: string; want: string }[] = [
      { apiVersion: 'v1', kind: 'Pod', want: 'Pod' },
      { kind: 'Pod', want: 'Pod' },
      { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', want: 'PodGroup' },
      { kind: 'PodGroup', want: 'PodGroup' },
      { apiVersion: 'scheduling.x-k8s.io/v1alpha1', kind: 'PodGroup', want: 'PodGroup.scheduling.x-k8s.io' },
      // Another version of the same group is the same kind.
      { apiVersion: 'scheduling.x-k8s.io/v1beta9', kind: 'PodGroup', want: 'PodGroup.scheduling.x-k8s.io' },
      { kind: 'PodGroup.scheduling.x-k8s.io', want: 'PodGroup.scheduling.x-k8s.io' },
    ];
    for (const c of cases) assert.equal(kindKeyOf(c), c.want, JSON.stringify(c));
  });

  it('the embedded store keeps both PodGroups under their own keys', async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(0) });
    cluster.create(gangGroup as never);
    cluster.create(workloadGroup as never);
    assert.deepEqual(cluster.list('PodGroup').map((o) => o.apiVersion), ['scheduling.k8s.io/v1beta1']);
    assert.deepEqual(cluster.list('PodGroup.scheduling.x-k8s.io').map((o) => o.apiVersion), ['scheduling.x-k8s.io/v1alpha1']);
    assert.equal(cluster.get('PodGroup.scheduling.x-k8s.io', 'ns', 'g')?.apiVersion, 'scheduling.x-k8s.io/v1alpha1');
    const seen: string[] = [];
    await cluster.start((e: WatchEvent) => seen.push(e.kind));
    assert.deepEqual(seen.filter((k) => k.startsWith('PodGroup')).sort(), ['PodGroup', 'PodGroup.scheduling.x-k8s.io']);
    assert.ok(cluster.remove('PodGroup.scheduling.x-k8s.io', 'ns', 'g'));
    assert.equal(cluster.list('PodGroup').length, 1);
  });

  it('the object lister files an object under its key', () => {
    const lister = new MapObjectLister([gangGroup as never]);
    assert.equal(lister.get('PodGroup.scheduling.x-k8s.io', 'ns', 'g')?.apiVersion, 'scheduling.x-k8s.io/v1alpha1');
  });

  it('a scenario holds both, each validated as its own kind', () => {
    const sc = scenarioFromDocuments([{ objects: [gangGroup, workloadGroup] }], 'two-podgroups');
    assert.deepEqual(sc.objects.map((o) => `${kindKeyOf(o)} ${o.kind}`), ['PodGroup.scheduling.x-k8s.io PodGroup', 'PodGroup PodGroup']);
    // A step names the custom resource by its apiVersion and kind, or by its key.
    const steps = scenarioFromDocuments([{ objects: [gangGroup, workloadGroup], steps: [
      { after: '1s', update: [{ ...gangGroup, spec: { minMember: 3 } }] },
      { after: '1s', delete: [{ apiVersion: 'scheduling.x-k8s.io/v1alpha1', kind: 'PodGroup', namespace: 'ns', name: 'g' }] },
      { after: '1s', create: [gangGroup] },
      { after: '1s', delete: [{ kind: 'PodGroup.scheduling.x-k8s.io', namespace: 'ns', name: 'g' }, { kind: 'PodGroup', namespace: 'ns', name: 'g' }] },
    ] }], 'steps').steps;
    assert.deepEqual(steps.map((st) => st.delete.map((d) => d.kind)), [[], ['PodGroup.scheduling.x-k8s.io'], [], ['PodGroup.scheduling.x-k8s.io', 'PodGroup']]);
    assert.throws(() => scenarioFromDocuments([{ objects: [{ ...gangGroup, spec: { minMember: 0 } }] }], 'bad'),
      /spec\.minMember: Invalid value: 0: spec\.minMember in body should be greater than or equal to 1/);
  });
});

function kindOf(key: string): KindInfo {
  const k = kinds.find((x) => kindKey(x) === key);
  assert.ok(k, key);
  return k;
}
