// Scenarios of upstream's nodeports/node_ports_test.go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerPort, Pod } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import { getHostPorts, NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { ErrReason, NodePorts, isSchedulableAfterPodDeleted } from './index.js';

/** A pod on `node` with host ports written "PROTOCOL/ip/port". */
function newPod(node: string, ...hostPorts: string[]): Pod {
  const ports: ContainerPort[] = hostPorts.map((s) => {
    const [protocol, hostIP, port] = s.split('/');
    return { containerPort: Number(port), hostPort: Number(port), hostIP: hostIP!, protocol: protocol! };
  });
  return makePod(`pod-${hostPorts.join('-')}`, { node, spec: { containers: [{ name: 'c', ports }] } });
}

function nodeInfoWith(...pods: Pod[]): NodeInfo {
  const ni = new NodeInfo(makeNode('m1'));
  for (const p of pods) ni.addPod(new PodInfo(p));
  return ni;
}

describe('NodePorts PreFilter and Filter', () => {
  const cases: { name: string; pod: Pod; nodeInfo: NodeInfo; wantSkip?: boolean; wantFilter?: boolean }[] = [
    { name: 'skip filter for a pod without host ports', pod: makePod('p'), nodeInfo: nodeInfoWith(), wantSkip: true },
    { name: 'other port', pod: newPod('m1', 'UDP/127.0.0.1/8080'), nodeInfo: nodeInfoWith(newPod('m1', 'UDP/127.0.0.1/9090')) },
    { name: 'same udp port', pod: newPod('m1', 'UDP/127.0.0.1/8080'), nodeInfo: nodeInfoWith(newPod('m1', 'UDP/127.0.0.1/8080')), wantFilter: true },
    { name: 'same tcp port', pod: newPod('m1', 'TCP/127.0.0.1/8080'), nodeInfo: nodeInfoWith(newPod('m1', 'TCP/127.0.0.1/8080')), wantFilter: true },
    { name: 'different host ip', pod: newPod('m1', 'TCP/127.0.0.1/8080'), nodeInfo: nodeInfoWith(newPod('m1', 'TCP/127.0.0.2/8080')) },
    { name: 'different protocol', pod: newPod('m1', 'UDP/127.0.0.1/8080'), nodeInfo: nodeInfoWith(newPod('m1', 'TCP/127.0.0.1/8080')) },
    {
      name: 'second udp port conflict',
      pod: newPod('m1', 'UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'),
      nodeInfo: nodeInfoWith(newPod('m1', 'UDP/127.0.0.1/8080')),
      wantFilter: true,
    },
    {
      name: 'first tcp port conflict',
      pod: newPod('m1', 'TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'),
      nodeInfo: nodeInfoWith(newPod('m1', 'TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081')),
      wantFilter: true,
    },
    {
      name: 'first tcp port conflict due to 0.0.0.0 hostIP',
      pod: newPod('m1', 'TCP/0.0.0.0/8001'),
      nodeInfo: nodeInfoWith(newPod('m1', 'TCP/127.0.0.1/8001')),
      wantFilter: true,
    },
    {
      name: 'TCP hostPort conflict due to 0.0.0.0 hostIP',
      pod: newPod('m1', 'TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'),
      nodeInfo: nodeInfoWith(newPod('m1', 'TCP/127.0.0.1/8001')),
      wantFilter: true,
    },
    {
      name: 'second tcp port conflict to 0.0.0.0 hostIP',
      pod: newPod('m1', 'TCP/127.0.0.1/8001'),
      nodeInfo: nodeInfoWith(newPod('m1', 'TCP/0.0.0.0/8001')),
      wantFilter: true,
    },
    { name: 'second different protocol', pod: newPod('m1', 'UDP/127.0.0.1/8001'), nodeInfo: nodeInfoWith(newPod('m1', 'TCP/0.0.0.0/8001')) },
    {
      name: 'UDP hostPort conflict due to 0.0.0.0 hostIP',
      pod: newPod('m1', 'UDP/127.0.0.1/8001'),
      nodeInfo: nodeInfoWith(newPod('m1', 'TCP/0.0.0.0/8001', 'UDP/0.0.0.0/8001')),
      wantFilter: true,
    },
    {
      name: 'an empty host IP and protocol mean 0.0.0.0 and TCP',
      pod: makePod('p', { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 80 }] }] } }),
      nodeInfo: nodeInfoWith(newPod('m1', 'TCP/10.0.0.1/80')),
      wantFilter: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pl = new NodePorts();
      const state = new CycleState();
      const pod = new PodInfo(c.pod);
      const out = pl.preFilter(state, pod);
      if (c.wantSkip) {
        assert.equal(out?.status?.code, Code.Skip);
        return;
      }
      assert.equal(out, null);
      const s = pl.filter(state, pod, c.nodeInfo);
      if (c.wantFilter) {
        assert.equal(s?.code, Code.Unschedulable);
        assert.deepEqual(s?.reasons, [ErrReason]);
      } else assert.equal(s, null);
    });
  }
  it('Filter without PreFilter is an error', () => {
    const s = new NodePorts().filter(new CycleState(), new PodInfo(makePod('p')), nodeInfoWith());
    assert.equal(s?.code, Code.Error);
  });
});

