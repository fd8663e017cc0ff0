// The counts kept between cycles (counting.ts, counts_cache.ts) against a full recount: random
// clusters driven through the real Cache and Snapshot by random pod, label, taint and node
// changes, and after each step the PreFilter/PreScore states and the Filter/Score/NormalizeScore
// results compared with the straightforward per-attempt recount (below, as the plugin had it).
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequiredNodeAffinity } from '../../api/nodeselector.js';
import type { KubeObject, Node, Pod, Taint, TopologySpreadConstraint } from '../../api/types.js';
import { Cache } from '../../cache/cache.js';
import { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../../framework/cycle_state.js';
import { MaxNodeScore, type NodeScore } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Status } from '../../framework/status.js';
import { DomainTable } from '../../framework/topology/domain_table.js';
import { assertEqualData } from '../../testing/assert_data.js';
import { newTestHandle } from '../../testing/handle.js';
import { FakeClock, seededRandom } from '../../util/clock.js';
import {
  countPodsMatchSelector,
  LabelHostname,
  LabelTopologyZone,
  matchNodeInclusionPolicies,
  nodeLabelsMatchSpreadConstraints,
  type SpreadConstraint,
} from './common.js';
import { SpreadCounts } from './counting.js';
import {
  CriticalPaths,
  ErrReasonConstraintsNotMatch,
  ErrReasonNodeLabelNotMatch,
  PreFilterState,
  preFilterCountingSpec,
  preFilterStateKey,
} from './filtering.js';
import { PodTopologySpread } from './plugin.js';
import { PreScoreState, preScoreStateKey, scoreForCount, topologyNormalizingWeight } from './scoring.js';
import { domainEntries, node, pod, spread } from './test_helpers.js';

// ---- the reference: a full recount per attempt

interface RefPreFilter {
  counts: Map<string, number>[];
  paths: CriticalPaths[];
  required: RequiredNodeAffinity;
}

function refPreFilter(p: PodInfo, constraints: readonly SpreadConstraint[], allNodes: readonly NodeInfo[]): RefPreFilter {
  const counts = constraints.map(() => new Map<string, number>());
  const required = RequiredNodeAffinity.fromPod(p.pod);
  for (const nodeInfo of allNodes) {
    const n = nodeInfo.node;
    if (n === null) continue;
    const labels = n.metadata.labels;
    if (!nodeLabelsMatchSpreadConstraints(labels, constraints)) continue;
    constraints.forEach((c, i) => {
      if (!matchNodeInclusionPolicies(c, p.pod, n, required)) return;
      const value = labels![c.topologyKey]!;
      counts[i]!.set(value, (counts[i]!.get(value) ?? 0) + countPodsMatchSelector(nodeInfo.pods, c.selector, p.namespace));
    });
  }
  const paths = counts.map((m) => {
    const cp = new CriticalPaths();
    for (const [value, num] of m) cp.update(value, num);
    return cp;
  });
  return { counts, paths, required };
}

function refClone(r: RefPreFilter): RefPreFilter {
  return { counts: r.counts.map((m) => new Map(m)), paths: r.paths.map((p) => p.clone()), required: r.required };
}

function refUpdateWithPod(r: RefPreFilter, constraints: readonly SpreadConstraint[], updated: Pod, preemptor: Pod, n: Node | null, delta: 1 | -1): void {
  if (n === null) return;
  if ((updated.metadata.namespace ?? 'default') !== (preemptor.metadata.namespace ?? 'default')) return;
  const labels = n.metadata.labels;
  if (!nodeLabelsMatchSpreadConstraints(labels, constraints)) return;
  constraints.forEach((c, i) => {
    if (!c.selector.matches(updated.metadata.labels)) return;
    if (!matchNodeInclusionPolicies(c, preemptor, n, r.required)) return;
    const value = labels![c.topologyKey]!;
    const num = (r.counts[i]!.get(value) ?? 0) + delta;
    r.counts[i]!.set(value, num);
    r.paths[i]!.update(value, num);
  });
}

