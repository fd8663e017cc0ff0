// DynamicResources at every extension point, cases after upstream's TestPlugin
// (dynamicresources_test.go) in our words, with a small allocator standing in for src/dra/structured.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/types.js';
import type { DeviceClass, ResourceClaim, ResourceSlice } from '../../api/dra_types.js';
import { CycleState } from '../../framework/cycle_state.js';
import type { NodeScore } from '../../framework/interfaces.js';
import { NodeInfo } from '../../framework/node_info.js';
import type { MapObjectLister } from '../../framework/object_lister.js';
import { PodInfo } from '../../framework/pod_info.js';
import { NodeToStatus } from '../../framework/node_to_status.js';
import { Code, type Status } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { newTestHandle } from '../../testing/handle.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../registry.js';
import { defaultDynamicResourcesArgs } from './args.js';
import { DynamicResources, dynamicResourcesDefinition, ErrReasonCannotAllocate, ErrReasonDeallocated, ErrReasonNotAvailable } from './index.js';
import { FailedAllocationOnNodeError } from '../../dra/structured/index.js';
import {
  allocatedClaim,
  claimClient,
  className,
  deviceClass,
  FakeAllocator,
  generatedClaim,
  nodeSlice,
  pendingClaim,
  podWithClaimName,
  podWithTemplate,
  type ClaimWrites,
} from './test_helpers.js';

const worker = 'worker';
const worker2 = 'worker-2';

interface Setup {
  pod: Pod;
  claims?: ResourceClaim[];
  classes?: DeviceClass[];
  slices?: ResourceSlice[];
  nodes?: string[];
  inFlight?: ResourceClaim[];
  now?: number;
}

function setup(s: Setup) {
  const objects = [...(s.claims ?? []), ...(s.classes ?? []), ...(s.slices ?? [])];
  const handle = newTestHandle({ nodes: (s.nodes ?? [worker]).map((n) => makeNode(n)), objects, now: s.now ?? 0 });
  const lister = handle.objects() as MapObjectLister;
  const client = claimClient(lister, handle.client());
  Object.assign(handle, { client: () => client });
  const allocators: FakeAllocator[] = [];
  const pl = new DynamicResources(handle, {
    args: defaultDynamicResourcesArgs({}),
    newAllocator: (inputs) => {
      const a = new FakeAllocator(inputs);
      allocators.push(a);
      return a;
    },
  });
  for (const c of s.inFlight ?? []) pl.claims.signalClaimPendingAllocation(c.metadata.uid!, c);
  const nodeInfos = (s.nodes ?? [worker]).map((n) => handle.snapshot.nodeInfos().get(n)!);
  return { pl, handle, lister, writes: client.writes, nodeInfos, allocators };
}

/** What one scheduling attempt saw at each extension point (upstream's want). */
interface CycleResult {
  preEnqueue: Status | null;
  preFilter?: Status | null;
  filter?: Record<string, Status | null>;
  postFilter?: Status | null;
  score?: Record<string, number>;
  reserve?: Status | null;
  preBind?: Status | null;
  node?: string;
}

async function runCycle(pl: DynamicResources, pod: Pod, nodes: readonly NodeInfo[], state = new CycleState(), signal?: AbortSignal): Promise<CycleResult> {
  const podInfo = new PodInfo(pod);
  const out: CycleResult = { preEnqueue: pl.preEnqueue(pod) };
  if (out.preEnqueue !== null) return out;
  const pre = pl.preFilter(state, podInfo);
  out.preFilter = pre?.status ?? null;
  const statuses = new NodeToStatus();
  const feasible: NodeInfo[] = [];
  if (out.preFilter === null) {
    out.filter = {};
    for (const n of nodes) {
      const s = pl.filter(state, podInfo, n);
      out.filter[n.name] = s;
      if (s === null) feasible.push(n);
      else statuses.set(n.name, s);
    }
  }
  if (out.preFilter?.code === Code.Skip) return out;
  if (feasible.length === 0) {
    out.postFilter = (await pl.postFilter(state, podInfo, statuses)).status;
    return out;
  }
  const scores: NodeScore[] = feasible.map((n) => ({ name: n.name, score: -1 }));
  assert.equal(pl.scoreNodes(state, podInfo, feasible, scores), null);
  pl.normalizeScore(state, podInfo, scores);
  out.score = Object.fromEntries(scores.map((s) => [s.name, s.score]));
  const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
  out.node = best.name;
  out.reserve = pl.reserve(state, podInfo, best.name);
  if (out.reserve !== null) return out;
  out.preBind = await pl.preBind(state, podInfo, best.name, signal);
  if (out.preBind !== null) pl.unreserve(state, podInfo, best.name);
  return out;
}

