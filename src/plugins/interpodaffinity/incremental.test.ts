// Randomized equality of the counts kept between attempts (aggregate.ts) with a full recount:
// clusters with zones, regions and hostnames are changed through the real Cache and Snapshot,
// and after every change the plugin's PreFilter/PreScore state, Filter and Score results are
// compared with a straightforward recount written here (the per-attempt algorithm of upstream).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Labels } from '../../api/labels.js';
import type { LabelSelector, Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../../api/types.js';
import { Cache } from '../../cache/cache.js';
import { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../../framework/cycle_state.js';
import { MaxNodeScore, type NodeInfoLister, type NodeScore, type SharedLister } from '../../framework/interfaces.js';
import { affinityTermMatches, PodInfo, type AffinityTerm, type WeightedAffinityTerm } from '../../framework/pod_info.js';
import { Code, type Status } from '../../framework/status.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { assertEqualData } from '../../testing/assert_data.js';
import { newTestHandle } from '../../testing/handle.js';
import { FakeClock, seededRandom } from '../../util/clock.js';
import { defaultInterPodAffinityArgs, type InterPodAffinityArgs } from './args.js';
import {
  ErrReasonAffinityRulesNotMatch,
  ErrReasonAntiAffinityRulesNotMatch,
  ErrReasonExistingAntiAffinityRulesNotMatch,
  preFilterStateKey,
  type PreFilterState,
} from './filtering.js';
import { DomainTable } from '../../framework/topology/domain_table.js';
import { InterPodAffinity } from './plugin.js';
import { preScoreStateKey, type PreScoreState } from './scoring.js';
import { mergeTermsNamespaces, namespaceLabels, podMatchesAllTerms, podNamespace } from './terms.js';
import { namespace, node, pod, type AffinitySpec } from './test_helpers.js';
import { labelValue } from '../../framework/topology/label_value.js';
import { TopologyCounts } from '../../framework/topology/topology_counts.js';

type Rnd = () => number;
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const chance = (r: Rnd, p: number): boolean => r() < p;

const namespaceNames = ['ns-a', 'ns-b', 'ns-c'];
const apps = ['web', 'db', 'cache'];

function randomLabels(r: Rnd): Record<string, string> {
  if (chance(r, 0.1)) return {};
  const labels: Record<string, string> = { app: pick(r, apps) };
  if (chance(r, 0.5)) labels['tier'] = pick(r, ['x', 'y']);
  return labels;
}

function randomSelector(r: Rnd): LabelSelector | undefined {
  switch (Math.floor(r() * 7)) {
    case 0:
      return chance(r, 0.5) ? undefined : {};
    case 1:
    case 2:
      return { matchLabels: { app: pick(r, apps) } };
    case 3:
      return { matchExpressions: [{ key: 'app', operator: 'In', values: [pick(r, apps), pick(r, apps)] }] };
    case 4:
      return { matchExpressions: [{ key: 'app', operator: 'NotIn', values: [pick(r, apps)] }] };
    case 5:
      // Now and then on the label incoming siblings differ by (see sibling): the projection of
      // cache keys must then grow to tell them apart.
      return chance(r, 0.3) ? { matchLabels: { batch: 'b0' } } : { matchExpressions: [{ key: 'tier', operator: 'Exists' }] };
    default:
      return { matchLabels: { app: pick(r, apps) }, matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] };
  }
}

function randomTerm(r: Rnd): PodAffinityTerm {
  const t: PodAffinityTerm = { topologyKey: pick(r, ['zone', 'zone', 'hostname', 'region']) };
  const s = randomSelector(r);
  if (s !== undefined) t.labelSelector = s;
  const ns = r();
  if (ns < 0.2) t.namespaces = [pick(r, namespaceNames), pick(r, namespaceNames)];
  else if (ns < 0.35) t.namespaceSelector = { matchLabels: { team: pick(r, ['t1', 't2']) } };
  else if (ns < 0.4) t.namespaceSelector = {};
  return t;
}

function randomTerms(r: Rnd): PodAffinityTerm[] {
  const n = chance(r, 0.7) ? 1 : 2;
  return Array.from({ length: n }, () => randomTerm(r));
}

function randomWeighted(r: Rnd): WeightedPodAffinityTerm[] {
  // Weight 0 is dropped when parsed but still makes the pod "have preferred terms".
  return randomTerms(r).map((t) => ({ weight: chance(r, 0.05) ? 0 : 1 + Math.floor(r() * 10), podAffinityTerm: t }));
}

function randomSpec(r: Rnd, density: number): AffinitySpec {
  const spec: AffinitySpec = {};
  if (chance(r, density)) spec.affinity = randomTerms(r);
  if (chance(r, density)) spec.antiAffinity = randomTerms(r);
  if (chance(r, density)) spec.preferredAffinity = randomWeighted(r);
  if (chance(r, density)) spec.preferredAntiAffinity = randomWeighted(r);
  return spec;
}

function randomNodeLabels(r: Rnd, name: string): Record<string, string> {
  const labels: Record<string, string> = {};
  if (chance(r, 0.9)) labels['hostname'] = name;
  if (chance(r, 0.85)) labels['zone'] = pick(r, ['z1', 'z2', 'z3']);
  if (chance(r, 0.7)) labels['region'] = pick(r, ['r1', 'r2']);
  return labels;
}

/** A cluster driven through the scheduler's Cache into one Snapshot updated in place. */
class World {
  readonly cache = new Cache(new FakeClock());
  readonly snapshot = new Snapshot();
  readonly objects = new MapObjectLister(namespaceNames.map((n, i) => namespace(n, { team: i === 2 ? 't2' : 't1' })));
  readonly nodes = new Map<string, Node>();
  readonly pods = new Map<string, Pod>();
  readonly handle = newTestHandle({ snapshot: this.snapshot, overrides: { objects: () => this.objects } });
  private seq = 0;

  constructor(
    private readonly r: Rnd,
    nodeCount: number,
    podCount: number,
  ) {
    for (let i = 0; i < nodeCount; i++) this.addNode();
    for (let i = 0; i < podCount; i++) this.addPod();
    this.cache.updateSnapshot(this.snapshot);
  }

  private nodeName(): string | undefined {
    const names = [...this.nodes.keys()];
    return names.length === 0 ? undefined : pick(this.r, names);
  }

  addNode(): void {
    const name = `node-${this.seq++}`;
    const n = node(name, randomNodeLabels(this.r, name));
    this.nodes.set(name, n);
    this.cache.addNode(n);
  }

  addPod(): void {
    // Now and then on a node that is gone: the cache keeps it on a ghost NodeInfo.
    const nodeName = chance(this.r, 0.03) ? 'gone' : this.nodeName();
    if (nodeName === undefined) return;
    const p = pod(`p-${this.seq++}`, {
      namespace: pick(this.r, namespaceNames),
      labels: randomLabels(this.r),
      node: nodeName,
      ...randomSpec(this.r, 0.25),
    });
    this.pods.set(p.metadata.uid!, p);
    this.cache.addPod(p);
  }

  removePod(): void {
    const pods = [...this.pods.values()];
    if (pods.length === 0) return;
    const p = pick(this.r, pods);
    this.pods.delete(p.metadata.uid!);
    this.cache.removePod(p);
  }

  /** One random change to pods, nodes or namespaces. */
  change(): void {
    const r = this.r;
    const x = r();
    const pods = [...this.pods.values()];
    if (x < 0.35 || pods.length === 0) this.addPod();
    else if (x < 0.55) this.removePod();
    else if (x < 0.65) {
      const p = pick(r, pods);
      const relabelled: Pod = { ...p, metadata: { ...p.metadata, labels: randomLabels(r) } };
      this.pods.set(p.metadata.uid!, relabelled);
      this.cache.updatePod(p, relabelled);
    } else if (x < 0.77) {
      const name = this.nodeName();
      if (name === undefined) return;
      const old = this.nodes.get(name)!;
      const updated = node(name, randomNodeLabels(r, name));
      this.nodes.set(name, updated);
      this.cache.updateNode(old, updated);
    } else if (x < 0.84) {
      this.addNode();
    } else if (x < 0.9) {
      const name = this.nodeName();
      if (name === undefined || this.nodes.size <= 2) return;
      this.cache.removeNode(this.nodes.get(name)!);
      this.nodes.delete(name);
    } else if (x < 0.96) {
      this.objects.upsert(namespace(pick(r, namespaceNames), chance(r, 0.8) ? { team: pick(r, ['t1', 't2']) } : {}));
    }
  }

  /** A few changes, then the snapshot brought up to date as the scheduler does per cycle. */
  step(): void {
    const n = 1 + Math.floor(this.r() * 3);
    for (let i = 0; i < n; i++) this.change();
    this.cache.updateSnapshot(this.snapshot);
  }

  placedPods(): { pi: PodInfo; nodeName: string }[] {
    const out: { pi: PodInfo; nodeName: string }[] = [];
    for (const ni of this.snapshot.list()) for (const pi of ni.pods) out.push({ pi, nodeName: ni.name });
    return out;
  }
}

// ---- The straightforward recount (upstream's per-attempt algorithm) ----

interface RecountedPreFilter {
  pod: Pod;
  nsLabels: Labels;
  affinityTerms: AffinityTerm[];
  antiAffinityTerms: AffinityTerm[];
  existingAntiAffinity: TopologyCounts;
  affinity: TopologyCounts;
  antiAffinity: TopologyCounts;
}

function countAllTerms(counts: TopologyCounts, terms: readonly AffinityTerm[], p: Pod, nodeLabels: Labels, delta: number): void {
  if (!podMatchesAllTerms(terms, p, undefined)) return;
  for (const t of terms) {
    const v = labelValue(nodeLabels, t.topologyKey);
    if (v !== undefined) counts.add(t.topologyKey, v, delta);
  }
}

function countAnyTerm(counts: TopologyCounts, terms: readonly AffinityTerm[], p: Pod, nsLabels: Labels, nodeLabels: Labels, delta: number): void {
  for (const t of terms) {
    if (!affinityTermMatches(t, p, nsLabels)) continue;
    const v = labelValue(nodeLabels, t.topologyKey);
    if (v !== undefined) counts.add(t.topologyKey, v, delta);
  }
}

function recountPreFilter(world: World, pi: PodInfo): RecountedPreFilter | 'skip' {
  const objects = world.objects;
  const p = pi.pod;
  const out: RecountedPreFilter = {
    pod: p,
    nsLabels: namespaceLabels(objects, podNamespace(p)),
    affinityTerms: mergeTermsNamespaces(pi.requiredAffinityTerms, objects),
    antiAffinityTerms: mergeTermsNamespaces(pi.requiredAntiAffinityTerms, objects),
    existingAntiAffinity: new TopologyCounts(),
    affinity: new TopologyCounts(),
    antiAffinity: new TopologyCounts(),
  };
  for (const ni of world.snapshot.list()) {
    const labels = ni.node!.metadata.labels;
    for (const existing of ni.pods) {
      countAnyTerm(out.existingAntiAffinity, existing.requiredAntiAffinityTerms, p, out.nsLabels, labels, 1);
      countAllTerms(out.affinity, out.affinityTerms, existing.pod, labels, 1);
      countAnyTerm(out.antiAffinity, out.antiAffinityTerms, existing.pod, undefined, labels, 1);
    }
  }
  if (out.existingAntiAffinity.size === 0 && out.affinityTerms.length === 0 && out.antiAffinityTerms.length === 0) return 'skip';
  return out;
}

function recountUpdate(s: RecountedPreFilter, other: PodInfo, n: Node, delta: number): void {
  const labels = n.metadata.labels;
  countAnyTerm(s.existingAntiAffinity, other.requiredAntiAffinityTerms, s.pod, s.nsLabels, labels, delta);
  countAllTerms(s.affinity, s.affinityTerms, other.pod, labels, delta);
  countAnyTerm(s.antiAffinity, s.antiAffinityTerms, other.pod, undefined, labels, delta);
}

/** Filter's verdict from recounted counts, as `code:reason` (null when the node fits). */
function recountFilter(s: RecountedPreFilter, labels: Labels): string | null {
  let podsExist = true;
  let affinityOk = true;
  for (const t of s.affinityTerms) {
    const v = labelValue(labels, t.topologyKey);
    if (v === undefined) {
      affinityOk = false;
      break;
    }
    if (s.affinity.get(t.topologyKey, v) <= 0) podsExist = false;
  }
  if (affinityOk && !podsExist) affinityOk = s.affinity.size === 0 && podMatchesAllTerms(s.affinityTerms, s.pod, undefined);
  if (!affinityOk) return `${Code.UnschedulableAndUnresolvable}:${ErrReasonAffinityRulesNotMatch}`;
  for (const t of s.antiAffinityTerms) {
    const v = labelValue(labels, t.topologyKey);
    if (v !== undefined && s.antiAffinity.get(t.topologyKey, v) > 0) return `${Code.Unschedulable}:${ErrReasonAntiAffinityRulesNotMatch}`;
  }
  let repelled = false;
  s.existingAntiAffinity.forEach((k, v, n) => {
    if (n > 0 && labelValue(labels, k) === v) repelled = true;
  });
  return repelled ? `${Code.Unschedulable}:${ErrReasonExistingAntiAffinityRulesNotMatch}` : null;
}

function recountPreScore(world: World, args: InterPodAffinityArgs, pi: PodInfo): TopologyCounts | 'skip' {
  const p = pi.pod;
  const a = p.spec.affinity;
  const hasConstraints =
    (a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0 ||
    (a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
  if (args.ignorePreferredTermsOfExistingPods && !hasConstraints) return 'skip';
  const objects = world.objects;
  const nsLabels = namespaceLabels(objects, podNamespace(p));
  const preferred = mergeTermsNamespaces(pi.preferredAffinityTerms, objects);
  const preferredAnti = mergeTermsNamespaces(pi.preferredAntiAffinityTerms, objects);
  const scores = new TopologyCounts();
  const term = (t: AffinityTerm, w: number, target: Pod, ns: Labels, labels: Labels) => {
    if (!affinityTermMatches(t, target, ns)) return;
    const v = labelValue(labels, t.topologyKey);
    if (v !== undefined) scores.accumulate(t.topologyKey, v, w);
  };
  const weightedTerms = (ts: readonly WeightedAffinityTerm[], sign: number, target: Pod, ns: Labels, labels: Labels) => {
    for (const t of ts) term(t, sign * t.weight, target, ns, labels);
  };
  for (const ni of world.snapshot.list()) {
    const labels = ni.node!.metadata.labels;
    for (const existing of hasConstraints ? ni.pods : ni.podsWithAffinity) {
      weightedTerms(preferred, 1, existing.pod, undefined, labels);
      weightedTerms(preferredAnti, -1, existing.pod, undefined, labels);
      if (args.hardPodAffinityWeight > 0) for (const t of existing.requiredAffinityTerms) term(t, args.hardPodAffinityWeight, p, nsLabels, labels);
      weightedTerms(existing.preferredAffinityTerms, 1, p, nsLabels, labels);
      weightedTerms(existing.preferredAntiAffinityTerms, -1, p, nsLabels, labels);
    }
  }
  return scores.size === 0 ? 'skip' : scores;
}

function normalized(raw: readonly number[]): number[] {
  const min = Math.min(...raw);
  const diff = Math.max(...raw) - min;
  return raw.map((s) => (diff > 0 ? Math.trunc(MaxNodeScore * ((s - min) / diff)) : 0));
}

// ---- Comparing a plugin with the recount ----

const verdict = (s: Status | null): string | null => (s === null ? null : `${s.code}:${s.message()}`);

function assertCountsEqual(state: CycleState, want: RecountedPreFilter, what: string): void {
  const s = state.read<PreFilterState>(preFilterStateKey)!;
  assertEqualData(s.existingAntiAffinityCounts.toRecord(), want.existingAntiAffinity.toRecord(), `${what}: existing anti-affinity counts`);
  assertEqualData(s.affinityCounts.toRecord(), want.affinity.toRecord(), `${what}: affinity counts`);
  assertEqualData(s.antiAffinityCounts.toRecord(), want.antiAffinity.toRecord(), `${what}: anti-affinity counts`);
  assert.equal(s.existingAntiAffinityCounts.size, want.existingAntiAffinity.size, `${what}: existing anti-affinity size`);
  assert.equal(s.affinityCounts.size, want.affinity.size, `${what}: affinity size`);
  assert.equal(s.antiAffinityCounts.size, want.antiAffinity.size, `${what}: anti-affinity size`);
}

function assertFilterEqual(world: World, plugin: InterPodAffinity, state: CycleState, pi: PodInfo, want: RecountedPreFilter, what: string): void {
  for (const ni of world.snapshot.list()) {
    assert.equal(verdict(plugin.filter(state, pi, ni)), recountFilter(want, ni.node!.metadata.labels), `${what}: Filter on ${ni.name}`);
  }
}

/** Runs every extension point of `plugin` for `incoming` and compares each result with the recount. */
function compareAttempt(world: World, plugin: InterPodAffinity, incoming: Pod, args: InterPodAffinityArgs, r: Rnd, what: string): void {
  const pi = new PodInfo(incoming);
  const list = world.snapshot.list();
  const state = new CycleState();
  // Now and then PreFilter gets a node list other than the lister's: counted afresh.
  const nodes = chance(r, 0.1) ? list.slice() : list;
  const pre = plugin.preFilter(state, pi, nodes).status;
  const want = recountPreFilter(world, pi);
  if (want === 'skip') {
    assert.equal(pre?.code, Code.Skip, `${what}: PreFilter should skip`);
  } else {
    assert.equal(pre, null, `${what}: PreFilter`);
    assertCountsEqual(state, want, what);
    assertFilterEqual(world, plugin, state, pi, want, what);

    // AddPod (nominated pods) on the attempt's state, then RemovePod and AddPod on a clone
    // (preemption): the clone's changes must not reach the state it was cloned from.
    const placed = world.placedPods();
    if (placed.length > 0) {
      const nominated = new PodInfo(pod(null, { namespace: pick(r, namespaceNames), labels: randomLabels(r), ...randomSpec(r, 0.5) }));
      const nominatedNode = pick(r, list);
      assert.equal(plugin.addPod(state, pi, nominated, nominatedNode), null);
      recountUpdate(want, nominated, nominatedNode.node!, 1);
      assertCountsEqual(state, want, `${what} (after AddPod)`);
      assertFilterEqual(world, plugin, state, pi, want, `${what} (after AddPod)`);

      const clone = state.clone();
      const victim = pick(r, placed);
      const victimNode = world.snapshot.get(victim.nodeName)!;
      const other = new PodInfo(pod(null, { namespace: pick(r, namespaceNames), labels: randomLabels(r), ...randomSpec(r, 0.5) }));
      const otherNode = pick(r, list);
      assert.equal(plugin.removePod(clone, pi, victim.pi, victimNode), null);
      assert.equal(plugin.addPod(clone, pi, other, otherNode), null);
      const updated = recountPreFilter(world, pi) as RecountedPreFilter;
      recountUpdate(updated, nominated, nominatedNode.node!, 1);
      recountUpdate(updated, victim.pi, victimNode.node!, -1);
      recountUpdate(updated, other, otherNode.node!, 1);
      assertCountsEqual(clone, updated, `${what} (clone after RemovePod/AddPod)`);
      assertFilterEqual(world, plugin, clone, pi, updated, `${what} (clone after RemovePod/AddPod)`);
      assertCountsEqual(state, want, `${what} (original after the clone changed)`);
    }
  }

  const scoreState = new CycleState();
  const preScore = plugin.preScore(scoreState, pi, list);
  const wantScores = recountPreScore(world, args, pi);
  if (wantScores === 'skip') {
    assert.equal(preScore?.code, Code.Skip, `${what}: PreScore should skip`);
    return;
  }
  assert.equal(preScore, null, `${what}: PreScore`);
  assertEqualData(scoreState.read<PreScoreState>(preScoreStateKey)!.topologyScore.toRecord(), wantScores.toRecord(), `${what}: PreScore counts`);
  const raw = list.map((ni) => wantScores.sumFor(ni.node!.metadata.labels));
  assertEqualData(list.map((ni) => plugin.score(scoreState, pi, ni)), raw, `${what}: Score`);
  const batch: NodeScore[] = list.map((ni) => ({ name: ni.name, score: -1 }));
  assert.equal(plugin.scoreNodes(scoreState, pi, list, batch), null);
  assertEqualData(batch.map((s) => s.score), raw, `${what}: scoreNodes`);
  assert.equal(plugin.normalizeScore(scoreState, pi, batch), null);
  assertEqualData(batch.map((s) => s.score), normalized(raw), `${what}: NormalizeScore`);
}

/** A lister without the optional change tracking: the plugin must count from scratch. */
function untracked(snapshot: Snapshot): SharedLister {
  const lister: NodeInfoLister = {
    list: () => snapshot.list(),
    havePodsWithAffinityList: () => snapshot.havePodsWithAffinityList(),
    havePodsWithRequiredAntiAffinityList: () => snapshot.havePodsWithRequiredAntiAffinityList(),
    get: (name) => snapshot.get(name),
  };
  return { nodeInfos: () => lister };
}

/**
 * Incoming pod shapes, some differing from another in one detail only (a weight, a namespace, a
 * label, a topology key), so a cache key that left that detail out would give wrong counts.
 */
function randomIncoming(r: Rnd, count: number): Pod[] {
  const out = Array.from({ length: count }, (_, i) =>
    pod(`incoming-${i}`, { namespace: pick(r, namespaceNames), labels: randomLabels(r), ...randomSpec(r, 0.6) }),
  );
  for (let i = 0; i < count / 2; i++) {
    const variant = structuredClone(out[i]!);
    variant.metadata = { ...variant.metadata, name: `${variant.metadata.name}-variant`, uid: `${variant.metadata.uid}-variant` };
    const a = variant.spec.affinity;
    const preferred = [
      ...(a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []),
      ...(a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []),
    ];
    const required = [
      ...(a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      ...(a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ];
    const expressions = [...required, ...preferred.map((w) => w.podAffinityTerm)].flatMap((t) => t.labelSelector?.matchExpressions ?? []);
    const flipped: Record<string, 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'> = { In: 'NotIn', NotIn: 'In', Exists: 'DoesNotExist', DoesNotExist: 'Exists' };
    const x = r();
    if (x < 0.25 && preferred.length > 0) preferred[0]!.weight += 3;
    else if (x < 0.4 && required.length > 0) required[0]!.topologyKey = required[0]!.topologyKey === 'zone' ? 'region' : 'zone';
    else if (x < 0.55 && expressions.length > 0) expressions[0]!.operator = flipped[expressions[0]!.operator]!;
    else if (x < 0.7) variant.metadata.namespace = namespaceNames[(namespaceNames.indexOf(variant.metadata.namespace!) + 1) % namespaceNames.length];
    else variant.metadata.labels = { ...variant.metadata.labels, app: pick(r, apps), tier: 'y' };
    out.push(variant);
  }
  return out;
}

/**
 * A new pod object of the same shape: a pod of the same workload, which should hit the cache. Its
 * labels add a unique one (as scheduler_perf's "signature") and a batch most terms ignore.
 */
function sibling(p: Pod, n: number): Pod {
  const labels = { ...p.metadata.labels, signature: `s-${n}`, batch: `b${n % 2}` };
  return { ...p, metadata: { ...p.metadata, name: `${p.metadata.name}-${n}`, uid: `${p.metadata.uid}-${n}`, labels } };
}

function runScenario(seed: number, args: InterPodAffinityArgs, steps: number): void {
  const r = seededRandom(seed);
  const world = new World(r, 4 + Math.floor(r() * 8), 10 + Math.floor(r() * 20));
  // More shapes than the caches keep, so entries are evicted and come back.
  const incoming = randomIncoming(r, 8);
  const cached = new InterPodAffinity(args, world.handle);
  const withoutTracking = new InterPodAffinity(
    args,
    newTestHandle({ snapshot: world.snapshot, overrides: { objects: () => world.objects, snapshotSharedLister: () => untracked(world.snapshot) } }),
  );
  let n = 0;
  for (let step = 0; step < steps; step++) {
    world.step();
    for (let k = 0; k < 3; k++) {
      const p = sibling(pick(r, incoming), n++);
      const what = `seed ${seed} step ${step} pod ${p.metadata.name}`;
      compareAttempt(world, cached, p, args, r, `${what} (cached)`);
      // A new instance counts everything: its first sight of every key.
      compareAttempt(world, new InterPodAffinity(args, world.handle), p, args, r, `${what} (fresh)`);
      compareAttempt(world, withoutTracking, p, args, r, `${what} (untracked lister)`);
    }
  }
}

describe('InterPodAffinity counts kept between attempts', () => {
  for (const seed of [1, 2, 3]) {
    it(`match a full recount on a randomly changing cluster (seed ${seed})`, () => {
      runScenario(seed, defaultInterPodAffinityArgs({}), 60);
    });
  }

  it('match a full recount with hardPodAffinityWeight 0 and ignorePreferredTermsOfExistingPods', () => {
    runScenario(7, defaultInterPodAffinityArgs({ hardPodAffinityWeight: 0, ignorePreferredTermsOfExistingPods: true }), 40);
    runScenario(8, defaultInterPodAffinityArgs({ hardPodAffinityWeight: 7 }), 40);
  });

  it('recount when the change log no longer reaches back to the last attempt', () => {
    const r = seededRandom(9);
    const world = new World(r, 6, 20);
    const args = defaultInterPodAffinityArgs({});
    const plugin = new InterPodAffinity(args, world.handle);
    const incoming = randomIncoming(r, 4);
    const attempt = (tag: string) => {
      for (let i = 0; i < incoming.length; i++) compareAttempt(world, plugin, sibling(incoming[i]!, i), args, r, tag);
    };
    attempt('first sight');
    attempt('cached');
    // More pod changes than the snapshot's log keeps (the node list stays), with no attempt in between.
    const epoch = world.snapshot.listEpoch;
    const cursor = world.snapshot.changeCursor;
    for (let i = 0; i < 2500; i++) {
      world.addPod();
      world.cache.updateSnapshot(world.snapshot);
      world.removePod();
      world.cache.updateSnapshot(world.snapshot);
    }
    assert.equal(world.snapshot.listEpoch, epoch);
    assert.equal(world.snapshot.changedSince(epoch, cursor), null);
    attempt('after the log was cut');
  });

  it('match a full recount while nodes come and go for long (domain ids given out afresh)', () => {
    const r = seededRandom(11);
    const world = new World(r, 6, 20);
    const args = defaultInterPodAffinityArgs({});
    const plugin = new InterPodAffinity(args, world.handle);
    const byHostname = { topologyKey: 'hostname', labelSelector: { matchLabels: { app: 'web' } } };
    const incoming = [
      ...randomIncoming(r, 2),
      pod('spread', { labels: { app: 'web' }, antiAffinity: [byHostname], preferredAffinity: [{ weight: 3, podAffinityTerm: byHostname }] }),
    ];
    // Every new node brings a new hostname: well over a thousand values the table has seen.
    for (let i = 0; i < 1300; i++) {
      world.addNode();
      world.addPod();
      const names = [...world.nodes.keys()];
      const gone = names[Math.floor(r() * (names.length - 1))]!;
      world.cache.removeNode(world.nodes.get(gone)!);
      world.nodes.delete(gone);
      world.cache.updateSnapshot(world.snapshot);
      // An attempt per change, so the table sees every new hostname; all shapes now and then.
      const shapes = i % 25 === 0 ? incoming : [incoming[2]!];
      for (let k = 0; k < shapes.length; k++) compareAttempt(world, plugin, sibling(shapes[k]!, i * 10 + k), args, r, `churn ${i}`);
    }
  });

  it('a Namespace relabelled changes what existing pods’ namespaceSelectors match', () => {
    const world = new World(seededRandom(10), 0, 0);
    const args = defaultInterPodAffinityArgs({});
    const plugin = new InterPodAffinity(args, world.handle);
    const n1 = node('n1', { zone: 'z1', hostname: 'n1' });
    world.cache.addNode(n1);
    const repel = pod('repel', {
      namespace: 'ns-a',
      node: 'n1',
      antiAffinity: [{ topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web' } }, namespaceSelector: { matchLabels: { team: 'blue' } } }],
    });
    world.cache.addPod(repel);
    world.cache.updateSnapshot(world.snapshot);
    const incoming = pod('web', { namespace: 'ns-b', labels: { app: 'web' } });
    const filterN1 = () => {
      const state = new CycleState();
      const pi = new PodInfo(sibling(incoming, 0));
      const s = plugin.preFilter(state, pi, world.snapshot.list()).status;
      return s?.code === Code.Skip ? 'skip' : verdict(plugin.filter(state, pi, world.snapshot.get('n1')!));
    };
    assert.equal(filterN1(), 'skip');
    assert.equal(filterN1(), 'skip');
    world.objects.upsert(namespace('ns-b', { team: 'blue' }));
    assert.equal(filterN1(), `${Code.Unschedulable}:${ErrReasonExistingAntiAffinityRulesNotMatch}`);
    world.objects.upsert(namespace('ns-b', { team: 'red' }));
    assert.equal(filterN1(), 'skip');
  });
});

describe('DomainTable', () => {
  it('gives each listed node the id of its label value and follows label changes', () => {
    const world = new World(seededRandom(12), 0, 0);
    for (const [name, zone] of [['a', 'z1'], ['b', 'z2'], ['c', 'z1']] as const) {
      const n = node(name, { zone });
      world.nodes.set(name, n);
      world.cache.addNode(n);
    }
    world.cache.addNode(node('d'));
    world.cache.updateSnapshot(world.snapshot);
    const table = new DomainTable();
    table.sync(world.snapshot);
    const zone = table.keyIndex('zone');
    const domainOf = (name: string) => table.domain(zone, table.position(world.snapshot.get(name)!));
    assert.equal(domainOf('a'), domainOf('c'));
    assert.notEqual(domainOf('a'), domainOf('b'));
    assert.equal(domainOf('d'), -1);
    assert.equal(table.position(world.snapshot.get('a')!.clone()), -1, 'a copy of a NodeInfo is not in the table');

    world.cache.updateNode(world.nodes.get('c')!, node('c', { zone: 'z2' }));
    world.cache.updateSnapshot(world.snapshot);
    table.sync(world.snapshot);
    assert.equal(domainOf('c'), domainOf('b'));
  });

  it('gives ids out afresh once far more values were seen than nodes are listed', () => {
    const world = new World(seededRandom(13), 2, 0);
    const table = new DomainTable();
    table.sync(world.snapshot);
    const host = table.keyIndex('hostname');
    for (let i = 0; i < 1100; i++) table.valueId(host, `old-${i}`);
    world.addNode();
    world.cache.updateSnapshot(world.snapshot);
    table.sync(world.snapshot);
    assert.equal(table.version, 1);
    const list = world.snapshot.list();
    const ids = list.map((ni) => table.domain(host, table.position(ni))).filter((d) => d >= 0);
    assert.ok(ids.every((d) => d < list.length), `ids ${ids} start over`);
  });
});

describe('TopologyCounts clones', () => {
  // A reference: the pairs as a plain record, a pair dropped at 0.
  const addTo = (rec: Record<string, number>, k: string, v: string, d: number) => {
    const n = (rec[`${k}=${v}`] ?? 0) + d;
    if (n === 0) delete rec[`${k}=${v}`];
    else rec[`${k}=${v}`] = n;
  };

  for (const bound of [false, true]) {
    it(`read like counts changed in place, while clones and the original stay apart (${bound ? 'bound to a table' : 'own ids'})`, () => {
      const r = seededRandom(14);
      const keys = ['zone', 'hostname'];
      const values = ['a', 'b', 'c'];
      for (let round = 0; round < 50; round++) {
        const base = new TopologyCounts(bound ? new DomainTable() : null);
        const want: Record<string, number> = {};
        for (let i = 0; i < 6; i++) {
          const [k, v, d] = [pick(r, keys), pick(r, values), 1 + Math.floor(r() * 3)];
          base.add(k, v, d);
          addTo(want, k, v, d);
        }
        const baseRecord = { ...want };
        let view = base.clone();
        let viewWant = { ...want };
        for (let i = 0; i < 12; i++) {
          if (chance(r, 0.2)) {
            const copy = view.clone();
            copy.add('zone', 'a', 5);
            const copyWant = { ...viewWant };
            addTo(copyWant, 'zone', 'a', 5);
            if (chance(r, 0.5)) [view, viewWant] = [copy, copyWant];
          }
          const [k, v, d] = [pick(r, keys), pick(r, values), Math.floor(r() * 7) - 3];
          view.add(k, v, d);
          addTo(viewWant, k, v, d);
          assertEqualData(view.toRecord(), viewWant);
          assert.equal(view.size, Object.keys(viewWant).length);
          for (const value of values) {
            const labels = { zone: value, hostname: pick(r, values) };
            assert.equal(view.anyPositive(labels), (viewWant[`zone=${value}`] ?? 0) > 0 || (viewWant[`hostname=${labels.hostname}`] ?? 0) > 0);
            assert.equal(view.get('zone', value), viewWant[`zone=${value}`] ?? 0);
          }
        }
        assertEqualData(base.toRecord(), baseRecord, 'the original is never changed');
      }
    });
  }
});
