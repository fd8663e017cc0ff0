// CycleState (framework/cycle_state.go) and Status helpers (framework/interface.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CycleState, type StateData } from './cycle_state.js';
import { Code, Status, codeName, isRejected, isSkip, isSuccess } from './status.js';

class Counter implements StateData {
  constructor(public n: number) {}
  clone(): Counter {
    return new Counter(this.n);
  }
}

describe('CycleState', () => {
  it('clone deep-copies the stored data and shares the skip sets (as upstream) and podsToActivate', () => {
    const s = new CycleState();
    s.write('c', new Counter(1));
    s.skipFilterPlugins = new Set(['A']);
    s.skipScorePlugins = new Set(['B']);
    s.podsToActivate.set('default/x', {});
    const c = s.clone();
    c.read<Counter>('c')!.n = 5;
    c.podsToActivate.set('default/y', {});
    assert.equal(s.read<Counter>('c')!.n, 1);
    assert.equal(c.skipFilterPlugins, s.skipFilterPlugins);
    assert.deepEqual([...c.skipScorePlugins], ['B']);
    assert.equal(s.podsToActivate.size, 2, 'pods to activate are collected across clones');
  });

  it('a read after a write or a delete of the last key read sees the change', () => {
    const s = new CycleState();
    s.write('k', new Counter(1));
    assert.equal(s.read<Counter>('k')!.n, 1);
    s.write('k', new Counter(2));
    assert.equal(s.read<Counter>('k')!.n, 2);
    assert.equal(s.read('other'), undefined);
    s.write('other', new Counter(3));
    assert.equal(s.read<Counter>('other')!.n, 3);
    s.delete('other');
    assert.equal(s.read('other'), undefined);
    assert.equal(s.read<Counter>('k')!.n, 2);
  });

  it('read of a missing key is undefined; delete removes', () => {
    const s = new CycleState();
    assert.equal(s.read('nope'), undefined);
    s.write('k', new Counter(0));
    s.delete('k');
    assert.equal(s.read('k'), undefined);
  });
});

describe('Status', () => {
  it('joins reasons with ", " as upstream Message()', () => {
    assert.equal(Status.unschedulable('a', 'b').message(), 'a, b');
  });

  it('classifies codes', () => {
    assert.equal(isSuccess(null), true);
    assert.equal(isSuccess(new Status(Code.Success)), true);
    assert.equal(isSuccess(Status.skip()), false);
    assert.equal(isSkip(Status.skip()), true);
    for (const s of [Status.unschedulable('x'), Status.unresolvable('x'), Status.pending('x')]) assert.equal(isRejected(s), true);
    for (const s of [Status.error('x'), Status.wait(), Status.skip(), null]) assert.equal(isRejected(s), false);
    assert.equal(codeName(Code.UnschedulableAndUnresolvable), 'UnschedulableAndUnresolvable');
  });

  it('an error status keeps its error', () => {
    const e = new Error('boom');
    const s = Status.error(e);
    assert.equal(s.asError(), e);
    assert.equal(s.message(), 'boom');
    assert.equal(Status.unschedulable('r').asError().message, 'r');
  });
});
