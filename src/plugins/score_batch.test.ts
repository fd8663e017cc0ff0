// Every in-tree scoreNodes and scoreNodesInto (the batch forms the framework prefers) must give exactly what score
// gives node by node, on randomized clusters.
import { defaultFeatures } from '../framework/features.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Pod } from '../api/types.js';
import { Snapshot } from '../cache/snapshot.js';
import { CycleState } from '../framework/cycle_state.js';
import type { NodeScore, PreScorePlugin, ScorePlugin } from '../framework/interfaces.js';
import { PodInfo } from '../framework/pod_info.js';
import { Code, Status } from '../framework/status.js';
import { makeNode, makePod } from '../testing/builders.js';
import { newTestHandle } from '../testing/handle.js';
import { seededRandom } from '../util/clock.js';
import { fillImageStates, imageLocalityDefinition } from './imagelocality/index.js';
import { LeastAllocated, MostAllocated, RequestedToCapacityRatio, type ResourceSpec } from './noderesources/args.js';
import { BalancedAllocation } from './noderesources/balanced_allocation.js';
import { Fit } from './noderesources/fit.js';
import { TaintToleration } from './tainttoleration/taint_toleration.js';

const resources: ResourceSpec[] = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 2 },
  { name: 'ephemeral-storage', weight: 1 },
  { name: 'example.com/gpu', weight: 3 },
];

function randomCluster(rand: () => number): { nodes: Node[]; pods: Pod[] } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const nodes: Node[] = [];
  const pods: Pod[] = [];
  for (let i = 0; i < 40; i++) {
    const name = `n${i}`;
    nodes.push(makeNode(name, {
      allocatable: { cpu: pick(['2', '4']), memory: pick(['8Gi', '16Gi']), pods: '110', ...(rand() < 0.5 ? { 'ephemeral-storage': '50Gi' } : {}), ...(rand() < 0.3 ? { 'example.com/gpu': '4' } : {}) },
      taints: rand() < 0.4 ? [{ key: pick(['a', 'b']), effect: pick(['PreferNoSchedule', 'NoSchedule'] as const) }] : undefined,
      images: rand() < 0.4 ? [{ names: [pick(['img:1', 'other:2'])], sizeBytes: Math.floor(rand() * 900) * 1024 * 1024 }] : undefined,
    }));
    const count = Math.floor(rand() * 5);
    for (let j = 0; j < count; j++) {
      pods.push(makePod(`p${i}-${j}`, { node: name, requests: rand() < 0.3 ? undefined : { cpu: `${Math.floor(rand() * 900)}m`, memory: `${Math.floor(rand() * 2000)}Mi`, 'ephemeral-storage': '1Gi' } }));
    }
  }
  return { nodes, pods };
}

function incomingPod(rand: () => number, i: number): Pod {
  const requests = rand() < 0.2 ? undefined : { cpu: `${Math.floor(rand() * 900)}m`, memory: `${Math.floor(rand() * 2000)}Mi`, ...(rand() < 0.5 ? { 'example.com/gpu': '1' } : {}) };
  const pod = makePod(`in${i}`, { requests, tolerations: rand() < 0.5 ? [{ key: 'a', operator: 'Exists' }] : undefined });
  pod.spec.containers[0]!.image = rand() < 0.5 ? 'img:1' : 'img';
  return pod;
}

function scoresOneByOne(p: ScorePlugin, state: CycleState, pod: PodInfo, snapshot: Snapshot): (number | string)[] {
  return snapshot.nodeInfoList.map((ni) => {
    const r = p.score(state, pod, ni);
    return r instanceof Status ? r.message() : r;
  });
}

function scoresBatch(p: ScorePlugin, state: CycleState, pod: PodInfo, snapshot: Snapshot): (number | string)[] {
  if (p.scoreNodesInto !== undefined) {
    const scores = new Float64Array(snapshot.nodeInfoList.length).fill(-1);
    const s = p.scoreNodesInto(state, pod, snapshot.nodeInfoList, scores);
    return s === null ? [...scores] : [s.message()];
  }
  const out: NodeScore[] = snapshot.nodeInfoList.map((ni) => ({ name: ni.name, score: -1 }));
  const s = p.scoreNodes!(state, pod, snapshot.nodeInfoList, out);
  if (s !== null) return [s.message()];
  return out.map((x) => x.score);
}

describe('batch scoreNodes and scoreNodesInto equal score', () => {
  const strategies = [
    { type: LeastAllocated, resources },
    { type: MostAllocated, resources },
    { type: RequestedToCapacityRatio, resources, requestedToCapacityRatio: { shape: [{ utilization: 0, score: 10 }, { utilization: 100, score: 0 }] } },
  ];
  for (let seed = 1; seed <= 5; seed++) {
    it(`on random cluster ${seed}`, () => {
      const rand = seededRandom(seed);
      const { nodes, pods } = randomCluster(rand);
      const snapshot = Snapshot.fromObjects(pods, nodes);
      fillImageStates(snapshot.nodeInfoList);
      const handle = newTestHandle({ snapshot });
      const plugins: ScorePlugin[] = [
        ...strategies.map((scoringStrategy) => new Fit({ ignoredResources: [], ignoredResourceGroups: [], scoringStrategy })),
        new BalancedAllocation({ resources }),
        new TaintToleration(),
        imageLocalityDefinition.factory(undefined, handle, defaultFeatures) as ScorePlugin,
      ];
      for (let i = 0; i < 10; i++) {
        const pod = new PodInfo(incomingPod(rand, i));
        for (const p of plugins) {
          const state = new CycleState();
          const pre = (p as Partial<PreScorePlugin>).preScore?.(state, pod, snapshot.nodeInfoList) ?? null;
          if (pre !== null && pre.code !== Code.Success) continue;
          assert.ok(p.scoreNodes ?? p.scoreNodesInto, `${p.name} has scoreNodes or scoreNodesInto`);
          const want = scoresOneByOne(p, state, pod, snapshot);
          assert.deepEqual(scoresBatch(p, state, pod, snapshot), want, `${p.name}, pod ${i}`);
          // Again: remembered scores must be the same.
          assert.deepEqual(scoresBatch(p, state, pod, snapshot), want, `${p.name}, pod ${i}, second time`);
        }
      }
    });
  }
});

describe('remembered resource scores follow node changes', () => {
  it('rescoring after pods land on some nodes gives the fresh results', () => {
    const rand = seededRandom(11);
    const { nodes, pods } = randomCluster(rand);
    const snapshot = Snapshot.fromObjects(pods, nodes);
    const plugins = [new Fit({ ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: { type: LeastAllocated, resources: resources.slice(0, 2) } }), new BalancedAllocation({ resources: resources.slice(0, 2) })];
    const pod = new PodInfo(makePod('in', { requests: { cpu: '250m', memory: '300Mi' } }));
    for (let round = 0; round < 20; round++) {
      // Nodes change as a cycle's snapshot would: a pod added to a few of them.
      for (let k = 0; k < 3; k++) {
        const ni = snapshot.nodeInfoList[Math.floor(rand() * snapshot.nodeInfoList.length)]!;
        ni.addPod(new PodInfo(makePod(`x${round}-${k}`, { node: ni.name, requests: { cpu: '100m', memory: '100Mi' } })));
      }
      for (const p of plugins) {
        const state = new CycleState();
        p.preScore(state, pod);
        assert.deepEqual(scoresBatch(p, state, pod, snapshot), scoresOneByOne(p, state, pod, snapshot), `${p.name}, round ${round}`);
      }
    }
  });
});
