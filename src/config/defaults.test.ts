import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from '../framework/registry.js';
import { getDefaultPlugins } from './default_plugins.js';
import { defaultConfiguration, effectiveScoreWeight, pluginArgsByName, setDefaults } from './defaults.js';
import { ConfigError } from './errors.js';
import { fakeInTreeRegistry, fakeRegistry } from './test_helpers.js';
import type { DefaultedConfiguration, DefaultedProfile, KubeSchedulerConfiguration, PluginConfig } from './types.js';

/** Upstream's defaulted pluginConfig of the default profile, sorted by plugin name. */
const defaultPluginConfig = (): PluginConfig[] => [
  { name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 } },
  { name: 'DynamicResources', args: { filterTimeout: '10s', bindingTimeout: '10m0s' } },
  { name: 'InterPodAffinity', args: { hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false } },
  { name: 'NodeAffinity', args: {} },
  { name: 'NodeResourcesBalancedAllocation', args: { resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } },
  {
    name: 'NodeResourcesFit',
    args: { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } },
  },
  { name: 'PodTopologySpread', args: { defaultingType: 'System' } },
  { name: 'VolumeBinding', args: { bindTimeoutSeconds: 600 } },
];

const defaultProfile = (): DefaultedProfile => ({
  schedulerName: 'default-scheduler',
  percentageOfNodesToScore: null,
  plugins: getDefaultPlugins(),
  pluginConfig: defaultPluginConfig(),
});

const expectedDefaults = (profiles: DefaultedProfile[] = [defaultProfile()]): DefaultedConfiguration => ({
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  parallelism: 16,
  leaderElection: {
    leaderElect: true,
    leaseDuration: '15s',
    renewDeadline: '10s',
    retryPeriod: '2s',
    resourceLock: 'leases',
    resourceName: 'kube-scheduler',
    resourceNamespace: 'kube-system',
  },
  clientConnection: {
    kubeconfig: '',
    acceptContentTypes: '',
    contentType: 'application/vnd.kubernetes.protobuf',
    qps: 50,
    burst: 100,
  },
  enableProfiling: true,
  enableContentionProfiling: true,
  percentageOfNodesToScore: 0,
  podInitialBackoffSeconds: 1,
  podMaxBackoffSeconds: 10,
  profiles,
  extenders: [],
  delayCacheUntilActive: false,
});

test('an empty config defaults to upstream default profile exactly', () => {
  assert.deepEqual(setDefaults({}, fakeInTreeRegistry()), expectedDefaults());
  assert.deepEqual(defaultConfiguration(fakeInTreeRegistry()), expectedDefaults());
});