type Want = { code: Code; reason?: string } | null;
const ok: Want = null;
const want = (code: Code, reason?: string): Want => ({ code, ...(reason !== undefined ? { reason } : {}) });

function check(what: string, got: Status | null | undefined, w: Want): void {
  if (w === null) {
    assert.equal(got ?? null, null, `${what}: want success, got ${got?.code} ${got?.message()}`);
    return;
  }
  assert.ok(got, `${what}: want code ${w.code}, got success`);
  assert.equal(got.code, w.code, `${what}: code (${got.message()})`);
  if (w.reason !== undefined) assert.equal(got.message(), w.reason, `${what}: message`);
}

const pod = podWithClaimName('my-pod', 'my-claim');
const templatePod = podWithTemplate('my-pod', 'my-pod-my-resource');

interface Case {
  name: string;
  setup: Setup;
  want: {
    preEnqueue?: Want;
    preFilter?: Want;
    filter?: Record<string, Want>;
    postFilter?: Want;
    reserve?: Want;
    preBind?: Want;
    node?: string;
    score?: Record<string, number>;
  };
  /** Checks on the stored claim afterwards. */
  after?: (claim: ResourceClaim | undefined, writes: ClaimWrites) => void;
}

const reservedForPod = (c: ResourceClaim | undefined, p: Pod) => assert.deepEqual(c?.status?.reservedFor, [{ resource: 'pods', name: p.metadata.name, uid: p.metadata.uid }]);

