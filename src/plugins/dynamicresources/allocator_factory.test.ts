// The share IDs the plugin draws from the scheduler's random source.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deferDraws, seededRandom } from '../../util/clock.js';
import { seededShareID } from './allocator_factory.js';

/** The IDs as earlier builds wrote them (digit by digit with toString): replays must not change. */
function reference(random: () => number): () => string {
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  return () => `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + Math.floor(random() * 4)).toString(16)}${hex(3)}-${hex(12)}`;
}

describe('seededShareID', () => {
  for (const seed of [1, 42, 0x7fffffff]) {
    it(`seed ${seed}: the same IDs from the same draws as before`, () => {
      const ours = seededShareID(seededRandom(seed));
      const want = reference(seededRandom(seed));
      for (let i = 0; i < 200; i++) {
        const id = ours();
        assert.equal(id, want());
        assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
    });
  }

  it('takes 31 draws per ID, so what the source gives afterwards is unchanged', () => {
    let draws = 0;
    const random = seededRandom(5);
    seededShareID(() => (draws++, random()))();
    assert.equal(draws, 31);
  });

  it('later: the same IDs as drawn now, and the source moved past them at once', () => {
    for (const defer of ['seeded', 'plain'] as const) {
      const eager = seededRandom(9);
      const lazy = seededRandom(9);
      // A source without defer: deferDraws draws now and keeps the numbers.
      const source = defer === 'seeded' ? lazy : () => lazy();
      const now = seededShareID(eager);
      const later = seededShareID(source, (n) => deferDraws(source, n)).later!;
      const want = [now(), now(), now()];
      const ids = later(3);
      assert.equal(lazy(), eager(), `${defer}: the source continues where three IDs end`);
      assert.deepEqual(ids(), want, defer);
      assert.equal(ids(), ids(), 'written once');
    }
  });
});

describe('seededRandom defer', () => {
  it('hands out the next n draws later and goes on after them', () => {
    for (const n of [0, 1, 31, 1000]) {
      const reference = seededRandom(3);
      const random = seededRandom(3);
      random();
      reference();
      const later = random.defer(n);
      const afterwards = random();
      const want = Array.from({ length: n }, () => reference());
      assert.equal(afterwards, reference(), `n=${n}`);
      assert.deepEqual(Array.from({ length: n }, () => later()), want);
    }
  });
});
