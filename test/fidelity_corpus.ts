// The public fidelity corpus (upstream kube-scheduler's recorded decisions, see
// ../shared/scenarios/README.md), parsed once per process: four suites replay it. Each file is
// parsed when a test first asks for it, not while the suites are collected, so loading stalls no
// other test for seconds. Its 14 MB of YAML are read by js-yaml, a twelfth of the time the `yaml`
// package takes (3.4 s of CPU, more than all the replays); the scenario loader then checks the
// documents as it checks its own, and a test holds both parsers to the same values on a sample.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { scenarioFromDocuments, type Scenario } from '../src/sim/scenario/scenario.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The repository's copy of the corpus, else the shared one beside the repository. */
export const corpusDir: string | undefined = [
  join(repoRoot, 'test', 'fixtures', 'scenarios', 'public'),
  join(repoRoot, '..', 'shared', 'scenarios', 'public'),
].find((d) => existsSync(d));

/** The corpus's scenario files (`NNN.yaml`), sorted; none without a corpus. */
export function corpusFiles(): string[] {
  return corpusDir ? readdirSync(corpusDir).filter((f) => f.endsWith('.yaml')).sort() : [];
}

function corpusPath(file: string): string {
  if (!corpusDir) throw new Error(`no fidelity corpus found for ${file}`);
  return join(corpusDir, file);
}

/** The scenario's `metadata.family`, read without parsing the file: the corpus writes its metadata first. */
export function corpusFamily(file: string): string {
  const text = readFileSync(corpusPath(file), 'utf8');
  const metadata = /^metadata:\n((?:[ \t].*\n)*)/m.exec(text)?.[1] ?? '';
  return /^ {2}family:[ \t]*(\S+)/m.exec(metadata)?.[1] ?? 'unknown';
}

const parsed = new Map<string, Scenario>();

/**
 * The scenario of a corpus file, shared by every replay and deeply frozen: the embedded store copies
 * what it is given, so no replay needs a copy of its own (a copy per call cost 0.4 s of the fast
 * suite), and one that tried to change the scenario would throw rather than change the next.
 */
export function corpusScenario(file: string): Scenario {
  let scenario = parsed.get(file);
  if (!scenario) {
    const path = corpusPath(file);
    scenario = scenarioFromDocuments(loadAll(readFileSync(path, 'utf8'), { schema: CORE_SCHEMA }), path);
    deepFreeze(scenario);
    parsed.set(file, scenario);
  }
  return scenario;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  for (const member of Object.values(value)) deepFreeze(member);
  Object.freeze(value);
}
