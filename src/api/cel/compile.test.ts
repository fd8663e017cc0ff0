// The DRA CEL environment against upstream's cel/compile_test.go scenarios (in our own words):
// compile errors, runtime errors, verdicts and estimated costs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeviceAttribute, DeviceCapacity } from '../dra_types.js';
import { CelCache, CelEvaluationError, DeviceActivation, enhanceRuntimeError, getCompiler, CELSelectorExpressionMaxCost } from './index.js';

interface Case {
  name: string;
  expression: string;
  driver?: string;
  allowMultipleAllocations?: boolean;
  attributes?: Record<string, DeviceAttribute>;
  capacity?: Record<string, DeviceCapacity>;
  /** Only without DRAConsumableCapacity (the compile error case). */
  withoutConsumableCapacity?: boolean;
  wantCompileError?: string;
  wantMatchError?: string;
  wantMatch?: boolean;
  /** Upstream's estimate, which cost.ts reproduces for these shapes. */
  wantCost?: number;
}

const d = 'dra.example.com';
const expensive = `[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z2, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z3, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z4, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(z5, int('1'.find('[0-9]*')) < 100)))))))`;

/** Upstream's device for the expensive case: as many attributes as allowed, with the longest names. */
function longAttributes(): Record<string, DeviceAttribute> {
  const out: Record<string, DeviceAttribute> = {};
  for (let i = 0; i < 32; i++) {
    const suffix = `-${i}`;
    out[`${d}/${'x'.repeat(32 - suffix.length)}${suffix}`] = { string: 'abc' };
  }
  return out;
}

