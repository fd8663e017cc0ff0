// Seeded fuzzing of every entry for bad input: the scenario loader, the configuration loader, the
// embedded API server, and the scheduler itself for objects that skipped validation. Valid objects
// are mutated (wrong types, nulls, huge and negative numbers, bad quantities, deep nesting,
// unknown enum values, duplicate names, bad escapes); each case must end in a clear error
// (ScenarioError / ConfigError with a field path, a 4xx Status with causes) or a pod-level message,
// never JavaScript error text, a 500 or a hang, with nothing stored on rejection and the valid pods
// of the same run still scheduled. Bounded in cases and in wall time.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../src/api/types.js';
import { MemoryCluster } from '../src/cluster/memory/store.js';
import { admitPod } from '../src/cluster/memory/admission.js';
import { ConfigError, defaultConfiguration, parseConfig } from '../src/config/index.js';
import { ApiServer } from '../src/apiserver/server.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../src/plugins/registry.js';
import { parseScenario, scenarioFromDocuments, ScenarioError, type Scenario } from '../src/sim/scenario/scenario.js';
import { runSimulation } from '../src/sim/simulate/simulate.js';
import { FakeClock, seededRandom } from '../src/util/clock.js';
import { BadInputError } from '../src/util/bad_input.js';

/** JavaScript's own error texts: never what a user should read about their input. */
const jsErrorText = /TypeError|ReferenceError|RangeError|Cannot read propert|Cannot set propert|is not a function|is not iterable|undefined|NaN|invalid score|Maximum call stack/;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A deterministic stream of choices. */
class Dice {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRandom(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}

function deepList(depth: number): Json {
  let v: Json = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Values a mutation puts somewhere: wrong types, extremes, bad quantities and enums, nesting. */
const badValues: readonly Json[] = [
  null, 5, -1, 0, 1.5, 1e308, -1e308, 2 ** 63, '', 'x', 'Sometimes', '4x', '1.2.3', '-1', '-500m', 'many', '.inf', true, false, {}, [], [null], [5],
  { a: 1 }, 'a'.repeat(300), deepList(150), { matchLabels: { 'bad key!': 'v' } }, [{}], 'Ñ%', '100m', '1e400',
];

/** Every path to a value inside `v`, the root excluded. */
function paths(v: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(v)) v.forEach((x, i) => { out.push([...at, i]); paths(x, [...at, i], out); });
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) { out.push([...at, k]); paths(v[k]!, [...at, k], out); }
  return out;
}

/** A copy of `v` with one change: a value replaced, a field dropped, a null inserted into a list. */
function mutate(v: Json, dice: Dice, within: (p: (string | number)[]) => boolean = () => true): Json {
  const copy = structuredClone(v);
  const candidates = paths(copy).filter(within);
  if (candidates.length === 0) return copy;
  const path = dice.pick(candidates);
  let parent: Json = copy;
  for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[step]!;
  const last = path[path.length - 1]!;
  const container = parent as Record<string | number, Json>;
  switch (dice.int(4)) {
    case 0:
      if (Array.isArray(container)) container.splice(Number(last), 0, null);
      else delete container[last];
      break;
    case 1: {
      // A second copy of a list entry: duplicate names, duplicate taints, duplicate constraints.
      const entry = container[last]!;
      if (Array.isArray(entry) && entry.length > 0) entry.push(structuredClone(entry[0]!));
      else container[last] = dice.pick(badValues);
      break;
    }
    default:
      container[last] = structuredClone(dice.pick(badValues));
  }
  return copy;
}

const goodNode: Json = { metadata: { name: 'good-node', labels: { 'topology.kubernetes.io/zone': 'a' } }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '10' } } };
const goodPod: Json = { metadata: { name: 'good', labels: { app: 'good' } }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] } };

