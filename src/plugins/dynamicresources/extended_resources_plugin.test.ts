// DynamicResources with extended resources backed by DRA (DRAExtendedResource), after upstream's
// TestPlugin cases for them (dynamicresources_test.go) in our words: which node gets devices, the
// claim PreBind creates and names in the pod's status, and the clean-up of a stale one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import type { DeviceClass, ResourceClaim } from '../../api/dra_types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { MapObjectLister, waitForObjects } from '../../framework/object_lister.js';
import { NodeToStatus } from '../../framework/node_to_status.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { defaultFeatures } from '../../framework/features.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { FakeClock } from '../../util/clock.js';
import { newTestHandle } from '../../testing/handle.js';
import { defaultDynamicResourcesArgs } from './args.js';
import { ExtendedResourceClaimAnnotation } from '../../dra/device_class_resolver.js';
import { DynamicResources, ErrReasonCannotAllocate, ErrReasonDeleted } from './dynamic_resources.js';
import { SpecialClaimInMemName } from './extended_resources.js';
import { allocatedClaim, claimClient, FakeAllocator, nodeSlice, pendingClaim, podWithClaimName } from './test_helpers.js';

const gpu = 'example.com/gpu';
const gpuClass: DeviceClass = { kind: 'DeviceClass', metadata: { name: 'gpu-class' }, spec: { extendedResourceName: gpu } };

const podAsking = (n: string, uid = 'uid-p'): Pod =>
  makePod('p', { uid, spec: { containers: [{ name: 'c', resources: { requests: { [gpu]: n }, limits: { [gpu]: n } } }] } });

/**
 * `lateInformer`: the claims PreBind writes land in an API of their own that the informer (the
 * handle's objects) never catches up with, and the client waits on the informer with `clock`.
 */
function setup(o: { nodes: { name: string; gpus?: string }[]; slices?: [string, number][]; claims?: ResourceClaim[]; extendedResource?: boolean; lateInformer?: FakeClock }) {
  const slices = (o.slices ?? []).map(([n, k]) => nodeSlice(n, k));
  const nodes = o.nodes.map((n) => makeNode(n.name, n.gpus !== undefined ? { allocatable: { cpu: '4', memory: '32Gi', pods: '110', [gpu]: n.gpus } } : {}));
  const handle = newTestHandle({ nodes, objects: [gpuClass, ...slices, ...(o.claims ?? [])], features: { ...defaultFeatures, enableDRAExtendedResource: o.extendedResource ?? true } });
  const lister = handle.objects() as MapObjectLister;
  const clock = o.lateInformer;
  const client = clock
    ? { ...claimClient(new MapObjectLister([]), handle.client()), waitUntil: (ready: () => boolean, ms: number, signal?: AbortSignal) => waitForObjects(lister, clock, ready, ms, signal) }
    : claimClient(lister, handle.client());
  const claimCreates: string[] = [];
  const metrics = { observeResourceClaimCreate: (...labels: unknown[]) => claimCreates.push(labels.join(',')) };
  Object.assign(handle, { client: () => client, metricsRecorder: () => metrics });
  const pl = new DynamicResources(handle, {
    args: defaultDynamicResourcesArgs({}),
    features: { ...defaultFeatures, enableDRAExtendedResource: o.extendedResource ?? true },
    newAllocator: (inputs) => new FakeAllocator(inputs),
  });
  const nodeInfos = o.nodes.map((n) => handle.snapshot.nodeInfos().get(n.name)!);
  return { pl, lister, writes: client.writes, nodeInfos, claimCreates };
}

