// Scenarios of upstream's backend/cache/cache_test.go and snapshot_test.go: assumed pods, pod and
// node events, ghost nodes, image states and the incremental snapshot.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/types.js';
import { PodInfo } from '../framework/pod_info.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { Cache } from './cache.js';
import { Snapshot } from './snapshot.js';

const assigned = (name: string, node: string, cpu = '100m', extra: Partial<Pod['spec']> = {}) =>
  makePod(name, { node, requests: { cpu, memory: '100Mi' }, spec: extra });
const assumedOn = (pod: Pod, node: string) => new PodInfo({ ...pod, spec: { ...pod.spec, nodeName: node } });
const zoned = (name: string, zone: string, images?: { names: string[]; sizeBytes: number }[]) =>
  makeNode(name, { labels: { 'topology.kubernetes.io/zone': zone }, ...(images ? { images } : {}) });

const withAffinity = (name: string, node: string): Pod => assigned(name, node, '100m', {
  affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'db' } } }] } },
});
const withAntiAffinity = (name: string, node: string): Pod => assigned(name, node, '100m', {
  affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } }] } },
});

const milliCPU = (c: Cache, node: string) => c.nodeInfo(node)?.requested.milliCPU;
const listNames = (s: Snapshot) => s.list().map((n) => n.name);

