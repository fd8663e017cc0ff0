// Defaulting (v1/defaults_test.go) and validation (validation_pluginargs_test.go) of
// NodeResourcesFitArgs and NodeResourcesBalancedAllocationArgs.
import { defaultFeatures } from '../../framework/features.js';
import { newTestHandle } from '../../testing/handle.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '../../framework/registry.js';
import {
  defaultNodeResourcesBalancedAllocationArgs,
  defaultNodeResourcesFitArgs,
  validateNodeResourcesBalancedAllocationArgs,
  validateNodeResourcesFitArgs,
  type NodeResourcesBalancedAllocationArgs,
  type NodeResourcesFitArgs,
} from './args.js';
import { balancedAllocationDefinition, nodeResourcesFitDefinition } from './index.js';

const cpuMemory = [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

describe('NodeResourcesFitArgs defaulting', () => {
  const cases: { name: string; given: Record<string, unknown>; want: NodeResourcesFitArgs }[] = [
    {
      name: 'empty args get LeastAllocated on cpu and memory',
      given: {},
      want: { ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: { type: 'LeastAllocated', resources: cpuMemory } },
    },
    {
      name: 'a strategy without resources gets cpu and memory',
      given: { scoringStrategy: { type: 'MostAllocated' } },
      want: { ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: { type: 'MostAllocated', resources: cpuMemory } },
    },
    {
      name: 'unset weights become 1, set ones stay',
      given: { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu' }, { name: 'example.com/gpu', weight: 5 }, { name: 'memory', weight: 0 }] } },
      want: {
        ignoredResources: [],
        ignoredResourceGroups: [],
        scoringStrategy: {
          type: 'LeastAllocated',
          resources: [
            { name: 'cpu', weight: 1 },
            { name: 'example.com/gpu', weight: 5 },
            { name: 'memory', weight: 1 },
          ],
        },
      },
    },
    {
      name: 'the type is not defaulted when a strategy is given',
      given: { scoringStrategy: { resources: [{ name: 'cpu', weight: 2 }] } },
      want: { ignoredResources: [], ignoredResourceGroups: [], scoringStrategy: { type: '', resources: [{ name: 'cpu', weight: 2 }] } },
    },
    {
      name: 'RequestedToCapacityRatio keeps its shape',
      given: {
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'NodeResourcesFitArgs',
        ignoredResources: ['example.com/foo'],
        ignoredResourceGroups: ['example.org'],
        scoringStrategy: {
          type: 'RequestedToCapacityRatio',
          resources: [{ name: 'cpu', weight: 2 }],
          requestedToCapacityRatio: { shape: [{ utilization: 0, score: 0 }, { utilization: 100, score: 10 }] },
        },
      },
      want: {
        ignoredResources: ['example.com/foo'],
        ignoredResourceGroups: ['example.org'],
        scoringStrategy: {
          type: 'RequestedToCapacityRatio',
          resources: [{ name: 'cpu', weight: 2 }],
          requestedToCapacityRatio: { shape: [{ utilization: 0, score: 0 }, { utilization: 100, score: 10 }] },
        },
      },
    },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(defaultNodeResourcesFitArgs(tc.given), tc.want));

  it('rejects unknown fields and wrong types, naming the field', () => {
    assert.throws(() => defaultNodeResourcesFitArgs({ scoringStrategy: { typ: 'MostAllocated' } }), /unknown field "scoringStrategy.typ"/);
    assert.throws(
      () => defaultNodeResourcesFitArgs({ scoringStrategy: { resources: [{ name: 'cpu', weight: '2' }] } }),
      /scoringStrategy.resources\[0\].weight: expected an integer/,
    );
    assert.throws(() => defaultNodeResourcesFitArgs({ ignoredResources: 'example.com/foo' }), /ignoredResources: expected a list/);
  });
});

describe('NodeResourcesBalancedAllocationArgs defaulting', () => {
  const cases: { name: string; given: Record<string, unknown>; want: NodeResourcesBalancedAllocationArgs }[] = [
    { name: 'empty args get cpu and memory', given: {}, want: { resources: cpuMemory } },
    { name: 'an empty list gets cpu and memory', given: { resources: [] }, want: { resources: cpuMemory } },
    {
      name: 'unset weights become 1',
      given: { resources: [{ name: 'cpu' }, { name: 'example.com/gpu', weight: 0 }] },
      want: { resources: [{ name: 'cpu', weight: 1 }, { name: 'example.com/gpu', weight: 1 }] },
    },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(defaultNodeResourcesBalancedAllocationArgs(tc.given), tc.want));
});

function fit(o: Partial<NodeResourcesFitArgs> & { strategy?: Partial<NodeResourcesFitArgs['scoringStrategy']> }): NodeResourcesFitArgs {
  return {
    ignoredResources: o.ignoredResources ?? [],
    ignoredResourceGroups: o.ignoredResourceGroups ?? [],
    scoringStrategy: { type: 'LeastAllocated', resources: cpuMemory, ...o.strategy },
  };
}

describe('NodeResourcesFitArgs validation', () => {
  const nameMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
    "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const cases: { name: string; args: NodeResourcesFitArgs; want: FieldError[] }[] = [
    { name: 'IgnoredResources: too long value', args: fit({ ignoredResources: ['a'.repeat(64)] }), want: [
      { path: 'ignoredResources[0]', message: `Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 characters` },
    ] },
    { name: 'IgnoredResources: name is empty', args: fit({ ignoredResources: ['example.com/'] }), want: [
      { path: 'ignoredResources[0]', message: 'Invalid value: "example.com/": name part must be non-empty' },
      { path: 'ignoredResources[0]', message: `Invalid value: "example.com/": ${nameMsg}` },
    ] },
    { name: 'IgnoredResources: name has too many slash', args: fit({ ignoredResources: ['example.com/aaa/bbb'] }), want: [
      {
        path: 'ignoredResources[0]',
        message:
          "Invalid value: \"example.com/aaa/bbb\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
          "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      },
    ] },
    { name: 'IgnoredResources: valid args', args: fit({ ignoredResources: ['example.com'] }), want: [] },
    { name: 'IgnoredResourceGroups: valid args', args: fit({ ignoredResourceGroups: ['example.com'] }), want: [] },
    { name: 'IgnoredResourceGroups: illegal args', args: fit({ ignoredResourceGroups: ['example.com/'] }), want: [
      { path: 'ignoredResourceGroups[0]', message: 'Invalid value: "example.com/": resource group name can\'t contain \'/\'' },
      { path: 'ignoredResourceGroups[0]', message: 'Invalid value: "example.com/": name part must be non-empty' },
      { path: 'ignoredResourceGroups[0]', message: `Invalid value: "example.com/": ${nameMsg}` },
    ] },
    { name: 'IgnoredResourceGroups: name is too long', args: fit({ ignoredResourceGroups: ['a'.repeat(64)] }), want: [
      { path: 'ignoredResourceGroups[0]', message: `Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 characters` },
    ] },
    { name: 'IgnoredResourceGroups: name cannot be contain slash', args: fit({ ignoredResourceGroups: ['example.com/aa'] }), want: [
      { path: 'ignoredResourceGroups[0]', message: 'Invalid value: "example.com/aa": resource group name can\'t contain \'/\'' },
    ] },
    { name: 'ScoringStrategy: field is required', args: fit({ strategy: { type: '' } }), want: [
      { path: 'scoringStrategy.type', message: 'Unsupported value: "": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"' },
    ] },
    { name: 'ScoringStrategy: type is unsupported', args: fit({ strategy: { type: 'Invalid' } }), want: [
      { path: 'scoringStrategy.type', message: 'Unsupported value: "Invalid": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"' },
    ] },
    { name: 'ScoringStrategy: resources weight is less than 1', args: fit({ strategy: { resources: [{ name: 'cpu', weight: 0 }] } }), want: [
      { path: 'scoringStrategy.resources[0].weight', message: 'Invalid value: 0: resource weight of cpu not in valid range (0, 100]' },
    ] },
    { name: 'ScoringStrategy: resources weight is greater than 100', args: fit({ strategy: { resources: [{ name: 'cpu', weight: 101 }] } }), want: [
      { path: 'scoringStrategy.resources[0].weight', message: 'Invalid value: 101: resource weight of cpu not in valid range (0, 100]' },
    ] },
    { name: 'ScoringStrategy: valid shape', args: fit({ strategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape: [{ utilization: 30, score: 3 }, { utilization: 50, score: 2 }] } } }), want: [] },
    { name: 'ScoringStrategy: utilization is out of range', args: fit({ strategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape: [{ utilization: 101, score: 1 }] } } }), want: [
      { path: 'scoringStrategy.shape[0].utilization', message: 'Invalid value: 101: not in valid range [0, 100]' },
    ] },
    { name: 'ScoringStrategy: utilization values in non-increasing order', args: fit({ strategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape: [{ utilization: 30, score: 3 }, { utilization: 20, score: 2 }, { utilization: 10, score: 1 }] } } }), want: [
      { path: 'scoringStrategy.shape[1].utilization', message: 'Invalid value: 20: values must be sorted in increasing order' },
    ] },
    { name: 'ScoringStrategy: duplicated utilization values', args: fit({ strategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape: [{ utilization: 10, score: 3 }, { utilization: 20, score: 2 }, { utilization: 20, score: 1 }] } } }), want: [
      { path: 'scoringStrategy.shape[2].utilization', message: 'Invalid value: 20: values must be sorted in increasing order' },
    ] },
    { name: 'ScoringStrategy: score is out of range', args: fit({ strategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape: [{ utilization: 10, score: 11 }] } } }), want: [
      { path: 'scoringStrategy.shape[0].score', message: 'Invalid value: 11: not in valid range [0, 10]' },
    ] },
    { name: 'ScoringStrategy: empty shape', args: fit({ strategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape: [] } } }), want: [
      { path: 'scoringStrategy.shape', message: 'Required value: at least one point must be specified' },
    ] },
    { name: 'ScoringStrategy: RequestedToCapacityRatio without its parameters', args: fit({ strategy: { type: 'RequestedToCapacityRatio' } }), want: [
      { path: 'scoringStrategy.requestedToCapacityRatio', message: 'Required value: must be set for the RequestedToCapacityRatio strategy' },
    ] },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(validateNodeResourcesFitArgs(tc.args, ''), tc.want));

  it('prefixes the args path it is given', () => {
    const errs = validateNodeResourcesFitArgs(fit({ strategy: { resources: [{ name: 'cpu', weight: 0 }] } }), 'profiles[0].pluginConfig[1].args');
    assert.deepEqual(errs.map((e) => e.path), ['profiles[0].pluginConfig[1].args.scoringStrategy.resources[0].weight']);
  });
});

