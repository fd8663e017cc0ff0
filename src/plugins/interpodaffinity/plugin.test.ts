// Events, queueing hints (upstream interpodaffinity/plugin_test.go) and args of InterPodAffinity.
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../../api/types.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import { isEnqueueExtensions, isFilterPlugin, isPreFilterPlugin, isPreScorePlugin, isScorePlugin } from '../../framework/interfaces.js';
import { newTestHandle } from '../../testing/handle.js';
import { interPodAffinityDefinition } from './index.js';
import { namespace, node, pod, sel, setup, term, type TestPodOptions } from './test_helpers.js';

const { Queue, QueueSkip } = QueueingHint;

describe('InterPodAffinity definition and args', () => {
  it('is registered with its args kind and implements its extension points', () => {
    assert.equal(interPodAffinityDefinition.name, 'InterPodAffinity');
    assert.equal(interPodAffinityDefinition.argsKind, 'InterPodAffinityArgs');
    const pl = interPodAffinityDefinition.factory(interPodAffinityDefinition.defaultArgs!({}), newTestHandle(), defaultFeatures);
    for (const guard of [isPreFilterPlugin, isFilterPlugin, isPreScorePlugin, isScorePlugin, isEnqueueExtensions]) assert.ok(guard(pl));
  });

  it('defaults hardPodAffinityWeight to 1 and ignorePreferredTermsOfExistingPods to false', () => {
    assert.deepEqual(interPodAffinityDefinition.defaultArgs!({}), { hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false });
    assert.deepEqual(interPodAffinityDefinition.defaultArgs!({ hardPodAffinityWeight: 0, ignorePreferredTermsOfExistingPods: true }), {
      hardPodAffinityWeight: 0,
      ignorePreferredTermsOfExistingPods: true,
    });
  });

  const validate = (given: Record<string, unknown>) =>
    interPodAffinityDefinition.validateArgs!(interPodAffinityDefinition.defaultArgs!(given), 'profiles[0].pluginConfig[0].args');
  const cases: { name: string; given: Record<string, unknown>; want: { path: string; message: string }[] }[] = [
    { name: 'default args are valid', given: {}, want: [] },
    { name: 'weight 0 is valid', given: { hardPodAffinityWeight: 0 }, want: [] },
    { name: 'weight 100 is valid', given: { hardPodAffinityWeight: 100 }, want: [] },
    {
      name: 'a negative weight is out of range',
      given: { hardPodAffinityWeight: -1 },
      want: [{ path: 'profiles[0].pluginConfig[0].args.hardPodAffinityWeight', message: 'Invalid value: -1: not in valid range [0-100]' }],
    },
    {
      name: 'a weight above 100 is out of range',
      given: { hardPodAffinityWeight: 110 },
      want: [{ path: 'profiles[0].pluginConfig[0].args.hardPodAffinityWeight', message: 'Invalid value: 110: not in valid range [0-100]' }],
    },
    {
      name: 'a fractional weight is rejected',
      given: { hardPodAffinityWeight: 1.5 },
      want: [{ path: 'profiles[0].pluginConfig[0].args.hardPodAffinityWeight', message: 'Invalid value: 1.5: must be an integer' }],
    },
    {
      name: 'a non-boolean ignorePreferredTermsOfExistingPods is rejected',
      given: { ignorePreferredTermsOfExistingPods: 'yes' },
      want: [{ path: 'profiles[0].pluginConfig[0].args.ignorePreferredTermsOfExistingPods', message: 'Invalid value: "yes": must be a boolean' }],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(validate(c.given), c.want));
});

describe('InterPodAffinity eventsToRegister', () => {
  it('registers assigned pod add/label update/delete and node add/label update, with hints', () => {
    const { plugin } = setup([], []);
    const events = plugin.eventsToRegister();
    assert.deepEqual(
      events.map((e) => e.event),
      [
        { resource: 'Pod', actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete },
        { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel },
      ],
    );
    for (const e of events) assert.equal(typeof e.queueingHintFn, 'function');
  });
});

describe('InterPodAffinity isSchedulableAfterPodChange', () => {
  const affinityTarget = pod('p', { affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region')] });
  const antiTarget = pod('p', { antiAffinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region')] });
  const twoTermTarget = pod('p', { affinity: [term(sel('aaa', 'Exists'), 'hostname'), term(sel('bbb', 'Exists'), 'hostname')] });
  const bound = (labels: Record<string, string>, extra: TestPodOptions = {}) => pod(null, { node: 'fake-node', labels, ...extra });
  const unbound = (labels: Record<string, string>) => pod(null, { labels });
  const nominated = (labels: Record<string, string>) => {
    const p = pod(null, { labels });
    p.status = { nominatedNodeName: 'fake-node' };
    return p;
  };

  const cases: { name: string; target: Pod; oldPod?: Pod; newPod?: Pod; want: QueueingHint }[] = [
    { name: 'an added pod matching the affinity', target: affinityTarget, newPod: bound({ service: 'securityscan' }), want: Queue },
    { name: 'an added unscheduled pod', target: affinityTarget, newPod: unbound({ service: 'securityscan' }), want: QueueSkip },
    { name: 'an added nominated pod matching the affinity', target: affinityTarget, newPod: nominated({ service: 'securityscan' }), want: Queue },
    { name: 'an added pod not matching the affinity', target: affinityTarget, newPod: bound({ aaa: 'a' }), want: QueueSkip },
    { name: 'a pod updated to match the affinity', target: affinityTarget, oldPod: bound({ aaa: 'a' }), newPod: bound({ service: 'securityscan' }), want: Queue },
    {
      name: 'a pod matching the affinity before and after the update',
      target: affinityTarget,
      oldPod: bound({ service: 'value2' }),
      newPod: bound({ service: 'securityscan' }),
      want: QueueSkip,
    },
    { name: 'an unscheduled pod updated', target: affinityTarget, oldPod: unbound({ service: 'securityscan' }), newPod: unbound({ service: 'securityscan' }), want: QueueSkip },
    { name: 'a pod updated to stop matching the affinity', target: affinityTarget, oldPod: bound({ service: 'securityscan' }), newPod: bound({ aaa: 'a' }), want: QueueSkip },
    { name: 'two terms: updated to match neither', target: twoTermTarget, oldPod: bound({ aaa: 'a' }), newPod: bound({ service: 'securityscan' }), want: QueueSkip },
    { name: 'two terms: updated to match both', target: twoTermTarget, oldPod: bound({ aaa: 'a' }), newPod: bound({ aaa: '', bbb: '' }), want: Queue },
    { name: 'a pod updated to stop matching the anti-affinity', target: antiTarget, oldPod: bound({ service: 'securityscan' }), newPod: bound({ service: 'aaaa' }), want: Queue },
    { name: 'a pod updated to start matching the anti-affinity', target: antiTarget, oldPod: bound({ service: 'bbb' }), newPod: bound({ service: 'securityscan' }), want: QueueSkip },
    { name: 'a deleted pod not matching the anti-affinity', target: antiTarget, oldPod: bound({ aaa: 'a' }), want: QueueSkip },
    { name: 'a deleted pod matching the anti-affinity', target: antiTarget, oldPod: bound({ service: 'securityscan' }), want: Queue },
    {
      name: 'a deleted pod matching one of several anti-affinity terms',
      target: pod('p', { antiAffinity: [term(sel('aaa', 'Exists'), 'zone'), term(sel('bbb', 'Exists'), 'zone')] }),
      oldPod: bound({ aaa: '' }),
      want: Queue,
    },
    {
      name: 'a deleted pod whose own anti-affinity repelled the target',
      target: pod('p', { labels: { app: 'web' } }),
      oldPod: bound({}, { antiAffinity: [term(sel('app', 'In', ['web']), 'zone')] }),
      want: Queue,
    },
    {
      name: 'a deleted pod whose anti-affinity does not concern the target',
      target: pod('p', { labels: { app: 'web' } }),
      oldPod: bound({}, { antiAffinity: [term(sel('app', 'In', ['db']), 'zone')] }),
      want: QueueSkip,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { plugin } = setup([], []);
      assert.equal(plugin.isSchedulableAfterPodChange(c.target, c.oldPod, c.newPod), c.want);
    });
  }

  it('matches a namespaceSelector term with the changed pod’s namespace labels', () => {
    const target = pod('p', { affinity: [term(sel('app', 'In', ['db']), 'zone', { namespaceSelector: sel('tier', 'In', ['data']) })] });
    const added = pod(null, { namespace: 'dbs', node: 'n1', labels: { app: 'db' } });
    const labelled = setup([], [], {}, [namespace('dbs', { tier: 'data' })]);
    assert.equal(labelled.plugin.isSchedulableAfterPodChange(target, undefined, added), Queue);
    const plain = setup([], [], {}, [namespace('dbs')]);
    assert.equal(plain.plugin.isSchedulableAfterPodChange(target, undefined, added), QueueSkip);
  });
});

describe('InterPodAffinity isSchedulableAfterNodeChange', () => {
  const affinityZone = pod('p', { affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'zone')] });
  const affinityRegion = pod('p', { affinity: [term(sel('service', 'In', ['securityscan', 'value2']), 'region')] });
  const antiZone = pod('p', { antiAffinity: [term({ matchLabels: { another: 'label' } }, 'zone')] });
  const n = (labels: Record<string, string>) => node('node-a', labels);
  const cases: { name: string; target: Pod; oldNode?: Node; newNode: Node; want: QueueingHint }[] = [
    { name: 'a node added with the affinity topology key', target: affinityZone, newNode: n({ zone: 'zone1' }), want: Queue },
    { name: 'a node added without the affinity topology key', target: affinityRegion, newNode: n({ zone: 'zone1' }), want: QueueSkip },
    { name: 'a label other than the topology key changed', target: affinityZone, oldNode: n({ aaa: 'a' }), newNode: n({ aaa: 'b' }), want: QueueSkip },
    { name: 'an unrelated label added', target: affinityZone, oldNode: n({ zone: 'zone1' }), newNode: n({ zone: 'zone1', unrelated: 'x' }), want: QueueSkip },
    { name: 'the node moved to another affinity domain', target: affinityZone, oldNode: n({ zone: 'zone1' }), newNode: n({ zone: 'zone2' }), want: Queue },
    { name: 'the node got the affinity topology key', target: affinityZone, oldNode: n({ aaa: 'a' }), newNode: n({ zone: 'zone1' }), want: Queue },
    { name: 'a node added with the anti-affinity topology key', target: antiZone, newNode: n({ zone: 'zone1' }), want: Queue },
    { name: 'a node added without the anti-affinity topology key', target: antiZone, newNode: n({}), want: Queue },
    { name: 'an unrelated label added (anti-affinity)', target: antiZone, oldNode: n({ zone: 'zone1' }), newNode: n({ zone: 'zone1', unrelated: 'x' }), want: QueueSkip },
    { name: 'the node moved to another anti-affinity domain', target: antiZone, oldNode: n({ zone: 'zone1' }), newNode: n({ zone: 'zone2' }), want: Queue },
    { name: 'the node got the anti-affinity topology key', target: antiZone, oldNode: n({ aaa: 'a' }), newNode: n({ zone: 'zone1' }), want: QueueSkip },
    { name: 'the node lost the anti-affinity topology key', target: antiZone, oldNode: n({ zone: 'zone1' }), newNode: n({ aaa: 'a' }), want: Queue },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { plugin } = setup([], []);
      assert.equal(plugin.isSchedulableAfterNodeChange(c.target, c.oldNode, c.newNode), c.want);
    });
  }
});
