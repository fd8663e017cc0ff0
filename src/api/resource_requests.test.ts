// Tests for resource_requests.ts: the scenarios of component-helpers' PodRequests tests (containers,
// init containers, sidecars, overhead, pod-level resources, status resources) and of the
// scheduler's calculateResource (non-zero defaults), plus resource-name classification.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  computePodResourceRequests,
  containersOnlyRequests,
  DefaultMemoryRequest,
  isExtendedResourceName,
  isPodLevelRequestsSet,
  isScalarResourceName,
  podResourceRequestsInMaps,
  Resource,
} from './resource_requests.js';
import { QuantityError } from './quantity.js';
import { seededRandom } from '../util/clock.js';
import type { Container, Pod, ResourceList } from './types.js';

function container(name: string, requests?: ResourceList, restartPolicy?: 'Always'): Container {
  return { name, image: 'pause', resources: requests ? { requests } : {}, ...(restartPolicy ? { restartPolicy } : {}) };
}

function pod(spec: Partial<Pod['spec']> & { containers: Container[] }, status: Pod['status'] = {}): Pod {
  return { metadata: { name: 'p', namespace: 'default' }, spec, status };
}

interface Want {
  milliCPU?: number;
  memory?: number;
  ephemeralStorage?: number;
  pods?: number;
  scalar?: Record<string, number>;
  nonZeroMilliCPU: number;
  nonZeroMemory: number;
}

const Mi = 1024 * 1024;
const Gi = 1024 * Mi;