describe('NodeResourcesBalancedAllocationArgs validation', () => {
  const cases: { name: string; args: NodeResourcesBalancedAllocationArgs; want: FieldError[] }[] = [
    { name: 'valid config', args: { resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] }, want: [] },
    { name: 'invalid config', args: { resources: [{ name: 'cpu', weight: 2 }, { name: 'memory', weight: 1 }] }, want: [
      { path: 'resources[0].weight', message: 'Invalid value: 2: must be 1' },
    ] },
    { name: 'repeated resources', args: { resources: [{ name: 'cpu', weight: 1 }, { name: 'cpu', weight: 1 }] }, want: [
      { path: 'resources[1].name', message: 'Duplicate value: "cpu"' },
    ] },
    { name: 'extended resources', args: { resources: [{ name: 'nvidia.com/gpu', weight: 1 }] }, want: [] },
  ];
  for (const tc of cases) it(tc.name, () => assert.deepEqual(validateNodeResourcesBalancedAllocationArgs(tc.args, ''), tc.want));
});

describe('plugin definitions', () => {
  it('NodeResourcesFit: default, validate and build from raw args', () => {
    assert.equal(nodeResourcesFitDefinition.argsKind, 'NodeResourcesFitArgs');
    const args = nodeResourcesFitDefinition.defaultArgs!({ scoringStrategy: { type: 'MostAllocated' } });
    assert.deepEqual(nodeResourcesFitDefinition.validateArgs!(args, 'args'), []);
    const plugin = nodeResourcesFitDefinition.factory(args, newTestHandle(), defaultFeatures);
    assert.equal(plugin.name, 'NodeResourcesFit');
  });

  it('NodeResourcesBalancedAllocation: default, validate and build from raw args', () => {
    assert.equal(balancedAllocationDefinition.argsKind, 'NodeResourcesBalancedAllocationArgs');
    const args = balancedAllocationDefinition.defaultArgs!({});
    assert.deepEqual(balancedAllocationDefinition.validateArgs!(args, 'args'), []);
    assert.equal(balancedAllocationDefinition.factory(args, newTestHandle(), defaultFeatures).name, 'NodeResourcesBalancedAllocation');
  });
});