const cases: Case[] = [
  {
    name: 'a pod without claims: nothing to do, PreFilter skips',
    setup: { pod: makePod('my-pod') },
    want: { preEnqueue: ok, preFilter: want(Code.Skip) },
  },
  {
    name: 'a claim by name gets a device on the node with a slice: allocation, finalizer, reservation and timestamp written in PreBind',
    setup: { pod, claims: [pendingClaim('my-claim')], classes: [deviceClass()], slices: [nodeSlice(worker, 1)] },
    want: { preFilter: ok, filter: { [worker]: ok }, reserve: ok, preBind: ok, node: worker },
    after: (c, writes) => {
      assert.deepEqual(c?.status?.allocation?.devices?.results?.map((r) => r.device), ['dev-0']);
      assert.deepEqual(c?.metadata.finalizers, ['resource.kubernetes.io/delete-protection']);
      assert.equal(c?.status?.allocation?.allocationTimestamp, '1970-01-01T00:00:00Z');
      reservedForPod(c, pod);
      assert.equal(writes.updates.length, 1, 'the finalizer goes in with a normal update first');
    },
  },
  {
    name: 'a claim generated from a template and named in the pod status is allocated like a named one',
    setup: { pod: templatePod, claims: [generatedClaim(templatePod, 'my-pod-my-resource')], classes: [deviceClass()], slices: [nodeSlice(worker, 1)] },
    want: { preFilter: ok, filter: { [worker]: ok }, reserve: ok, preBind: ok },
    after: (_c, writes) => reservedForPod(writes.statusWrites.at(-1), templatePod),
  },
  {
    name: 'a template whose claim is not created yet keeps the pod out of the active queue',
    setup: { pod: podWithTemplate('my-pod', undefined) },
    want: { preEnqueue: want(Code.UnschedulableAndUnresolvable, 'pod "default/my-pod": ResourceClaim not created yet') },
  },
  {
    name: 'a template for which the controller made no claim leaves nothing to do',
    setup: { pod: podWithTemplate('my-pod', null) },
    want: { preEnqueue: ok, preFilter: want(Code.Skip) },
  },
  {
    name: 'a missing claim is the assume cache\'s error',
    setup: { pod },
    want: { preEnqueue: want(Code.UnschedulableAndUnresolvable, 'could not find ResourceClaim "default/my-claim"') },
  },
  {
    name: 'a claim being deleted cannot be used',
    setup: {
      pod: templatePod,
      claims: [{ ...generatedClaim(templatePod, 'my-pod-my-resource'), metadata: { ...generatedClaim(templatePod, 'my-pod-my-resource').metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }],
    },
    want: { preEnqueue: want(Code.UnschedulableAndUnresolvable, 'resourceclaim "my-pod-my-resource" is being deleted') },
  },
  {
    name: 'a generated claim owned by another pod is not this pod\'s',
    setup: { pod: templatePod, claims: [generatedClaim(podWithTemplate('other', null, 'other-uid'), 'my-pod-my-resource')] },
    want: { preEnqueue: want(Code.UnschedulableAndUnresolvable, 'ResourceClaim default/my-pod-my-resource was not created for Pod default/my-pod (Pod is not owner)') },
  },
  {
    name: 'no slices: every node is unresolvable and PostFilter has nothing to free',
    setup: { pod, claims: [pendingClaim('my-claim')], classes: [deviceClass()] },
    want: { filter: { [worker]: want(Code.UnschedulableAndUnresolvable, ErrReasonCannotAllocate) }, postFilter: want(Code.Unschedulable, '') },
  },
  {
    name: 'the only device is held by an allocated claim in the informer cache',
    setup: { pod, claims: [pendingClaim('my-claim'), allocatedClaim('other', worker, ['dev-0'])], classes: [deviceClass()], slices: [nodeSlice(worker, 1)] },
    want: { filter: { [worker]: want(Code.UnschedulableAndUnresolvable, ErrReasonCannotAllocate) }, postFilter: want(Code.Unschedulable, '') },
  },
  {
    name: 'the only device is held by an allocation in flight',
    setup: {
      pod,
      claims: [pendingClaim('my-claim'), pendingClaim('other')],
      inFlight: [allocatedClaim('other', worker, ['dev-0'])],
      classes: [deviceClass()],
      slices: [nodeSlice(worker, 1)],
    },
    want: { filter: { [worker]: want(Code.UnschedulableAndUnresolvable, ErrReasonCannotAllocate) } },
  },
  {
    name: 'a device held in flight leaves the other one to this pod',
    setup: {
      pod,
      claims: [pendingClaim('my-claim'), pendingClaim('other')],
      inFlight: [allocatedClaim('other', worker, ['dev-0'])],
      classes: [deviceClass()],
      slices: [nodeSlice(worker, 2)],
    },
    want: { filter: { [worker]: ok }, preBind: ok },
    after: (c) => assert.deepEqual(c?.status?.allocation?.devices?.results?.map((r) => r.device), ['dev-1']),
  },
  {
    name: 'a claim whose allocation is in flight for another pod waits for it',
    setup: { pod, claims: [pendingClaim('my-claim')], inFlight: [allocatedClaim('my-claim', worker, ['dev-0'])], classes: [deviceClass()] },
    want: { preFilter: want(Code.UnschedulableAndUnresolvable, 'resource claim default/my-claim is in the process of being allocated') },
  },
  {
    name: 'a missing device class waits for a DeviceClass event',
    setup: { pod, claims: [pendingClaim('my-claim')] },
    want: { preFilter: want(Code.UnschedulableAndUnresolvable, `request req-1: device class ${className} does not exist`), postFilter: want(Code.Unschedulable, '') },
  },
  {
    name: 'a missing class of a firstAvailable alternative names the subrequest',
    setup: { pod, claims: [pendingClaim('my-claim', { firstAvailable: [className, 'gone'] })], classes: [deviceClass()] },
    want: { preFilter: want(Code.UnschedulableAndUnresolvable, 'request req-1/sub-1: device class gone does not exist') },
  },
  {
    name: 'a request with neither exactly nor firstAvailable is an unknown request type',
    setup: { pod, claims: [{ ...pendingClaim('my-claim'), spec: { devices: { requests: [{ name: 'req-1' }] } } }] },
    want: { preFilter: want(Code.UnschedulableAndUnresolvable, 'resource claim default/my-claim, request req-1: unknown request type') },
  },
  {
    name: 'an allocation for another node makes the claim unavailable, and PostFilter deallocates it',
    setup: { pod, claims: [allocatedClaim('my-claim', worker2, ['dev-0'])] },
    want: { filter: { [worker]: want(Code.UnschedulableAndUnresolvable, ErrReasonNotAvailable) }, postFilter: want(Code.Unschedulable, ErrReasonDeallocated) },
    after: (c) => {
      assert.equal(c?.status?.allocation, undefined);
      assert.equal(c?.status?.reservedFor, undefined);
    },
  },
  {
    name: 'an allocation reserved by another pod is not freed by PostFilter',
    setup: { pod, claims: [allocatedClaim('my-claim', worker2, ['dev-0'], { reservedFor: [makePod('other', { uid: 'other' })] })] },
    want: { filter: { [worker]: want(Code.UnschedulableAndUnresolvable, ErrReasonNotAvailable) }, postFilter: want(Code.Unschedulable, '') },
    after: (c) => assert.notEqual(c?.status?.allocation, undefined),
  },
  {
    name: 'an allocation for this node: PreBind only adds the reservation (and the timestamp)',
    setup: { pod, claims: [allocatedClaim('my-claim', worker, ['dev-0'])] },
    want: { filter: { [worker]: ok }, reserve: ok, preBind: ok },
    after: (c, writes) => {
      reservedForPod(c, pod);
      assert.equal(c?.status?.allocation?.allocationTimestamp, '1970-01-01T00:00:00Z');
      assert.equal(writes.updates.length, 0);
    },
  },
  {
    name: 'a claim already reserved for the pod needs no write',
    setup: { pod, claims: [allocatedClaim('my-claim', worker, ['dev-0'], { reservedFor: [pod] })] },
    want: { filter: { [worker]: ok }, preBind: ok },
    after: (_c, writes) => assert.equal(writes.statusWrites.length, 0),
  },
  {
    name: 'a failed status write fails PreBind with the claim named',
    setup: { pod, claims: [pendingClaim('my-claim')], classes: [deviceClass()], slices: [nodeSlice(worker, 1)] },
    want: { preBind: want(Code.Error, 'add allocation and reservation to claim default/my-claim: boom') },
  },
  {
    name: 'firstAvailable: the node offering an earlier alternative scores higher',
    setup: {
      pod,
      nodes: [worker, worker2],
      claims: [pendingClaim('my-claim', { firstAvailable: ['gpu-a', 'gpu-b'] })],
      classes: [deviceClass('gpu-a'), deviceClass('gpu-b')],
      slices: [
        { ...nodeSlice(worker, 0), spec: { ...nodeSlice(worker, 0).spec, devices: [{ name: 'gpu-b-0' }] } },
        { ...nodeSlice(worker2, 0), spec: { ...nodeSlice(worker2, 0).spec, devices: [{ name: 'gpu-a-0' }] } },
      ],
    },
    // Raw scores 7 and 8, normalized to 100 for the best.
    want: { filter: { [worker]: ok, [worker2]: ok }, score: { [worker]: 87, [worker2]: 100 }, node: worker2, preBind: ok },
    after: (c) => assert.equal(c?.status?.allocation?.devices?.results?.[0]?.request, 'req-1/sub-0'),
  },
];

describe('DynamicResources, extension point by extension point', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const env = setup(c.setup);
      if (c.name.startsWith('a failed status write')) env.writes.failWith = new Error('boom');
      const got = await runCycle(env.pl, c.setup.pod, env.nodeInfos);
      const w = c.want;
      if (w.preEnqueue !== undefined) check('PreEnqueue', got.preEnqueue, w.preEnqueue);
      if (w.preFilter !== undefined) check('PreFilter', got.preFilter, w.preFilter);
      for (const [node, fw] of Object.entries(w.filter ?? {})) check(`Filter ${node}`, got.filter?.[node], fw);
      if (w.postFilter !== undefined) check('PostFilter', got.postFilter, w.postFilter);
      if (w.reserve !== undefined) check('Reserve', got.reserve, w.reserve);
      if (w.preBind !== undefined) check('PreBind', got.preBind, w.preBind);
      if (w.node !== undefined) assert.equal(got.node, w.node);
      if (w.score !== undefined) assert.deepEqual(got.score, w.score);
      const claimName = c.setup.pod.spec.resourceClaims?.[0]?.resourceClaimName ?? c.setup.pod.status?.resourceClaimStatuses?.[0]?.resourceClaimName;
      if (c.after) c.after(claimName ? env.lister.get<ResourceClaim>('ResourceClaim', 'default', claimName) : undefined, env.writes);
    });
  }
});

