import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freeGeneratedName, generatedName, generateNameAttempts } from './generate_name.js';
import { seededRandom } from '../../util/clock.js';

/** A source answering `values` in turn, over and over. */
const cycling = (values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('generateName (kube-apiserver SimpleNameGenerator)', () => {
  it('appends five characters of the API server alphabet', () => {
    const name = generatedName('web-', seededRandom(7));
    assert.match(name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(generatedName('p-', () => 0), 'p-bbbbb');
    assert.equal(generatedName('p-', () => 0.999), 'p-99999');
  });

  it('cuts a prefix past 58 characters, so the name stays at 63', () => {
    const long = 'a'.repeat(70);
    const name = generatedName(long, () => 0);
    assert.equal(name, `${'a'.repeat(58)}bbbbb`);
    assert.equal(name.length, 63);
    assert.equal(generatedName('a'.repeat(58), () => 0).length, 63, 'a 58-character prefix is kept whole');
  });

  it('generates again while the name is taken, at most eight names in all', () => {
    const taken = new Set(['x-bbbbb', 'x-ccccc']);
    const asked: string[] = [];
    const free = freeGeneratedName('x-', cycling([0, 0, 0, 0, 0, 0.04, 0.04, 0.04, 0.04, 0.04, 0.08, 0.08, 0.08, 0.08, 0.08]), (n) => (asked.push(n), taken.has(n)));
    assert.equal(free, 'x-ddddd');
    assert.deepEqual(asked, ['x-bbbbb', 'x-ccccc', 'x-ddddd']);

    let tries = 0;
    assert.equal(freeGeneratedName('y-', () => 0, () => (tries++, true)), 'y-bbbbb', 'the last name tried, for the AlreadyExists');
    assert.equal(tries, generateNameAttempts - 1, 'the eighth name goes to the create, which fails with AlreadyExists');
  });
});
