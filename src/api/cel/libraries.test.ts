// The libraries of the DRA CEL environment beyond upstream's compile_test: cel-go's Sets, Lists
// (ListsVersion 3), strings.quote and two-variable comprehensions, with cases taken from cel-go's
// ext tests (sets_test.go, lists_test.go, strings_test.go, comprehensions_test.go), in our words.
// Lists in literals are homogeneous here, as the apiserver environment requires.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CelEvaluationError, DeviceActivation, getCompiler } from './index.js';

interface Case {
  readonly expression: string;
  /** A part of the compile error; without it and `evalError`, the expression must be true. */
  readonly compileError?: string;
  readonly evalError?: string;
}

const compiler = getCompiler({ consumableCapacity: true, listTypeAttributes: false });
const device = new DeviceActivation({ driver: 'dra.example.com', attributes: { model: { string: 'a100' }, cores: { int: 8 } } });

function check(c: Case): void {
  const result = compiler.compile(c.expression);
  if (c.compileError !== undefined) {
    assert.ok(result.error, `${c.expression}: expected a compile error`);
    assert.ok(result.error.detail.includes(c.compileError), `${c.expression}: ${result.error.detail}`);
    return;
  }
  assert.equal(result.error, null, `${c.expression}: ${result.error?.detail}`);
  if (c.evalError !== undefined) {
    assert.throws(
      () => result.deviceMatches(device),
      (err: unknown) => err instanceof CelEvaluationError && err.message.includes(c.evalError!),
      c.expression,
    );
    return;
  }
  assert.equal(result.deviceMatches(device), true, c.expression);
}

const sets: Case[] = [
  { expression: 'sets.contains([], [])' },
  { expression: 'sets.contains([1], [])' },
  { expression: 'sets.contains([1], [1, 1])' },
  { expression: 'sets.contains([2, 1], [1])' },
  { expression: 'sets.contains([1, 2, 3, 4], [2, 3])' },
  { expression: 'sets.contains([[1], [2, 3]], [[2, 3]])' },
  { expression: '!sets.contains([1], [1, 2])' },
  { expression: 'sets.contains([dyn(1), dyn(2u)], [dyn(2), dyn(2.0)])' },
  { expression: '!sets.contains([dyn(1)], [dyn(1.1), dyn(1u)])' },
  { expression: 'sets.equivalent([], [])' },
  { expression: 'sets.equivalent([1], [1, 1])' },
  { expression: 'sets.equivalent([1, 2, 3], [3, 2, 1])' },
  { expression: '!sets.equivalent([2, 1], [1])' },
  { expression: 'sets.intersects([1], [1, 2])' },
  { expression: 'sets.intersects([[1], [2, 3]], [[1, 2], [2, 3]])' },
  { expression: '!sets.intersects([], [])' },
  { expression: '!sets.intersects([1], [2])' },
  { expression: `sets.contains(["a100", "h100"], [device.attributes["dra.example.com"].model])` },
];

const lists: Case[] = [
  { expression: 'lists.range(4) == [0, 1, 2, 3]' },
  { expression: 'lists.range(0) == []' },
  { expression: 'lists.range(-1) == []', evalError: 'lists.range: size must be non-negative, got -1' },
  { expression: '[5, 1, 2, 3].reverse() == [3, 2, 1, 5]' },
  { expression: '[false, true, true].reverse().reverse() == [false, true, true]' },
  { expression: '[1, 2, 3, 4].slice(0, 4) == [1, 2, 3, 4]' },
  { expression: '[1, 2, 3, 4].slice(4, 4) == []' },
  { expression: '[1, 2, 3, 4].slice(1, 3) == [2, 3]' },
  { expression: '[1, 2, 3, 4].slice(3, 0) == []', evalError: 'cannot slice(3, 0), start index must be less than or equal to end index' },
  { expression: '[1, 2, 3, 4].slice(0, 10) == []', evalError: 'cannot slice(0, 10), list is length 4' },
  { expression: '[1, 2, 3, 4].slice(-5, -3) == []', evalError: 'cannot slice(-5, -3), negative indexes not supported' },
  { expression: 'dyn([1, 2, 3, 4]).flatten() == [1, 2, 3, 4]' },
  { expression: '[[1], [2, 3], [], [4]].flatten() == [1, 2, 3, 4]' },
  { expression: '[[[1]], [[2, 3]]].flatten(2) == [1, 2, 3]' },
  { expression: '[[1]].flatten(-1) == [1]', evalError: 'level must be non-negative' },
  { expression: '[4, 3, 2, 1].sort() == [1, 2, 3, 4]' },
  { expression: '["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]' },
  { expression: '[dyn("d"), dyn(3)].sort() == []', evalError: 'list elements must have the same type' },
  { expression: '[[2], [1]].sort() == []', evalError: 'list elements must be comparable' },
  { expression: '[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]' },
  { expression: '["c", "a", "a", "b"].distinct() == ["c", "a", "b"]' },
  { expression: '[[1], [1], [2]].distinct() == [[1], [2]]' },
  { expression: '[1, 2].first().value() == 1 && [1, 2].last().value() == 2' },
  { expression: '![].first().hasValue() && ![].last().hasValue()' },
];