describe('DynamicResources across pods', () => {
  it('two pods never get one device, also while the first one is still binding', async () => {
    const a = podWithClaimName('a', 'claim-a');
    const b = podWithClaimName('b', 'claim-b');
    const env = setup({ pod: a, claims: [pendingClaim('claim-a'), pendingClaim('claim-b')], classes: [deviceClass()], slices: [nodeSlice(worker, 2)] });
    const stateA = new CycleState();
    const infoA = new PodInfo(a);
    env.pl.preFilter(stateA, infoA);
    assert.equal(env.pl.filter(stateA, infoA, env.nodeInfos[0]!), null);
    assert.equal(env.pl.reserve(stateA, infoA, worker), null);
    // A's binding cycle has not written anything yet: B must not get dev-0.
    const gotB = await runCycle(env.pl, b, env.nodeInfos);
    check('PreBind b', gotB.preBind, ok);
    assert.equal(await env.pl.preBind(stateA, infoA, worker), null);
    const devices = ['claim-a', 'claim-b'].map((n) => env.lister.get<ResourceClaim>('ResourceClaim', 'default', n)?.status?.allocation?.devices?.results?.[0]?.device);
    assert.deepEqual(devices.sort(), ['dev-0', 'dev-1']);
  });

  it('a third pod finds no device once both are written, and Unreserve of a failed binding frees its device', async () => {
    const pods = ['a', 'b', 'c'].map((n) => podWithClaimName(n, `claim-${n}`));
    const env = setup({ pod: pods[0]!, claims: pods.map((p) => pendingClaim(p.spec.resourceClaims![0]!.resourceClaimName!)), classes: [deviceClass()], slices: [nodeSlice(worker, 1)] });
    const first = await runCycle(env.pl, pods[0]!, env.nodeInfos);
    check('PreBind a', first.preBind, ok);
    const second = await runCycle(env.pl, pods[1]!, env.nodeInfos);
    check('Filter b', second.filter?.[worker], want(Code.UnschedulableAndUnresolvable, ErrReasonCannotAllocate));

    // A binding that fails gives its in-flight device back.
    const env2 = setup({ pod: pods[0]!, claims: pods.map((p) => pendingClaim(p.spec.resourceClaims![0]!.resourceClaimName!)), classes: [deviceClass()], slices: [nodeSlice(worker, 1)] });
    env2.writes.failWith = new Error('boom');
    check('PreBind a', (await runCycle(env2.pl, pods[0]!, env2.nodeInfos)).preBind, want(Code.Error));
    env2.writes.failWith = null;
    check('PreBind c', (await runCycle(env2.pl, pods[2]!, env2.nodeInfos)).preBind, ok);
  });

  it('a conflicting write is retried with the latest claim', async () => {
    const env = setup({ pod, claims: [pendingClaim('my-claim')], classes: [deviceClass()], slices: [nodeSlice(worker, 1)] });
    env.writes.conflicts = 2;
    const got = await runCycle(env.pl, pod, env.nodeInfos);
    check('PreBind', got.preBind, ok);
    reservedForPod(env.lister.get<ResourceClaim>('ResourceClaim', 'default', 'my-claim'), pod);
  });

  it('PreFilter builds one allocator per pod, not per node', async () => {
    const env = setup({ pod, nodes: [worker, worker2], claims: [pendingClaim('my-claim')], classes: [deviceClass()], slices: [nodeSlice(worker, 1), nodeSlice(worker2, 1)] });
    await runCycle(env.pl, pod, env.nodeInfos);
    assert.equal(env.allocators.length, 1);
    assert.equal(env.allocators[0]!.calls, 2);
  });
});