const cases: Case[] = [
  { name: 'true', expression: 'true', wantMatch: true, wantCost: 0 },
  { name: 'false', expression: 'false', wantMatch: false, wantCost: 0 },
  { name: 'a syntax error', expression: '?!', wantCompileError: 'compilation failed: ERROR: <input>:1:1:' },
  { name: 'a result that is not bool', expression: '1', wantCompileError: 'must evaluate to bool or the unknown type, not int' },
  { name: 'an undeclared variable', expression: 'foo == 1', wantCompileError: "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')" },
  {
    name: 'an attribute missing in a missing domain is a missing key, not a missing domain',
    expression: 'device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0"))',
    wantMatchError: 'no such key: noSuchAttr',
    wantCost: 6,
  },
  { name: 'the same through map lookup', expression: 'device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0"))', wantMatchError: 'no such key: noSuchAttr', wantCost: 6 },
  { name: 'a missing domain is not in the attributes', expression: '"no-such-domain" in device.attributes', wantMatch: false, wantCost: 3 },
  { name: 'nor in the capacities', expression: '!("no-such-domain" in device.capacity)', wantMatch: true, wantCost: 4 },
  { name: 'a present domain is in the attributes', expression: `"${d}" in device.attributes`, attributes: { [`${d}/something`]: { bool: true } }, wantMatch: true, wantCost: 3 },
  { name: 'an empty driver name', expression: 'device.driver == ""', wantMatch: true, wantCost: 2 },
  { name: 'the driver name', expression: `device.driver == "${d}"`, driver: d, wantMatch: true, wantCost: 4 },
  { name: 'unqualified attributes belong to the driver domain', expression: `device.attributes["${d}"].name`, driver: d, attributes: { name: { bool: true } }, wantMatch: true, wantCost: 4 },
  { name: 'the same through map lookup', expression: `device.attributes["${d}"]["name"]`, driver: d, attributes: { name: { bool: true } }, wantMatch: true, wantCost: 4 },
  { name: 'cel.bind', expression: `cel.bind(dra, device.attributes["${d}"], dra.name)`, driver: d, attributes: { name: { bool: true } }, wantMatch: true, wantCost: 15 },
  { name: 'qualified attributes of another domain', expression: 'device.attributes["other.example.com"].name', driver: d, attributes: { 'other.example.com/name': { bool: true } }, wantMatch: true, wantCost: 4 },
  { name: 'an int attribute', expression: `device.attributes["${d}"].name > 0`, driver: d, attributes: { name: { int: 1 } }, wantMatch: true, wantCost: 5 },
  { name: 'a string attribute', expression: `device.attributes["${d}"].name == "fish"`, driver: d, attributes: { name: { string: 'fish' } }, wantMatch: true, wantCost: 5 },
  { name: 'a list result cannot be a verdict', expression: `device.attributes["${d}"].names`, driver: d, attributes: { names: { strings: ['fish', 'bird'] } }, wantMatchError: 'CEL result of type list could not be converted to bool', wantCost: 4 },
  { name: 'a list of bools', expression: `device.attributes["${d}"].names.size() == 2`, driver: d, attributes: { names: { bools: [true, false] } }, wantMatch: true, wantCost: 6 },
  { name: 'a list of ints', expression: `device.attributes["${d}"].names.size() == 2`, driver: d, attributes: { names: { ints: [1, 2] } }, wantMatch: true, wantCost: 6 },
  { name: 'a list of versions', expression: `device.attributes["${d}"].names.size() == 2`, driver: d, attributes: { names: { versions: ['1.0.0', '2.0.0'] } }, wantMatch: true, wantCost: 6 },
  { name: 'in on a list attribute', expression: `1 in device.attributes["${d}"].names`, driver: d, attributes: { names: { ints: [1, 2, 3] } }, wantMatch: true, wantCost: 68 },
  { name: 'a version attribute', expression: `device.attributes["${d}"].name.isGreaterThan(semver("0.0.1"))`, driver: d, attributes: { name: { version: '1.0.0' } }, wantMatch: true, wantCost: 6 },
  {
    name: 'normalized versions',
    expression: `device.attributes["${d}"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true)`,
    driver: d,
    attributes: { name: { version: '1.0.0' } },
    wantMatch: true,
    wantCost: 7,
  },
  { name: 'a capacity', expression: `device.capacity["${d}"].name.isGreaterThan(quantity("1Ki"))`, driver: d, capacity: { name: { value: '1Mi' } }, wantMatch: true, wantCost: 6 },
  {
    name: 'a guarded capacity that is there',
    expression: `"name" in device.capacity["${d}"] && device.capacity["${d}"].name.isGreaterThan(quantity("1Ki"))`,
    driver: d,
    capacity: { name: { value: '1Mi' } },
    wantMatch: true,
    wantCost: 10,
  },
  { name: 'a guarded capacity that is not there', expression: `!("name" in device.capacity["${d}"]) || device.capacity["${d}"].name.isGreaterThan(quantity("1Ki"))`, wantMatch: true, wantCost: 11 },
  {
    name: 'every kind of value, by field and by index',
    expression: [
      `device.capacity["${d}"].quantity.isGreaterThan(quantity("1Ki"))`,
      `device.attributes["${d}"].bool`,
      `device.attributes["${d}"].int > 0`,
      `device.attributes["${d}"].string == "fish"`,
      `device.attributes["${d}"].version.isGreaterThan(semver("0.0.1"))`,
      `device.capacity["${d}"]["quantity"].isGreaterThan(quantity("1Ki"))`,
      `device.attributes["${d}"]["bool"]`,
      `device.attributes["${d}"]["int"] > 0`,
      `device.attributes["${d}"]["string"] == "fish"`,
      `device.attributes["${d}"]["version"].isGreaterThan(semver("0.0.1"))`,
    ].join(' &&\n'),
    driver: d,
    attributes: { bool: { bool: true }, int: { int: 1 }, string: { string: 'fish' }, version: { version: '1.0.0' } },
    capacity: { quantity: { value: '1Mi' } },
    wantMatch: true,
    wantCost: 52,
  },
  {
    name: 'several attributes',
    expression: `device.attributes["${d}"].a && device.attributes["${d}"].b && device.attributes["${d}"].c`,
    driver: d,
    attributes: { a: { bool: true }, b: { bool: true }, c: { bool: true } },
    wantMatch: true,
    wantCost: 12,
  },
  { name: 'iterating over attribute domains', expression: `device.attributes.exists_one(x, x == "${d}")`, driver: d, attributes: { services: { string: 'x' } }, wantMatch: true, wantCost: 164 },
  { name: 'iterating over attribute names', expression: `device.attributes["${d}"].exists_one(x, x == "services")`, driver: d, attributes: { services: { string: 'x' } }, wantMatch: true, wantCost: 133 },
  { name: 'split', expression: `device.attributes["${d}"].services.split("example").size() >= 2`, driver: d, attributes: { services: { string: 'some_example_value' } }, wantMatch: true, wantCost: 19 },
  { name: 'a regular expression', expression: `device.attributes["${d}"].services.matches("[^a]?sym")`, driver: d, attributes: { services: { string: 'asymetric' } }, wantMatch: true, wantCost: 18 },
  { name: 'iterating over capacity domains', expression: `device.capacity.exists_one(x, x == "${d}")`, driver: d, capacity: { memory: { value: '1Mi' } }, wantMatch: true, wantCost: 164 },
  { name: 'iterating over capacity names', expression: `device.capacity["${d}"].exists_one(x, x == "memory")`, driver: d, capacity: { memory: { value: '1Mi' } }, wantMatch: true, wantCost: 133 },
  // Ten million innermost iterations: the runtime cost limit stops it after a small part of them.
  { name: 'nested comprehensions are far over the limit', expression: expensive, attributes: longAttributes(), wantCost: 85555551, wantMatchError: 'actual cost limit exceeded' },
  { name: 'allowMultipleAllocations set', expression: 'device.allowMultipleAllocations == true', allowMultipleAllocations: true, wantMatch: true, wantCost: 3 },
  { name: 'allowMultipleAllocations unset is false', expression: 'device.allowMultipleAllocations == false', wantMatch: true, wantCost: 3 },
  { name: 'allowMultipleAllocations without the feature', expression: 'device.allowMultipleAllocations == false', withoutConsumableCapacity: true, wantCompileError: 'compilation failed' },
  { name: 'optional chaining on a missing attribute', expression: `device.attributes["${d}"].?model.orValue("none") == "none"`, driver: d, wantMatch: true },
  { name: 'a quantity from a string that is none', expression: 'quantity("4x").sign() == 1', wantMatchError: 'quantities must match the regular expression' },
  { name: 'quantity arithmetic', expression: 'quantity("1Gi").add(quantity("512Mi")).compareTo(quantity("1536Mi")) == 0 && quantity("2").sub(1).asInteger() == 1', wantMatch: true },
  { name: 'a fractional quantity is no integer', expression: '!quantity("1500m").isInteger() && quantity("1500m").asApproximateFloat() == 1.5', wantMatch: true },
  { name: 'asInteger of a fraction fails', expression: 'quantity("1500m").asInteger() == 1', wantMatchError: 'cannot convert value to integer' },
  { name: 'semver parts and order', expression: 'semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3 && semver("1.0.0-alpha").isLessThan(semver("1.0.0"))', wantMatch: true },
  { name: 'a version that is none', expression: 'semver("1.2").major() == 1', wantMatchError: 'No Major.Minor.Patch elements found' },
  { name: 'the list library', expression: '[1, 2, 3].isSorted() && [1, 2, 3].sum() == 6 && [3, 1].min() == 1 && ["a", "b"].indexOf("b") == 1', wantMatch: true },
  { name: 'the regex library', expression: '"abc123".find("[0-9]+") == "123" && "a1b2".findAll("[0-9]") == ["1", "2"]', wantMatch: true },
  { name: 'has() on an attribute behind a domain lookup, present', expression: `has(device.attributes["${d}"].model)`, driver: d, attributes: { model: { string: 'x' } }, wantMatch: true, wantCost: 3 },
  { name: 'has() on an attribute behind a domain lookup, absent', expression: `has(device.attributes["${d}"].model)`, driver: d, wantMatch: false },
  { name: 'has() guards a missing attribute as upstream hint says', expression: `!has(device.attributes["${d}"].model) || device.attributes["${d}"].model == "x"`, driver: d, wantMatch: true },
  { name: 'has() of a map lookup is no field selection', expression: `has(device.attributes["${d}"]["model"])`, wantCompileError: 'has() invalid argument' },
  { name: 'string extensions', expression: '"abc".charAt(1) == "b" && "aXbX".replace("X", "-") == "a-b-" && "abc".reverse() == "cba" && "A".lowerAscii() == "a"', wantMatch: true },
];

