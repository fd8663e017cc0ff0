// ResourceClaims shared by a PodGroup (DRAWorkloadResourceClaims) and pending allocations shared
// within one pod-group cycle: the resourceclaim helpers' and DynamicResources' cases after
// upstream's resourceclaim_test.go and dynamicresources_test.go, in our words.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PodGroup } from '../../api/scheduling.js';
import type { Pod } from '../../api/types.js';
import type { ResourceClaim } from '../../api/dra_types.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { PodGroupLister } from '../../framework/interfaces.js';
import type { MapObjectLister } from '../../framework/object_lister.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { defaultDynamicResourcesArgs } from './args.js';
import { DynamicResources } from './dynamic_resources.js';
import { pinnedDraFeatures } from './features.js';
import { bindTo, ClaimUnavailable, isReservedForPod } from './pod_claims.js';
import { claimIsNotForPod } from '../../api/resourceclaim.js';
import { allocatedClaim, claimClient, deviceClass, FakeAllocator, nodeSlice, pendingClaim } from './test_helpers.js';
import type { PodGroupPostFilterContext } from '../../framework/pod_group_post_filter.js';

const group = (o: { claims?: PodGroup['spec']['resourceClaims']; uid?: string } = {}): PodGroup => ({
  apiVersion: 'scheduling.k8s.io/v1beta1',
  kind: 'PodGroup',
  metadata: { name: 'pg', namespace: 'default', uid: o.uid ?? 'uid-pg' },
  spec: { schedulingPolicy: { basic: {} }, resourceClaims: o.claims ?? [{ name: 'gpu', resourceClaimName: 'shared' }] },
});

const member = (name: string, entry: { resourceClaimName?: string; resourceClaimTemplateName?: string } = { resourceClaimName: 'shared' }, pg: string | null = 'pg'): Pod =>
  makePod(name, {
    uid: `uid-${name}`,
    spec: { resourceClaims: [{ name: 'gpu', ...entry }], ...(pg !== null ? { schedulingGroup: { podGroupName: pg } } : {}) },
  });

const groupRef = { apiGroup: 'scheduling.k8s.io', resource: 'podgroups', name: 'pg', uid: 'uid-pg' };
const podRef = (p: Pod) => ({ resource: 'pods', name: p.metadata.name, uid: p.metadata.uid });

describe('bindTo (resourceclaim.BindTo)', () => {
  const cases: { name: string; pod: Pod; pg: PodGroup | null; want: object | string }[] = [
    { name: 'an entry the group lists with the same fields binds to the group', pod: member('a'), pg: group(), want: groupRef },
    { name: 'without a group (gate off) the pod is the consumer', pod: member('a'), pg: null, want: podRef(member('a')) },
    { name: 'the same name with another claim binds to the pod', pod: member('a', { resourceClaimName: 'other' }), pg: group(), want: podRef(member('a', { resourceClaimName: 'other' })) },
    {
      name: 'a claim by name does not match a group template of the same entry name',
      pod: member('a'),
      pg: group({ claims: [{ name: 'gpu', resourceClaimTemplateName: 'shared' }] }),
      want: podRef(member('a')),
    },
    { name: 'a pod outside the group is refused', pod: member('a', undefined, null), pg: group(), want: 'Pod default/a does not belong to a PodGroup' },
    { name: 'a member of another group is refused', pod: member('a', undefined, 'other'), pg: group(), want: 'Pod default/a belongs to PodGroup default/other, not PodGroup default/pg' },
    { name: 'an entry with neither field is refused', pod: member('a', {}), pg: group(), want: 'Pod default/a claim gpu: none of the supported fields are set' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = bindTo(c.pod, c.pg, c.pod.spec.resourceClaims![0]!);
      if (typeof c.want === 'string') assert.equal(got instanceof ClaimUnavailable ? got.message : got, c.want);
      else assert.deepEqual(got, c.want);
    });
  }
});

