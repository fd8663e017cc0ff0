// Scenarios of upstream's nodedeclaredfeatures_test.go and the feature registry's inference
// (component-helpers nodedeclaredfeatures/features/*).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import { CycleState } from '../../framework/cycle_state.js';
import { ActionType, ActionTypeUpdate, QueueingHint } from '../../framework/events.js';
import { NodeInfo } from '../../framework/node_info.js';
import { PodInfo } from '../../framework/pod_info.js';
import { Code } from '../../framework/status.js';
import { makeNode, makePod } from '../../testing/builders.js';
import { defaultFeatureRegistry as registry, FeatureRegistry } from './feature_registry.js';
import { ErrReasonUnsatisfiedRequirements, NodeDeclaredFeatures } from './index.js';
import { isSchedulableAfterNodeChange, isSchedulableAfterTargetPodUpdate } from './node_declared_features.js';

const userNsHostNetwork = (name = 'p'): Pod => makePod(name, { spec: { hostNetwork: true, hostUsers: false } });
const restartAll = (): Pod =>
  makePod('p', { spec: { containers: [{ name: 'c', image: 'x', restartPolicy: 'Never', restartPolicyRules: [{ action: 'RestartAllContainers', exitCodes: { operator: 'In', values: [42] } }] }] } });
const bindMountInInit = (): Pod =>
  makePod('p', { spec: { initContainers: [{ name: 'i', image: 'x', volumeMounts: [{ name: 'v', mountPath: '/v', bindMountOptions: ['nosymfollow'] }] }] } });

function declaring(name: string, ...features: string[]): Node {
  const n = makeNode(name);
  n.status!.declaredFeatures = features;
  return n;
}

describe('the feature registry', () => {
  it('is sorted by name, as the framework sorts it', () => {
    assert.deepEqual([...registry.names].sort(), registry.names);
    assert.equal(registry.names.length, 9);
  });

  const cases: { name: string; pod: Pod; want: string[] }[] = [
    { name: 'a plain pod needs nothing', pod: makePod('p'), want: [] },
    { name: 'host network with user namespaces', pod: userNsHostNetwork(), want: ['UserNamespacesHostNetworkSupport'] },
    { name: 'host network with host users unset needs nothing', pod: makePod('p', { spec: { hostNetwork: true } }), want: [] },
    { name: 'user namespaces without host network need nothing', pod: makePod('p', { spec: { hostUsers: false } }), want: [] },
    { name: 'a container restart rule restarting all containers', pod: restartAll(), want: ['RestartAllContainersOnContainerExits'] },
    { name: 'bind mount options in an init container', pod: bindMountInInit(), want: ['VolumeBindMountOptions'] },
    {
      name: 'several at once, in name order',
      pod: makePod('p', { spec: { ...userNsHostNetwork().spec, initContainers: bindMountInInit().spec.initContainers! } }),
      want: ['UserNamespacesHostNetworkSupport', 'VolumeBindMountOptions'],
    },
  ];
  for (const c of cases) {
    it(`infers for scheduling: ${c.name}`, () => assert.deepEqual(registry.featureNames(registry.inferForPodScheduling(c.pod.spec)), c.want));
  }

  it('maps a node\'s sorted list, ignoring unknown names', () => {
    assert.deepEqual(registry.featureNames(registry.mapDeclaredFeatures(['Alpha', 'RestartAllContainersOnContainerExits', 'Unknown/sub', 'UserNamespacesHostNetworkSupport'])),
      ['RestartAllContainersOnContainerExits', 'UserNamespacesHostNetworkSupport']);
    assert.deepEqual(registry.mapDeclaredFeatures(undefined), []);
  });

  it('walks an unsorted list in step as upstream\'s TryMap does, missing what comes too late', () => {
    assert.deepEqual(registry.featureNames(registry.mapDeclaredFeatures(['UserNamespacesHostNetworkSupport', 'RestartAllContainersOnContainerExits'])), ['UserNamespacesHostNetworkSupport']);
  });
});

