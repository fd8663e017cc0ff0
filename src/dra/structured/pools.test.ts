// Pool gathering and node matching as the plugin calls them directly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceSlice } from '../../api/dra_types.js';
import { gatherPools, nodeMatches, AllocationError, DefaultFeatures, type Pool } from './index.js';
import { device, driverA, driverB, node, slice } from './test_helpers.js';

const node1 = node('node-1', { zone: 'a' });

function generation(s: ResourceSlice, gen: number, count: number): ResourceSlice {
  return { ...s, spec: { ...s.spec, pool: { ...s.spec.pool, generation: gen, resourceSliceCount: count } } };
}

test('nodeMatches: node name, all nodes, a selector, or nothing', () => {
  assert.equal(nodeMatches(node1, 'node-1', undefined, undefined), true);
  assert.equal(nodeMatches(node1, 'node-2', true, undefined), false);
  assert.equal(nodeMatches(node1, undefined, true, undefined), true);
  assert.equal(nodeMatches(node1, undefined, false, { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] }), true);
  assert.equal(nodeMatches(node1, undefined, false, { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }] }), false);
  assert.equal(nodeMatches(node1, undefined, undefined, undefined), false);
  assert.throws(() => nodeMatches(node1, undefined, false, { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Gt', values: ['x'] }] }] }), AllocationError);
});

test('gatherPools: sorted by driver and pool, pools with binding conditions last', () => {
  const slices = [
    slice('s1', 'node-1', 'pool-b', driverA, [device('d')]),
    slice('s2', 'node-1', 'pool-a', driverB, [device('d')]),
    slice('s3', 'node-1', 'pool-a', driverA, [device('d', { bindingConditions: ['c'] })]),
    slice('s4', 'node-2', 'pool-z', driverA, [device('d')]),
  ];
  const pools: Pool[] = gatherPools(slices, node1, DefaultFeatures, slices);
  assert.deepEqual(
    pools.map((p) => p.id),
    ['driver-a/pool-b', 'driver-b/pool-a', 'driver-a/pool-a'],
  );
});

test('gatherPools: the newest generation wins, a partly published one is incomplete', () => {
  const slices = [
    generation(slice('old', 'node-1', 'pool-1', driverA, [device('d1')]), 1, 1),
    generation(slice('new', 'node-1', 'pool-1', driverA, [device('d2')]), 2, 2),
  ];
  const pools = gatherPools(slices, node1, DefaultFeatures, slices);
  assert.equal(pools.length, 1);
  assert.equal(pools[0]!.isIncomplete, true);
  const complete = [...slices, generation(slice('new-2', 'node-2', 'pool-1', driverA, [device('d3')]), 2, 2)];
  const [pool] = gatherPools(slices, node1, DefaultFeatures, complete);
  assert.equal(pool!.isIncomplete, false);
  assert.deepEqual(pool!.deviceSlicesTargetingNode.map((s) => s.metadata.name), ['new']);
  assert.deepEqual(pool!.deviceSlicesNotTargetingNode.map((s) => s.metadata.name), ['new-2']);
});

test('gatherPools: a node selector that does not parse is an error naming the slice', () => {
  const bad = slice('bad', undefined, 'pool-1', driverA, [device('d')], { nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Gt', values: ['x'] }] }] } });
  assert.throws(() => gatherPools([bad], node1, DefaultFeatures, [bad]), /^AllocationError: failed to perform node selection for slice bad: failed to parse node selector/);
});
