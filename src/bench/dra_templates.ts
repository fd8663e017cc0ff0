// The DRA object templates of upstream's benchmark (test/integration/scheduler_perf/dra/templates/*.yaml),
// keyed by their path under scheduler_perf/. They are Go templates upstream, filled per object
// with its index and the op's template parameters; here they are functions of the same.
import type { KubeObject } from '../api/types.js';
import type { WorkloadParam } from './types.js';

/** What a parameterized template is filled with: the object's index within its op, and the op's parameters. */
export interface TemplateContext {
  index: number;
  /** How many objects the op makes or updates (text/template's `.Count`). */
  count?: number;
  params: Readonly<Record<string, WorkloadParam | undefined>>;
}

export type ObjectTemplate = (ctx: TemplateContext) => KubeObject;

const driver = 'test-driver.cdi.k8s.io';

const intParam = (ctx: TemplateContext, name: string, fallback: number): number => {
  const v = ctx.params[name];
  return typeof v === 'number' && v !== 0 ? v : fallback;
};
const listParam = (ctx: TemplateContext, name: string): readonly Record<string, unknown>[] | undefined => {
  const v = ctx.params[name];
  return Array.isArray(v) ? v : undefined;
};

/** One device of resourceslice-basic-devices.yaml: attributes of an Intel GPU, PCI roots taken in turn. */
function basicDevice(i: number, pciRoots: number): Record<string, unknown> {
  const root = i % pciRoots;
  return {
    name: `basic-device-${i}`,
    attributes: {
      driver: { string: 'xe' },
      driverVersion: { version: '1.2.3' },
      'resource.k8s.io/pciRoot': { string: String(root) },
      family: { string: 'Arc Pro B-Series' },
      health: { string: 'Healthy' },
      model: { string: 'B60' },
      pciAddress: { string: `0000:0${i}:00.0` },
      pciId: { string: '0xe211' },
      pciRoot: { string: `0${root}` },
      'resource.kubernetes.io/pciBusID': { string: `0000:0${i}:00.0` },
      'resource.kubernetes.io/pciRoot': { string: `pci0000:0${root}` },
      sriov: { bool: true },
      type: { string: 'gpu' },
    },
    capacity: { memory: { value: '24480Mi' }, millicores: { value: '1k' } },
  };
}

const podWithClaims = (metadata: Record<string, unknown>, claims: { name: string; resourceClaimTemplateName?: string; resourceClaimName?: string }[], podGroupName?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata,
  spec: {
    containers: [{ image: 'registry.k8s.io/pause:3.10.1', name: 'pause', resources: { claims: claims.map((c) => ({ name: c.name })) } }],
    resourceClaims: claims,
    ...(podGroupName !== undefined ? { schedulingGroup: { podGroupName } } : {}),
  },
} as KubeObject);

/** podgroup-with-claim-*.yaml: a basic PodGroup listing one claim, by name or from a template. */
const podGroupWithClaim = (index: number, claim: { resourceClaimName?: string; resourceClaimTemplateName?: string }): KubeObject => ({
  apiVersion: 'scheduling.k8s.io/v1beta1',
  kind: 'PodGroup',
  metadata: { name: `test-dra-${index}` },
  spec: { resourceClaims: [{ name: 'resource', ...claim }], schedulingPolicy: { basic: {} } },
} as KubeObject);

/** The pod's group under pod-in-podgroup-*.yaml: `{{Mod .Index .PodGroupCount}}`. */
const groupOf = (ctx: TemplateContext): number => ctx.index % intParam(ctx, 'PodGroupCount', 1);

/** A device of resourceslice-consumablecapacity.yaml: shareable, 10G (or 10Gi) of bandwidth taken in steps of 8 from 1M. */
function shareableDevice(i: number, value: string): Record<string, unknown> {
  return {
    name: `shareable-device-${i}`,
    allowMultipleAllocations: true,
    attributes: { 'dra.example.com/index': { int: i } },
    capacity: { bandwidth: { requestPolicy: { default: '1M', validRange: { min: '1M', step: '8' } }, value } },
  };
}

