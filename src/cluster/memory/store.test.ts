// The embedded cluster: API-server defaulting, list/watch ordering, binding, status patches,
// deletes and fault injection.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod, PriorityClass } from '../../api/types.js';
import type { PodGroup } from '../../api/scheduling.js';
import type { ResourceClaim } from '../../api/dra_types.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { FakeClock } from '../../util/clock.js';
import { ApiError, type ClusterEventRecord, type WatchEvent } from '../types.js';
import { MemoryCluster } from './store.js';
import { keyInKindOf, objectKey, storedKeyInKind } from './defaults.js';

const newCluster = () => new MemoryCluster({ clock: new FakeClock(1_000) });
const bare = (name: string): Pod => ({ kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] } });

async function rejects(p: Promise<unknown>, code: number): Promise<void> {
  await assert.rejects(p, (e) => e instanceof ApiError && e.code === code);
}

describe('MemoryCluster: create and defaulting', () => {
  it('defaults a pod as the API server does', () => {
    const c = newCluster();
    c.create<PriorityClass>({ kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' } as PriorityClass);
    const p = c.create({ ...bare('p'), spec: { ...bare('p').spec, priorityClassName: 'high' } });
    assert.equal(p.metadata.namespace, 'default');
    assert.ok(p.metadata.uid);
    assert.ok(p.metadata.resourceVersion);
    assert.equal(p.metadata.creationTimestamp, '1970-01-01T00:00:01Z', 'whole seconds, as metav1.Time');
    assert.equal(p.spec.schedulerName, 'default-scheduler');
    assert.deepEqual(p.spec.containers[0]!.resources!.requests, { cpu: '1' }, 'requests default to limits');
    assert.equal(p.spec.priority, 1000);
    assert.equal(p.spec.preemptionPolicy, 'Never');
    assert.equal(p.status?.phase, 'Pending');
  });

  it('a pod without a priority class gets the global default, else 0', () => {
    const c = newCluster();
    assert.equal(c.create(bare('a')).spec.priority, 0);
    c.create<PriorityClass>({ kind: 'PriorityClass', metadata: { name: 'def' }, value: 7, globalDefault: true } as PriorityClass);
    assert.equal(c.create(bare('b')).spec.priority, 7);
  });

  it('fills a new PodGroup\'s priority from its class with GenericWorkload, its policy with PodGroupPreemptionPolicy, on create only', () => {
    const group = (name: string, spec: Partial<PodGroup['spec']> = {}): PodGroup =>
      ({ kind: 'PodGroup', metadata: { name }, spec: { schedulingPolicy: { basic: {} }, ...spec } });
    const classes = (c: MemoryCluster) => {
      c.create<PriorityClass>({ kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000, preemptionPolicy: 'Never' } as PriorityClass);
      return c;
    };
    const off = classes(newCluster()).create(group('g', { priorityClassName: 'high' }));
    assert.deepEqual([off.spec.priority, off.spec.preemptionPolicy], [undefined, undefined], 'the gate off: nothing is filled');
    const on = classes(new MemoryCluster({ clock: new FakeClock(0), gates: { genericWorkload: true } }));
    const g = on.create(group('g', { priorityClassName: 'high' }));
    assert.deepEqual([g.spec.priority, g.spec.priorityClassName, g.spec.preemptionPolicy], [1000, 'high', undefined]);
    on.create<PriorityClass>({ kind: 'PriorityClass', metadata: { name: 'std' }, value: 7, globalDefault: true } as PriorityClass);
    const d = on.create(group('d'));
    assert.deepEqual([d.spec.priority, d.spec.priorityClassName], [7, 'std'], 'no class: the global default');
    const both = classes(new MemoryCluster({ clock: new FakeClock(0), gates: { genericWorkload: true, podGroupPreemptionPolicy: true } }));
    assert.equal(both.create(group('g', { priorityClassName: 'high', preemptionPolicy: 'Never' })).spec.preemptionPolicy, 'Never');
    const defaulted = both.create(group('d', { priority: 0 }));
    assert.equal(defaulted.spec.preemptionPolicy, 'PreemptLowerPriority', 'v1beta1 defaulting, then admission');
    const none = on.create(group('none', { priorityClassName: 'gold' }));
    assert.equal(none.spec.priority, undefined, 'an unknown class: stored as given, as the store is lenient for pods');
    const updated = on.update({ ...none, status: { conditions: [] } });
    assert.equal(updated.spec.priority, undefined, 'an update is not admitted again');
  });

  it('drops a new PodGroup\'s fields of the gates that are off; a store without gates keeps them all', () => {
    const full: PodGroup = {
      kind: 'PodGroup', metadata: { name: 'g' },
      spec: {
        schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: [{ key: 'rack' }] }, resourceClaims: [{ name: 'c', resourceClaimName: 'rc' }],
        preemptionPolicy: 'Never', parentCompositePodGroupName: 'parent',
      },
    };
    const fields = (c: MemoryCluster) => Object.keys(c.create(full).spec).sort();
    assert.deepEqual(fields(newCluster()), ['parentCompositePodGroupName', 'preemptionPolicy', 'resourceClaims', 'schedulingConstraints', 'schedulingPolicy']);
    assert.deepEqual(fields(new MemoryCluster({ clock: new FakeClock(0), gates: {} })), ['schedulingPolicy']);
    const some = new MemoryCluster({ clock: new FakeClock(0), gates: { topologyAwareWorkloadScheduling: true, draWorkloadResourceClaims: true } });
    assert.deepEqual(fields(some), ['resourceClaims', 'schedulingConstraints', 'schedulingPolicy']);
  });

  it('defaults a node\'s allocatable from capacity and its hostname label', () => {
    const c = newCluster();
    const n = c.create<Node>({ kind: 'Node', metadata: { name: 'n1' }, status: { capacity: { cpu: '2' } } });
    assert.deepEqual(n.status?.allocatable, { cpu: '2' });
    assert.equal(n.metadata.labels?.['kubernetes.io/hostname'], 'n1');
  });

  it('refuses duplicates and objects without a kind', () => {
    const c = newCluster();
    c.create(bare('p'));
    assert.throws(() => c.create(bare('p')), (e) => e instanceof ApiError && e.code === 409);
    assert.throws(() => c.create({ metadata: { name: 'x' } }), (e) => e instanceof ApiError && e.code === 400);
  });

  it('does not share objects with the caller', () => {
    const c = newCluster();
    const input = bare('p');
    c.create(input);
    input.metadata.labels = { changed: 'yes' };
    assert.equal(c.getPod('default', 'p')!.metadata.labels, undefined);
  });
});

describe('MemoryCluster: watch', () => {
  it('start lists existing objects in dependency order, then streams changes in order', async () => {
    const c = newCluster();
    c.create(bare('p'));
    c.create(makeNode('n1'));
    c.create({ kind: 'Namespace', metadata: { name: 'ns' } });
    const seen: string[] = [];
    await c.start((e: WatchEvent) => seen.push(`${e.type} ${e.kind}/${e.object.metadata?.name}`));
    assert.deepEqual(seen, ['ADDED Namespace/ns', 'ADDED Node/n1', 'ADDED Pod/p']);
    const p = c.getPod('default', 'p')!;
    c.update({ ...p, metadata: { ...p.metadata, labels: { a: 'b' } } });
    c.remove('Pod', 'default', 'p');
    assert.deepEqual(seen.slice(3), ['MODIFIED Pod/p', 'DELETED Pod/p']);
    c.stop();
    c.create(bare('q'));
    assert.equal(seen.length, 5, 'no events after stop');
  });

  it('an update keeps identity fields and bumps the resourceVersion; MODIFIED carries the old object', async () => {
    const c = newCluster();
    const events: WatchEvent[] = [];
    await c.start((e) => events.push(e));
    const p = c.create(bare('p'));
    const u = c.update<Pod>({ ...p, metadata: { name: 'p', namespace: 'default', labels: { x: 'y' } } });
    assert.equal(u.metadata.uid, p.metadata.uid);
    assert.equal(u.metadata.creationTimestamp, p.metadata.creationTimestamp);
    assert.ok(Number(u.metadata.resourceVersion) > Number(p.metadata.resourceVersion));
    assert.equal((events[1]!.oldObject as Pod).metadata.labels, undefined);
    assert.equal(c.remove('Pod', 'default', 'missing'), false);
  });

  it('keeps a history of changes for resuming watches; with size 0 none, as if each were compacted at once', () => {
    const kept = newCluster();
    const none = new MemoryCluster({ clock: new FakeClock(1_000), watchHistorySize: 0 });
    for (const c of [kept, none]) {
      c.create(bare('a'));
      c.create(bare('b'));
      c.remove('Pod', 'default', 'a');
    }
    assert.deepEqual(kept.eventsSince(1).map((e) => `${e.rv} ${e.event.type} ${e.event.object.metadata?.name}`), ['2 ADDED b', '3 DELETED a']);
    assert.deepEqual(none.eventsSince(3), []);
    assert.throws(() => none.eventsSince(2), (e) => e instanceof ApiError && e.code === 410);
    kept.compactHistory();
    assert.throws(() => kept.eventsSince(2), (e) => e instanceof ApiError && e.code === 410);
  });
});

describe('MemoryCluster: binding and status', () => {
  it('bind sets the node and PodScheduled=True and records the binding', async () => {
    const c = newCluster();
    c.create(makeNode('n1'));
    const p = c.create(bare('p'));
    await c.bind(p, 'n1');
    const bound = c.getPod('default', 'p')!;
    assert.equal(bound.spec.nodeName, 'n1');
    assert.equal(bound.status?.conditions?.find((x) => x.type === 'PodScheduled')?.status, 'True');
    assert.deepEqual(c.bindings, [{ pod: 'default/p', node: 'n1', time: 1_000 }]);
  });

  it('bind refuses an assigned pod (409), an unknown pod (404); binds to a node it does not have, as kube-apiserver does', async () => {
    const c = newCluster();
    c.create(makeNode('n1'));
    const p = c.create(bare('p'));
    await c.bind(p, 'n1');
    await rejects(c.bind(p, 'n1'), 409);
    await rejects(c.bind(bare('ghost'), 'n1'), 404);
    const q = c.create(bare('q'));
    await rejects(c.bind({ ...q, metadata: { ...q.metadata, uid: 'other-uid' } }, 'n1'), 404);
    await c.bind(q, 'gone');
    assert.equal(c.getPod('default', 'q')?.spec.nodeName, 'gone');
    assert.deepEqual(c.bindings.map((b) => b.node), ['n1', 'gone']);
  });

  it('bind refuses, as the binding subresource does (409), a pod being deleted and a gated pod', async () => {
    const c = newCluster();
    c.create(makeNode('n1'));
    const deleting = c.create({ ...bare('deleting'), metadata: { name: 'deleting', finalizers: ['x/y'] } });
    const marked = c.update({ ...deleting, metadata: { ...deleting.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } });
    const gated = c.create({ ...bare('gated'), spec: { ...bare('gated').spec, schedulingGates: [{ name: 'wait' }] } });
    for (const [pod, why] of [[marked, 'pod deleting is being deleted, cannot be assigned to a host'], [gated, 'pod gated has non-empty .spec.schedulingGates']] as const) {
      await assert.rejects(c.bind(pod, 'n1'), (e: unknown) => e instanceof ApiError && e.code === 409 && e.message === `Operation cannot be fulfilled on pods/binding "${pod.metadata.name}": ${why}`);
    }
    assert.deepEqual(c.bindings, []);
  });

  it('injected faults fail the next calls of that operation only', async () => {
    const c = newCluster();
    c.create(makeNode('n1'));
    const p = c.create(bare('p'));
    c.injectFault('bind', 409, 2, 'conflict');
    await assert.rejects(c.bind(p, 'n1'), { message: 'conflict' });
    await rejects(c.bind(p, 'n1'), 409);
    await c.updatePodStatus(p, { nominatedNodeName: 'n1' });
    await c.bind(p, 'n1');
    assert.equal(c.bindings.length, 1);
    c.injectFault('deletePod', 500);
    await rejects(c.deletePod(p), 500);
  });

  it('reads a pod as stored, null when missing; an injected fault fails the read', async () => {
    const c = newCluster();
    c.create(makeNode('n1'));
    const p = c.create(bare('p'));
    await c.bind(p, 'n1');
    assert.equal((await c.readPod('default', 'p'))?.spec.nodeName, 'n1');
    assert.equal(await c.readPod('default', 'ghost'), null);
    c.injectFault('readPod', 503);
    await rejects(c.readPod('default', 'p'), 503);
    assert.equal((await c.readPod('default', 'p'))?.metadata.uid, p.metadata.uid);
  });

  it('status patches set or replace conditions and set or clear the nomination', async () => {
    const clock = new FakeClock(0);
    const c = new MemoryCluster({ clock });
    const p = c.create(bare('p'));
    const cond = (message: string, t: number) => ({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastTransitionTime: new Date(t).toISOString() });
    await c.updatePodStatus(p, { condition: cond('first', 0), nominatedNodeName: 'n1' });
    clock.advance(5000);
    await c.updatePodStatus(p, { condition: cond('second', 5000) });
    let cur = c.getPod('default', 'p')!;
    const conds = cur.status!.conditions!.filter((x) => x.type === 'PodScheduled');
    assert.equal(conds.length, 1);
    assert.equal(conds[0]!.message, 'second');
    assert.equal(conds[0]!.lastTransitionTime, new Date(0).toISOString(), 'same status: the transition time stays');
    assert.equal(cur.status!.nominatedNodeName, 'n1');
    await c.updatePodStatus(p, { nominatedNodeName: '' });
    cur = c.getPod('default', 'p')!;
    assert.equal(cur.status!.nominatedNodeName, undefined);
    await rejects(c.updatePodStatus(bare('ghost'), {}), 404);
  });

  it('deletePod removes the pod; a second delete is a 404', async () => {
    const c = newCluster();
    const p = c.create(bare('p'));
    await c.deletePod(p);
    assert.equal(c.getPod('default', 'p'), undefined);
    await rejects(c.deletePod(p), 404);
  });

  it('records events and lists nodes', () => {
    const c = newCluster();
    c.create(makeNode('a'));
    c.create(makeNode('b'));
    c.recordEvent({ regarding: { kind: 'Pod', namespace: 'default', name: 'p' }, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: 'x', time: 0 });
    assert.equal(c.recordedEvents.length, 1);
    assert.deepEqual(c.listNodes().map((n) => n.metadata.name), ['a', 'b']);
    assert.equal(makePod('x').kind, 'Pod');
  });

  it('logs each binding unless keepBindings is false', async () => {
    for (const keepBindings of [undefined, false]) {
      const c = new MemoryCluster({ clock: new FakeClock(5), keepBindings });
      c.create(makeNode('a'));
      await c.bind(c.create(bare('p')), 'a');
      assert.equal(c.getPod('default', 'p')?.spec.nodeName, 'a');
      assert.deepEqual(c.bindings, keepBindings === false ? [] : [{ pod: 'default/p', node: 'a', time: 5 }]);
    }
  });

  it('keeps the most recent recordedEventsLimit events (at most twice as many), or none with 0', () => {
    const event = (i: number): ClusterEventRecord => ({ regarding: { kind: 'Pod', namespace: 'default', name: `p${i}` }, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: `${i}`, time: i });
    const c = new MemoryCluster({ clock: new FakeClock(0), recordedEventsLimit: 3 });
    for (let i = 0; i < 7; i++) c.recordEvent(event(i));
    assert.deepEqual(c.recordedEvents.map((e) => e.note), ['4', '5', '6']);
    for (let i = 7; i < 10; i++) c.recordEvent(event(i));
    assert.deepEqual(c.recordedEvents.map((e) => e.note), ['4', '5', '6', '7', '8', '9']);
    const none = new MemoryCluster({ clock: new FakeClock(0), recordedEventsLimit: 0 });
    none.recordEvent(event(0));
    assert.deepEqual(none.recordedEvents, []);
  });
});

describe('MemoryCluster: claim and pod writes that share stored parts', () => {
  const claimOf = (c: MemoryCluster): ResourceClaim => c.create<ResourceClaim>({
    apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'rc', namespace: 'default' },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } },
  });

  it('an update giving back the stored spec keeps that object, and still checks metadata', async () => {
    const c = newCluster();
    const stored = claimOf(c);
    const next = await c.updateResourceClaim({ ...stored, metadata: { ...stored.metadata, finalizers: ['resource.kubernetes.io/delete-protection'] } });
    assert.equal(next.spec, stored.spec, 'the immutable spec is shared, not copied');
    assert.deepEqual(next.metadata.finalizers, ['resource.kubernetes.io/delete-protection']);
    assert.equal(next.spec.devices!.requests![0]!.exactly!.allocationMode, 'ExactCount', 'defaulted when stored');
    await rejects(c.updateResourceClaim({ ...next, metadata: { ...next.metadata, labels: { 'bad label!': 'x' } } }), 422);
  });

  it('an update with a changed spec is refused as immutable', async () => {
    const c = newCluster();
    const stored = claimOf(c);
    const changed = { ...stored, spec: { devices: { requests: [{ name: 'other', exactly: { deviceClassName: 'gpu' } }] } } };
    await assert.rejects(c.updateResourceClaim(changed), (e) => e instanceof ApiError && e.code === 422 && /spec: Invalid value: .*field is immutable/.test(e.message));
  });

  it("setPodResourceClaimStatuses sets only that field of the stored pod's status", () => {
    const c = newCluster();
    const p = c.create(bare('p'));
    const seen: WatchEvent[] = [];
    c.subscribe((ve) => seen.push(ve.event));
    const next = c.setPodResourceClaimStatuses(p, [{ name: 'gpu', resourceClaimName: 'p-gpu-abcde' }]);
    assert.deepEqual(next.status?.resourceClaimStatuses, [{ name: 'gpu', resourceClaimName: 'p-gpu-abcde' }]);
    assert.equal(next.spec, p.spec, 'the spec is shared');
    assert.equal(next.status?.conditions, p.status?.conditions, 'no conditions list is made up');
    assert.notEqual(next.metadata.resourceVersion, p.metadata.resourceVersion);
    assert.equal(p.status?.resourceClaimStatuses, undefined, 'the stored version is left as it was');
    assert.deepEqual(seen.map((e) => [e.type, e.kind]), [['MODIFIED', 'Pod']]);
  });
});

