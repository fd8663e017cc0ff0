// NodeResourcesFit and NodeResourcesBalancedAllocation with extended resources backed by DRA
// (DRAExtendedResource): upstream's fit_test.go cases for them, in our words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DeviceClass, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import type { KubeObject } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { QueueingHint } from '../../framework/events.js';
import { defaultFeatures } from '../../framework/features.js';
import { MapObjectLister } from '../../framework/object_lister.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { newSharedDRAManager } from '../dynamicresources/shared_dra_manager.js';
import { LeastAllocated } from './args.js';
import { BalancedAllocation } from './balanced_allocation.js';
import { Fit } from './fit.js';
import { capacityNode, resourcePod, runScore } from './test_helpers.js';

const draResource = 'extended.resource.dra.io/something';
const pluginResource = 'example.com/aaa';
const otherResource = 'example.com/bbb';
const backingClass: DeviceClass = { kind: 'DeviceClass', metadata: { name: 'device-class-name' }, spec: { extendedResourceName: draResource } };

function slice(node: string, devices: number, driver = 'test-driver'): ResourceSlice {
  return {
    kind: 'ResourceSlice',
    metadata: { name: `${node}-${driver}` },
    spec: { driver, nodeName: node, pool: { name: node, generation: 1, resourceSliceCount: 1 }, devices: Array.from({ length: devices }, (_, i) => ({ name: `device-${i + 1}` })) },
  };
}

const managerOf = (objects: KubeObject[]) => newSharedDRAManager(new MapObjectLister(objects), defaultFeatures);

const fitArgs = (resources = [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }]) => ({
  ignoredResources: [],
  ignoredResourceGroups: [],
  scoringStrategy: { type: LeastAllocated, resources },
});

describe('NodeResourcesFit Filter: extended resources backed by DRA', () => {
  const emptyNode = capacityNode('n', { cpu: '10', memory: '20' });
  const cases: { name: string; gate: boolean; scalar: Record<string, number>; node?: ReturnType<typeof capacityNode>; want: string[] | null; code?: Code }[] = [
    { name: 'a resource a DeviceClass backs is left to DynamicResources', gate: true, scalar: { [draResource]: 1 }, want: null },
    {
      name: 'with the gate off it must be in allocatable', gate: false, scalar: { [draResource]: 1 },
      want: [`Insufficient ${draResource}`], code: Code.UnschedulableAndUnresolvable,
    },
    {
      name: 'a resource no class backs must be in allocatable', gate: true, scalar: { [otherResource]: 1 },
      want: [`Insufficient ${otherResource}`], code: Code.UnschedulableAndUnresolvable,
    },
    {
      name: 'allocatable 0 on the node: still left to DynamicResources', gate: true, scalar: { [draResource]: 1 },
      node: capacityNode('n', { cpu: '10', memory: '20', [draResource]: '0' }), want: null,
    },
    {
      name: 'a node advertising it checks it itself',
      gate: true, scalar: { [draResource]: 3 }, node: capacityNode('n', { cpu: '10', memory: '20', [draResource]: '2' }),
      want: [`Insufficient ${draResource}`], code: Code.UnschedulableAndUnresolvable,
    },
    { name: 'a device-plugin resource the node has fits', gate: true, scalar: { [pluginResource]: 1 }, node: capacityNode('n', { cpu: '10', memory: '20', [pluginResource]: '1' }), want: null },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const plugin = new Fit(fitArgs(), undefined, tc.gate ? managerOf([backingClass]) : null);
      const state = new CycleState();
      const podInfo = new PodInfo(resourcePod({ milliCPU: 1, memory: 1, scalar: tc.scalar }));
      assert.equal(plugin.preFilter(state, podInfo), null);
      const s = plugin.filter(state, podInfo, new NodeInfo(tc.node ?? emptyNode));
      if (tc.want === null) {
        assert.equal(s, null, s?.message());
        return;
      }
      assert.deepEqual(s?.reasons, tc.want);
      assert.equal(s?.code, tc.code);
    });
  }
});