const cases: { name: string; pod: Pod; want: Want }[] = [
  {
    name: 'pod without requests gets the non-zero defaults for scoring only',
    pod: pod({ containers: [container('a')] }),
    want: { nonZeroMilliCPU: 100, nonZeroMemory: 200 * Mi },
  },
  {
    name: 'containers are summed',
    pod: pod({ containers: [container('a', { cpu: '100m', memory: '1Gi' }), container('b', { cpu: '0.5', memory: '512Mi' })] }),
    want: { milliCPU: 600, memory: Gi + 512 * Mi, nonZeroMilliCPU: 600, nonZeroMemory: Gi + 512 * Mi },
  },
  {
    name: 'defaults apply per container that misses a request',
    pod: pod({ containers: [container('a', { memory: '1Gi' }), container('b', { cpu: '250m' }), container('c')] }),
    want: { milliCPU: 250, memory: Gi, nonZeroMilliCPU: 450, nonZeroMemory: Gi + 400 * Mi },
  },
  {
    name: 'an explicit zero request is not defaulted',
    pod: pod({ containers: [container('a', { cpu: '0', memory: '0' })] }),
    want: { nonZeroMilliCPU: 0, nonZeroMemory: 0 },
  },
  {
    name: 'an init container larger than the containers sets the request',
    pod: pod({
      containers: [container('a', { cpu: '1', memory: '1Gi' }), container('b', { cpu: '1', memory: '1Gi' })],
      initContainers: [container('i1', { cpu: '3', memory: '1Gi' }), container('i2', { cpu: '1', memory: '3Gi' })],
    }),
    want: { milliCPU: 3000, memory: 3 * Gi, nonZeroMilliCPU: 3000, nonZeroMemory: 3 * Gi },
  },
  {
    name: 'init containers without requests count the defaults in the non-zero requests',
    pod: pod({ containers: [container('a', { cpu: '50m', memory: '100Mi' })], initContainers: [container('i')] }),
    want: { milliCPU: 50, memory: 100 * Mi, nonZeroMilliCPU: 100, nonZeroMemory: 200 * Mi },
  },
  {
    name: 'sidecars run beside the containers and beside later init containers',
    pod: pod({
      containers: [container('a', { cpu: '1' })],
      initContainers: [container('s1', { cpu: '1' }, 'Always'), container('i1', { cpu: '2' }), container('s2', { cpu: '500m' }, 'Always')],
    }),
    // cpu: containers 1 + sidecars 1.5 = 2.5; init step i1: s1 (1) + 2 = 3.
    // memory (defaults): a + s1 + s2 = 600Mi; step i1: s1 + i1 = 400Mi.
    want: { milliCPU: 3000, nonZeroMilliCPU: 3000, nonZeroMemory: 3 * 200 * Mi },
  },
  {
    name: 'a sidecar started after an init container does not add to its step',
    pod: pod({
      containers: [container('a', { cpu: '1' })],
      initContainers: [container('i1', { cpu: '2' }), container('s1', { cpu: '2' }, 'Always')],
    }),
    want: { milliCPU: 3000, nonZeroMilliCPU: 3000, nonZeroMemory: 2 * 200 * Mi },
  },
  {
    name: 'overhead is added to the requests and to the non-zero requests',
    pod: pod({ containers: [container('a', { cpu: '1', memory: '1Gi' })], overhead: { cpu: '250m', memory: '120Mi' } }),
    want: { milliCPU: 1250, memory: Gi + 120 * Mi, nonZeroMilliCPU: 1250, nonZeroMemory: Gi + 120 * Mi },
  },
  {
    name: 'overhead also counts for a pod without container requests',
    pod: pod({ containers: [container('a')], overhead: { cpu: '5e-1', memory: '512Mi' } }),
    want: { milliCPU: 500, memory: 512 * Mi, nonZeroMilliCPU: 600, nonZeroMemory: 712 * Mi },
  },
  {
    name: 'pod-level requests replace the container aggregate',
    pod: pod({
      containers: [container('a', { cpu: '1', memory: '1Gi', 'ephemeral-storage': '1Gi' }), container('b', { cpu: '1' })],
      resources: { requests: { cpu: '3', memory: '2Gi' } },
    }),
    want: { milliCPU: 3000, memory: 2 * Gi, ephemeralStorage: Gi, nonZeroMilliCPU: 3000, nonZeroMemory: 2 * Gi },
  },
  {
    name: 'pod-level cpu only: memory still comes from the containers, defaulted where missing',
    pod: pod({ containers: [container('a', { memory: '1Gi' }), container('b')], resources: { requests: { cpu: '2' } } }),
    want: { milliCPU: 2000, memory: Gi, nonZeroMilliCPU: 2000, nonZeroMemory: Gi },
  },
  {
    name: 'pod-level set: no cpu default once any container requests cpu',
    pod: pod({ containers: [container('a', { cpu: '500m' }), container('b')], resources: { requests: { memory: '1Gi' } } }),
    want: { milliCPU: 500, memory: Gi, nonZeroMilliCPU: 500, nonZeroMemory: Gi },
  },
  {
    name: 'pod-level set: defaults per container when the pod requests no memory anywhere',
    pod: pod({ containers: [container('a'), container('b')], resources: { requests: { cpu: '1' } } }),
    want: { milliCPU: 1000, nonZeroMilliCPU: 1000, nonZeroMemory: 2 * DefaultMemoryRequest },
  },
  {
    name: 'pod-level hugepages replace the containers hugepages; unsupported pod-level names are ignored',
    pod: pod({
      containers: [container('a', { cpu: '1', 'hugepages-2Mi': '4Mi', 'example.com/gpu': '1' })],
      resources: { requests: { 'hugepages-2Mi': '10Mi', 'example.com/gpu': '5' } },
    }),
    want: { milliCPU: 1000, scalar: { 'hugepages-2Mi': 10 * Mi, 'example.com/gpu': 1 }, nonZeroMilliCPU: 1000, nonZeroMemory: 200 * Mi },
  },
  {
    name: 'only unsupported pod-level requests: pod-level resources are not set',
    pod: pod({ containers: [container('a', { cpu: '1' })], resources: { requests: { 'example.com/gpu': '5' } } }),
    want: { milliCPU: 1000, nonZeroMilliCPU: 1000, nonZeroMemory: 200 * Mi },
  },
  {
    name: 'pod-level requests plus overhead',
    pod: pod({ containers: [container('a', { cpu: '1' })], resources: { requests: { cpu: '2' } }, overhead: { cpu: '100m' } }),
    want: { milliCPU: 2100, nonZeroMilliCPU: 2100, nonZeroMemory: 200 * Mi },
  },
  {
    name: 'extended, hugepages, prefixed native and attachable-volume resources are scalar; others are ignored',
    pod: pod({
      containers: [
        container('a', {
          'example.com/gpu': '2',
          'hugepages-1Gi': '2Gi',
          'kubernetes.io/something': '3',
          'attachable-volumes-csi-x': '1',
          'unknown-native': '7',
          'requests.example.com/x': '1',
          pods: '1',
        }),
      ],
    }),
    want: {
      pods: 1,
      scalar: { 'example.com/gpu': 2, 'hugepages-1Gi': 2 * Gi, 'kubernetes.io/something': 3, 'attachable-volumes-csi-x': 1 },
      nonZeroMilliCPU: 100,
      nonZeroMemory: 200 * Mi,
    },
  },
  {
    name: 'fractions are summed before rounding up, as Quantity.Add does',
    pod: pod({ containers: [container('a', { cpu: '0.5m', memory: '0.5' }), container('b', { cpu: '0.5m', memory: '0.5' })] }),
    want: { milliCPU: 1, memory: 1, nonZeroMilliCPU: 1, nonZeroMemory: 1 },
  },
  {
    name: 'a lone fraction rounds up',
    pod: pod({ containers: [container('a', { cpu: '1.0001m', memory: '100.5' })] }),
    want: { milliCPU: 2, memory: 101, nonZeroMilliCPU: 2, nonZeroMemory: 101 },
  },
  {
    name: 'numbers from YAML are quantities too',
    pod: pod({ containers: [container('a', { cpu: 0.25, memory: 1073741824 })] }),
    want: { milliCPU: 250, memory: Gi, nonZeroMilliCPU: 250, nonZeroMemory: Gi },
  },
  {
    name: 'status resources: the larger of spec, actual and allocated requests',
    pod: pod(
      { containers: [container('a', { cpu: '1', memory: '1Gi' })] },
      {
        containerStatuses: [
          { name: 'a', image: 'pause', imageID: '', ready: true, restartCount: 0, resources: { requests: { cpu: '2', memory: '512Mi' } }, allocatedResources: { cpu: '1500m', memory: '2Gi' } },
        ],
      },
    ),
    want: { milliCPU: 2000, memory: 2 * Gi, nonZeroMilliCPU: 2000, nonZeroMemory: 2 * Gi },
  },
  {
    name: 'status resources: an infeasible resize ignores the spec',
    pod: pod(
      { containers: [container('a', { cpu: '4' })] },
      {
        conditions: [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible' }],
        containerStatuses: [{ name: 'a', image: 'pause', imageID: '', ready: true, restartCount: 0, resources: { requests: { cpu: '1' } }, allocatedResources: { cpu: '1' } }],
      },
    ),
    want: { milliCPU: 1000, nonZeroMilliCPU: 1000, nonZeroMemory: 200 * Mi },
  },
  {
    name: 'status resources: a deferred resize still counts the spec',
    pod: pod(
      { containers: [container('a', { cpu: '4' })] },
      {
        conditions: [{ type: 'PodResizePending', status: 'True', reason: 'Deferred' }],
        containerStatuses: [{ name: 'a', image: 'pause', imageID: '', ready: true, restartCount: 0, resources: { requests: { cpu: '1' } }, allocatedResources: { cpu: '1' } }],
      },
    ),
    want: { milliCPU: 4000, nonZeroMilliCPU: 4000, nonZeroMemory: 200 * Mi },
  },
  {
    name: 'status resources: ignored without status resources, and for non-restartable init containers',
    pod: pod(
      { containers: [container('a', { cpu: '1' })], initContainers: [container('i', { cpu: '2' }), container('s', { cpu: '100m' }, 'Always')] },
      {
        containerStatuses: [{ name: 'a', image: 'pause', imageID: '', ready: true, restartCount: 0, allocatedResources: { cpu: '8' } }],
        initContainerStatuses: [
          { name: 'i', image: 'pause', imageID: '', ready: false, restartCount: 0, resources: { requests: { cpu: '9' } } },
          { name: 's', image: 'pause', imageID: '', ready: true, restartCount: 0, resources: { requests: { cpu: '500m' } } },
        ],
      },
    ),
    // containers 1 + sidecar 0.5 = 1.5; init step i: 2 (no sidecar before it)
    want: { milliCPU: 2000, nonZeroMilliCPU: 2000, nonZeroMemory: 2 * 200 * Mi },
  },
];

describe('computePodResourceRequests', () => {
  for (const c of cases) {
    it(c.name, () => {
      const got = computePodResourceRequests(c.pod);
      const r = got.resource;
      assert.equal(r.milliCPU, c.want.milliCPU ?? 0, 'milliCPU');
      assert.equal(r.memory, c.want.memory ?? 0, 'memory');
      assert.equal(r.ephemeralStorage, c.want.ephemeralStorage ?? 0, 'ephemeral-storage');
      assert.equal(r.allowedPodNumber, c.want.pods ?? 0, 'pods');
      assert.deepEqual(Object.fromEntries(r.scalarResources ?? []), c.want.scalar ?? {}, 'scalar resources');
      assert.equal(got.nonZeroMilliCPU, c.want.nonZeroMilliCPU, 'non-zero cpu');
      assert.equal(got.nonZeroMemory, c.want.nonZeroMemory, 'non-zero memory');
    });
  }

  it('throws QuantityError for an invalid quantity', () => {
    assert.throws(() => computePodResourceRequests(pod({ containers: [container('a', { cpu: '1.2.3' })] })), QuantityError);
    assert.throws(() => computePodResourceRequests(pod({ containers: [container('a')], overhead: { memory: '5Q' } })), QuantityError);
  });
});

describe('Resource', () => {
  it('reads a node allocatable list as NewResource does', () => {
    const r = Resource.fromList({ cpu: '3800m', memory: '32812308Ki', pods: '110', 'ephemeral-storage': '100Gi', 'example.com/gpu': '4', 'hugepages-2Mi': '0' });
    assert.equal(r.milliCPU, 3800);
    assert.equal(r.memory, 32812308 * 1024);
    assert.equal(r.allowedPodNumber, 110);
    assert.equal(r.ephemeralStorage, 100 * Gi);
    assert.equal(r.get('example.com/gpu'), 4);
    assert.equal(r.get('hugepages-2Mi'), 0);
    assert.ok(r.scalarResources?.has('hugepages-2Mi'));
  });

  it('adds, subtracts and clones', () => {
    const a = Resource.fromList({ cpu: '1', memory: '1Gi', 'example.com/gpu': '1' });
    const b = a.clone();
    b.add(a);
    assert.equal(b.milliCPU, 2000);
    assert.equal(b.scalar('example.com/gpu'), 2);
    assert.equal(a.scalar('example.com/gpu'), 1);
    b.sub(a);
    assert.equal(b.memory, Gi);
  });
});

describe('resource names', () => {
  const extended: [string, boolean][] = [
    ['example.com/gpu', true],
    ['nvidia.com/gpu', true],
    ['a/b', true],
    ['example.com/GPU_x.1', true],
    ['cpu', false],
    ['hugepages-2Mi', false],
    ['kubernetes.io/resource-foo', false],
    ['pod.alpha.kubernetes.io/opaque-int-resource-foo', false],
    ['requests.example.com/gpu', false],
    ['a/b/c', false],
    ['Example.com/gpu', false],
    ['example.com/', false],
    ['/gpu', false],
    ['example.com/-gpu', false],
    [`example.com/${'x'.repeat(64)}`, false],
  ];
  for (const [name, want] of extended) {
    it(`isExtendedResourceName(${JSON.stringify(name)}) is ${want}`, () => {
      assert.equal(isExtendedResourceName(name), want);
      assert.equal(isExtendedResourceName(name), want, 'cached result');
    });
  }

  const scalar: [string, boolean][] = [
    ['example.com/gpu', true],
    ['hugepages-1Gi', true],
    ['kubernetes.io/foo', true],
    ['x.kubernetes.io/foo', true],
    ['attachable-volumes-aws-ebs', true],
    ['cpu', false],
    ['memory', false],
    ['pods', false],
    ['ephemeral-storage', false],
    ['foo', false],
  ];
  for (const [name, want] of scalar) {
    it(`isScalarResourceName(${JSON.stringify(name)}) is ${want}`, () => {
      assert.equal(isScalarResourceName(name), want);
    });
  }

  it('pod-level requests are set only for supported names', () => {
    assert.equal(isPodLevelRequestsSet(pod({ containers: [], resources: { requests: { cpu: '1' } } })), true);
    assert.equal(isPodLevelRequestsSet(pod({ containers: [], resources: { requests: { 'hugepages-2Mi': '2Mi' } } })), true);
    assert.equal(isPodLevelRequestsSet(pod({ containers: [], resources: { requests: { 'example.com/gpu': '1' } } })), false);
    assert.equal(isPodLevelRequestsSet(pod({ containers: [], resources: { limits: { cpu: '1' } } })), false);
    assert.equal(isPodLevelRequestsSet(pod({ containers: [] })), false);
  });
});

describe('containersOnlyRequests (the common pod without maps)', () => {
  /** The result, or the error's class and message. */
  const outcome = (f: () => unknown): unknown => {
    try {
      return f();
    } catch (err) {
      return `${(err as Error).name}: ${(err as Error).message}`;
    }
  };
  // Exact, inexact (nano-units), invalid, negative, huge and zero amounts.
  const quantities = ['100m', '500Mi', '1', '0', '-0', '1.5', '0.0001', '1n', '2Gi', '9007199254740991', '9007199254740991k', '1e3', '-100m', 'x', '', '1.2.3', '3Ei'];
  const names = ['cpu', 'memory', 'cpu', 'memory', 'ephemeral-storage', 'example.com/gpu'];

  it('gives calculate\'s result, error, or leaves the pod to it, for random pods', () => {
    const random = seededRandom(27);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    let fast = 0;
    for (let i = 0; i < 4000; i++) {
      const containers: Container[] = [];
      for (let c = Math.floor(random() * 4); c > 0; c--) {
        const requests: ResourceList = {};
        for (let n = Math.floor(random() * 3); n > 0; n--) requests[pick(names)] = pick(quantities);
        containers.push(container(`c${c}`, random() < 0.1 ? undefined : requests));
      }
      const spec: Pod['spec'] & { containers: Container[] } = { containers };
      if (random() < 0.05) spec.initContainers = [container('init', { cpu: pick(quantities) })];
      if (random() < 0.05) spec.overhead = { memory: pick(quantities) };
      if (random() < 0.05) spec.resources = { requests: { cpu: pick(quantities) } };
      const status: Pod['status'] = random() < 0.1 ? { containerStatuses: [{ name: 'c1', resources: { requests: { cpu: '3' } } }] as never } : {};
      const p = pod(spec, status);
      const got = outcome(() => containersOnlyRequests(p));
      const want = outcome(() => podResourceRequestsInMaps(p));
      if (got !== undefined) {
        fast++;
        assert.deepEqual(got, want, JSON.stringify(p));
      }
      assert.deepEqual(outcome(() => computePodResourceRequests(p)), want, JSON.stringify(p));
    }
    assert.ok(fast > 500, `the fast path took ${fast} pods`);
  });

  it('takes the usual pod (cpu and memory requests, containers only) and leaves the rest', () => {
    assert.notEqual(containersOnlyRequests(pod({ containers: [container('a', { cpu: '100m', memory: '500Mi' }), container('b')] })), undefined);
    assert.equal(containersOnlyRequests(pod({ containers: [container('a', { cpu: '100m', 'example.com/gpu': '1' })] })), undefined);
    assert.equal(containersOnlyRequests(pod({ containers: [container('a', { cpu: '1n' })] })), undefined, 'not exact in millicores');
    assert.equal(containersOnlyRequests(pod({ containers: [container('a', { cpu: '1' })], initContainers: [container('i', { cpu: '2' })] })), undefined);
  });
});