function refFilter(r: RefPreFilter, constraints: readonly SpreadConstraint[], p: PodInfo, nodeInfo: NodeInfo): Status | null {
  const labels = nodeInfo.node?.metadata.labels;
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i]!;
    if (labels === undefined || !Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) return Status.unresolvable(ErrReasonNodeLabelNotMatch);
    const minMatchNum = r.counts[i]!.size < c.minDomains ? 0 : r.paths[i]!.num0;
    const selfMatchNum = c.selector.matches(p.pod.metadata.labels) ? 1 : 0;
    const matchNum = r.counts[i]!.get(labels[c.topologyKey]!) ?? 0;
    if (matchNum + selfMatchNum - minMatchNum > c.maxSkew) return Status.unschedulable(ErrReasonConstraintsNotMatch);
  }
  return null;
}

interface RefPreScore {
  ignored: Set<string>;
  counts: Map<string, number>[];
  weights: number[];
}

function refPreScore(p: PodInfo, constraints: readonly SpreadConstraint[], filtered: readonly NodeInfo[], all: readonly NodeInfo[], requireAll: boolean): RefPreScore {
  const ignored = new Set<string>();
  const counts = constraints.map(() => new Map<string, number>());
  for (const nodeInfo of filtered) {
    const labels = nodeInfo.node?.metadata.labels;
    if (requireAll && !nodeLabelsMatchSpreadConstraints(labels, constraints)) {
      ignored.add(nodeInfo.name);
      continue;
    }
    constraints.forEach((c, i) => {
      if (c.topologyKey === LabelHostname) return;
      const value = labels?.[c.topologyKey] ?? '';
      if (!counts[i]!.has(value)) counts[i]!.set(value, 0);
    });
  }
  const weights = constraints.map((c, i) => topologyNormalizingWeight(c.topologyKey === LabelHostname ? filtered.length - ignored.size : counts[i]!.size));
  const required = RequiredNodeAffinity.fromPod(p.pod);
  for (const nodeInfo of all) {
    const n = nodeInfo.node;
    if (n === null) continue;
    const labels = n.metadata.labels;
    if (requireAll && !nodeLabelsMatchSpreadConstraints(labels, constraints)) continue;
    constraints.forEach((c, i) => {
      const value = labels?.[c.topologyKey] ?? '';
      const current = counts[i]!.get(value);
      if (current === undefined || !matchNodeInclusionPolicies(c, p.pod, n, required)) return;
      counts[i]!.set(value, current + countPodsMatchSelector(nodeInfo.pods, c.selector, p.namespace));
    });
  }
  return { ignored, counts, weights };
}

function refScore(r: RefPreScore, constraints: readonly SpreadConstraint[], p: PodInfo, nodeInfo: NodeInfo): number {
  if (r.ignored.has(nodeInfo.name)) return 0;
  const labels = nodeInfo.node?.metadata.labels;
  if (labels === undefined) return 0;
  let score = 0;
  constraints.forEach((c, i) => {
    if (!Object.prototype.hasOwnProperty.call(labels, c.topologyKey)) return;
    const cnt = c.topologyKey === LabelHostname ? countPodsMatchSelector(nodeInfo.pods, c.selector, p.namespace) : (r.counts[i]!.get(labels[c.topologyKey]!) ?? 0);
    score += scoreForCount(cnt, c.maxSkew, r.weights[i]!);
  });
  return Math.round(score);
}

function refNormalize(r: RefPreScore, scores: NodeScore[]): void {
  let minScore = Number.MAX_SAFE_INTEGER;
  let maxScore = 0;
  for (const ns of scores) {
    if (r.ignored.has(ns.name)) {
      ns.score = -1;
      continue;
    }
    minScore = Math.min(minScore, ns.score);
    maxScore = Math.max(maxScore, ns.score);
  }
  for (const ns of scores) {
    if (ns.score === -1) ns.score = 0;
    else if (maxScore === 0) ns.score = MaxNodeScore;
    else ns.score = Math.floor((MaxNodeScore * (maxScore + minScore - ns.score)) / maxScore);
  }
}

// ---- comparisons

function statusText(s: Status | null): string {
  return s === null ? 'Success' : `${s.code}:${s.reasons.join('|')}`;
}

function pathsOf(p: CriticalPaths): [string, number, string, number] {
  return [p.value0, p.num0, p.value1, p.num1];
}

/** The state as plain data: counts in iteration (insertion) order and the critical paths. */
function preFilterView(s: PreFilterState): unknown {
  return { counts: s.tpValueToMatchNum.map(domainEntries), paths: s.criticalPaths.map(pathsOf) };
}

function refPreFilterView(r: RefPreFilter): unknown {
  return { counts: r.counts.map((m) => [...m]), paths: r.paths.map(pathsOf) };
}

