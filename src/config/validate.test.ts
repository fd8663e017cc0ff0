import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FieldError } from '../framework/registry.js';
import { setDefaults } from './defaults.js';
import { ConfigError } from './errors.js';
import { fakeRegistry } from './test_helpers.js';
import { configFromObject } from './load.js';
import type { KubeSchedulerConfiguration } from './types.js';
import { isQualifiedName, validateConfiguration } from './validate.js';

/** A valid configuration shaped like upstream's TestValidateKubeSchedulerConfigurationV1 one. */
const validConfig = (): KubeSchedulerConfiguration => ({
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  parallelism: 8,
  clientConnection: { acceptContentTypes: 'application/json', contentType: 'application/json', qps: 10, burst: 10 },
  leaderElection: {
    resourceLock: 'leases',
    leaderElect: true,
    leaseDuration: '30s',
    renewDeadline: '15s',
    retryPeriod: '5s',
    resourceNamespace: 'name',
    resourceName: 'name',
  },
  podInitialBackoffSeconds: 1,
  podMaxBackoffSeconds: 1,
  profiles: [
    {
      schedulerName: 'me',
      percentageOfNodesToScore: 35,
      plugins: { queueSort: { enabled: [{ name: 'CustomSort' }] }, score: { disabled: [{ name: '*' }] } },
      pluginConfig: [{ name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 } }],
    },
    {
      schedulerName: 'other',
      percentageOfNodesToScore: 35,
      plugins: { queueSort: { enabled: [{ name: 'CustomSort' }] }, bind: { enabled: [{ name: 'CustomBind' }] } },
    },
  ],
  extenders: [{ urlPrefix: 'http://127.0.0.1:8081/extender', prioritizeVerb: 'prioritize', weight: 1 }],
});

type Mutate = (c: KubeSchedulerConfiguration) => void;
const profile = (c: KubeSchedulerConfiguration, i: number) => c.profiles![i]!;

function errorsOf(config: KubeSchedulerConfiguration): FieldError[] {
  try {
    configFromObject(config, 'config.yaml', fakeRegistry());
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.errors.map((e) => ({ path: e.path, message: e.message }));
  }
}

