// Scenarios of upstream's tainttoleration/taint_toleration_test.go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod, Taint, Toleration } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import type { NodeScore } from '../../framework/interfaces.js';
import { MaxNodeScore } from '../../framework/interfaces.js';
import { anyNodeInfoHadTaints, NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { TaintToleration, isSchedulableAfterNodeChange, isSchedulableAfterPodTolerationChange } from './index.js';

const nodeWithTaints = (name: string, taints: Taint[]): Node => makeNode(name, { taints });
const podWithTolerations = (name: string, tolerations: Toleration[], uid?: string): Pod =>
  makePod(name, { tolerations, ...(uid ? { uid } : {}) });

describe('TaintToleration Score', () => {
  const cases: { name: string; pod: Pod; nodes: Node[]; want: NodeScore[] }[] = [
    {
      name: 'node with taints tolerated by the pod gets a higher score than a node with intolerable taints',
      pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }]),
      nodes: [
        nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }]),
        nodeWithTaints('nodeB', [{ key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }]),
      ],
      want: [{ name: 'nodeA', score: 100 }, { name: 'nodeB', score: 0 }],
    },
    {
      name: 'nodes whose taints are all tolerated get the same score, however many taints they have',
      pod: podWithTolerations('pod1', [
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' },
      ]),
      nodes: [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ],
      want: [{ name: 'nodeA', score: 100 }, { name: 'nodeB', score: 100 }, { name: 'nodeC', score: 100 }],
    },
    {
      name: 'the more intolerable taints a node has, the lower its score',
      pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }]),
      nodes: [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ],
      want: [{ name: 'nodeA', score: 100 }, { name: 'nodeB', score: 50 }, { name: 'nodeC', score: 0 }],
    },
    {
      name: 'only PreferNoSchedule taints and tolerations count for scoring',
      pod: podWithTolerations('pod1', [
        { key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
        { key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' },
      ]),
      nodes: [
        nodeWithTaints('nodeA', []),
        nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }]),
        nodeWithTaints('nodeC', [
          { key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
          { key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
        ]),
      ],
      want: [{ name: 'nodeA', score: 100 }, { name: 'nodeB', score: 100 }, { name: 'nodeC', score: 0 }],
    },
    {
      name: 'default behaviour: a pod without tolerations prefers the node without taints',
      pod: podWithTolerations('pod1', []),
      nodes: [nodeWithTaints('nodeA', []), nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }])],
      want: [{ name: 'nodeA', score: 100 }, { name: 'nodeB', score: 0 }],
    },
    {
      name: 'a toleration without effect tolerates PreferNoSchedule taints',
      pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Exists' }]),
      nodes: [nodeWithTaints('nodeA', [{ key: 'foo', value: 'x', effect: 'PreferNoSchedule' }]), nodeWithTaints('nodeB', [{ key: 'bar', effect: 'PreferNoSchedule' }])],
      want: [{ name: 'nodeA', score: 100 }, { name: 'nodeB', score: 0 }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new TaintToleration();
      const state = new CycleState();
      const pod = new PodInfo(c.pod);
      const infos = c.nodes.map((n) => new NodeInfo(n));
      assert.equal(pl.preScore(state, pod), null);
      const got: NodeScore[] = [];
      for (const ni of infos) {
        const s = pl.score(state, pod, ni);
        assert.equal(typeof s, 'number');
        got.push({ name: ni.name, score: s as number });
      }
      assert.equal(pl.scoreExtensions().normalizeScore(state, pod, got), null);
      assert.deepEqual(got, c.want);
    });
  }
  it('scores every node alike (without a Score walk) only when none of them has taints', () => {
    const pl = new TaintToleration();
    const state = new CycleState();
    const pod = new PodInfo(podWithTolerations('pod1', []));
    const [a, b, tainted] = [nodeWithTaints('a', []), nodeWithTaints('b', []), nodeWithTaints('t', [{ key: 'k', effect: 'NoSchedule' }])].map((n) => new NodeInfo(n));
    assert.equal(anyNodeInfoHadTaints(), true);
    assert.equal(pl.uniformScore(state, pod, [a!, b!]), null, 'no PreScore state');
    assert.equal(pl.preScore(state, pod), null);
    assert.equal(pl.uniformScore(state, pod, [a!, tainted!, b!]), null);
    assert.equal(pl.uniformScore(state, pod, [a!, b!]), MaxNodeScore);
  });
  it('Score without PreScore is an error', () => {
    const s = new TaintToleration().score(new CycleState(), new PodInfo(makePod('p')), new NodeInfo(makeNode('n')));
    assert.notEqual(typeof s, 'number');
  });
});

