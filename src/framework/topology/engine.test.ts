// The topology engine's small parts: cache keys, the LRU, the node index, the change cursor and
// the counts by domain id.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Selector, type Labels } from '../../api/labels.js';
import type { LabelSelectorRequirement } from '../../api/types.js';
import { makeNode } from '../../testing/builders.js';
import type { NodeInfoLister } from '../interfaces.js';
import { NodeInfo } from '../node_info.js';
import { CacheKey } from './cache_key.js';
import { ChangeCursor, tracksChanges, type ChangeTrackingLister } from './change_cursor.js';
import { DomainCounts } from './domain_counts.js';
import { labelValue } from './label_value.js';
import { LruMap } from './lru_map.js';
import { NodeIndex } from './node_index.js';

describe('CacheKey', () => {
  const cases: { name: string; a: (k: CacheKey) => CacheKey; b: (k: CacheKey) => CacheKey }[] = [
    { name: 'strings split differently', a: (k) => k.str('ab').str('c'), b: (k) => k.str('a').str('bc') },
    { name: 'a string and a number', a: (k) => k.str('1'), b: (k) => k.num(1) },
    { name: 'absent and empty', a: (k) => k.none(), b: (k) => k.str('') },
    { name: 'a string and its JSON', a: (k) => k.str('x'), b: (k) => k.json('x') },
    { name: 'no labels and empty labels', a: (k) => k.labels(undefined), b: (k) => k.labels({}) },
    { name: 'a label moved into the next part', a: (k) => k.labels({ a: 'b' }).open().close(), b: (k) => k.labels({}).open().str('a').str('b').close() },
    { name: 'nothing and everything', a: (k) => k.selector(Selector.nothing), b: (k) => k.selector(Selector.everything) },
    {
      name: 'In and NotIn on one value',
      a: (k) => k.selector(Selector.compile({ matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] })),
      b: (k) => k.selector(Selector.compile({ matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] })),
    },
  ];
  for (const c of cases) {
    it(`tells apart ${c.name}`, () => {
      assert.notEqual(c.a(new CacheKey()).text, c.b(new CacheKey()).text);
    });
  }

  it('gives a selector whose requirements are listed in another order the same key', () => {
    const web: LabelSelectorRequirement = { key: 'app', operator: 'In', values: ['web'] };
    const x: LabelSelectorRequirement = { key: 'tier', operator: 'Exists' };
    const a = Selector.compile({ matchExpressions: [web, x] });
    const b = Selector.compile({ matchExpressions: [x, web] });
    assert.equal(new CacheKey().selector(a).text, new CacheKey().selector(b).text);
  });
});

describe('LruMap', () => {
  it('drops the least recently used beyond capacity; get and set make an entry the most recent', () => {
    const m = new LruMap<number>(2);
    m.set('a', 1);
    m.set('b', 2);
    assert.equal(m.get('a'), 1);
    m.set('c', 3);
    assert.deepEqual([m.get('a'), m.get('b'), m.get('c')], [1, undefined, 3]);
    m.set('a', 10);
    m.set('d', 4);
    assert.deepEqual([m.get('a'), m.get('c'), m.get('d')], [10, undefined, 4]);
  });

  it('keeps the order when the most recent key is asked for again', () => {
    const m = new LruMap<number>(2);
    m.set('a', 1);
    m.set('b', 2);
    assert.equal(m.get('b'), 2);
    assert.equal(m.get('b'), 2);
    m.set('c', 3);
    assert.deepEqual([m.get('a'), m.get('b'), m.get('c')], [undefined, 2, 3]);
    assert.equal(m.get('b'), 2);
    m.set('d', 4);
    assert.deepEqual([m.get('c'), m.get('b'), m.get('d')], [undefined, 2, 4]);
  });
});

function nodeInfos(n: number): NodeInfo[] {
  return Array.from({ length: n }, (_, i) => new NodeInfo(makeNode(`n${i}`)));
}

describe('NodeIndex', () => {
  it('places listed NodeInfos whether or not their recorded position is current, and nothing else', () => {
    const list = nodeInfos(3);
    NodeInfo.packInListOrder(list);
    const reordered = [list[2]!, list[0]!, list[1]!];
    const index = new NodeIndex(reordered);
    // Recorded positions are those of `list`: the index falls back to its map.
    assert.deepEqual(reordered.map((ni) => index.position(ni)), [0, 1, 2]);
    NodeInfo.packInListOrder(reordered);
    assert.deepEqual(reordered.map((ni) => index.position(ni)), [0, 1, 2]);
    assert.equal(index.position(new NodeInfo(makeNode('n0'))), -1);
    assert.equal(NodeIndex.empty.position(list[0]!), -1);
  });
});

