// Scenarios of upstream's allocator test table (structured/internal/allocatortesting), in our
// own words: which devices the allocator picks on a node, in which order, and when it refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeSelector } from '../../api/types.js';
import type {
  AllocationResult,
  Device,
  DeviceAllocationConfiguration,
  DeviceRequest,
  DeviceRequestAllocationResult,
  DeviceToleration,
  ResourceClaim,
  ResourceSlice,
} from '../../api/dra_types.js';
import { AllocationError, FailedAllocationOnNodeError, makeDeviceID, makeSharedDeviceID, type AllocatedState } from './index.js';
import {
  allOf,
  claim,
  classA,
  classB,
  device,
  deviceClass,
  driverA,
  driverB,
  exactly,
  newAllocator,
  node,
  slice,
  type AllocatorSetup,
} from './test_helpers.js';

const node1 = node('node-1', { region: 'region-1', planet: 'earth' });
const node2 = node('node-2', { region: 'region-2' });

function local(name: string): NodeSelector {
  return { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [name] }] }] };
}

function labelSelector(key: string, value: string): NodeSelector {
  return { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values: [value] }] }] };
}

function res(request: string, driver: string, pool: string, dev: string, extra: Partial<DeviceRequestAllocationResult> = {}): DeviceRequestAllocationResult {
  return { request, driver, pool, device: dev, ...extra };
}

function allocation(selector: NodeSelector | undefined, results: DeviceRequestAllocationResult[], config?: DeviceAllocationConfiguration[]): AllocationResult {
  const out: AllocationResult = { devices: config ? { results, config } : { results } };
  if (selector) out.nodeSelector = selector;
  return out;
}

function opaque(driver: string, attribute: string): { opaque: { driver: string; parameters: unknown } } {
  return { opaque: { driver, parameters: { [attribute]: `${attribute}Value` } } };
}

const memory = (value: string): { capacity: Record<string, { value: string }> } => ({ capacity: { memory: { value } } });
const memoryAtLeast = (q: string): { selectors: { cel: { expression: string } }[] } => ({
  selectors: [{ cel: { expression: `device.capacity["${driverA}"].memory.compareTo(quantity("${q}")) >= 0` } }],
});

/** A device with the attribute `type`, and a selector for that type (the pruned-search cases). */
const typed = (name: string, type: string, extra: Partial<Device> = {}): Device => device(name, { attributes: { type: { string: type } }, ...extra });
/** One slice: device-1 of type X, device-2 and device-3 of type Y. */
const oneXTwoY = slice('slice-1', 'node-1', 'pool-1', driverA, [typed('device-1', 'X'), typed('device-2', 'Y'), typed('device-3', 'Y')]);
const typeIs = (type: string): { selectors: { cel: { expression: string } }[] } => ({ selectors: [{ cel: { expression: `device.attributes["${driverA}"].type == "${type}"` } }] });

function withPool(s: ResourceSlice, generation: number, count: number): ResourceSlice {
  return { ...s, spec: { ...s.spec, pool: { ...s.spec.pool, generation, resourceSliceCount: count } } };
}

function counterSlice(name: string, nodeName: string | undefined, pool: string, counters: Record<string, string>, extra: Partial<ResourceSlice['spec']> = {}): ResourceSlice {
  const s = slice(name, nodeName, pool, driverA, [], {
    sharedCounters: [{ name: 'counter-set-1', counters: Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, { value: v }])) }],
    ...extra,
  });
  delete s.spec.devices;
  return withPool(s, 1, 2);
}

const consumes = (counters: Record<string, string>): { consumesCounters: { counterSet: string; counters: Record<string, { value: string }> }[] } => ({
  consumesCounters: [{ counterSet: 'counter-set-1', counters: Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, { value: v }])) }],
});

function allocated(...ids: string[]): AllocatedState {
  return { allocatedDevices: new Set(ids), allocatedSharedDeviceIDs: new Set(), aggregatedCapacity: new Map() };
}

function prioritized(name: string, subs: { name: string; className: string; count?: number; mode?: 'All'; extra?: object }[]): DeviceRequest {
  return {
    name,
    firstAvailable: subs.map((s) => ({ name: s.name, deviceClassName: s.className, allocationMode: s.mode ?? 'ExactCount', ...(s.mode ? {} : { count: s.count ?? 1 }), ...s.extra })),
  };
}

const tolerateNoExecute: DeviceToleration = { key: 'taint-key', operator: 'Equal', value: 'taint-value', effect: 'NoExecute' };
const taintNoSchedule = { key: 'taint-key', value: 'taint-value', effect: 'NoSchedule' as const };
const taintNoExecute = { key: 'taint-key', value: 'taint-value', effect: 'NoExecute' as const };

interface Case extends AllocatorSetup {
  name: string;
  claims: ResourceClaim[];
  onNode?: typeof node1;
  /** The allocations; null when the node cannot satisfy the claims. */
  want?: AllocationResult[] | null;
  /** A fatal error whose message contains this text. */
  wantError?: string;
  /** A node-only error whose message contains this text. */
  wantNodeError?: string;
  /** How many search steps upstream's incubating allocator takes (its start-location pruning). */
  wantSteps?: number;
}

const oneDevice = (nodeName: string | undefined, pool = 'pool-1', driver = driverA, extra = {}): ResourceSlice => slice('slice-1', nodeName, pool, driver, [device('device-1')], extra);
const classes = [deviceClass(classA, driverA), deviceClass(classB, driverB)];

