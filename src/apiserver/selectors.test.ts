// Query-string selectors: the label selector grammar of labels.Parse and the field selectors each
// resource supports (upstream labels/selector_test.go, fields/selector_test.go scenarios).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/types.js';
import { findResource } from './resources.js';
import { matchesFields, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { ServedStatusError } from './status.js';

describe('label selectors', () => {
  const cases: { sel: string; labels: Record<string, string>; want: boolean }[] = [
    { sel: '', labels: {}, want: true },
    { sel: 'a=b', labels: { a: 'b' }, want: true },
    { sel: 'a==b', labels: { a: 'c' }, want: false },
    { sel: 'a!=b', labels: {}, want: true },
    { sel: 'a!=b', labels: { a: 'b' }, want: false },
    { sel: 'a in (b, c),d', labels: { a: 'c', d: '' }, want: true },
    { sel: 'a notin (b,c)', labels: { a: 'b' }, want: false },
    { sel: '!a', labels: { a: 'x' }, want: false },
    { sel: 'x,!a', labels: { x: '1' }, want: true },
    { sel: 'app.kubernetes.io/name=web,tier=', labels: { 'app.kubernetes.io/name': 'web', tier: '' }, want: true },
  ];
  for (const c of cases) {
    it(`"${c.sel}" on ${JSON.stringify(c.labels)} is ${c.want}`, () => {
      assert.equal(parseLabelSelector(c.sel).matches(c.labels), c.want);
    });
  }

  it('rejects malformed selectors with 400', () => {
    assert.throws(() => parseLabelSelector('a in b'), (e) => e instanceof ServedStatusError && e.code === 400);
    assert.throws(() => parseLabelSelector('a=b=c'), (e) => e instanceof ServedStatusError && e.code === 400);
  });
});

describe('field selectors', () => {
  const pods = findResource('', 'v1', 'pods')!;
  const nodes = findResource('', 'v1', 'nodes')!;
  const pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: '', schedulerName: 'default-scheduler' }, status: { phase: 'Pending' } };

  it('matches unassigned, non-terminal pods as the scheduler selects them', () => {
    const sel = parseFieldSelector('status.phase!=Succeeded,status.phase!=Failed,spec.nodeName=', pods);
    assert.equal(matchesFields(pod, sel), true);
    assert.equal(matchesFields({ ...pod, spec: { nodeName: 'n1' } } as KubeObject, sel), false);
    assert.equal(matchesFields({ ...pod, status: { phase: 'Failed' } } as KubeObject, sel), false);
  });

  it('compares booleans as "true"/"false" with absent as false', () => {
    const sel = parseFieldSelector('spec.unschedulable=false', nodes);
    assert.equal(matchesFields({ metadata: { name: 'n' }, spec: {} } as KubeObject, sel), true);
    assert.equal(matchesFields({ metadata: { name: 'n' }, spec: { unschedulable: true } } as KubeObject, sel), false);
  });

  it('unescapes values and refuses fields the resource does not support', () => {
    assert.deepEqual(parseFieldSelector('metadata.name=a\\,b', pods), [{ field: 'metadata.name', value: 'a,b', equal: true }]);
    assert.throws(() => parseFieldSelector('spec.nodeName=x', nodes), (e) => e instanceof ServedStatusError && e.code === 400 && e.message === 'field label not supported: spec.nodeName');
  });
});
