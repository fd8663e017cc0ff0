// Scenarios of upstream's podtopologyspread/plugin_test.go (queueing hints), plus events, args
// defaulting/validation (validation_pluginargs_test.go) and the default selector (helper/spread_test.go).
import { defaultFeatures } from '../../framework/features.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Node, Pod } from '../../api/types.js';
import { ActionType, QueueingHint } from '../../framework/events.js';
import { newTestHandle } from '../../testing/handle.js';
import { defaultPodTopologySpreadArgs, validatePodTopologySpreadArgs, type PodTopologySpreadArgs } from './args.js';
import { defaultSelector } from './default_selector.js';
import { podTopologySpreadDefinition } from './index.js';
import { barSelector, fooSelector, node, pod, setup, spread, unschedulableTaint } from './test_helpers.js';

const Q = QueueingHint.Queue;
const Skip = QueueingHint.QueueSkip;

describe('PodTopologySpread events', () => {
  it('registers pod add/label/toleration/delete and node add/delete/label/taint, each with a hint', () => {
    const { plugin } = setup([], []);
    const events = plugin.eventsToRegister();
    assert.deepEqual(
      events.map((e) => [e.event.resource, e.event.actionType]),
      [
        ['Pod', ActionType.Add | ActionType.UpdatePodLabel | ActionType.UpdatePodToleration | ActionType.Delete],
        ['Node', ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint],
      ],
    );
    for (const e of events) assert.equal(typeof e.queueingHintFn, 'function');
  });
});

describe('PodTopologySpread queueing hint for node changes', () => {
  const zoneOnly = pod('p', { constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector)] });
  const zoneAndNode = pod('p', { constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', fooSelector)] });
  const honorTaints = pod('p', { constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector, { nodeTaintsPolicy: 'Honor' })] });
  const cases: { name: string; pod: Pod; oldNode?: Node; newNode?: Node; want: QueueingHint }[] = [
    { name: 'node updates label which matches topologyKey', pod: zoneOnly, oldNode: node('node-a', { zone: 'zone1' }), newNode: node('node-a', { zone: 'zone2' }), want: Q },
    {
      name: "node that doesn't match topologySpreadConstraints updates non-related label",
      pod: zoneOnly,
      oldNode: node('node-a', { foo: 'bar1' }),
      newNode: node('node-a', { foo: 'bar2' }),
      want: Skip,
    },
    {
      name: 'node that matches topologySpreadConstraints removes a non-related label',
      pod: zoneAndNode,
      oldNode: node('node-a', { zone: 'zone1', node: 'node1', foo: 'bar' }),
      newNode: node('node-a', { zone: 'zone1', node: 'node1' }),
      want: Skip,
    },
    { name: 'create node with non-related labels', pod: zoneOnly, newNode: node('node-a', { foo: 'bar' }), want: Skip },
    { name: 'create node with related labels', pod: zoneOnly, newNode: node('node-a', { zone: 'zone1' }), want: Q },
    { name: 'delete node with non-related labels', pod: zoneOnly, oldNode: node('node-a', { foo: 'bar' }), want: Skip },
    { name: 'delete node with related labels', pod: zoneOnly, oldNode: node('node-a', { zone: 'zone1' }), want: Q },
    { name: 'add node with related labels that only match one of topologySpreadConstraints', pod: zoneAndNode, newNode: node('node-a', { zone: 'zone1' }), want: Skip },
    { name: 'add node with related labels that match all topologySpreadConstraints', pod: zoneAndNode, newNode: node('node-a', { zone: 'zone1', node: 'node1' }), want: Q },
    {
      name: 'update node with related labels that only match one of topologySpreadConstraints',
      pod: zoneAndNode,
      oldNode: node('node-a', { zone: 'zone1' }),
      newNode: node('node-a', { zone: 'zone1' }),
      want: Skip,
    },
    {
      name: 'update node with related labels that match all topologySpreadConstraints',
      pod: zoneAndNode,
      oldNode: node('node-a', { zone: 'zone1', node: 'node1' }),
      newNode: node('node-a', { zone: 'zone1', node: 'node2' }),
      want: Q,
    },
    { name: 'node gains the topology key', pod: zoneOnly, oldNode: node('node-a', {}), newNode: node('node-a', { zone: 'zone1' }), want: Q },
    {
      name: 'a matching node changes its taints',
      pod: honorTaints,
      oldNode: node('node-a', { zone: 'zone1' }),
      newNode: node('node-a', { zone: 'zone1' }, [unschedulableTaint]),
      want: Q,
    },
    {
      name: "a node without the topology key changes its taints",
      pod: honorTaints,
      oldNode: node('node-a', {}),
      newNode: node('node-a', {}, [unschedulableTaint]),
      want: Skip,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const { plugin } = setup([], []);
      assert.equal(plugin.isSchedulableAfterNodeChange(tc.pod, tc.oldNode, tc.newNode), tc.want);
    });
  }
});

