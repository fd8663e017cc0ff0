// Finds the test files of one suite: `npm test` loads the fast `*.test.ts`, `npm run test:e2e` the
// real-time `*.e2e.test.ts`; TEST_FILTER keeps the files whose path contains it. The fast suite
// runs as `fastShards` processes at once, its files dealt out by their measured cost.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type Suite = 'fast' | 'e2e';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Written by `npm run test:costs`: CPU milliseconds of each fast test file. */
export const costsFile = join(root, 'test', 'test_costs.json');
/** One per core of the 2-core machine the suite is timed on; test/fast_shard_<i>.ts loads shard i. */
const fastShards = 2;
const e2eSuffix = '.e2e.test.ts';
/** Files that share a cost paid once per process go to one shard, so only one shard pays it. */
export const sameShard: readonly (readonly string[])[] = [
  // The parsed fidelity corpus (test/fidelity_corpus.ts), our explain answers to it (test/upstream/ours.ts).
  ['src/plugins/noderesources/fidelity.test.ts', 'test/fidelity_corpus.test.ts', 'test/explain_diagnosis.test.ts', 'test/fidelity.test.ts'],
  // @kubernetes/client-node, half a second to load: `run` and the clients of the embedded API server.
  ['src/cli/commands/run_gates.test.ts', 'src/cli/commands/snapshot.test.ts', 'src/cli/commands/what_if_from_cluster.test.ts',
    'src/cluster/kube/import.test.ts', 'src/cluster/kube/rest.test.ts', 'test/cli.test.ts'],
  // The TypeScript compiler, loaded for the import graph and the public surface.
  ['test/imports.test.ts', 'test/public_api.test.ts'],
];

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

export function testFiles(suite: Suite, filter = process.env.TEST_FILTER): string[] {
  return [...walk(join(root, 'src')), ...walk(join(root, 'test'))].filter(
    (file) => file.endsWith(e2eSuffix) === (suite === 'e2e') && (!filter || relative(root, file).includes(filter)),
  );
}

/**
 * Deals the files out to `shards` shards, heaviest first, each to the lightest shard so far, so
 * the shards finish together. A file without a measured cost counts as the median; the files of
 * a `groups` entry go together, as one of their summed cost.
 */
export function dealShards(
  files: readonly string[],
  costs: Readonly<Record<string, number>>,
  shards: number,
  groups: readonly (readonly string[])[] = [],
): string[][] {
  const known = files.map((f) => costs[f]).filter((c): c is number => c !== undefined).sort((a, b) => a - b);
  const median = known.length === 0 ? 1 : known[Math.floor(known.length / 2)]!;
  const units = new Map<string, { files: string[]; cost: number }>();
  for (const file of files) {
    const key = groups.find((g) => g.includes(file))?.[0] ?? file;
    const unit = units.get(key) ?? { files: [], cost: 0 };
    unit.files.push(file);
    unit.cost += costs[file] ?? median;
    units.set(key, unit);
  }
  const byCost = [...units.values()].sort((a, b) => b.cost - a.cost || (a.files[0]! < b.files[0]! ? -1 : 1));
  const out = Array.from({ length: shards }, () => ({ files: [] as string[], load: 0 }));
  for (const unit of byCost) {
    const lightest = out.reduce((min, s) => (s.load < min.load ? s : min));
    lightest.files.push(...unit.files);
    lightest.load += unit.cost;
  }
  // Within a shard, the usual order: by path.
  return out.map((s) => s.files.sort());
}

function measuredCosts(): Record<string, number> {
  return existsSync(costsFile) ? (JSON.parse(readFileSync(costsFile, 'utf8')) as Record<string, number>) : {};
}

async function load(files: readonly string[]): Promise<void> {
  for (const file of files) await import(pathToFileURL(file).href);
}

/** Imports every file of the suite into this process: one TypeScript loader for all of them. */
export async function loadSuite(suite: Suite): Promise<void> {
  await load(testFiles(suite));
}

/** Imports the files of fast shard `shard` (1-based) that pass TEST_FILTER into this process. */
export async function loadFastShard(shard: number): Promise<void> {
  const files = testFiles('fast').map((f) => relative(root, f));
  const mine = dealShards(files, measuredCosts(), fastShards, sameShard)[shard - 1];
  if (!mine) throw new Error(`there are ${fastShards} fast shards, not ${shard}`);
  await load(mine.map((f) => join(root, f)));
}