describe('NodeDeclaredFeatures PreFilter and Filter', () => {
  const pl = new NodeDeclaredFeatures();

  it('skips a pod that needs no feature', () => {
    assert.equal(pl.preFilter(new CycleState(), new PodInfo(makePod('p')))?.status?.code, Code.Skip);
  });

  const cases: { name: string; pod: Pod; node: Node; fits: boolean }[] = [
    { name: 'node declaring the feature', pod: userNsHostNetwork(), node: declaring('n', 'UserNamespacesHostNetworkSupport'), fits: true },
    { name: 'node declaring other features', pod: userNsHostNetwork(), node: declaring('n', 'RestartAllContainersOnContainerExits'), fits: false },
    { name: 'node declaring nothing', pod: userNsHostNetwork(), node: makeNode('n'), fits: false },
    { name: 'node declaring one of two needed', pod: makePod('p', { spec: { ...userNsHostNetwork().spec, initContainers: bindMountInInit().spec.initContainers! } }), node: declaring('n', 'UserNamespacesHostNetworkSupport'), fits: false },
    { name: 'node declaring both needed and more', pod: makePod('p', { spec: { ...userNsHostNetwork().spec, initContainers: bindMountInInit().spec.initContainers! } }), node: declaring('n', 'Other', 'UserNamespacesHostNetworkSupport', 'VolumeBindMountOptions'), fits: true },
  ];
  for (const c of cases) {
    it(`${c.fits ? 'fits' : 'rejects'}: ${c.name}`, () => {
      const state = new CycleState();
      const pod = new PodInfo(c.pod);
      assert.equal(pl.preFilter(state, pod), null);
      const s = pl.filter(state, pod, new NodeInfo(c.node));
      if (c.fits) assert.equal(s, null);
      else {
        assert.equal(s?.code, Code.UnschedulableAndUnresolvable);
        assert.deepEqual(s?.reasons, [ErrReasonUnsatisfiedRequirements]);
        assert.equal(s?.plugin, 'NodeDeclaredFeatures');
      }
    });
  }

  // Sign then PreFilter share one inference per spec; a pod signed earlier must not answer for another.
  it('answers for the spec it is given after signing another pod', () => {
    const fresh = new NodeDeclaredFeatures();
    const needs = new PodInfo(userNsHostNetwork());
    const plain = new PodInfo(makePod('q'));
    const steps: { sign: PodInfo; preFilter: PodInfo; skipped: boolean }[] = [
      { sign: needs, preFilter: plain, skipped: true },
      { sign: plain, preFilter: needs, skipped: false },
      { sign: needs, preFilter: needs, skipped: false },
      { sign: plain, preFilter: plain, skipped: true },
    ];
    for (const s of steps) {
      const signed = fresh.signPod(s.sign)[0]!.value;
      assert.deepEqual(signed, s.sign === needs ? ['UserNamespacesHostNetworkSupport'] : []);
      const out = fresh.preFilter(new CycleState(), s.preFilter);
      assert.equal(out?.status?.code === Code.Skip, s.skipped);
    }
  });

  it('fails without its PreFilter state', () => {
    const s = pl.filter(new CycleState(), new PodInfo(userNsHostNetwork()), new NodeInfo(makeNode('n')));
    assert.equal(s?.code, Code.Error);
    assert.match(s!.message(), /error reading "PreFilterNodeDeclaredFeatures" from cycle-state: not found/);
  });
});

describe('NodeDeclaredFeatures events and hints', () => {
  it('registers node adds and declared-feature updates, and updates of the pod itself', () => {
    assert.deepEqual(new NodeDeclaredFeatures().eventsToRegister().map((e) => e.event), [
      { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeDeclaredFeature },
      { resource: 'UnscheduledPod', actionType: ActionTypeUpdate },
    ]);
  });

  const pod = userNsHostNetwork();
  const nodeCases: { name: string; old: Node | null; new: Node; want: QueueingHint }[] = [
    { name: 'a new node', old: null, new: declaring('n', 'A'), want: QueueingHint.Queue },
    { name: 'declared features changed', old: declaring('n', 'A'), new: declaring('n', 'A', 'B'), want: QueueingHint.Queue },
    { name: 'declared features unchanged', old: declaring('n', 'A'), new: { ...declaring('n', 'A'), metadata: { name: 'n', labels: { x: 'y' } } }, want: QueueingHint.QueueSkip },
    { name: 'none before and none after', old: makeNode('n'), new: declaring('n'), want: QueueingHint.QueueSkip },
  ];
  for (const c of nodeCases) it(`node: ${c.name}`, () => assert.equal(isSchedulableAfterNodeChange(pod, c.old, c.new), c.want));

  const podCases: { name: string; old: Pod; new: Pod; want: QueueingHint }[] = [
    { name: 'requirements changed', old: userNsHostNetwork(), new: makePod('p', { spec: { hostNetwork: true } }), want: QueueingHint.Queue },
    { name: 'requirements unchanged', old: userNsHostNetwork(), new: { ...userNsHostNetwork(), metadata: { ...pod.metadata, labels: { a: 'b' } } }, want: QueueingHint.QueueSkip },
    { name: 'another pod', old: userNsHostNetwork('q'), new: makePod('q'), want: QueueingHint.QueueSkip },
  ];
  for (const c of podCases) it(`pod: ${c.name}`, () => assert.equal(isSchedulableAfterTargetPodUpdate(pod, c.old, c.new), c.want));
});

describe('NodeDeclaredFeatures over a mock registry (upstream benchmark\'s setupFeatures)', () => {
  // 100 features, each needed by pods with pod-level resources: more than one machine word holds.
  const names = Array.from({ length: 100 }, (_, i) => `Feature${i + 1}`);
  const mock = new FeatureRegistry(names.map((name) => ({ name, inferForScheduling: (spec: Pod['spec']) => spec.resources !== undefined })));
  const pl = new NodeDeclaredFeatures(mock);
  const podLevel = makePod('p', { spec: { resources: { requests: { cpu: '100m' } } } });
  const cases: { name: string; declared: string[]; fits: boolean }[] = [
    { name: 'a node declaring all 100, sorted', declared: [...names].sort(), fits: true },
    { name: 'a node declaring 99', declared: [...names].sort().filter((n) => n !== 'Feature77'), fits: false },
    { name: 'a node declaring none', declared: [], fits: false },
  ];
  for (const c of cases) {
    it(`${c.fits ? 'fits' : 'rejects'}: ${c.name}`, () => {
      const state = new CycleState();
      const pod = new PodInfo(podLevel);
      assert.equal(pl.preFilter(state, pod), null);
      const s = pl.filter(state, pod, new NodeInfo(declaring('n', ...c.declared)));
      assert.equal(s === null, c.fits);
    });
  }

  it('sorts the registry by name and infers every feature for a pod with pod-level resources', () => {
    assert.equal(mock.names[0], 'Feature1');
    assert.equal(mock.names[1], 'Feature10');
    assert.equal(mock.featureNames(mock.inferForPodScheduling(podLevel.spec)).length, 100);
    assert.equal(pl.preFilter(new CycleState(), new PodInfo(makePod('q')))?.status?.code, Code.Skip);
  });
});
