// `npm run test:upstream`: our scheduler against the pinned upstream release's, scenario by
// scenario, through the Go differential harness (upstream/cmd/harness).
//
//   npm run test:upstream                          # public corpus + 200 generated scenarios (seed 1)
//   npm run test:upstream -- --count 500 --seed 7  # more generated scenarios, another seed
//   npm run test:upstream -- --family preemption   # generated scenarios of one family only
//   npm run test:upstream -- --save /tmp/diffs     # keep every generated scenario that disagrees
//   npm run test:upstream -- --feature-gates MatchLabelKeysInPodTopologySpread=false,...  # both sides
//   npm run test:upstream -- --record              # re-record test/fixtures' expectations
//
// Exit status 0 when every pod agrees or differs only in a known way, 1 otherwise; without Go it
// prints "skipped: no Go" and exits 0.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadScenario, type Scenario } from '../../src/sim/scenario/scenario.js';
import { clusterGates } from '../../src/sim/scenario/embedded.js';
import { podGroupFieldGates } from '../../src/cluster/memory/store.js';
import { compareScenario, type PodComparison } from './compare.js';
import { families, generateScenario, type Family } from './generator.js';
import type { ExplainPod } from '../../src/sim/explain/explain.js';
import { buildCommand, findGo, HarnessError, listUpstreamGates, runHarness, testHarness } from './harness.js';
import { compareGateTables } from './gate_table.js';
import { FeatureGates } from '../../src/config/feature_gates.js';
import { knownDifferences } from './known_differences.js';
import { explainOurs } from './ours.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** The copy of the shared corpus: the scenarios as inputs (with their v1.26 recordings). */
const fixtures = join(root, 'test/fixtures/scenarios/public');
/** The pinned release's expectations for them, recorded by --record. */
const recorded = join(root, 'test/fixtures/scenarios');
/** The project's own DRA scenarios, each with its recording beside it (NAME.expected.json). */
const draFixtures = join(root, 'test/fixtures/scenarios/dra');

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    family: { type: 'string', multiple: true },
    corpus: { type: 'string' },
    'no-corpus': { type: 'boolean', default: false },
    save: { type: 'string' },
    record: { type: 'boolean', default: false },
    verbose: { type: 'boolean', short: 'v', default: false },
    'feature-gates': { type: 'string', default: '' },
  },
});

const count = Number(values.count);
const seed = Number(values.seed);
if (!Number.isInteger(count) || count < 0 || !Number.isInteger(seed)) {
  console.error('--count and --seed take integers');
  process.exit(2);
}
const gateFlag = values['feature-gates'];
let featureGates: FeatureGates;
try {
  featureGates = FeatureGates.parse([gateFlag]);
} catch (err) {
  console.error(`--feature-gates: ${(err as Error).message}`);
  process.exit(2);
}

// Pod groups mean something only with GenericWorkload on: the workload family joins the default
// families then (and runs alone with --family workload either way).
const chosenFamilies = (values.family ?? families.filter((f) => f !== 'workload' || featureGates.enabled('GenericWorkload'))) as Family[];
for (const f of chosenFamilies) {
  if (!families.includes(f)) {
    console.error(`unknown family ${f}; one of ${families.join(', ')}`);
    process.exit(2);
  }
}

const go = findGo();
if (!go) {
  console.log('skipped: no Go');
  process.exit(0);
}
const started = Date.now();
console.log(`== building and testing the harness (${go})`);
const harness = buildCommand(go, 'harness');
testHarness(go);
console.log(`   ${((Date.now() - started) / 1000).toFixed(1)} s`);

const gateTableDiffs = compareGateTables(listUpstreamGates(harness));
if (gateTableDiffs.length > 0) {
  console.log(`== src/api/feature_gate_specs.ts differs from the pinned release's gates:\n${gateTableDiffs.map((d) => `  ${d}`).join('\n')}`);
}
if (gateFlag !== '') console.log(`== feature gates: ${gateFlag}`);

