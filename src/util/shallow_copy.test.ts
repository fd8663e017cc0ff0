// Tests for shallow_copy.ts: the copy is `{ ...obj }` by value and key order.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { shallowCopy } from './shallow_copy.js';

describe('shallowCopy', () => {
  it('copies own enumerable keys in order, sharing the values', () => {
    const inner = { x: 1 };
    const src = { b: 1, a: inner, u: undefined, n: null };
    const copy = shallowCopy(src);
    assert.notEqual(copy, src);
    assert.deepEqual(Object.keys(copy), Object.keys({ ...src }));
    assert.equal(copy.a, inner);
    assert.ok('u' in copy);
  });

  it('a key added after keeps the order a spread with that key would give', () => {
    const src: Record<string, unknown> = { a: 1, b: 2 };
    const copy = shallowCopy(src);
    copy.c = 3;
    copy.a = 0;
    assert.deepEqual(Object.entries(copy), Object.entries({ ...src, c: 3, a: 0 }));
    assert.deepEqual(src, { a: 1, b: 2 }, 'the source is unchanged');
  });
});