/** A lister whose change log is written by the test. */
class FakeLister implements ChangeTrackingLister {
  listEpoch = 1;
  log: NodeInfo[] = [];
  logStart = 0;
  constructor(readonly nodes: NodeInfo[]) {}
  get changeCursor(): number {
    return this.logStart + this.log.length;
  }
  changedSince(epoch: number, cursor: number): NodeInfo[] | null {
    if (epoch !== this.listEpoch || cursor < this.logStart) return null;
    return this.log.slice(cursor - this.logStart);
  }
  list(): NodeInfo[] {
    return this.nodes;
  }
  havePodsWithAffinityList(): NodeInfo[] {
    return [];
  }
  havePodsWithRequiredAntiAffinityList(): NodeInfo[] {
    return [];
  }
  get(name: string): NodeInfo | undefined {
    return this.nodes.find((n) => n.name === name);
  }
}

describe('ChangeCursor', () => {
  it('asks for a full walk first, then gives the changes since its last call, and a full walk again after a new list or a dropped log', () => {
    const nodes = nodeInfos(3);
    const lister = new FakeLister(nodes);
    const cursor = new ChangeCursor();
    assert.equal(cursor.advance(lister), null);
    assert.deepEqual(cursor.advance(lister), []);
    lister.log.push(nodes[1]!, nodes[2]!);
    assert.deepEqual(cursor.advance(lister), [nodes[1], nodes[2]]);
    lister.log.push(nodes[0]!);
    assert.deepEqual(cursor.advance(lister), [nodes[0]]);
    lister.listEpoch = 2;
    assert.equal(cursor.advance(lister), null);
    lister.log.push(nodes[2]!);
    assert.deepEqual(cursor.advance(lister), [nodes[2]]);
    // The log is dropped past the cursor: the changes are no longer known.
    lister.log.push(nodes[0]!);
    lister.logStart += lister.log.length;
    lister.log = [];
    assert.equal(cursor.advance(lister), null);
  });

  it('tracksChanges tells a tracking lister from a plain one', () => {
    const tracking = new FakeLister([]);
    const plain: NodeInfoLister = {
      list: () => [],
      havePodsWithAffinityList: () => [],
      havePodsWithRequiredAntiAffinityList: () => [],
      get: () => undefined,
    };
    assert.deepEqual([tracksChanges(tracking), tracksChanges(plain)], [true, false]);
  });
});

describe('labelValue', () => {
  const cases: { labels: Labels; key: string; want: string | undefined }[] = [
    { labels: { zone: 'a' }, key: 'zone', want: 'a' },
    { labels: { zone: '' }, key: 'zone', want: '' },
    { labels: { zone: 'a' }, key: 'region', want: undefined },
    // Own labels only, as a Go map: Object.prototype's members are not labels.
    { labels: {}, key: 'constructor', want: undefined },
    { labels: { constructor: 'c' }, key: 'constructor', want: 'c' },
    { labels: undefined, key: 'zone', want: undefined },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.labels)}[${c.key}] is ${String(c.want)}`, () => {
      assert.equal(labelValue(c.labels, c.key), c.want);
    });
  }
});

describe('DomainCounts', () => {
  const ids = new Map([
    ['a', 0],
    ['b', 1],
    ['c', 70],
  ]);
  const view = (d: DomainCounts) => d.values.map((v) => [v, d.totals[d.idOf(v)]]);

  it('keeps domains at 0 pods in registration order, and ids not registered read as no domain', () => {
    const d = new DomainCounts(ids);
    d.register(70, 'c');
    d.register(0, 'a');
    d.register(70, 'c');
    assert.equal(d.add(70, 2), 2);
    assert.deepEqual(view(d), [
      ['c', 2],
      ['a', 0],
    ]);
    assert.equal(d.idAt(0), 70);
    assert.equal(d.idOf('b'), -1);
    assert.equal(d.idOf('gone'), -1);
    assert.equal(d.countAt(1000), 0);
  });

  it('forks share until one side writes: counts and domains are copied by the writer only', () => {
    const kept = new DomainCounts(ids);
    kept.register(0, 'a');
    kept.add(0, 1);
    const state = kept.fork();
    const other = state.fork();
    kept.add(0, 5);
    kept.register(1, 'b');
    state.add(0, -1);
    assert.deepEqual(view(kept), [
      ['a', 6],
      ['b', 0],
    ]);
    assert.deepEqual(view(state), [['a', 0]]);
    assert.deepEqual(view(other), [['a', 1]]);
    state.register(70, 'c');
    assert.deepEqual(view(other), [['a', 1]]);
    assert.equal(other.idOf('c'), -1);
  });

  it('unregisters a domain: its count goes to 0 and the last domain takes its place, in that copy only', () => {
    const d = new DomainCounts(ids);
    d.set(0, 'a', 3);
    d.set(1, 'b', 4);
    d.set(70, 'c', 5);
    const kept = d.fork();
    d.unregister(0);
    d.unregister(0);
    assert.deepEqual(view(d), [
      ['c', 5],
      ['b', 4],
    ]);
    assert.equal(d.countAt(0), 0);
    assert.equal(d.idOf('a'), -1);
    d.unregister(1);
    d.register(0, 'a');
    assert.deepEqual(view(d), [
      ['c', 5],
      ['a', 0],
    ]);
    assert.deepEqual(view(kept), [
      ['a', 3],
      ['b', 4],
      ['c', 5],
    ]);
  });
});
