// The cluster events the handlers derive from object updates (framework/events.go
// NodeSchedulingPropertiesChange, PodSchedulingPropertiesChange) and how they route them
// (eventhandlers.go).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../api/types.js';
import { MemoryCluster } from '../cluster/memory/store.js';
import { FeatureGates } from '../config/feature_gates.js';
import { ActionType, ActionTypeUpdate } from '../framework/events.js';
import type { AnyPlugin, QueuedPodInfo } from '../framework/interfaces.js';
import { Registry } from '../framework/registry.js';
import { Status } from '../framework/status.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { nodeUpdateEvents } from './event_handlers.js';
import { podSchedulingPropertiesChange } from '../framework/events.js';
import { Scheduler } from './scheduler.js';
import { SchedulerMetrics } from '../metrics/metrics.js';

const labels = (events: { label?: string }[]) => events.map((e) => e.label);

const less = (a: QueuedPodInfo, b: QueuedPodInfo) => a.timestamp < b.timestamp;

/**
 * A started scheduler over `cluster` whose only Filter plugin is `watcher`, after one attempt of pod
 * p on node n1 (the watcher rejects it, so it waits for the events the watcher registered).
 */
async function rejectedByWatcher(cluster: MemoryCluster, clock: FakeClock, watcher: AnyPlugin, gates: string[] = []): Promise<Scheduler> {
  const sched = Scheduler.fromConfig({
    profiles: [{ schedulerName: 'default-scheduler', plugins: { queueSort: { enabled: [{ name: 'Sort' }] }, filter: { enabled: [{ name: 'Watcher' }] }, bind: { enabled: [{ name: 'Bind' }] } } }],
  }, {
    registry: new Registry([{ name: 'Sort', less }, { name: 'Bind', bind: async () => null }, watcher].map((p) => ({ name: p.name, factory: () => p }))),
    client: cluster,
    clock,
    random: seededRandom(1),
    featureGates: FeatureGates.parse(gates),
  });
  await sched.start();
  cluster.create(makeNode('n1'));
  cluster.create(makePod('p'));
  sched.scheduleOne();
  return sched;
}

