// Tests for nodeselector.ts: the scenarios of component-helpers' nodeaffinity_test.go
// (TestNodeSelectorMatch, TestPreferredSchedulingTermsScore, TestPodMatchesNodeSelectorAndAffinityTerms).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NodeSelectorMatcher, PreferredTermsScorer, RequiredNodeAffinity } from './nodeselector.js';
import { SelectorError } from './labels.js';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, PreferredSchedulingTerm } from './types.js';

function node(name: string, labels?: Record<string, string>): Node {
  return { metadata: { name, ...(labels ? { labels } : {}) } };
}

function expr(key: string, operator: string, values?: string[]): NodeSelectorRequirement {
  return { key, operator, ...(values ? { values } : {}) };
}

const nameRegexText =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function podWith(terms: NodeSelectorTerm[] | null, nodeSelector?: Record<string, string>): Pod {
  return {
    metadata: { name: 'p' },
    spec: {
      containers: [],
      ...(nodeSelector ? { nodeSelector } : {}),
      ...(terms !== null ? { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } } : {}),
    },
  };
}

describe('RequiredNodeAffinity (nodeSelector and required node affinity)', () => {
  const cases: { name: string; pod: Pod; node: Node; want: boolean }[] = [
    { name: 'no selector', pod: podWith(null), node: node(''), want: true },
    { name: 'missing labels', pod: podWith(null, { foo: 'bar' }), node: node(''), want: false },
    { name: 'same labels', pod: podWith(null, { foo: 'bar' }), node: node('', { foo: 'bar' }), want: true },
    { name: 'node labels are a superset', pod: podWith(null, { foo: 'bar' }), node: node('', { foo: 'bar', baz: 'blah' }), want: true },
    { name: 'node labels are a subset', pod: podWith(null, { foo: 'bar', baz: 'blah' }), node: node('', { foo: 'bar' }), want: false },
    { name: 'In matches', pod: podWith([{ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }]), node: node('', { foo: 'bar' }), want: true },
    { name: 'Gt compares integers', pod: podWith([{ matchExpressions: [expr('kernel-version', 'Gt', ['0204'])] }]), node: node('', { 'kernel-version': '0206' }), want: true },
    { name: 'Lt compares integers', pod: podWith([{ matchExpressions: [expr('kernel-version', 'Lt', ['0204'])] }]), node: node('', { 'kernel-version': '0206' }), want: false },
    { name: 'Gt with a non-integer label value fails', pod: podWith([{ matchExpressions: [expr('v', 'Gt', ['1'])] }]), node: node('', { v: 'abc' }), want: false },
    { name: 'NotIn matches another value', pod: podWith([{ matchExpressions: [expr('mem-type', 'NotIn', ['DDR', 'DDR2'])] }]), node: node('', { 'mem-type': 'DDR3' }), want: true },
    { name: 'Exists matches', pod: podWith([{ matchExpressions: [expr('GPU', 'Exists')] }]), node: node('', { GPU: 'NVIDIA-GRID-K1' }), want: true },
    { name: 'DoesNotExist fails with the label', pod: podWith([{ matchExpressions: [expr('GPU', 'DoesNotExist')] }]), node: node('', { GPU: 'x' }), want: false },
    { name: 'affinity that does not match the labels', pod: podWith([{ matchExpressions: [expr('foo', 'In', ['value1', 'value2'])] }]), node: node('', { foo: 'bar' }), want: false },
    { name: 'no terms match nothing', pod: podWith([]), node: node('', { foo: 'bar' }), want: false },
    { name: 'an empty term matches nothing', pod: podWith([{ matchExpressions: [] }]), node: node('', { foo: 'bar' }), want: false },
    {
      name: 'expressions of a term are ANDed (match)',
      pod: podWith([{ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }]),
      node: node('', { GPU: 'NVIDIA-GRID-K1' }),
      want: true,
    },
    {
      name: 'expressions of a term are ANDed (no match)',
      pod: podWith([{ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', ['AMD', 'INTER'])] }]),
      node: node('', { GPU: 'NVIDIA-GRID-K1' }),
      want: false,
    },
    {
      name: 'terms are ORed',
      pod: podWith([{ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }, { matchExpressions: [expr('diffkey', 'In', ['wrong', 'value2'])] }]),
      node: node('', { foo: 'bar' }),
      want: true,
    },
    { name: 'affinity and nodeSelector both satisfied', pod: podWith([{ matchExpressions: [expr('foo', 'Exists')] }], { foo: 'bar' }), node: node('', { foo: 'bar' }), want: true },
    { name: 'affinity satisfied but nodeSelector not', pod: podWith([{ matchExpressions: [expr('foo', 'Exists')] }], { foo: 'bar' }), node: node('', { foo: 'barrrrrr' }), want: false },
    { name: 'an invalid value makes the term unmatchable', pod: podWith([{ matchExpressions: [expr('foo', 'NotIn', ['invalid value: ___@#$%^'])] }]), node: node('', { foo: 'bar' }), want: false },
    { name: 'matchFields In matches the node name', pod: podWith([{ matchFields: [expr('metadata.name', 'In', ['node_1'])] }]), node: node('node_1'), want: true },
    { name: 'matchFields In on another node', pod: podWith([{ matchFields: [expr('metadata.name', 'In', ['node_1'])] }]), node: node('node_2'), want: false },
    { name: 'matchFields NotIn on another node', pod: podWith([{ matchFields: [expr('metadata.name', 'NotIn', ['node_1'])] }]), node: node('node_2'), want: true },
    {
      name: 'two terms: fields miss, expressions match',
      pod: podWith([{ matchFields: [expr('metadata.name', 'In', ['node_1'])] }, { matchExpressions: [expr('foo', 'In', ['bar'])] }]),
      node: node('node_2', { foo: 'bar' }),
      want: true,
    },
    {
      name: 'one term: fields miss, expressions match',
      pod: podWith([{ matchFields: [expr('metadata.name', 'In', ['node_1'])], matchExpressions: [expr('foo', 'In', ['bar'])] }]),
      node: node('node_2', { foo: 'bar' }),
      want: false,
    },
    {
      name: 'one term: fields and expressions match',
      pod: podWith([{ matchFields: [expr('metadata.name', 'In', ['node_1'])], matchExpressions: [expr('foo', 'In', ['bar'])] }]),
      node: node('node_1', { foo: 'bar' }),
      want: true,
    },
    {
      name: 'two terms: neither matches',
      pod: podWith([{ matchFields: [expr('metadata.name', 'In', ['node_1'])] }, { matchExpressions: [expr('foo', 'In', ['not-match-to-bar'])] }]),
      node: node('node_2', { foo: 'bar' }),
      want: false,
    },
    { name: 'a field selector is ignored for a node without name', pod: podWith([{ matchFields: [expr('metadata.name', 'In', ['node_1'])] }]), node: node(''), want: true },
    { name: 'an unknown field reads as empty', pod: podWith([{ matchFields: [expr('metadata.uid', 'In', [''])] }]), node: node('node_1'), want: true },
    { name: 'an unknown field differs from a value', pod: podWith([{ matchFields: [expr('spec.x', 'In', ['a'])] }]), node: node('node_1'), want: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(RequiredNodeAffinity.fromPod(c.pod).matches(c.node), c.want);
    });
  }
});

describe('NodeSelectorMatcher errors (LazyErrorNodeSelector)', () => {
  it('keeps the errors of the invalid terms and still evaluates the valid ones', () => {
    const m = new NodeSelectorMatcher([
      { matchFields: [expr('metadata.name', 'In', ['host_1', 'host_2'])] },
      { matchExpressions: [expr('label_1', 'In', ['label_1_val'])], matchFields: [expr('metadata.name', 'In', ['host_1'])] },
      { matchExpressions: [expr('invalid key', 'In', ['label_value'])] },
    ]);
    assert.deepEqual(m.errors, [
      'nodeSelectorTerms[0].matchFields[0].values: Invalid value: []string{"host_1", "host_2"}: must have one element',
      `nodeSelectorTerms[2].matchExpressions[0].key: Invalid value: "invalid key": ${nameRegexText}`,
    ]);
    assert.equal(m.error, `[${m.errors.join(', ')}]`);
    assert.equal(m.matches(node('host_1', { label_1: 'label_1_val' })), true);
    assert.equal(m.matches(node('host_1')), false);
  });

  it('words operator errors as field.NotSupported', () => {
    const m = new NodeSelectorMatcher([
      { matchExpressions: [expr('a', 'Foo', ['x'])] },
      { matchFields: [expr('metadata.name', 'Exists')] },
      { matchFields: [expr('metadata.name', 'In')] },
    ]);
    assert.deepEqual(m.errors, [
      'nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "Foo": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"',
      'nodeSelectorTerms[1].matchFields[0].operator: Unsupported value: "Exists": supported values: "In", "NotIn"',
      'nodeSelectorTerms[2].matchFields[0].values: Invalid value: []string(nil): must have one element',
    ]);
  });

  it('words requirement errors as labels.NewRequirement', () => {
    const m = new NodeSelectorMatcher([
      { matchExpressions: [expr('a', 'In', [])] },
      { matchExpressions: [expr('a', 'Exists', ['x'])] },
      { matchExpressions: [expr('a', 'Gt', ['1', '2'])] },
      { matchExpressions: [expr('a', 'Lt', ['x'])] },
    ]);
    assert.deepEqual(m.errors, [
      "nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
      'nodeSelectorTerms[1].matchExpressions[0].values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
      `nodeSelectorTerms[2].matchExpressions[0].values: Invalid value: []string{"1", "2"}: for 'Gt', 'Lt' operators, exactly one value is required`,
      `nodeSelectorTerms[3].matchExpressions[0].values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
    ]);
    assert.equal(m.matches(node('n', { a: '5' })), false);
  });

  it('has no error when every term parses', () => {
    const m = new NodeSelectorMatcher([{ matchExpressions: [expr('a', 'Exists')] }, {}]);
    assert.equal(m.error, null);
  });
});

describe('PreferredTermsScorer (PreferredSchedulingTerms)', () => {
  it('reports every invalid weighted term with its index', () => {
    const terms: PreferredSchedulingTerm[] = [
      { weight: 1, preference: { matchFields: [expr('metadata.name', 'In', ['host_1', 'host_2'])] } },
      { weight: 1, preference: { matchExpressions: [expr('label_1', 'In', ['label_1_val'])], matchFields: [expr('metadata.name', 'In', ['host_1'])] } },
      { weight: 1, preference: { matchExpressions: [expr('invalid key', 'In', ['label_value'])] } },
    ];
    assert.throws(
      () => new PreferredTermsScorer(terms),
      (err: unknown) =>
        err instanceof SelectorError &&
        err.message ===
          `[[0].matchFields[0].values: Invalid value: []string{"host_1", "host_2"}: must have one element, [2].matchExpressions[0].key: Invalid value: "invalid key": ${nameRegexText}]`,
    );
  });

  it('skips terms without weight, even invalid ones', () => {
    const s = new PreferredTermsScorer([{ weight: 0, preference: { matchFields: [expr('metadata.name', 'In', ['host_1', 'host_2'])] } }]);
    assert.equal(s.isEmpty, true);
    assert.equal(s.score(node('host_1')), 0);
  });

  it('sums the weights of the matching terms', () => {
    const s = new PreferredTermsScorer([
      { weight: 5, preference: { matchFields: [expr('metadata.name', 'In', ['host_1'])] } },
      { weight: 7, preference: { matchExpressions: [expr('unknown_label', 'In', ['unknown_label_val'])] } },
      { weight: 11, preference: { matchExpressions: [expr('label_1', 'In', ['label_1_val'])] } },
      { weight: 13, preference: {} },
    ]);
    assert.equal(s.isEmpty, false);
    assert.equal(s.score(node('host_1', { label_1: 'label_1_val' })), 16);
    assert.equal(s.score(node('host_2', { label_1: 'label_1_val' })), 11);
  });
});
