// The claims part of the differential comparison: the same devices, of the same claims, in the
// same order, whichever of the two shapes each side reports; generated claim names compared
// without their random part.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../src/api/types.js';
import type { Scenario } from '../../src/sim/scenario/scenario.js';
import { compareClaims, compareScenario, compareWrites, settleLateBindings, explainDifferences, maskGeneratedClaimNames, type ExplainClaim, type ExplainPodWithClaims } from './compare.js';

const pod = (claims?: ExplainClaim[]): ExplainPodWithClaims => ({
  pod: 'default/p', outcome: 'Scheduled', node: 'node-1', message: '', filter: {}, preFilter: null, scores: {}, bestNodes: ['node-1'], nominatedNode: '', victims: [],
  filterPlugins: [], allFilters: {}, scoreDetails: {}, preemption: null, attempts: [],
  ...(claims ? { claims } : {}),
});
const gpu = (device: string) => ({ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device });

describe('compareClaims', () => {
  const cases: { name: string; expected: ExplainPodWithClaims; actual: ExplainPodWithClaims; want: string[] }[] = [
    { name: 'pods without claims agree, whether the field is left out or empty', expected: pod(), actual: pod([]), want: [] },
    {
      name: 'the same claim with the same devices agrees',
      expected: pod([{ name: 'gpu', claim: 'p-gpu-abcde', devices: [gpu('gpu-0'), gpu('gpu-1')] }]),
      actual: pod([{ name: 'gpu', claim: 'p-gpu-abcde', devices: [gpu('gpu-0'), gpu('gpu-1')] }]),
      want: [],
    },
    {
      name: "the harness's claims agree with our flat list of the devices reserved for the pod",
      expected: pod([{ name: 'gpu', claim: 'c', devices: [gpu('gpu-0')] }, { name: 'nic', claim: 'n', devices: [] }]),
      actual: { ...pod(), devices: [{ claim: 'c', ...gpu('gpu-0') }] },
      want: [],
    },
    {
      name: 'a pod not scheduled holds no devices, even through a claim another pod allocated',
      expected: { ...pod([{ name: 'gpu', claim: 'shared', devices: [gpu('gpu-0')] }]), outcome: 'Unschedulable' },
      actual: { ...pod(), outcome: 'Unschedulable', devices: [] },
      want: [],
    },
    {
      name: 'devices in another order differ: the allocation is an ordered list',
      expected: pod([{ name: 'gpu', claim: 'c', devices: [gpu('gpu-0'), gpu('gpu-1')] }]),
      actual: pod([{ name: 'gpu', claim: 'c', devices: [gpu('gpu-1'), gpu('gpu-0')] }]),
      want: ['devices: expected [c: gpu=gpu.example.com/node-1/gpu-0, c: gpu=gpu.example.com/node-1/gpu-1], actual [c: gpu=gpu.example.com/node-1/gpu-1, c: gpu=gpu.example.com/node-1/gpu-0]'],
    },
    {
      name: 'another claim and admin access are reported',
      expected: pod([{ name: 'gpu', claim: 'c', devices: [gpu('gpu-0')] }]),
      actual: pod([{ name: 'gpu', claim: 'd', devices: [{ ...gpu('gpu-0'), adminAccess: true }] }]),
      want: ['devices: expected [c: gpu=gpu.example.com/node-1/gpu-0], actual [d: gpu=gpu.example.com/node-1/gpu-0 (admin)]'],
    },
    {
      name: 'devices for extended resources are compared in order too',
      expected: { ...pod(), extendedResourceDevices: [gpu('gpu-0')] },
      actual: pod(),
      want: ['extendedResourceDevices: expected [gpu=gpu.example.com/node-1/gpu-0], actual []'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(compareClaims(c.expected, c.actual), c.want));
  }
});

describe('generated claim names', () => {
  const pending: Pod = { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [], resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 't' }, { name: 'own', resourceClaimName: 'own-claim-bcdfg' }] } };
  const long: Pod = { metadata: { name: 'x'.repeat(60), namespace: 'default' }, spec: { containers: [], resourceClaims: [{ name: 'c'.repeat(20), resourceClaimTemplateName: 't' }] } };
  const scenario: Scenario = { name: 's', metadata: {}, config: null, nodes: [], pods: [], pending: [pending, long], objects: [], steps: [] };
  const answer = (suffix: string): { pods: ExplainPodWithClaims[] } => ({
    pods: [{ ...pod([{ name: 'gpu', claim: `p-gpu-${suffix}`, devices: [] }, { name: 'own', claim: 'own-claim-bcdfg', devices: [] }]), message: `claim default/p-gpu-${suffix}: cannot allocate`, outcome: 'Unschedulable' }],
  });

  it('are compared without the five characters the API server picks at random, in messages too', () => {
    assert.deepEqual(compareScenario(scenario, answer('l2fr2'), answer('zz9x4')).flatMap((r) => r.diffs), []);
    const masked = maskGeneratedClaimNames(answer('l2fr2'), scenario).pods[0]!;
    assert.equal(masked.claims?.[0]?.claim, 'p-gpu-*****');
    assert.equal(masked.claims?.[1]?.claim, 'own-claim-bcdfg', 'a claim the pod names itself is kept whole');
    assert.equal(masked.message, 'claim default/p-gpu-*****: cannot allocate');
  });

  it('mask the proportionally cut base of a long name, and the extended-resources claim', () => {
    const text = JSON.stringify(maskGeneratedClaimNames({ pods: [{ ...pod(), message: `${'x'.repeat(41)}-${'c'.repeat(13)}bcdfg and ${'x'.repeat(60)}-extended-resources-k2l4m` }] }, scenario).pods[0]!.message);
    assert.equal(text, JSON.stringify(`${'x'.repeat(41)}-${'c'.repeat(13)}***** and ${'x'.repeat(60)}-extended-resources-*****`));
  });
});

