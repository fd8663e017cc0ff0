// The dry-run scheduling service: answers equal what the scheduler then does, the live state is
// untouched, requests are validated as creates, a live loop is undisturbed, and HTTP on loopback.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import { ServedStatusError } from '../../apiserver/status.js';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import type { Scheduler } from '../../scheduler/scheduler.js';
import { FakeClock } from '../../util/clock.js';
import { dryRunSchedule, dryRunSchedulePath, podGroupOfRequest, podsOfRequest, treeOfRequest, type DryRunResult } from './dryrun.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { createEmbedded } from '../scenario/embedded.js';
import { parseScenario } from '../scenario/scenario.js';
import { serveScenario } from './serve.js';
import { makePod } from '../../testing/builders.js';

const registry = inTreeRegistry();
const opts = { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, tieBreakByName: true };

const scenario = () => parseScenario(`
objects:
- { apiVersion: v1, kind: Namespace, metadata: { name: default }, status: { phase: Active } }
- { apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: { name: high }, value: 1000 }
nodes:
- metadata: { name: a, labels: { kubernetes.io/hostname: a, disk: ssd } }
  status: { allocatable: { cpu: "4", memory: 8Gi, pods: "110" } }
- metadata: { name: b, labels: { kubernetes.io/hostname: b } }
  status: { allocatable: { cpu: "8", memory: 16Gi, pods: "110" } }
- metadata: { name: c, labels: { kubernetes.io/hostname: c } }
  spec: { taints: [{ key: gpu, value: "y", effect: NoSchedule }] }
  status: { allocatable: { cpu: "6", memory: 8Gi, pods: "110" } }
pods:
- metadata: { name: load }
  spec: { nodeName: a, containers: [{ name: c, image: x, resources: { requests: { cpu: "3" } } }] }
- metadata: { name: low }
  spec: { nodeName: b, containers: [{ name: c, image: x, resources: { requests: { cpu: "7" } } }] }
`, 'dryrun.yaml');

const pod = (name: string, cpu: string, spec: Partial<Pod['spec']> = {}): Pod => makePod(name, { requests: { cpu }, spec });

/** Drains, then lets backoffs expire (bounded), as the dry run's copy does. */
async function settle(scheduler: Scheduler, clock: FakeClock): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await scheduler.loop.drain();
    if (scheduler.queue.nextBackoffExpiry() === undefined) return;
    const at = clock.nextTimerAt();
    if (at === undefined) return;
    clock.runUntil(at);
  }
}

const asked = [
  pod('small', '1'),
  pod('fits-b-only', '1', { nodeSelector: { 'kubernetes.io/hostname': 'b' } }),
  pod('too-big', '20'),
  pod('urgent', '4', { priorityClassName: 'high' }),
  pod('gpu', '1', { tolerations: [{ key: 'gpu', operator: 'Exists' }], nodeSelector: { 'kubernetes.io/hostname': 'c' } }),
  pod('gated', '1', { schedulingGates: [{ name: 'wait' }] }),
  pod('pinned', '1', { nodeName: 'a' }),
  pod('other-scheduler', '1', { schedulerName: 'nobody' }),
];

