// Kubernetes' CEL libraries a DRA selector can call, registered on a cel-js environment:
// k8s.io/apiserver/pkg/cel/library (quantity.go, semverlib.go, lists.go, regex.go) and the
// cel-go string extensions the base environment adds that cel-js does not have built in.
import type { Environment } from '@marcbachmann/cel-js';
import { parseQuantity, Quantity, QuantityError } from '../quantity.js';
import { parseSemver, parseSemverNormalized, Semver, SemverError } from './semver.js';

/** A runtime error raised by a library function, with cel-go's wording. */
export class CelLibraryError extends Error {}

/** quantity("...") literals repeat in every evaluation; parsed quantities never change. */
const parsedQuantities = new Map<string, Quantity>();
const MAX_PARSED_QUANTITIES = 1000;

function quantityOf(text: string): Quantity {
  const cached = parsedQuantities.get(text);
  if (cached) return cached;
  try {
    const q = parseQuantity(text);
    if (parsedQuantities.size >= MAX_PARSED_QUANTITIES) parsedQuantities.clear();
    parsedQuantities.set(text, q);
    return q;
  } catch (err) {
    if (err instanceof QuantityError) throw new CelLibraryError(err.message);
    throw err;
  }
}

function isQuantity(text: string): boolean {
  try {
    parseQuantity(text);
    return true;
  } catch {
    return false;
  }
}

/** Exact values of the quantities compared, computed once per Quantity object. */
const nanoValues = new WeakMap<Quantity, bigint>();

function nanosOf(q: Quantity): bigint {
  let v = nanoValues.get(q);
  if (v === undefined) nanoValues.set(q, (v = q.nanoValue()));
  return v;
}

function compareQuantities(a: Quantity, b: Quantity): bigint {
  const x = nanosOf(a);
  const y = nanosOf(b);
  return x === y ? 0n : x < y ? -1n : 1n;
}

const NANO = 1_000_000_000n;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** A quantity holding `nanos` nano-units (the exact result of quantity arithmetic). */
function fromNanos(format: Quantity['format'], nanos: bigint): Quantity {
  return new Quantity(format, nanos, -9, false);
}

function asInteger(q: Quantity): bigint | undefined {
  const nanos = q.nanoValue();
  if (nanos % NANO !== 0n) return undefined;
  const v = nanos / NANO;
  return v > INT64_MAX || v < INT64_MIN ? undefined : v;
}

function semverOf(text: string, normalize: boolean): Semver {
  try {
    return normalize ? parseSemverNormalized(text) : parseSemver(text);
  } catch (err) {
    if (err instanceof SemverError) throw new CelLibraryError(err.message);
    throw err;
  }
}

function isSemver(text: string, normalize: boolean): boolean {
  try {
    semverOf(text, normalize);
    return true;
  } catch {
    return false;
  }
}

