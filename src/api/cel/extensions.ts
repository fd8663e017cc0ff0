// cel-go's extension libraries in the apiserver's base environment that cel-js lacks
// (github.com/google/cel-go ext/sets.go, ext/lists.go at ListsVersion(3), ext/strings.go's
// strings.quote). Namespaced functions (`sets.contains`) are methods of a constant, as cel-js
// itself does for `cel.bind`.
import { Optional, type Environment } from '@marcbachmann/cel-js';
import { CelLibraryError } from './libraries.js';
import { chargeCost } from './runtime-cost.js';
import { Semver } from './semver.js';

class SetsNamespace {}
class ListsNamespace {}
class StringsNamespace {}

/** CEL's equality across value kinds: numbers compare by value whatever their type. */
function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && typeof b === 'number') return a === b;
    if (typeof a === 'number') return Number.isInteger(a) && BigInt(a) === b;
    if (typeof b === 'number') return Number.isInteger(b) && BigInt(b) === a;
    return false;
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => celEquals(v, b[i]));
  if (a instanceof Semver && b instanceof Semver) return a.compare(b) === 0;
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !celEquals(v, b.get(k))) return false;
    return true;
  }
  const unsigned = (v: unknown): bigint | undefined => (typeof v === 'object' && v !== null && 'valueOf' in v && typeof v.valueOf() === 'bigint' ? (v.valueOf() as bigint) : undefined);
  const ua = unsigned(a);
  const ub = unsigned(b);
  if (ua !== undefined || ub !== undefined) return celEquals(ua ?? a, ub ?? b);
  return false;
}

/** cel-go's charge for a call that allocates a list: the call and the list's creation. */
const LIST_CALL_COST = 11;

/** cel-go's charge for comparing a list's elements with each other (distinct, sort). */
function selfCompareCost(list: readonly unknown[]): number {
  const factor = typeof list[0] === 'string' ? 2.1 : 2;
  return Math.floor(list.length * list.length * factor) + LIST_CALL_COST;
}

function includes(list: readonly unknown[], value: unknown): boolean {
  for (const v of list) if (celEquals(v, value)) return true;
  return false;
}

/** sets.contains: every element of `sub` is in `list`. */
function setsContains(list: readonly unknown[], sub: readonly unknown[]): boolean {
  chargeCost(list.length * sub.length + 1);
  return sub.every((v) => includes(list, v));
}

function setsIntersects(a: readonly unknown[], b: readonly unknown[]): boolean {
  chargeCost(a.length * b.length + 1);
  return a.some((v) => includes(b, v));
}

function slice(list: readonly unknown[], start: bigint, end: bigint): unknown[] {
  if (start < 0n || end < 0n) throw new CelLibraryError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) throw new CelLibraryError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (BigInt(list.length) < end) throw new CelLibraryError(`cannot slice(${start}, ${end}), list is length ${list.length}`);
  chargeCost(Number(end - start) + LIST_CALL_COST);
  return list.slice(Number(start), Number(end));
}

function flatten(list: readonly unknown[], depth: bigint): unknown[] {
  if (depth < 0n) throw new CelLibraryError('level must be non-negative');
  chargeCost(Number(depth) * list.length + LIST_CALL_COST);
  const out: unknown[] = [];
  for (const v of list) {
    if (Array.isArray(v) && depth > 0n) out.push(...flatten(v, depth - 1n));
    else out.push(v);
  }
  return out;
}

function distinct(list: readonly unknown[]): unknown[] {
  chargeCost(selfCompareCost(list));
  const out: unknown[] = [];
  for (const v of list) if (!includes(out, v)) out.push(v);
  return out;
}

/** The kinds cel-go's sort() can order, by how values of each are told apart here. */
function sortKind(v: unknown): string | undefined {
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return typeof v;
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'timestamp';
  return undefined;
}

function compareSortable(a: unknown, b: unknown): number {
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  const x = a instanceof Date ? a.getTime() : (a as bigint | number | string | boolean);
  const y = b instanceof Date ? b.getTime() : (b as bigint | number | string | boolean);
  return x < y ? -1 : x > y ? 1 : 0;
}

function sort(list: readonly unknown[]): unknown[] {
  if (list.length === 0) return [];
  const kind = sortKind(list[0]);
  if (kind === undefined) throw new CelLibraryError('list elements must be comparable');
  if (list.some((v) => sortKind(v) !== kind)) throw new CelLibraryError('list elements must have the same type');
  chargeCost(selfCompareCost(list));
  return [...list].sort(compareSortable);
}