describe('DynamicResources without its PreFilter state', () => {
  it('PostFilter fails with the cycle state\'s "not found", as upstream when an earlier PreFilter rejected the pod', async () => {
    const env = setup({ pod });
    const out = await env.pl.postFilter(new CycleState(), new PodInfo(pod), new NodeToStatus());
    check('PostFilter', out.status, want(Code.Error, 'not found'));
  });

  it('scores 0 on every node for a pod without claims', () => {
    const env = setup({ pod: makePod('plain'), nodes: [worker, worker2] });
    const state = new CycleState();
    env.pl.preFilter(state, new PodInfo(makePod('plain')));
    const scores: NodeScore[] = env.nodeInfos.map((n) => ({ name: n.name, score: 42 }));
    assert.equal(env.pl.scoreNodes(state, new PodInfo(makePod('plain')), env.nodeInfos, scores), null);
    assert.deepEqual(scores.map((s) => s.score), [0, 0]);
  });
});

describe('DynamicResources binding conditions', () => {
  const withConditions = (o: { ready?: boolean; failed?: boolean; stamp?: string }): ResourceClaim => {
    const c = allocatedClaim('my-claim', worker, ['dev-0']);
    const r = c.status!.allocation!.devices!.results![0]!;
    r.bindingConditions = ['attached'];
    r.bindingFailureConditions = ['failed'];
    if (o.stamp) c.status!.allocation!.allocationTimestamp = o.stamp;
    const conditions = [
      ...(o.ready ? [{ type: 'attached', status: 'True' as const, reason: 'r', message: 'm', lastTransitionTime: '1970-01-01T00:00:00Z' }] : []),
      ...(o.failed ? [{ type: 'failed', status: 'True' as const, reason: 'Broken', message: 'it broke', lastTransitionTime: '1970-01-01T00:00:00Z' }] : []),
    ];
    c.status!.devices = [{ driver: r.driver, pool: r.pool, device: r.device, conditions }];
    return c;
  };
  const table: { name: string; claim: ResourceClaim; now: number; filter: Want }[] = [
    { name: 'conditions met: the node is fine', claim: withConditions({ ready: true }), now: 0, filter: ok },
    { name: 'conditions pending within the binding timeout: still fine', claim: withConditions({ stamp: '1970-01-01T00:00:00Z' }), now: 60_000, filter: ok },
    { name: 'conditions pending past the binding timeout: unavailable', claim: withConditions({ stamp: '1970-01-01T00:00:00Z' }), now: 601_000, filter: want(Code.UnschedulableAndUnresolvable, ErrReasonNotAvailable) },
    { name: 'a failure condition: unavailable', claim: withConditions({ failed: true }), now: 0, filter: want(Code.UnschedulableAndUnresolvable, ErrReasonNotAvailable) },
  ];
  for (const c of table) {
    it(c.name, async () => {
      const env = setup({ pod, claims: [c.claim], now: c.now });
      const got = await runCycle(env.pl, pod, env.nodeInfos);
      check('Filter', got.filter?.[worker], c.filter);
    });
  }

  it('PreBind waits for the conditions, with an event, and fails once one of them fails', async () => {
    const env = setup({ pod, claims: [withConditions({})] });
    let checks = 0;
    const base = env.handle.client();
    Object.assign(env.handle, {
      client: () => ({
        ...base,
        waitUntil: async (ready: () => boolean) => {
          checks++;
          if (ready()) return true;
          const stored = env.lister.get<ResourceClaim>('ResourceClaim', 'default', 'my-claim')!;
          const failed: ResourceClaim = { ...stored, metadata: { ...stored.metadata, resourceVersion: '99' }, status: { ...stored.status, devices: withConditions({ failed: true }).status!.devices } };
          env.lister.upsert(failed);
          return ready();
        },
      }),
    });
    const got = await runCycle(env.pl, pod, env.nodeInfos);
    assert.equal(checks, 1);
    check('PreBind', got.preBind, want(Code.Error, 'device binding failed: claim=my-claim, reason=Broken, message="it broke"'));
    assert.deepEqual(env.handle.calls.events.map((e) => e.reason), ['BindingConditionsPending']);
  });

  it('PreBind stops waiting for the conditions when its binding is cancelled (preemption), with context canceled', async () => {
    const env = setup({ pod, claims: [withConditions({})] });
    const base = env.handle.client();
    const cancel = new AbortController();
    Object.assign(env.handle, {
      client: () => ({
        ...base,
        // Never ready: only the signal ends the wait, as the handle's waitUntil does.
        waitUntil: (_ready: () => boolean, _timeoutMs: number, signal?: AbortSignal) => new Promise<boolean>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('context canceled')));
        }),
      }),
    });
    const run = runCycle(env.pl, pod, env.nodeInfos, new CycleState(), cancel.signal);
    await new Promise((r) => setImmediate(r));
    cancel.abort(new Error('preempted by DefaultPreemption'));
    check('PreBind', (await run).preBind, want(Code.Error, 'context canceled'));
  });
});

