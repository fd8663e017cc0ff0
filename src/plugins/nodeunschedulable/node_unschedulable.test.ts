// Scenarios of upstream's nodeunschedulable/node_unschedulable_test.go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Toleration } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import {
  ErrReasonUnknownCondition,
  ErrReasonUnschedulable,
  NodeUnschedulable,
  isSchedulableAfterNodeChange,
  isSchedulableAfterPodTolerationChange,
} from './index.js';

const unschedulableToleration: Toleration = { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' };

describe('NodeUnschedulable Filter', () => {
  const pl = new NodeUnschedulable();
  const cases = [
    { name: 'does not schedule a pod to an unschedulable node', pod: makePod('p'), unschedulable: true, want: ErrReasonUnschedulable },
    { name: 'schedules a pod to a normal node', pod: makePod('p'), unschedulable: false, want: null },
    { name: 'schedules a pod with the toleration to an unschedulable node', pod: makePod('p', { tolerations: [unschedulableToleration] }), unschedulable: true, want: null },
    {
      name: 'a toleration with an empty effect also tolerates the cordon',
      pod: makePod('p', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }] }),
      unschedulable: true,
      want: null,
    },
    {
      name: 'a NoExecute toleration does not tolerate the cordon',
      pod: makePod('p', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }] }),
      unschedulable: true,
      want: ErrReasonUnschedulable,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = pl.filter(new CycleState(), new PodInfo(c.pod), new NodeInfo(makeNode('n1', { unschedulable: c.unschedulable })));
      if (c.want === null) assert.equal(s, null);
      else {
        assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
        assert.deepEqual(s?.reasons, [c.want]);
      }
    });
  }
  it('passes every node for a pod tolerating the cordon; not once a node was cordoned, for one that does not', () => {
    new NodeInfo(makeNode('cordoned', { unschedulable: true }));
    assert.equal(pl.passesEveryNode(new CycleState(), new PodInfo(makePod('p', { tolerations: [unschedulableToleration] }))), true);
    assert.equal(pl.passesEveryNode(new CycleState(), new PodInfo(makePod('p'))), false);
  });
  it('rejects a NodeInfo without its node', () => {
    const s = pl.filter(new CycleState(), new PodInfo(makePod('p')), new NodeInfo());
    assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
    assert.deepEqual(s?.reasons, [ErrReasonUnknownCondition]);
  });
});

describe('NodeUnschedulable events and hints', () => {
  it('registers node add/taint updates and pod toleration updates', () => {
    const evs = new NodeUnschedulable().eventsToRegister();
    assert.deepEqual(
      evs.map((e) => [e.event.resource, e.event.actionType]),
      [
        ['Node', ActionType.Add | ActionType.UpdateNodeTaint],
        ['Pod', ActionType.UpdatePodToleration],
      ],
    );
  });
  const pod = makePod('p');
  const nodeCases = [
    { name: 'backoff on a wrong new object', oldObj: null, newObj: 'not-a-node' as unknown, want: QueueingHint.Queue },
    { name: 'backoff on a wrong old object', oldObj: 'not-a-node' as unknown, newObj: makeNode('n'), want: QueueingHint.Queue },
    { name: 'queue when a schedulable node is added', oldObj: null, newObj: makeNode('n'), want: QueueingHint.Queue },
    { name: 'skip when an unschedulable node is added', oldObj: null, newObj: makeNode('n', { unschedulable: true }), want: QueueingHint.QueueSkip },
    { name: 'queue when a node is uncordoned', oldObj: makeNode('n', { unschedulable: true }), newObj: makeNode('n'), want: QueueingHint.Queue },
    { name: 'skip when a node is cordoned', oldObj: makeNode('n'), newObj: makeNode('n', { unschedulable: true }), want: QueueingHint.QueueSkip },
    { name: 'skip an unrelated change of a schedulable node', oldObj: makeNode('n'), newObj: makeNode('n', { labels: { a: 'b' } }), want: QueueingHint.QueueSkip },
  ];
  for (const c of nodeCases) it(c.name, () => assert.equal(isSchedulableAfterNodeChange(pod, c.oldObj, c.newObj), c.want));

  const target = makePod('p', { uid: 'uid0' });
  const podCases = [
    { name: 'backoff on a wrong new object', newObj: 'not-a-pod' as unknown, want: QueueingHint.Queue },
    { name: 'skip updates of other pods', newObj: makePod('q', { uid: 'uid1', tolerations: [unschedulableToleration] }), want: QueueingHint.QueueSkip },
    { name: 'skip an unrelated toleration of the target pod', newObj: makePod('p', { uid: 'uid0', tolerations: [{ key: 'foo', operator: 'Exists' }] }), want: QueueingHint.QueueSkip },
    { name: 'queue when the target pod tolerates the cordon', newObj: makePod('p', { uid: 'uid0', tolerations: [unschedulableToleration] }), want: QueueingHint.Queue },
  ];
  for (const c of podCases) it(c.name, () => assert.equal(isSchedulableAfterPodTolerationChange(target, target, c.newObj), c.want));
});
