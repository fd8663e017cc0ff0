// What Filter found per node: appended per node, looked up by name as a map would answer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NodeAllocations, type NodeAllocation } from './state.js';

const found = (device: string): NodeAllocation => ({
  results: [{ devices: { results: [{ request: 'r', driver: 'd', pool: 'p', device }] } }],
  extendedResourceClaim: null,
  requestMappings: [],
});

describe('NodeAllocations', () => {
  it('answers each node with its last record, by scanning and from the map made later', () => {
    const a = new NodeAllocations();
    a.set('n1', found('a'));
    a.set('n2', found('b'));
    a.set('n1', found('c')); // filtered again (a preemption trial run)
    assert.equal(a.get('n1')?.results[0]?.devices?.results?.[0]?.device, 'c');
    assert.equal(a.get('n2')?.results[0]?.devices?.results?.[0]?.device, 'b');
    assert.equal(a.get('n3'), undefined);
    assert.equal(a.get('n1')?.results[0]?.devices?.results?.[0]?.device, 'c', 'now from the map');
    a.set('n3', found('d'));
    a.set('n2', found('e'));
    assert.equal(a.get('n3')?.results[0]?.devices?.results?.[0]?.device, 'd');
    assert.equal(a.get('n2')?.results[0]?.devices?.results?.[0]?.device, 'e');
  });
});
