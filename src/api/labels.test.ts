// Tests for labels.ts: the scenarios of apimachinery's labels/selector_test.go (requirement
// construction and matching) and meta/v1 helpers_test.go (LabelSelectorAsSelector).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateMessage,
  goQuote,
  labelValueErrors,
  newRequirement,
  Op,
  parseInt64,
  qualifiedNameErrors,
  requirementMatches,
  Selector,
  SelectorError,
  validateLabelKey,
  validateLabelValue,
  type Labels,
} from './labels.js';
import type { LabelSelector } from './types.js';

const nameRegexText =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueRegexText =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
  "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is " +
  "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('Selector.compile (LabelSelectorAsSelector)', () => {
  const cases: { name: string; sel: LabelSelector | null | undefined; labels: Labels; want: boolean }[] = [
    { name: 'nil selector matches nothing', sel: null, labels: { a: 'b' }, want: false },
    { name: 'undefined selector matches nothing', sel: undefined, labels: {}, want: false },
    { name: 'empty selector matches everything', sel: {}, labels: { a: 'b' }, want: true },
    { name: 'empty selector matches objects without labels', sel: { matchLabels: {}, matchExpressions: [] }, labels: undefined, want: true },
    { name: 'matchLabels equal', sel: { matchLabels: { app: 'web' } }, labels: { app: 'web', x: 'y' }, want: true },
    { name: 'matchLabels different value', sel: { matchLabels: { app: 'web' } }, labels: { app: 'db' }, want: false },
    { name: 'matchLabels missing key', sel: { matchLabels: { app: 'web' } }, labels: {}, want: false },
    { name: 'matchLabels empty value', sel: { matchLabels: { app: '' } }, labels: { app: '' }, want: true },
    { name: 'In matches a listed value', sel: { matchExpressions: [{ key: 'x', operator: 'In', values: ['foo', 'bar'] }] }, labels: { x: 'bar' }, want: true },
    { name: 'In fails on another value', sel: { matchExpressions: [{ key: 'x', operator: 'In', values: ['foo'] }] }, labels: { x: 'baz' }, want: false },
    { name: 'In fails without the key', sel: { matchExpressions: [{ key: 'x', operator: 'In', values: ['foo'] }] }, labels: { y: 'foo' }, want: false },
    { name: 'NotIn matches without the key', sel: { matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['foo'] }] }, labels: { y: 'foo' }, want: true },
    { name: 'NotIn matches another value', sel: { matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['foo'] }] }, labels: { x: 'bar' }, want: true },
    { name: 'NotIn fails on a listed value', sel: { matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['foo', 'bar'] }] }, labels: { x: 'foo' }, want: false },
    { name: 'Exists with the key', sel: { matchExpressions: [{ key: 'x', operator: 'Exists' }] }, labels: { x: '' }, want: true },
    { name: 'Exists without the key', sel: { matchExpressions: [{ key: 'x', operator: 'Exists' }] }, labels: {}, want: false },
    { name: 'DoesNotExist without the key', sel: { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, labels: { y: '1' }, want: true },
    { name: 'DoesNotExist with the key', sel: { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, labels: { x: '1' }, want: false },
    {
      name: 'all requirements must hold',
      sel: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe'] }, { key: 'canary', operator: 'DoesNotExist' }] },
      labels: { app: 'web', tier: 'fe' },
      want: true,
    },
    {
      name: 'one failing requirement fails the selector',
      sel: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe'] }, { key: 'canary', operator: 'DoesNotExist' }] },
      labels: { app: 'web', tier: 'fe', canary: 'true' },
      want: false,
    },
    { name: 'prefixed keys', sel: { matchLabels: { 'example.com/app': 'web' } }, labels: { 'example.com/app': 'web' }, want: true },
    { name: 'inherited object properties are not labels', sel: { matchExpressions: [{ key: 'toString', operator: 'Exists' }] }, labels: {}, want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(Selector.compile(c.sel).matches(c.labels), c.want);
    });
  }

  it('reports nil and empty selectors', () => {
    assert.equal(Selector.compile(null).matchesNothing, true);
    assert.equal(Selector.compile({}).isEverything, true);
    assert.equal(Selector.compile({ matchLabels: { a: 'b' } }).isEverything, false);
  });

  it('renders requirements sorted by key, as Selector.String does', () => {
    const s = Selector.compile({
      matchLabels: { z: '1' },
      matchExpressions: [
        { key: 'a', operator: 'In', values: ['y', 'x'] },
        { key: 'm', operator: 'DoesNotExist' },
        { key: 'b', operator: 'Exists' },
      ],
    });
    assert.equal(s.toString(), 'a in (x,y),b,!m,z=1');
  });

  const invalid: { name: string; sel: LabelSelector; message: string }[] = [
    {
      name: 'unknown operator',
      sel: { matchExpressions: [{ key: 'x', operator: 'Gt', values: ['1'] }] },
      message: '"Gt" is not a valid label selector operator',
    },
    {
      name: 'In without values (a nil slice after upstream copies it)',
      sel: { matchExpressions: [{ key: 'x', operator: 'In', values: [] }] },
      message: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    },
    {
      name: 'Exists with values',
      sel: { matchExpressions: [{ key: 'x', operator: 'Exists', values: ['a', 'b'] }] },
      message: 'values: Invalid value: []string{"a", "b"}: values set must be empty for exists and does not exist',
    },
    {
      name: 'invalid key',
      sel: { matchLabels: { 'bad key': 'v' } },
      message: `key: Invalid value: "bad key": name part ${nameRegexText}`,
    },
    {
      name: 'invalid value',
      sel: { matchLabels: { app: 'bad value!' } },
      message: `values[0][app]: Invalid value: "bad value!": ${valueRegexText}`,
    },
    {
      name: 'several errors are aggregated',
      sel: { matchExpressions: [{ key: '-x', operator: 'NotIn', values: [] }] },
      message: `[key: Invalid value: "-x": name part ${nameRegexText}, values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty]`,
    },
    {
      name: 'prefix errors',
      sel: { matchLabels: { 'Example.com/app': 'v' } },
      message:
        'key: Invalid value: "Example.com/app": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, ' +
        "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    },
  ];
  for (const c of invalid) {
    it(`rejects: ${c.name}`, () => {
      assert.throws(() => Selector.compile(c.sel), (err: unknown) => err instanceof SelectorError && err.message === c.message);
    });
  }
});