function preScoreView(s: PreScoreState): unknown {
  return { ignored: [...s.ignoredNodes].sort(), counts: s.topologyValueToPodCounts.map((m) => [...m]), weights: s.topologyNormalizingWeight };
}

function refPreScoreView(r: RefPreScore): unknown {
  return { ignored: [...r.ignored].sort(), counts: r.counts.map((m) => [...m]), weights: r.weights };
}

// ---- random clusters

type Rand = () => number;
const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const dedicated = (effect: Taint['effect']): Taint => ({ key: 'dedicated', value: 'x', effect });

function randomNodeLabels(rand: Rand, name: string): Record<string, string> {
  const labels: Record<string, string> = {};
  if (rand() < 0.93) labels[LabelHostname] = name;
  if (rand() < 0.85) labels[LabelTopologyZone] = pick(rand, ['z1', 'z2', 'z3', 'z4']);
  if (rand() < 0.6) labels['rack'] = pick(rand, ['r1', 'r2', 'r3', '']);
  if (rand() < 0.5) labels['tier'] = pick(rand, ['gold', 'silver']);
  return labels;
}

function randomTaints(rand: Rand): Taint[] | undefined {
  return rand() < 0.2 ? [dedicated(pick(rand, ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const))] : undefined;
}

function randomPodLabels(rand: Rand): Record<string, string> {
  const labels: Record<string, string> = {};
  if (rand() < 0.6) labels['app'] = pick(rand, ['a', 'b']);
  if (rand() < 0.6) labels['color'] = pick(rand, ['blue', 'red']);
  return labels;
}

const blue = { matchLabels: { color: 'blue' } };
const hasApp = { matchExpressions: [{ key: 'app', operator: 'Exists' as const }] };
const blueOrRed = { matchExpressions: [{ key: 'color', operator: 'In' as const, values: ['blue', 'red'] }] };
const tolerateDedicated = [{ key: 'dedicated', operator: 'Exists' as const }];

/** Incoming pods covering hard and soft constraints, policies, selectors and defaults. */
function incomingPods(rand: Rand, seq: number): Pod[] {
  const labels = randomPodLabels(rand);
  const ns = rand() < 0.8 ? 'default' : 'other';
  const mk = (name: string, constraints: TopologySpreadConstraint[] | undefined, extra: Parameters<typeof pod>[1] = {}): Pod =>
    pod(`${name}-${seq}`, { labels, namespace: ns, ...(constraints ? { constraints } : {}), ...extra });
  return [
    mk('zone-hard', [spread(1, LabelTopologyZone, 'DoNotSchedule', blue)]),
    mk('zone-host-hard', [spread(2, LabelTopologyZone, 'DoNotSchedule', hasApp), spread(1, LabelHostname, 'DoNotSchedule', hasApp)]),
    mk('rack-policies', [spread(1, 'rack', 'DoNotSchedule', blueOrRed, { minDomains: 3, nodeAffinityPolicy: 'Ignore', nodeTaintsPolicy: 'Honor' })], {
      nodeSelector: { tier: 'gold' },
    }),
    mk('match-label-keys', [spread(1, LabelTopologyZone, 'DoNotSchedule', hasApp, { matchLabelKeys: ['app'], nodeTaintsPolicy: 'Honor' })], {
      nodeAffinity: [{ key: 'tier', operator: 'In', values: ['gold'] }],
      tolerations: tolerateDedicated,
    }),
    mk('zone-host-soft', [spread(1, LabelTopologyZone, 'ScheduleAnyway', blueOrRed), spread(2, LabelHostname, 'ScheduleAnyway', blueOrRed)]),
    mk('rack-soft', [spread(3, 'rack', 'ScheduleAnyway', blue, { nodeTaintsPolicy: 'Honor' })], { tolerations: tolerateDedicated }),
    mk('host-soft', [spread(1, LabelHostname, 'ScheduleAnyway', hasApp)]),
    mk('mixed', [spread(1, LabelTopologyZone, 'DoNotSchedule', blue), spread(1, 'rack', 'ScheduleAnyway', hasApp), spread(1, LabelHostname, 'ScheduleAnyway', blue)]),
    // No constraints: the defaults (System: hostname and zone, selected by the Service; List: zone).
    pod(`defaulted-${seq}`, { labels: { ...labels, app: 'a' }, namespace: 'default', nodeSelector: rand() < 0.3 ? { tier: 'gold' } : {} }),
  ];
}