describe('DynamicResources events and registry', () => {
  it('registers node, claim, pod, class and slice events', () => {
    const env = setup({ pod });
    assert.deepEqual(env.pl.eventsToRegister().map((e) => e.event.resource), ['Node', 'ResourceClaim', 'UnscheduledPod', 'DeviceClass', 'ResourceSlice']);
  });

  it('is what the in-tree registry builds for DynamicResources, which is not reported missing', () => {
    assert.equal(inTreeRegistry().get('DynamicResources'), dynamicResourcesDefinition);
    assert.equal(notYetAvailablePlugins.has('DynamicResources'), false);
  });
});

describe('DynamicResources allocator outcomes', () => {
  const failedOnNode = new FailedAllocationOnNodeError('invalid resource pools were encountered');
  const table: { name: string; throws?: Error; slowMs?: number; filterTimeout?: string; want: Want }[] = [
    { name: 'trouble limited to the node is that node\'s unresolvable reason', throws: failedOnNode, want: want(Code.UnschedulableAndUnresolvable, 'invalid resource pools were encountered') },
    { name: 'a broken claim or class is an error for the pod', throws: new Error('cel evaluation error: no such key: model'), want: want(Code.Error, 'cel evaluation error: no such key: model') },
    { name: 'an allocation longer than filterTimeout is a timeout error (retried after backoff)', slowMs: 11_000, want: want(Code.Error, 'node worker: timed out trying to allocate devices') },
    { name: 'filterTimeout 0s never times out', slowMs: 11_000, filterTimeout: '0s', want: ok },
  ];
  for (const c of table) {
    it(c.name, () => {
      let now = 0;
      const handle = newTestHandle({ nodes: [makeNode(worker)], objects: [pendingClaim('my-claim'), deviceClass(), nodeSlice(worker, 1)] });
      Object.assign(handle, { now: () => now });
      const pl = new DynamicResources(handle, {
        args: defaultDynamicResourcesArgs(c.filterTimeout ? { filterTimeout: c.filterTimeout } : {}),
        newAllocator: (inputs) => ({
          allocate: (node, claims) => {
            if (c.throws) throw c.throws;
            now += c.slowMs ?? 0;
            return new FakeAllocator(inputs).allocate(node, claims);
          },
        }),
      });
      const state = new CycleState();
      pl.preFilter(state, new PodInfo(pod));
      check('Filter', pl.filter(state, new PodInfo(pod), handle.snapshot.nodeInfos().get(worker)!), c.want);
    });
  }
});

