// NodeToStatus (framework.NodeToStatus): appended singles and runs of a node list keep the append
// order, the size and the statuses a map of every entry would have.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NodeToStatus } from './node_to_status.js';
import { Code, Status } from './status.js';

const short = Status.constant(Code.UnschedulableAndUnresolvable, 'NodeResourcesFit', 'Insufficient foo.com/bar');
const full = Status.constant(Code.Unschedulable, 'NodeResourcesFit', 'Too many pods');
const tainted = new Status(Code.UnschedulableAndUnresolvable, ['untolerated taint']).withPlugin('TaintToleration');
const list = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'];

const asPairs = (m: NodeToStatus) => [...m.entries()].map(([name, s]) => `${name}=${s.reasons[0]}`);

describe('NodeToStatus', () => {
  it('a walk from position 5 that wraps: runs and singles come back in append order', () => {
    const m = new NodeToStatus();
    m.appendRangeFromList(list, 5, 6, short);
    m.appendRangeFromList(list, 6, 7, short);
    m.append('n7', tainted);
    m.appendRangeFromList(list, 0, 1, short);
    m.appendRangeFromList(list, 1, 2, full);
    m.appendRangeFromList(list, 2, 3, full);
    // n3 passed: no entry; the run starts again after it.
    m.appendRangeFromList(list, 4, 5, full);
    assert.equal(m.size, 7);
    assert.deepEqual(asPairs(m), [
      'n5=Insufficient foo.com/bar', 'n6=Insufficient foo.com/bar', 'n7=untolerated taint', 'n0=Insufficient foo.com/bar',
      'n1=Too many pods', 'n2=Too many pods', 'n4=Too many pods',
    ]);
    assert.equal(m.get('n3'), m.absentNodesStatus);
    assert.equal(m.get('n6'), short);
    assert.equal(m.has('n4'), true);
  });

  it('the same as appending each node by name', () => {
    const runs = new NodeToStatus();
    const singles = new NodeToStatus();
    const steps: [number, Status][] = [[2, short], [3, short], [4, full], [6, full], [7, short], [0, short]];
    for (const [at, s] of steps) {
      runs.appendRangeFromList(list, at, at + 1, s);
      singles.append(list[at]!, s);
    }
    assert.equal(runs.size, singles.size);
    assert.deepEqual(asPairs(runs), asPairs(singles));
  });

  it('a range is the same as appending each of its positions, before and after a lookup', () => {
    const ranges = new NodeToStatus();
    const singles = new NodeToStatus();
    const steps: [number, number, Status][] = [[1, 3, short], [3, 4, short], [4, 6, full], [7, 8, short], [0, 1, full]];
    for (const [from, to, s] of steps.slice(0, 3)) {
      ranges.appendRangeFromList(list, from, to, s);
      for (let at = from; at < to; at++) singles.append(list[at]!, s);
    }
    assert.equal(ranges.get('n2'), short, 'a lookup turns the runs into the map');
    for (const [from, to, s] of steps.slice(3)) {
      ranges.appendRangeFromList(list, from, to, s);
      for (let at = from; at < to; at++) singles.append(list[at]!, s);
    }
    assert.equal(ranges.size, singles.size);
    assert.deepEqual(asPairs(ranges), asPairs(singles));
  });

  it('after a lookup, appends and sets go to the map; a repeat replaces', () => {
    const m = new NodeToStatus();
    m.appendRangeFromList(list, 0, 1, short);
    m.appendRangeFromList(list, 1, 2, short);
    assert.equal(m.get('n1'), short);
    m.appendRangeFromList(list, 2, 3, short);
    m.allowRepeats();
    m.appendRangeFromList(list, 0, 1, full);
    m.set('n5', tainted);
    assert.equal(m.size, 4);
    assert.deepEqual(asPairs(m), ['n0=Too many pods', 'n1=Insufficient foo.com/bar', 'n2=Insufficient foo.com/bar', 'n5=untolerated taint']);
  });

  it('a run does not join positions of another list', () => {
    const other = ['m0', 'm1', 'm2'];
    const m = new NodeToStatus();
    m.appendRangeFromList(list, 0, 1, short);
    m.appendRangeFromList(other, 1, 2, short);
    m.appendRangeFromList(list, 1, 2, short);
    assert.deepEqual(asPairs(m).map((p) => p.split('=')[0]), ['n0', 'm1', 'n1']);
  });
});
