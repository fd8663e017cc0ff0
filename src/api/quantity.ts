// resource.Quantity parsing (k8s.io/apimachinery/pkg/api/resource). PROVISIONAL: to be replaced by an
// exact implementation.
import type { QuantityValue } from './types.js';

export class QuantityError extends Error {
  override name = 'QuantityError';
}

const pattern = /^([+-]?[0-9]*\.?[0-9]*)([a-zA-Z]*|[eE][+-]?[0-9]+)$/;
const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const decimal: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** Parses a quantity to a float (approximate). */
function parseApprox(input: QuantityValue): number {
  if (typeof input === 'number') return input;
  const m = pattern.exec(input.trim());
  if (!m || m[1] === '' || m[1] === '.' || m[1] === '+' || m[1] === '-') throw new QuantityError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  const num = Number(m[1]);
  const suffix = m[2]!;
  if (/^[eE]/.test(suffix)) return num * 10 ** Number(suffix.slice(1));
  const mult = binary[suffix] ?? decimal[suffix];
  if (mult === undefined) throw new QuantityError(`unable to parse quantity's suffix`);
  return num * mult;
}

/** Value() of a quantity: rounded up to an integer. */
export function quantityValue(input: QuantityValue): number {
  return Math.ceil(parseApprox(input) - 1e-9);
}

/** MilliValue() of a quantity: thousandths, rounded up. */
export function quantityMilliValue(input: QuantityValue): number {
  return Math.ceil(parseApprox(input) * 1000 - 1e-6);
}
