// Scenarios of upstream's backend/cache/node_tree_test.go: nodes grouped by zone, listed one zone
// after another so that a partial walk of the list spreads over zones.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeNode } from '../testing/builders.js';
import { NodeTree, zoneKey } from './node_tree.js';

const zone = (name: string, z: string, region = 'r1') =>
  makeNode(name, { labels: { 'topology.kubernetes.io/region': region, 'topology.kubernetes.io/zone': z } });

describe('zoneKey', () => {
  const cases: { name: string; labels: Record<string, string>; want: string }[] = [
    { name: 'no zone labels', labels: {}, want: '' },
    { name: 'region and zone', labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' }, want: 'r:\x00:z' },
    { name: 'zone only', labels: { 'topology.kubernetes.io/zone': 'z' }, want: ':\x00:z' },
    { name: 'region only', labels: { 'topology.kubernetes.io/region': 'r' }, want: 'r:\x00:' },
    { name: 'beta labels as fallback', labels: { 'failure-domain.beta.kubernetes.io/region': 'br', 'failure-domain.beta.kubernetes.io/zone': 'bz' }, want: 'br:\x00:bz' },
    {
      name: 'GA labels win over beta ones',
      labels: { 'topology.kubernetes.io/zone': 'z', 'failure-domain.beta.kubernetes.io/zone': 'bz', 'failure-domain.beta.kubernetes.io/region': 'br' },
      want: 'br:\x00:z',
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(zoneKey(makeNode('n', { labels: c.labels })), c.want));
});

describe('NodeTree', () => {
  const build = () => {
    const t = new NodeTree();
    for (const n of [zone('a1', 'A'), zone('a2', 'A'), zone('b1', 'B'), zone('c1', 'C'), zone('a3', 'A'), zone('b2', 'B'), makeNode('x1')]) t.addNode(n);
    return t;
  };

  it('lists round-robin over zones, in the order zones first appeared', () => {
    const t = build();
    assert.equal(t.numNodes, 7);
    assert.deepEqual(t.list(), ['a1', 'b1', 'c1', 'x1', 'a2', 'b2', 'a3']);
  });

  it('ignores a node added twice', () => {
    const t = build();
    t.addNode(zone('a1', 'A'));
    assert.equal(t.numNodes, 7);
    assert.deepEqual(t.list(), ['a1', 'b1', 'c1', 'x1', 'a2', 'b2', 'a3']);
  });

  it('drops a zone when its last node goes', () => {
    const t = build();
    assert.equal(t.removeNode(zone('b1', 'B')), true);
    assert.equal(t.removeNode(zone('b2', 'B')), true);
    assert.equal(t.removeNode(zone('b2', 'B')), false, 'removing an absent node reports it');
    assert.equal(t.numNodes, 5);
    assert.deepEqual(t.list(), ['a1', 'c1', 'x1', 'a2', 'a3']);
  });

  it('moves a node whose zone changed to the end of its new zone', () => {
    const t = build();
    t.updateNode(zone('a2', 'A'), zone('a2', 'C'));
    assert.deepEqual(t.list(), ['a1', 'b1', 'c1', 'x1', 'a3', 'b2', 'a2']);
    // An update that keeps the zone changes nothing.
    t.updateNode(zone('a1', 'A'), zone('a1', 'A'));
    assert.deepEqual(t.list(), ['a1', 'b1', 'c1', 'x1', 'a3', 'b2', 'a2']);
  });

  it('takes a removed node back, at the end of its zone', () => {
    const t = build();
    assert.equal(t.removeNode(zone('a1', 'A')), true);
    assert.equal(t.removeNode(zone('a1', 'B')), false, 'a name is looked up in its own zone');
    t.addNode(zone('a1', 'A'));
    assert.equal(t.numNodes, 7);
    assert.deepEqual(t.list(), ['a2', 'b1', 'c1', 'x1', 'a3', 'b2', 'a1']);
  });

  it('adds many nodes of one zone once each, and ignores a repeated add', () => {
    // How fast this is belongs to bench:scale (its start phase); here only what the set keeps.
    const t = new NodeTree();
    for (let i = 0; i < 10_000; i++) t.addNode(makeNode(`node-${i}`));
    t.addNode(makeNode('node-0'));
    assert.equal(t.numNodes, 10_000);
    assert.equal(new Set(t.list()).size, 10_000);
  });

  it('lists nothing when empty', () => {
    assert.deepEqual(new NodeTree().list(), []);
  });
});
