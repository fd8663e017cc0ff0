// NodeInfo's row of numbers must always agree with its Resource objects and its node, through
// every cache operation and snapshot update (the hot loops read only the row).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Pod } from '../api/types.js';
import { Cache } from '../cache/cache.js';
import { Snapshot } from '../cache/snapshot.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import type { NodeInfo } from './node_info.js';
import { PodInfo } from './pod_info.js';

function assertRowMatches(ni: NodeInfo): void {
  const where = `node ${ni.name}`;
  assert.equal(ni.allocatableMilliCPU, ni.allocatable.milliCPU, where);
  assert.equal(ni.allocatableMemory, ni.allocatable.memory, where);
  assert.equal(ni.allocatableEphemeralStorage, ni.allocatable.ephemeralStorage, where);
  assert.equal(ni.allowedPodNumber, ni.allocatable.allowedPodNumber, where);
  assert.equal(ni.requestedMilliCPU, ni.requested.milliCPU, where);
  assert.equal(ni.requestedMemory, ni.requested.memory, where);
  assert.equal(ni.requestedEphemeralStorage, ni.requested.ephemeralStorage, where);
  assert.equal(ni.nonZeroRequestedMilliCPU, ni.nonZeroRequested.milliCPU, where);
  assert.equal(ni.nonZeroRequestedMemory, ni.nonZeroRequested.memory, where);
  assert.equal(ni.podCount, ni.pods.length, where);
  const spec = ni.node?.spec;
  assert.equal(ni.unschedulable, !!spec?.unschedulable, where);
  assert.equal(ni.hasTaints(), !!spec?.taints?.length, where);
  assert.equal(ni.hasImages(), ni.imageStates.size > 0, where);
}

function randomNode(rand: () => number, name: string): Node {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  return makeNode(name, {
    allocatable: { cpu: pick(['2', '4', '3500m']), memory: pick(['8Gi', '32Gi', '1000Mi']), pods: pick(['10', '110']), 'ephemeral-storage': pick(['0', '20Gi']) },
    taints: rand() < 0.3 ? [{ key: 'k', value: 'v', effect: pick(['NoSchedule', 'PreferNoSchedule'] as const) }] : undefined,
    unschedulable: rand() < 0.2,
    images: rand() < 0.3 ? [{ names: ['img:1'], sizeBytes: 50 * 1024 * 1024 }] : undefined,
  });
}

function randomPod(rand: () => number, name: string, node: string): Pod {
  const requests = rand() < 0.2 ? undefined : { cpu: `${1 + Math.floor(rand() * 500)}m`, memory: `${1 + Math.floor(rand() * 900)}Mi`, ...(rand() < 0.3 ? { 'ephemeral-storage': '1Gi' } : {}) };
  return makePod(name, { node, requests });
}

describe('NodeInfo row of numbers', () => {
  it('agrees with the Resource objects through random cache operations and snapshot updates', () => {
    const rand = seededRandom(7);
    const cache = new Cache(new FakeClock());
    const snapshot = new Snapshot();
    const nodes = new Set<string>();
    const pods = new Map<string, Pod>();
    const assumed = new Map<string, PodInfo>();
    let seq = 0;
    for (let step = 0; step < 600; step++) {
      const r = rand();
      const nodeList = [...nodes];
      const anyNode = () => nodeList[Math.floor(rand() * nodeList.length)]!;
      if (r < 0.15 || nodes.size === 0) {
        const name = `n${seq++}`;
        nodes.add(name);
        cache.addNode(randomNode(rand, name));
      } else if (r < 0.2) {
        const name = anyNode();
        cache.updateNode(cache.nodeInfo(name)!.node!, randomNode(rand, name));
      } else if (r < 0.23) {
        const name = anyNode();
        nodes.delete(name);
        cache.removeNode(cache.nodeInfo(name)!.node!);
      } else if (r < 0.55) {
        const p = randomPod(rand, `p${seq++}`, anyNode());
        pods.set(p.metadata.name!, p);
        cache.addPod(p);
      } else if (r < 0.7) {
        const p = randomPod(rand, `a${seq++}`, anyNode());
        const pi = new PodInfo(p);
        cache.assumePod(pi);
        assumed.set(p.metadata.name!, pi);
      } else if (r < 0.8 && assumed.size > 0) {
        const [name, pi] = [...assumed][0]!;
        assumed.delete(name);
        if (rand() < 0.5) cache.forgetPod(pi.pod);
        else cache.addPod({ ...pi.pod, status: { conditions: [{ type: 'PodScheduled', status: 'True' }] } });
      } else if (pods.size > 0) {
        const [name, p] = [...pods][Math.floor(rand() * pods.size)]!;
        pods.delete(name);
        cache.removePod(p);
      }
      if (rand() < 0.7) {
        cache.updateSnapshot(snapshot);
        snapshot.nodeInfoList.forEach((ni, i) => {
          assert.equal(ni.position, i, `position of node ${ni.name}`);
          assertRowMatches(ni);
          assertRowMatches(ni.clone());
        });
      }
    }
  });

  it('keeps the values when a snapshot packs the rows in list order', () => {
    const s = Snapshot.fromObjects(
      [makePod('p', { node: 'b', requests: { cpu: '300m', memory: '1Gi' } })],
      [makeNode('a', { taints: [{ key: 'x', effect: 'NoSchedule' }] }), makeNode('b', { unschedulable: true })],
    );
    const [a, b] = s.nodeInfoList;
    assert.deepEqual([a!.position, b!.position], [0, 1]);
    assertRowMatches(a!);
    assertRowMatches(b!);
    assert.equal(b!.requestedMilliCPU, 300);
    assert.equal(b!.unschedulable, true);
    assert.equal(a!.hasTaints(), true);
    // A copy gets its own row and no position: changing it leaves the snapshot's untouched.
    const copy = b!.clone();
    assert.equal(copy.position, -1);
    copy.addPod(new PodInfo(makePod('q', { node: 'b', requests: { cpu: '100m' } })));
    assertRowMatches(copy);
    assert.equal(copy.requestedMilliCPU, 400);
    assert.equal(b!.requestedMilliCPU, 300);
  });
});

