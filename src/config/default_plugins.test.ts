import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getDefaultPlugins, mergePlugins, mergePluginSet } from './default_plugins.js';
import type { DefaultedPluginSet, PluginSet } from './types.js';

test('default plugins are upstream v1.37 multiPoint set, in order, with weights', () => {
  const plugins = getDefaultPlugins();
  assert.deepEqual(plugins.multiPoint.enabled, [
    { name: 'SchedulingGates' },
    { name: 'PrioritySort' },
    { name: 'NodeName' },
    { name: 'NodeUnschedulable' },
    { name: 'TaintToleration', weight: 3 },
    { name: 'NodeAffinity', weight: 2 },
    { name: 'NodePorts' },
    { name: 'NodeResourcesFit', weight: 1 },
    { name: 'VolumeRestrictions' },
    { name: 'NodeVolumeLimits' },
    { name: 'VolumeBinding' },
    { name: 'VolumeZone' },
    { name: 'PodTopologySpread', weight: 2 },
    { name: 'InterPodAffinity', weight: 2 },
    { name: 'DynamicResources', weight: 2 },
    { name: 'DefaultPreemption' },
    { name: 'NodeResourcesBalancedAllocation', weight: 1 },
    { name: 'ImageLocality', weight: 1 },
    { name: 'DefaultBinder' },
    { name: 'NodeDeclaredFeatures' },
  ]);
  assert.deepEqual(plugins.multiPoint.disabled, []);
  for (const [name, set] of Object.entries(plugins)) {
    if (name !== 'multiPoint') assert.deepEqual(set, { enabled: [], disabled: [] }, name);
  }
});

test('getDefaultPlugins returns a fresh copy each time', () => {
  const a = getDefaultPlugins();
  a.multiPoint.enabled[0]!.name = 'Changed';
  assert.equal(getDefaultPlugins().multiPoint.enabled[0]!.name, 'SchedulingGates');
});

const defaults: DefaultedPluginSet = {
  enabled: [{ name: 'DefaultPlugin1' }, { name: 'DefaultPlugin2' }, { name: 'DefaultPlugin3' }],
  disabled: [],
};

test('mergePluginSet', () => {
  const cases: { name: string; custom: PluginSet | undefined; want: DefaultedPluginSet }[] = [
    {
      name: 'no custom set keeps the defaults',
      custom: undefined,
      want: defaults,
    },
    {
      name: 'a custom plugin is appended after the defaults',
      custom: { enabled: [{ name: 'CustomPlugin' }] },
      want: { enabled: [...defaults.enabled, { name: 'CustomPlugin' }], disabled: [] },
    },
    {
      name: 'disabling a default and re-enabling it places it after the custom plugin',
      custom: { enabled: [{ name: 'CustomPlugin' }, { name: 'DefaultPlugin2' }], disabled: [{ name: 'DefaultPlugin2' }] },
      want: {
        enabled: [{ name: 'DefaultPlugin1' }, { name: 'DefaultPlugin3' }, { name: 'CustomPlugin' }, { name: 'DefaultPlugin2' }],
        disabled: [{ name: 'DefaultPlugin2' }],
      },
    },
    {
      name: '"*" disables every default; enabled plugins keep their order',
      custom: { enabled: [{ name: 'CustomPlugin' }, { name: 'DefaultPlugin2' }, { name: 'DefaultPlugin1' }], disabled: [{ name: '*' }] },
      want: { enabled: [{ name: 'CustomPlugin' }, { name: 'DefaultPlugin2' }, { name: 'DefaultPlugin1' }], disabled: [{ name: '*' }] },
    },
    {
      name: 'a re-configured default plugin is replaced in place',
      custom: { enabled: [{ name: 'DefaultPlugin2', weight: 5 }] },
      want: { enabled: [{ name: 'DefaultPlugin1' }, { name: 'DefaultPlugin2', weight: 5 }, { name: 'DefaultPlugin3' }], disabled: [] },
    },
    {
      name: 'overrides keep the default order',
      custom: { enabled: [{ name: 'DefaultPlugin3', weight: 2 }, { name: 'DefaultPlugin1', weight: 3 }] },
      want: {
        enabled: [{ name: 'DefaultPlugin1', weight: 3 }, { name: 'DefaultPlugin2' }, { name: 'DefaultPlugin3', weight: 2 }],
        disabled: [],
      },
    },
    {
      name: 'a repeated custom plugin: the last replaces the default, earlier ones are appended',
      custom: {
        enabled: [{ name: 'DefaultPlugin1' }, { name: 'DefaultPlugin2', weight: 2 }, { name: 'DefaultPlugin3' }, { name: 'DefaultPlugin2', weight: 4 }],
      },
      want: {
        enabled: [{ name: 'DefaultPlugin1' }, { name: 'DefaultPlugin2', weight: 4 }, { name: 'DefaultPlugin3' }, { name: 'DefaultPlugin2', weight: 2 }],
        disabled: [],
      },
    },
    {
      name: 'disabling a plugin that is not a default is kept in disabled only',
      custom: { disabled: [{ name: 'Other' }] },
      want: { enabled: defaults.enabled, disabled: [{ name: 'Other' }] },
    },
  ];
  for (const c of cases) assert.deepEqual(mergePluginSet(defaults, c.custom), c.want, c.name);
});

test('mergePluginSet keeps the disabled defaults after the custom ones', () => {
  const base: DefaultedPluginSet = { enabled: [{ name: 'A' }, { name: 'B' }], disabled: [{ name: 'B' }] };
  assert.deepEqual(mergePluginSet(base, { disabled: [{ name: 'A' }] }), {
    enabled: [],
    disabled: [{ name: 'A' }, { name: 'B' }],
  });
});

test('mergePlugins merges every point and leaves the defaults alone when plugins are absent', () => {
  const d = getDefaultPlugins();
  assert.equal(mergePlugins(d, undefined), d);
  const merged = mergePlugins(getDefaultPlugins(), {
    multiPoint: { disabled: [{ name: 'DefaultPreemption' }] },
    score: { enabled: [{ name: 'NodeResourcesFit', weight: 5 }] },
  });
  assert.equal(
    merged.multiPoint.enabled.some((p) => p.name === 'DefaultPreemption'),
    false,
  );
  assert.equal(merged.multiPoint.enabled.length, 19);
  assert.deepEqual(merged.multiPoint.disabled, [{ name: 'DefaultPreemption' }]);
  assert.deepEqual(merged.score, { enabled: [{ name: 'NodeResourcesFit', weight: 5 }], disabled: [] });
  assert.deepEqual(merged.filter, { enabled: [], disabled: [] });
});
