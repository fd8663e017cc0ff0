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