for (const c of cases) {
  test(`cel: ${c.name}`, () => {
    const compiler = getCompiler({ consumableCapacity: !c.withoutConsumableCapacity, listTypeAttributes: false });
    const result = compiler.compile(c.expression);
    if (c.wantCompileError !== undefined) {
      assert.ok(result.error, 'expected a compile error');
      assert.equal(result.error.type, 'Invalid');
      assert.ok(result.error.detail.includes(c.wantCompileError), result.error.detail);
      return;
    }
    assert.equal(result.error, null, result.error?.detail);
    if (c.wantCost !== undefined) assert.equal(result.maxCost, c.wantCost);
    const activation = new DeviceActivation({ driver: c.driver ?? '', allowMultipleAllocations: c.allowMultipleAllocations, attributes: c.attributes, capacity: c.capacity });
    if (c.wantMatchError !== undefined) {
      assert.throws(
        () => result.deviceMatches(activation),
        (err: unknown) => err instanceof CelEvaluationError && err.message.includes(c.wantMatchError!),
      );
      return;
    }
    assert.equal(result.deviceMatches(activation), c.wantMatch);
  });
}

test('cel: the cost limit is upstream CELSelectorExpressionMaxCost', () => {
  assert.equal(CELSelectorExpressionMaxCost, 1_000_000);
  const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
  assert.ok(compiler.compile(expensive).maxCost > CELSelectorExpressionMaxCost);
  assert.ok(compiler.compile(`device.attributes["${d}"].exists(x, x == "a")`).maxCost < CELSelectorExpressionMaxCost);
});