describe('NodeResourcesFit Score: extended resources backed by DRA', () => {
  const objects = [backingClass, slice('node1', 3), slice('node2', 2)];
  const nodes = [capacityNode('node1'), capacityNode('node2')];
  const pod = resourcePod({ scalar: { [draResource]: 1 } });
  for (const runPreScore of [true, false]) {
    it(`LeastAllocated counts the node's devices of the class${runPreScore ? '' : ', without PreScore'}`, () => {
      const plugin = new Fit(fitArgs([{ name: draResource, weight: 1 }]), undefined, managerOf(objects));
      assert.deepEqual(runScore(plugin, pod, nodes, [], runPreScore).scores, [66, 50]);
    });
  }

  it('devices allocated to claims count as requested', () => {
    const claim: ResourceClaim = {
      kind: 'ResourceClaim',
      metadata: { name: 'c', namespace: 'default', uid: 'uid-c' },
      spec: {},
      status: { allocation: { devices: { results: [{ request: 'r', driver: 'test-driver', pool: 'node1', device: 'device-1' }] } } },
    };
    const plugin = new Fit(fitArgs([{ name: draResource, weight: 1 }]), undefined, managerOf([...objects, claim]));
    // node1: 3 devices, 1 allocated, 1 requested: (3-2)*100/3 = 33; node2 unchanged.
    assert.deepEqual(runScore(plugin, pod, nodes).scores, [33, 50]);
  });

  it('counts kept across cycles follow allocations and slices as they change', () => {
    const claim = (uid: string, device: string): ResourceClaim => ({
      kind: 'ResourceClaim',
      metadata: { name: uid, namespace: 'default', uid },
      spec: {},
      status: { allocation: { devices: { results: [{ request: 'r', driver: 'test-driver', pool: 'node1', device }] } } },
    });
    const store = new MapObjectLister(objects);
    const plugin = new Fit(fitArgs([{ name: draResource, weight: 1 }]), undefined, newSharedDRAManager(store, defaultFeatures));
    const scores = (ns = nodes) => runScore(plugin, pod, ns).scores;
    assert.deepEqual(scores(), [66, 50]);
    assert.deepEqual(scores(), [66, 50]);
    // An allocation in node1's pool: its kept count is redone, node2's holds.
    store.upsert(claim('a', 'device-1'));
    assert.deepEqual(scores(), [33, 50]);
    store.upsert(claim('b', 'device-2'));
    assert.deepEqual(scores(), [0, 50]);
    store.remove(claim('a', 'device-1'));
    store.remove(claim('b', 'device-2'));
    assert.deepEqual(scores(), [66, 50]);
    // A new slice list: node2's devices are counted again.
    store.upsert(slice('node2', 4));
    assert.deepEqual(scores(), [66, 75]);
    // A slice shared with every node: both counts are redone.
    const everywhere: ResourceSlice = {
      kind: 'ResourceSlice',
      metadata: { name: 'everywhere' },
      spec: { driver: 'test-driver', pool: { name: 'everywhere', generation: 1, resourceSliceCount: 1 }, allNodes: true, devices: [{ name: 'device-1' }, { name: 'device-2' }] },
    };
    store.upsert(everywhere);
    assert.deepEqual(scores(), [80, 83]);
  });

  it('a class selector picks the devices that count', () => {
    const selective: DeviceClass = { ...backingClass, spec: { ...backingClass.spec, selectors: [{ cel: { expression: 'device.driver == "test-driver"' } }] } };
    const plugin = new Fit(fitArgs([{ name: draResource, weight: 1 }]), undefined, managerOf([selective, slice('node1', 3), slice('node1', 5, 'other-driver'), slice('node2', 2)]));
    assert.deepEqual(runScore(plugin, pod, nodes).scores, [66, 50]);
  });

  it("a node counts its own slices and every slice shared with it (all nodes, a node selector), not other nodes'", () => {
    const shared = (name: string, spec: Partial<ResourceSlice['spec']>): ResourceSlice => ({
      kind: 'ResourceSlice',
      metadata: { name },
      spec: { driver: 'test-driver', pool: { name, generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'device-1' }], ...spec },
    });
    const objects: KubeObject[] = [
      backingClass, slice('node1', 3), slice('node2', 2),
      shared('everywhere', { allNodes: true }),
      shared('node2-only', { nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node2'] }] }] } }),
    ];
    const plugin = new Fit(fitArgs([{ name: draResource, weight: 1 }]), undefined, managerOf(objects));
    // node1: 3 + 1 devices, 1 requested: 75; node2: 2 + 1 + 1, 1 requested: 75.
    assert.deepEqual(runScore(plugin, pod, nodes).scores, [75, 75]);
  });

  it('with the gate off nodes without the resource are not scored on it', () => {
    const plugin = new Fit(fitArgs([{ name: draResource, weight: 1 }]), undefined, null);
    assert.deepEqual(runScore(plugin, pod, nodes).scores, [0, 0]);
  });

  it('BalancedAllocation counts the devices too', () => {
    const resources = [{ name: 'cpu', weight: 1 }, { name: draResource, weight: 1 }];
    const podWithCPU = resourcePod({ milliCPU: 1000, scalar: { [draResource]: 1 } });
    const cpuNodes = [capacityNode('node1', { cpu: '10' }), capacityNode('node2', { cpu: '10' })];
    // With the pod: cpu 1/10 against devices 1/3 (std 0.1167 -> 88) and 1/2 (std 0.2 -> 80), from
    // 100 without it: 50 + trunc((50 + 88 - 100) / 2) = 69 and 50 + trunc((50 + 80 - 100) / 2) = 65.
    assert.deepEqual(runScore(new BalancedAllocation({ resources }, managerOf(objects)), podWithCPU, cpuNodes).scores, [69, 65]);
    // Without the devices only cpu counts: one resource is always balanced, no change scores 75.
    assert.deepEqual(runScore(new BalancedAllocation({ resources }, null), podWithCPU, cpuNodes).scores, [75, 75]);
  });
});

describe('NodeResourcesFit events: DeviceClass', () => {
  const plugin = new Fit(fitArgs(), undefined, managerOf([]));
  const hint = plugin.eventsToRegister().find((e) => e.event.resource === 'DeviceClass')!.queueingHintFn!;
  const pod = resourcePod({ scalar: { [draResource]: 1, 'deviceclass.resource.kubernetes.io/implicit': 1 } });
  const cls = (name: string, ext?: string): DeviceClass => ({ kind: 'DeviceClass', metadata: { name }, spec: ext !== undefined ? { extendedResourceName: ext } : {} });
  const cases: [string, DeviceClass | undefined, DeviceClass, string][] = [
    ['a new class backing the resource', undefined, cls('a', draResource), 'Queue'],
    ['a new class whose implicit name the pod asks for', undefined, cls('implicit'), 'Queue'],
    ['a new class for something else', undefined, cls('b', otherResource), 'QueueSkip'],
    ['an update keeping the extended resource name', cls('a', draResource), cls('a', draResource), 'QueueSkip'],
    ['an update to the resource the pod asks for', cls('a', otherResource), cls('a', draResource), 'Queue'],
    ['an update removing the name', cls('a', draResource), cls('a'), 'QueueSkip'],
  ];
  for (const [name, oldObj, newObj, want] of cases) {
    it(name, () => assert.equal(hint(pod, oldObj, newObj), want === 'Queue' ? QueueingHint.Queue : QueueingHint.QueueSkip));
  }

  it('is not registered with the gate off', () => {
    assert.equal(new Fit(fitArgs()).eventsToRegister().some((e) => e.event.resource === 'DeviceClass'), false);
  });

  it('a node that stops advertising a backed resource may now get it from devices', () => {
    const withDRA = new Fit(fitArgs(), undefined, managerOf([backingClass]));
    const nodeHint = withDRA.eventsToRegister().find((e) => e.event.resource === 'Node')!.queueingHintFn!;
    const before = capacityNode('n', { cpu: '10', memory: '20', [draResource]: '1' });
    const after = capacityNode('n', { cpu: '10', memory: '20' });
    assert.equal(nodeHint(resourcePod({ milliCPU: 1, scalar: { [draResource]: 1 } }), before, after), QueueingHint.Queue);
  });
});