function range(n: bigint): bigint[] {
  if (n < 0n) throw new CelLibraryError(`lists.range: size must be non-negative, got ${n}`);
  // Charged before the list exists, so a huge size stops here instead of filling memory.
  chargeCost(Number(n) + LIST_CALL_COST);
  const out: bigint[] = [];
  for (let i = 0n; i < n; i++) out.push(i);
  return out;
}

const QUOTED: Readonly<Record<string, string>> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };

function isLoneSurrogate(c: string): boolean {
  return c.length === 1 && c >= '\uD800' && c <= '\uDFFF';
}

/** strings.quote: the string as a CEL string literal. */
function quote(s: string): string {
  let out = '"';
  // A lone surrogate is invalid UTF-8 in Go: it becomes the replacement character.
  for (const c of s) out += QUOTED[c] ?? (isLoneSurrogate(c) ? '\uFFFD' : c);
  return `${out}"`;
}

/** The apiserver library's traversalCost: string lengths (×0.1), elements and entries summed, 1 otherwise. */
function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.floor(v.length * 0.1);
  if (v instanceof Uint8Array) return Math.floor(v.length * 0.1);
  if (Array.isArray(v)) {
    let cost = 0;
    for (const e of v) cost += traversalCost(e);
    return cost;
  }
  if (v instanceof Map) {
    let cost = 0;
    for (const [k, e] of v) cost += traversalCost(k) + traversalCost(e);
    return cost;
  }
  return 1;
}

/**
 * `includes` (apiserver's library.IncludesOption, which DRA selectors get with
 * DRAListTypeAttributes): membership when the target is a list, equality otherwise, so one
 * expression serves an attribute published as a scalar or as a list.
 */
export function registerIncludes(env: Environment): Environment {
  return env.registerFunction('dyn.includes(dyn): bool', (target: unknown, value: unknown) => {
    chargeCost(traversalCost(target));
    return Array.isArray(target) ? includes(target, value) : celEquals(target, value);
  });
}

/** Registers Sets, the list extensions (ListsVersion 3, without the sortBy macro) and strings.quote. */
export function registerExtensions(env: Environment): Environment {
  return (
    env
      .registerType('ext.Sets', SetsNamespace)
      .registerConstant('sets', 'ext.Sets', new SetsNamespace())
      .registerFunction('ext.Sets.contains(list, list): bool', (_: SetsNamespace, a: unknown[], b: unknown[]) => setsContains(a, b))
      .registerFunction('ext.Sets.equivalent(list, list): bool', (_: SetsNamespace, a: unknown[], b: unknown[]) => setsContains(a, b) && setsContains(b, a))
      .registerFunction('ext.Sets.intersects(list, list): bool', (_: SetsNamespace, a: unknown[], b: unknown[]) => setsIntersects(a, b))
      .registerType('ext.Lists', ListsNamespace)
      .registerConstant('lists', 'ext.Lists', new ListsNamespace())
      .registerFunction('ext.Lists.range(int): list<int>', (_: ListsNamespace, n: bigint) => range(n))
      .registerFunction('list<A>.slice(int, int): list<A>', slice)
      .registerFunction('list.flatten(): list', (l: unknown[]) => flatten(l, 1n))
      .registerFunction('list.flatten(int): list', flatten)
      .registerFunction('list<A>.distinct(): list<A>', distinct)
      .registerFunction('list<A>.reverse(): list<A>', (l: unknown[]) => {
        chargeCost(l.length + LIST_CALL_COST);
        return [...l].reverse();
      })
      .registerFunction('list<A>.sort(): list<A>', sort)
      .registerFunction('list<A>.first(): optional<A>', (l: unknown[]) => (l.length > 0 ? Optional.of(l[0]) : Optional.none()))
      .registerFunction('list<A>.last(): optional<A>', (l: unknown[]) => (l.length > 0 ? Optional.of(l[l.length - 1]) : Optional.none()))
      .registerType('ext.Strings', StringsNamespace)
      .registerConstant('strings', 'ext.Strings', new StringsNamespace())
      .registerFunction('ext.Strings.quote(string): string', (_: StringsNamespace, s: string) => quote(s))
  );
}