const service: KubeObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: 'default' }, spec: { selector: { app: 'a' } } } as KubeObject;

class World {
  readonly cache = new Cache(new FakeClock(0));
  readonly snapshot = new Snapshot();
  readonly nodes = new Map<string, Node>();
  readonly pods = new Map<string, Pod>();
  private seq = 0;
  /** Whether the last step changed anything but pods. */
  nodesChanged = false;

  constructor(private readonly rand: Rand) {
    const n = 3 + Math.floor(rand() * 25);
    for (let i = 0; i < n; i++) this.addNode();
    for (let i = 0; i < n * 2; i++) this.addPod();
    this.cache.updateSnapshot(this.snapshot);
  }

  private addNode(): void {
    const name = `node-${this.seq++}`;
    const n = node(name, randomNodeLabels(this.rand, name), randomTaints(this.rand));
    this.nodes.set(name, n);
    this.cache.addNode(n);
  }

  private addPod(): void {
    const names = [...this.nodes.keys()];
    if (names.length === 0) return;
    const p = pod(`p-${this.seq++}`, {
      node: pick(this.rand, names),
      labels: randomPodLabels(this.rand),
      namespace: this.rand() < 0.8 ? 'default' : 'other',
      terminating: this.rand() < 0.1,
    });
    this.pods.set(p.metadata.name!, p);
    this.cache.addPod(p);
  }

  /** One random change, then the snapshot brought up to date. */
  step(): void {
    const rand = this.rand;
    const r = rand();
    this.nodesChanged = false;
    const podNames = [...this.pods.keys()];
    const nodeNames = [...this.nodes.keys()];
    if (r < 0.45 || podNames.length === 0 || nodeNames.length === 0) {
      const k = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < k; i++) this.addPod();
    } else if (r < 0.65) {
      const p = this.pods.get(pick(rand, podNames))!;
      this.pods.delete(p.metadata.name!);
      this.cache.removePod(p);
    } else if (r < 0.75) {
      const old = this.pods.get(pick(rand, podNames))!;
      const updated: Pod = { ...old, metadata: { ...old.metadata, labels: randomPodLabels(rand) } };
      this.pods.set(old.metadata.name!, updated);
      this.cache.updatePod(old, updated);
    } else if (r < 0.85) {
      const old = this.nodes.get(pick(rand, nodeNames))!;
      const updated = node(old.metadata.name!, rand() < 0.5 ? randomNodeLabels(rand, old.metadata.name!) : { ...old.metadata.labels }, randomTaints(rand));
      this.nodes.set(old.metadata.name!, updated);
      this.cache.updateNode(old, updated);
      this.nodesChanged = true;
    } else if (r < 0.93 || nodeNames.length < 2) {
      this.addNode();
      this.nodesChanged = true;
    } else {
      const old = this.nodes.get(pick(rand, nodeNames))!;
      this.nodes.delete(old.metadata.name!);
      this.cache.removeNode(old);
      this.nodesChanged = true;
    }
    this.cache.updateSnapshot(this.snapshot);
  }
}

// ---- the checks of one incoming pod

interface Kept {
  state: CycleState;
  pod: PodInfo;
  want: unknown;
}