describe('PodTopologySpread queueing hint for pod changes', () => {
  const target = pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector)] });
  const multi = pod('p', { labels: { foo: '' }, constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector), spread(1, 'node', 'DoNotSchedule', barSelector)] });
  const bound = (labels: Record<string, string>, namespace?: string) => pod('other', { node: 'fake-node', labels, ...(namespace ? { namespace } : {}) });
  const pending = (labels: Record<string, string>) => pod('other', { labels });
  const cases: { name: string; pod: Pod; oldPod?: Pod; newPod?: Pod; want: QueueingHint }[] = [
    { name: 'add pod with labels match topologySpreadConstraints selector', pod: target, newPod: bound({ foo: '' }), want: Q },
    { name: 'add un-scheduled pod', pod: target, newPod: pending({ foo: '' }), want: Skip },
    { name: 'update un-scheduled pod', pod: target, oldPod: pending({ bar: '' }), newPod: pending({ foo: '' }), want: Skip },
    { name: 'delete un-scheduled pod', pod: target, oldPod: pending({ foo: '' }), want: Skip },
    { name: 'add pod with different namespace', pod: target, newPod: bound({ foo: '' }, 'fake-namespace'), want: Skip },
    { name: "add pod with labels don't match topologySpreadConstraints selector", pod: target, newPod: bound({ bar: '' }), want: Skip },
    { name: 'delete pod with labels that match topologySpreadConstraints selector', pod: target, oldPod: bound({ foo: '' }), want: Q },
    { name: "delete pod with labels that don't match topologySpreadConstraints selector", pod: target, oldPod: bound({ bar: '' }), want: Skip },
    { name: "update pod's non-related label", pod: target, oldPod: bound({ foo: '', bar: 'bar1' }), newPod: bound({ foo: '', bar: 'bar2' }), want: Skip },
    { name: "add pod's label that matches topologySpreadConstraints selector", pod: target, oldPod: bound({}), newPod: bound({ foo: '' }), want: Q },
    { name: 'delete pod label that matches topologySpreadConstraints selector', pod: target, oldPod: bound({ foo: '' }), newPod: bound({}), want: Q },
    { name: "change pod's label that matches topologySpreadConstraints selector", pod: target, oldPod: bound({ foo: 'foo1' }), newPod: bound({ foo: 'foo2' }), want: Skip },
    {
      name: "add pod's label that matches a selector with multi topologySpreadConstraints",
      pod: multi,
      oldPod: bound({ foo: '' }),
      newPod: bound({ foo: '', bar: 'bar2' }),
      want: Q,
    },
    {
      name: "change pod's label that doesn't match a selector with multi topologySpreadConstraints",
      pod: multi,
      oldPod: bound({ foo: '' }),
      newPod: bound({ foo: '', baz: '' }),
      want: Skip,
    },
    {
      name: "change pod's label value that keeps matching with multi topologySpreadConstraints",
      pod: multi,
      oldPod: bound({ foo: '', bar: '' }),
      newPod: bound({ foo: '', bar: 'bar2' }),
      want: Skip,
    },
    {
      name: 'the pod itself gains a toleration while a constraint honours taints',
      pod: pod('p', { constraints: [spread(1, 'zone', 'DoNotSchedule', fooSelector, { nodeTaintsPolicy: 'Honor' })] }),
      oldPod: pod('p', {}),
      newPod: pod('p', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }] }),
      want: Q,
    },
    {
      name: 'the pod itself gains a toleration while taints are ignored',
      pod: target,
      oldPod: pod('p', { labels: { foo: '' } }),
      newPod: pod('p', { labels: { foo: '' }, tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }] }),
      want: Skip,
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const { plugin } = setup([], []);
      assert.equal(plugin.isSchedulableAfterPodChange(tc.pod, tc.oldPod, tc.newPod), tc.want);
    });
  }
});