describe('nodeUpdateEvents', () => {
  const base = makeNode('n', { labels: { a: '1' }, taints: [{ key: 'k', effect: 'NoSchedule' }] });
  const withNode = (f: (n: Node) => void): Node => {
    const n = structuredClone(base);
    f(n);
    return n;
  };
  const cases: { name: string; old: Node; new: Node; want: string[] }[] = [
    { name: 'no change', old: base, new: structuredClone(base), want: [] },
    { name: 'label added', old: base, new: withNode((n) => (n.metadata.labels!.b = '2')), want: ['NodeLabelChange'] },
    { name: 'labels reordered are the same', old: withNode((n) => (n.metadata.labels = { x: '1', y: '2' })), new: withNode((n) => (n.metadata.labels = { y: '2', x: '1' })), want: [] },
    { name: 'taint removed', old: base, new: withNode((n) => delete n.spec!.taints), want: ['NodeTaintChange'] },
    { name: 'no taints vs an empty list', old: withNode((n) => delete n.spec!.taints), new: withNode((n) => (n.spec!.taints = [])), want: [] },
    { name: 'allocatable changed', old: base, new: withNode((n) => (n.status!.allocatable = { cpu: '8', memory: '32Gi', pods: '110' })), want: ['NodeAllocatableChange'] },
    { name: 'allocatable written differently but equal', old: base, new: withNode((n) => (n.status!.allocatable = { cpu: '4000m', memory: '32Gi', pods: '110' })), want: [] },
    { name: 'became schedulable', old: withNode((n) => (n.spec!.unschedulable = true)), new: base, want: ['NodeSpecUnschedulableChange'] },
    { name: 'became unschedulable: nothing to wake', old: base, new: withNode((n) => (n.spec!.unschedulable = true)), want: [] },
    {
      name: 'condition status changed',
      old: withNode((n) => (n.status!.conditions = [{ type: 'Ready', status: 'False' }])),
      new: withNode((n) => (n.status!.conditions = [{ type: 'Ready', status: 'True' }])),
      want: ['NodeConditionChange'],
    },
    {
      name: 'only the condition heartbeat or order changed',
      old: withNode((n) => (n.status!.conditions = [{ type: 'Ready', status: 'True', lastHeartbeatTime: 'a' }, { type: 'DiskPressure', status: 'False' }])),
      new: withNode((n) => (n.status!.conditions = [{ type: 'DiskPressure', status: 'False' }, { type: 'Ready', status: 'True', lastHeartbeatTime: 'b' }])),
      want: [],
    },
    { name: 'annotation added', old: base, new: withNode((n) => (n.metadata.annotations = { x: 'y' })), want: ['NodeAnnotationChange'] },
    { name: 'declared feature added', old: base, new: withNode((n) => (n.status!.declaredFeatures = ['A'])), want: ['NodeDeclaredFeatureChange'] },
    { name: 'no declared features vs an empty list', old: base, new: withNode((n) => (n.status!.declaredFeatures = [])), want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(labels(nodeUpdateEvents(c.old, c.new)), c.want));

  it('reports a newly schedulable node as a taint change', () => {
    const [e] = nodeUpdateEvents({ ...base, spec: { unschedulable: true } }, { ...base, spec: {} });
    assert.equal(e!.actionType, ActionType.UpdateNodeTaint);
  });
});

describe('podSchedulingPropertiesChange for assigned pods', () => {
  const p = makePod('p', { node: 'n1', labels: { app: 'a' }, requests: { cpu: '1', memory: '1Gi' } });
  const withPod = (f: (x: Pod) => void): Pod => {
    const x = structuredClone(p);
    f(x);
    return x;
  };
  const cases: { name: string; new: Pod; want: string[] }[] = [
    { name: 'label change', new: withPod((x) => (x.metadata.labels = { app: 'b' })), want: ['AssignedPodUpdatePodLabel'] },
    { name: 'request scaled down', new: withPod((x) => (x.spec.containers[0]!.resources = { requests: { cpu: '500m', memory: '1Gi' } })), want: ['AssignedPodUpdatePodScaleDown'] },
    { name: 'request removed', new: withPod((x) => (x.spec.containers[0]!.resources = { requests: { cpu: '1' } })), want: ['AssignedPodUpdatePodScaleDown'] },
    { name: 'request scaled up is a general update', new: withPod((x) => (x.spec.containers[0]!.resources = { requests: { cpu: '2', memory: '1Gi' } })), want: ['AssignedPodUpdate'] },
    { name: 'toleration added', new: withPod((x) => (x.spec.tolerations = [{ key: 'k', operator: 'Exists' }])), want: ['AssignedPodUpdatePodToleration'] },
    { name: 'label change and scale down', new: withPod((x) => { x.metadata.labels = {}; x.spec.containers[0]!.resources = {}; }), want: ['AssignedPodUpdatePodLabel', 'AssignedPodUpdatePodScaleDown'] },
    { name: 'status only', new: withPod((x) => (x.status = { phase: 'Running' })), want: ['AssignedPodUpdate'] },
    {
      name: 'generated claim recorded',
      new: withPod((x) => (x.status = { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'p-gpu-abcde' }] })),
      want: ['AssignedPodUpdatePodGeneratedResourceClaim'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(labels(podSchedulingPropertiesChange(c.new, p)), c.want));

  it('an unscheduled pod whose generated claim is recorded gets UpdatePodGeneratedResourceClaim', () => {
    const pending = makePod('q', { spec: { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 't' }] } });
    const recorded = { ...pending, status: { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'q-gpu-abcde' }] } };
    const [e] = podSchedulingPropertiesChange(recorded, pending);
    assert.equal(e!.resource, 'UnscheduledPod');
    assert.equal(e!.actionType, ActionType.UpdatePodGeneratedResourceClaim);
    assert.equal(e!.label, 'UnschedulablePodUpdatePodGeneratedResourceClaim');
  });

  it('a status write sharing the spec and the fields requests read is no scale down; a changed container status still is', () => {
    const resized = { ...p, status: { containerStatuses: [{ name: p.spec.containers[0]!.name, image: 'i', imageID: '', ready: false, restartCount: 0, resources: { requests: { cpu: '2', memory: '1Gi' } } }] } } as Pod;
    const recorded = { ...resized, status: { ...resized.status, resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'p-gpu-abcde' }] } };
    assert.deepEqual(labels(podSchedulingPropertiesChange(recorded, resized)), ['AssignedPodUpdatePodGeneratedResourceClaim']);
    const statusGone = { ...resized, status: { ...resized.status, containerStatuses: [] } };
    assert.equal(statusGone.spec, resized.spec);
    assert.deepEqual(labels(podSchedulingPropertiesChange(statusGone, resized)), ['AssignedPodUpdatePodScaleDown']);
  });

  it('an update with no specific change is the "other" update, matched only by a general Update registration', () => {
    const [e] = podSchedulingPropertiesChange(structuredClone(p), p);
    assert.equal(e!.actionType, ActionType.UpdatePodOther);
    assert.ok((e!.actionType & ActionTypeUpdate) !== 0);
    assert.equal(e!.actionType & ActionType.UpdatePodLabel, 0);
    assert.equal(e!.resource, 'AssignedPod');
  });
});

