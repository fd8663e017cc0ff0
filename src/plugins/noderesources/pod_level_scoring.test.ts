// What each resource scorer counts of a pod with pod-level requests or resized containers, as
// v1.37.2 builds them: NodeResourcesFit's strategies (fit.go getScorer) without the
// PodLevelResources and InPlacePodVerticalScaling flags, BalancedAllocation with both.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import { LeastAllocated, MostAllocated, RequestedToCapacityRatio, type ScoringStrategy } from './args.js';
import { BalancedAllocation } from './balanced_allocation.js';
import { Fit } from './fit.js';
import { capacityNode, reqPod, runScore, withPodLevelRequests } from './test_helpers.js';

const resources = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];
const node = () => capacityNode('node1', { cpu: '4', memory: '10000' });

/** One container asking 500m cpu and 1000 bytes. */
const containerOnly = (): Pod => reqPod({}, { cpu: '500m', memory: '1000' });
/** The same container with a pod-level cpu request of 3 (memory left to the container). */
const podLevelCPU = (): Pod => withPodLevelRequests(containerOnly(), { cpu: '3' });
/** The same container, resized in place to 2 cpu (allocated and actuated). */
const resized = (): Pod => {
  const p = containerOnly();
  p.status = {
    containerStatuses: [{ name: 'c0', ready: false, restartCount: 0, image: 'pause', imageID: '', allocatedResources: { cpu: '2' }, resources: { requests: { cpu: '2' } } }],
  } as Pod['status'];
  return p;
};

const strategies: { name: string; strategy: ScoringStrategy; want: number }[] = [
  // cpu 500/4000 -> 12, memory 1000/10000 -> 10: 11 (with the pod-level 3 cpu it would be 42).
  { name: MostAllocated, strategy: { type: MostAllocated, resources }, want: 11 },
  // cpu 3500/4000 -> 87, memory 90: 88 (57 with the pod-level cpu).
  { name: LeastAllocated, strategy: { type: LeastAllocated, resources }, want: 88 },
  // Utilization 12 and 10 on a 0 -> 100 line: 11 (43 with the pod-level cpu).
  {
    name: RequestedToCapacityRatio,
    strategy: { type: RequestedToCapacityRatio, resources, requestedToCapacityRatio: { shape: [{ utilization: 0, score: 0 }, { utilization: 100, score: 10 }] } },
    want: 11,
  },
];

describe('NodeResourcesFit scores container spec requests only', () => {
  for (const { name, strategy, want } of strategies) {
    const fit = new Fit({ ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: strategy });
    for (const [what, pod] of [['without pod-level requests', containerOnly], ['with a pod-level cpu request', podLevelCPU], ['with a container resized in place', resized]] as const) {
      it(`${name}: a pod ${what} scores ${want}`, () => {
        for (const preScore of [true, false]) {
          const run = runScore(fit, pod(), [node()], [], preScore);
          assert.deepEqual(run.scores, [want], `preScore=${preScore}`);
        }
      });
    }
  }
});

describe('NodeResourcesBalancedAllocation counts pod-level and resized requests', () => {
  const ba = new BalancedAllocation({ resources });
  const cases: { name: string; pod: () => Pod; want: number }[] = [
    // cpu 0.125, memory 0.1: balance 98 after, 100 before -> 50 + (50 + 98 - 100) / 2 = 74.
    { name: 'container requests only', pod: containerOnly, want: 74 },
    // cpu 0.75 (pod level), memory 0.1: balance 67 -> 50 + 17 / 2 = 58.
    { name: 'pod-level cpu request replaces the containers\' cpu', pod: podLevelCPU, want: 58 },
    // cpu 0.5 (allocated 2), memory 0.1: std 0.2, balance 80 -> 50 + 30 / 2 = 65.
    { name: 'resized container counts its allocated cpu', pod: resized, want: 65 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(runScore(ba, c.pod(), [node()]).scores, [c.want]);
    });
  }
});