describe('Cache: assumed pods', () => {
  it('isAssumedPod follows every way a pod stops being assumed (the cache counts them)', () => {
    const clock = new FakeClock();
    const c = new Cache(clock, 1000);
    c.addNode(makeNode('n1'));
    const [a, b, d, e] = ['a', 'b', 'd', 'e'].map((n) => makePod(n, { requests: { cpu: '100m' } }));
    for (const p of [a!, b!, d!, e!]) c.assumePod(assumedOn(p, 'n1'));
    assert.deepEqual([a, b, d, e].map((p) => c.isAssumedPod(p!)), [true, true, true, true]);
    c.addPod({ ...a!, spec: { ...a!.spec, nodeName: 'n1' } });
    c.forgetPod({ ...b!, spec: { ...b!.spec, nodeName: 'n1' } });
    c.removePod(d!);
    assert.deepEqual([a, b, d, e].map((p) => c.isAssumedPod(p!)), [false, false, false, true]);
    c.removePod(a!);
    assert.equal(c.isAssumedPod(e!), true, 'removing a confirmed pod leaves the assumed one');
    c.finishBinding(e!);
    clock.advance(1000);
    c.cleanupExpiredAssumedPods();
    assert.equal(c.isAssumedPod(e!), false);
    c.assumePod(assumedOn(e!, 'n1'));
    assert.equal(c.isAssumedPod(e!), true, 'assumed again after expiring');
  });

  it('an assumed pod counts on its node until the informer confirms it', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    const p = makePod('p', { requests: { cpu: '500m' } });
    c.assumePod(assumedOn(p, 'n1'));
    assert.equal(c.isAssumedPod(p), true);
    assert.equal(milliCPU(c, 'n1'), 500);
    c.finishBinding(p);
    c.addPod({ ...p, spec: { ...p.spec, nodeName: 'n1' } });
    assert.equal(c.isAssumedPod(p), false);
    assert.equal(c.nodeInfo('n1')!.pods.length, 1, 'confirmed, not counted twice');
    assert.equal(milliCPU(c, 'n1'), 500);
    assert.equal(c.podCount, 1);
  });

  it('forget undoes assume', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    const p = makePod('p', { requests: { cpu: '500m' } });
    c.assumePod(assumedOn(p, 'n1'));
    c.forgetPod({ ...p, spec: { ...p.spec, nodeName: 'n1' } });
    assert.equal(c.isAssumedPod(p), false);
    assert.equal(milliCPU(c, 'n1'), 0);
    assert.equal(c.podCount, 0);
    // Forgetting a pod the cache does not hold is a no-op.
    c.forgetPod({ ...p, spec: { ...p.spec, nodeName: 'n1' } });
  });

  it('refuses to assume a pod twice, to forget a confirmed pod, or to forget on the wrong node', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    const p = makePod('p');
    c.assumePod(assumedOn(p, 'n1'));
    assert.throws(() => c.assumePod(assumedOn(p, 'n1')), /is in the cache, so can't be assumed/);
    assert.throws(() => c.forgetPod({ ...p, spec: { ...p.spec, nodeName: 'n2' } }), /was assumed on n2 but assigned to n1/);
    const q = assigned('q', 'n1');
    c.addPod(q);
    assert.throws(() => c.forgetPod(q), /was added to the cache and can't be forgotten/);
  });

  it('a confirmation on another node moves the pod there', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    c.addNode(makeNode('n2'));
    const p = makePod('p', { requests: { cpu: '300m' } });
    c.assumePod(assumedOn(p, 'n1'));
    c.addPod({ ...p, spec: { ...p.spec, nodeName: 'n2' } });
    assert.equal(milliCPU(c, 'n1'), 0);
    assert.equal(milliCPU(c, 'n2'), 300);
  });

  it('an informer update of an assumed pod is ignored until it is confirmed', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    const p = makePod('p', { requests: { cpu: '300m' } });
    c.assumePod(assumedOn(p, 'n1'));
    c.updatePod(p, { ...p, spec: { ...p.spec, nodeName: 'n1', containers: [{ name: 'c', resources: { requests: { cpu: '2' } } }] } });
    assert.equal(milliCPU(c, 'n1'), 300);
    assert.equal(c.isAssumedPod(p), true);
  });

  it('expires assumed pods only after binding finished and the TTL passed', () => {
    const clock = new FakeClock();
    const c = new Cache(clock, 30_000);
    c.addNode(makeNode('n1'));
    const bound = makePod('bound');
    const pending = makePod('pending');
    c.assumePod(assumedOn(bound, 'n1'));
    c.assumePod(assumedOn(pending, 'n1'));
    c.finishBinding(bound);
    clock.advance(29_999);
    c.cleanupExpiredAssumedPods();
    assert.equal(c.podCount, 2);
    clock.advance(1);
    c.cleanupExpiredAssumedPods();
    assert.equal(c.isAssumedPod(bound), false);
    assert.equal(c.isAssumedPod(pending), true, 'binding not finished: never expires');
    assert.equal(c.nodeInfo('n1')!.pods.length, 1);
  });

  it('never expires assumed pods with the default TTL of 0', () => {
    const clock = new FakeClock();
    const c = new Cache(clock);
    c.addNode(makeNode('n1'));
    const p = makePod('p');
    c.assumePod(assumedOn(p, 'n1'));
    c.finishBinding(p);
    clock.advance(24 * 3600 * 1000);
    c.cleanupExpiredAssumedPods();
    assert.equal(c.isAssumedPod(p), true);
  });
});

