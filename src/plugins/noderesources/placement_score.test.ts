// NodeResourcesFit's ScorePlacement (TopologyAwareWorkloadScheduling), after upstream's
// TestScorePlacement_Resources in fit_test.go: MostAllocated over the placement's summed nodes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod, ResourceList } from '../../api/types.js';
import { Snapshot } from '../../cache/snapshot.js';
import { CycleState } from '../../framework/cycle_state.js';
import { PodInfo } from '../../framework/pod_info.js';
import { defaultNodeResourcesFitArgs, LeastAllocated, type ResourceSpec } from './args.js';
import { Fit } from './fit.js';
import { capacityNode, reqPod } from './test_helpers.js';

const pg: PodGroup = { kind: 'PodGroup', metadata: { name: 'g', namespace: 'default' }, spec: { schedulingPolicy: { basic: {} } } };
const cpuMem = (cpu: string, memory: string): ResourceList => ({ cpu, memory });
const withGpu = (cpu: string, memory: string, gpu: string): ResourceList => ({ cpu, memory, 'nvidia.com/gpu': gpu });
const cpuAndMemory: ResourceSpec[] = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }];
const gpuToo: ResourceSpec[] = [...cpuAndMemory, { name: 'nvidia.com/gpu', weight: 1 }];

interface Case {
  name: string;
  capacity: ResourceList;
  nodes?: number;
  placementNodes?: string[];
  members: [ResourceList, string][];
  existing?: [ResourceList, string][];
  resources: ResourceSpec[];
  want: number;
}

const cases: Case[] = [
  // cpu 3000/10000 = 30, memory 2000/10000 = 20: (30 + 20) / 2.
  { name: 'scores the members\' total requests over the placement', capacity: cpuMem('5000m', '5000'), members: [[cpuMem('1000m', '0'), 'node1'], [cpuMem('2000m', '2000'), 'node2']], resources: cpuAndMemory, want: 25 },
  // (4 * 30 + 20) / 5.
  { name: 'weights the resources', capacity: cpuMem('5000m', '5000'), members: [[cpuMem('1000m', '0'), 'node1'], [cpuMem('2000m', '2000'), 'node2']], resources: [{ name: 'cpu', weight: 4 }, { name: 'memory', weight: 1 }], want: 28 },
  { name: 'members sharing a node count the same', capacity: cpuMem('5000m', '5000'), members: [[cpuMem('1000m', '0'), 'node1'], [cpuMem('2000m', '2000'), 'node1']], resources: [{ name: 'cpu', weight: 4 }, { name: 'memory', weight: 1 }], want: 28 },
  { name: 'nodes outside the placement do not count', capacity: cpuMem('5000m', '5000'), nodes: 3, placementNodes: ['node1', 'node2'], members: [[cpuMem('1000m', '0'), 'node1'], [cpuMem('2000m', '2000'), 'node2']], resources: cpuAndMemory, want: 25 },
  // cpu 4000/10000 = 40, memory 20.
  { name: 'the placement\'s other pods count', capacity: cpuMem('5000m', '5000'), members: [[cpuMem('1000m', '0'), 'node1'], [cpuMem('2000m', '2000'), 'node2']], existing: [[cpuMem('1000m', '0'), 'node1']], resources: cpuAndMemory, want: 30 },
  // cpu 30, memory 20, gpu 1/10 = 10.
  { name: 'a scalar a member requests is scored', capacity: withGpu('5000m', '5000', '5'), members: [[withGpu('1000m', '0', '0'), 'node1'], [withGpu('1000m', '2000', '1'), 'node2']], existing: [[withGpu('1000m', '0', '0'), 'node1']], resources: gpuToo, want: 20 },
  { name: 'a scalar no member requests is left out', capacity: withGpu('5000m', '5000', '5'), members: [[withGpu('1000m', '0', '0'), 'node1'], [withGpu('1000m', '2000', '0'), 'node2']], existing: [[withGpu('1000m', '0', '1'), 'node1']], resources: gpuToo, want: 25 },
  // Containers without requests count as 100m and 200Mi, as in node scoring.
  { name: 'members without requests count the non-zero defaults', capacity: cpuMem('1000m', '1Gi'), nodes: 1, members: [[{}, 'node1']], resources: cpuAndMemory, want: 14 },
];