describe('host ports of a pod', () => {
  it('takes containers and restartable init containers, not plain init containers', () => {
    const pod = makePod('p', {
      spec: {
        initContainers: [
          { name: 'init', ports: [{ containerPort: 1, hostPort: 8001 }] },
          { name: 'sidecar', restartPolicy: 'Always', ports: [{ containerPort: 2, hostPort: 8002 }, { containerPort: 3 }] },
        ],
        containers: [
          { name: 'a', ports: [{ containerPort: 4, hostPort: 8004 }, { containerPort: 5 }] },
          { name: 'b', ports: [{ containerPort: 6, hostPort: 8006 }] },
        ],
      },
    });
    assert.deepEqual(
      getHostPorts(pod).map((p) => p.hostPort),
      [8002, 8004, 8006],
    );
  });
});

describe('NodePorts events and hint', () => {
  it('registers pod deletions with a hint and node additions without', () => {
    assert.deepEqual(
      new NodePorts().eventsToRegister().map((e) => [e.event.resource, e.event.actionType, typeof e.queueingHintFn]),
      [
        ['Pod', ActionType.Delete, 'function'],
        ['Node', ActionType.Add, 'undefined'],
      ],
    );
  });
  const withHostPort = (name: string, port: number, node?: string) =>
    makePod(name, { ...(node ? { node } : {}), spec: { containers: [{ name: 'c', ports: [{ containerPort: port, hostPort: port }] }] } });
  const target = withHostPort('p', 8080);
  const cases = [
    { name: 'backoff on a wrong old object', oldObj: 'not-a-pod' as unknown, want: QueueingHint.Queue },
    { name: 'skip an unscheduled deleted pod', oldObj: makePod('q'), want: QueueingHint.QueueSkip },
    { name: 'skip a deleted pod without host ports', oldObj: makePod('q', { node: 'fake-node' }), want: QueueingHint.QueueSkip },
    { name: 'skip a deleted pod with an unrelated host port', oldObj: withHostPort('q', 8081, 'fake-node'), want: QueueingHint.QueueSkip },
    { name: 'queue when the deleted pod released the host port', oldObj: withHostPort('q', 8080, 'fake-node'), want: QueueingHint.Queue },
    {
      name: 'queue when a nominated deleted pod released the host port',
      oldObj: { ...withHostPort('q', 8080), status: { nominatedNodeName: 'fake-node' } },
      want: QueueingHint.Queue,
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isSchedulableAfterPodDeleted(target, c.oldObj), c.want));
});