/** Objects rich in what the scheduler reads, for mutations to land in. */
const richNode: Json = {
  metadata: { name: 'rich-node', labels: { 'topology.kubernetes.io/zone': 'b', disk: 'ssd' } },
  spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], unschedulable: false },
  status: { allocatable: { cpu: '8', memory: '16Gi', pods: '20', 'example.com/gpu': '2' }, images: [{ names: ['img:1'], sizeBytes: 1000 }] },
};
const richPod: Json = {
  metadata: { name: 'rich', labels: { app: 'rich', tier: 'web' } },
  spec: {
    priorityClassName: 'high',
    containers: [{ name: 'c', image: 'img:1', ports: [{ containerPort: 80, hostPort: 8080 }], resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '2Gi' } } }],
    nodeSelector: { disk: 'ssd' },
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
    affinity: {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a', 'b'] }] }] },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } }] },
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'rich' } } }] },
    },
    topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { tier: 'web' } } }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'claim' } }],
  },
};
const objects: Json[] = [
  { kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
  { kind: 'StorageClass', metadata: { name: 'fast' }, provisioner: 'example.com/csi', volumeBindingMode: 'WaitForFirstConsumer' },
  { kind: 'PersistentVolumeClaim', metadata: { name: 'claim' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } } },
  { kind: 'PodDisruptionBudget', metadata: { name: 'budget' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'rich' } } } },
];
const baseScenario: Json = { nodes: [goodNode, richNode], pending: [goodPod, richPod], objects };