describe('MemoryCluster: generateName', () => {
  const generated = (prefix: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { generateName: prefix, namespace: 'default' }, spec: { containers: [{ name: 'c' }] } });

  it('generates another name when the first is taken, as the API server retries, and answers 409 after eight', () => {
    let i = 0;
    // Five draws a name: bbbbb, bbbbb, ccccc, then bbbbb for ever.
    const draws = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.04, 0.04, 0.04, 0.04, 0.04];
    const c = new MemoryCluster({ clock: new FakeClock(0), random: () => draws[i++] ?? 0 });
    assert.equal(c.create(generated('g-')).metadata.name, 'g-bbbbb');
    assert.equal(c.create(generated('g-')).metadata.name, 'g-ccccc');
    assert.throws(() => c.create(generated('g-')), (e: unknown) => e instanceof ApiError && e.code === 409);
    assert.equal(c.list('Pod').length, 2);
    assert.equal(c.create(generated('other-')).metadata.name, 'other-bbbbb', 'names are per prefix');
  });

  it('cuts a long prefix so the generated name has 63 characters', async () => {
    const c = new MemoryCluster({ clock: new FakeClock(0), random: () => 0 });
    assert.equal(c.create(generated('p'.repeat(80))).metadata.name, `${'p'.repeat(58)}bbbbb`);
    // A claim for a pod with a long name (the scheduler's extended-resources claim, a template's
    // claim) is valid: its name was 70 characters and refused before.
    const claim = await c.createResourceClaim({
      apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { generateName: `${'long-pod-name-'.repeat(4)}-extended-resources-`, namespace: 'default' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } },
    });
    assert.equal(claim.metadata.name?.length, 63);
  });
});

