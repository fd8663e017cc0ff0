import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloneJSON } from './json_clone.js';

describe('cloneJSON', () => {
  it('copies nested objects and arrays so changes to the copy do not reach the original', () => {
    const original = { metadata: { name: 'p', labels: { a: '1' } }, spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] }, n: 3, ok: true, none: null };
    const copy = cloneJSON(original);
    assert.deepEqual(copy, original);
    copy.metadata.labels.a = '2';
    copy.spec.containers[0]!.ports[0]!.containerPort = 81;
    assert.equal(original.metadata.labels.a, '1');
    assert.equal(original.spec.containers[0]!.ports[0]!.containerPort, 80);
  });

  it('drops undefined members as JSON would and keeps primitives as they are', () => {
    assert.deepEqual(cloneJSON({ a: undefined, b: 1 }), { b: 1 });
    assert.equal(cloneJSON('x'), 'x');
    assert.equal(cloneJSON(null), null);
  });
});