const cases: Case[] = [
  { name: 'no claims allocate to nothing', classes, slices: [oneDevice('node-1')], claims: [], want: [] },
  { name: 'a claim without requests gets an empty allocation', classes, slices: [oneDevice('node-1')], claims: [claim('claim-0', [])], want: [{ devices: {} }] },
  {
    name: 'one request gets the node-local device with a node selector for that node',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'devices on other nodes are not used',
    classes,
    slices: [oneDevice('node-1', 'pool-1', driverB), slice('slice-2', 'node-2', 'pool-2', driverA, [device('device-1')])],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    onNode: node2,
    want: [allocation(local('node-2'), [res('req-0', driverA, 'pool-2', 'device-1')])],
  },
  {
    name: 'small and large requests each get a fitting device',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', memory('1Gi')), device('device-2', memory('2Gi'))])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, memoryAtLeast('1Gi')), exactly('req-1', classA, 1, memoryAtLeast('2Gi'))])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-1', driverA, 'pool-1', 'device-2')])],
  },
  {
    name: 'the large device taken for the small request is given back when the large request needs it',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-2', memory('2Gi')), device('device-1', memory('1Gi'))])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, memoryAtLeast('1Gi')), exactly('req-1', classA, 1, memoryAtLeast('2Gi'))])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-1', driverA, 'pool-1', 'device-2')])],
  },
  {
    name: 'backtracking also works across claims',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-2', memory('2Gi')), device('device-1', memory('1Gi'))])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, memoryAtLeast('1Gi'))]), claim('claim-1', [exactly('req-1', classA, 1, memoryAtLeast('2Gi'))])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')]), allocation(local('node-1'), [res('req-1', driverA, 'pool-1', 'device-2')])],
  },
  {
    name: 'a request for two devices takes them from two pools in pool order',
    classes,
    slices: [slice('slice-2', 'node-1', 'pool-2', driverA, [device('device-1')]), oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA, 2)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-0', driverA, 'pool-2', 'device-1')])],
  },
  {
    name: 'only the newest generation of a pool counts',
    classes,
    slices: [withPool(slice('slice-old', 'node-1', 'pool-1', driverA, [device('device-1')]), 1, 2), withPool(slice('slice-new', 'node-1', 'pool-1', driverA, [device('device-2')]), 2, 2)],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'a pool with a device name twice is invalid and fails only this node',
    classes,
    slices: [withPool(oneDevice('node-1'), 1, 2), withPool({ ...oneDevice('node-1'), metadata: { name: 'slice-1-2' } }, 1, 2)],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    wantNodeError: 'invalid resource pools were encountered',
  },
  { name: 'no slices, no devices', classes, slices: [], claims: [claim('claim-0', [exactly('req-0', classA)])], want: null },
  {
    name: 'two claims cannot share one device',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)]), claim('claim-1', [exactly('req-1', classA)])],
    want: null,
  },
  {
    name: 'a class that does not exist is an error',
    classes: [],
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    wantError: 'claim default/claim-0, request req-0: could not retrieve device class class-a: deviceclass.resource.k8s.io "class-a" not found',
  },
  {
    name: 'a request without a class is an error',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', '')])],
    wantError: 'claim default/claim-0, request req-0: missing device class name (unsupported request type?)',
  },
  {
    name: 'All takes every matching device',
    classes,
    slices: [oneDevice('node-1'), oneDevice('node-1', 'pool-2')],
    claims: [claim('claim-0', [allOf('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-0', driverA, 'pool-2', 'device-1')])],
  },
  {
    name: 'All on a pool still being updated is an error',
    classes,
    slices: [withPool(oneDevice('node-1'), 1, 2)],
    claims: [claim('claim-0', [allOf('req-0', classA)])],
    wantError: 'claim default/claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated',
  },
  {
    name: 'All plus another claim of another class',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')]), oneDevice('node-1', 'pool-1', driverB)],
    claims: [claim('claim-1', [exactly('req-0', classB)]), claim('claim-0', [allOf('req-0', classA)])],
    want: [
      allocation(local('node-1'), [res('req-0', driverB, 'pool-1', 'device-1')]),
      allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-0', driverA, 'pool-1', 'device-2')]),
    ],
  },
  {
    name: 'All and another claim wanting the same single device have no solution',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [allOf('req-0', classA)]), claim('claim-1', [exactly('req-0', classA)])],
    want: null,
  },
  { name: 'All with a slice without devices has nothing to take', classes, slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [])], claims: [claim('claim-0', [allOf('req-0', classA)])], want: null },
  {
    name: 'All fails when one of the devices is allocated elsewhere',
    classes,
    allocated: allocated(makeDeviceID(driverA, 'pool-1', 'device-1')),
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')])],
    claims: [claim('claim-0', [allOf('req-0', classA)])],
    want: null,
  },
  {
    name: 'admin access may use allocated devices, and says so in the result',
    classes,
    allocated: allocated(makeDeviceID(driverA, 'pool-1', 'device-1')),
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')])],
    claims: [claim('claim-0', [{ name: 'req-0', exactly: { deviceClassName: classA, allocationMode: 'All', adminAccess: true } }])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { adminAccess: true }), res('req-0', driverA, 'pool-1', 'device-2', { adminAccess: true })])],
  },
  {
    name: 'admin access with the feature off is an error',
    classes,
    features: { adminAccess: false },
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { adminAccess: true })])],
    wantError: 'claim default/claim-0, request req-0: admin access is requested, but the feature is disabled',
  },
  {
    name: 'a network-attached device carries its slice node selector into the result',
    classes,
    slices: [oneDevice(undefined, 'pool-1', driverA, { nodeSelector: labelSelector('region', 'region-1') })],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(labelSelector('region', 'region-1'), [res('req-0', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'a network-attached device for another region is not available',
    classes,
    slices: [oneDevice(undefined, 'pool-1', driverA, { nodeSelector: labelSelector('region', 'region-1') })],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    onNode: node2,
    want: null,
  },
  {
    name: 'several network-attached devices give the union of their selectors',
    classes,
    slices: [
      oneDevice(undefined, 'pool-1', driverA, { nodeSelector: labelSelector('region', 'region-1') }),
      oneDevice(undefined, 'pool-2', driverA, { allNodes: true }),
      oneDevice(undefined, 'pool-3', driverA, { nodeSelector: labelSelector('planet', 'earth') }),
      oneDevice(undefined, 'pool-4', driverA, { nodeSelector: local('node-1') }),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA, 4)])],
    want: [
      allocation(
        {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'region', operator: 'In', values: ['region-1'] },
                { key: 'planet', operator: 'In', values: ['earth'] },
              ],
              matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }],
            },
          ],
        },
        [res('req-0', driverA, 'pool-1', 'device-1'), res('req-0', driverA, 'pool-2', 'device-1'), res('req-0', driverA, 'pool-3', 'device-1'), res('req-0', driverA, 'pool-4', 'device-1')],
      ),
    ],
  },
  {
    name: 'one node-local device makes the whole allocation local',
    classes,
    slices: [oneDevice(undefined, 'pool-1', driverA, { nodeSelector: labelSelector('region', 'region-1') }), oneDevice('node-1', 'pool-2')],
    claims: [claim('claim-0', [exactly('req-0', classA, 2)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-0', driverA, 'pool-2', 'device-1')])],
  },
  {
    name: 'devices allocated elsewhere are not used',
    classes,
    allocated: allocated(makeDeviceID(driverA, 'pool-1', 'device-1')),
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'matchAttribute holds for int, version, string and bool attributes',
    classes,
    slices: [
      slice('slice-1', 'node-1', 'pool-1', driverA, [
        device('device-1', { attributes: { numa: { int: 1 }, driverVersion: { version: '1.0.0' }, s: { string: 'x' }, b: { bool: true } } }),
        device('device-2', { attributes: { numa: { int: 1 }, driverVersion: { version: '1.0.0' }, s: { string: 'x' }, b: { bool: true } } }),
      ]),
    ],
    claims: [
      claim(
        'claim-0',
        [exactly('req-0', classA), exactly('req-1', classA)],
        ['numa', 'driverVersion', 's', 'b'].map((a) => ({ matchAttribute: `${driverA}/${a}` })),
      ),
    ],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-1', driverA, 'pool-1', 'device-2')])],
  },
  {
    name: 'matchAttribute on an attribute no device has finds nothing',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)], [{ matchAttribute: `${driverA}/missing` }])],
    want: null,
  },
  {
    name: 'matchAttribute with different values finds nothing',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { attributes: { numa: { int: 1 } } }), device('device-2', { attributes: { numa: { int: 2 } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 2)], [{ matchAttribute: `${driverA}/numa` }])],
    want: null,
  },
  {
    name: 'matchAttribute that All cannot satisfy is an error',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { attributes: { numa: { int: 1 } } }), device('device-2', { attributes: { numa: { int: 2 } } })])],
    claims: [claim('claim-0', [allOf('req-0', classA)], [{ matchAttribute: `${driverA}/numa` }])],
    wantError: 'claim default/claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied',
  },
  {
    name: 'a constraint for one request leaves the others free',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { attributes: { v: { version: '1.0.0' } } }), device('device-2', { attributes: { v: { version: '2.0.0' } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA), exactly('req-1', classA)], [{ requests: ['req-0'], matchAttribute: `${driverA}/v` }])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-1', driverA, 'pool-1', 'device-2')])],
  },
  {
    name: 'a constraint failing later makes the first request choose again',
    classes,
    slices: [
      slice('slice-1', 'node-1', 'pool-1', driverA, [
        device('device-1', { attributes: { v: { version: '1.0.0' }, s: { string: 'a' } } }),
        device('device-2', { attributes: { v: { version: '2.0.0' }, s: { string: 'b' } } }),
        device('device-3', { attributes: { v: { version: '3.0.0' }, s: { string: 'b' } } }),
      ]),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA), exactly('req-1', classA)], [{ requests: ['req-0'], matchAttribute: `${driverA}/v` }, { matchAttribute: `${driverA}/s` }])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-2'), res('req-1', driverA, 'pool-1', 'device-3')])],
  },
  {
    name: 'distinctAttribute takes devices with different values',
    classes,
    slices: [
      slice('slice-1', 'node-1', 'pool-1', driverA, [
        device('device-1', { attributes: { numa: { int: 1 } } }),
        device('device-2', { attributes: { numa: { int: 1 } } }),
        device('device-3', { attributes: { numa: { int: 2 } } }),
      ]),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA, 2)], [{ distinctAttribute: `${driverA}/numa` }])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-0', driverA, 'pool-1', 'device-3')])],
  },
  {
    name: 'class config applies to all requests of the class',
    classes: [{ ...deviceClass(classA, driverA), spec: { ...deviceClass(classA, driverA).spec, config: [opaque(driverA, 'classAttribute')] } }],
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')], [{ source: 'FromClass', ...opaque(driverA, 'classAttribute') }])],
  },
  {
    name: 'class configs come once per class, naming the requests that use it',
    classes: [
      { ...deviceClass(classA, driverA), spec: { ...deviceClass(classA, driverA).spec, config: [opaque(driverA, 'classAttribute-A')] } },
      { ...deviceClass(classB, driverB), spec: { ...deviceClass(classB, driverB).spec, config: [opaque(driverB, 'classAttribute-B')] } },
    ],
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-0'), device('device-1')]), slice('slice-2', 'node-1', 'pool-1', driverB, [device('device-1')])],
    claims: [claim('claim-0', [exactly('req-0', classA), exactly('req-1', classA), exactly('req-2', classB)])],
    want: [
      allocation(
        local('node-1'),
        [res('req-0', driverA, 'pool-1', 'device-0'), res('req-1', driverA, 'pool-1', 'device-1'), res('req-2', driverB, 'pool-1', 'device-1')],
        [
          { source: 'FromClass', ...opaque(driverA, 'classAttribute-A'), requests: ['req-0', 'req-1'] },
          { source: 'FromClass', ...opaque(driverB, 'classAttribute-B'), requests: ['req-2'] },
        ],
      ),
    ],
  },
  {
    name: 'claim config for two of three requests keeps its request list',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-0'), device('device-1'), device('device-2')])],
    claims: [claim('claim-0', [exactly('req-0', classA), exactly('req-1', classA), exactly('req-2', classA)], [], { config: [{ requests: ['req-0', 'req-1'], ...opaque(driverA, 'deviceAttribute') }] })],
    want: [
      allocation(
        local('node-1'),
        [res('req-0', driverA, 'pool-1', 'device-0'), res('req-1', driverA, 'pool-1', 'device-1'), res('req-2', driverA, 'pool-1', 'device-2')],
        [{ source: 'FromClaim', ...opaque(driverA, 'deviceAttribute'), requests: ['req-0', 'req-1'] }],
      ),
    ],
  },
  {
    name: 'claim config without requests applies to all',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)], [], { config: [opaque(driverA, 'deviceAttribute')] })],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')], [{ source: 'FromClaim', ...opaque(driverA, 'deviceAttribute') }])],
  },
  {
    name: 'a selector without CEL is an error',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { selectors: [{}] })])],
    wantError: 'claim default/claim-0, request req-0, selector #0: CEL expression empty (unsupported selector type?)',
  },
  {
    name: 'an unknown allocation mode is an error',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { allocationMode: 'Other' as 'All' })])],
    wantError: 'claim default/claim-0, request req-0: unsupported count mode Other',
  },
  {
    name: 'an empty constraint is an error',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)], [{}])],
    wantError: 'claim default/claim-0, constraint #0: empty constraint (unsupported constraint type?)',
  },
  {
    name: 'more devices than a claim may hold is an error',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA, 33)])],
    wantError: 'claim default/claim-0, request req-0: adding 33 devices exceeds the claim limit of 32, with 0 already accounted for',
  },
  {
    name: 'the first subrequest whose class has no device is skipped',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [prioritized('req-0', [{ name: 'subReq-0', className: classB }, { name: 'subReq-1', className: classA }])])],
    want: [allocation(local('node-1'), [res('req-0/subReq-1', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'no subrequest fits, no allocation',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [prioritized('req-0', [{ name: 'subReq-0', className: classB }, { name: 'subReq-1', className: classA, count: 2 }])])],
    want: null,
  },
  {
    name: 'a later request makes the prioritized request fall back to its second choice',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', memory('8Gi'))]), slice('slice-2', 'node-1', 'pool-2', driverA, [device('device-2', memory('4Gi'))])],
    claims: [
      claim('claim-0', [
        prioritized('req-0', [
          { name: 'subReq-0', className: classA, extra: memoryAtLeast('8Gi') },
          { name: 'subReq-1', className: classA, extra: memoryAtLeast('4Gi') },
        ]),
        exactly('req-1', classA, 1, memoryAtLeast('8Gi')),
      ]),
    ],
    want: [allocation(local('node-1'), [res('req-0/subReq-1', driverA, 'pool-2', 'device-2'), res('req-1', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'claim config for the chosen subrequest is included',
    classes,
    slices: [oneDevice('node-1')],
    claims: [
      claim('claim-0', [prioritized('req-0', [{ name: 'subReq-0', className: classB }, { name: 'subReq-1', className: classA }])], [], {
        config: [{ requests: ['req-0/subReq-0'], ...opaque(driverB, 'b') }, { requests: ['req-0/subReq-1'], ...opaque(driverA, 'a') }],
      }),
    ],
    want: [allocation(local('node-1'), [res('req-0/subReq-1', driverA, 'pool-1', 'device-1')], [{ source: 'FromClaim', ...opaque(driverA, 'a') }])],
  },
  {
    name: 'a subrequest with All falls back when a device it needs is allocated',
    classes,
    allocated: allocated(makeDeviceID(driverA, 'pool-1', 'device-1')),
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')]), slice('slice-2', 'node-1', 'pool-2', driverB, [device('device-1')])],
    claims: [claim('claim-0', [prioritized('req-0', [{ name: 'subReq-0', className: classA, mode: 'All' }, { name: 'subReq-1', className: classB }])])],
    want: [allocation(local('node-1'), [res('req-0/subReq-1', driverB, 'pool-2', 'device-1')])],
  },
  {
    name: 'subrequests with the prioritized list off are an error',
    classes,
    features: { prioritizedList: false },
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [prioritized('req-0', [{ name: 'subReq-0', className: classA }])])],
    wantError: 'claim default/claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature is disabled',
  },
  {
    name: 'partitionable devices share counters: the one that would exceed them is skipped',
    classes,
    slices: [
      withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', consumes({ memory: '4Gi' })), device('device-2', consumes({ memory: '6Gi' })), device('device-3', consumes({ memory: '4Gi' }))]), 1, 2),
      counterSlice('slice-2', 'node-1', 'pool-1', { memory: '8Gi' }),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA), exactly('req-1', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-1', driverA, 'pool-1', 'device-3')])],
  },
  {
    name: 'counters consumed by allocated devices are not available',
    classes,
    allocated: allocated(makeDeviceID(driverA, 'pool-1', 'device-1')),
    slices: [
      withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', consumes({ memory: '4Gi' })), device('device-2', consumes({ memory: '6Gi' }))]), 1, 2),
      counterSlice('slice-2', 'node-1', 'pool-1', { memory: '8Gi' }),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'a device consuming an undefined counter set makes its pool invalid',
    classes,
    slices: [withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [{ name: 'device-1', consumesCounters: [{ counterSet: 'nope', counters: { memory: { value: '1' } } }] }]), 1, 2), counterSlice('slice-2', 'node-1', 'pool-1', { memory: '8Gi' })],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    wantNodeError: 'invalid resource pools were encountered',
  },
  {
    name: 'partitionable devices off: devices consuming counters are left alone',
    classes,
    features: { partitionableDevices: false },
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', consumes({ memory: '4Gi' }))])],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'per-device node selection uses the device node selector',
    classes,
    slices: [
      withPool(slice('slice-1', undefined, 'pool-1', driverA, [device('device-1', { ...consumes({ memory: '4Gi' }), nodeSelector: labelSelector('region', 'region-1') })], { perDeviceNodeSelection: true }), 1, 2),
      counterSlice('slice-2', undefined, 'pool-1', { memory: '18Gi' }, { perDeviceNodeSelection: true }),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(labelSelector('region', 'region-1'), [res('req-0', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'per-device node selection with a node name for another node finds nothing',
    classes,
    slices: [slice('slice-1', undefined, 'pool-1', driverA, [device('device-1', { nodeName: 'node-2' })], { perDeviceNodeSelection: true })],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'tainted devices are not used',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { taints: [taintNoSchedule] }), device('device-2', { taints: [taintNoExecute] })])],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'a tolerated taint is fine and the toleration is in the result',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { taints: [taintNoSchedule] }), device('device-2', { taints: [taintNoExecute] })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { tolerations: [tolerateNoExecute] })])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-2', { tolerations: [tolerateNoExecute] })])],
  },
  {
    name: 'a taint with effect None does not keep a device',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { taints: [{ key: 'k', effect: 'None' }] })])],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'device taints off: taints are ignored',
    classes,
    features: { deviceTaints: false },
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { taints: [taintNoSchedule] })])],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'binding conditions are copied into the result',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { bindingConditions: ['IsPrepared'], bindingFailureConditions: ['BindingFailed'] })])],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { bindingConditions: ['IsPrepared'], bindingFailureConditions: ['BindingFailed'] })])],
  },
  {
    name: 'pools with binding conditions come last',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { bindingConditions: ['IsPrepared'], bindingFailureConditions: ['BindingFailed'] })]), slice('slice-2', 'node-1', 'pool-2', driverA, [device('device-1')])],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-2', 'device-1')])],
  },
  {
    name: 'binding conditions off: such devices are not used',
    classes,
    features: { deviceBindingAndStatus: false },
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { bindingConditions: ['IsPrepared'], bindingFailureConditions: ['BindingFailed'] })])],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'a device that binds to a node makes the allocation local',
    classes,
    slices: [oneDevice(undefined, 'pool-1', driverA, { allNodes: true, devices: [device('device-1', { bindsToNode: true, bindingConditions: ['c'], bindingFailureConditions: ['f'] })] })],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { bindingConditions: ['c'], bindingFailureConditions: ['f'] })])],
  },
  {
    name: 'a CEL runtime error names the claim, selector and device with upstream hint',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { selectors: [{ cel: { expression: `device.attributes["${driverA}"].model == "x"` } }] })])],
    wantError: `claim default/claim-0: selector #0 on device driver-a/pool-1/device-1: CEL runtime error: no such key: model. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields`,
  },
  {
    name: 'a class selector that does not compile names the class',
    classes: [{ metadata: { name: classA }, spec: { selectors: [{ cel: { expression: '1 +' } }] } }],
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    wantError: 'class class-a: selector #0: CEL compile error: compilation failed: ERROR: <input>:1:4:',
  },
  {
    name: 'multi-allocation devices are shared and record the consumed capacity',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { memory: { value: '8Gi', requestPolicy: { default: '1Gi', validRange: { min: '1Gi', step: '1Gi' } } } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { memory: '2Gi' } } })]), claim('claim-1', [exactly('req-0', classA)])],
    want: [
      allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { shareID: 'share-1', consumedCapacity: { memory: '2Gi' } })]),
      allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { shareID: 'share-2', consumedCapacity: { memory: '1Gi' } })]),
    ],
  },
  {
    name: 'a capacity request rounds up to the next step',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { memory: { value: '8Gi', requestPolicy: { default: '1Gi', validRange: { min: '1Gi', step: '1Gi' } } } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { memory: '1500Mi' } } })])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { shareID: 'share-1', consumedCapacity: { memory: '2Gi' } })])],
  },
  {
    name: 'capacity consumed by other shares limits what is left',
    classes,
    allocated: {
      allocatedDevices: new Set(),
      allocatedSharedDeviceIDs: new Set([makeSharedDeviceID(makeDeviceID(driverA, 'pool-1', 'device-1'), 'other')]),
      aggregatedCapacity: new Map([[makeDeviceID(driverA, 'pool-1', 'device-1'), new Map([['memory', 7n * 1024n ** 3n * 1_000_000_000n]])]]),
    },
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { memory: { value: '8Gi' } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { memory: '2Gi' } } })])],
    want: null,
  },
  {
    name: 'a capacity request for a capacity the device lacks does not fit',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { memory: { value: '8Gi' } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { cores: '2' } } })])],
    want: null,
  },
  {
    name: 'capacity requests with consumable capacity off are an error',
    classes,
    features: { consumableCapacity: false },
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { memory: '1' } } })])],
    wantError: 'claim default/claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled',
  },

  {
    name: 'pruned search: five of four devices in one slice fails after 16 steps',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, ['device-1', 'device-2', 'device-3', 'device-4'].map((n) => device(n)))],
    claims: [claim('claim-0', [exactly('req-0', classA, 5)])],
    want: null,
    wantSteps: 16,
  },
  {
    name: 'pruned search: the same over two slices of one pool',
    classes,
    slices: [
      withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')]), 1, 2),
      withPool(slice('slice-2', 'node-1', 'pool-1', driverA, [device('device-3'), device('device-4')]), 1, 2),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA, 5)])],
    want: null,
    wantSteps: 16,
  },
  {
    name: 'pruned search: the same over four pools',
    classes,
    slices: ['1', '2', '3', '4'].map((i) => slice(`slice-${i}`, 'node-1', `pool-${i}`, driverA, [device(`device-${i}`)])),
    claims: [claim('claim-0', [exactly('req-0', classA, 5)])],
    want: null,
    wantSteps: 16,
  },
  {
    name: 'pruned search: backtracking tries each pair of devices once',
    classes,
    slices: [oneXTwoY],
    claims: [claim('claim-0', [exactly('req-1', classA, 2), exactly('req-2', classA, 1, typeIs('X'))])],
    want: [allocation(local('node-1'), [res('req-1', driverA, 'pool-1', 'device-2'), res('req-1', driverA, 'pool-1', 'device-3'), res('req-2', driverA, 'pool-1', 'device-1')])],
    wantSteps: 12,
  },
  {
    name: 'pruned search: backtracking across slices and pools, binding-condition pools last',
    classes,
    slices: [
      withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [typed('device-1', 'X')]), 1, 2),
      withPool(slice('slice-2', 'node-1', 'pool-1', driverA, [typed('device-2', 'Y')]), 1, 2),
      slice('slice-3', 'node-1', 'pool-2', driverA, [typed('device-3', 'Y', { bindingConditions: ['IsPrepare'], bindingFailureConditions: [] })]),
    ],
    claims: [claim('claim-0', [exactly('req-1', classA, 2), exactly('req-2', classA, 1, typeIs('X'))])],
    want: [
      allocation(local('node-1'), [
        res('req-1', driverA, 'pool-1', 'device-2'),
        res('req-1', driverA, 'pool-2', 'device-3', { bindingConditions: ['IsPrepare'] }),
        res('req-2', driverA, 'pool-1', 'device-1'),
      ]),
    ],
    wantSteps: 12,
  },
  {
    name: 'pruned search with prioritized lists',
    classes,
    slices: [oneXTwoY],
    claims: [
      claim('claim-0', [
        prioritized('req-1', [
          { name: 'subReq-0', className: classA, count: 3, extra: typeIs('Y') },
          { name: 'subReq-1', className: classA, count: 2 },
        ]),
        prioritized('req-2', [
          { name: 'subReq-0', className: classA, count: 2 },
          { name: 'subReq-1', className: classA, count: 1, extra: typeIs('X') },
        ]),
      ]),
    ],
    want: [allocation(local('node-1'), [res('req-1/subReq-1', driverA, 'pool-1', 'device-2'), res('req-1/subReq-1', driverA, 'pool-1', 'device-3'), res('req-2/subReq-1', driverA, 'pool-1', 'device-1')])],
    wantSteps: 26,
  },
  {
    name: 'All in a pool spread over two nodes takes only this node devices',
    classes,
    slices: [withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1')]), 1, 2), withPool(slice('slice-2', 'node-2', 'pool-1', driverA, [device('device-2')]), 1, 2)],
    claims: [claim('claim-0', [allOf('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'a newer generation on another node makes this node slice stale',
    classes,
    slices: [withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1')]), 1, 2), withPool(slice('slice-2', 'node-2', 'pool-1', driverA, [device('device-2')]), 2, 2)],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'an incomplete newer generation elsewhere does not hide a complete older one here',
    classes,
    slices: [
      withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1')]), 1, 2),
      withPool(slice('slice-1b', 'node-1', 'pool-1', driverA, [device('device-2')]), 1, 2),
      withPool(slice('slice-2', 'node-2', 'pool-1', driverA, [device('device-1')]), 2, 2),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'counters shared with an allocated device on another node',
    classes,
    allocated: allocated(makeDeviceID(driverA, 'pool-1', 'device-3')),
    slices: [
      withPool({ ...counterSlice('slice-1', 'node-1', 'pool-1', { memory: '8Gi' }) }, 1, 3),
      withPool(slice('slice-2', 'node-1', 'pool-1', driverA, [device('device-1', { ...consumes({ memory: '6Gi' }), ...memory('6Gi') }), device('device-2', { ...consumes({ memory: '2Gi' }), ...memory('2Gi') })]), 1, 3),
      withPool(slice('slice-3', 'node-2', 'pool-1', driverA, [device('device-3', consumes({ memory: '6Gi' }))]), 1, 3),
    ],
    claims: [
      claim('claim-0', [
        prioritized('req-0', [
          { name: 'subReq-0', className: classA, extra: memoryAtLeast('6Gi') },
          { name: 'subReq-1', className: classA, extra: memoryAtLeast('2Gi') },
        ]),
      ]),
    ],
    want: [allocation(local('node-1'), [res('req-0/subReq-1', driverA, 'pool-1', 'device-2')])],
  },
  {
    name: 'an invalid pool does not matter when another pool has the device',
    classes,
    slices: [
      withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1')]), 1, 2),
      withPool(slice('slice-2', 'node-1', 'pool-1', driverA, [device('device-1')]), 1, 2),
      slice('slice-3', 'node-1', 'pool-2', driverA, [device('device-2')]),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-2', 'device-2')])],
  },
  {
    name: 'nothing comes from an incomplete pool',
    classes,
    slices: [withPool(slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1')]), 1, 2)],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },

  {
    name: 'capacity: two claims taking a whole undivided capacity each do not both fit',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '2' } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA)]), claim('claim-1', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'capacity: a zero default lets every claim share the device',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '1', requestPolicy: { default: '0', validValues: ['0'] } } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA)]), claim('claim-1', [exactly('req-0', classA)])],
    want: [
      allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { shareID: 'share-1', consumedCapacity: { 'capacity-0': '0' } })]),
      allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { shareID: 'share-2', consumedCapacity: { 'capacity-0': '0' } })]),
    ],
  },
  {
    name: 'capacity: a request outside the valid values is refused',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '1', requestPolicy: { default: '0', validValues: ['0'] } } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { 'capacity-0': '1' } } })])],
    want: null,
  },
  {
    name: 'capacity: a request rounds up to the next valid value',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '3', requestPolicy: { default: '1', validValues: ['1', '3'] } } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { 'capacity-0': '2' } } })])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { shareID: 'share-1', consumedCapacity: { 'capacity-0': '3' } })])],
  },
  {
    name: 'capacity: a request above the range maximum is refused though the device has room',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '10', requestPolicy: { default: '2', validRange: { min: '2', step: '2', max: '4' } } } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { 'capacity-0': '6' } } })])],
    want: null,
  },
  {
    name: 'capacity: a dedicated device with enough capacity records no share',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { capacity: { 'capacity-0': { value: '1' } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { 'capacity-0': '1' } } })])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'capacity: All fails when an earlier request of the claim used up a device',
    classes,
    slices: [
      slice('slice-1', 'node-1', 'pool-1', driverA, [
        device('device-1', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '1' } } }),
        device('device-2', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '1' } } }),
      ]),
    ],
    claims: [
      claim('claim-0', [
        exactly('req-0', classA, 1, { capacity: { requests: { 'capacity-0': '1' } } }),
        { name: 'req-1', exactly: { deviceClassName: classA, allocationMode: 'All', capacity: { requests: { 'capacity-0': '1' } } } },
      ]),
    ],
    want: null,
  },
  {
    name: 'capacity: a multi-allocation device held exclusively elsewhere is not shared',
    classes,
    allocated: allocated(makeDeviceID(driverA, 'pool-1', 'device-1')),
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '2', requestPolicy: { default: '2', validRange: { min: '2', step: '2', max: '4' } } } } })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { 'capacity-0': '1' } } })])],
    want: null,
  },
  {
    name: 'capacity: a request too large for range arithmetic aborts the attempt',
    classes,
    slices: [
      slice('slice-1', 'node-1', 'pool-1', driverA, [
        device('device-1', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '4', requestPolicy: { default: '2', validRange: { min: '2', step: '2', max: '4' } } } } }),
        device('device-2', { allowMultipleAllocations: true, capacity: { 'capacity-0': { value: '36893488147419103232' } } }),
      ]),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { capacity: { requests: { 'capacity-0': '18446744073709551616' } } })])],
    wantError:
      "claim default/claim-0, request req-0: checking capacity for device driver-a/pool-1/device-1: capacity \"capacity-0\": capacity request cannot be represented in the device's range arithmetic: request 18446744073709551616 exceeds MaxInt64",
  },

  {
    name: 'admin access: two claims may both watch one device',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { adminAccess: true })]), claim('claim-1', [exactly('req-0', classA, 1, { adminAccess: true })])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { adminAccess: true })]), allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { adminAccess: true })])],
  },
  {
    name: 'admin access: a device being allocated to another claim is still available for admin access',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')])],
    claims: [claim('claim-0', [exactly('req-0', classA)]), claim('claim-1', [exactly('req-0', classA, 1, { adminAccess: true })])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1')]), allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { adminAccess: true })])],
  },
  {
    name: 'admin access: within one claim each device still goes to one request',
    classes,
    allocated: allocated(makeDeviceID(driverA, 'pool-1', 'device-1')),
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')])],
    claims: [claim('claim-0', [exactly('req-0', classA, 2, { adminAccess: true })])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1', { adminAccess: true }), res('req-0', driverA, 'pool-1', 'device-2', { adminAccess: true })])],
  },
  {
    name: 'admin access does not get past a taint',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1', { taints: [taintNoSchedule] })])],
    claims: [claim('claim-0', [exactly('req-0', classA, 1, { adminAccess: true })])],
    want: null,
  },
  {
    name: 'a first subrequest for more devices than a claim may hold is skipped',
    classes,
    slices: [oneDevice('node-1')],
    claims: [claim('claim-0', [prioritized('req-0', [{ name: 'subReq-0', className: classB, count: 500 }, { name: 'subReq-1', className: classA }])])],
    want: [allocation(local('node-1'), [res('req-0/subReq-1', driverA, 'pool-1', 'device-1')])],
  },
  {
    name: 'an overflowing first subrequest is pruned without a search',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1'), device('device-2')])],
    claims: [claim('claim-0', [exactly('req-0', classA), prioritized('req-1', [{ name: 'subReq-0', className: classA, count: Number.MAX_SAFE_INTEGER }, { name: 'subReq-1', className: classA }])])],
    want: [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-1/subReq-1', driverA, 'pool-1', 'device-2')])],
    wantSteps: 8,
  },
  {
    name: 'two prioritized requests share the claim limit of 32 devices',
    classes,
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, Array.from({ length: 64 }, (_, i) => device(`device-${i}`)))],
    claims: [
      claim('claim-0', [
        prioritized('req-0', [{ name: 'subReq-0', className: classA, count: 32 }, { name: 'subReq-1', className: classA, count: 16 }]),
        prioritized('req-1', [{ name: 'subReq-0', className: classA, count: 32 }, { name: 'subReq-1', className: classA, count: 16 }]),
      ]),
    ],
    want: [
      allocation(local('node-1'), [
        ...Array.from({ length: 16 }, (_, i) => res('req-0/subReq-1', driverA, 'pool-1', `device-${i}`)),
        ...Array.from({ length: 16 }, (_, i) => res('req-1/subReq-1', driverA, 'pool-1', `device-${16 + i}`)),
      ]),
    ],
    wantSteps: 75,
  },
  {
    name: 'distinctAttribute with three devices and two values finds nothing',
    classes,
    slices: [
      slice('slice-1', 'node-1', 'pool-1', driverA, [
        device('device-1', { attributes: { s: { string: 'value1' } } }),
        device('device-2', { attributes: { s: { string: 'value2' } } }),
        device('device-3', { attributes: { s: { string: 'value1' } } }),
      ]),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA, 3)], [{ distinctAttribute: `${driverA}/s` }])],
    want: null,
  },
  {
    name: 'distinctAttribute across prioritized requests on shared devices',
    classes,
    slices: [
      slice('slice-1', 'node-1', 'pool-1', driverA, [
        device('device-1', { attributes: { b: { bool: true } }, allowMultipleAllocations: true }),
        device('device-2', { attributes: { b: { bool: false } }, allowMultipleAllocations: true }),
      ]),
    ],
    claims: [
      claim(
        'claim-0',
        ['req-0', 'req-1', 'req-2'].map((r) =>
          prioritized(r, [
            { name: 'subReq-0', className: classA, extra: { selectors: [{ cel: { expression: `device.attributes["${driverA}"].b` } }] } },
            { name: 'subReq-1', className: classA },
          ]),
        ),
        [{ distinctAttribute: `${driverA}/b`, requests: ['req-0', 'req-1'] }],
      ),
    ],
    want: [
      allocation(local('node-1'), [
        res('req-0/subReq-0', driverA, 'pool-1', 'device-1', { shareID: 'share-1' }),
        res('req-1/subReq-1', driverA, 'pool-1', 'device-2', { shareID: 'share-2' }),
        res('req-2/subReq-0', driverA, 'pool-1', 'device-1', { shareID: 'share-3' }),
      ]),
    ],
  },
];

