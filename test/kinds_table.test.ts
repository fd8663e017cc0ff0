// The kinds are declared once (src/api/kinds.ts): the lists the API server, the validation, the
// informers, the embedded store and the event handlers use agree with it, and no production file
// writes a list of kinds of its own (what does today is listed with its reason, and only shrinks).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clusterScopedKinds, kinds as declared, type KindInfo } from '../src/api/kinds.js';
import { kindValidation, knownKinds } from '../src/api/validation/index.js';
import { findResource, resources } from '../src/apiserver/resources.js';
import { watchedResourcesFor } from '../src/cluster/kube/resources.js';
import { importedResources } from '../src/cluster/kube/import.js';
import { MemoryCluster } from '../src/cluster/memory/store.js';
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
  it('declares each kind once, with a plural and a group/version', () => {
    const seen = new Set<string>();
    for (const k of kinds) {
      assert.ok(!seen.has(k.kind), `${k.kind} declared twice`);
      seen.add(k.kind);
      assert.match(k.plural, /^[a-z]+$/, k.kind);
      assert.match(k.apiVersion, /^([a-z0-9.]+\/)?v\d+((alpha|beta)\d+)?$/, k.kind);
    }
  });

  it('every kind is validated with its group/version and scope, and nothing else is', () => {
    for (const k of kinds) {
      const v = kindValidation(k.kind);
      assert.ok(v, `${k.kind} has no validation`);
      assert.equal(v.apiVersion, k.apiVersion, k.kind);
      assert.equal(v.namespaced, k.namespaced, k.kind);
    }
    assert.deepEqual([...knownKinds()].sort(), kinds.map((k) => k.kind).sort());
  });

  it('the API server serves every ungated kind under its plural, and the gated ones not at all', () => {
    for (const k of kinds) {
      const { group, version } = splitApiVersion(k.apiVersion);
      const r = findResource(group, version, k.plural);
      if (k.gate === 'GenericWorkload') {
        assert.equal(r, undefined, k.kind);
        continue;
      }
      assert.ok(r, `${k.kind} is not served`);
      assert.equal(r.kind, k.kind);
      assert.equal(r.namespaced, k.namespaced, k.kind);
    }
    // The one resource outside the table: events.k8s.io's view of the core Event.
    assert.deepEqual(resources.filter((r) => !kinds.some((k) => k.plural === r.name && k.kind === r.kind)).map((r) => `${r.group}/${r.name}`), []);
  });

  it('the informers watch the watched kinds in table order, gated ones only with their gate', () => {
    const all = watchedResourcesFor(() => true);
    assert.deepEqual(all.map((r) => r.kind), kinds.filter((k) => k.watched === true).map((k) => k.kind));
    for (const r of all) assert.ok(r.path.endsWith(`/${kindOf(r.kind).plural}`), r.path);
    const none = watchedResourcesFor(() => false).map((r) => r.kind);
    for (const k of kinds) if (k.gate !== undefined && k.watched === true) assert.ok(!none.includes(k.kind), k.kind);
    assert.equal(new Set(importedResources.map((r) => r.kind)).size, importedResources.length);
  });

  it('cluster-scoped kinds are exactly the table\'s', () => {
    assert.deepEqual([...clusterScopedKinds].sort(), kinds.filter((k) => !k.namespaced).map((k) => k.kind).sort());
  });

  it('the embedded cluster delivers its initial lists in the table\'s order, nodes before pods', async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(0) });
    cluster.create(makePod('p'));
    cluster.create(makeNode('n'));
    cluster.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
    cluster.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'x' } as never);
    const order: string[] = [];
    await cluster.start((e: WatchEvent) => order.push(e.kind));
    const rank = (kind: string) => kinds.findIndex((k) => k.kind === kind);
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

function kindOf(kind: string): KindInfo {
  const k = kinds.find((x) => x.kind === kind);
  assert.ok(k, kind);
  return k;
}