describe('DynamicResources PreBind races', () => {
  it('a claim allocated by someone else meanwhile fails the binding (after re-reading it on conflict)', async () => {
    const env = setup({ pod, claims: [pendingClaim('my-claim')], classes: [deviceClass()], slices: [nodeSlice(worker, 2)] });
    const state = new CycleState();
    const info = new PodInfo(pod);
    env.pl.preFilter(state, info);
    assert.equal(env.pl.filter(state, info, env.nodeInfos[0]!), null);
    assert.equal(env.pl.reserve(state, info, worker), null);
    const raced = allocatedClaim('my-claim', worker, ['dev-1']);
    env.lister.upsert({ ...raced, metadata: { ...raced.metadata, resourceVersion: '7' } });
    check('PreBind', await env.pl.preBind(state, info, worker), want(Code.Error, 'claim default/my-claim got allocated elsewhere in the meantime'));
  });

  it('a claim being deleted meanwhile fails the binding', async () => {
    const env = setup({ pod, claims: [pendingClaim('my-claim')], classes: [deviceClass()], slices: [nodeSlice(worker, 1)] });
    const state = new CycleState();
    const info = new PodInfo(pod);
    env.pl.preFilter(state, info);
    env.pl.filter(state, info, env.nodeInfos[0]!);
    env.pl.reserve(state, info, worker);
    const stored = env.lister.get<ResourceClaim>('ResourceClaim', 'default', 'my-claim')!;
    env.lister.upsert({ ...stored, metadata: { ...stored.metadata, resourceVersion: '7', deletionTimestamp: '2026-01-01T00:00:00Z' } });
    check('PreBind', await env.pl.preBind(state, info, worker), want(Code.Error, 'claim default/my-claim got deleted in the meantime'));
  });
});