for (const c of cases) {
  test(`allocator: ${c.name}`, () => {
    const allocator = newAllocator(c);
    const run = (): AllocationResult[] | null => allocator.allocate(c.onNode ?? node1, c.claims);
    if (c.wantNodeError !== undefined) {
      assert.throws(run, (err: unknown) => err instanceof FailedAllocationOnNodeError && err.message.includes(c.wantNodeError!));
      return;
    }
    if (c.wantError !== undefined) {
      assert.throws(run, (err: unknown) => {
        assert.ok(err instanceof AllocationError && !(err instanceof FailedAllocationOnNodeError), `not an AllocationError: ${String(err)}`);
        assert.ok(err.message.includes(c.wantError!), `message: ${err.message}`);
        return true;
      });
      return;
    }
    assert.deepEqual(run(), c.want);
    if (c.wantSteps !== undefined) assert.equal(allocator.numAllocateOneInvocations, c.wantSteps);
  });
}

test('allocator: a feature only the experimental implementation has is refused up front', () => {
  assert.throws(() => newAllocator({ features: { derivedAttributes: true } }), /internal error: no allocator available for feature set/);
});

test('allocator: one allocator serves several nodes, each seeing its own and the shared slices', () => {
  const allocator = newAllocator({
    classes,
    slices: [oneDevice('node-1'), slice('slice-2', 'node-2', 'pool-2', driverA, [device('device-9')]), oneDevice(undefined, 'pool-3', driverA, { allNodes: true })],
  });
  const claims = [claim('claim-0', [exactly('req-0', classA, 2)])];
  assert.deepEqual(allocator.allocate(node1, claims), [allocation(local('node-1'), [res('req-0', driverA, 'pool-1', 'device-1'), res('req-0', driverA, 'pool-3', 'device-1')])]);
  assert.deepEqual(allocator.allocate(node2, claims), [allocation(local('node-2'), [res('req-0', driverA, 'pool-2', 'device-9'), res('req-0', driverA, 'pool-3', 'device-1')])]);
  assert.ok(allocator.numAllocateOneInvocations > 0);
});