if (values.record) {
  // The scenarios stay as they are; the pinned release's answers are written beside the folder.
  for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.yaml')).sort()) {
    const expected = runHarness(harness, join(fixtures, file));
    writeFileSync(join(recorded, file.replace(/\.yaml$/, '.expected.json')), JSON.stringify(expected, null, 2) + '\n');
  }
  for (const file of readdirSync(draFixtures).filter((f) => f.endsWith('.yaml')).sort()) {
    const expected = runHarness(harness, join(draFixtures, file));
    writeFileSync(join(draFixtures, file.replace(/\.yaml$/, '.expected.json')), JSON.stringify(expected, null, 2) + '\n');
  }
  console.log(`recorded ${recorded}/*.expected.json and ${draFixtures}/*.expected.json`);
  process.exit(0);
}

interface Tally {
  scenarios: number;
  pods: number;
  agree: number;
  known: Map<string, number>;
  disagree: number;
  after: number;
  failedScenarios: string[];
  /** Pod groups (GenericWorkload) among the pending pods: a group agrees when every member does. */
  groups: { total: number; agree: number; known: number; after: number };
  /** Scenarios where upstream's answer has a member of a CompositePodGroup tree preempting (victims or a nomination). */
  treePreemptions: number;
}
const tally: Tally = { scenarios: 0, pods: 0, agree: 0, known: new Map(), disagree: 0, after: 0, failedScenarios: [], groups: { total: 0, agree: 0, known: 0, after: 0 }, treePreemptions: 0 };

/** Whether a member of a tree (a PodGroup under a CompositePodGroup) preempted in `answer`. */
function treePreempts(scenario: Scenario, answer: readonly ExplainPod[]): boolean {
  const inTree = new Set<string>();
  for (const o of scenario.objects) {
    const spec = (o as { spec?: { parentCompositePodGroupName?: string } }).spec;
    if (o.kind === 'PodGroup' && spec?.parentCompositePodGroupName !== undefined) inTree.add(`${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`);
  }
  if (inTree.size === 0) return false;
  const members = new Set<string>();
  for (const p of scenario.pending) {
    const group = p.spec.schedulingGroup?.podGroupName;
    const ns = p.metadata.namespace ?? 'default';
    if (group !== undefined && inTree.has(`${ns}/${group}`)) members.add(`${ns}/${p.metadata.name ?? ''}`);
  }
  return answer.some((p) => members.has(p.pod) && (p.nominatedNode !== '' || p.victims.length > 0));
}

/** Tallies the scenario's pod groups: each pending member's comparison, by its group. */
function tallyGroups(scenario: Scenario, results: readonly PodComparison[]): void {
  const byPod = new Map(results.map((r) => [r.pod, r]));
  const groups = new Map<string, PodComparison[]>();
  for (const p of scenario.pending) {
    const group = p.spec.schedulingGroup?.podGroupName;
    const ns = p.metadata.namespace ?? 'default';
    const r = byPod.get(`${ns}/${p.metadata.name ?? ''}`);
    if (group === undefined || r === undefined) continue;
    const members = groups.get(`${ns}/${group}`) ?? [];
    members.push(r);
    groups.set(`${ns}/${group}`, members);
  }
  for (const members of groups.values()) {
    tally.groups.total++;
    const differing = members.filter((m) => m.diffs.length > 0);
    if (differing.length > 0) {
      if (differing.every((m) => m.afterDivergence)) tally.groups.after++;
      continue;
    }
    if (members.some((m) => m.known.length > 0)) tally.groups.known++;
    else tally.groups.agree++;
  }
}

function report(name: string, results: PodComparison[]): boolean {
  tally.scenarios++;
  let failed = false;
  const lines: string[] = [];
  for (const r of results) {
    tally.pods++;
    for (const k of r.known) tally.known.set(k, (tally.known.get(k) ?? 0) + 1);
    if (r.diffs.length === 0) {
      if (r.known.length === 0) tally.agree++;
      continue;
    }
    if (r.afterDivergence) {
      tally.after++;
      lines.push(`  ${r.pod} (after an earlier pod was placed differently):`);
    } else {
      tally.disagree++;
      failed = true;
      lines.push(`  ${r.pod}${r.known.length > 0 ? ` (besides ${r.known.join(', ')})` : ''}:`);
    }
    for (const d of r.diffs.slice(0, values.verbose ? undefined : 12)) lines.push(`    ${d}`);
    if (!values.verbose && r.diffs.length > 12) lines.push(`    ... ${r.diffs.length - 12} more (--verbose)`);
  }
  const known = new Set(results.flatMap((r) => r.known));
  const verdict = failed ? 'DISAGREE' : lines.length > 0 ? 'agree until a known difference moved a pod' : known.size > 0 ? `agree (known: ${[...known].join(', ')})` : 'agree';
  console.log(`${name}: ${results.length} pods, ${verdict}`);
  if (failed || values.verbose) for (const l of lines) console.log(l);
  if (failed) tally.failedScenarios.push(name);
  return failed;
}

