// The share IDs the plugin draws from the scheduler's random source.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../../util/clock.js';
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
});