test('setDefaults', () => {
  const cases: { name: string; config: KubeSchedulerConfiguration; want: DefaultedConfiguration }[] = [
    {
      name: 'a single profile without a name gets default-scheduler',
      config: { profiles: [{}] },
      want: expectedDefaults(),
    },
    {
      name: 'two profiles: only named ones get a name; plugin sets merge per profile',
      config: {
        profiles: [
          { pluginConfig: [{ name: 'FooPlugin' }] },
          {
            schedulerName: 'custom-scheduler',
            plugins: { bind: { enabled: [{ name: 'BarPlugin' }], disabled: [{ name: 'DefaultBinder' }] } },
          },
        ],
      },
      want: expectedDefaults([
        { ...defaultProfile(), schedulerName: '', pluginConfig: [{ name: 'FooPlugin' }, ...defaultPluginConfig()] },
        {
          ...defaultProfile(),
          schedulerName: 'custom-scheduler',
          plugins: {
            ...getDefaultPlugins(),
            bind: { enabled: [{ name: 'BarPlugin' }], disabled: [{ name: 'DefaultBinder' }] },
          },
        },
      ]),
    },
    {
      name: 'non default parallelism, percentage, backoff and delayCacheUntilActive are kept',
      config: {
        parallelism: 8,
        percentageOfNodesToScore: 30,
        podInitialBackoffSeconds: 2,
        podMaxBackoffSeconds: 20,
        delayCacheUntilActive: true,
        profiles: [{ percentageOfNodesToScore: 50 }],
      },
      want: {
        ...expectedDefaults([{ ...defaultProfile(), percentageOfNodesToScore: 50 }]),
        parallelism: 8,
        percentageOfNodesToScore: 30,
        podInitialBackoffSeconds: 2,
        podMaxBackoffSeconds: 20,
        delayCacheUntilActive: true,
      },
    },
    {
      name: 'leader election: zero durations and empty strings take defaults, set values stay',
      config: {
        leaderElection: { leaderElect: false, leaseDuration: '0s', renewDeadline: '5s', resourceName: 'custom', resourceLock: '' },
      },
      want: {
        ...expectedDefaults(),
        leaderElection: {
          leaderElect: false,
          leaseDuration: '15s',
          renewDeadline: '5s',
          retryPeriod: '2s',
          resourceLock: 'leases',
          resourceName: 'custom',
          resourceNamespace: 'kube-system',
        },
      },
    },
    {
      name: 'client connection: zero qps and burst take the scheduler defaults',
      config: { clientConnection: { qps: 0, burst: 0, contentType: 'application/json', kubeconfig: '/k' } },
      want: {
        ...expectedDefaults(),
        clientConnection: { kubeconfig: '/k', acceptContentTypes: '', contentType: 'application/json', qps: 50, burst: 100 },
      },
    },
    {
      name: 'profiling off leaves contention profiling off',
      config: { enableProfiling: false },
      want: { ...expectedDefaults(), enableProfiling: false, enableContentionProfiling: false },
    },
    {
      name: 'contention profiling can be set without profiling',
      config: { enableProfiling: false, enableContentionProfiling: true },
      want: { ...expectedDefaults(), enableProfiling: false, enableContentionProfiling: true },
    },
    {
      name: 'multiPoint disabled "*" drops every default plugin and their default args',
      config: { profiles: [{ plugins: { multiPoint: { disabled: [{ name: '*' }] } } }] },
      want: expectedDefaults([
        {
          ...defaultProfile(),
          plugins: { ...getDefaultPlugins(), multiPoint: { enabled: [], disabled: [{ name: '*' }] } },
          pluginConfig: [],
        },
      ]),
    },
    {
      name: 'multiPoint disabled "*" with plugins re-enabled: only those, in order, with their args',
      config: {
        profiles: [
          {
            plugins: {
              multiPoint: {
                enabled: [{ name: 'PrioritySort' }, { name: 'NodeResourcesFit', weight: 4 }, { name: 'DefaultBinder' }],
                disabled: [{ name: '*' }],
              },
            },
          },
        ],
      },
      want: expectedDefaults([
        {
          ...defaultProfile(),
          plugins: {
            ...getDefaultPlugins(),
            multiPoint: {
              enabled: [{ name: 'PrioritySort' }, { name: 'NodeResourcesFit', weight: 4 }, { name: 'DefaultBinder' }],
              disabled: [{ name: '*' }],
            },
          },
          pluginConfig: defaultPluginConfig().filter((pc) => pc.name === 'NodeResourcesFit'),
        },
      ]),
    },
    {
      name: 'multiPoint disabling one default removes it and its args',
      config: { profiles: [{ schedulerName: 'default-scheduler', plugins: { multiPoint: { disabled: [{ name: 'DefaultPreemption' }] } } }] },
      want: expectedDefaults([
        {
          ...defaultProfile(),
          plugins: {
            ...getDefaultPlugins(),
            multiPoint: {
              enabled: getDefaultPlugins().multiPoint.enabled.filter((p) => p.name !== 'DefaultPreemption'),
              disabled: [{ name: 'DefaultPreemption' }],
            },
          },
          pluginConfig: defaultPluginConfig().filter((pc) => pc.name !== 'DefaultPreemption'),
        },
      ]),
    },
    {
      name: 'per-point overrides sit beside the multiPoint defaults',
      config: {
        profiles: [
          {
            plugins: {
              score: { enabled: [{ name: 'NodeResourcesFit', weight: 5 }, { name: 'MyPlugin', weight: 2 }], disabled: [{ name: 'ImageLocality' }] },
              filter: { disabled: [{ name: '*' }] },
            },
          },
        ],
      },
      want: expectedDefaults([
        {
          ...defaultProfile(),
          plugins: {
            ...getDefaultPlugins(),
            score: { enabled: [{ name: 'NodeResourcesFit', weight: 5 }, { name: 'MyPlugin', weight: 2 }], disabled: [{ name: 'ImageLocality' }] },
            filter: { enabled: [], disabled: [{ name: '*' }] },
          },
          pluginConfig: [...defaultPluginConfig().slice(0, 3), { name: 'MyPlugin', args: { mode: 'fast' } }, ...defaultPluginConfig().slice(3)],
        },
      ]),
    },
    {
      name: 'user pluginConfig comes first and is defaulted field by field; the rest get defaults',
      config: {
        profiles: [
          {
            pluginConfig: [
              { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } },
              { name: 'InterPodAffinity', args: { hardPodAffinityWeight: 5 } },
              { name: 'DefaultPreemption' },
              { name: 'OutOfTree', args: { foo: 'bar' } },
            ],
          },
        ],
      },
      want: expectedDefaults([
        {
          ...defaultProfile(),
          pluginConfig: [
            {
              name: 'NodeResourcesFit',
              args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } },
            },
            { name: 'InterPodAffinity', args: { hardPodAffinityWeight: 5, ignorePreferredTermsOfExistingPods: false } },
            { name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 } },
            { name: 'OutOfTree', args: { foo: 'bar' } },
            ...defaultPluginConfig().filter((pc) => !['NodeResourcesFit', 'InterPodAffinity', 'DefaultPreemption'].includes(pc.name)),
          ],
        },
      ]),
    },
  ];
  for (const c of cases) assert.deepEqual(setDefaults(c.config, fakeRegistry()), c.want, c.name);
});

