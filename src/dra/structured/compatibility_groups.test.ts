// The DRADeviceCompatibilityGroups cases of upstream's allocator test table
// (structured/internal/allocatortesting/allocator_testing.go, "compatibility-groups-*"), in our own
// words: devices on one counter set go together only while their groups share a value, allocated
// peers count, and every backtrack undoes its narrowing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeSelector } from '../../api/types.js';
import type { Device, DeviceRequest, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import { makeDeviceID, newAllocatedState } from './index.js';
import { claim, classA, deviceClass, driverA, exactly, newAllocator, node } from './test_helpers.js';

const node1 = node('node-1', { region: 'region-1' });
const local: NodeSelector = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] };

/** A device drawing `value` of capacity0 from each counter set named, with those groups. */
function dev(name: string, draws: [counterSet: string, groups: string[]][], extra: Partial<Device> = {}): Device {
  return { name, consumesCounters: draws.map(([counterSet, groups]) => ({ counterSet, counters: { capacity0: { value: '1' } }, ...(groups.length > 0 ? { compatibilityGroups: groups } : {}) })), ...extra };
}

/** Pool `pool` of node-1: one slice per device list, then one with the counter sets (four of capacity0 each). */
function pool(name: string, deviceLists: Device[][], counterSets: string[]): ResourceSlice[] {
  const count = deviceLists.length + 1;
  const spec = (extra: object) => ({ driver: driverA, pool: { name, generation: 1, resourceSliceCount: count }, nodeName: 'node-1', ...extra });
  return [
    ...deviceLists.map((devices, i) => ({ metadata: { name: `${name}-devices-${i}` }, spec: spec({ devices }) })),
    { metadata: { name: `${name}-counters` }, spec: spec({ sharedCounters: counterSets.map((n) => ({ name: n, counters: { capacity0: { value: '4' } } })) }) },
  ] as ResourceSlice[];
}

interface Case {
  name: string;
  enabled?: boolean;
  slices: ResourceSlice[];
  claims: ResourceClaim[];
  allocated?: string[];
  /** Per claim, `request:pool/device`; null: the node does not fit. */
  want: string[][] | null;
}

const twoRequests: DeviceRequest[] = [exactly('req-0', classA), exactly('req-1', classA)];

const cases: Case[] = [
  {
    name: 'two devices of one group on one counter set go together',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-1', ['mig']]])]], ['cs-1']),
    claims: [claim('claim-0', twoRequests)],
    want: [['req-0:pool-1/device-1', 'req-1:pool-1/device-2']],
  },
  {
    name: 'mig and vgpu on one counter set do not',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-1', ['vgpu']]])]], ['cs-1']),
    claims: [claim('claim-0', twoRequests)],
    want: null,
  },
  {
    name: 'a device refused for its taint leaves no narrowing behind',
    slices: pool('pool-1', [[
      dev('device-1', [['cs-1', ['mig']]], { taints: [{ key: 'taint-key', value: 'taint-value', effect: 'NoSchedule' }] }),
      dev('device-2', [['cs-1', ['vgpu']]]),
    ]], ['cs-1']),
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [['req-0:pool-1/device-2']],
  },
  {
    name: 'an allocated peer of another group keeps the device out',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-1', ['vgpu']]])]], ['cs-1']),
    allocated: ['pool-1/device-1'],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'an allocated peer of the same group lets it in',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-1', ['mig']]])]], ['cs-1']),
    allocated: ['pool-1/device-1'],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [['req-0:pool-1/device-2']],
  },
  {
    name: 'gate off: a pool with a grouped slice is incomplete, another pool still serves',
    enabled: false,
    slices: [
      ...pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]])]], ['cs-1']),
      ...pool('pool-2', [[dev('device-2', [['cs-2', []]])]], ['cs-2']),
    ],
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: [['req-0:pool-2/device-2']],
  },
  {
    name: 'gate off: an ungrouped device in a pool with a grouped slice is not used either',
    enabled: false,
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]])], [dev('device-2', [['cs-1', []]])]], ['cs-1']),
    claims: [claim('claim-0', [exactly('req-0', classA)])],
    want: null,
  },
  {
    name: 'groups are per counter set',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-2', ['vgpu']]])]], ['cs-1', 'cs-2']),
    claims: [claim('claim-0', twoRequests)],
    want: [['req-0:pool-1/device-1', 'req-1:pool-1/device-2']],
  },
  {
    name: 'a device on two counter sets needs both to admit it, and its narrowing of both is undone',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-1', ['vgpu']], ['cs-2', ['vgpu']]])]], ['cs-1', 'cs-2']),
    claims: [claim('claim-0', twoRequests)],
    want: null,
  },
  {
    name: 'a failed first subrequest undoes its narrowing before the second is tried',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-1', ['mig']]]), dev('device-3', [['cs-1', ['vgpu']]])]], ['cs-1']),
    claims: [claim('claim-0', [
      exactly('req-0', classA),
      { name: 'req-1', firstAvailable: [{ name: 'sub-0', deviceClassName: classA, allocationMode: 'ExactCount', count: 2 }, { name: 'sub-1', deviceClassName: classA, allocationMode: 'ExactCount', count: 1 }] },
    ])],
    want: [['req-0:pool-1/device-1', 'req-1/sub-1:pool-1/device-2']],
  },
  {
    name: 'claims of one call narrow one intersection',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-1', ['mig']]])]], ['cs-1']),
    claims: [claim('claim-0', [exactly('req-0', classA)]), claim('claim-1', [exactly('req-0', classA)])],
    want: [['req-0:pool-1/device-1'], ['req-0:pool-1/device-2']],
  },
  {
    name: 'claims that each fit alone but not together',
    slices: pool('pool-1', [[dev('device-1', [['cs-1', ['mig']]]), dev('device-2', [['cs-1', ['vgpu']]])]], ['cs-1']),
    claims: [claim('claim-0', [exactly('req-0', classA)]), claim('claim-1', [exactly('req-0', classA)])],
    want: null,
  },
];

for (const c of cases) {
  test(`allocator, compatibility groups: ${c.name}`, () => {
    const allocated = newAllocatedState();
    for (const id of c.allocated ?? []) {
      const [p, d] = id.split('/') as [string, string];
      allocated.allocatedDevices.add(makeDeviceID(driverA, p, d));
    }
    const allocator = newAllocator({ classes: [deviceClass(classA, driverA)], slices: c.slices, allocated, features: { compatibilityGroups: c.enabled ?? true } });
    const got = allocator.allocate(node1, c.claims);
    if (c.want === null) {
      assert.equal(got, null);
      return;
    }
    assert.deepEqual(got, c.want.map((results) => ({
      devices: {
        results: results.map((r) => {
          const [request, at] = r.split(':') as [string, string];
          const [p, d] = at.split('/') as [string, string];
          return { request, driver: driverA, pool: p, device: d };
        }),
      },
      nodeSelector: local,
    })));
  });
}
