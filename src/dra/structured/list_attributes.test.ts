// The DRAListTypeAttributes cases of upstream's allocator test table
// (structured/internal/allocatortesting/allocator_testing.go, "list-attributes-*" and
// "numanode-matchattribute-*"), in our own words: matchAttribute keeps a value every device lists,
// distinctAttribute keeps the devices' lists pairwise disjoint, and both backtrack cleanly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeSelector } from '../../api/types.js';
import type { AllocationResult, DeviceAttribute, DeviceConstraint, DeviceRequest } from '../../api/dra_types.js';
import { AllocationError } from './index.js';
import { claim, classA, device, deviceClass, driverA, exactly, newAllocator, node, slice } from './test_helpers.js';

const node1 = node('node-1', { region: 'region-1' });
const local: NodeSelector = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] };

interface Case {
  name: string;
  /** Off only where the case shows what the gate changes. */
  lists?: boolean;
  constraint: DeviceConstraint;
  requests?: DeviceRequest[];
  /** req-0 asks for this many devices unless `requests` is given. */
  count?: number;
  attribute: string;
  values: DeviceAttribute[];
  /** The devices picked, in order (`req:device`, or `device` for req-0); null: the node does not fit. */
  want?: string[] | null;
  wantError?: string;
}

const match = (a: string): DeviceConstraint => ({ matchAttribute: `${driverA}/${a}` });
const distinct = (a: string): DeviceConstraint => ({ distinctAttribute: `${driverA}/${a}` });

const cases: Case[] = [
  { name: 'match: equal scalar strings', constraint: match('s'), count: 2, attribute: 's', values: [{ string: 'value1' }, { string: 'value1' }], want: ['device-1', 'device-2'] },
  {
    name: 'match: string lists with common values', constraint: match('s'), count: 2, attribute: 's',
    values: [{ strings: ['value1', 'value2', 'value3'] }, { strings: ['value2', 'value3', 'value4'] }], want: ['device-1', 'device-2'],
  },
  {
    name: 'match: lists that overlap pairwise but share no value across all three', constraint: match('s'), count: 3, attribute: 's',
    values: [{ strings: ['value1', 'value2'] }, { strings: ['value2', 'value3'] }, { strings: ['value3', 'value1'] }], want: null,
  },
  {
    // device-2 narrows the intersection to value1, which device-3 lacks; backtracking must restore {value1, value2}.
    name: 'match: backtracking restores the intersection before the removed device', constraint: match('s'), count: 3, attribute: 's',
    values: [{ strings: ['value1', 'value2'] }, { strings: ['value1'] }, { strings: ['value2'] }, { strings: ['value2'] }],
    want: ['device-1', 'device-3', 'device-4'],
  },
  {
    name: 'match: two requests on lists without a common value', constraint: match('s'), requests: [exactly('req-0', classA), exactly('req-1', classA)], attribute: 's',
    values: [{ strings: ['value1', 'value2'] }, { strings: ['value3', 'value4'] }], want: null,
  },
  { name: 'match: a scalar and a list holding it', constraint: match('s'), count: 2, attribute: 's', values: [{ string: 'value1' }, { strings: ['value1', 'value2'] }], want: ['device-1', 'device-2'] },
  {
    name: 'match: a scalar, then lists that each share a different value with the others', constraint: match('s'), count: 3, attribute: 's',
    values: [{ string: 'value1' }, { strings: ['value1', 'value2'] }, { strings: ['value2', 'value3'] }], want: null,
  },
  { name: 'match: a scalar and a list without it', constraint: match('s'), count: 2, attribute: 's', values: [{ string: 'value1' }, { strings: ['value2', 'value3'] }], want: null },
  { name: 'match: int lists', constraint: match('numa'), count: 2, attribute: 'numa', values: [{ ints: [0, 1, 2] }, { ints: [1, 2, 3] }], want: ['device-1', 'device-2'] },
  { name: 'match: overlapping NUMA node lists are co-placed', constraint: match('numaNode'), count: 2, attribute: 'numaNode', values: [{ ints: [4] }, { ints: [4, 5, 6, 7] }], want: ['device-1', 'device-2'] },
  { name: 'match: disjoint NUMA node lists are not', constraint: match('numaNode'), count: 2, attribute: 'numaNode', values: [{ ints: [0] }, { ints: [4, 5, 6, 7] }], want: null },
  { name: 'match: bool lists', constraint: match('b'), count: 2, attribute: 'b', values: [{ bools: [true, false] }, { bools: [true] }], want: ['device-1', 'device-2'] },
  {
    name: 'match: version lists', constraint: match('driverVersion'), count: 2, attribute: 'driverVersion',
    values: [{ versions: ['1.0.0', '1.1.0', '2.0.0'] }, { versions: ['1.1.0', '2.0.0', '2.1.0'] }], want: ['device-1', 'device-2'],
  },
  {
    // The class's selector sees the attributes first: an attribute without a value is an error there.
    name: 'match: an attribute without a value is an error', constraint: match('s'), count: 2, attribute: 's',
    values: [{}, { strings: [] }], wantError: 'unsupported attribute value',
  },
  {
    name: 'match: with the gate off, lists never match', lists: false, constraint: match('s'), count: 2, attribute: 's',
    values: [{ strings: ['value1', 'value2', 'value3'] }, { strings: ['value2', 'value3', 'value4'] }], want: null,
  },
  { name: 'distinct: different scalars', constraint: distinct('s'), count: 2, attribute: 's', values: [{ string: 'value1' }, { string: 'value2' }], want: ['device-1', 'device-2'] },
  { name: 'distinct: equal scalars', constraint: distinct('s'), count: 2, attribute: 's', values: [{ string: 'value1' }, { string: 'value1' }], want: null },
  {
    name: 'distinct: three of three scalars with a repeat', constraint: distinct('s'), count: 3, attribute: 's',
    values: [{ string: 'value1' }, { string: 'value2' }, { string: 'value1' }], want: null,
  },
  {
    name: 'distinct: three different scalars', constraint: distinct('s'), count: 3, attribute: 's',
    values: [{ string: 'value1' }, { string: 'value2' }, { string: 'value3' }], want: ['device-1', 'device-2', 'device-3'],
  },
  {
    name: 'distinct: string lists skip the one overlapping the first', constraint: distinct('s'), count: 2, attribute: 's',
    values: [{ strings: ['value1', 'value2'] }, { strings: ['value2', 'value3'] }, { strings: ['value3', 'value4'] }], want: ['device-1', 'device-3'],
  },
  {
    name: 'distinct: string lists with a common value', constraint: distinct('s'), count: 2, attribute: 's',
    values: [{ strings: ['value1', 'value2', 'value3'] }, { strings: ['value2', 'value4', 'value5'] }], want: null,
  },
  {
    name: 'distinct: a scalar and lists', constraint: distinct('s'), count: 2, attribute: 's',
    values: [{ string: 'value1' }, { strings: ['value1', 'value2'] }, { strings: ['value2', 'value3'] }], want: ['device-1', 'device-3'],
  },
  { name: 'distinct: a scalar and a list holding it', constraint: distinct('s'), count: 2, attribute: 's', values: [{ string: 'value1' }, { strings: ['value1', 'value2'] }], want: null },
  { name: 'distinct: int lists', constraint: distinct('numa'), count: 2, attribute: 'numa', values: [{ ints: [0, 1] }, { ints: [1, 2] }, { ints: [2, 3] }], want: ['device-1', 'device-3'] },
  { name: 'distinct: bool lists', constraint: distinct('b'), count: 2, attribute: 'b', values: [{ bools: [true] }, { bools: [true, false] }, { bools: [false] }], want: ['device-1', 'device-3'] },
  {
    name: 'distinct: version lists', constraint: distinct('driverVersion'), count: 2, attribute: 'driverVersion',
    values: [{ versions: ['1.0.0', '1.1.0'] }, { versions: ['1.1.0', '2.0.0'] }, { versions: ['2.0.0', '2.1.0'] }], want: ['device-1', 'device-3'],
  },
  {
    // An empty list is refused by the constraint; the next device, without a value, fails the class's selector.
    name: 'distinct: an empty list is refused, an attribute without a value is an error', constraint: distinct('driverVersion'), count: 2, attribute: 'driverVersion',
    values: [{ versions: [] }, {}], wantError: 'unsupported attribute value',
  },
  {
    name: 'distinct: with the gate off, lists are never distinct', lists: false, constraint: distinct('s'), count: 2, attribute: 's',
    values: [{ strings: ['value1', 'value2', 'value3'] }, { strings: ['value2', 'value3', 'value4'] }], want: null,
  },
  {
    // req-0 first takes device-1, which leaves no third disjoint device; each removal must drop its set.
    name: 'distinct: backtracking over three requests removes the dropped device', constraint: { ...distinct('s'), requests: ['req-0', 'req-1', 'req-2'] },
    requests: [exactly('req-0', classA), exactly('req-1', classA), exactly('req-2', classA)], attribute: 's',
    values: [{ strings: ['value1', 'value2', 'value3'] }, { strings: ['value3', 'value4', 'value5'] }, { strings: ['value1', 'value2'] }, { strings: ['value3', 'value4'] }, { strings: ['value5', 'value6'] }],
    want: ['req-0:device-3', 'req-1:device-4', 'req-2:device-5'],
  },
];