describe('compareWrites', () => {
  const w = (writes?: string[]) => ({ pod: 'default/p', ...(writes ? { writes } : {}) });
  const gate = 'gate default/p DefaultPreemption: waiting for the preemption for this pod to be finished';
  const cases: { name: string; expected: ReturnType<typeof w>; actual: ReturnType<typeof w>; differs: boolean }[] = [
    { name: 'a side without a timeline is not compared', expected: w(['bind default/p n1']), actual: w(), differs: false },
    { name: 'the same writes agree', expected: w(['nominate default/p n1', gate, 'delete default/v']), actual: w(['nominate default/p n1', gate, 'delete default/v']), differs: false },
    {
      name: "the pod's own nomination may land before or after the preemption goroutine's writes",
      expected: w([gate, 'unnominate default/q', 'delete default/v', 'nominate default/p n1']),
      actual: w(['nominate default/p n1', gate, 'unnominate default/q', 'delete default/v']),
      differs: false,
    },
    { name: 'victims deleted in another order differ', expected: w(['delete default/a', 'delete default/b']), actual: w(['delete default/b', 'delete default/a']), differs: true },
    { name: 'a missing gate differs', expected: w(['nominate default/p n1', gate, 'delete default/v']), actual: w(['nominate default/p n1', 'delete default/v']), differs: true },
    { name: 'a binding-cycle nomination missing differs', expected: w(['nominate default/p n1', 'bind default/p n1']), actual: w(['bind default/p n1']), differs: true },
    {
      name: "victims preempted in their binding cycle go back to the queue from their own goroutines: their requeues' order is not compared",
      expected: w(['nominate default/p n1', 'requeue default/b', 'delete default/v', 'requeue default/a']),
      actual: w(['nominate default/p n1', 'requeue default/a', 'requeue default/b', 'delete default/v']),
      differs: false,
    },
    { name: 'a missing requeue differs', expected: w(['nominate default/p n1', 'requeue default/a']), actual: w(['nominate default/p n1']), differs: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(compareWrites(c.expected, c.actual).length > 0, c.differs);
    });
  }
});

const pending = (name: string, volumes = false): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c' }], ...(volumes ? { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } : {}) },
} as Pod);
const prioritized = (name: string, priority: number): Pod => ({ ...pending(name), spec: { ...pending(name).spec, priority } });
const scenario = (pods: Pod[]): Scenario => ({ name: 's', metadata: {}, config: null, nodes: [], pods: [], pending: pods, objects: [], steps: [] });

