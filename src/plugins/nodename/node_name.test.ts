// Scenarios of upstream's nodename/node_name_test.go (v1.37: PreFilter and Filter).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType } from '../../framework/events.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { ErrReason, NodeName } from './index.js';

describe('NodeName Filter', () => {
  const pl = new NodeName();
  const cases = [
    { name: 'no host specified', podNode: undefined, node: 'foo', want: null },
    { name: 'host matches', podNode: 'foo', node: 'foo', want: null },
    { name: 'host doesn\'t match', podNode: 'bar', node: 'foo', want: ErrReason },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pod = new PodInfo(makePod('p', c.podNode ? { node: c.podNode } : {}));
      const s = pl.filter(new CycleState(), pod, new NodeInfo(makeNode(c.node)));
      if (c.want === null) assert.equal(s, null);
      else {
        assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
        assert.deepEqual(s?.reasons, [c.want]);
      }
    });
  }
  it('passes every node only for a pod naming none', () => {
    assert.equal(pl.passesEveryNode(new CycleState(), new PodInfo(makePod('p'))), true);
    assert.equal(pl.passesEveryNode(new CycleState(), new PodInfo(makePod('p', { node: 'foo' }))), false);
  });
  it('PreFilter narrows the evaluation to the named node', () => {
    const named = pl.preFilter(new CycleState(), new PodInfo(makePod('p', { node: 'foo' })));
    assert.deepEqual(named?.result?.nodeNames, new Set(['foo']));
    assert.equal(pl.preFilter(new CycleState(), new PodInfo(makePod('p'))), null);
  });
  it('registers node additions without a hint', () => {
    const evs = pl.eventsToRegister();
    assert.equal(evs.length, 1);
    assert.equal(evs[0]!.event.resource, 'Node');
    assert.equal(evs[0]!.event.actionType, ActionType.Add);
    assert.equal(evs[0]!.queueingHintFn, undefined);
  });
});