function checkPreFilterAndFilter(plugin: PodTopologySpread, rand: Rand, world: World, p: PodInfo, kept: Kept[]): void {
  const all = world.snapshot.list();
  const constraints = plugin.getConstraints(p.pod, 'DoNotSchedule');
  const state = new CycleState();
  // Now and then through a node list the plugin cannot track: counted afresh.
  const nodesArg = rand() < 0.15 ? all.slice() : all;
  const out = plugin.preFilter(state, p, nodesArg);
  if (constraints.length === 0) {
    assert.equal(out?.status?.code, Status.skip().code);
    return;
  }
  assert.equal(out, null);
  const s = state.read<PreFilterState>(preFilterStateKey)!;
  const ref = refPreFilter(p, constraints, all);
  assertEqualData(preFilterView(s), refPreFilterView(ref), `PreFilter state of ${p.key}`);
  const candidates: NodeInfo[] = [...all];
  if (all.length > 0) candidates.push(pick(rand, all).clone());
  for (const ni of candidates) {
    assert.equal(statusText(plugin.filter(state, p, ni)), statusText(refFilter(ref, constraints, p, ni)), `Filter of ${p.key} on ${ni.name}`);
  }

  // AddPod/RemovePod on copies (nominated pods, preemption), including domains new to the state.
  if (all.length > 0) {
    const copy = state.clone();
    const refCopy = refClone(ref);
    for (let k = 0; k < 4; k++) {
      const target = pick(rand, all);
      if (target.node === null) continue;
      const moved = rand() < 0.5 && target.pods.length > 0 ? pick(rand, target.pods) : new PodInfo(pod(`nominated-${k}`, { labels: randomPodLabels(rand), namespace: p.namespace }));
      let ni = target.clone();
      if (rand() < 0.2) ni = world.snapshot.get(target.name)!.clone();
      if (rand() < 0.2 && ni.node !== null) ni.node = node(ni.name, randomNodeLabels(rand, ni.name));
      const delta = rand() < 0.5 ? 1 : -1;
      const st = delta === 1 ? plugin.addPod(copy, p, moved, ni) : plugin.removePod(copy, p, moved, ni);
      assert.equal(st, null);
      refUpdateWithPod(refCopy, constraints, moved.pod, p.pod, ni.node, delta);
      const sc = copy.read<PreFilterState>(preFilterStateKey)!;
      assertEqualData(preFilterView(sc), refPreFilterView(refCopy), `state of ${p.key} after AddPod/RemovePod`);
      for (const other of [ni, ...all]) {
        assert.equal(statusText(plugin.filter(copy, p, other)), statusText(refFilter(refCopy, constraints, p, other)), `Filter of ${p.key} on ${other.name} after AddPod/RemovePod`);
      }
    }
    // The original state is untouched by its copy.
    assertEqualData(preFilterView(s), refPreFilterView(ref));
  }
  if (rand() < 0.2) kept.push({ state, pod: p, want: refPreFilterView(ref) });
}

function checkPreScoreAndScore(plugin: PodTopologySpread, rand: Rand, world: World, p: PodInfo, systemDefaulted: boolean): void {
  const all = world.snapshot.list();
  let filtered = all.filter(() => rand() < 0.7);
  if (rand() < 0.2) filtered.reverse();
  if (rand() < 0.1 && all.length > 0) filtered = [...filtered, pick(rand, all).clone()];
  const constraints = plugin.getConstraints(p.pod, 'ScheduleAnyway');
  const state = new CycleState();
  const st = plugin.preScore(state, p, filtered);
  if (constraints.length === 0 || all.length === 0) {
    assert.equal(st?.code, Status.skip().code);
    return;
  }
  assert.equal(st, null);
  const requireAll = (p.pod.spec.topologySpreadConstraints?.length ?? 0) > 0 || !systemDefaulted;
  const ref = refPreScore(p, constraints, filtered, all, requireAll);
  const s = state.read<PreScoreState>(preScoreStateKey)!;
  assertEqualData(preScoreView(s), refPreScoreView(ref), `PreScore state of ${p.key}`);

  // Nodes changed after PreScore: Score must see their pods as they are now.
  if (rand() < 0.1) world.step();
  // The framework's batch over the filtered nodes, one by one, and over another list.
  const lists = [filtered, all.filter(() => rand() < 0.5)];
  for (const nodes of lists) {
    const batch = nodes.map((n) => ({ name: n.name, score: -7 }));
    assert.equal(plugin.scoreNodes(state, p, nodes, batch), null);
    const want = nodes.map((n) => ({ name: n.name, score: refScore(ref, constraints, p, n) }));
    assertEqualData(batch, want, `scores of ${p.key}`);
    for (const n of nodes) assert.equal(plugin.score(state, p, n), refScore(ref, constraints, p, n));
    assert.equal(plugin.normalizeScore(state, p, batch), null);
    refNormalize(ref, want);
    assertEqualData(batch, want, `normalized scores of ${p.key}`);
  }
}