describe('known differences of the timelines', () => {
  const member = (name: string): Pod => ({ ...pending(name), spec: { ...pending(name).spec, schedulingGroup: { podGroupName: 'g' }, nodeName: 'n1' } });
  const groupScenario = (disruptionMode: Record<string, unknown>): Scenario => ({
    ...scenario([pending('p')]), pods: [member('g-0'), member('g-1')],
    objects: [{ apiVersion: 'scheduling.k8s.io/v1beta1', kind: 'PodGroup', metadata: { name: 'g', namespace: 'default' }, spec: { schedulingPolicy: { basic: {} }, disruptionMode } } as Scenario['objects'][number]],
  });
  const preempting = (victims: string[], writes: string[]): ExplainPodWithClaims => ({
    ...pod(), pod: 'default/p', outcome: 'Unschedulable', node: '', nominatedNode: 'n1', victims, writes,
    message: `0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod on node n1, preempting ${victims.length} victims`,
  });
  const cases: { name: string; upstream: ExplainPodWithClaims; ours: ExplainPodWithClaims; scenario: Scenario; known: string[]; left: number }[] = [
    {
      name: 'a pod whose binding is missing differs (both sides run without a PV controller: a pod waiting for its volumes stays in PreBind on both)',
      upstream: { ...pod(), writes: ['nominate default/p node-1'] }, ours: { ...pod(), writes: ['nominate default/p node-1', 'bind default/p node-1'] },
      scenario: scenario([pending('p', true)]), known: [], left: 1,
    },
    {
      name: 'equal-priority victims placed during the run (no start time upstream) may be chosen otherwise',
      upstream: preempting(['default/a', 'default/b'], ['delete default/a', 'delete default/b']), ours: preempting(['default/c'], ['delete default/c']),
      scenario: scenario([pending('a'), pending('c'), pending('p')]), known: ['unstarted-victims-order'], left: 0,
    },
    {
      name: 'the same victims placed during the run may be deleted in another order',
      upstream: preempting(['default/a', 'default/b'], ['delete default/b', 'delete default/a']), ours: preempting(['default/a', 'default/b'], ['delete default/a', 'delete default/b']),
      scenario: scenario([pending('a'), pending('b'), pending('p')]), known: ['unstarted-victims-order'], left: 0,
    },
    {
      name: 'another node whose victims placed during the run tie on priority and count may be chosen',
      upstream: preempting(['default/a'], ['delete default/a']), ours: { ...preempting(['default/b'], ['delete default/b']), nominatedNode: 'n2', message: preempting(['default/b'], []).message.replace('n1', 'n2') },
      scenario: scenario([pending('a'), pending('b'), pending('p')]), known: ['unstarted-victims-order'], left: 0,
    },
    {
      name: 'another node may be chosen when only lower-priority victims were there from the start (the tie is decided by the unstarted ones)',
      upstream: preempting(['default/a', 'default/x'], ['delete default/a', 'delete default/x']),
      ours: { ...preempting(['default/b', 'default/y'], ['delete default/b', 'delete default/y']), nominatedNode: 'n2', message: preempting(['default/b', 'default/y'], []).message.replace('n1', 'n2') },
      scenario: { ...scenario([prioritized('a', 100), prioritized('b', 100), pending('p')]), pods: [prioritized('x', -10), prioritized('y', -10)] }, known: ['unstarted-victims-order'], left: 0,
    },
    {
      name: 'another node is compared when its highest-priority victim was there from the start',
      upstream: preempting(['default/a', 'default/x'], ['delete default/a', 'delete default/x']),
      ours: { ...preempting(['default/b', 'default/y'], ['delete default/b', 'delete default/y']), nominatedNode: 'n2', message: preempting(['default/b', 'default/y'], []).message.replace('n1', 'n2') },
      scenario: { ...scenario([prioritized('a', 100), prioritized('b', 100), pending('p')]), pods: [prioritized('x', 100), prioritized('y', 100)] }, known: [], left: 4,
    },
    {
      name: 'another node is compared when a victim was in the scenario from the start',
      upstream: preempting(['default/a'], ['delete default/a']), ours: { ...preempting(['default/c'], ['delete default/c']), nominatedNode: 'n2', message: preempting(['default/c'], []).message.replace('n1', 'n2') },
      scenario: scenario([pending('a'), pending('p')]), known: [], left: 4,
    },
    {
      name: 'another node offering the very same victims (a whole group) ties on every criterion: upstream picks from a map',
      upstream: preempting(['default/g-0', 'default/g-1'], ['delete default/g-0', 'delete default/g-1']),
      ours: { ...preempting(['default/g-1', 'default/g-0'], ['delete default/g-1', 'delete default/g-0']), nominatedNode: 'n2', message: preempting(['default/g-0', 'default/g-1'], []).message.replace('n1', 'n2') },
      scenario: groupScenario({ all: {} }), known: ['tied-preemption-nodes'], left: 0,
    },
    {
      name: 'another node with other victims is compared',
      upstream: preempting(['default/g-0'], ['delete default/g-0']),
      ours: { ...preempting(['default/g-1'], ['delete default/g-1']), nominatedNode: 'n2', message: preempting(['default/g-1'], []).message.replace('n1', 'n2') },
      scenario: groupScenario({ single: {} }), known: [], left: 4,
    },
    {
      name: "a pod's own nomination cleared after its attempt, recorded by upstream in the next attempt",
      upstream: { ...pod(), writes: ['nominate default/p node-1'] }, ours: { ...pod(), writes: ['nominate default/p node-1', 'unnominate default/p'] },
      scenario: scenario([pending('p')]), known: ['late-nomination-clearing'], left: 0,
    },
    {
      name: "the next attempt's late entry is dropped when that attempt preempts nothing",
      upstream: { ...pod(), writes: ['unnominate default/q', 'bind default/p node-1'] }, ours: { ...pod(), writes: ['bind default/p node-1'] },
      scenario: scenario([pending('p')]), known: ['late-nomination-clearing'], left: 0,
    },
    {
      name: "a preemptor's clearing of other nominations is compared",
      upstream: preempting(['default/a'], ['unnominate default/q', 'delete default/a']), ours: preempting(['default/a'], ['delete default/a']),
      scenario: scenario([pending('p')]), known: [], left: 1,
    },
    {
      name: 'the members of a disruptionMode-all group may be deleted in any order',
      upstream: preempting(['default/g-1', 'default/g-0'], ['delete default/g-1', 'delete default/g-0']), ours: preempting(['default/g-1', 'default/g-0'], ['delete default/g-0', 'delete default/g-1']),
      scenario: groupScenario({ all: {} }), known: ['group-victims-order'], left: 0,
    },
    {
      name: 'the members of a disruptionMode-single group are deleted in the compared order',
      upstream: preempting(['default/g-1', 'default/g-0'], ['delete default/g-1', 'delete default/g-0']), ours: preempting(['default/g-1', 'default/g-0'], ['delete default/g-0', 'delete default/g-1']),
      scenario: groupScenario({ single: {} }), known: [], left: 1,
    },
    {
      name: 'victims that were all in the scenario from the start are compared',
      upstream: preempting(['default/a'], ['delete default/a']), ours: preempting(['default/c'], ['delete default/c']),
      scenario: scenario([pending('p')]), known: [], left: 2,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = explainDifferences(c.upstream, c.ours, c.scenario);
      assert.deepEqual(r.known, c.known);
      assert.equal(r.diffs.length, c.left, r.diffs.join('\n'));
    });
  }
});

