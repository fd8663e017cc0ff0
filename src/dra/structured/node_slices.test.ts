// Slices grouped per slice list and pools kept per node object: the same answers as gathering
// afresh, recomputed when the list, the node object or the feature set is another one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DefaultFeatures } from './index.js';
import { nodeSlicesOf, poolsForNode } from './node_slices.js';
import { gatherPools } from './pools.js';
import { device, driverA, node, slice } from './test_helpers.js';

const local1 = slice('local-1', 'node-1', 'pool-1', driverA, [device('d1')]);
const local2 = slice('local-2', 'node-2', 'pool-2', driverA, [device('d2')]);
const everywhere = slice('net', undefined, 'net', driverA, [device('nic')], { allNodes: true });
const labelled = slice('zone-a', undefined, 'zone-a', driverA, [device('z')], { nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } });

describe('NodeSlices', () => {
  it('gives each node its local slices, then the slices without a node name', () => {
    const g = nodeSlicesOf([local1, everywhere, local2]);
    assert.deepEqual(g.forNode('node-1'), [local1, everywhere]);
    assert.equal(g.forNode('node-1'), g.forNode('node-1'), 'one array per node');
    assert.deepEqual(g.forNode('node-3'), [everywhere]);
    assert.deepEqual(nodeSlicesOf([local1]).forNode('node-2'), []);
  });

  it('groups a list once', () => {
    const list = [local1, local2];
    assert.equal(nodeSlicesOf(list), nodeSlicesOf(list));
    assert.notEqual(nodeSlicesOf(list), nodeSlicesOf([...list]));
  });
});

describe('poolsForNode', () => {
  const all = [local1, local2, everywhere, labelled];
  const ids = (pools: readonly { id: string }[]): string[] => pools.map((p) => p.id);

  it('matches gatherPools and keeps the answer for the same node object, list and features', () => {
    const g = nodeSlicesOf(all);
    const n = node('node-1', { zone: 'a' });
    const pools = poolsForNode(g, n, DefaultFeatures);
    assert.deepEqual(pools, gatherPools(g.forNode('node-1'), n, DefaultFeatures, all));
    assert.deepEqual(ids(pools), ['driver-a/net', 'driver-a/pool-1', 'driver-a/zone-a']);
    assert.equal(poolsForNode(g, n, DefaultFeatures), pools);
  });

  it('gathers again for a changed node, another list or other features', () => {
    const g = nodeSlicesOf(all);
    const before = node('node-1', { zone: 'a' });
    const pools = poolsForNode(g, before, DefaultFeatures);
    assert.deepEqual(ids(poolsForNode(g, node('node-1', { zone: 'b' }), DefaultFeatures)), ['driver-a/net', 'driver-a/pool-1']);
    assert.notEqual(poolsForNode(nodeSlicesOf([...all]), before, DefaultFeatures), pools);
    assert.notEqual(poolsForNode(g, before, { ...DefaultFeatures }), pools);
  });
});
