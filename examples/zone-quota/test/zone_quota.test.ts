// ZoneQuota's tests, written as a plugin author's: only kube-scheduler-ts/plugin and
// kube-scheduler-ts/testing, unit tests per extension point and whole simulations.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Code, CycleState, PodInfo, QueueingHint, type KubeObject, type Node, type Pod } from 'kube-scheduler-ts/plugin';
import { assertStatus, makeNode, makePod, newTestHandle, scenario, simulate } from 'kube-scheduler-ts/testing';
import { ZoneQuota, zoneQuota } from '../src/zone_quota.js';

const zone = (name: string, z: string): Node => makeNode(name, { labels: { 'topology.kubernetes.io/zone': z } });
const member = (name: string, o: { node?: string; priorityClassName?: string } = {}): Pod =>
  makePod(name, { labels: { 'quota-group': 'db' }, ...(o.node ? { node: o.node } : {}), ...(o.priorityClassName ? { spec: { priorityClassName: o.priorityClassName } } : {}) });
const args = { groupLabel: 'quota-group', maxPerZone: 1 };

/** Runs PreFilter over the handle's nodes, then Filter on each, as one scheduling cycle would. */
function filterEach(plugin: ZoneQuota, pod: Pod, nodes: Node[], pods: Pod[]) {
  const handle = newTestHandle({ nodes, pods });
  const state = new CycleState();
  const nodeInfos = handle.snapshotSharedLister().nodeInfos().list();
  const pre = plugin.preFilter(state, new PodInfo(pod), nodeInfos);
  return { pre, state, verdicts: new Map(nodeInfos.map((n) => [n.node!.metadata.name, plugin.filter(state, new PodInfo(pod), n)])) };
}

describe('ZoneQuota: PreFilter and Filter', () => {
  const nodes = [zone('a1', 'a'), zone('a2', 'a'), zone('b1', 'b'), makeNode('nozone')];
  const cases = [
    { name: 'an empty cluster: every zoned node fits', pods: [], want: { a1: null, a2: null, b1: null } },
    { name: 'a member in zone a fills both of its nodes', pods: [member('m', { node: 'a1' })], want: { a1: Code.Unschedulable, a2: Code.Unschedulable, b1: null } },
    { name: 'pods of another group count for nothing', pods: [makePod('other', { node: 'a1', labels: { 'quota-group': 'web' } })], want: { a1: null, a2: null, b1: null } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { pre, verdicts } = filterEach(new ZoneQuota(args), member('p'), nodes, c.pods);
      assert.equal(pre, null);
      for (const [node, code] of Object.entries(c.want)) assertStatus(verdicts.get(node), code);
      assertStatus(verdicts.get('nozone'), Code.UnschedulableAndUnresolvable, 'node(s) had no topology.kubernetes.io/zone label');
    });
  }

  it('says which group filled the zone', () => {
    const { verdicts } = filterEach(new ZoneQuota(args), member('p'), nodes, [member('m', { node: 'b1' })]);
    assertStatus(verdicts.get('b1'), Code.Unschedulable, 'node(s) in a zone already holding 1 pod(s) of group db');
  });

  it('skips pods outside every group', () => {
    const { pre } = filterEach(new ZoneQuota(args), makePod('plain'), nodes, []);
    assert.equal(pre?.status?.code, Code.Skip);
  });

  it('PreFilter extensions follow pods added and removed (preemption dry runs), on a clone only', () => {
    const running = member('m', { node: 'a1' });
    const { state } = filterEach(new ZoneQuota(args), member('p'), nodes, [running]);
    const plugin = new ZoneQuota(args);
    const handle = newTestHandle({ nodes, pods: [running] });
    const a1 = handle.snapshotSharedLister().nodeInfos().get('a1')!;
    const dryRun = state.clone();
    plugin.preFilterExtensions().removePod(dryRun, new PodInfo(member('p')), new PodInfo(running), a1);
    assertStatus(plugin.filter(dryRun, new PodInfo(member('p')), a1), null);
    assertStatus(plugin.filter(state, new PodInfo(member('p')), a1), Code.Unschedulable);
    plugin.preFilterExtensions().addPod(dryRun, new PodInfo(member('p')), new PodInfo(member('n', { node: 'a1' })), a1);
    assertStatus(plugin.filter(dryRun, new PodInfo(member('p')), a1), Code.Unschedulable);
  });

  it('reports a missing PreFilter state as an error', () => {
    const handle = newTestHandle({ nodes });
    assertStatus(new ZoneQuota(args).filter(new CycleState(), new PodInfo(member('p')), handle.snapshotSharedLister().nodeInfos().get('a1')!), Code.Error);
  });
});

