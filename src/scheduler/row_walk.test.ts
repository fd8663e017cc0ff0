// The Filter walk and Score over the snapshot's packed rows (NodeResourcesFit's filterRows, the
// resource scorers' rows path) decide exactly as the walk over NodeInfo objects: same hosts, same
// feasible counts, same statuses and messages, with the same random draws.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod, ResourceList } from '../api/types.js';
import { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle_state.js';
import { defaultFeatures } from '../framework/features.js';
import type { AnyPlugin, QueuedPodInfo } from '../framework/interfaces.js';
import { NodeInfo } from '../framework/node_info.js';
import { MapObjectLister } from '../framework/object_lister.js';
import { PodInfo } from '../framework/pod_info.js';
import { Registry } from '../framework/registry.js';
import { FitError } from '../framework/runtime/fit_error.js';
import { Framework } from '../framework/runtime/framework.js';
import { defaultNodeResourcesBalancedAllocationArgs, defaultNodeResourcesFitArgs } from '../plugins/noderesources/args.js';
import { BalancedAllocation } from '../plugins/noderesources/balanced_allocation.js';
import { Fit } from '../plugins/noderesources/fit.js';
import { makeNode, makePod } from '../testing/builders.js';
import { FakeClock, seededRandom } from '../util/clock.js';
import { schedulePod, type AlgorithmState } from './schedule_pod.js';

const less = (a: QueuedPodInfo, b: QueuedPodInfo) => a.timestamp < b.timestamp;

/** A framework with NodeResourcesFit (whose Filter calls are counted) and BalancedAllocation. */
function resourcesFramework(): { fwk: Framework; filterCalls: () => number } {
  const fit = new Fit(defaultNodeResourcesFitArgs({}));
  const filter = fit.filter.bind(fit);
  let calls = 0;
  fit.filter = (state, pod, ni) => {
    calls++;
    return filter(state, pod, ni);
  };
  const balanced = new BalancedAllocation(defaultNodeResourcesBalancedAllocationArgs({}));
  const plugins: AnyPlugin[] = [{ name: 'QueueSort', less }, { name: 'Binder', bind: async () => null }, fit, balanced];
  const fwk = new Framework(
    {
      schedulerName: 'default-scheduler',
      plugins: {
        queueSort: { enabled: [{ name: 'QueueSort' }] },
        bind: { enabled: [{ name: 'Binder' }] },
        preFilter: { enabled: [{ name: fit.name }] },
        filter: { enabled: [{ name: fit.name }] },
        preScore: { enabled: [{ name: fit.name }, { name: balanced.name }] },
        score: { enabled: [{ name: fit.name, weight: 1 }, { name: balanced.name, weight: 1 }] },
      },
    },
    {
      registry: new Registry(plugins.map((p) => ({ name: p.name, factory: () => p }))),
      snapshot: () => new Snapshot(),
      objects: new MapObjectLister(),
      client: { bind: async () => {}, deletePod: async () => {}, clearNominatedNodeName: async () => {} },
      eventRecorder: { event: () => {} },
      nominator: { nominatedPodsForNode: () => [], hasNominatedPods: () => false },
      clock: new FakeClock(),
      random: () => 0,
      parallelism: 16,
      features: defaultFeatures,
    },
  );
  return { fwk, filterCalls: () => calls };
}

/** Nodes of varied sizes, some nearly full of pods, some with a GPU, some with ephemeral storage. */
function clusterNodes(count: number, random: () => number): Node[] {
  return Array.from({ length: count }, (_, i) => {
    const allocatable: ResourceList = {
      cpu: `${1 + Math.floor(random() * 8)}`,
      memory: `${1 + Math.floor(random() * 16)}Gi`,
      pods: `${1 + Math.floor(random() * 6)}`,
    };
    if (i % 7 === 0) allocatable['example.com/gpu'] = '2';
    if (i % 5 === 0) allocatable['ephemeral-storage'] = '10Gi';
    return makeNode(`n${String(i).padStart(3, '0')}`, { allocatable });
  });
}

/** A pending pod's requests: often small, sometimes larger than any node, a GPU or storage now and then. */
function podRequests(i: number, random: () => number): ResourceList | undefined {
  if (i % 11 === 0) return undefined;
  const requests: ResourceList = { cpu: `${Math.floor(random() * 1500) + 1}m`, memory: `${Math.floor(random() * 3000) + 1}Mi` };
  if (i % 13 === 0) requests.cpu = '20';
  if (i % 9 === 0) requests['example.com/gpu'] = '1';
  if (i % 6 === 0) requests['ephemeral-storage'] = '3Gi';
  return requests;
}

/** What a cycle decided: the host and counts, or the FitError's message and every node's status. */
function outcome(alg: AlgorithmState, fwk: Framework, snapshot: Snapshot, pod: Pod): string {
  try {
    const r = schedulePod(alg, fwk, new CycleState(), new PodInfo(pod), snapshot);
    if (r instanceof Promise) throw new Error('asynchronous without extenders');
    return `${r.suggestedHost} evaluated=${r.evaluatedNodes} feasible=${r.feasibleNodes} best=${r.bestNodes.join(',')}`;
  } catch (err) {
    if (!(err instanceof FitError)) throw err;
    const statuses = [...err.diagnosis.nodeToStatus.entries()].map(([name, s]) => `${name}:${s.code}:${s.reasons.join('/')}`);
    return `${err.message} | ${statuses.sort().join(' ')}`;
  }
}

/**
 * Two snapshots of the same nodes: `packed` walks its rows; `loose` holds a list that is not the
 * packed one, so the walk and Score fall back to the NodeInfo objects.
 */
function twoSnapshots(nodes: Parameters<typeof Snapshot.fromObjects>[1]): { packed: Snapshot; loose: Snapshot } {
  const packed = Snapshot.fromObjects([], nodes);
  const loose = Snapshot.fromObjects([], nodes);
  loose.nodeInfoList = loose.nodeInfoList.slice();
  return { packed, loose };
}

describe('the walk over the snapshot rows', () => {
  it('decides every pod as the walk over NodeInfo objects does, filtering only the refused nodes', () => {
    const random = seededRandom(27);
    const nodes = clusterNodes(240, random);
    const { packed: byRows, loose: byObjects } = twoSnapshots(nodes);
    const rowsSide = resourcesFramework();
    const objectsSide = resourcesFramework();
    for (const recordScores of [false, true]) {
      const algRows: AlgorithmState = { nextStartNodeIndex: 0, percentageOfNodesToScore: 0, random: seededRandom(3), tieBreakByName: false, recordScores };
      const algObjects: AlgorithmState = { ...algRows, random: seededRandom(3) };
      let placed = 0;
      for (let i = 0; i < 150; i++) {
        const pod = makePod(`p${recordScores}-${i}`, { requests: podRequests(i, random) });
        const got = outcome(algRows, rowsSide.fwk, byRows, pod);
        assert.equal(got, outcome(algObjects, objectsSide.fwk, byObjects, pod), `pod ${i}`);
        assert.equal(algRows.nextStartNodeIndex, algObjects.nextStartNodeIndex);
        if (got.includes('evaluated=')) {
          // Assume the pod on its host in both snapshots: later walks meet fuller rows.
          const host = got.split(' ')[0]!;
          const bound = new PodInfo({ ...pod, spec: { ...pod.spec, nodeName: host } });
          byRows.get(host)!.addPod(bound);
          byObjects.get(host)!.addPod(bound);
          placed++;
        }
      }
      assert.ok(placed > 50 && placed < 150, `some pods placed, some refused (${placed})`);
    }
    assert.ok(rowsSide.filterCalls() < objectsSide.filterCalls() / 2, `passing nodes read from rows (${rowsSide.filterCalls()} Filter calls against ${objectsSide.filterCalls()})`);
  });
});

describe('the reused feasible list', () => {
  it('is scored from the objects after a walk that had no rows, not from an earlier walk\'s rows', () => {
    const random = seededRandom(5);
    const nodes = clusterNodes(120, random);
    const { packed, loose } = twoSnapshots(nodes);
    // The packed snapshot's nodes are fuller: its rows would score the same nodes differently.
    for (const ni of packed.nodeInfoList) ni.addPod(new PodInfo(makePod(`x-${ni.name}`, { node: ni.name, requests: { cpu: '500m', memory: '512Mi' } })));
    const side = resourcesFramework();
    const shared: AlgorithmState = { nextStartNodeIndex: 0, percentageOfNodesToScore: 0, random: seededRandom(9), tieBreakByName: false, recordScores: true };
    for (let i = 0; i < 20; i++) {
      const pod = makePod(`q-${i}`, { requests: { cpu: '100m', memory: '64Mi' } });
      outcome(shared, side.fwk, packed, pod);
      const fresh: AlgorithmState = { ...shared, random: seededRandom(100 + i), feasibleRows: undefined, feasibleBuffer: undefined, totalsBuffer: undefined };
      shared.random = seededRandom(100 + i);
      const want = outcome(fresh, side.fwk, loose, pod);
      assert.equal(outcome(shared, side.fwk, loose, pod), want, `pod ${i}`);
    }
  });
});

describe('NodeRows', () => {
  it('reads by position what each NodeInfo getter reads, through pod and node changes', () => {
    const snapshot = Snapshot.fromObjects(
      [makePod('a', { node: 'n1', requests: { cpu: '500m', memory: '1Gi' } }), makePod('b', { node: 'n1' })],
      [makeNode('n0', { allocatable: { cpu: '2', memory: '4Gi', pods: '3', 'ephemeral-storage': '5Gi' } }), makeNode('n1')],
    );
    const rows = snapshot.rows;
    const check = (when: string) => {
      assert.ok(rows.covers(snapshot.nodeInfoList), when);
      snapshot.nodeInfoList.forEach((ni, at) => {
        const pairs: [string, number | boolean, number | boolean][] = [
          ['hasNode', rows.hasNode(at), ni.node !== null],
          ['generation', rows.generation(at), ni.generation],
          ['podCount', rows.podCount(at), ni.podCount],
          ['allowedPodNumber', rows.allowedPodNumber(at), ni.allowedPodNumber],
          ['allocatableMilliCPU', rows.allocatableMilliCPU(at), ni.allocatableMilliCPU],
          ['allocatableMemory', rows.allocatableMemory(at), ni.allocatableMemory],
          ['allocatableEphemeralStorage', rows.allocatableEphemeralStorage(at), ni.allocatableEphemeralStorage],
          ['requestedMilliCPU', rows.requestedMilliCPU(at), ni.requestedMilliCPU],
          ['requestedMemory', rows.requestedMemory(at), ni.requestedMemory],
          ['requestedEphemeralStorage', rows.requestedEphemeralStorage(at), ni.requestedEphemeralStorage],
          ['nonZeroRequestedMilliCPU', rows.nonZeroRequestedMilliCPU(at), ni.nonZeroRequestedMilliCPU],
          ['nonZeroRequestedMemory', rows.nonZeroRequestedMemory(at), ni.nonZeroRequestedMemory],
        ];
        for (const [name, row, object] of pairs) assert.equal(row, object, `${when}: ${ni.name} ${name}`);
      });
    };
    check('packed');
    const [n0, n1] = snapshot.nodeInfoList as [NodeInfo, NodeInfo];
    n0.addPod(new PodInfo(makePod('c', { node: 'n0', requests: { cpu: '1', 'ephemeral-storage': '1Gi' } })));
    check('pod added');
    n1.removePod(new PodInfo(makePod('a', { node: 'n1' })));
    check('pod removed');
    n0.copyFrom(n1.clone());
    check('copied in place');
    n1.removeNode();
    check('node removed');
    assert.equal(rows.hasNode(1), false);
    assert.equal(rows.covers(snapshot.nodeInfoList.slice()), false, 'another list');
  });
});
