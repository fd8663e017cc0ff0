// Tests for taints.ts: the scenarios of core/v1 toleration_test.go (ToleratesTaint) and
// component-helpers' scheduling helpers tests (FindMatchingUntoleratedTaint).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findUntoleratedTaint, taintForMessage, taintToleratedBy, toleratesTaint } from './taints.js';
import type { Taint, Toleration } from './types.js';

describe('toleratesTaint', () => {
  const cases: { name: string; toleration: Toleration; taint: Taint; want: boolean }[] = [
    {
      name: 'empty effect tolerates every effect',
      toleration: { key: 'foo', operator: 'Exists' },
      taint: { key: 'foo', effect: 'NoExecute' },
      want: true,
    },
    {
      name: 'a different effect does not tolerate',
      toleration: { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      taint: { key: 'foo', effect: 'NoExecute' },
      want: false,
    },
    {
      name: 'a different key does not tolerate',
      toleration: { key: 'foo', operator: 'Exists' },
      taint: { key: 'bar', effect: 'NoSchedule' },
      want: false,
    },
    {
      name: 'empty key with Exists tolerates every taint',
      toleration: { operator: 'Exists' },
      taint: { key: 'anything', value: 'x', effect: 'NoSchedule' },
      want: true,
    },
    {
      name: 'Equal with the same value tolerates',
      toleration: { key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' },
      taint: { key: 'foo', value: 'bar', effect: 'PreferNoSchedule' },
      want: true,
    },
    {
      name: 'Equal with another value does not tolerate',
      toleration: { key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' },
      taint: { key: 'foo', value: 'baz', effect: 'PreferNoSchedule' },
      want: false,
    },
    {
      name: 'an empty operator means Equal',
      toleration: { key: 'foo', value: 'bar' },
      taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      want: true,
    },
    {
      name: 'an empty operator with another value does not tolerate',
      toleration: { key: 'foo', value: 'bar' },
      taint: { key: 'foo', value: 'other', effect: 'NoSchedule' },
      want: false,
    },
    {
      name: 'Equal with both values missing tolerates',
      toleration: { key: 'foo', operator: 'Equal' },
      taint: { key: 'foo', effect: 'NoSchedule' },
      want: true,
    },
    {
      name: 'Exists ignores the value',
      toleration: { key: 'foo', operator: 'Exists' },
      taint: { key: 'foo', value: 'anything', effect: 'NoSchedule' },
      want: true,
    },
    {
      name: 'an empty key with Equal matches any key with the same value',
      toleration: { operator: 'Equal', value: 'v' },
      taint: { key: 'k', value: 'v', effect: 'NoSchedule' },
      want: true,
    },
    {
      name: 'an unknown operator tolerates nothing',
      toleration: { key: 'foo', operator: 'Gt', value: '1' },
      taint: { key: 'foo', value: '5', effect: 'NoSchedule' },
      want: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(toleratesTaint(c.toleration, c.taint), c.want);
    });
  }
});

describe('taintToleratedBy', () => {
  const taint: Taint = { key: 'dedicated', value: 'team-a', effect: 'NoSchedule' };
  it('no tolerations tolerate nothing', () => {
    assert.equal(taintToleratedBy(taint, undefined), false);
    assert.equal(taintToleratedBy(taint, []), false);
  });
  it('any one matching toleration is enough', () => {
    assert.equal(taintToleratedBy(taint, [{ key: 'other', operator: 'Exists' }, { key: 'dedicated', value: 'team-a' }]), true);
  });
});

describe('findUntoleratedTaint', () => {
  const noScheduleOrNoExecute = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';
  const cases: { name: string; taints?: Taint[]; tolerations?: Toleration[]; want: Taint | undefined }[] = [
    { name: 'no taints', want: undefined },
    {
      name: 'a tolerated taint',
      taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user1', effect: 'NoSchedule' }],
      want: undefined,
    },
    {
      name: 'an untolerated taint',
      taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }],
      want: { key: 'dedicated', value: 'user1', effect: 'NoSchedule' },
    },
    {
      name: 'the first untolerated taint in node order',
      taints: [
        { key: 'a', value: '1', effect: 'NoSchedule' },
        { key: 'b', value: '2', effect: 'NoExecute' },
        { key: 'c', value: '3', effect: 'NoSchedule' },
      ],
      tolerations: [{ key: 'a', operator: 'Exists' }],
      want: { key: 'b', value: '2', effect: 'NoExecute' },
    },
    {
      name: 'filtered-out taints are ignored',
      taints: [{ key: 'soft', effect: 'PreferNoSchedule' }],
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(findUntoleratedTaint(c.taints, c.tolerations, noScheduleOrNoExecute), c.want);
    });
  }
});

describe('taintForMessage', () => {
  it('prints key and value as the TaintToleration reason does', () => {
    assert.equal(taintForMessage({ key: 'dedicated', value: 'team-b', effect: 'NoSchedule' }), '{dedicated: team-b}');
    assert.equal(taintForMessage({ key: 'maintenance', effect: 'NoSchedule' }), '{maintenance: }');
  });
});