describe('Selector.fromSet and and()', () => {
  it('an empty set selects everything', () => {
    assert.equal(Selector.fromSet({}).isEverything, true);
    assert.equal(Selector.fromSet(undefined).matches(undefined), true);
  });

  it('a set requires every pair, without validating them', () => {
    const s = Selector.fromSet({ 'bad key': 'x', b: '2' });
    assert.equal(s.matches({ 'bad key': 'x', b: '2', c: '3' }), true);
    assert.equal(s.matches({ 'bad key': 'x' }), false);
  });

  it('and() adds In/NotIn requirements', () => {
    const s = Selector.fromSet({ app: 'web' }).and([{ key: 'version', operator: 'NotIn', values: ['v1'] }]);
    assert.equal(s.matches({ app: 'web', version: 'v2' }), true);
    assert.equal(s.matches({ app: 'web', version: 'v1' }), false);
    assert.equal(Selector.nothing.and([{ key: 'a', operator: 'In', values: ['b'] }]).matches({ a: 'b' }), false);
  });
});

describe('newRequirement with Gt and Lt (labels.Requirement)', () => {
  const matching: { labels: Labels; op: Op; bound: string; want: boolean }[] = [
    { labels: { n: '5' }, op: Op.Gt, bound: '4', want: true },
    { labels: { n: '4' }, op: Op.Gt, bound: '4', want: false },
    { labels: { n: '-1' }, op: Op.Lt, bound: '0', want: true },
    { labels: { n: '+7' }, op: Op.Gt, bound: '6', want: true },
    { labels: { n: 'x' }, op: Op.Gt, bound: '1', want: false },
    { labels: { n: '1.5' }, op: Op.Gt, bound: '1', want: false },
    { labels: {}, op: Op.Lt, bound: '1', want: false },
    // int64 precision beyond 2^53
    { labels: { n: '9007199254740993' }, op: Op.Gt, bound: '9007199254740992', want: true },
    { labels: { n: '9223372036854775807' }, op: Op.Gt, bound: '9223372036854775806', want: true },
    { labels: { n: '9223372036854775808' }, op: Op.Gt, bound: '0', want: false }, // out of int64
    { labels: { n: '-9223372036854775808' }, op: Op.Lt, bound: '9223372036854775807', want: true },
  ];
  for (const m of matching) {
    it(`${JSON.stringify(m.labels)} ${m.op === Op.Gt ? '>' : '<'} ${m.bound} is ${m.want}`, () => {
      const errs: string[] = [];
      const r = newRequirement('n', m.op, [m.bound], '', errs);
      assert.deepEqual(errs, []);
      assert.equal(requirementMatches(r!, m.labels), m.want);
    });
  }

  it('requires exactly one integer value', () => {
    const errs: string[] = [];
    assert.equal(newRequirement('n', Op.Gt, ['1', 'x'], 'p', errs), undefined);
    assert.deepEqual(errs, [
      `p.values: Invalid value: []string{"1", "x"}: for 'Gt', 'Lt' operators, exactly one value is required`,
      `p.values[1]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
    ]);
  });

  it('validates the bound as a label value too, so a negative bound is rejected', () => {
    const errs: string[] = [];
    assert.equal(newRequirement('n', Op.Lt, ['-5'], '', errs), undefined);
    assert.deepEqual(errs, [`values[0][n]: Invalid value: "-5": ${valueRegexText}`]);
  });

  it('parses int64 as strconv.ParseInt does', () => {
    assert.equal(parseInt64('42'), 42);
    assert.equal(parseInt64('-0'), 0);
    assert.equal(parseInt64('+12'), 12);
    assert.equal(parseInt64('9223372036854775807'), 9223372036854775807n);
    assert.equal(parseInt64('9223372036854775808'), undefined);
    assert.equal(parseInt64(''), undefined);
    assert.equal(parseInt64('-'), undefined);
    assert.equal(parseInt64('1_000'), undefined);
    assert.equal(parseInt64(' 1'), undefined);
    assert.equal(parseInt64('0x10'), undefined);
  });
});

describe('validation texts', () => {
  it('qualified names', () => {
    assert.deepEqual(qualifiedNameErrors('app'), []);
    assert.deepEqual(qualifiedNameErrors('example.com/app'), []);
    assert.deepEqual(qualifiedNameErrors('/app'), ['prefix part must be non-empty']);
    assert.deepEqual(qualifiedNameErrors('example.com/'), ['name part must be non-empty', `name part ${nameRegexText}`]);
    assert.deepEqual(qualifiedNameErrors('x'.repeat(64)), ['name part must be no more than 63 characters']);
    assert.equal(qualifiedNameErrors('a/b/c').length, 1);
    assert.ok(qualifiedNameErrors('a/b/c')[0]!.endsWith("with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"));
    assert.deepEqual(qualifiedNameErrors(`${'a'.repeat(254)}/x`), [
      'prefix part must be no more than 253 characters',
    ]);
  });

  it('label values', () => {
    assert.deepEqual(labelValueErrors(''), []);
    assert.deepEqual(labelValueErrors('a.b-c_d'), []);
    assert.deepEqual(labelValueErrors('-a'), [valueRegexText]);
    assert.deepEqual(labelValueErrors('a'.repeat(64)), ['must be no more than 63 characters']);
  });

  it('validateLabelKey and validateLabelValue throw the detail text', () => {
    assert.doesNotThrow(() => validateLabelKey('topology.kubernetes.io/zone'));
    assert.throws(() => validateLabelKey('bad key'), { message: `name part ${nameRegexText}` });
    assert.doesNotThrow(() => validateLabelValue('k', ''));
    assert.throws(() => validateLabelValue('k', 'a b'), { message: valueRegexText });
  });

  it('quotes as Go %q and aggregates as utilerrors', () => {
    assert.equal(goQuote('a"b\\c\n\x01é'), '"a\\"b\\\\c\\n\\x01é"');
    assert.equal(aggregateMessage(['x']), 'x');
    assert.equal(aggregateMessage(['x', 'y', 'x']), '[x, y]');
  });
});
