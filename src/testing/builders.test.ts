import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeNode, makePod } from './builders.js';

describe('makePod and makeNode options', () => {
  it('image sets the container image; "pause" by default', () => {
    assert.equal(makePod('p').spec.containers[0]!.image, 'pause');
    assert.equal(makePod('p', { image: 'registry.example/app:1' }).spec.containers[0]!.image, 'registry.example/app:1');
  });

  it('ready adds the Ready condition, as a kubelet reports it; no conditions by default', () => {
    assert.equal(makeNode('n').status!.conditions, undefined);
    assert.deepEqual(makeNode('n', { ready: true }).status!.conditions, [{ type: 'Ready', status: 'True' }]);
  });

  it('allocatable is the capacity too, and labels join the hostname label', () => {
    const n = makeNode('n', { labels: { zone: 'a' }, allocatable: { cpu: '2', pods: '10' } });
    assert.deepEqual(n.metadata.labels, { 'kubernetes.io/hostname': 'n', zone: 'a' });
    assert.deepEqual(n.status!.capacity, { cpu: '2', pods: '10' });
    assert.deepEqual(n.status!.allocatable, { cpu: '2', pods: '10' });
  });
});