test('cel: a missing-key error gets upstream hint, once', () => {
  const hinted = enhanceRuntimeError('no such key: model');
  assert.equal(hinted, 'no such key: model. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields');
  assert.equal(enhanceRuntimeError(hinted), hinted);
  assert.equal(enhanceRuntimeError('other'), 'other');
});

test('cel: an invalid version attribute fails evaluation with the attribute name', () => {
  assert.throws(() => new DeviceActivation({ driver: d, attributes: { v: { version: '01.0.0' } } }), /attribute v: parse semantic version: Major number must not contain leading zeroes "01"/);
});

test('cel: a bad attribute fails the activation whatever the selector reads, with the same message as the maps', () => {
  // Upstream converts every attribute for each evaluation, so a selector reading only the driver fails too.
  const bad: [Record<string, DeviceAttribute>, RegExp][] = [
    [{ ok: { string: 'x' }, v: { version: '1.0' } }, /^attribute v: parse semantic version: No Major.Minor.Patch elements found$/],
    [{ vs: { versions: ['1.0.0', 'x'] } }, /^attribute vs: parse semantic version: /],
    [{ n: {} as DeviceAttribute }, /^attribute n: unsupported attribute value$/],
    [{ i: { int: 1.5 } }, /^attribute i: parse semantic version: /],
  ];
  for (const [attributes, message] of bad) {
    assert.throws(() => new DeviceActivation({ driver: d, attributes }), (err: unknown) => err instanceof CelEvaluationError && message.test(err.message));
  }
  // The first refused attribute in the object's order is named, twice over (versions are kept parsed).
  for (let i = 0; i < 2; i++) {
    assert.throws(() => new DeviceActivation({ driver: d, attributes: { a: { version: 'v1' }, b: {} as DeviceAttribute } }), /attribute a: parse semantic version/);
  }
});

test('cel: the attribute and capacity maps are made when a selector first reads them, the same each time', () => {
  const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
  const activation = new DeviceActivation({
    driver: d,
    attributes: { model: { string: 'a100' }, 'other.io/rev': { int: 3 }, v: { version: '1.2.3' }, tags: { strings: ['a', 'b'] } },
    capacity: { memory: { value: '40Gi' } },
  });
  assert.equal(compiler.compile(`device.driver == "${d}"`).deviceMatches(activation), true);
  for (let i = 0; i < 2; i++) {
    assert.equal(compiler.compile(`device.attributes["${d}"].model == "a100" && device.attributes["other.io"].rev == 3`).deviceMatches(activation), true);
    assert.equal(compiler.compile(`device.attributes["${d}"].v.isGreaterThan(semver("1.2.0"))`).deviceMatches(activation), true);
    assert.equal(compiler.compile(`device.capacity["${d}"].memory.compareTo(quantity("40Gi")) == 0`).deviceMatches(activation), true);
    assert.equal(compiler.compile(`"x" in device.attributes["missing.io"]`).deviceMatches(activation), false);
  }
  assert.equal(activation.vars.device.attributes, activation.vars.device.attributes, 'one map per device');
});