describe('retries and final places', () => {
  const nominated = (name: string, extra: Partial<ExplainPodWithClaims>): ExplainPodWithClaims => ({ ...pod(), pod: `default/${name}`, outcome: 'Unschedulable', node: '', bestNodes: [], nominatedNode: 'node-1', writes: [], ...extra });
  const bound = (name: string, node: string, seq: number): ExplainPodWithClaims => ({ ...pod(), pod: `default/${name}`, node, bestNodes: [node], writes: [`bind default/${name} ${node}`], seq });
  const cases: { name: string; upstream: ExplainPodWithClaims[]; ours: ExplainPodWithClaims[]; scenario: Scenario; want: { pod: string; diffs: number; known: string[]; after: boolean }[] }[] = [
    {
      name: 'the same retries and final places agree',
      upstream: [nominated('p', { retries: [bound('p', 'node-1', 1)], final: 'bound node-1' })],
      ours: [nominated('p', { retries: [bound('p', 'node-1', 1)], final: 'bound node-1' })],
      scenario: scenario([pending('p')]), want: [{ pod: 'default/p', diffs: 0, known: [], after: false }],
    },
    {
      name: 'a pod still in PreBind after its retry on both sides agrees',
      upstream: [nominated('p', { retries: [{ ...bound('p', 'node-1', 1), writes: [] }], final: 'assumed node-1' })],
      ours: [nominated('p', { retries: [{ ...bound('p', 'node-1', 1), writes: [] }], final: 'assumed node-1' })],
      scenario: scenario([pending('p', true)]), want: [{ pod: 'default/p', diffs: 0, known: [], after: false }],
    },
    {
      name: 'a final place bound where upstream still waits in PreBind differs',
      upstream: [nominated('p', { final: 'assumed node-1' })],
      ours: [nominated('p', { final: 'bound node-1' })],
      scenario: scenario([pending('p', true)]), want: [{ pod: 'default/p', diffs: 1, known: [], after: false }],
    },
    {
      name: 'another count of retries differs once, and the final place',
      upstream: [nominated('p', { retries: [bound('p', 'node-1', 1)], final: 'bound node-1' })],
      ours: [nominated('p', { final: 'pending nominated node-1' })],
      scenario: scenario([pending('p')]), want: [{ pod: 'default/p', diffs: 2, known: [], after: false }],
    },
    {
      name: "a retry placed elsewhere differs; a later pod's retry differing then follows from it",
      upstream: [nominated('p', { retries: [bound('p', 'node-2', 1)], final: 'bound node-2' }), nominated('q', { retries: [bound('q', 'node-1', 2)], final: 'bound node-1' })],
      ours: [nominated('p', { retries: [bound('p', 'node-1', 1)], final: 'bound node-1' }), nominated('q', { retries: [bound('q', 'node-2', 2)], final: 'bound node-2' })],
      scenario: scenario([pending('p'), pending('q')]),
      want: [{ pod: 'default/p', diffs: 4, known: [], after: false }, { pod: 'default/q', diffs: 4, known: [], after: true }],
    },
    {
      name: 'a nomination ours kept while upstream cleared it is compared',
      upstream: [nominated('p', { writes: ['nominate default/p node-1', 'unnominate default/p'], final: 'pending' })],
      ours: [nominated('p', { writes: ['nominate default/p node-1'], final: 'pending nominated node-1' })],
      scenario: scenario([pending('p')]), want: [{ pod: 'default/p', diffs: 2, known: [], after: false }],
    },
    {
      name: 'an older recording without final places compares the first attempts only',
      upstream: [nominated('p', {})],
      ours: [nominated('p', { retries: [bound('p', 'node-1', 1)], final: 'bound node-1' })],
      scenario: scenario([pending('p')]), want: [{ pod: 'default/p', diffs: 0, known: [], after: false }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = compareScenario(c.scenario, { pods: c.upstream }, { pods: c.ours });
      assert.deepEqual(r.map((x) => ({ pod: x.pod, diffs: x.diffs.length, known: x.known, after: x.afterDivergence })), c.want, r.flatMap((x) => x.diffs).join('\n'));
    });
  }
});