const strings: Case[] = [
  { expression: 'strings.quote("first\\nsecond") == "\\"first\\\\nsecond\\""' },
  { expression: 'strings.quote("bell\\a") == "\\"bell\\\\a\\""' },
  { expression: 'strings.quote("\\"quoted\\"") == "\\"\\\\\\"quoted\\\\\\"\\""' },
  { expression: 'strings.quote("") == "\\"\\""' },
  { expression: 'strings.quote("ÿ") == "\\"ÿ\\""' },
];

const comprehensions: Case[] = [
  { expression: '[1, 2, 3, 4].all(i, v, i < 5 && v > 0)' },
  { expression: '[1, 2, 3, 4].all(i, v, i < v)' },
  { expression: '[1, 2, 3, 4].all(i, v, i > v) == false' },
  { expression: 'cel.bind(a, [1, 2, 3, 4], cel.bind(b, [1, 2, 3, 4, 5], a.all(i, v, b[?i].hasValue() && b[i] == v)))' },
  { expression: 'cel.bind(a, [1, 2, 3, 4, 5, 6], cel.bind(b, [1, 2, 3, 4, 5], a.all(i, v, b[?i].hasValue() && b[i] == v))) == false' },
  { expression: `cel.bind(l, ['hello', 'world', 'hello!', 'worlds'], l.exists(i, v, v.startsWith('hello') && l[?(i + 1)].orValue('').endsWith('world')))` },
  { expression: `cel.bind(l, ['hello', 'world', 'hello!', 'worlds'], l.existsOne(i, v, v.startsWith('hello') && l[?(i + 1)].orValue('').endsWith('world')))` },
  { expression: `cel.bind(l, ['hello', 'goodbye', 'hello!', 'goodbye'], l.exists_one(i, v, v.startsWith('hello') && l[?(i + 1)].orValue('') == 'goodbye')) == false` },
  { expression: '[1, 2, 3].transformList(i, v, (i * v) + v) == [1, 4, 9]' },
  { expression: '[1, 2, 3].transformList(i, v, i % 2 == 0, (i * v) + v) == [1, 9]' },
  { expression: '[3, 2, 1].transformList(i, v, v > i, v) == [3, 2]' },
  { expression: '[].transformList(i, v, v) == []' },
  { expression: `['Hello', 'world'].transformMap(i, v, [v.lowerAscii()]) == {0: ['hello'], 1: ['world']}` },
  { expression: `['world', 'Hello'].transformMap(i, v, [v.lowerAscii()]).transformList(k, v, v).flatten().sort() == ['hello', 'world']` },
  { expression: '[1, 2, 3].transformMap(i, v, i % 2 == 0, (i * v) + v) == {0: 1, 2: 9}' },
  // cel-js keeps map literal keys as strings, so an int-keyed literal cannot be iterated (nor by all(x, p)).
  { expression: `{'a': 2, 'bb': 4, 'ccc': 6}.transformMap(k, v, k.size() % 3 == 0, v + 1) == {'ccc': 7}` },
  { expression: `"key1:value1 key2:value2 key3:value3".split(" ").transformMapEntry(i, v, cel.bind(e, v.split(":"), e.size() == 2 ? {e[0]: e[1]} : {})) == {'key1': 'value1', 'key2': 'value2', 'key3': 'value3'}` },
  { expression: `{'hello': 'world', 'hello!': 'world'}.all(k, v, k.startsWith('hello') && v == 'world')` },
  { expression: `{'hello': 'world', 'hello!': 'worlds'}.exists(k, v, k.startsWith('hello') && v.endsWith('world'))` },
  { expression: `{'hello': 'world', 'hello!': 'wow, world'}.exists_one(k, v, k.startsWith('hello') && v.endsWith('world')) == false` },
  { expression: `{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k).sort() == ['farewell', 'greeting']` },
  { expression: `{'hello': 'world', 'greetings': 'tacocat'}.transformMapEntry(k, v, v.reverse() == v, {k.reverse(): v.reverse()}) == {'sgniteerg': 'tacocat'}` },
  { expression: `device.attributes["dra.example.com"].exists(name, value, name == "cores" && value == 8)` },
  // A false decides all(), an error before it notwithstanding; without one the error stands.
  { expression: '[0, 1].all(i, v, 1 / v > 5) == false' },
  { expression: '[0, 1].all(i, v, 1 / v > 0)', evalError: 'division by zero' },
  { expression: '[0, 1].exists(i, v, 1 / v > 0)' },
  { expression: '[1, 1].transformMapEntry(i, v, {v: i}).size() == 1', evalError: 'insert failed: key 1 already exists' },
  { expression: '[].all(i, i, i < i)', compileError: 'duplicate variable name: i' },
  { expression: '[].all(__result__, i, __result__ < i)', compileError: 'iteration variable overwrites accumulator variable' },
  { expression: '[].all(i.j, k, i.j < k)', compileError: 'argument must be a simple name' },
  { expression: '[].exists(j, i.k, j < i.k)', compileError: 'argument must be a simple name' },
  { expression: '1.all(j, k, j < k)', compileError: 'cannot be range' },
  { expression: `''.existsOne(j, k, j < k)`, compileError: 'cannot be range' },
  { expression: `{}.transformMapEntry(j, k, 'bad filter', {k: j}).size() == 0`, compileError: 'no matching overload' },
  { expression: `{'hello': 'world'}.transformMapEntry(k, v, []) == {}`, compileError: 'no matching overload' },
];