describe('dry run: answers', () => {
  it('names the node the scheduler then really picks for each pod, in order, and changes nothing', async () => {
    const { cluster, scheduler, clock } = await createEmbedded(scenario(), opts);
    try {
      await settle(scheduler, clock);
      const rv = cluster.currentResourceVersion;
      const events = cluster.recordedEvents.length;
      const bindings = cluster.bindings.length;
      const objects = JSON.stringify([cluster.list('Pod'), cluster.list('Node')]);

      const r = await dryRunSchedule(cluster, clock, asked, opts);
      assert.equal(JSON.stringify([cluster.list('Pod'), cluster.list('Node')]), objects, 'stored objects untouched, resourceVersions included');

      assert.equal(r.resourceVersion, String(rv));
      assert.equal(cluster.currentResourceVersion, rv, 'nothing stored');
      assert.equal(cluster.recordedEvents.length, events, 'no events');
      assert.equal(cluster.bindings.length, bindings, 'no bindings');
      assert.equal(scheduler.queue.pendingPods().length, 0, 'no queue changes');
      assert.deepEqual(r.pods.map((p) => [p.pod, p.outcome, p.node]), [
        ['default/small', 'Scheduled', 'b'],
        ['default/fits-b-only', 'Unschedulable', ''],
        ['default/too-big', 'Unschedulable', ''],
        ['default/urgent', 'Scheduled', 'a'],
        ['default/gpu', 'Scheduled', 'c'],
        ['default/gated', 'Gated', ''],
        ['default/pinned', 'Assigned', 'a'],
        ['default/other-scheduler', 'Pending', ''],
      ]);
      assert.match(r.pods[1]!.message, /^0\/3 nodes are available: 1 Insufficient cpu, 1 node\(s\) didn't match Pod's node affinity\/selector, 1 node\(s\) had untolerated taint\(s\)\./);
      const tooBig = r.pods[2]!;
      assert.match(tooBig.message, /^0\/3 nodes are available: 1 node\(s\) had untolerated taint\(s\), 2 Insufficient cpu\. preemption: /);
      assert.deepEqual(tooBig.nodes.map((n) => [n.node, n.plugin]), [['a', 'NodeResourcesFit'], ['b', 'NodeResourcesFit'], ['c', 'TaintToleration']]);
      assert.equal(tooBig.preemption, null);
      const urgent = r.pods[3]!;
      assert.deepEqual(urgent.preemption, { node: 'a', victims: ['default/load'] });
      assert.match(urgent.message, /2 Insufficient cpu\. preemption: found a potential placement for pod on node a, preempting 1 victims/, 'why it did not fit before preempting');
      assert.equal(r.pods[0]!.message, '');

      // The same pods created for real, one after the other, land where the dry run said.
      for (const p of asked) {
        cluster.create(p);
        await settle(scheduler, clock);
      }
      const real = asked.map((p) => cluster.getPod('default', p.metadata.name!)?.spec.nodeName ?? '');
      assert.deepEqual(real, r.pods.map((p) => p.node));
      assert.equal(cluster.getPod('default', 'load'), undefined, 'the victim the dry run named was preempted');
    } finally {
      scheduler.stop();
    }
  });

  it('answers how many replicas of a template fit', async () => {
    const { cluster, scheduler, clock } = await createEmbedded(scenario(), opts);
    try {
      const template = { metadata: { generateName: 'web-', labels: { app: 'web' } }, spec: pod('x', '1').spec };
      const r = await dryRunSchedule(cluster, clock, podsOfRequest({ template, replicas: 4 }), opts);
      assert.equal(r.scheduled, 2, 'a and b have one cpu free each; c is tainted');
      assert.deepEqual(r.pods.map((p) => p.pod), ['default/web-0', 'default/web-1', 'default/web-2', 'default/web-3']);
      assert.deepEqual(r.pods.map((p) => p.node).filter((n) => n !== '').sort(), ['a', 'b']);
    } finally {
      scheduler.stop();
    }
  });

  it('gives the asked pods uids no copied object has (the cache is keyed by uid)', async () => {
    const { cluster, scheduler, clock } = await createEmbedded(scenario(), opts);
    try {
      const many = Array.from({ length: 10 }, (_, i) => pod(`tiny-${i}`, '10m'));
      const r = await dryRunSchedule(cluster, clock, many, opts);
      assert.deepEqual(r.pods.map((p) => [p.outcome, p.attempts, p.message]), many.map(() => ['Scheduled', 1, '']));
    } finally {
      scheduler.stop();
    }
  });

  it('schedules pods already pending first and counts them', async () => {
    const sc = scenario();
    sc.pending.push(pod('waiting', '1'), pod('never', '100'));
    const { cluster, scheduler, clock } = await createEmbedded(sc, opts);
    try {
      // The live scheduler has not run: both are pending in the store.
      for (const p of sc.pending) cluster.create(p);
      const r = await dryRunSchedule(cluster, clock, [pod('next', '1')], opts);
      assert.deepEqual(r.pending, { scheduled: 1, unschedulable: 1 });
      assert.equal(r.pods[0]!.outcome, 'Scheduled');
      assert.equal(cluster.getPod('default', 'waiting')?.spec.nodeName, undefined, 'the live pod is still pending');
    } finally {
      scheduler.stop();
    }
  });
});

