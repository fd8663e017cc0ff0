// What Filter found per node: appended per node, looked up by name as a map would answer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../api/types.js';
import type { AllocationResult } from '../../api/dra_types.js';
import { NodeAllocations } from './state.js';

const found = (device: string): AllocationResult[] => [{ devices: { results: [{ request: 'r', driver: 'd', pool: 'p', device }] } }];
const node = (name: string): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: {} }) as Node;

describe('NodeAllocations', () => {
  it('answers each node with its last record, by scanning and from the map made later', () => {
    const a = new NodeAllocations();
    a.add(node('n1'), found('a'), null);
    a.add(node('n2'), found('b'), null);
    a.add(node('n1'), found('c'), null); // filtered again (a preemption trial run)
    assert.equal(a.get('n1')?.results[0]?.devices?.results?.[0]?.device, 'c');
    assert.equal(a.get('n2')?.results[0]?.devices?.results?.[0]?.device, 'b');
    assert.equal(a.get('n3'), undefined);
    assert.equal(a.get('n1')?.results[0]?.devices?.results?.[0]?.device, 'c', 'now from the map');
    a.add(node('n3'), found('d'), null);
    a.add(node('n2'), found('e'), null);
    assert.equal(a.get('n3')?.results[0]?.devices?.results?.[0]?.device, 'd');
    assert.equal(a.get('n2')?.results[0]?.devices?.results?.[0]?.device, 'e');
  });

  it('answers repeated lookups of one node (Reserve, then PreBind twice) from the last answer, and forgets it on add', () => {
    const a = new NodeAllocations();
    a.add(node('n1'), found('a'), null);
    a.add(node('n2'), found('b'), null);
    const first = a.get('n2');
    for (let i = 0; i < 5; i++) assert.equal(a.get('n2'), first, 'the same record, not one per lookup');
    a.add(node('n2'), found('c'), null);
    assert.equal(a.get('n2')?.results[0]?.devices?.results?.[0]?.device, 'c');
    assert.equal(a.get('n1')?.results[0]?.devices?.results?.[0]?.device, 'a');
    assert.equal(a.get('n9'), undefined);
    assert.equal(a.get('n9'), undefined);
  });

  it('keeps the node\'s extended-resources claim and mappings beside its results', () => {
    const a = new NodeAllocations();
    const claim = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'x' }, spec: {} } as const;
    const mappings = [{ containerName: 'c', resourceName: 'example.com/gpu', requestName: 'container-0-request-0' }];
    a.add(node('n1'), found('a'), { claim, mappings });
    a.add(node('n2'), found('b'), null);
    assert.deepEqual(a.get('n1'), { results: found('a'), extendedResourceClaim: claim, requestMappings: mappings });
    assert.deepEqual(a.get('n2'), { results: found('b'), extendedResourceClaim: null, requestMappings: [] });
  });

  it('after PreBind (release) answers the chosen node still, and the next pod sees none of its records', () => {
    const first = new NodeAllocations();
    for (let i = 1; i <= 5; i++) first.add(node(`n${i}`), found(`a${i}`), null);
    const chosen = first.get('n3');
    first.release();
    assert.equal(first.get('n3'), chosen, 'the chosen node, as PreBind read it');
    // The next pods record fewer nodes into the same columns: the stale entries past them are not theirs.
    for (let round = 0; round < 3; round++) {
      const next = new NodeAllocations();
      next.add(node('m1'), found('b1'), null);
      next.add(node('n2'), found('b2'), null);
      assert.equal(next.get('n4'), undefined, `round ${round}: a stale entry of the pod before`);
      assert.equal(next.get('n5'), undefined);
      assert.equal(next.get('n2')?.results[0]?.devices?.results?.[0]?.device, 'b2', 'now from the map');
      assert.equal(next.get('m1')?.results[0]?.devices?.results?.[0]?.device, 'b1');
      next.add(node('m3'), found('b3'), null);
      assert.equal(next.get('m3')?.results[0]?.devices?.results?.[0]?.device, 'b3');
      next.release();
    }
    assert.equal(first.get('n3'), chosen);
  });
});