for (const [library, cases] of [['sets', sets], ['lists', lists], ['strings', strings], ['two-variable comprehensions', comprehensions]] as const) {
  test(`cel ${library}`, () => {
    for (const c of cases) check(c);
  });
}

test('cel libraries: estimated costs grow with the sizes involved, as cel-go estimates them', () => {
  const cost = (e: string): number => compiler.compile(e).maxCost;
  // sets.contains costs the product of the list sizes; equivalent twice that.
  assert.ok(cost('sets.equivalent([1, 2, 3], [1, 2, 3])') > cost('sets.contains([1, 2, 3], [1, 2, 3])'));
  assert.ok(cost('lists.range(100).size() > 0') > cost('lists.range(10).size() > 0'));
  assert.ok(cost('[1, 2, 3].distinct().size() > 0') > cost('[1, 2, 3].reverse().size() > 0'));
  // A two-variable comprehension over the device's attributes is bounded like the one-variable form.
  const two = cost('device.attributes["dra.example.com"].all(k, v, k == "x")');
  const one = cost('device.attributes["dra.example.com"].all(k, k == "x")');
  assert.ok(two >= one && two < 10 * one, `${two} vs ${one}`);
});

test('cel libraries: a huge lists.range stops at the cost limit before it is built', { timeout: 10_000 }, () => {
  const result = compiler.compile('lists.range(1000000000000).size() > 0');
  assert.throws(() => result.deviceMatches(device), /actual cost limit exceeded/);
});

test('cel libraries: two-variable comprehensions are metered like the others', { timeout: 10_000 }, () => {
  const result = compiler.compile('lists.range(1000).all(i, v, lists.range(1000).all(j, w, i + j >= 0))');
  assert.throws(() => result.deviceMatches(device), /actual cost limit exceeded/);
});