describe('Cache: pod events', () => {
  it('add, update and remove keep the node aggregates right', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    const p = assigned('p', 'n1', '200m');
    c.addPod(p);
    assert.equal(milliCPU(c, 'n1'), 200);
    c.updatePod(p, assigned('p', 'n1', '700m'));
    assert.equal(milliCPU(c, 'n1'), 700);
    assert.equal(c.nodeInfo('n1')!.pods.length, 1);
    c.removePod(p);
    assert.equal(milliCPU(c, 'n1'), 0);
    assert.equal(c.podCount, 0);
    // Removing an unknown pod is a no-op.
    c.removePod(assigned('other', 'n1'));
  });

  it('a pod seen before its node creates a node-less entry, left out of the snapshot', () => {
    const c = new Cache(new FakeClock());
    c.addPod(assigned('early', 'later-node'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    assert.equal(s.get('later-node'), undefined);
    assert.deepEqual(listNames(s), []);
    c.addNode(makeNode('later-node'));
    c.updateSnapshot(s);
    assert.deepEqual(listNames(s), ['later-node']);
    assert.equal(s.get('later-node')!.pods.length, 1);
  });
});

describe('Cache: nodes', () => {
  it('a removed node with pods stays as a ghost until its pods go', () => {
    const c = new Cache(new FakeClock());
    const n1 = makeNode('n1');
    c.addNode(n1);
    c.addNode(makeNode('n2'));
    const p = assigned('p', 'n1');
    c.addPod(p);
    const s = new Snapshot();
    c.updateSnapshot(s);
    c.removeNode(n1);
    assert.equal(c.nodeCount, 1);
    assert.equal(c.nodeInfo('n1')!.node, null);
    assert.equal(c.nodeInfo('n1')!.pods.length, 1);
    c.updateSnapshot(s);
    assert.deepEqual(listNames(s), ['n2']);
    assert.equal(s.get('n1'), undefined, 'ghosts are not in the snapshot');
    c.removePod(p);
    assert.equal(c.nodeInfo('n1'), undefined);
    assert.throws(() => c.removeNode(n1), /node n1 is not found/);
  });

  it('re-adding a ghost node keeps its pods', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    c.addPod(assigned('p', 'n1', '250m'));
    c.removeNode(makeNode('n1'));
    c.addNode(makeNode('n1'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    assert.deepEqual(listNames(s), ['n1']);
    assert.equal(s.get('n1')!.requested.milliCPU, 250);
  });

  it('an update of an unknown node adds it; an update changes allocatable', () => {
    const c = new Cache(new FakeClock());
    c.updateNode(makeNode('n1'), makeNode('n1', { allocatable: { cpu: '2', memory: '1Gi', pods: '10' } }));
    assert.equal(c.nodeCount, 1);
    assert.equal(c.nodeInfo('n1')!.allocatable.milliCPU, 2000);
    c.updateNode(makeNode('n1'), makeNode('n1', { allocatable: { cpu: '8', memory: '1Gi', pods: '10' } }));
    assert.equal(c.nodeInfo('n1')!.allocatable.milliCPU, 8000);
    assert.equal(c.nodeCount, 1);
  });
});

describe('Cache: image states', () => {
  const img = (names: string[], size = 100) => ({ names, sizeBytes: size });
  it('counts the nodes that have each image name', () => {
    const c = new Cache(new FakeClock());
    c.addNode(zoned('a', 'z1', [img(['nginx:1', 'nginx@sha256:x'], 500), img(['redis:7'], 300)]));
    c.addNode(zoned('b', 'z1', [img(['nginx:1'], 500)]));
    const a = c.nodeInfo('a')!.imageStates;
    assert.equal(a.get('nginx:1')?.numNodes, 2);
    assert.equal(a.get('nginx@sha256:x')?.numNodes, 1);
    assert.equal(a.get('redis:7')?.numNodes, 1);
    assert.equal(a.get('nginx:1')?.size, 500);
    c.removeNode(zoned('b', 'z1', [img(['nginx:1'], 500)]));
    assert.equal(c.nodeInfo('a')!.imageStates.get('nginx:1')?.numNodes, 1);
    c.updateNode(zoned('a', 'z1'), zoned('a', 'z1', [img(['redis:7'], 300)]));
    assert.equal(c.nodeInfo('a')!.imageStates.has('nginx:1'), false);
    c.addNode(zoned('c', 'z1', [img(['nginx:1'], 999)]));
    assert.equal(c.nodeInfo('c')!.imageStates.get('nginx:1')?.numNodes, 1, 'the state of an image no node has any more was dropped');
    assert.equal(c.nodeInfo('c')!.imageStates.get('nginx:1')?.size, 999);
  });

  it('the snapshot keeps each node copy\'s counts from when it was copied, as upstream', () => {
    const c = new Cache(new FakeClock());
    const s = new Snapshot();
    c.addNode(zoned('a', 'z1', [img(['nginx:1'])]));
    c.updateSnapshot(s);
    assert.equal(s.get('a')!.imageStates.get('nginx:1')?.numNodes, 1);
    c.addNode(zoned('b', 'z1', [img(['nginx:1'])]));
    c.updateSnapshot(s);
    assert.equal(s.get('b')!.imageStates.get('nginx:1')?.numNodes, 2);
    assert.equal(s.get('a')!.imageStates.get('nginx:1')?.numNodes, 1, 'node a was not copied again');
    c.addPod(assigned('p', 'a'));
    c.updateSnapshot(s);
    assert.equal(s.get('a')!.imageStates.get('nginx:1')?.numNodes, 2, 'a fresh copy of a sees the new count');
  });
});

describe('Cache: updateSnapshot', () => {
  it('orders nodes round-robin over zones', () => {
    const c = new Cache(new FakeClock());
    for (const n of [zoned('a1', 'A'), zoned('a2', 'A'), zoned('b1', 'B'), zoned('a3', 'A'), zoned('c1', 'C'), zoned('b2', 'B')]) c.addNode(n);
    const s = new Snapshot();
    c.updateSnapshot(s);
    assert.deepEqual(listNames(s), ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    assert.equal(s.nodeInfoMap.size, 6);
  });

  it('copies only the nodes that changed, in place, and logs them', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    c.addNode(makeNode('n2'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    const before1 = s.get('n1')!;
    const before2 = s.get('n2')!;
    const gen1 = before1.generation;
    const gen2 = before2.generation;
    const epoch = s.listEpoch;
    const cursor = s.changeCursor;
    c.addPod(assigned('p', 'n2', '400m'));
    c.updateSnapshot(s);
    assert.equal(s.get('n1'), before1, 'unchanged node keeps its copy');
    assert.equal(s.get('n1')!.generation, gen1);
    // As upstream's UpdateSnapshot, the NodeInfo object is kept and its contents replaced.
    assert.equal(s.get('n2'), before2);
    assert.notEqual(s.get('n2')!.generation, gen2);
    assert.equal(s.get('n2')!.requested.milliCPU, 400);
    assert.equal(s.list()[1], s.get('n2'), 'the list holds the same object');
    assert.equal(s.listEpoch, epoch, 'no node was added or removed');
    assert.deepEqual(s.changedSince(epoch, cursor)?.map((ni) => ni.name), ['n2']);
    assert.deepEqual(s.changedSince(epoch, s.changeCursor), []);
    c.addNode(makeNode('n3'));
    c.updateSnapshot(s);
    assert.notEqual(s.listEpoch, epoch, 'a new node starts a new epoch');
    assert.equal(s.changedSince(epoch, cursor), null, 'callers of an old epoch must look at every node');
    // The cache's own NodeInfo is not shared with the snapshot.
    c.addPod(assigned('q', 'n2', '100m'));
    assert.equal(s.get('n2')!.requested.milliCPU, 400);
  });

  it('keeps the sublists of nodes with (anti-)affinity pods in step as pods come and go', () => {
    const c = new Cache(new FakeClock());
    for (const n of ['n1', 'n2', 'n3']) c.addNode(makeNode(n));
    const s = new Snapshot();
    c.updateSnapshot(s);
    assert.deepEqual(s.havePodsWithAffinityList(), []);

    const aff = withAffinity('aff', 'n2');
    c.addPod(aff);
    c.updateSnapshot(s);
    assert.deepEqual(s.havePodsWithAffinityList().map((n) => n.name), ['n2']);
    assert.equal(s.havePodsWithAffinityList()[0], s.get('n2'));
    assert.deepEqual(s.havePodsWithRequiredAntiAffinityList(), []);

    const anti = withAntiAffinity('anti', 'n3');
    c.addPod(anti);
    c.addPod(withAffinity('aff2', 'n2'));
    c.updateSnapshot(s);
    assert.deepEqual(s.havePodsWithAffinityList().map((n) => n.name), ['n2', 'n3'], 'anti-affinity counts as affinity too');
    assert.deepEqual(s.havePodsWithRequiredAntiAffinityList().map((n) => n.name), ['n3']);
    assert.equal(s.havePodsWithAffinityList()[0], s.get('n2'), 'the sublist holds the latest copy');
    assert.equal(s.get('n2')!.podsWithAffinity.length, 2);

    // A plain pod on a listed node: the sublist entry is refreshed, membership unchanged.
    c.addPod(assigned('plain', 'n3'));
    c.updateSnapshot(s);
    assert.equal(s.havePodsWithRequiredAntiAffinityList()[0], s.get('n3'));
    assert.equal(s.havePodsWithAffinityList()[1], s.get('n3'));

    c.removePod(anti);
    c.removePod(aff);
    c.updateSnapshot(s);
    assert.deepEqual(s.havePodsWithAffinityList().map((n) => n.name), ['n2']);
    assert.deepEqual(s.havePodsWithRequiredAntiAffinityList(), []);

    c.removePod(withAffinity('aff2', 'n2'));
    c.updateSnapshot(s);
    assert.deepEqual(s.havePodsWithAffinityList(), []);
  });

  it('drops removed nodes and adds new ones in zone order', () => {
    const c = new Cache(new FakeClock());
    c.addNode(zoned('a1', 'A'));
    c.addNode(zoned('b1', 'B'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    c.removeNode(zoned('a1', 'A'));
    c.addNode(zoned('a2', 'A'));
    c.addNode(zoned('b2', 'B'));
    c.updateSnapshot(s);
    assert.deepEqual(listNames(s), ['b1', 'a2', 'b2']);
    assert.equal(s.get('a1'), undefined);
  });

  it('a zone relabel keeps the snapshot order until a node is added or removed, as upstream', () => {
    const c = new Cache(new FakeClock());
    for (const n of [zoned('a1', 'A'), zoned('a2', 'A'), zoned('b1', 'B')]) c.addNode(n);
    const s = new Snapshot();
    c.updateSnapshot(s);
    assert.deepEqual(listNames(s), ['a1', 'b1', 'a2']);
    c.updateNode(zoned('a1', 'A'), zoned('a1', 'B'));
    c.updateSnapshot(s);
    assert.deepEqual(listNames(s), ['a1', 'b1', 'a2'], 'order kept');
    assert.equal(s.get('a1')!.node!.metadata.labels!['topology.kubernetes.io/zone'], 'B', 'content refreshed');
    c.addNode(zoned('c1', 'C'));
    c.updateSnapshot(s);
    assert.deepEqual(listNames(s), ['a2', 'b1', 'c1', 'a1']);
  });

  it('tracks the PVCs used by scheduled pods', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    const withClaim = assigned('p', 'n1', '100m', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] });
    c.addPod(withClaim);
    c.updateSnapshot(s);
    assert.deepEqual([...s.usedPVCSet], ['default/data']);
    c.removePod(withClaim);
    c.updateSnapshot(s);
    assert.deepEqual([...s.usedPVCSet], []);
  });

  it('keeps a PVC in use while any node still holds a pod using it', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    c.addNode(makeNode('n2'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    const claim = (name: string) => ({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: name } }] });
    const p1 = assigned('p1', 'n1', '100m', claim('shared'));
    const p2 = assigned('p2', 'n2', '100m', claim('shared'));
    const p3 = assigned('p3', 'n2', '100m', claim('own'));
    c.addPod(p1);
    c.addPod(p2);
    c.addPod(p3);
    c.updateSnapshot(s);
    assert.deepEqual([...s.usedPVCSet].sort(), ['default/own', 'default/shared']);
    c.removePod(p1);
    c.updateSnapshot(s);
    assert.deepEqual([...s.usedPVCSet].sort(), ['default/own', 'default/shared'], 'n2 still uses shared');
    c.removePod(p2);
    c.updateSnapshot(s);
    assert.deepEqual([...s.usedPVCSet], ['default/own']);
    c.addPod(p1);
    c.removePod(p3);
    c.updateSnapshot(s);
    assert.deepEqual([...s.usedPVCSet], ['default/shared']);
    c.addNode(makeNode('n3'));
    c.updateSnapshot(s);
    assert.deepEqual([...s.usedPVCSet], ['default/shared'], 'a rebuilt list gives the same set');
  });

  it('counts a node\'s claims in a map of its own (nodes without claims share an empty one)', () => {
    const c = new Cache(new FakeClock());
    for (const n of ['n1', 'n2', 'n3']) c.addNode(makeNode(n));
    const s = new Snapshot();
    c.updateSnapshot(s);
    const p1 = assigned('p1', 'n1', '100m', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] });
    c.addPod(p1);
    c.updateSnapshot(s);
    const counts = (n: string) => [...s.nodeInfoMap.get(n)!.pvcRefCounts];
    assert.deepEqual(counts('n1'), [['default/data', 1]]);
    assert.deepEqual(counts('n2'), []);
    assert.deepEqual(counts('n3'), []);
    const copy = s.nodeInfoMap.get('n2')!.clone();
    copy.addPod(new PodInfo(assigned('p2', 'n2', '100m', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'other' } }] })));
    assert.deepEqual([...copy.pvcRefCounts], [['default/other', 1]]);
    assert.deepEqual(counts('n2'), [], 'the copy\'s claim stays in the copy');
    assert.deepEqual(counts('n3'), []);
    c.removePod(p1);
    c.updateSnapshot(s);
    assert.deepEqual(counts('n1'), []);
  });

  it('a node new to the snapshot is shared, not copied: a write to the cache leaves the snapshot as it was', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    c.addNode(makeNode('n2'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    const inSnapshot = s.get('n1')!;
    assert.equal(c.nodeInfo('n1'), inSnapshot, 'no copy for the first snapshot');
    c.addPod(assigned('p', 'n1', '300m'));
    c.assumePod(assumedOn(makePod('q', { requests: { cpu: '200m' } }), 'n2'));
    assert.notEqual(c.nodeInfo('n1'), inSnapshot, 'the cache copied before writing');
    assert.equal(inSnapshot.pods.length, 0);
    assert.equal(inSnapshot.requested.milliCPU, 0);
    assert.equal(s.get('n2')!.podCount, 0);
    assert.equal(milliCPU(c, 'n1'), 300);
    c.updateSnapshot(s);
    assert.equal(s.get('n1'), inSnapshot, 'updated in place, as upstream keeps the pointers');
    assert.equal(inSnapshot.requested.milliCPU, 300);
    assert.equal(s.get('n2')!.requested.milliCPU, 200);
    c.addPod(assigned('r', 'n1', '100m'));
    assert.equal(inSnapshot.requested.milliCPU, 300, 'no longer shared: the cache writes its own copy');
    c.updateSnapshot(s);
    assert.equal(inSnapshot.requested.milliCPU, 400);
  });

  it('a shared node removed or changed in the cache stays whole in the snapshot until the next update', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1', { allocatable: { cpu: '2', memory: '1Gi', pods: '10' } }));
    c.addNode(makeNode('n2'));
    c.addPod(assigned('p', 'n2'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    const n1 = s.get('n1')!;
    const n2 = s.get('n2')!;
    c.updateNode(makeNode('n1'), makeNode('n1', { allocatable: { cpu: '8', memory: '1Gi', pods: '10' } }));
    c.removeNode(makeNode('n2'));
    assert.equal(n1.allocatable.milliCPU, 2000);
    assert.equal(n2.node?.metadata.name, 'n2');
    assert.equal(n2.pods.length, 1);
    assert.equal(c.nodeInfo('n2')!.node, null, 'the cache keeps a ghost for the pod');
    c.updateSnapshot(s);
    assert.equal(s.get('n1'), n1);
    assert.equal(n1.allocatable.milliCPU, 8000);
    assert.equal(s.get('n2'), undefined);
    assert.deepEqual(listNames(s), ['n1']);
  });

  it('a snapshot NodeInfo changed in place after detachFromSnapshot leaves the cache alone; refreshInSnapshot restores it', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('n1'));
    const s = new Snapshot();
    c.updateSnapshot(s);
    c.detachFromSnapshot('n1');
    const edited = s.get('n1')!;
    edited.addPod(new PodInfo(assigned('tentative', 'n1', '500m')));
    assert.equal(milliCPU(c, 'n1'), 0, 'the cache did not see the edit');
    c.refreshInSnapshot('n1');
    c.updateSnapshot(s);
    assert.equal(s.get('n1'), edited);
    assert.equal(edited.requested.milliCPU, 0);
    assert.equal(edited.pods.length, 0);
  });

  it('a node with images is copied at once: the snapshot keeps its own image counts', () => {
    const c = new Cache(new FakeClock());
    c.addNode(zoned('a', 'z1', [{ names: ['nginx:1'], sizeBytes: 100 }]));
    const s = new Snapshot();
    c.updateSnapshot(s);
    assert.notEqual(s.get('a'), c.nodeInfo('a'));
    c.addNode(zoned('b', 'z1', [{ names: ['nginx:1'], sizeBytes: 100 }]));
    assert.equal(s.get('a')!.imageStates.get('nginx:1')?.numNodes, 1);
    assert.equal(c.nodeInfo('a')!.imageStates.get('nginx:1')?.numNodes, 2);
  });
});