describe('MemoryCluster: keys', () => {
  it('stores an object under the key lookups build (the flat form of keyInKind): a node under its name, a pod under namespace/name', () => {
    const objects = [makePod('p', {}), { ...makePod('q', {}), metadata: { name: 'q' } }, makeNode('n', {}), { ...makeNode('m', {}), metadata: { name: 'm', namespace: 'ignored' } }];
    for (const o of objects) assert.equal(storedKeyInKind(o), keyInKindOf(o));
    assert.deepEqual(objects.map(storedKeyInKind), ['default/p', 'default/q', 'n', 'm']);
    assert.deepEqual(objects.map(objectKey), ['Pod/default/p', 'Pod/default/q', 'Node//n', 'Node//m'], 'objectKey, for maps of every kind, names the kind');
  });

  it('keys are per kind: a Namespace and a ConfigMap named alike are both kept, a node is found by its name alone', () => {
    const c = newCluster();
    const objects: KubeObject[] = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'default', namespace: 'default' } },
      makeNode('default', {}),
    ];
    for (const o of objects) c.create(o);
    assert.equal(c.get('Namespace', '', 'default')?.kind, 'Namespace');
    assert.equal(c.get('ConfigMap', 'default', 'default')?.kind, 'ConfigMap');
    assert.equal(c.get('Node', 'any', 'default')?.kind, 'Node');
    assert.equal(c.get('ConfigMap', 'other', 'default'), undefined);
  });
});
