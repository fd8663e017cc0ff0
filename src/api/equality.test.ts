// Tests for equality.ts: semantic equality as apimachinery's Semantic.DeepEqual decides it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { labelsEqual, quantitiesEqual, resourceListsEqual, taintsEqual, tolerationsEqual, topologySelectorTermsEqual } from './equality.js';
import type { QuantityValue, ResourceList, StorageClass, Taint, Toleration } from './types.js';

describe('labelsEqual', () => {
  const cases: { name: string; a: Record<string, string> | undefined; b: Record<string, string> | undefined; want: boolean }[] = [
    { name: 'absent equals empty', a: undefined, b: {}, want: true },
    { name: 'same entries in another order', a: { x: '1', y: '2' }, b: { y: '2', x: '1' }, want: true },
    { name: 'a changed value', a: { x: '1' }, b: { x: '2' }, want: false },
    { name: 'an added key', a: { x: '1' }, b: { x: '1', y: '' }, want: false },
    { name: 'a renamed key', a: { x: '' }, b: { y: '' }, want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(labelsEqual(c.a, c.b), c.want));
});

describe('taintsEqual', () => {
  const t: Taint = { key: 'k', value: 'v', effect: 'NoSchedule' };
  const cases: { name: string; a: Taint[] | undefined; b: Taint[] | undefined; want: boolean }[] = [
    { name: 'absent equals empty', a: undefined, b: [], want: true },
    { name: 'same taints', a: [t], b: [{ effect: 'NoSchedule', value: 'v', key: 'k' }], want: true },
    { name: 'absent value equals empty value', a: [{ key: 'k', effect: 'NoSchedule' }], b: [{ key: 'k', value: '', effect: 'NoSchedule' }], want: true },
    { name: 'another effect', a: [t], b: [{ ...t, effect: 'NoExecute' }], want: false },
    { name: 'order matters', a: [t, { key: 'j', effect: 'NoSchedule' }], b: [{ key: 'j', effect: 'NoSchedule' }, t], want: false },
    { name: 'the same instant written in two zones', a: [{ ...t, timeAdded: '2024-01-01T00:00:00Z' }], b: [{ ...t, timeAdded: '2024-01-01T01:00:00+01:00' }], want: true },
    { name: 'another instant', a: [{ ...t, timeAdded: '2024-01-01T00:00:00Z' }], b: [{ ...t, timeAdded: '2024-01-01T00:00:01Z' }], want: false },
    { name: 'a time on one side only', a: [{ ...t, timeAdded: '2024-01-01T00:00:00Z' }], b: [t], want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(taintsEqual(c.a, c.b), c.want));
});

describe('tolerationsEqual', () => {
  const t: Toleration = { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute', tolerationSeconds: 30 };
  const cases: { name: string; a: Toleration[] | undefined; b: Toleration[] | undefined; want: boolean }[] = [
    { name: 'absent equals empty', a: undefined, b: [], want: true },
    { name: 'same tolerations', a: [t], b: [{ ...t }], want: true },
    { name: 'another toleration time', a: [t], b: [{ ...t, tolerationSeconds: 60 }], want: false },
    { name: 'a toleration time on one side only', a: [t], b: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute' }], want: false },
    { name: 'an added toleration', a: [t], b: [t, { operator: 'Exists' }], want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(tolerationsEqual(c.a, c.b), c.want));
});

describe('quantitiesEqual and resourceListsEqual', () => {
  const quantities: { a: QuantityValue; b: QuantityValue; want: boolean }[] = [
    { a: '1', b: '1000m', want: true },
    { a: 1, b: '1', want: true },
    { a: '1Gi', b: '1073741824', want: true },
    { a: '1k', b: '1000', want: true },
    { a: '1Ki', b: '1000', want: false },
    // Below a milli-unit: MilliValue would round both up to 1 and call them equal.
    { a: '1n', b: '2n', want: false },
    { a: 'not-a-quantity', b: 'not-a-quantity', want: true },
    { a: 'not-a-quantity', b: '1', want: false },
  ];
  for (const c of quantities) it(`${c.a} ${c.want ? 'equals' : 'differs from'} ${c.b}`, () => assert.equal(quantitiesEqual(c.a, c.b), c.want));

  const lists: { name: string; a: ResourceList | undefined; b: ResourceList | undefined; want: boolean }[] = [
    { name: 'absent equals empty', a: undefined, b: {}, want: true },
    { name: 'values compare as quantities', a: { cpu: '2', memory: '1Gi' }, b: { memory: '1024Mi', cpu: '2000m' }, want: true },
    { name: 'a changed value', a: { cpu: '2' }, b: { cpu: '2001m' }, want: false },
    { name: 'another resource name', a: { cpu: '2' }, b: { memory: '2' }, want: false },
    { name: 'an added resource', a: { cpu: '2' }, b: { cpu: '2', pods: '110' }, want: false },
  ];
  for (const c of lists) it(`resource lists: ${c.name}`, () => assert.equal(resourceListsEqual(c.a, c.b), c.want));
});

describe('topologySelectorTermsEqual', () => {
  type Terms = StorageClass['allowedTopologies'];
  const zone = (...values: string[]): Terms => [{ matchLabelExpressions: [{ key: 'zone', values }] }];
  const cases: { name: string; a: Terms; b: Terms; want: boolean }[] = [
    { name: 'absent equals empty', a: undefined, b: [], want: true },
    { name: 'a term without expressions equals one with an empty list', a: [{}], b: [{ matchLabelExpressions: [] }], want: true },
    { name: 'same values', a: zone('a', 'b'), b: zone('a', 'b'), want: true },
    { name: 'values in another order', a: zone('a', 'b'), b: zone('b', 'a'), want: false },
    { name: 'an added value', a: zone('a'), b: zone('a', 'b'), want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(topologySelectorTermsEqual(c.a, c.b), c.want));
});