describe('PodTopologySpread kept counts equal a full recount', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`random cluster and changes, seed ${seed}`, () => {
      const rand = seededRandom(seed);
      const world = new World(rand);
      const handle = newTestHandle({ snapshot: world.snapshot, objects: [service] });
      const listPlugin = new PodTopologySpread(
        { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: LabelTopologyZone, whenUnsatisfiable: 'DoNotSchedule' }] },
        handle,
        defaultFeatures,
      );
      const systemPlugin = new PodTopologySpread({ defaultingType: 'System', defaultConstraints: [] }, handle, defaultFeatures);
      const kept: Kept[] = [];
      for (let step = 0; step < 120; step++) {
        world.step();
        for (const raw of incomingPods(rand, step)) {
          if (rand() < 0.5) continue;
          const p = new PodInfo(raw);
          for (const [plugin, system] of [[listPlugin, false], [systemPlugin, true]] as const) {
            checkPreFilterAndFilter(plugin, rand, world, p, kept);
            checkPreScoreAndScore(plugin, rand, world, p, system);
          }
        }
        // States of earlier cycles keep their counts while the kept ones move on.
        for (const k of kept) assertEqualData(preFilterView(k.state.read<PreFilterState>(preFilterStateKey)!), k.want);
      }
    });
  }

  it('pod changes are applied to the kept counts without counting every node again', () => {
    const rand = seededRandom(42);
    const world = new World(rand);
    const p = new PodInfo(pod('in', { labels: { app: 'a' }, constraints: [spread(1, LabelTopologyZone, 'DoNotSchedule', hasApp)] }));
    const plugin = new PodTopologySpread({ defaultingType: 'List', defaultConstraints: [] }, newTestHandle({ snapshot: world.snapshot }), defaultFeatures);
    const spec = preFilterCountingSpec(p, plugin.getConstraints(p.pod, 'DoNotSchedule'));
    const kept = new SpreadCounts(spec);
    let syncedWithoutRecount = 0;
    for (let step = 0; step < 200; step++) {
      world.step();
      const all = world.snapshot.list();
      const rebuilt = kept.sync(world.snapshot);
      if (!world.nodesChanged) {
        assert.equal(rebuilt, false, `step ${step}: only pods changed`);
        syncedWithoutRecount++;
      }
      const fresh = new SpreadCounts(spec);
      fresh.rebuild(all);
      assertEqualData(
        kept.tables.map((t) => [t.values, t.values.map((v) => t.totals[t.idOf(v)])]),
        fresh.tables.map((t) => [t.values, t.values.map((v) => t.totals[t.idOf(v)])]),
      );
    }
    assert.ok(syncedWithoutRecount > 100);
  });

  it('a compaction of the shared domain table recounts, and counts made before keep their ids', () => {
    const cache = new Cache(new FakeClock(0));
    const snapshot = new Snapshot();
    const zones = 1100;
    for (let i = 0; i < zones; i++) cache.addNode(node(`n-${i}`, { [LabelTopologyZone]: `z-${i}` }));
    cache.addPod(pod('p-0', { node: 'n-5', labels: { app: 'a' } }));
    cache.updateSnapshot(snapshot);
    const p = new PodInfo(pod('in', { labels: { app: 'a' }, constraints: [spread(1, LabelTopologyZone, 'DoNotSchedule', hasApp)] }));
    const plugin = new PodTopologySpread({ defaultingType: 'List', defaultConstraints: [] }, newTestHandle({ snapshot }), defaultFeatures);
    const spec = preFilterCountingSpec(p, plugin.getConstraints(p.pod, 'DoNotSchedule'));
    const table = new DomainTable();
    const kept = new SpreadCounts(spec, table);
    kept.sync(snapshot);
    const before = kept.tables[0]!;
    assert.equal(before.size, zones);
    const id5 = before.idOf('z-5');
    assert.equal(before.totals[id5], 1);

    for (let i = 2; i < zones; i++) cache.removeNode(node(`n-${i}`, { [LabelTopologyZone]: `z-${i}` }));
    cache.updateSnapshot(snapshot);
    const version = table.version;
    assert.equal(kept.sync(snapshot), true);
    assert.equal(table.version, version + 1, 'the table dropped the ids of the 1098 zones gone');
    const fresh = new SpreadCounts(spec);
    fresh.rebuild(snapshot.list());
    assertEqualData(
      kept.tables.map((t) => [t.values, t.values.map((v) => t.totals[t.idOf(v)])]),
      fresh.tables.map((t) => [t.values, t.values.map((v) => t.totals[t.idOf(v)])]),
    );
    // The domains an earlier cycle state holds still name their own ids.
    assert.equal(before.idOf('z-5'), id5);
    assert.equal(before.valueOf(id5), 'z-5');
    assert.equal(before.totals[id5], 1);
  });
});