test('cel: the cache compiles an expression once, keeps no failures and stays bounded', () => {
  const cache = new CelCache(2, { consumableCapacity: true, listTypeAttributes: false });
  const first = cache.getOrCompile('true');
  assert.equal(cache.getOrCompile('true'), first);
  assert.notEqual(cache.getOrCompile('1 +').error, null);
  assert.equal(cache.size, 1);
  cache.getOrCompile('false');
  cache.getOrCompile('true');
  cache.getOrCompile('!true');
  // "false" was the least recently used of the three.
  assert.equal(cache.size, 2);
  assert.equal(cache.getOrCompile('true'), first);
});

test('cel: one activation serves several selectors of one device', () => {
  const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
  const activation = new DeviceActivation({ driver: d, attributes: { model: { string: 'a100' } }, capacity: { memory: { value: '40Gi' } } });
  assert.equal(compiler.compile(`device.attributes["${d}"].model == "a100"`).deviceMatches(activation), true);
  assert.equal(compiler.compile(`device.capacity["${d}"].memory.isLessThan(quantity("80Gi"))`).deviceMatches(activation), true);
  assert.equal(compiler.compile(`device.driver == "other"`).deviceMatches(activation), false);
});

test('cel: the runtime cost limit stops evaluations that go over it, and only those', { timeout: 10_000 }, () => {
  const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
  const device = new DeviceActivation({ driver: d });
  const loop = '[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, x > 0)';
  const within = compiler.compile(loop, { costLimit: 1000 });
  // Metering starts afresh for every evaluation.
  for (let i = 0; i < 3; i++) assert.equal(within.deviceMatches(device), true);
  const tight = compiler.compile(loop, { costLimit: 20 });
  assert.throws(() => tight.deviceMatches(device), (err: unknown) => err instanceof CelEvaluationError && err.message === 'operation cancelled: actual cost limit exceeded');
  // An error on the left of `||` is dropped by a true right side, the exceeded limit is not.
  const swallowed = compiler.compile(`${loop} || true`, { costLimit: 20 });
  assert.throws(() => swallowed.deviceMatches(device), /actual cost limit exceeded/);
  // exists() goes on after a failing iteration; every later charge fails again.
  const nested = compiler.compile('[1, 2, 3].exists(a, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].exists(b, b > 100))', { costLimit: 50 });
  assert.throws(() => nested.deviceMatches(device), /actual cost limit exceeded/);
});

test('cel: an expression without comprehensions is not metered and runs unchanged', () => {
  const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
  const result = compiler.compile(`device.driver == "${d}"`, { costLimit: 0 });
  assert.equal(result.deviceMatches(new DeviceActivation({ driver: d })), true);
});

test('cel: selectors cannot call the metering macro', () => {
  const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
  const result = compiler.compile('iteration__(1, true)');
  assert.equal(result.error?.type, 'Invalid');
  assert.match(result.error.detail, /compilation failed: ERROR: <input>:1:1:/);
});

test('cel: metering keeps compile errors at their place in the source', () => {
  const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
  const result = compiler.compile('[1].all(x, x > 0) && foo');
  assert.match(result.error?.detail ?? '', /<input>:1:22: undeclared reference to 'foo'/);
});