describe('dry run: validation as creates', () => {
  const statusOf = async (pods: unknown[]) => {
    const { cluster, scheduler, clock } = await createEmbedded(scenario(), opts);
    try {
      await dryRunSchedule(cluster, clock, pods, opts);
      return null;
    } catch (err) {
      if (err instanceof ServedStatusError) return err.status;
      throw err;
    } finally {
      scheduler.stop();
    }
  };

  const cases: { name: string; pods: unknown[]; code: number; reason: string; message: RegExp }[] = [
    { name: 'an invalid pod', pods: [pod('ok', '1'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec: { containers: [] } }], code: 422, reason: 'Invalid', message: /^pods\[1\]: Pod "bad" is invalid: spec\.containers: Required value/ },
    { name: 'a name already taken in the cluster', pods: [pod('load', '1')], code: 409, reason: 'AlreadyExists', message: /^pods\[0\]: pods "load" already exists/ },
    { name: 'the same name twice in the request', pods: [pod('twin', '1'), pod('twin', '1')], code: 409, reason: 'AlreadyExists', message: /^pods\[1\]: / },
    { name: 'a namespace that does not exist', pods: [{ ...pod('x', '1'), metadata: { name: 'x', namespace: 'nowhere' } }], code: 404, reason: 'NotFound', message: /namespaces "nowhere" not found/ },
    { name: 'an unknown priority class', pods: [pod('x', '1', { priorityClassName: 'nope' })], code: 403, reason: 'Forbidden', message: /no PriorityClass with name nope was found/ },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}`, async () => {
      const s = await statusOf(c.pods);
      assert.ok(s, 'an error');
      assert.equal(s.code, c.code);
      assert.equal(s.reason, c.reason);
      assert.match(s.message ?? '', c.message);
    });
  }

  it('reads { pods }, a Pod, a List and { template, replicas }; refuses other bodies with 400', () => {
    assert.equal(podsOfRequest({ pods: [pod('a', '1')] }).length, 1);
    assert.equal(podsOfRequest(pod('a', '1')).length, 1);
    assert.equal(podsOfRequest({ kind: 'List', items: [pod('a', '1'), pod('b', '1')] }).length, 2);
    assert.deepEqual(podsOfRequest({ template: { metadata: { name: 'w' }, spec: {} }, replicas: 2 }).map((p) => (p as Pod).metadata.name), ['w-0', 'w-1']);
    for (const bad of [[], 'x', { pods: [] }, { pods: 'x' }, { kind: 'Node' }, { template: {}, replicas: 0 }, { template: 'x', replicas: 1 }, { template: {}, replicas: 1e9 }]) {
      assert.throws(() => podsOfRequest(bad), (e: unknown) => e instanceof ServedStatusError && e.code === 400);
    }
  });
});

describe('dry run: beside a live scheduling loop', () => {
  it('sees one consistent state and leaves the live outcome as it would have been', async () => {
    const run = async (withDryRun: boolean) => {
      const sc = scenario();
      for (let i = 0; i < 8; i++) sc.pending.push(pod(`p${i}`, '100m'));
      const clock = new FakeClock(0);
      const s = await serveScenario(sc, { ...opts, clock, port: 0 });
      try {
        let answer: DryRunResult | null = null;
        // The pending pods bound so far (a served cluster keeps no log of bindings).
        const boundWhenAsked = s.cluster.list<Pod>('Pod').filter((p) => /^p\d$/.test(p.metadata.name ?? '') && p.spec.nodeName).length;
        // Asked while the loop is placing the pending pods.
        if (withDryRun) answer = await dryRunSchedule(s.cluster, clock, [pod('probe', '500m')], opts);
        await s.scheduler.loop.stop();
        await settle(s.scheduler, clock);
        // Then created for real.
        s.cluster.create(pod('probe', '500m'));
        await settle(s.scheduler, clock);
        const placed = s.cluster.list<Pod>('Pod').map((p) => `${p.metadata.name}@${p.spec.nodeName ?? ''}`).sort();
        return { answer, placed, boundWhenAsked, events: s.cluster.recordedEvents.length };
      } finally {
        await s.close();
      }
    };
    const control = await run(false);
    const probed = await run(true);
    assert.deepEqual(probed.placed, control.placed, 'the live placements are undisturbed');
    assert.equal(probed.events, control.events, 'no events in the live cluster');
    assert.ok(probed.answer);
    assert.deepEqual(probed.answer.pending, { scheduled: 8, unschedulable: 0 }, 'all pending pods, none half-applied');
    assert.ok(probed.boundWhenAsked < 8, `asked while pods were still being placed (${probed.boundWhenAsked} of 8 bound)`);
    assert.equal(probed.answer.pods[0]!.outcome, 'Scheduled');
    assert.ok(probed.placed.includes(`probe@${probed.answer.pods[0]!.node}`), 'the probe then lands where the answer said');
  });
});

describe('dry run: over HTTP on loopback', () => {
  it('answers POST on its path, refuses invalid pods as the API server does, stores nothing', async () => {
    const s = await serveScenario(scenario(), { ...opts, clock: new FakeClock(0), port: 0, host: '127.0.0.1' });
    try {
      const post = (body: unknown) => fetch(`${s.url}${dryRunSchedulePath}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const rv = s.cluster.currentResourceVersion;
      const ok = await post({ pods: [pod('small', '1'), pod('too-big', '20')] });
      assert.equal(ok.status, 200);
      const r = await ok.json() as DryRunResult;
      assert.equal(r.kind, 'ScheduleResult');
      assert.deepEqual(r.pods.map((p) => [p.pod, p.outcome, p.node]), [['default/small', 'Scheduled', 'b'], ['default/too-big', 'Unschedulable', '']]);
      assert.equal(s.cluster.currentResourceVersion, rv);

      const bad = await post({ pods: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec: { containers: [] } }] });
      assert.equal(bad.status, 422);
      const status = await bad.json() as { kind: string; reason: string; details?: { causes?: unknown[] } };
      assert.equal(status.kind, 'Status');
      assert.equal(status.reason, 'Invalid');
      assert.ok((status.details?.causes ?? []).length > 0, 'causes given');

      assert.equal((await fetch(`${s.url}${dryRunSchedulePath}`, { method: 'POST', body: 'not json' })).status, 400);

      // YAML, as `curl --data-binary @pods.yaml -H 'Content-Type: application/yaml'` sends a file: one document or several.
      const postYaml = (text: string) => fetch(`${s.url}${dryRunSchedulePath}`, { method: 'POST', headers: { 'Content-Type': 'application/yaml' }, body: text });
      const yamlPod = (name: string, cpu: string) => `apiVersion: v1\nkind: Pod\nmetadata: { name: ${name} }\nspec:\n  containers: [{ name: c, image: x, resources: { requests: { cpu: "${cpu}" } } }]\n`;
      const one = await postYaml(yamlPod('small', '1'));
      assert.equal(one.status, 200);
      assert.deepEqual((await one.json() as DryRunResult).pods.map((p) => [p.pod, p.outcome]), [['default/small', 'Scheduled']]);
      const two = await postYaml(`${yamlPod('small', '1')}---\n${yamlPod('too-big', '20')}`);
      assert.equal(two.status, 200);
      assert.deepEqual((await two.json() as DryRunResult).pods.map((p) => [p.pod, p.outcome]), [['default/small', 'Scheduled'], ['default/too-big', 'Unschedulable']]);
      const broken = await postYaml('pods: [ {');
      assert.equal(broken.status, 400);
      assert.match(((await broken.json()) as { message: string }).message, /^the body of the request could not be decoded as YAML: /);
      const list = await fetch(`${s.url}/api/v1/namespaces/default/pods/small`);
      assert.equal(list.status, 404, 'the asked pod was not stored');
      await list.arrayBuffer();
    } finally {
      await s.close();
    }
  });
});