describe('bad input fuzzing', { timeout: 60_000 }, () => {
  const registry = inTreeRegistry();
  const config = defaultConfiguration(registry);
  const simulate = (sc: Scenario) => runSimulation(sc, { config, registry, notYetAvailable: notYetAvailablePlugins, seed: 1, admitPod });

  it('the scenario loader answers every mutation with a clear error or a run where the valid pod schedules', async () => {
    const dice = new Dice(7);
    let refused = 0;
    let ran = 0;
    // The first node and pod stay as they are, so the valid pod has somewhere to go.
    const notTheGoodOnes = (p: (string | number)[]) => !(p.length <= 2 && (p[0] === 'nodes' || p[0] === 'pending') && (p.length === 1 || p[1] === 0))
      && !((p[0] === 'nodes' || p[0] === 'pending') && p[1] === 0);
    for (let i = 0; i < 150; i++) {
      // The document as JSON would give it: the mutations are of values, and a YAML parse of
      // each text cost more than the loader's checks (YAML syntax has tests of its own).
      const document = JSON.parse(JSON.stringify(mutate(baseScenario, dice, notTheGoodOnes))) as unknown;
      let sc: Scenario;
      try {
        sc = scenarioFromDocuments([document], 'fuzz.yaml');
      } catch (err) {
        assert.ok(err instanceof ScenarioError, `case ${i}: ${String(err)}`);
        assert.match(err.message, /^fuzz\.yaml: /, `case ${i}`);
        assert.doesNotMatch(err.message, jsErrorText, `case ${i}: ${err.message}`);
        assert.doesNotMatch(err.message, /\n/, `case ${i}`);
        refused++;
        continue;
      }
      // Accepted: a cluster would have taken it; a few of them are run (runs cost more than parses).
      if (ran >= 10) continue;
      ran++;
      const report = await simulate(sc);
      const good = report.pods.find((p) => p.pod === 'default/good');
      assert.equal(good?.outcome, 'Scheduled', `case ${i}: ${good?.message}`);
      for (const p of report.pods) assert.doesNotMatch(p.message, jsErrorText, `case ${i}: ${p.pod}: ${p.message}`);
    }
    assert.ok(refused > 50, `enough mutations refused (${refused})`);
    assert.ok(ran > 0, 'some mutations accepted and run');
  });

  it('the scenario loader refuses a misspelt field at any depth, naming its path, unless it is a map key', () => {
    // Keys of these fields are data (label names, resource names), not field names.
    const maps = new Set(['labels', 'matchLabels', 'requests', 'limits', 'allocatable', 'nodeSelector']);
    let refused = 0;
    for (const path of paths(baseScenario)) {
      const last = path[path.length - 1];
      // Without its kind an object is refused for that, before its fields are read.
      if (typeof last !== 'string' || path.length < 3 || last === 'kind') continue;
      const copy = structuredClone(baseScenario);
      let parent: Json = copy;
      for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[step]!;
      const obj = parent as Record<string, Json>;
      obj[`${last}x`] = obj[last]!;
      delete obj[last];
      const fieldPath = path.slice(2).map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('') + 'x';
      const underMap = maps.has(String(path[path.length - 2]));
      try {
        scenarioFromDocuments([copy], 'fuzz.yaml');
        assert.ok(underMap, `${fieldPath}: accepted`);
      } catch (err) {
        assert.ok(err instanceof ScenarioError, String(err));
        if (underMap) continue;
        assert.match(err.message, new RegExp(`^fuzz\\.yaml: \\w+\\[\\d\\] \\(\\w+( [^)]*)?\\): strict decoding error: unknown field ${JSON.stringify(fieldPath).replace(/[.[\]]/g, '\\$&')}$`));
        refused++;
      }
    }
    assert.ok(refused > 50, `enough misspellings refused (${refused})`);
  });

  it('objects that skipped validation leave the other pods and nodes alone', async () => {
    const dice = new Dice(11);
    for (let i = 0; i < 20; i++) {
      // Mutations inside spec and status only: a real API server never sends other shapes. A
      // node's quantities stay: the cache refuses such nodes (cache.test.ts), but simulate's
      // allocation report reads every node's quantities itself.
      const inside = (p: (string | number)[]) => (p[0] === 'spec' || p[0] === 'status') && p.length > 1;
      const nodeInside = (p: (string | number)[]) => inside(p) && p[1] !== 'allocatable' && p[1] !== 'capacity';
      const badNode = mutate(richNode, dice, nodeInside) as unknown as Node;
      const badPod = mutate(richPod, dice, inside) as unknown as Pod;
      const sc: Scenario = {
        name: 'bypass', metadata: {}, config: null, steps: [], pods: [],
        nodes: [{ kind: 'Node', ...structuredClone(goodNode) as object } as Node, { kind: 'Node', ...badNode }],
        pending: [{ kind: 'Pod', ...structuredClone(goodPod) as object } as Pod, { kind: 'Pod', ...badPod }],
        objects: [],
      };
      const report = await simulate(sc);
      const good = report.pods.find((p) => p.pod === 'default/good');
      assert.equal(good?.outcome, 'Scheduled', `case ${i}: ${good?.message}`);
      for (const p of report.pods) assert.doesNotMatch(p.message, jsErrorText, `case ${i}: ${p.pod}: ${p.message}`);
    }
  });

  it('the configuration loader answers every mutation with a ConfigError naming the field, or a configuration that runs', async () => {
    const base: Json = {
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      percentageOfNodesToScore: 50,
      podInitialBackoffSeconds: 1,
      podMaxBackoffSeconds: 10,
      profiles: [{
        schedulerName: 'default-scheduler',
        plugins: { score: { enabled: [{ name: 'NodeResourcesFit', weight: 2 }], disabled: [{ name: 'ImageLocality' }] }, multiPoint: { disabled: [{ name: 'DefaultPreemption' }] } },
        pluginConfig: [
          { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }] } } },
          { name: 'PodTopologySpread', args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' }] } },
          { name: 'InterPodAffinity', args: { hardPodAffinityWeight: 5 } },
        ],
      }],
    };
    const sc = parseScenario(JSON.stringify({ nodes: [goodNode], pending: [goodPod] }), 'fuzz.yaml');
    const dice = new Dice(13);
    let ran = 0;
    for (let i = 0; i < 100; i++) {
      const text = JSON.stringify(mutate(base, dice));
      let cfg;
      try {
        cfg = parseConfig(text, 'cfg.yaml', registry);
      } catch (err) {
        assert.ok(err instanceof ConfigError, `case ${i}: ${String(err)}`);
        for (const line of err.message.split('\n')) assert.match(line, /^cfg\.yaml(:\d+:\d+)?: /, `case ${i}`);
        assert.doesNotMatch(err.message, jsErrorText, `case ${i}: ${err.message}`);
        continue;
      }
      if (ran >= 6) continue;
      ran++;
      try {
        const report = await runSimulation(sc, { config: cfg, registry, notYetAvailable: notYetAvailablePlugins, seed: 1, admitPod });
        for (const p of report.pods) assert.doesNotMatch(p.message, jsErrorText, `case ${i}: ${p.message}`);
      } catch (err) {
        // What only building the framework finds is reported by the CLI as bad input.
        assert.ok(err instanceof BadInputError && err.constructor.name === 'FrameworkError', `case ${i}: ${String(err)}`);
      }
    }
  });

  it('the embedded API server answers every bad request with a 4xx Status and stores nothing then', async () => {
    const cluster = new MemoryCluster({ clock: new FakeClock(0), volumeController: false });
    const server = await ApiServer.start({ cluster, port: 0, clock: new FakeClock(0) });
    try {
      const bodies: { path: string; obj: Json }[] = [
        { path: '/api/v1/nodes', obj: { apiVersion: 'v1', kind: 'Node', ...(richNode as Record<string, Json>) } },
        { path: '/api/v1/namespaces/default/pods', obj: { apiVersion: 'v1', kind: 'Pod', ...(richPod as Record<string, Json>), spec: { ...(richPod as { spec: Record<string, Json> }).spec, priorityClassName: null } } },
        { path: '/api/v1/namespaces/default/persistentvolumeclaims', obj: { apiVersion: 'v1', ...(objects[2] as Record<string, Json>) } },
        { path: '/apis/scheduling.k8s.io/v1/priorityclasses', obj: { apiVersion: 'scheduling.k8s.io/v1', ...(objects[0] as Record<string, Json>) } },
        { path: '/apis/policy/v1/namespaces/default/poddisruptionbudgets', obj: { apiVersion: 'policy/v1', ...(objects[3] as Record<string, Json>) } },
      ];
      // The originals are stored first, so updates and patches have something to change.
      for (const b of bodies) {
        const res = await fetch(server.url + b.path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b.obj) });
        assert.equal(res.status, 201, `${b.path}: ${await res.text()}`);
      }
      const raw = ['{', '[1,2', 'null', '"x"', '5', `{"a":${'['.repeat(300)}${']'.repeat(300)}}`, '{"metadata":{"__proto__":{"x":1}}}', ''];
      const patchTypes = ['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/json-patch+json'];
      const dice = new Dice(17);
      for (let i = 0; i < 100; i++) {
        const b = dice.pick(bodies);
        const name = String((b.obj as { metadata: { name: string } }).metadata.name);
        let method = 'POST';
        let path = b.path;
        let type = 'application/json';
        let body: string;
        switch (dice.int(5)) {
          case 0:
            body = JSON.stringify(mutate(b.obj, dice));
            break;
          case 1:
            method = 'PUT';
            path = `${b.path}/${name}`;
            body = JSON.stringify(mutate(b.obj, dice, (p) => p[0] !== 'metadata' || p[1] !== 'name'));
            break;
          case 2:
            method = 'PATCH';
            path = `${b.path}/${name}`;
            type = dice.pick(patchTypes);
            body = type.startsWith('application/json-patch')
              ? JSON.stringify(dice.pick<Json>([[{ op: 'replace', path: '/spec', value: dice.pick(badValues) }], [{ op: 'add', path: '/metadata/labels/x', value: dice.pick(badValues) }], [5], [{ op: 'move', from: '/nope', path: '/x' }]]))
              : JSON.stringify(mutate({ spec: (b.obj as { spec?: Json }).spec ?? {}, metadata: { labels: { a: 'b' } } }, dice));
            break;
          case 3:
            body = dice.pick(raw);
            break;
          default:
            method = 'GET';
            path = `${b.path}/${dice.pick(['%E0%A4%A', '%zz', '%', 'a%2', `${name}%00`])}`;
            body = '';
        }
        const rvBefore = cluster.currentResourceVersion;
        const res = await fetch(server.url + path, {
          method,
          headers: body === '' ? {} : { 'Content-Type': type },
          body: body === '' ? undefined : body,
          signal: AbortSignal.timeout(5000),
        });
        const text = await res.text();
        const where = `case ${i}: ${method} ${path} ${body.slice(0, 200)} -> ${res.status} ${text.slice(0, 300)}`;
        assert.notEqual(res.status, 500, where);
        assert.ok(res.status < 500, where);
        if (res.status >= 400) {
          const status = JSON.parse(text) as { kind: string; message: string; details?: { causes?: unknown[] } };
          assert.equal(status.kind, 'Status', where);
          assert.doesNotMatch(status.message, jsErrorText, where);
          if (res.status === 422) assert.ok((status.details?.causes?.length ?? 0) > 0, where);
          assert.equal(cluster.currentResourceVersion, rvBefore, `${where}: nothing stored on rejection`);
        }
      }
    } finally {
      await server.close();
    }
  });
});