describe('PodInfo.derive', () => {
  it('reuses the derived data when only the binding and conditions changed', () => {
    const pod = makePod('p', { requests: { cpu: '100m' } });
    const first = new PodInfo(pod);
    const bound: Pod = { ...pod, metadata: { ...pod.metadata }, spec: { ...pod.spec, nodeName: 'n' }, status: { conditions: [{ type: 'PodScheduled', status: 'True' }] } };
    const next = PodInfo.derive(first, bound);
    assert.equal(next.requests, first.requests);
    assert.equal(next.pod, bound);
  });

  it('computes afresh when containers or container statuses changed', () => {
    const pod = makePod('p', { requests: { cpu: '100m' } });
    const first = new PodInfo(pod);
    const resized: Pod = { ...pod, spec: { ...pod.spec, containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '200m' } } }] } };
    assert.equal(PodInfo.derive(first, resized).requests.resource.milliCPU, 200);
    const withStatus: Pod = { ...pod, status: { containerStatuses: [{ name: 'c', resources: { requests: { cpu: '300m' } } }] } as unknown as Pod['status'] };
    const derived = PodInfo.derive(first, withStatus);
    assert.notEqual(derived.requests, first.requests);
    assert.deepEqual(derived.requests, new PodInfo(withStatus).requests);
  });
});

describe('snapshot (anti-)affinity sublists kept incrementally', () => {
  it('match a full rebuild after random pods with and without affinity come and go', () => {
    const rand = seededRandom(3);
    const cache = new Cache(new FakeClock());
    const snapshot = new Snapshot();
    for (let i = 0; i < 30; i++) cache.addNode(makeNode(`n${i}`));
    const placed: Pod[] = [];
    const term = { labelSelector: { matchLabels: { app: 'a' } }, topologyKey: 'kubernetes.io/hostname' };
    for (let step = 0; step < 400; step++) {
      if (placed.length > 0 && rand() < 0.4) {
        const p = placed.splice(Math.floor(rand() * placed.length), 1)[0]!;
        cache.removePod(p);
      } else {
        const kind = rand();
        const affinity = kind < 0.3
          ? { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } }
          : kind < 0.6 ? { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } : undefined;
        const p = makePod(`p${step}`, { node: `n${Math.floor(rand() * 30)}`, labels: { app: 'a' }, spec: affinity ? { affinity } : {} });
        placed.push(p);
        cache.addPod(p);
      }
      if (rand() < 0.5) continue;
      cache.updateSnapshot(snapshot);
      const names = (l: readonly NodeInfo[]) => l.map((ni) => ni.name);
      const affinity = names(snapshot.havePodsWithAffinityList());
      const anti = names(snapshot.havePodsWithRequiredAntiAffinityList());
      snapshot.rebuildLists();
      assert.deepEqual(affinity, names(snapshot.havePodsWithAffinityList()), `step ${step}`);
      assert.deepEqual(anti, names(snapshot.havePodsWithRequiredAntiAffinityList()), `step ${step}`);
    }
  });
});