describe('DynamicResources: extended resources backed by DRA', () => {
  it('a node without the resource in allocatable gets devices through a claim PreBind creates', async () => {
    const { pl, lister, writes, nodeInfos, claimCreates } = setup({ nodes: [{ name: 'worker' }], slices: [['worker', 2]] });
    const pod = podAsking('2');
    const podInfo = new PodInfo(pod);
    const cs = new CycleState();
    assert.equal(pl.preFilter(cs, podInfo), null);
    assert.equal(pl.filter(cs, podInfo, nodeInfos[0]!), null);
    assert.equal(pl.reserve(cs, podInfo, 'worker'), null);
    // Reserve marked the devices in flight: another pod's allocator sees them taken.
    assert.equal(pl.claims.gatherAllocatedState().allocatedDevices.size, 2);
    assert.equal(await pl.preBind(cs, podInfo, 'worker'), null);

    assert.equal(writes.created.length, 1);
    const created = writes.created[0]!;
    assert.equal(created.metadata.name, 'p-extended-resources-xxxxx');
    assert.equal(created.metadata.generateName, 'p-extended-resources-');
    assert.deepEqual(created.metadata.annotations, { [ExtendedResourceClaimAnnotation]: 'true' });
    assert.deepEqual(created.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'uid-p', controller: true }]);
    assert.deepEqual(created.spec.devices?.requests, [{ name: 'container-0-request-0', exactly: { deviceClassName: 'gpu-class', allocationMode: 'ExactCount', count: 2 } }]);
    assert.equal(created.status, undefined, 'created without an allocation');
    assert.deepEqual(claimCreates, ['success,false,,Pod'], 'dynamic_resource_allocation_resourceclaim_creates_total');

    const stored = lister.get<ResourceClaim>('ResourceClaim', 'default', 'p-extended-resources-xxxxx')!;
    assert.deepEqual(stored.metadata.finalizers, ['resource.kubernetes.io/delete-protection']);
    assert.deepEqual(stored.status?.allocation?.devices?.results?.map((r) => `${r.request}=${r.device}`), ['container-0-request-0=dev-0', 'container-0-request-0=dev-1']);
    assert.deepEqual(stored.status?.reservedFor, [{ resource: 'pods', name: 'p', uid: 'uid-p' }]);
    assert.deepEqual(writes.extendedStatuses.get('p'), {
      requestMappings: [{ containerName: 'c', resourceName: gpu, requestName: 'container-0-request-0' }],
      resourceClaimName: 'p-extended-resources-xxxxx',
    });
    // Bound: nothing in flight any more, the devices are taken through the stored claim.
    assert.equal(pl.claims.getPendingAllocation(created.metadata.uid!), undefined);
    assert.equal(pl.claims.gatherAllocatedState().allocatedDevices.size, 2);
  });

  it('a node advertising the resource serves it itself: nothing allocated, no claim made', async () => {
    const { pl, writes, nodeInfos } = setup({ nodes: [{ name: 'worker', gpus: '4' }], slices: [['worker', 2]] });
    const podInfo = new PodInfo(podAsking('1'));
    const cs = new CycleState();
    assert.equal(pl.preFilter(cs, podInfo), null);
    assert.equal(pl.filter(cs, podInfo, nodeInfos[0]!), null);
    assert.equal(pl.reserve(cs, podInfo, 'worker'), null);
    assert.equal(await pl.preBind(cs, podInfo, 'worker'), null);
    assert.deepEqual(writes.created, []);
    assert.equal(writes.extendedStatuses.size, 0);
  });

  it('too few devices: rejected by the allocator, per node', () => {
    const { pl, nodeInfos } = setup({ nodes: [{ name: 'worker' }, { name: 'worker-2' }], slices: [['worker', 1], ['worker-2', 3]] });
    const podInfo = new PodInfo(podAsking('2'));
    const cs = new CycleState();
    assert.equal(pl.preFilter(cs, podInfo), null);
    const s = pl.filter(cs, podInfo, nodeInfos[0]!);
    assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
    assert.equal(s?.message(), ErrReasonCannotAllocate);
    assert.equal(pl.filter(cs, podInfo, nodeInfos[1]!), null);
  });

  it('pods without a class for their extended resources, and the gate off, are skipped', () => {
    const other = makePod('q', { requests: { 'example.com/fpga': '1' } });
    const { pl } = setup({ nodes: [{ name: 'worker' }] });
    assert.equal(pl.preFilter(new CycleState(), new PodInfo(other))?.status?.code, Code.Skip);
    const off = setup({ nodes: [{ name: 'worker' }], extendedResource: false });
    assert.equal(off.pl.preFilter(new CycleState(), new PodInfo(podAsking('1')))?.status?.code, Code.Skip);
  });

  it('a claim left by an earlier attempt rejects every node, and PostFilter deletes it', async () => {
    const pod = podAsking('1');
    const stale = allocatedClaim('p-extended-resources-abcde', 'worker', ['dev-0'], { uid: 'uid-stale' });
    stale.metadata.annotations = { [ExtendedResourceClaimAnnotation]: 'true' };
    stale.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'uid-p', controller: true }];
    const { pl, lister, writes, nodeInfos } = setup({ nodes: [{ name: 'worker' }], slices: [['worker', 2]], claims: [stale] });
    const podInfo = new PodInfo(pod);
    const cs = new CycleState();
    assert.equal(pl.preFilter(cs, podInfo), null);
    const s = pl.filter(cs, podInfo, nodeInfos[0]!);
    assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
    assert.equal(s?.message(), 'cannot schedule extended resource claim');
    const out = await pl.postFilter(cs, podInfo, new NodeToStatus());
    assert.equal(out.status?.code, Code.Unschedulable);
    assert.equal(out.status?.message(), ErrReasonDeleted);
    assert.deepEqual(writes.updates.at(-1)?.metadata.finalizers, [], 'the finalizer goes first');
    assert.deepEqual(writes.deleted, ['default/p-extended-resources-abcde']);
    assert.equal(lister.get('ResourceClaim', 'default', 'p-extended-resources-abcde'), undefined);
  });

  it('a failed PreBind deletes the claim it created and releases the devices', async () => {
    const { pl, writes, nodeInfos } = setup({ nodes: [{ name: 'worker' }], slices: [['worker', 2]] });
    const podInfo = new PodInfo(podAsking('1'));
    const cs = new CycleState();
    assert.equal(pl.preFilter(cs, podInfo), null);
    assert.equal(pl.filter(cs, podInfo, nodeInfos[0]!), null);
    assert.equal(pl.reserve(cs, podInfo, 'worker'), null);
    writes.failWith = new Error('status write refused');
    const s = await pl.preBind(cs, podInfo, 'worker');
    assert.equal(s?.code, Code.Error);
    assert.match(s?.message() ?? '', /add allocation and reservation to claim default\/p-extended-resources-xxxxx: status write refused/);
    pl.unreserve(cs, podInfo, 'worker');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes.deleted, ['default/p-extended-resources-xxxxx']);
    assert.equal(pl.claims.gatherAllocatedState().allocatedDevices.size, 0);
  });

  it('user claims and extended resources: one allocation per claim, the extended claim last', async () => {
    const pod = podWithClaimName('p', 'my-claim', 'uid-p');
    pod.spec.containers[0]!.resources = { requests: { [gpu]: '1' }, limits: { [gpu]: '1' } };
    const { pl, lister, nodeInfos } = setup({ nodes: [{ name: 'worker' }], slices: [['worker', 3]], claims: [pendingClaim('my-claim')] });
    const userClass: DeviceClass = { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'my-resource-class' }, spec: {} };
    lister.upsert(userClass);
    const podInfo = new PodInfo(pod);
    const cs = new CycleState();
    assert.equal(pl.preFilter(cs, podInfo), null);
    assert.equal(pl.filter(cs, podInfo, nodeInfos[0]!), null);
    assert.equal(pl.reserve(cs, podInfo, 'worker'), null);
    assert.equal(await pl.preBind(cs, podInfo, 'worker'), null);
    const mine = lister.get<ResourceClaim>('ResourceClaim', 'default', 'my-claim')!;
    const extended = lister.get<ResourceClaim>('ResourceClaim', 'default', 'p-extended-resources-xxxxx')!;
    assert.deepEqual(mine.status?.allocation?.devices?.results?.map((r) => r.device), ['dev-0']);
    assert.deepEqual(extended.status?.allocation?.devices?.results?.map((r) => r.device), ['dev-1']);
    assert.notEqual(extended.metadata.name, SpecialClaimInMemName);
  });

  it('a binding cancelled while PreBind waits for the claim it created to reach the informer stops waiting at once', async () => {
    const clock = new FakeClock(0);
    const { pl, writes, nodeInfos } = setup({ nodes: [{ name: 'worker' }], slices: [['worker', 2]], lateInformer: clock });
    const podInfo = new PodInfo(podAsking('1'));
    const cs = new CycleState();
    assert.equal(pl.preFilter(cs, podInfo), null);
    assert.equal(pl.filter(cs, podInfo, nodeInfos[0]!), null);
    assert.equal(pl.reserve(cs, podInfo, 'worker'), null);
    const cancel = new AbortController();
    let done = false;
    const preBind = pl.preBind(cs, podInfo, 'worker', cancel.signal).finally(() => (done = true));
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    assert.equal(writes.created.length, 1, 'the claim was created');
    assert.equal(done, false, 'PreBind waits for the informer (up to two minutes of the clock)');
    cancel.abort();
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    assert.equal(done, true, 'the cancel ends the wait, as upstream\'s cancelled context ends its poll');
    // The wait's end fails nothing by itself (upstream only logs it): the claim was written.
    assert.equal(await preBind, null);
    assert.equal(clock.now(), 0, 'no time passed');
    assert.equal(pl.claims.get('default', 'p-extended-resources-xxxxx'), undefined, 'not assumed: the informer never had it');
  });
});