describe('NodeResourcesFit ScorePlacement', () => {
  for (const c of cases) {
    it(c.name, () => {
      const names = Array.from({ length: c.nodes ?? 2 }, (_, i) => `node${i + 1}`);
      const existing: Pod[] = (c.existing ?? []).map(([req, node]) => reqPod({ node }, req));
      const snapshot = Snapshot.fromObjects(existing, names.map((n) => capacityNode(n, c.capacity)));
      const nodes = (c.placementNodes ?? names).map((n) => snapshot.get(n)!);
      const proposedAssignments = c.members.map(([req, nodeName]) => ({ podInfo: new PodInfo(reqPod({}, req)), nodeName }));
      const fit = new Fit({ ...defaultNodeResourcesFitArgs({}), scoringStrategy: { type: LeastAllocated, resources: c.resources } });
      assert.equal(fit.scorePlacement(new CycleState(), pg, { placement: { name: 'p', nodes }, proposedAssignments }), c.want);
    });
  }
});

describe('NodeResourcesFit ScorePlacement sums as int64, exactly, at 5,000 nodes of 1 TiB', () => {
  const TiB = 2n ** 40n;
  const memoryOnly: ResourceSpec[] = [{ name: 'memory', weight: 1 }];
  /** Upstream's arithmetic: (requested * 100) / capacity in int64, requested capped at capacity. */
  const int64Score = (requested: bigint, capacity: bigint) => Number(((requested > capacity ? capacity : requested) * 100n) / capacity);

  function score(nodeMemory: (i: number) => bigint, count: number, memberRequest: bigint): number {
    const nodes = Array.from({ length: count }, (_, i) => capacityNode(`node${i}`, { cpu: '64', memory: `${nodeMemory(i)}` }));
    const snapshot = Snapshot.fromObjects([], nodes);
    const member = { podInfo: new PodInfo(reqPod({}, { cpu: '1', memory: `${memberRequest}` })), nodeName: 'node0' };
    const fit = new Fit({ ...defaultNodeResourcesFitArgs({}), scoringStrategy: { type: LeastAllocated, resources: memoryOnly } });
    return fit.scorePlacement(new CycleState(), pg, { placement: { name: 'p', nodes: snapshot.list() }, proposedAssignments: [member] });
  }

  const cases: { name: string; count: number; nodeMemory: (i: number) => bigint; request: bigint }[] = [
    // 4,999 nodes of 1 TiB and one of 1023 GiB: requested * 100 is past 2^53, where a double's
    // product rounds up across 29 (1594291548890071 * 100 / capacity is 28.99999999999999...).
    { name: 'a product past 2^53 that a double rounds across a score', count: 5000, nodeMemory: (i) => (i === 0 ? TiB - 2n ** 30n : TiB), request: 1594291548890071n },
    { name: 'another boundary of the same placement', count: 5000, nodeMemory: (i) => (i === 0 ? TiB - 2n ** 30n : TiB), request: 1814193831495598n },
    // 9,000 nodes of 1 TiB + 1 byte: the capacity itself (9,895,604,649,993,000) is past 2^53, and
    // summed in doubles it rounds enough to lift this score from 1 to 2.
    { name: 'a capacity sum past 2^53', count: 9000, nodeMemory: () => TiB + 1n, request: 197912092999855n },
  ];
  for (const c of cases) {
    it(c.name, () => {
      let capacity = 0n;
      let capacityInDoubles = 0;
      for (let i = 0; i < c.count; i++) {
        capacity += c.nodeMemory(i);
        capacityInDoubles += Number(c.nodeMemory(i));
      }
      const want = int64Score(c.request, capacity);
      const inDoubles = Math.trunc((Number(c.request) * 100) / capacityInDoubles);
      assert.notEqual(inDoubles, want, 'the case is one doubles get wrong');
      assert.equal(score(c.nodeMemory, c.count, c.request), want);
    });
  }

  it('placements within a double\'s integers keep the fast path\'s answer', () => {
    assert.equal(score(() => TiB, 100, 55n * TiB), 55);
  });
});