describe('Cache: nodes the API server would have refused', () => {
  const snapshotOf = (c: Cache) => {
    const s = new Snapshot();
    c.updateSnapshot(s);
    return s;
  };
  const nullTaint = (name: string) => ({ ...makeNode(name), spec: { taints: [null as never] } });

  it('keeps a malformed node out, with the reason, and the other nodes in', () => {
    const c = new Cache(new FakeClock());
    c.addNode(makeNode('good'));
    c.addNode(nullTaint('bad'));
    assert.deepEqual(listNames(snapshotOf(c)), ['good']);
    assert.equal(c.invalidNodes.get('bad'), 'Node "bad" is invalid: spec.taints[0]: Invalid value: null: must be of type v1.Taint');
    assert.equal(c.nodeCount, 1);
  });

  it('drops a node that an update makes malformed and takes it back once fixed; pods stay on its ghost', () => {
    const c = new Cache(new FakeClock());
    const n = makeNode('n1');
    c.addNode(n);
    c.addPod(assigned('p', 'n1'));
    const broken = { ...n, status: { ...n.status, allocatable: { cpu: '4x' } } };
    c.updateNode(n, broken);
    assert.deepEqual(listNames(snapshotOf(c)), []);
    assert.equal(c.nodeInfo('n1')?.pods.length, 1, 'the pod is kept on the ghost');
    assert.match(c.invalidNodes.get('n1') ?? '', /^Node "n1" is invalid: status\.allocatable\.cpu: Invalid value: "4x"/);
    c.updateNode(broken, n);
    const s = snapshotOf(c);
    assert.deepEqual(listNames(s), ['n1']);
    assert.equal(s.get('n1')!.requested.milliCPU, 100);
    assert.equal(c.invalidNodes.size, 0);
  });

  it('removes a malformed node without complaint', () => {
    const c = new Cache(new FakeClock());
    c.addNode(nullTaint('bad'));
    c.removeNode(nullTaint('bad'));
    assert.equal(c.invalidNodes.size, 0);
    assert.throws(() => c.removeNode(makeNode('never')), /node never is not found/);
  });
});