describe('reservations and owners of group claims', () => {
  const claim = (reservedFor: object[], owner: object): ResourceClaim => ({ ...pendingClaim('shared'), metadata: { ...pendingClaim('shared').metadata, ownerReferences: [owner as never] }, status: { reservedFor: reservedFor as never } });
  const groupOwner = { apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', name: 'pg', uid: 'uid-pg', controller: true };

  it('a reservation for the group counts for its members only with the gate on', () => {
    const c = claim([groupRef], groupOwner);
    assert.equal(isReservedForPod(member('a'), c, true), true);
    assert.equal(isReservedForPod(member('a'), c, false), false);
    assert.equal(isReservedForPod(member('a', undefined, 'other'), c, true), false);
  });

  it('a claim the group controls is the member\'s with the gate on; else upstream\'s messages', () => {
    const c = claim([], groupOwner);
    assert.equal(claimIsNotForPod(member('a'), c, true), null);
    assert.equal(claimIsNotForPod(member('a'), c, false), 'ResourceClaim default/shared was not created for Pod default/a (Pod is not owner)');
    assert.equal(
      claimIsNotForPod(member('a', undefined, 'other'), c, true),
      'ResourceClaim default/shared was not created for Pod default/a (neither Pod nor PodGroup other is the owner)',
    );
    // The kind's API group counts, not its version.
    assert.equal(claimIsNotForPod(member('a'), claim([], { ...groupOwner, apiVersion: 'example.com/v1' }), true), 'ResourceClaim default/shared was not created for Pod default/a (neither Pod nor PodGroup other is the owner)'.replace('other', 'pg'));
  });
});

function setup(o: { gate: boolean; groups?: PodGroup[]; claims?: ResourceClaim[]; scheduled?: number }) {
  const handle = newTestHandle({
    nodes: [makeNode('worker'), makeNode('worker-2')],
    objects: [...(o.claims ?? [pendingClaim('shared')]), deviceClass(), nodeSlice('worker', 1), nodeSlice('worker-2', 1)],
  });
  const lister = handle.objects() as MapObjectLister;
  const client = claimClient(lister, handle.client());
  const groups = o.groups ?? [group()];
  const podGroups: PodGroupLister = {
    podGroup: (ns, name) => groups.find((g) => g.metadata.namespace === ns && g.metadata.name === name),
    allPodsCount: () => 2,
    scheduledPodsCount: () => o.scheduled ?? 0,
    unscheduledPods: () => [],
    assumedPods: () => [],
    scheduledPods: () => [],
  };
  Object.assign(handle, { client: () => client, podGroups: () => podGroups });
  const allocators: FakeAllocator[] = [];
  const pl = new DynamicResources(handle, {
    args: defaultDynamicResourcesArgs({}),
    features: { ...pinnedDraFeatures, enableDRAWorkloadResourceClaims: o.gate },
    newAllocator: (inputs) => {
      const a = new FakeAllocator(inputs);
      allocators.push(a);
      return a;
    },
  });
  const nodes = ['worker', 'worker-2'].map((n) => handle.snapshot.nodeInfos().get(n)!);
  return { pl, lister, writes: client.writes, nodes, allocators };
}

/** A member's attempt inside one group cycle: PreFilter, Filter on every node, Reserve on the first that fits. */
function place(pl: DynamicResources, nodes: ReturnType<typeof setup>['nodes'], pod: Pod, groupCycle: CycleState | null) {
  const state = new CycleState();
  state.podGroupCycle = groupCycle;
  const info = new PodInfo(pod);
  const pre = pl.preFilter(state, info);
  assert.equal(pre?.status ?? null, null, `PreFilter: ${pre?.status?.message()}`);
  const fits = nodes.filter((n) => pl.filter(state, info, n) === null).map((n) => n.name);
  assert.ok(fits.length > 0, 'some node fits');
  assert.equal(pl.reserve(state, info, fits[0]!), null);
  return { state, info, fits, node: fits[0]! };
}

describe('DynamicResources: a claim shared by a pod group', () => {
  it('the second member of a group cycle shares the first one\'s pending allocation, on its node only', () => {
    const { pl, nodes, allocators } = setup({ gate: true });
    const cycle = new CycleState();
    const a = place(pl, nodes, member('a'), cycle);
    assert.deepEqual(a.fits, ['worker', 'worker-2']);
    const searches = allocators.reduce((n, x) => n + x.calls, 0);
    const b = place(pl, nodes, member('b'), cycle);
    assert.deepEqual(b.fits, [a.node], 'the pending allocation\'s node selector decides');
    assert.equal(allocators.reduce((n, x) => n + x.calls, 0), searches, 'nothing is searched for a shared allocation');
    // Two sharers: the first Unreserve keeps it in flight, the second ends it.
    pl.unreserve(b.state, b.info, b.node);
    assert.notEqual(pl.claims.getPendingAllocation('uid-shared'), undefined);
    pl.unreserve(a.state, a.info, a.node);
    assert.equal(pl.claims.getPendingAllocation('uid-shared'), undefined);
  });

  it('outside a group cycle the next pod waits for the allocation in flight', () => {
    const { pl, nodes } = setup({ gate: true });
    place(pl, nodes, member('a'), null);
    const pre = pl.preFilter(new CycleState(), new PodInfo(member('b')));
    assert.equal(pre?.status?.code, Code.UnschedulableAndUnresolvable);
    assert.equal(pre?.status?.message(), 'resource claim default/shared is in the process of being allocated');
  });

  it('PreBind reserves a claim the group lists for the group, and a member then needs no write', async () => {
    const { pl, nodes, lister, writes } = setup({ gate: true });
    const a = place(pl, nodes, member('a'), new CycleState());
    assert.equal(await pl.preBind(a.state, a.info, a.node), null);
    const stored = lister.get<ResourceClaim>('ResourceClaim', 'default', 'shared')!;
    assert.deepEqual(stored.status?.reservedFor, [groupRef]);
    const c = place(pl, nodes, member('c'), null);
    assert.deepEqual(c.fits, [a.node]);
    const before = writes.statusWrites.length;
    assert.equal(await pl.preBind(c.state, c.info, c.node), null);
    assert.equal(writes.statusWrites.length, before, 'the group\'s reservation covers the member');
  });

  it('with the gate off the pod reserves the claim itself, even when the group lists it', async () => {
    const { pl, nodes, lister } = setup({ gate: false });
    const a = place(pl, nodes, member('a'), new CycleState());
    assert.equal(await pl.preBind(a.state, a.info, a.node), null);
    assert.deepEqual(lister.get<ResourceClaim>('ResourceClaim', 'default', 'shared')!.status?.reservedFor, [podRef(member('a'))]);
  });

  it('a member whose PodGroup the scheduler does not know yet is unschedulable with the lister\'s message', () => {
    const { pl } = setup({ gate: true, groups: [] });
    const pre = pl.preFilter(new CycleState(), new PodInfo(member('a')));
    assert.equal(pre?.status?.code, Code.Unschedulable);
    assert.equal(pre?.status?.message(), 'pod group object not found for pod group podgroup/default/pg');
  });
});

describe('DynamicResources: PodGroupPostFilter', () => {
  /** The group's cycle for one member that fits nowhere, then PodGroupPostFilter on it. */
  async function postFilter(claim: ResourceClaim, o: { gate?: boolean; scheduled?: number; onlyWorker?: boolean } = {}) {
    const env = setup({ gate: o.gate ?? true, claims: [claim], scheduled: o.scheduled });
    const cycle = new CycleState();
    const state = new CycleState();
    state.podGroupCycle = cycle;
    const info = new PodInfo(member('a'));
    assert.equal(env.pl.preFilter(state, info)?.status ?? null, null);
    // Filter on worker-2 finds a claim allocated on worker unavailable; on worker alone it fits.
    for (const n of o.onlyWorker ? env.nodes.slice(0, 1) : env.nodes) env.pl.filter(state, info, n);
    const ctx = { podGroup: group(), state: cycle, members: [info] } as unknown as PodGroupPostFilterContext;
    const out = await env.pl.podGroupPostFilter(ctx);
    return { status: out.status, stored: env.lister.get<ResourceClaim>('ResourceClaim', 'default', 'shared')! };
  }
  const onGoneNode = (reservedFor: object[]): ResourceClaim => {
    const c = allocatedClaim('shared', 'gone-node', ['dev-0']);
    c.status!.reservedFor = reservedFor as never;
    return c;
  };
  const onWorker = (reservedFor: object[]): ResourceClaim => {
    const c = allocatedClaim('shared', 'worker', ['dev-0']);
    c.status!.reservedFor = reservedFor as never;
    return c;
  };

  it('a member\'s unavailable claim nobody reserves is deallocated, as PostFilter would', async () => {
    const { status, stored } = await postFilter(onGoneNode([]));
    assert.equal(status?.code, Code.Unschedulable);
    assert.equal(status?.message(), 'deallocation and deletion of ResourceClaims completed');
    assert.equal(stored.status?.allocation, undefined);
  });

  it('an unavailable claim only the group reserves is deallocated by the group\'s step', async () => {
    const { status, stored } = await postFilter(onGoneNode([groupRef]));
    assert.equal(status?.message(), 'deallocation of PodGroup ResourceClaim completed');
    assert.equal(stored.status?.allocation, undefined);
  });

  it('an available claim the group reserves loses that reservation while no member is scheduled', async () => {
    const { status, stored } = await postFilter(onWorker([groupRef]), { onlyWorker: true });
    assert.equal(status?.message(), 'ResourceClaim unreserved for PodGroup');
    assert.deepEqual(stored.status?.reservedFor, []);
    assert.notEqual(stored.status?.allocation, undefined, 'the allocation stays');
  });

  it('nothing of the group\'s is touched once a member is scheduled, nor with the gate off', async () => {
    for (const o of [{ scheduled: 1, onlyWorker: true }, { gate: false, onlyWorker: true }]) {
      const { status, stored } = await postFilter(onWorker([groupRef]), o);
      assert.equal(status?.message(), 'deallocation and deletion of ResourceClaims completed');
      assert.deepEqual(stored.status?.reservedFor, [groupRef]);
    }
  });
});