async function compareFile(name: string, path: string): Promise<boolean> {
  let upstream: { pods: ExplainPod[] };
  try {
    upstream = runHarness(harness, path, gateFlag);
  } catch (err) {
    if (!(err instanceof HarnessError)) throw err;
    tally.scenarios++;
    tally.failedScenarios.push(name);
    console.log(`${name}: HARNESS FAILED\n  ${err.message}`);
    return true;
  }
  const scenario = loadScenario(path, { gates: podGroupFieldGates(clusterGates(featureGates)) });
  const ours = await explainOurs(scenario, featureGates);
  const results = compareScenario(scenario, upstream, ours);
  tallyGroups(scenario, results);
  if (treePreempts(scenario, upstream.pods)) tally.treePreemptions++;
  return report(name, results);
}

console.log('(in the differences below, "expected" is upstream\'s answer and "actual" ours)');
if (!values['no-corpus']) {
  const shared = join(root, '../shared/scenarios/public');
  const dir = values.corpus ?? (existsSync(shared) ? shared : fixtures);
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
  console.log(`== corpus: ${dir} (${files.length} scenarios)`);
  for (const f of files) await compareFile(f, join(dir, f));
  const dra = readdirSync(draFixtures).filter((f) => f.endsWith('.yaml')).sort();
  console.log(`== DRA scenarios: ${draFixtures} (${dra.length})`);
  for (const f of dra) await compareFile(`dra/${f}`, join(draFixtures, f));
}

if (count > 0) {
  console.log(`== generated: ${count} scenarios, seed ${seed}, families ${chosenFamilies.join(', ')}`);
  const work = mkdtempSync(join(tmpdir(), 'test-upstream-'));
  try {
    for (let i = 0; i < count; i++) {
      const family = chosenFamilies[i % chosenFamilies.length]!;
      const sc = generateScenario(seed, i, family, { topology: featureGates.enabled('TopologyAwareWorkloadScheduling'), sharedClaims: featureGates.enabled('DRAWorkloadResourceClaims'), composites: featureGates.enabled('CompositePodGroup') });
      const name = `${sc.metadata.name}`;
      // JSON, not YAML: a YAML 1.1 reader (upstream's) and a YAML 1.2 one (ours) disagree on
      // plain scalars such as `yes`.
      const path = join(work, `${name}.json`);
      writeFileSync(path, JSON.stringify(sc, null, 1));
      const failed = await compareFile(`${name} (${family})`, path);
      if (failed && values.save) {
        mkdirSync(values.save, { recursive: true });
        writeFileSync(join(values.save, `${name}.json`), JSON.stringify(sc, null, 1));
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

console.log(`== ${tally.scenarios} scenarios, ${tally.pods} pods: ${tally.agree} agree, ${tally.disagree} disagree, ` +
  `${tally.after} differ after an earlier disagreement, ${[...tally.known.values()].reduce((a, b) => a + b, 0)} known differences; ` +
  `${((Date.now() - started) / 1000).toFixed(0)} s`);
const g = tally.groups;
if (g.total > 0) {
  console.log(`   ${g.total} pod groups: ${g.agree} agree in every member, ${g.known} with a known difference, ` +
    `${g.after} differ after an earlier disagreement, ${g.total - g.agree - g.known - g.after} differ`);
}
if (tally.treePreemptions > 0) console.log(`   ${tally.treePreemptions} scenarios with a CompositePodGroup tree that preempts (upstream's answer)`);
for (const k of knownDifferences) {
  const n = tally.known.get(k.id);
  if (n) console.log(`   known ${k.id} (${n} pods): ${k.why}`);
}
if (tally.failedScenarios.length > 0) console.log(`disagreeing scenarios: ${tally.failedScenarios.join(', ')}`);
if (tally.failedScenarios.length > 0 || gateTableDiffs.length > 0) process.exit(1);