test('validation of KubeSchedulerConfiguration', () => {
  const cases: { name: string; mutate: Mutate; want: FieldError[] }[] = [
    { name: 'good', mutate: () => {}, want: [] },
    {
      name: 'parallelism must be positive',
      mutate: (c) => (c.parallelism = -1),
      want: [{ path: 'parallelism', message: 'Invalid value: -1: should be an integer value greater than zero' }],
    },
    {
      name: 'resource lock must be leases',
      mutate: (c) => (c.leaderElection!.resourceLock = 'configmap'),
      want: [{ path: 'leaderElection.resourceLock', message: 'Invalid value: "configmap": resourceLock value must be "leases"' }],
    },
    {
      name: 'lease duration shorter than the renew deadline',
      mutate: (c) => (c.leaderElection!.leaseDuration = '10s'),
      want: [{ path: 'leaderElection.leaseDuration', message: 'Invalid value: 15s: LeaseDuration must be greater than RenewDeadline' }],
    },
    {
      name: 'negative retry period',
      mutate: (c) => (c.leaderElection!.retryPeriod = '-1s'),
      want: [{ path: 'leaderElection.retryPeriod', message: 'Invalid value: -1s: must be greater than zero' }],
    },
    {
      name: 'leader election durations are not checked without leader election',
      mutate: (c) => Object.assign(c.leaderElection!, { leaderElect: false, retryPeriod: '-1s', resourceLock: 'endpoints' }),
      want: [],
    },
    {
      name: 'negative burst',
      mutate: (c) => (c.clientConnection!.burst = -1),
      want: [{ path: 'clientConnection.burst', message: 'Invalid value: -1: must be non-negative' }],
    },
    {
      name: 'percentageOfNodesToScore above 100',
      mutate: (c) => (c.percentageOfNodesToScore = 101),
      want: [{ path: 'percentageOfNodesToScore', message: 'Invalid value: 101: not in valid range [0-100]' }],
    },
    {
      name: 'negative percentageOfNodesToScore',
      mutate: (c) => (c.percentageOfNodesToScore = -1),
      want: [{ path: 'percentageOfNodesToScore', message: 'Invalid value: -1: not in valid range [0-100]' }],
    },
    {
      name: 'profile percentageOfNodesToScore above 100',
      mutate: (c) => (profile(c, 1).percentageOfNodesToScore = 101),
      want: [{ path: 'profiles[1].percentageOfNodesToScore', message: 'Invalid value: 101: not in valid range [0-100]' }],
    },
    {
      name: 'scheduler name not set with two profiles',
      mutate: (c) => delete profile(c, 1).schedulerName,
      want: [{ path: 'profiles[1].schedulerName', message: 'Required value' }],
    },
    {
      name: 'repeated scheduler name',
      mutate: (c) => (profile(c, 0).schedulerName = 'other'),
      want: [{ path: 'profiles[1].schedulerName', message: 'Duplicate value: profiles[0].schedulerName' }],
    },
    {
      name: 'different queue sort',
      mutate: (c) => (profile(c, 1).plugins!.queueSort!.enabled![0]!.name = 'PrioritySort'),
      want: [
        {
          path: 'profiles[1].plugins.queueSort',
          message: 'Invalid value: {"enabled":[{"name":"PrioritySort"}],"disabled":[]}: must be the same for all profiles',
        },
      ],
    },
    {
      name: 'one empty queue sort',
      mutate: (c) => delete profile(c, 1).plugins,
      want: [{ path: 'profiles[1].plugins.queueSort', message: 'Invalid value: {"enabled":[],"disabled":[]}: must be the same for all profiles' }],
    },
    {
      name: 'two queue sort plugins in the first profile',
      mutate: (c) => {
        profile(c, 0).plugins!.queueSort!.enabled!.push({ name: 'PrioritySort' });
        profile(c, 1).plugins!.queueSort!.enabled!.push({ name: 'PrioritySort' });
      },
      want: [{ path: 'profiles[0].plugins.queueSort.enabled', message: 'Invalid value: 2: only one queue sort plugin can be enabled' }],
    },
    {
      name: 'queue sort args differ between profiles',
      mutate: (c) => {
        profile(c, 0).pluginConfig!.push({ name: 'CustomSort', args: { order: 'asc' } });
        profile(c, 1).pluginConfig = [{ name: 'CustomSort', args: { order: 'desc' } }];
      },
      want: [{ path: 'profiles[1].pluginConfig.args', message: 'Invalid value: {"order":"desc"}: queueSort must be the same for all profiles' }],
    },
    {
      name: 'extender with a prioritize verb needs a positive weight',
      mutate: (c) => (c.extenders![0]!.weight = -1),
      want: [{ path: 'extenders[0].weight', message: 'Invalid value: -1: must have a positive weight applied to it' }],
    },
    {
      name: 'duplicate extender managed resources',
      mutate: (c) => (c.extenders![0]!.managedResources = [{ name: 'example.com/foo' }, { name: 'example.com/foo' }]),
      want: [{ path: 'extenders[0].managedResources[1].name', message: 'Invalid value: "example.com/foo": duplicate extender managed resource name' }],
    },
    {
      name: 'extender managed resources must be extended resources',
      mutate: (c) => (c.extenders![0]!.managedResources = [{ name: 'kubernetes.io/foo' }, { name: 'foo' }]),
      want: [
        { path: 'extenders[0].managedResources[0].name', message: 'Invalid value: "kubernetes.io/foo": is an invalid extended resource name' },
        { path: 'extenders[0].managedResources[1].name', message: 'Invalid value: "foo": is an invalid extended resource name' },
      ],
    },
    {
      name: 'only one extender can bind',
      mutate: (c) => {
        c.extenders![0]!.bindVerb = 'foo';
        c.extenders!.push({ urlPrefix: 'http://127.0.0.1:8082/extender', prioritizeVerb: 'prioritize', bindVerb: 'bar', weight: 1 });
      },
      want: [{ path: 'extenders', message: 'Invalid value: "found 2 extenders implementing bind": only one extender can implement bind' }],
    },
    {
      name: 'plugin args are validated by the registry',
      mutate: (c) => (profile(c, 0).pluginConfig = [{ name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 200 } }]),
      want: [
        {
          path: 'profiles[0].pluginConfig[0].args.minCandidateNodesPercentage',
          message: 'Invalid value: 200: not in valid range [0, 100]',
        },
      ],
    },
    {
      name: 'duplicated plugin config',
      mutate: (c) => (profile(c, 0).pluginConfig = [{ name: 'InterPodAffinity' }, { name: 'InterPodAffinity' }]),
      want: [{ path: 'profiles[0].pluginConfig[1]', message: 'Duplicate value: "InterPodAffinity"' }],
    },
    {
      name: 'a removed plugin is invalid in v1',
      mutate: (c) => (profile(c, 0).plugins!.filter = { enabled: [{ name: 'EBSLimits' }] }),
      want: [
        {
          path: 'profiles[0].plugins.filter.enabled[0]',
          message:
            'Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
        },
      ],
    },
    {
      name: 'pluginConfig of a removed plugin is invalid in v1',
      mutate: (c) => profile(c, 0).pluginConfig!.push({ name: 'GCEPDLimits' }),
      want: [
        {
          path: 'profiles[0].pluginConfig[1]',
          message:
            'Invalid value: "GCEPDLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
        },
      ],
    },
    {
      name: 'an unknown plugin is reported where it is enabled',
      mutate: (c) => (profile(c, 0).plugins!.filter = { enabled: [{ name: 'NodeName' }, { name: 'Foo' }] }),
      want: [{ path: 'profiles[0].plugins.filter.enabled[1].name', message: 'Invalid value: "Foo": FilterPlugin "Foo" does not exist' }],
    },
    {
      name: 'an unknown multiPoint plugin is reported at its index in the file',
      mutate: (c) => (profile(c, 1).plugins!.multiPoint = { enabled: [{ name: 'Bar' }] }),
      want: [{ path: 'profiles[1].plugins.multiPoint.enabled[0].name', message: 'Invalid value: "Bar": plugin "Bar" does not exist' }],
    },
    {
      name: 'a plugin in the registry but not in-tree is known; disabled names are not checked',
      mutate: (c) => (profile(c, 0).plugins!.filter = { enabled: [{ name: 'MyPlugin' }], disabled: [{ name: 'Nope' }] }),
      want: [],
    },
    {
      name: 'a negative score weight',
      mutate: (c) => (profile(c, 0).plugins!.score!.enabled = [{ name: 'NodeResourcesFit', weight: 1 }, { name: 'ImageLocality', weight: -1 }]),
      want: [{ path: 'profiles[0].plugins.score.enabled[1].weight', message: 'Invalid value: -1: must not be negative' }],
    },
    {
      name: 'a negative multiPoint weight',
      mutate: (c) => (profile(c, 1).plugins!.multiPoint = { enabled: [{ name: 'TaintToleration', weight: -3 }] }),
      want: [{ path: 'profiles[1].plugins.multiPoint.enabled[0].weight', message: 'Invalid value: -3: must not be negative' }],
    },
    {
      name: 'weight 0 and large weights are accepted, as upstream',
      mutate: (c) => (profile(c, 0).plugins!.score!.enabled = [{ name: 'NodeResourcesFit', weight: 0 }, { name: 'ImageLocality', weight: 1000 }]),
      want: [],
    },
    {
      name: 'initial backoff must be positive',
      mutate: (c) => (c.podInitialBackoffSeconds = 0),
      want: [{ path: 'podInitialBackoffSeconds', message: 'Invalid value: 0: must be greater than 0' }],
    },
    {
      name: 'max backoff below initial backoff',
      mutate: (c) => Object.assign(c, { podInitialBackoffSeconds: 5, podMaxBackoffSeconds: 2 }),
      want: [{ path: 'podMaxBackoffSeconds', message: 'Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds' }],
    },
    {
      name: 'every problem is reported',
      mutate: (c) => Object.assign(c, { parallelism: 0, percentageOfNodesToScore: 200 }),
      want: [
        { path: 'parallelism', message: 'Invalid value: 0: should be an integer value greater than zero' },
        { path: 'percentageOfNodesToScore', message: 'Invalid value: 200: not in valid range [0-100]' },
      ],
    },
  ];
  for (const c of cases) {
    const config = validConfig();
    c.mutate(config);
    assert.deepEqual(errorsOf(config), c.want, c.name);
  }
});

test('the error message lists every problem prefixed with the file', () => {
  const config = validConfig();
  config.parallelism = 0;
  profile(config, 0).plugins!.score!.enabled = [{ name: 'NodeResourcesFit' }, { name: 'ImageLocality', weight: -1 }];
  assert.throws(
    () => configFromObject(config, 'config.yaml', fakeRegistry()),
    (err: unknown) =>
      err instanceof ConfigError &&
      err.file === 'config.yaml' &&
      err.message ===
        'config.yaml: profiles[0].plugins.score.enabled[1].weight: Invalid value: -1: must not be negative\n' +
          'config.yaml: parallelism: Invalid value: 0: should be an integer value greater than zero',
  );
});

test('validateConfiguration on the default configuration finds nothing', () => {
  const registry = fakeRegistry();
  assert.deepEqual(validateConfiguration(setDefaults({}, registry), registry), []);
});

test('isQualifiedName words its errors as apimachinery', () => {
  assert.deepEqual(isQualifiedName('example.com/foo'), []);
  assert.deepEqual(isQualifiedName('a/b/c'), [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
  assert.deepEqual(isQualifiedName('/foo'), ['prefix part must be non-empty']);
  assert.deepEqual(isQualifiedName('Example.com/-x'), [
    "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
});