for (const c of cases) {
  test(`allocator, list-type attributes: ${c.name}`, () => {
    const devices = c.values.map((v, i) => device(`device-${i + 1}`, { attributes: { [c.attribute]: v } }));
    const allocator = newAllocator({
      classes: [deviceClass(classA, driverA)],
      slices: [slice('slice-1', 'node-1', 'pool-1', driverA, devices)],
      features: { listTypeAttributes: c.lists ?? true },
    });
    const claims = [claim('claim-0', c.requests ?? [exactly('req-0', classA, c.count ?? 1)], [c.constraint])];
    if (c.wantError !== undefined) {
      assert.throws(() => allocator.allocate(node1, claims), (err: unknown) => err instanceof AllocationError && err.message.includes(c.wantError!));
      return;
    }
    const got = allocator.allocate(node1, claims);
    if (c.want === null) {
      assert.equal(got, null);
      return;
    }
    const results = c.want!.map((w) => {
      const [request, dev] = w.includes(':') ? w.split(':') as [string, string] : ['req-0', w];
      return { request, driver: driverA, pool: 'pool-1', device: dev };
    });
    const want: AllocationResult[] = [{ devices: { results }, nodeSelector: local }];
    assert.deepEqual(got, want);
  });
}

test('allocator, list-type attributes: a device of a slice that skips node operations is not used (DRAOptionalNodeOperations off)', () => {
  const allocator = newAllocator({
    classes: [deviceClass(classA, driverA)],
    slices: [slice('slice-1', 'node-1', 'pool-1', driverA, [device('device-1')], { skipNodeOperations: ['Prepare'] })],
    features: { listTypeAttributes: true },
  });
  assert.equal(allocator.allocate(node1, [claim('claim-0', [exactly('req-0', classA)])]), null);
});