describe('PodTopologySpreadArgs', () => {
  const path = 'profiles[0].pluginConfig[0].args';
  it('defaults defaultingType to System', () => {
    assert.deepEqual(defaultPodTopologySpreadArgs({}), { defaultingType: 'System', defaultConstraints: [] });
    assert.deepEqual(defaultPodTopologySpreadArgs({ defaultingType: 'List' }), { defaultingType: 'List', defaultConstraints: [] });
  });

  const cases: { name: string; args: PodTopologySpreadArgs; want: { path: string; message: string }[] }[] = [
    {
      name: 'valid config',
      args: {
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' },
        ],
      },
      want: [],
    },
    {
      name: 'maxSkew less than zero',
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: -1, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' }] },
      want: [{ path: `${path}.defaultConstraints[0].maxSkew`, message: 'Invalid value: -1: not in valid range (0, inf)' }],
    },
    {
      name: 'empty topology key',
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'DoNotSchedule' }] },
      want: [{ path: `${path}.defaultConstraints[0].topologyKey`, message: 'Required value: can not be empty' }],
    },
    {
      name: 'whenUnsatisfiable is empty',
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: '' }] },
      want: [{ path: `${path}.defaultConstraints[0].whenUnsatisfiable`, message: 'Required value: can not be empty' }],
    },
    {
      name: 'whenUnsatisfiable contains unsupported action',
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'unknown action' }] },
      want: [{ path: `${path}.defaultConstraints[0].whenUnsatisfiable`, message: 'Unsupported value: "unknown action": supported values: "DoNotSchedule", "ScheduleAnyway"' }],
    },
    {
      name: 'duplicated constraints',
      args: {
        defaultingType: 'List',
        defaultConstraints: [
          { maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' },
        ],
      },
      want: [{ path: `${path}.defaultConstraints[1]`, message: 'Duplicate value: "{node, DoNotSchedule}"' }],
    },
    {
      name: 'label selector present',
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'key', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { a: 'b' } } }] },
      want: [{ path: `${path}.defaultConstraints[0].labelSelector`, message: 'Forbidden: constraint must not define a selector, as they deduced for each pod' }],
    },
    {
      name: 'list default constraints, no constraints',
      args: { defaultingType: 'List', defaultConstraints: [] },
      want: [],
    },
    {
      name: 'system default constraints',
      args: { defaultingType: 'System', defaultConstraints: [] },
      want: [],
    },
    {
      name: 'wrong constraints',
      args: { defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'DoNotSchedule' }] },
      want: [{ path: `${path}.defaultConstraints[0].topologyKey`, message: 'Required value: can not be empty' }],
    },
    {
      name: 'system default constraints, but has constraints',
      args: { defaultingType: 'System', defaultConstraints: [{ maxSkew: 1, topologyKey: 'key', whenUnsatisfiable: 'DoNotSchedule' }] },
      want: [{ path: `${path}.defaultingType`, message: 'Invalid value: "System": when .defaultConstraints are not empty' }],
    },
    {
      name: 'unknown defaulting type',
      args: { defaultingType: 'Sometimes' as 'List', defaultConstraints: [] },
      want: [{ path: `${path}.defaultingType`, message: 'Unsupported value: "Sometimes": supported values: "System", "List"' }],
    },
  ];
  for (const tc of cases) it(`validation: ${tc.name}`, () => assert.deepEqual(validatePodTopologySpreadArgs(tc.args, path), tc.want));

  it('an invalid topology key is rejected', () => {
    const errs = validatePodTopologySpreadArgs({ defaultingType: 'List', defaultConstraints: [{ maxSkew: 1, topologyKey: 'not a key', whenUnsatisfiable: 'DoNotSchedule' }] }, path);
    assert.equal(errs.length, 1);
    assert.equal(errs[0]!.path, `${path}.defaultConstraints[0].topologyKey`);
    assert.match(errs[0]!.message, /^Invalid value: "not a key": /);
  });

  it('the definition is exported with its args kind', () => {
    assert.equal(podTopologySpreadDefinition.name, 'PodTopologySpread');
    assert.equal(podTopologySpreadDefinition.argsKind, 'PodTopologySpreadArgs');
    const { handle } = setup([], []);
    const plugin = podTopologySpreadDefinition.factory(podTopologySpreadDefinition.defaultArgs!({}), handle, defaultFeatures);
    assert.equal(plugin.name, 'PodTopologySpread');
  });
});