describe('ZoneQuota: queueing hints', () => {
  const plugin = new ZoneQuota(args);
  const [podEvents, nodeEvents] = plugin.eventsToRegister();
  const cases = [
    { name: 'a member deleted', hint: podEvents!, old: member('m', { node: 'a1' }), new: undefined, want: QueueingHint.Queue },
    { name: 'another group\'s pod deleted', hint: podEvents!, old: makePod('w', { node: 'a1', labels: { 'quota-group': 'web' } }), new: undefined, want: QueueingHint.QueueSkip },
    { name: 'a member relabelled out of the group', hint: podEvents!, old: member('m', { node: 'a1' }), new: makePod('m', { node: 'a1' }), want: QueueingHint.Queue },
    { name: 'a node added with a zone', hint: nodeEvents!, old: undefined, new: zone('c1', 'c'), want: QueueingHint.Queue },
    { name: 'a node added without one', hint: nodeEvents!, old: undefined, new: makeNode('x'), want: QueueingHint.QueueSkip },
    { name: 'a node relabelled, zone unchanged', hint: nodeEvents!, old: zone('a1', 'a'), new: makeNode('a1', { labels: { 'topology.kubernetes.io/zone': 'a', disk: 'ssd' } }), want: QueueingHint.QueueSkip },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(c.hint.queueingHintFn!(member('p'), c.old, c.new), c.want));
  }
});

describe('ZoneQuota: args', () => {
  it('defaults every field', () => assert.deepEqual(zoneQuota.defaultArgs!({}), { groupLabel: 'quota-group', maxPerZone: 1 }));
  it('refuses a bad maxPerZone with its field path', () => {
    const errors = zoneQuota.validateArgs!({ groupLabel: 'g', maxPerZone: 0 }, 'profiles[0].pluginConfig[0].args');
    assert.deepEqual(errors.map((e) => e.path), ['profiles[0].pluginConfig[0].args.maxPerZone']);
  });
});

describe('ZoneQuota in whole scheduling cycles', () => {
  const config = {
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    profiles: [{
      schedulerName: 'default-scheduler',
      plugins: { multiPoint: { enabled: [{ name: 'ZoneQuota' }] } },
      pluginConfig: [{ name: 'ZoneQuota', args: { maxPerZone: 1 } }],
    }],
  };

  it('spreads a group one pod per zone and leaves the third unschedulable with the plugin\'s reason', async () => {
    const sc = scenario('zone quota').withNodes(zone('a1', 'a'), zone('b1', 'b')).withPendingPods(member('p1'), member('p2'), member('p3')).build();
    const report = await simulate(sc, { plugins: [zoneQuota], config });
    const placed = report.pods.map((p) => [p.pod, p.outcome]);
    assert.deepEqual(placed, [['default/p1', 'Scheduled'], ['default/p2', 'Scheduled'], ['default/p3', 'Unschedulable']]);
    assert.notEqual(report.pods[0]!.node, report.pods[1]!.node);
    assert.match(report.pods[2]!.message, /2 node\(s\) in a zone already holding 1 pod\(s\) of group db/);
  });

  it('lets a higher-priority member preempt a lower one in a full zone', async () => {
    const highClass: KubeObject & { value: number } = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 };
    const sc = scenario('zone quota preemption')
      .withObjects(highClass)
      .withNodes(zone('a1', 'a'))
      .withRunningPods(member('low', { node: 'a1' }))
      .withPendingPods(member('high', { priorityClassName: 'high' }))
      .build();
    const report = await simulate(sc, { plugins: [zoneQuota], config });
    const high = report.pods.find((p) => p.pod === 'default/high')!;
    assert.equal(high.node, 'a1');
    assert.equal(report.pods.find((p) => p.pod === 'default/low')!.preemptedBy, 'default/high');
  });
});