describe('TaintToleration Filter', () => {
  it('does not claim to pass every node once a node had taints', () => {
    new NodeInfo(nodeWithTaints('tainted', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]));
    assert.equal(anyNodeInfoHadTaints(), true);
    assert.equal(new TaintToleration().passesEveryNode(), false);
  });

  const cases: { name: string; pod: Pod; node: Node; want: string | null }[] = [
    {
      name: "a pod without tolerations can't be scheduled onto a node with taints",
      pod: podWithTolerations('pod1', []),
      node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]),
      want: 'node(s) had untolerated taint(s)',
    },
    {
      name: 'a pod tolerating the NoSchedule taint of a dedicated node fits',
      pod: podWithTolerations('pod1', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]),
      node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]),
      want: null,
    },
    {
      name: "a pod tolerating another value can't be scheduled on the dedicated node",
      pod: podWithTolerations('pod1', [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }]),
      node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]),
      want: 'node(s) had untolerated taint(s)',
    },
    {
      name: 'a toleration with operator Exists tolerates the taint',
      pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }]),
      node: nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]),
      want: null,
    },
    {
      name: 'several tolerations tolerate all of several taints',
      pod: podWithTolerations('pod1', [
        { key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
      ]),
      node: nodeWithTaints('nodeA', [
        { key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
        { key: 'foo', value: 'bar', effect: 'NoSchedule' },
      ]),
      want: null,
    },
    {
      name: "matching key and value but a different (non-empty) effect doesn't tolerate",
      pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }]),
      node: nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]),
      want: 'node(s) had untolerated taint(s)',
    },
    {
      name: 'matching key and value with an empty effect tolerates a NoSchedule taint',
      pod: podWithTolerations('pod1', [{ key: 'foo', operator: 'Equal', value: 'bar' }]),
      node: nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }]),
      want: null,
    },
    {
      name: 'an untolerated PreferNoSchedule taint does not filter',
      pod: podWithTolerations('pod1', [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }]),
      node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }]),
      want: null,
    },
    {
      name: 'a pod without tolerations fits a node with only a PreferNoSchedule taint',
      pod: podWithTolerations('pod1', []),
      node: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }]),
      want: null,
    },
    {
      name: 'an untolerated NoExecute taint filters',
      pod: podWithTolerations('pod1', []),
      node: nodeWithTaints('nodeA', [{ key: 'maintenance', effect: 'NoExecute' }]),
      want: 'node(s) had untolerated taint(s)',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = new TaintToleration().filter(new CycleState(), new PodInfo(c.pod), new NodeInfo(c.node));
      if (c.want === null) assert.equal(s, null);
      else {
        assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
        assert.deepEqual(s?.reasons, [c.want]);
      }
    });
  }
});

describe('TaintToleration events and hints', () => {
  it('registers node add/taint updates and pod toleration updates', () => {
    assert.deepEqual(
      new TaintToleration().eventsToRegister().map((e) => [e.event.resource, e.event.actionType, typeof e.queueingHintFn]),
      [
        ['Node', ActionType.Add | ActionType.UpdateNodeTaint, 'function'],
        ['Pod', ActionType.UpdatePodToleration, 'function'],
      ],
    );
  });
  const pod = podWithTolerations('pod1', [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }]);
  const user1 = nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }]);
  const nodeCases = [
    { name: 'backoff on a wrong new object', oldObj: null as unknown, newObj: 'not-a-node' as unknown, want: QueueingHint.Queue },
    { name: 'backoff on a wrong old object', oldObj: 'not-a-node' as unknown, newObj: user1, want: QueueingHint.Queue },
    { name: 'skip when an added node has an untolerated taint', oldObj: null, newObj: user1, want: QueueingHint.QueueSkip },
    {
      name: 'queue when an added node has only tolerated taints',
      oldObj: null,
      newObj: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user2', effect: 'NoSchedule' }]),
      want: QueueingHint.Queue,
    },
    {
      name: 'skip an unrelated change',
      oldObj: user1,
      newObj: nodeWithTaints('nodeA', [
        { key: 'dedicated', value: 'user1', effect: 'NoSchedule' },
        { key: 'dedicated', value: 'user3', effect: 'NoSchedule' },
      ]),
      want: QueueingHint.QueueSkip,
    },
    {
      name: 'queue when the taint changes to a tolerated one',
      oldObj: user1,
      newObj: nodeWithTaints('nodeA', [{ key: 'dedicated', value: 'user2', effect: 'NoSchedule' }]),
      want: QueueingHint.Queue,
    },
  ];
  for (const c of nodeCases) it(c.name, () => assert.equal(isSchedulableAfterNodeChange(pod, c.oldObj, c.newObj), c.want));

  const target = podWithTolerations('pod-1', [], 'uid0');
  const podCases = [
    { name: 'backoff on a wrong new object', newObj: 'not-a-pod' as unknown, want: QueueingHint.Queue },
    { name: 'skip updates of other pods', newObj: podWithTolerations('pod-2', [{ key: 'foo', operator: 'Exists' }], 'uid1'), want: QueueingHint.QueueSkip },
    { name: 'queue an update of the target pod', newObj: podWithTolerations('pod-1', [{ key: 'foo', operator: 'Exists' }], 'uid0'), want: QueueingHint.Queue },
  ];
  for (const c of podCases) it(c.name, () => assert.equal(isSchedulableAfterPodTolerationChange(target, target, c.newObj), c.want));
});