function cmp(a: bigint | number | string, b: bigint | number | string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Registers Quantity, Semver and the list, regex and string helpers on `env`. */
export function registerKubernetesLibraries(env: Environment): Environment {
  return env
    .registerType('kubernetes.Quantity', Quantity)
    .registerType('kubernetes.Semver', Semver)
    // quantity.go
    .registerFunction('quantity(string): kubernetes.Quantity', quantityOf)
    .registerFunction('isQuantity(string): bool', isQuantity)
    .registerFunction('kubernetes.Quantity.sign(): int', (q: Quantity) => BigInt(q.sign))
    .registerFunction('kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool', (a: Quantity, b: Quantity) => compareQuantities(a, b) === 1n)
    .registerFunction('kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool', (a: Quantity, b: Quantity) => compareQuantities(a, b) === -1n)
    .registerFunction('kubernetes.Quantity.compareTo(kubernetes.Quantity): int', compareQuantities)
    .registerFunction('kubernetes.Quantity.asApproximateFloat(): double', (q: Quantity) => Number(q.mantissa) * 10 ** q.exponent)
    .registerFunction('kubernetes.Quantity.isInteger(): bool', (q: Quantity) => asInteger(q) !== undefined)
    .registerFunction('kubernetes.Quantity.asInteger(): int', (q: Quantity) => {
      const v = asInteger(q);
      if (v === undefined) throw new CelLibraryError('cannot convert value to integer');
      return v;
    })
    .registerFunction('kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity', (a: Quantity, b: Quantity) => fromNanos(a.format, a.nanoValue() + b.nanoValue()))
    .registerFunction('kubernetes.Quantity.add(int): kubernetes.Quantity', (a: Quantity, b: bigint) => fromNanos(a.format, a.nanoValue() + b * NANO))
    .registerFunction('kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity', (a: Quantity, b: Quantity) => fromNanos(a.format, a.nanoValue() - b.nanoValue()))
    .registerFunction('kubernetes.Quantity.sub(int): kubernetes.Quantity', (a: Quantity, b: bigint) => fromNanos(a.format, a.nanoValue() - b * NANO))
    // semverlib.go (SemverVersion(1): the normalize flag)
    .registerFunction('semver(string): kubernetes.Semver', (s: string) => semverOf(s, false))
    .registerFunction('semver(string, bool): kubernetes.Semver', semverOf)
    .registerFunction('isSemver(string): bool', (s: string) => isSemver(s, false))
    .registerFunction('isSemver(string, bool): bool', isSemver)
    .registerFunction('kubernetes.Semver.major(): int', (v: Semver) => v.major)
    .registerFunction('kubernetes.Semver.minor(): int', (v: Semver) => v.minor)
    .registerFunction('kubernetes.Semver.patch(): int', (v: Semver) => v.patch)
    .registerFunction('kubernetes.Semver.isGreaterThan(kubernetes.Semver): bool', (a: Semver, b: Semver) => a.compare(b) === 1)
    .registerFunction('kubernetes.Semver.isLessThan(kubernetes.Semver): bool', (a: Semver, b: Semver) => a.compare(b) === -1)
    .registerFunction('kubernetes.Semver.compareTo(kubernetes.Semver): int', (a: Semver, b: Semver) => BigInt(a.compare(b)))
    // lists.go (ListsVersion 1)
    .registerFunction('list<int>.isSorted(): bool', (l: bigint[]) => l.every((v, i) => i === 0 || cmp(l[i - 1]!, v) <= 0))
    .registerFunction('list<string>.isSorted(): bool', (l: string[]) => l.every((v, i) => i === 0 || cmp(l[i - 1]!, v) <= 0))
    .registerFunction('list<double>.isSorted(): bool', (l: number[]) => l.every((v, i) => i === 0 || cmp(l[i - 1]!, v) <= 0))
    .registerFunction('list<int>.sum(): int', (l: bigint[]) => l.reduce((s, v) => s + v, 0n))
    .registerFunction('list<double>.sum(): double', (l: number[]) => l.reduce((s, v) => s + v, 0))
    .registerFunction('list<int>.min(): int', (l: bigint[]) => extreme(l, -1))
    .registerFunction('list<int>.max(): int', (l: bigint[]) => extreme(l, 1))
    .registerFunction('list<double>.min(): double', (l: number[]) => extreme(l, -1))
    .registerFunction('list<double>.max(): double', (l: number[]) => extreme(l, 1))
    .registerFunction('list<string>.min(): string', (l: string[]) => extreme(l, -1))
    .registerFunction('list<string>.max(): string', (l: string[]) => extreme(l, 1))
    .registerFunction('list<int>.indexOf(int): int', (l: bigint[], v: bigint) => BigInt(l.indexOf(v)))
    .registerFunction('list<string>.indexOf(string): int', (l: string[], v: string) => BigInt(l.indexOf(v)))
    .registerFunction('list<int>.lastIndexOf(int): int', (l: bigint[], v: bigint) => BigInt(l.lastIndexOf(v)))
    .registerFunction('list<string>.lastIndexOf(string): int', (l: string[], v: string) => BigInt(l.lastIndexOf(v)))
    // regex.go
    .registerFunction('string.find(string): string', (s: string, re: string) => regexOf(re).exec(s)?.[0] ?? '')
    .registerFunction('string.findAll(string): list<string>', (s: string, re: string) => findAll(s, re, -1n))
    .registerFunction('string.findAll(string, int): list<string>', findAll)
    // cel-go ext.Strings(2) functions cel-js lacks
    .registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
      const chars = [...s];
      if (i < 0n || i > BigInt(chars.length)) throw new CelLibraryError(`index out of range: ${i}`);
      return chars[Number(i)] ?? '';
    })
    .registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => s.split(from).join(to))
    .registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => replaceN(s, from, to, n))
    .registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''));
}

function extreme<T extends bigint | number | string>(l: T[], sign: 1 | -1): T {
  if (l.length === 0) throw new CelLibraryError(sign === 1 ? 'max called on empty list' : 'min called on empty list');
  let best = l[0]!;
  for (const v of l) if (cmp(v, best) === sign) best = v;
  return best;
}

function regexOf(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    throw new CelLibraryError(`error parsing regexp: ${pattern}`);
  }
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  const re = new RegExp(regexOf(pattern).source, 'gu');
  const out: string[] = [];
  for (const m of s.matchAll(re)) {
    if (limit >= 0n && BigInt(out.length) >= limit) break;
    out.push(m[0]);
  }
  return out;
}

function replaceN(s: string, from: string, to: string, n: bigint): string {
  if (n < 0n) return s.split(from).join(to);
  let out = s;
  let start = 0;
  for (let i = 0n; i < n; i++) {
    const at = out.indexOf(from, start);
    if (at < 0) break;
    out = out.slice(0, at) + to + out.slice(at + from.length);
    start = at + to.length + (from.length === 0 ? 1 : 0);
  }
  return out;
}