test('plugins missing from the registry get no default args', () => {
  const registry = new Registry([{ name: 'PrioritySort', factory: () => ({ name: 'PrioritySort' }) }]);
  const cfg = setDefaults({}, registry);
  assert.deepEqual(cfg.profiles[0]!.pluginConfig, []);
  assert.equal(cfg.profiles[0]!.plugins.multiPoint.enabled.length, 20);
});

test('setDefaults does not modify its input', () => {
  const input: KubeSchedulerConfiguration = {
    profiles: [{ pluginConfig: [{ name: 'InterPodAffinity', args: { hardPodAffinityWeight: 5 } }], plugins: { score: { enabled: [{ name: 'X' }] } } }],
  };
  const copy = structuredClone(input);
  setDefaults(input, fakeRegistry());
  assert.deepEqual(input, copy);
});

test('a plugin args defaulting that throws is reported at the args path', () => {
  const registry = new Registry([
    {
      name: 'Broken',
      factory: () => ({ name: 'Broken' }),
      argsKind: 'BrokenArgs',
      defaultArgs: () => {
        throw new Error('cannot default');
      },
    },
  ]);
  const config: KubeSchedulerConfiguration = { profiles: [{ pluginConfig: [{ name: 'Broken', args: { a: 1 } }] }] };
  const errors: { path: string; message: string }[] = [];
  setDefaults(config, registry, errors);
  assert.deepEqual(errors, [{ path: 'profiles[0].pluginConfig[0].args', message: 'Invalid value: {"a":1}: cannot default' }]);
  assert.throws(() => setDefaults(config, registry), (err: unknown) => err instanceof ConfigError && err.errors.length === 1);
});

test('pluginArgsByName and effectiveScoreWeight', () => {
  const profile = defaultConfiguration(fakeInTreeRegistry()).profiles[0]!;
  assert.deepEqual(pluginArgsByName(profile).get('VolumeBinding'), { bindTimeoutSeconds: 600 });
  assert.equal(pluginArgsByName(profile).has('TaintToleration'), false);
  assert.equal(effectiveScoreWeight(undefined), 1);
  assert.equal(effectiveScoreWeight(0), 1);
  assert.equal(effectiveScoreWeight(3), 3);
});
