// The DRA object templates of upstream's benchmark (test/integration/scheduler_perf/dra/templates/*.yaml),
// keyed by their path under scheduler_perf/. They are Go templates upstream, filled per object
// with its index and the op's template parameters; here they are functions of the same.
import type { KubeObject } from '../api/types.js';
import type { WorkloadParam } from './types.js';

/** What a parameterized template is filled with: the object's index within its op, and the op's parameters. */
export interface TemplateContext {
  index: number;
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

const podWithClaims = (metadata: Record<string, unknown>, claims: { name: string; resourceClaimTemplateName?: string; resourceClaimName?: string }[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata,
  spec: {
    containers: [{ image: 'registry.k8s.io/pause:3.10.1', name: 'pause', resources: { claims: claims.map((c) => ({ name: c.name })) } }],
    resourceClaims: claims,
  },
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
  'dra/deviceclass.yaml': () => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name: 'test-class' },
    spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] },
  } as KubeObject),
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
  // Five pods share each claim.
  'dra/pod-with-claim-ref.yaml': ({ index }) => podWithClaims({ name: `test-dra-${index}` }, [{ name: 'resource', resourceClaimName: `test-claim-${Math.floor(index / 5)}` }]),
};
