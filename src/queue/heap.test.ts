// KeyedHeap: the keyed binary heap behind activeQ and backoffQ (backend/heap/heap.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedHeap } from './heap.js';
import { seededRandom } from '../util/clock.js';

interface Item {
  key: string;
  v: number;
}
const newHeap = () => new KeyedHeap<Item>((i) => i.key, (a, b) => a.v < b.v);

describe('KeyedHeap', () => {
  it('pops in order', () => {
    const h = newHeap();
    for (const [k, v] of [['a', 5], ['b', 1], ['c', 3], ['d', 4], ['e', 2]] as const) h.addOrUpdate({ key: k, v });
    assert.equal(h.peek()?.key, 'b');
    const out: string[] = [];
    for (let i = h.pop(); i; i = h.pop()) out.push(i.key);
    assert.deepEqual(out, ['b', 'e', 'c', 'd', 'a']);
    assert.equal(h.length, 0);
    assert.equal(h.pop(), undefined);
  });

  it('re-positions an item added again with the same key', () => {
    const h = newHeap();
    h.addOrUpdate({ key: 'a', v: 1 });
    h.addOrUpdate({ key: 'b', v: 2 });
    h.addOrUpdate({ key: 'a', v: 3 });
    assert.equal(h.length, 2);
    assert.equal(h.pop()?.key, 'b');
    assert.equal(h.get('a')?.v, 3);
  });

  it('deletes by key from anywhere', () => {
    const h = newHeap();
    for (let i = 0; i < 10; i++) h.addOrUpdate({ key: `k${i}`, v: i });
    assert.equal(h.delete('k0')?.v, 0);
    assert.equal(h.delete('k5')?.v, 5);
    assert.equal(h.delete('nope'), undefined);
    assert.equal(h.has('k5'), false);
    const out: number[] = [];
    for (let i = h.pop(); i; i = h.pop()) out.push(i.v);
    assert.deepEqual(out, [1, 2, 3, 4, 6, 7, 8, 9]);
  });

  it('stays a heap under random operations', () => {
    const r = seededRandom(3);
    const h = newHeap();
    const model = new Map<string, number>();
    for (let step = 0; step < 2000; step++) {
      const k = `k${Math.floor(r() * 50)}`;
      const op = r();
      if (op < 0.5) {
        const v = Math.floor(r() * 1000);
        h.addOrUpdate({ key: k, v });
        model.set(k, v);
      } else if (op < 0.8) {
        h.delete(k);
        model.delete(k);
      } else {
        const top = h.pop();
        if (top) {
          let min = Infinity;
          for (const v of model.values()) min = Math.min(min, v);
          assert.equal(top.v, min);
          model.delete(top.key);
        } else assert.equal(model.size, 0);
      }
      assert.equal(h.length, model.size);
    }
  });
});