/** A per-node slice of the test driver's pool `resourceslice-<i>`, one of `count` slices. */
function nodeSlice(name: string, index: number, count: number, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name },
    spec: { pool: { name: `resourceslice-${index}`, generation: 1, resourceSliceCount: count }, driver, nodeName: `scheduler-perf-dra-${index}`, ...spec },
  } as KubeObject;
}

/** A pause pod asking for one unit of an extended resource (pause 3.9, as upstream's template). */
const extendedResourcePod = (name: string, resource: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ image: 'registry.k8s.io/pause:3.9', name: 'pause', resources: { requests: { [resource]: '1' }, limits: { [resource]: '1' } } }] },
} as KubeObject);

const claimTemplate = (devices: Record<string, unknown>): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  metadata: { name: 'test-claim-template' },
  spec: { spec: { devices } },
} as KubeObject);

const deviceClass = (name: string, expression: string): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name },
  spec: { selectors: [{ cel: { expression } }] },
} as KubeObject);

export const draTemplates: Readonly<Record<string, ObjectTemplate>> = {
  // Deterministic names, matched by the per-node ResourceSlices.
  'dra/node-with-dra-test-driver.yaml': ({ index }) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `scheduler-perf-dra-${index}`, labels: { 'node-with-dra': 'true' } },
    spec: {},
    status: { capacity: { pods: '110', cpu: '4', memory: '32Gi' }, conditions: [{ status: 'True', type: 'Ready' }], phase: 'Running' },
  } as KubeObject),
  'dra/resourceslice-basic-devices.yaml': (ctx) => {
    const numDevices = intParam(ctx, 'numDevices', 10);
    const pciRoots = intParam(ctx, 'numPCIRoots', 2);
    return {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name: `resourceslice-${ctx.index}` },
      spec: {
        pool: { name: `resourceslice-${ctx.index}`, generation: 1, resourceSliceCount: 1 },
        driver,
        nodeName: `scheduler-perf-dra-${ctx.index}`,
        devices: Array.from({ length: numDevices }, (_, i) => basicDevice(i, pciRoots)),
      },
    } as KubeObject;
  },
  'dra/deviceclass.yaml': () => deviceClass('test-class', `device.driver == "${driver}"`),
  'dra/deviceclass-no-devices.yaml': () => deviceClass('no-devices-class', 'device.driver == "no-such-driver.cdi.k8s.io"'),
  // Upstream writes this one as resource.k8s.io/v1beta2; the object is the same in v1.
  'dra/deviceclass-consumablecapacity.yaml': () => deviceClass('test-class', `device.driver == "${driver}" &&\ndevice.allowMultipleAllocations == true`),
  'dra/resourceclaimtemplate-first-available.yaml': () => claimTemplate({
    requests: [{ name: 'req-0', firstAvailable: [{ name: 'sub-0', deviceClassName: 'no-devices-class' }, { name: 'sub-1', deviceClassName: 'test-class' }] }],
  }),
  // An empty device selector: every device is tainted.
  'dra/devicetaintrule.yaml': () => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceTaintRule',
    metadata: { name: 'taint-all-devices' },
    spec: { taint: { key: 'example.com/taint', value: 'tainted', effect: 'NoSchedule' } },
  } as KubeObject),
  'dra/resourceclaimtemplate-toleration.yaml': () => claimTemplate({
    requests: [{ name: 'req-0', exactly: { deviceClassName: 'test-class', tolerations: [{ key: 'example.com/taint', operator: 'Exists' }] } }],
  }),
  'dra/resourceslice-consumablecapacity.yaml': ({ index }) => nodeSlice(`resourceslice-${index}`, index, 1, {
    devices: [shareableDevice(0, '10G'), shareableDevice(1, '10G'), shareableDevice(2, '10Gi'), shareableDevice(3, '10G')],
  }),
  'dra/resourceclaimtemplate-consumablecapacity.yaml': () => claimTemplate({
    requests: [{ name: 'req-0', exactly: { deviceClassName: 'test-class', count: 2, capacity: { requests: { bandwidth: '2500M' } } } }],
    constraints: [{ requests: ['req-0'], distinctAttribute: 'dra.example.com/index' }],
  }),
  // Two devices sharing one counter set: each consumes half of its four counters.
  'dra/resourceslice-partitionable-countersets.yaml': ({ index }) => nodeSlice(`resourceslice-countersets-${index}`, index, 2, {
    sharedCounters: [{ name: 'counter-set', counters: { counter1: { value: '1' }, counter2: { value: '1' }, counter3: { value: '1' }, counter4: { value: '1' } } }],
  }),
  'dra/resourceslice-partitionable-devices.yaml': ({ index }) => nodeSlice(`resourceslice-devices-${index}`, index, 2, {
    devices: [
      { name: 'device-1', consumesCounters: [{ counterSet: 'counter-set', counters: { counter1: { value: '1' }, counter2: { value: '1' } } }] },
      { name: 'device-2', consumesCounters: [{ counterSet: 'counter-set', counters: { counter3: { value: '1' }, counter4: { value: '1' } } }] },
    ],
  }),
  // The partitionable devices, both declaring the compatibility group "mig" on their counter set.
  'dra/resourceslice-compatibilitygroups-devices.yaml': ({ index }) => nodeSlice(`resourceslice-devices-${index}`, index, 2, {
    devices: [
      { name: 'device-1', consumesCounters: [{ counterSet: 'counter-set', counters: { counter1: { value: '1' }, counter2: { value: '1' } }, compatibilityGroups: ['mig'] }] },
      { name: 'device-2', consumesCounters: [{ counterSet: 'counter-set', counters: { counter3: { value: '1' }, counter4: { value: '1' } }, compatibilityGroups: ['mig'] }] },
    ],
  }),
  'dra/resourceclaim-partitionable.yaml': ({ index }) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: `test-claim-${index}` },
    spec: { devices: { requests: [{ name: 'req-0', exactly: { deviceClassName: 'test-class', count: 2 } }] } },
  } as KubeObject),
  // Eight devices, each one of eight cpu counters and 20Gi (the first) or 10Gi of a 70Gi memory counter:
  // a claim for seven fits only without device-1, which the allocator tries first.
  'dra/resourceslice-partitionable-backtracking-countersets.yaml': ({ index }) => nodeSlice(`resourceslice-countersets-${index}`, index, 2, {
    sharedCounters: [
      { name: 'counter-set-for-cpu', counters: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`cpu${i + 1}`, { value: '1' }])) },
      { name: 'counter-set-for-mem', counters: { mem: { value: '70Gi' } } },
    ],
  }),
  'dra/resourceslice-partitionable-backtracking-devices.yaml': ({ index }) => nodeSlice(`resourceslice-devices-${index}`, index, 2, {
    devices: Array.from({ length: 8 }, (_, i) => ({
      name: `device-${i + 1}`,
      consumesCounters: [
        { counterSet: 'counter-set-for-cpu', counters: { [`cpu${i + 1}`]: { value: '1' } } },
        { counterSet: 'counter-set-for-mem', counters: { mem: { value: i === 0 ? '20Gi' : '10Gi' } } },
      ],
    })),
  }),
  'dra/resourceclaim-partitionable-backtracking.yaml': ({ index }) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: `test-claim-${index}` },
    spec: { devices: { requests: [{ name: 'req-0', exactly: { deviceClassName: 'test-class', count: 7 } }] } },
  } as KubeObject),
  'dra/resourceclaimtemplate-backtracking.yaml': () => claimTemplate({ requests: [{ name: 'req-0', exactly: { deviceClassName: 'test-class', count: 7 } }] }),
  // Class i of $classes; with class example.com/gpu it provides the extended resource example.com/gpu-i.
  'dra/deviceclass-extended-resource.yaml': ({ index, params }) => {
    const c = deviceClass(`test-class-${index}`, `device.driver == "${driver}"`) as KubeObject & { spec: Record<string, unknown> };
    if (params.class === 'example.com/gpu') c.spec.extendedResourceName = `example.com/gpu-${index}`;
    return c;
  },
  // Every class provides the same example.com/gpu, so several nodes can satisfy each pod.
  'dra/deviceclass-extended-resource-scoring.yaml': ({ index }) => {
    const c = deviceClass(`scoring-test-class-${index}`, `device.driver == "${driver}"`) as KubeObject & { spec: Record<string, unknown> };
    c.spec.extendedResourceName = 'example.com/gpu';
    return c;
  },
  'dra/pod-with-extended-resource.yaml': ({ index, params }) => {
    const classes = typeof params.classes === 'number' && params.classes > 0 ? params.classes : 1;
    return extendedResourcePod(`test-dra-${index}`, `${String(params.class)}-${index % classes}`);
  },
  'dra/pod-with-extended-resource-scoring.yaml': ({ index }) => extendedResourcePod(`scoring-test-pod-${index}`, 'example.com/gpu'),
  'dra/resourceclaimtemplate-for-two-devices.yaml': () => claimTemplate({ requests: [{ name: 'req-0', exactly: { deviceClassName: 'test-class', count: 2 } }] }),
  // Each device lists numListValues values of its own under dra.example.com/match; all but the
  // first numNonMatchingDevices also list a shared value, so a matchAttribute claim has to pass
  // over the non-matching block before it finds enough devices with a common value.
  'dra/resourceslice-list-attributes-devices.yaml': (ctx) => {
    const numListValues = intParam(ctx, 'numListValues', 32);
    const nonMatching = intParam(ctx, 'numNonMatchingDevices', 32);
    const shared = typeof ctx.params['sharedValue'] === 'string' && ctx.params['sharedValue'] !== '' ? ctx.params['sharedValue'] : 'shared-value';
    const devices = Array.from({ length: intParam(ctx, 'numDevices', 64) }, (_, d) => ({
      name: `device-${d}`,
      attributes: {
        'dra.example.com/match': {
          strings: [...(d >= nonMatching ? [shared] : []), ...Array.from({ length: numListValues }, (_, v) => `device-${d}-value-${v}`)],
        },
      },
    }));
    return nodeSlice(`resourceslice-${ctx.index}`, ctx.index, 1, { devices });
  },
  'dra/resourceclaim.yaml': ({ index }) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: `test-claim-${index}` },
    spec: { devices: { requests: [{ name: 'req-0', exactly: { deviceClassName: 'test-class' } }] } },
  } as KubeObject),
  'dra/resourceclaimtemplate.yaml': (ctx) => {
    const selectors = listParam(ctx, 'selectors');
    const constraints = listParam(ctx, 'constraints');
    const requests = Array.from({ length: intParam(ctx, 'numRequests', 1) }, (_, i) => ({
      name: `req-${i}`,
      exactly: { deviceClassName: 'test-class', ...(selectors ? { selectors } : {}) },
    }));
    return {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 'test-claim-template' },
      spec: { spec: { devices: { ...(constraints ? { constraints } : {}), requests } } },
    } as KubeObject;
  },
  'dra/pod-with-claim-template.yaml': () => podWithClaims({ generateName: 'test-dra' }, [{ name: 'resource', resourceClaimTemplateName: 'test-claim-template' }]),
  // One device per pod group, in a slice every DRA node sees (nodeSelector node-with-dra=true).
  'dra/resourceslice-podgroup.yaml': ({ index }) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: `resourceslice-podgroup-${index}` },
    spec: {
      pool: { name: `resourceslice-${index}`, generation: 1, resourceSliceCount: 1 },
      driver,
      nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'node-with-dra', operator: 'In', values: ['true'] }] }] },
      devices: [{ name: 'device' }],
    },
  } as KubeObject),
  'dra/podgroup-with-claim-ref.yaml': ({ index }) => podGroupWithClaim(index, { resourceClaimName: `test-claim-${index}` }),
  'dra/podgroup-with-claim-template.yaml': ({ index }) => podGroupWithClaim(index, { resourceClaimTemplateName: 'test-claim-template' }),
  'dra/pod-in-podgroup-with-claim-ref.yaml': (ctx) =>
    podWithClaims({ generateName: 'test-dra' }, [{ name: 'resource', resourceClaimName: `test-claim-${groupOf(ctx)}` }], `test-dra-${groupOf(ctx)}`),
  'dra/pod-in-podgroup-with-claim-template.yaml': (ctx) =>
    podWithClaims({ generateName: 'test-dra' }, [{ name: 'resource', resourceClaimTemplateName: 'test-claim-template' }], `test-dra-${groupOf(ctx)}`),
  // Five pods share each claim.
  'dra/pod-with-claim-ref.yaml': ({ index }) => podWithClaims({ name: `test-dra-${index}` }, [{ name: 'resource', resourceClaimName: `test-claim-${Math.floor(index / 5)}` }]),
};