describe('DefaultSelector', () => {
  const lister = (objects: KubeObject[]) => newTestHandle({ objects }).objects();
  const svc = (name: string, selector: Record<string, string> | undefined, namespace = 'default'): KubeObject =>
    ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec: selector ? { selector } : {} }) as KubeObject;
  const ctrl = (kind: string, apiVersion: string, name: string, selector: unknown): KubeObject =>
    ({ apiVersion, kind, metadata: { name, namespace: 'default' }, spec: { selector } }) as KubeObject;
  const matches = (p: Pod, objects: KubeObject[], labels: Record<string, string>) => defaultSelector(p, lister(objects)).matches(labels);

  it('is empty without services or a controller', () => {
    assert.equal(defaultSelector(pod('p', { labels: { foo: 'bar' } }), lister([])).isEverything, true);
  });
  it('merges the selectors of the services that select the pod', () => {
    const p = pod('p', { labels: { foo: 'bar', baz: 'qux' } });
    const objects = [svc('s1', { foo: 'bar' }), svc('s2', { baz: 'qux' }), svc('other', { foo: 'nope' }), svc('nil', undefined), svc('elsewhere', { foo: 'bar', x: 'y' }, 'ns1')];
    assert.equal(matches(p, objects, { foo: 'bar', baz: 'qux' }), true);
    assert.equal(matches(p, objects, { foo: 'bar' }), false);
    assert.equal(matches(p, objects, { foo: 'bar', baz: 'qux', x: 'z' }), true);
  });
  it('adds a ReplicaSet owner’s selector requirements', () => {
    const p = pod('p', { labels: { foo: 'bar', tier: 'web' }, owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs' } });
    const objects = [svc('s1', { foo: 'bar' }), ctrl('ReplicaSet', 'apps/v1', 'rs', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }] })];
    assert.equal(matches(p, objects, { foo: 'bar', tier: 'api' }), true);
    assert.equal(matches(p, objects, { foo: 'bar' }), false);
    assert.equal(matches(p, objects, { tier: 'web' }), false);
  });
  it('adds a StatefulSet owner’s selector requirements', () => {
    const p = pod('p', { labels: { app: 'db' }, owner: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' } });
    const objects = [ctrl('StatefulSet', 'apps/v1', 'db', { matchLabels: { app: 'db' } })];
    assert.equal(matches(p, objects, { app: 'db' }), true);
    assert.equal(matches(p, objects, { app: 'web' }), false);
  });
  it('merges a ReplicationController owner’s selector map', () => {
    const p = pod('p', { labels: { app: 'old' }, owner: { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' } });
    const objects = [ctrl('ReplicationController', 'v1', 'rc', { app: 'old' })];
    assert.equal(matches(p, objects, { app: 'old' }), true);
    assert.equal(defaultSelector(p, lister(objects)).isEverything, false);
  });
  it('ignores owners of other kinds or API versions, and missing controllers', () => {
    const job = pod('p', { labels: { app: 'x' }, owner: { apiVersion: 'batch/v1', kind: 'Job', name: 'j' } });
    assert.equal(defaultSelector(job, lister([])).isEverything, true);
    const oldRs = pod('p', { labels: { app: 'x' }, owner: { apiVersion: 'extensions/v1beta1', kind: 'ReplicaSet', name: 'rs' } });
    assert.equal(defaultSelector(oldRs, lister([ctrl('ReplicaSet', 'apps/v1', 'rs', { matchLabels: { app: 'x' } })])).isEverything, true);
    const missing = pod('p', { labels: { app: 'x' }, owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone' } });
    assert.equal(defaultSelector(missing, lister([])).isEverything, true);
  });
});

// buildDefaultConstraints asks for the default selector before building the constraints.
describe('PodTopologySpread default constraints per pod', () => {
  const service = (selector: Record<string, string>): KubeObject =>
    ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector } }) as KubeObject;
  const listed: PodTopologySpreadArgs = {
    defaultingType: 'List',
    defaultConstraints: [
      { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
      { maxSkew: 3, topologyKey: 'rack', whenUnsatisfiable: 'ScheduleAnyway' },
      { maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'DoNotSchedule' },
    ],
  };
  const system: PodTopologySpreadArgs = { defaultingType: 'System', defaultConstraints: [] };
  const web = pod('p', { labels: { app: 'web' } });
  const cases: { name: string; args: PodTopologySpreadArgs; objects: KubeObject[]; action: 'DoNotSchedule' | 'ScheduleAnyway'; want: [string, number][] }[] = [
    { name: 'nothing selects the pod: none', args: listed, objects: [], action: 'DoNotSchedule', want: [] },
    { name: 'a service selecting another app: none', args: listed, objects: [service({ app: 'db' })], action: 'DoNotSchedule', want: [] },
    { name: 'a selecting service: the action\'s defaults in order', args: listed, objects: [service({ app: 'web' })], action: 'DoNotSchedule', want: [['zone', 1], ['node', 2]] },
    { name: 'a selecting service, the other action', args: listed, objects: [service({ app: 'web' })], action: 'ScheduleAnyway', want: [['rack', 3]] },
    { name: 'System defaults are ScheduleAnyway only', args: system, objects: [service({ app: 'web' })], action: 'DoNotSchedule', want: [] },
    { name: 'System defaults for a selected pod', args: system, objects: [service({ app: 'web' })], action: 'ScheduleAnyway', want: [['kubernetes.io/hostname', 3], ['topology.kubernetes.io/zone', 5]] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { plugin } = setup([], [], c.args, c.objects);
      const got = plugin.getConstraints(web, c.action);
      assert.deepEqual(got.map((x) => [x.topologyKey, x.maxSkew]), c.want);
      for (const x of got) {
        assert.equal(x.selector.matches({ app: 'web' }), true);
        assert.equal(x.selector.matches({ app: 'db' }), false);
      }
    });
  }
});
