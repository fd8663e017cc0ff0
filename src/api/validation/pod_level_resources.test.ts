// Pod-level resources as kube-apiserver v1.37.2 validates them (pkg/apis/core/validation
// validatePodResources, validatePodResourceConsistency): only the resources the pod level names
// are compared with the containers' aggregate, which counts init containers and sidecars.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkCreate, fieldErrorString, kindValidation } from './index.js';

type Obj = Record<string, unknown>;

const ctr = (name: string, resources: Obj): Obj => ({ name, image: 'pause', resources });

function pod(resources: Obj, containers: Obj[], extra: Obj = {}): Obj {
  return { metadata: { name: 'p', namespace: 'default' }, spec: { containers, resources, ...extra } };
}

function errorsOf(obj: Obj): string[] {
  const r = checkCreate(kindValidation('Pod')!, obj);
  return r.ok ? [] : r.errors.map(fieldErrorString);
}

const cases: { name: string; obj: Obj; want: string[] }[] = [
  {
    name: 'a pod-level cpu request alone is accepted beside containers requesting memory',
    obj: pod({ requests: { cpu: '1' } }, [ctr('c', { requests: { cpu: '500m', memory: '1Gi' } })]),
    want: [],
  },
  {
    name: 'a pod-level memory limit alone leaves the containers\' cpu limits unchecked',
    obj: pod({ limits: { memory: '2Gi' } }, [ctr('c', { requests: { cpu: '4', memory: '1Gi' }, limits: { cpu: '4', memory: '1Gi' } })]),
    want: [],
  },
  {
    name: 'a pod-level request below the containers\' sum is refused',
    obj: pod({ requests: { cpu: '1' } }, [ctr('a', { requests: { cpu: '1' } }), ctr('b', { requests: { cpu: '500m' } })]),
    want: ['spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 1500m'],
  },
  {
    name: 'an init container larger than the containers sets the aggregate',
    obj: pod({ requests: { cpu: '1' } }, [ctr('a', { requests: { cpu: '500m' } })], { initContainers: [ctr('i', { requests: { cpu: '2' } })] }),
    want: ['spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 2'],
  },
  {
    name: 'a sidecar adds to the containers',
    obj: pod({ requests: { cpu: '1' } }, [ctr('a', { requests: { cpu: '500m' } })], { initContainers: [{ ...ctr('s', { requests: { cpu: '600m' } }), restartPolicy: 'Always' }] }),
    want: ['spec.resources.requests[cpu]: Invalid value: "1": must be greater than or equal to aggregate container requests of 1100m'],
  },
  {
    name: 'a container limit above the pod-level limit is refused',
    obj: pod({ limits: { cpu: '1' } }, [ctr('a', { requests: { cpu: '500m' }, limits: { cpu: '2' } })]),
    want: ['spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1'],
  },
  {
    name: 'hugepages limits of the containers summed must fit the pod-level limit',
    obj: pod({ limits: { 'hugepages-2Mi': '2097152', memory: '1Gi' } }, [
      ctr('a', { requests: { 'hugepages-2Mi': '2097152', memory: '10Mi' }, limits: { 'hugepages-2Mi': '2097152', memory: '10Mi' } }),
      ctr('b', { requests: { 'hugepages-2Mi': '2097152', memory: '10Mi' }, limits: { 'hugepages-2Mi': '2097152', memory: '10Mi' } }),
    ]),
    want: ['spec.resources.limits[hugepages-2Mi]: Invalid value: "2097152": must be greater than or equal to aggregate container limits of 4194304'],
  },
  {
    name: 'claims may not be set at pod level',
    obj: pod({ requests: { cpu: '1' }, claims: [{ name: 'gpu' }] }, [ctr('a', {})], { resourceClaims: [{ name: 'gpu', resourceClaimName: 'gpu' }] }),
    want: ['spec.resources.claims: Forbidden: claims may not be set for Resources at pod-level'],
  },
  {
    name: 'a windows pod may not set pod-level resources, and nothing more is said about them',
    obj: pod({ requests: { cpu: '1', 'example.com/x': '1' } }, [ctr('a', { requests: { cpu: '2' } })], { os: { name: 'windows' } }),
    want: ['spec.resources: Forbidden: may not be set for a windows pod'],
  },
];

describe('pod-level resources validation', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(errorsOf(c.obj), c.want);
    });
  }
});
