// assert.deepStrictEqual for plain data (arrays, plain objects, primitives) in hot test loops:
// node's deep comparison costs more than the code the property tests check, so a plain walk
// decides the equal case and node's assertion runs only to judge and describe the rest.
import assert from 'node:assert/strict';

export function assertEqualData(actual: unknown, expected: unknown, message?: string): void {
  if (plainEqual(actual, expected)) return;
  assert.deepStrictEqual(actual, expected, message);
}

/** True only when deepStrictEqual would hold for sure; false for anything it does not walk. */
function plainEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const proto = Object.getPrototypeOf(a) as unknown;
  if (proto !== Object.getPrototypeOf(b)) return false;
  if (proto === Array.prototype) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length || Object.keys(x).length !== x.length || Object.keys(y).length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!plainEqual(x[i], y[i])) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  if (Object.getOwnPropertySymbols(a).length > 0 || Object.getOwnPropertySymbols(b).length > 0) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of keys) if (!Object.prototype.hasOwnProperty.call(y, k) || !plainEqual(x[k], y[k])) return false;
  return true;
}
