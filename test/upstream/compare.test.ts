// The claims part of the differential comparison: the same ResourceClaim per pod entry and the
// same devices in the same order, a pod without claims agreeing with one that reports none.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareClaims, type ExplainClaim, type ExplainPodWithClaims } from './compare.js';

const pod = (claims?: ExplainClaim[]): ExplainPodWithClaims => ({
  pod: 'default/p', outcome: 'Scheduled', node: 'node-1', message: '', filter: {}, preFilter: null, scores: {}, bestNodes: ['node-1'], nominatedNode: '', victims: [],
  ...(claims ? { claims } : {}),
});
const gpu = (device: string) => ({ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device });

describe('compareClaims', () => {
  const cases: { name: string; expected: ExplainPodWithClaims; actual: ExplainPodWithClaims; want: string[] }[] = [
    { name: 'pods without claims agree, whether the field is left out or empty', expected: pod(), actual: pod([]), want: [] },
    {
      name: 'the same claim with the same devices agrees',
      expected: pod([{ name: 'gpu', claim: 'p-gpu-abcde', devices: [gpu('gpu-0'), gpu('gpu-1')] }]),
      actual: pod([{ name: 'gpu', claim: 'p-gpu-abcde', devices: [gpu('gpu-0'), gpu('gpu-1')] }]),
      want: [],
    },
    {
      name: 'devices in another order differ: the allocation is an ordered list',
      expected: pod([{ name: 'gpu', claim: 'c', devices: [gpu('gpu-0'), gpu('gpu-1')] }]),
      actual: pod([{ name: 'gpu', claim: 'c', devices: [gpu('gpu-1'), gpu('gpu-0')] }]),
      want: ['claims[gpu].devices: expected [gpu=gpu.example.com/node-1/gpu-0, gpu=gpu.example.com/node-1/gpu-1], actual [gpu=gpu.example.com/node-1/gpu-1, gpu=gpu.example.com/node-1/gpu-0]'],
    },
    {
      name: 'another claim name and a missing entry are reported',
      expected: pod([{ name: 'gpu', claim: 'p-gpu-abcde', devices: [] }, { name: 'nic', claim: 'nic', devices: [] }]),
      actual: pod([{ name: 'gpu', claim: 'p-gpu-xxxxx', devices: [] }]),
      want: ['claims[gpu].claim: expected p-gpu-abcde, actual p-gpu-xxxxx', 'claims[nic]: expected {"name":"nic","claim":"nic","devices":[]}, actual none'],
    },
    {
      name: 'an entry only ours reports is reported',
      expected: pod(),
      actual: pod([{ name: 'gpu', claim: 'c', devices: [{ ...gpu('gpu-0'), adminAccess: true }] }]),
      want: ['claims[gpu]: expected none, actual {"name":"gpu","claim":"c","devices":[{"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-0","adminAccess":true}]}'],
    },
    {
      name: 'devices for extended resources are compared in order too',
      expected: { ...pod(), extendedResourceDevices: [gpu('gpu-0')] },
      actual: pod(),
      want: ['extendedResourceDevices: expected [gpu=gpu.example.com/node-1/gpu-0], actual []'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(compareClaims(c.expected, c.actual), c.want));
  }
});