test('cel: checker errors in cel-go words', () => {
  const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
  const cases: [string, string][] = [
    ['device.foo == 1', "undefined field 'foo'"],
    ['1 + "a" == 1', "found no matching overload for '_+_' applied to '(int, string)'"],
    ['!1', "found no matching overload for '!_' applied to '(int)'"],
    ['device.driver.startsWith(1)', "found no matching overload for 'startsWith' applied to 'string.(int)'"],
    ['1.all(x, true)', "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)"],
  ];
  for (const [expression, message] of cases) {
    const detail = compiler.compile(expression).error?.detail ?? '';
    assert.ok(detail.startsWith('compilation failed: ERROR: <input>:1:') && detail.split('\n')[0]!.endsWith(`: ${message}`), `${expression}: ${detail}`);
  }
});

// Upstream's includes-function-* cases: with DRAListTypeAttributes, `includes` takes an attribute
// that is a scalar or a list; without it, the function does not exist.
const includesCases: { name: string; expression: string; attr: DeviceAttribute; want: boolean; cost: number }[] = [
  { name: 'a string list holding the value', expression: 'includes("fish")', attr: { strings: ['fish', 'bird'] }, want: true, cost: 4 + 64 },
  { name: 'a string list without it', expression: 'includes("cat")', attr: { strings: ['fish', 'bird'] }, want: false, cost: 4 + 64 },
  { name: 'an equal string scalar', expression: 'includes("fish")', attr: { string: 'fish' }, want: true, cost: 4 + 64 },
  { name: 'another string scalar', expression: 'includes("bird")', attr: { string: 'fish' }, want: false, cost: 4 + 64 },
  { name: 'a bool scalar', expression: 'includes(true)', attr: { bool: true }, want: true, cost: 4 + 64 },
  { name: 'another bool scalar', expression: 'includes(true)', attr: { bool: false }, want: false, cost: 4 + 64 },
  { name: 'a bool list', expression: 'includes(true)', attr: { bools: [true, false] }, want: true, cost: 4 + 64 },
  { name: 'a bool list without it', expression: 'includes(false)', attr: { bools: [true, true] }, want: false, cost: 4 + 64 },
  { name: 'an int scalar', expression: 'includes(1)', attr: { int: 1 }, want: true, cost: 4 + 64 },
  { name: 'another int scalar', expression: 'includes(1)', attr: { int: 2 }, want: false, cost: 4 + 64 },
  { name: 'an int list', expression: 'includes(1)', attr: { ints: [1, 2] }, want: true, cost: 4 + 64 },
  { name: 'an int list without it', expression: 'includes(3)', attr: { ints: [1, 2] }, want: false, cost: 4 + 64 },
  { name: 'an equal version scalar', expression: 'includes(semver("1.0.0"))', attr: { version: '1.0.0' }, want: true, cost: 4 + 64 + 1 },
  { name: 'another version scalar', expression: 'includes(semver("2.0.0"))', attr: { version: '1.0.0' }, want: false, cost: 4 + 64 + 1 },
  { name: 'a version list', expression: 'includes(semver("1.0.0"))', attr: { versions: ['1.0.0', '2.0.0'] }, want: true, cost: 4 + 64 + 1 },
  { name: 'a version list without it', expression: 'includes(semver("3.0.0"))', attr: { versions: ['1.0.0', '2.0.0'] }, want: false, cost: 4 + 64 + 1 },
  { name: 'the longest list without it', expression: 'includes("value-48")', attr: { strings: Array.from({ length: 48 }, (_, i) => `value-${i}`) }, want: false, cost: 4 + 64 },
];

for (const c of includesCases) {
  test(`cel, DRAListTypeAttributes: includes on ${c.name}`, () => {
    const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: true });
    const result = compiler.compile(`device.attributes["${d}"].name.${c.expression}`);
    assert.equal(result.error, null, result.error?.detail);
    assert.equal(result.maxCost, c.cost);
    assert.equal(result.deviceMatches(new DeviceActivation({ driver: d, attributes: { name: c.attr } })), c.want);
  });
}

test('cel: without DRAListTypeAttributes there is no includes', () => {
  const result = getCompiler({ consumableCapacity: true, listTypeAttributes: false }).compile(`device.attributes["${d}"].attr.includes("fish")`);
  // Upstream words it "undeclared reference to 'includes'"; cel-js names the missing overload.
  assert.match(result.error?.detail ?? '', /^compilation failed: .*found no matching overload for 'includes'/);
});
