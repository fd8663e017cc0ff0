// The corpus helper reads each scenario's family without parsing it; the suites choose what to
// replay by that family, so a format it misread would skip scenarios silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario } from '../src/sim/scenario/scenario.js';
import { corpusDir, corpusFamily, corpusFiles, corpusScenario } from './fidelity_corpus.js';

test('the family read from the text is the parsed metadata.family, for every corpus scenario', { skip: corpusDir ? false : 'no scenario corpus found' }, () => {
  const files = corpusFiles();
  assert.ok(files.length > 0);
  for (const file of files) assert.equal(corpusFamily(file), corpusScenario(file).metadata.family, file);
});

test('a scenario is frozen, so one replay cannot change the next', { skip: corpusDir ? false : 'no scenario corpus found' }, () => {
  const [file] = corpusFiles();
  const first = corpusScenario(file!);
  assert.throws(() => {
    first.nodes.length = 0;
  }, TypeError);
  assert.throws(() => {
    first.nodes[0]!.metadata.name = 'changed';
  }, TypeError);
  assert.ok(corpusScenario(file!).nodes.length > 0);
});

test('the corpus parser reads what the scenario loader\'s own YAML parser reads, one scenario of each family', { skip: corpusDir ? false : 'no scenario corpus found' }, () => {
  const firstOfFamily = new Map<string, string>();
  for (const file of corpusFiles()) if (!firstOfFamily.has(corpusFamily(file))) firstOfFamily.set(corpusFamily(file), file);
  assert.ok(firstOfFamily.size > 1);
  for (const file of firstOfFamily.values()) {
    const path = join(corpusDir!, file);
    assert.deepEqual(corpusScenario(file), parseScenario(readFileSync(path, 'utf8'), path), file);
  }
});
