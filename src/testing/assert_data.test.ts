import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertEqualData } from './assert_data.js';

describe('assertEqualData agrees with assert.deepStrictEqual', () => {
  const cases: { name: string; a: unknown; b: unknown }[] = [
    { name: 'equal nested data', a: { x: [1, [2, 'a']], y: null }, b: { x: [1, [2, 'a']], y: null } },
    { name: 'NaN equals NaN', a: [Number.NaN], b: [Number.NaN] },
    { name: '0 and -0 differ', a: [0], b: [-0] },
    { name: 'a hole is not undefined', a: Object.assign(new Array<number>(2), { 1: 1 }), b: [undefined, 1] },
    { name: 'key order does not matter', a: { p: 1, q: 2 }, b: { q: 2, p: 1 } },
    { name: 'a missing key is not an undefined one', a: { p: undefined }, b: { q: undefined } },
    { name: 'different lengths', a: [1, 2], b: [1] },
    { name: 'Maps are compared by node', a: new Map([[1, 2]]), b: new Map([[1, 3]]) },
    { name: 'equal Maps', a: new Map([[1, [2]]]), b: new Map([[1, [2]]]) },
    { name: 'a class instance is not a plain object', a: new (class { v = 1 })(), b: { v: 1 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      let deep = true;
      try {
        assert.deepStrictEqual(c.a, c.b);
      } catch {
        deep = false;
      }
      if (deep) assertEqualData(c.a, c.b);
      else assert.throws(() => assertEqualData(c.a, c.b), assert.AssertionError);
    });
  }
});