describe('EventHandlers routing', () => {
  async function env() {
    const clock = new FakeClock();
    const cluster = new MemoryCluster({ clock });
    const plugins: AnyPlugin[] = [
      { name: 'Sort', less },
      { name: 'Bind', bind: async () => null },
      // Rejects everything; woken only by node deletions.
      { name: 'NoWay', filter: () => Status.unschedulable('no way'), eventsToRegister: () => [{ event: { resource: 'Node', actionType: ActionType.Delete } }] },
    ];
    const sched = Scheduler.fromConfig({
      profiles: [{ schedulerName: 'default-scheduler', plugins: { queueSort: { enabled: [{ name: 'Sort' }] }, filter: { enabled: [{ name: 'NoWay' }] }, bind: { enabled: [{ name: 'Bind' }] } } }],
    }, {
      registry: new Registry(plugins.map((p) => ({ name: p.name, factory: () => p }))),
      client: cluster,
      clock,
      random: seededRandom(1),
    });
    await sched.start();
    return { clock, cluster, sched };
  }

  it('a node deletion is a NodeDelete event before the node leaves the cache', async () => {
    const { cluster, sched } = await env();
    cluster.create(makeNode('n1'));
    cluster.create(makeNode('n2'));
    const p = cluster.create(makePod('p'));
    sched.scheduleOne();
    assert.equal(sched.queue.whereIs(p.metadata.uid!), 'unschedulable');
    cluster.remove('Node', '', 'n2');
    assert.equal(sched.queue.whereIs(p.metadata.uid!), 'backoff');
    assert.equal(sched.cache.nodeCount, 1);
    sched.stop();
  });

  it('an unscheduled pod update reaches the queue; a bound pod leaves it for the cache', async () => {
    const { cluster, sched } = await env();
    cluster.create(makeNode('n1'));
    const p = cluster.create(makePod('p'));
    cluster.update({ ...p, metadata: { ...p.metadata, labels: { a: 'b' } } });
    assert.deepEqual(sched.queue.pendingPods()[0]!.podInfo.pod.metadata.labels, { a: 'b' });
    const cur = cluster.getPod('default', 'p')!;
    await cluster.bind(cur, 'n1');
    assert.equal(sched.queue.has(p.metadata.uid!), false);
    assert.equal(sched.cache.nodeInfo('n1')!.pods.length, 1);
    cluster.remove('Pod', 'default', 'p');
    assert.equal(sched.cache.nodeInfo('n1')!.pods.length, 0);
    sched.stop();
  });

  it('DRA objects become listable and their changes are cluster events named as upstream', async () => {
    const clock = new FakeClock();
    const cluster = new MemoryCluster({ clock });
    const seen: string[] = [];
    const watcher: AnyPlugin = {
      name: 'Watcher',
      filter: () => Status.unschedulable('waiting for devices'),
      eventsToRegister: () => (['ResourceClaim', 'ResourceSlice', 'DeviceClass'] as const).map((resource) => ({
        event: { resource, actionType: ActionType.Add | ActionTypeUpdate | ActionType.Delete },
        queueingHintFn: (_pod: Pod, oldObj: unknown, newObj: unknown) => {
          seen.push(`${resource} ${oldObj === null ? '-' : 'old'} ${newObj === null ? '-' : 'new'}`);
          return 0;
        },
      })),
    };
    const sched = await rejectedByWatcher(cluster, clock, watcher);
    const meta = (name: string) => ({ name });
    cluster.create({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: meta('gpu'), spec: {} });
    const slice = cluster.create({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: meta('s1'), spec: { driver: 'd', pool: { name: 'n1', generation: 1, resourceSliceCount: 1 }, nodeName: 'n1' } });
    cluster.update({ ...slice, metadata: { ...slice.metadata, labels: { a: 'b' } } });
    cluster.create({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c', namespace: 'default' }, spec: {} });
    cluster.remove('ResourceClaim', 'default', 'c');
    cluster.create({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceTaintRule', metadata: meta('r'), spec: { taint: { key: 'k', effect: 'NoSchedule' } } });
    assert.deepEqual(seen, ['DeviceClass - new', 'ResourceSlice - new', 'ResourceSlice old new', 'ResourceClaim - new', 'ResourceClaim old -', 'ResourceSlice - -']);
    const lister = sched.objects;
    assert.deepEqual(lister.list('ResourceSlice').map((o) => o.metadata?.name), ['s1']);
    assert.equal(lister.get('DeviceClass', '', 'gpu')?.metadata?.name, 'gpu');
    assert.equal(lister.list('DeviceTaintRule').length, 1);
    assert.equal(lister.get('ResourceClaim', 'default', 'c'), undefined);
    sched.stop();
  });

  for (const tc of [{ gates: [], watched: true }, { gates: ['DRADeviceTaintRules=false'], watched: false }]) {
    it(`${tc.gates.join(',') || 'defaults'}: a DeviceTaintRule ${tc.watched ? 'is listed and stands for a slice update' : 'is neither listed nor an event, as without its informer'}`, async () => {
      const clock = new FakeClock();
      const cluster = new MemoryCluster({ clock });
      const seen: string[] = [];
      const watcher: AnyPlugin = {
        name: 'Watcher',
        filter: () => Status.unschedulable('waiting for devices'),
        eventsToRegister: () => [{
          event: { resource: 'ResourceSlice', actionType: ActionType.Add | ActionTypeUpdate | ActionType.Delete },
          queueingHintFn: () => {
            seen.push('ResourceSlice');
            return 0;
          },
        }],
      };
      const sched = await rejectedByWatcher(cluster, clock, watcher, tc.gates);
      cluster.create({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceTaintRule', metadata: { name: 'r' }, spec: { taint: { key: 'k', effect: 'NoSchedule' } } });
      assert.deepEqual(seen, tc.watched ? ['ResourceSlice'] : []);
      assert.equal(sched.objects.list('DeviceTaintRule').length, tc.watched ? 1 : 0);
      sched.stop();
    });
  }

  it('labels a custom resource\'s events by its resource string, as upstream (podgroups.v1alpha1.scheduling.x-k8s.io)', async () => {
    const clock = new FakeClock();
    const cluster = new MemoryCluster({ clock });
    const metrics = new SchedulerMetrics();
    const watcher: AnyPlugin = {
      name: 'Watcher',
      filter: () => Status.unschedulable('waiting for the gang'),
      eventsToRegister: () => [{ event: { resource: 'PodGroup.scheduling.x-k8s.io', actionType: ActionType.Add | ActionTypeUpdate } }],
    };
    const sched = Scheduler.fromConfig({
      profiles: [{ schedulerName: 'default-scheduler', plugins: { queueSort: { enabled: [{ name: 'Sort' }] }, filter: { enabled: [{ name: 'Watcher' }] }, bind: { enabled: [{ name: 'Bind' }] } } }],
    }, {
      registry: new Registry([{ name: 'Sort', less }, { name: 'Bind', bind: async () => null }, watcher].map((p) => ({ name: p.name, factory: () => p }))),
      client: cluster, clock, random: seededRandom(1), metrics,
    });
    await sched.start();
    cluster.create(makeNode('n1'));
    const p = cluster.create(makePod('p'));
    sched.scheduleOne();
    cluster.create({ apiVersion: 'scheduling.x-k8s.io/v1alpha1', kind: 'PodGroup', metadata: { name: 'gang', namespace: 'default' }, spec: { minMember: 1 } });
    assert.equal(sched.queue.whereIs(p.metadata.uid!), 'backoff');
    const text = await metrics.expose();
    assert.ok(text.includes('scheduler_queue_incoming_pods_total{queue="backoff",event="podgroups.v1alpha1.scheduling.x-k8s.ioAdd"} 1'), text);
    sched.stop();
  });

  it('pods for another scheduler are ignored', async () => {
    const { cluster, sched } = await env();
    cluster.create(makePod('other', { schedulerName: 'someone-else' }));
    assert.equal(sched.queue.pendingPods().length, 0);
    sched.stop();
  });
});