describe('settleLateBindings', () => {
  const attempt = (pod: string, outcome: 'Scheduled' | 'Unschedulable', node: string, writes: string[]) => ({ pod, outcome, node, writes });
  it('moves a binding that landed during the next attempt back to its own pod, on the node it was scheduled to', () => {
    // gen-1-0067 with NominatedNodeNameForExpectation=false: upstream's binding goroutine finished
    // after the next pod's cycle began, ours before; the two sides must compare equal.
    const late = settleLateBindings([attempt('default/batch-007', 'Scheduled', 'pool-a-02', []), attempt('default/api-008', 'Scheduled', 'pool-a-01', ['bind default/batch-007 pool-a-02'])]);
    const early = settleLateBindings([attempt('default/batch-007', 'Scheduled', 'pool-a-02', ['bind default/batch-007 pool-a-02']), attempt('default/api-008', 'Scheduled', 'pool-a-01', [])]);
    assert.deepEqual(late, early);
    assert.deepEqual(late.map((p) => p.writes), [['bind default/batch-007 pool-a-02'], []]);
  });
  it('keeps a binding where it landed when the pod was not scheduled there in its own attempt', () => {
    const pods = [attempt('default/preemptor', 'Unschedulable', '', ['nominate default/preemptor n1']), attempt('default/next', 'Scheduled', 'n2', ['bind default/preemptor n1'])];
    assert.deepEqual(settleLateBindings(pods).map((p) => p.writes), [['nominate default/preemptor n1'], ['bind default/preemptor n1']]);
    const elsewhere = [attempt('default/a', 'Scheduled', 'n1', []), attempt('default/b', 'Scheduled', 'n2', ['bind default/a n3'])];
    assert.deepEqual(settleLateBindings(elsewhere).map((p) => p.writes), [[], ['bind default/a n3']]);
  });
});
