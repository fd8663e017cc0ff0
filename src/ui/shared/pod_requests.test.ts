import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { podRequests } from './pod_requests.js';

describe('the UI counts a pod\'s requests as the scheduler does', () => {
  const cases: { name: string; pod: Parameters<typeof podRequests>[0]; want: Record<string, number> | null }[] = [
    { name: 'containers add up', pod: { spec: { containers: [{ resources: { requests: { cpu: '500m', memory: '1Gi' } } }, { resources: { requests: { cpu: '250m' } } }] } },
      want: { cpu: 0.75, memory: 2 ** 30 } },
    { name: 'a Succeeded pod counts for nothing', pod: { spec: { containers: [{ resources: { requests: { cpu: '1' } } }] }, status: { phase: 'Succeeded' } }, want: null },
    { name: 'a Failed pod counts for nothing', pod: { spec: { containers: [{ resources: { requests: { cpu: '1' } } }] }, status: { phase: 'Failed' } }, want: null },
    { name: 'a larger init container sets the request', pod: { spec: { containers: [{ resources: { requests: { cpu: '1' } } }], initContainers: [{ resources: { requests: { cpu: '3' } } }] } },
      want: { cpu: 3 } },
    { name: 'a sidecar adds to the containers and to the init containers after it',
      pod: { spec: { containers: [{ resources: { requests: { cpu: '1' } } }], initContainers: [{ restartPolicy: 'Always', resources: { requests: { cpu: '1' } } }, { resources: { requests: { cpu: '2.5' } } }] } },
      want: { cpu: 3.5 } },
    { name: 'extended resources and the overhead count', pod: { spec: { containers: [{ resources: { requests: { 'nvidia.com/gpu': '2' } } }], overhead: { cpu: '100m' } } },
      want: { 'nvidia.com/gpu': 2, cpu: 0.1 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = podRequests(c.pod);
      assert.deepEqual(got === null ? null : Object.fromEntries(got), c.want);
    });
  }
});