describe('dry run: a whole pod group', () => {
  const gates = { ...opts, featureGates: FeatureGates.parse(['GenericWorkload=true']) };
  const group = (minCount: number) => ({ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'train' }, spec: { schedulingPolicy: { gang: { minCount } } } });
  const cases: { name: string; body: unknown; scheduled: number; outcome: string; stoppedBy: string | null }[] = [
    // Free cpu: a 1 (4 - 3), b 1 (8 - 7), c tainted. Two 1-cpu workers fit, one on a and one on b.
    { name: 'a gang that fits whole', body: { podGroup: group(2), template: pod('w', '1'), replicas: 2 }, scheduled: 2, outcome: 'Scheduled', stoppedBy: null },
    // A third worker has no node: all or nothing, none placed.
    { name: 'a gang one member too big', body: { podGroup: group(3), template: pod('w', '1'), replicas: 3 }, scheduled: 0, outcome: 'Unschedulable', stoppedBy: 'NodeResourcesFit' },
    // Fewer members than minCount: held at PreEnqueue, never attempted.
    { name: 'a gang short of its quorum', body: { podGroup: group(3), pods: [pod('w-0', '1'), pod('w-1', '1')] }, scheduled: 0, outcome: 'Waiting', stoppedBy: 'GangScheduling' },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { cluster, scheduler, clock } = await createEmbedded(scenario(), gates);
      try {
        await settle(scheduler, clock);
        const rv = cluster.currentResourceVersion;
        const r = await dryRunSchedule(cluster, clock, podsOfRequest(c.body), { ...gates, podGroup: podGroupOfRequest(c.body) });
        assert.equal(cluster.currentResourceVersion, rv, 'nothing stored');
        assert.equal(r.scheduled, c.scheduled);
        assert.equal(r.group?.group, 'default/train');
        assert.equal(r.group?.outcome, c.outcome);
        assert.equal(r.group?.placed, c.scheduled);
        const plugins = [r.group?.stoppedBy?.plugin, ...(r.group?.firstRejected?.plugins ?? [])];
        if (c.stoppedBy === null) assert.equal(r.group?.stoppedBy, null);
        else assert.ok(plugins.includes(c.stoppedBy), JSON.stringify(r.group));
        if (c.outcome === 'Waiting') assert.deepEqual(r.pods.map((p) => [p.outcome, p.message]), [['Gated', 'waiting for minCount pods from a gang to appear in scheduling queue'], ['Gated', 'waiting for minCount pods from a gang to appear in scheduling queue']]);
        if (c.outcome === 'Scheduled') assert.deepEqual(r.pods.map((p) => p.node).sort(), ['a', 'b']);
      } finally {
        scheduler.stop();
      }
    });
  }

  const bad: [string, unknown, typeof opts, RegExp][] = [
    ['the gate off', { podGroup: group(1), pods: [pod('w', '1')] }, opts, /pod groups need --feature-gates GenericWorkload=true/],
    ['an invalid PodGroup', { podGroup: { metadata: { name: 'train' }, spec: { schedulingPolicy: { gang: { minCount: 0 } } } }, pods: [pod('w', '1')] }, gates, /PodGroup.scheduling.k8s.io "train" is invalid: spec.schedulingPolicy.gang.minCount/],
    ['a PodGroup naming no known PriorityClass (Priority admission)', { podGroup: { metadata: { name: 'train' }, spec: { schedulingPolicy: { basic: {} }, priorityClassName: 'gold' } }, pods: [pod('w', '1')] }, gates,
      /^podgroups.scheduling.k8s.io "train" is forbidden: no PriorityClass with name gold was found$/],
    ['a member naming another group', { podGroup: group(1), pods: [pod('w', '1', { schedulingGroup: { podGroupName: 'other' } })] }, gates, /pods\[0\].spec.schedulingGroup.podGroupName: Invalid value: "other": must name the podGroup "train"/],
  ];
  for (const [name, body, o, want] of bad) {
    it(`refuses ${name}`, async () => {
      const { cluster, scheduler, clock } = await createEmbedded(scenario(), o);
      try {
        await assert.rejects(dryRunSchedule(cluster, clock, podsOfRequest(body), { ...o, podGroup: podGroupOfRequest(body) }), (e: Error) => e instanceof ServedStatusError && want.test(e.message));
      } finally {
        scheduler.stop();
      }
    });
  }
});