describe('Cache: the snapshot under random changes (shared NodeInfos copied on write)', () => {
  /** What a NodeInfo says, in a form two of them can be compared by. */
  const digest = (ni: { name: string; node: unknown; pods: readonly { uid: string }[]; requested: { milliCPU: number; memory: number }; allocatable: { milliCPU: number }; podCount: number; requestedMilliCPU: number; allocatableMilliCPU: number }) =>
    JSON.stringify([ni.name, ni.node !== null, ni.pods.map((p) => p.uid).sort(), ni.requested.milliCPU, ni.requested.memory, ni.allocatable.milliCPU, ni.podCount, ni.requestedMilliCPU, ni.allocatableMilliCPU]);
  const snapshotDigest = (s: Snapshot) => s.list().map(digest).sort().join('\n');

  for (const seed of [1, 2, 3, 4, 5]) {
    it(`seed ${seed}: each update matches the cache, and the snapshot never changes between updates`, () => {
      const random = seededRandom(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      const c = new Cache(new FakeClock());
      const s = new Snapshot();
      const names = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'];
      const bound = new Map<string, Pod>();
      const assumed = new Map<string, Pod>();
      let seq = 0;
      for (const n of names.slice(0, 3)) c.addNode(makeNode(n, { allocatable: { cpu: '4', memory: '8Gi', pods: '20' } }));
      let frozen = '';
      for (let step = 0; step < 400; step++) {
        const op = random();
        const node = pick(names);
        if (op < 0.12) {
          c.updateSnapshot(s);
          for (const ni of s.list()) assert.equal(digest(ni), digest(c.nodeInfo(ni.name)!), `step ${step}: ${ni.name}`);
          const live = names.filter((n) => c.nodeInfo(n)?.node);
          assert.deepEqual(s.list().map((n) => n.name).sort(), live.sort(), `step ${step}: the node list`);
          frozen = snapshotDigest(s);
          continue;
        }
        if (op < 0.22) {
          const cpu = pick(['2', '4', '8']);
          if (c.nodeInfo(node)?.node) c.updateNode(makeNode(node), makeNode(node, { allocatable: { cpu, memory: '8Gi', pods: '20' } }));
          else c.addNode(makeNode(node, { allocatable: { cpu, memory: '8Gi', pods: '20' } }));
        } else if (op < 0.28) {
          if (c.nodeInfo(node)?.node) c.removeNode(makeNode(node));
        } else if (op < 0.5) {
          const p = assigned(`p${seq++}`, node, pick(['100m', '250m']));
          c.addPod(p);
          bound.set(p.metadata.uid ?? p.metadata.name!, p);
        } else if (op < 0.62) {
          const p = makePod(`a${seq++}`, { requests: { cpu: '300m' } });
          c.assumePod(assumedOn(p, node));
          assumed.set(p.metadata.name!, { ...p, spec: { ...p.spec, nodeName: node } });
        } else if (op < 0.7 && assumed.size > 0) {
          const p = pick([...assumed.values()]);
          assumed.delete(p.metadata.name!);
          c.forgetPod(p);
        } else if (op < 0.85 && bound.size > 0) {
          const [key, p] = pick([...bound.entries()]);
          bound.delete(key);
          c.removePod(p);
        } else if (op < 0.92) {
          // A pod group's cycle: an edit of the snapshot's copy in place, then undone by the cache.
          const ni = s.get(node);
          if (ni === undefined) continue;
          c.detachFromSnapshot(node);
          const before = digest(c.nodeInfo(node)!);
          ni.addPod(new PodInfo(assigned(`tentative${seq++}`, node, '500m')));
          assert.equal(digest(c.nodeInfo(node)!), before, `step ${step}: an edit of the snapshot reached the cache`);
          c.refreshInSnapshot(node);
          frozen = snapshotDigest(s);
          continue;
        }
        if (frozen !== '') assert.equal(snapshotDigest(s), frozen, `step ${step}: the snapshot changed without an update`);
      }
    });
  }
});