describe('dry run: a whole CompositePodGroup tree', () => {
  const treeGates = { ...opts, featureGates: FeatureGates.parse(['GenericWorkload=true', 'TopologyAwareWorkloadScheduling=true', 'CompositePodGroup=true']) };
  const ref = { workloadName: 'w', templateName: 't' };
  const root = { apiVersion: 'scheduling.k8s.io/v1alpha3', kind: 'CompositePodGroup', metadata: { name: 'job' }, spec: { workloadRef: ref, schedulingPolicy: { gang: { minGroupCount: 2 } } } };
  const child = (name: string, minCount = 1, parent = 'job') => ({ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name }, spec: { parentCompositePodGroupName: parent, workloadRef: ref, schedulingPolicy: { gang: { minCount } } } });
  const member = (name: string, group: string, cpu: string) => pod(name, cpu, { schedulingGroup: { podGroupName: group } });
  const tree = (qCpu: string) => ({ compositePodGroup: root, groups: [child('p'), child('q')], pods: [member('p-0', 'p', '1'), member('q-0', 'q', qCpu)] });

  const cases: { name: string; body: unknown; scheduled: number; outcome: string; children: string[] }[] = [
    // Free cpu: a 1, b 1 (c tainted): one member of each child fits, on a and b.
    { name: 'a tree that fits whole', body: tree('1'), scheduled: 2, outcome: 'Scheduled', children: ['Scheduled', 'Scheduled'] },
    // q's member needs 2 cpu: minGroupCount 2 is not met, so p's member binds nowhere either.
    { name: 'a tree one child short', body: tree('2'), scheduled: 0, outcome: 'Unschedulable', children: ['Unschedulable', 'Unschedulable'] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { cluster, scheduler, clock } = await createEmbedded(scenario(), treeGates);
      try {
        await settle(scheduler, clock);
        const rv = cluster.currentResourceVersion;
        const r = await dryRunSchedule(cluster, clock, podsOfRequest(c.body), { ...treeGates, tree: treeOfRequest(c.body) });
        assert.equal(cluster.currentResourceVersion, rv, 'nothing stored');
        assert.equal(r.scheduled, c.scheduled);
        assert.equal(r.group, undefined);
        assert.equal(r.tree?.group, 'default/job');
        assert.equal(r.tree?.outcome, c.outcome);
        assert.deepEqual(r.tree?.children.map((g) => [g.group, g.outcome]), [['default/p', c.children[0]], ['default/q', c.children[1]]]);
        if (c.outcome === 'Scheduled') assert.deepEqual(r.pods.map((p) => p.node).sort(), ['a', 'b']);
        else {
          const q = r.tree!.children[1]!;
          assert.ok(!('children' in q) && q.firstRejected?.plugins.includes('NodeResourcesFit'), JSON.stringify(q));
        }
      } finally {
        scheduler.stop();
      }
    });
  }

  const bad: [string, unknown, typeof opts, RegExp][] = [
    ['a tree with the gate off', tree('1'), { ...opts, featureGates: FeatureGates.parse(['GenericWorkload=true']) }, /compositePodGroup: trees need --feature-gates .*CompositePodGroup=true/],
    ['a group whose parent is not in the tree', { ...tree('1'), groups: [child('p'), child('q', 1, 'other')] }, treeGates, /groups\[1\].spec.parentCompositePodGroupName: Invalid value: "other": must name the compositePodGroup or a CompositePodGroup of groups/],
    ['a group of another kind', { ...tree('1'), groups: [child('p'), { kind: 'Workload', metadata: { name: 'w' } }] }, treeGates, /groups\[1\].kind: Unsupported value: "Workload"/],
    ['an invalid PodGroup of the tree', { ...tree('1'), groups: [child('p', 0), child('q')] }, treeGates, /^groups\[0\]: PodGroup.scheduling.k8s.io "p" is invalid: spec.schedulingPolicy.gang.minCount/],
    ['a member naming no group of the tree', { ...tree('1'), pods: [member('p-0', 'p', '1'), member('x-0', 'x', '1')] }, treeGates, /pods\[1\].spec.schedulingGroup.podGroupName: Invalid value: "x": must name a PodGroup of groups/],
    ['both a podGroup and a tree', { ...tree('1'), podGroup: child('p') }, treeGates, /give podGroup or compositePodGroup with groups, not both/],
  ];
  for (const [name, body, o, want] of bad) {
    it(`refuses ${name}`, async () => {
      const { cluster, scheduler, clock } = await createEmbedded(scenario(), o);
      try {
        await assert.rejects(dryRunSchedule(cluster, clock, podsOfRequest(body), { ...o, podGroup: podGroupOfRequest(body), tree: treeOfRequest(body) }), (e: Error) => e instanceof ServedStatusError && want.test(e.message));
      } finally {
        scheduler.stop();
      }
    });
  }

  it('answers a tree over HTTP', async () => {
    const s = await serveScenario(scenario(), { ...treeGates, clock: new FakeClock(0), port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${s.url}${dryRunSchedulePath}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(tree('1')) });
      assert.equal(res.status, 200);
      const r = await res.json() as DryRunResult;
      assert.equal(r.tree?.outcome, 'Scheduled');
      assert.equal(r.scheduled, 2);
    } finally {
      await s.close();
    }
  });
});
