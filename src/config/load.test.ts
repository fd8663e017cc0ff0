import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultConfiguration } from './defaults.js';
import { ConfigError, type ConfigIssue } from './errors.js';
import { fakeRegistry } from './test_helpers.js';
import { configFromObject, loadConfigFile, parseConfig } from './load.js';

const header = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';

function issuesOf(text: string): ConfigIssue[] {
  try {
    parseConfig(text, 'config.yaml', fakeRegistry());
  } catch (err) {
    if (err instanceof ConfigError) return [...err.errors];
    throw err;
  }
  assert.fail('expected a ConfigError');
}

test('a minimal YAML file defaults like an empty configuration', () => {
  assert.deepEqual(parseConfig(header, 'config.yaml', fakeRegistry()), defaultConfiguration(fakeRegistry()));
});

test('JSON is accepted too', () => {
  const text = JSON.stringify({
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    parallelism: 4,
    profiles: [{ schedulerName: 'json-scheduler' }],
  });
  const cfg = parseConfig(text, 'config.json', fakeRegistry());
  assert.equal(cfg.parallelism, 4);
  assert.equal(cfg.profiles[0]!.schedulerName, 'json-scheduler');
});

test('a full file: plugins, args with apiVersion/kind, extenders, YAML 1.1 booleans', () => {
  const cfg = parseConfig(
    `${header}leaderElection:
  leaderElect: no
clientConnection:
  kubeconfig: /etc/kubernetes/scheduler.conf
percentageOfNodesToScore: 50
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - name: NodeResourcesFit
        weight: 5
  pluginConfig:
  - name: NodeResourcesFit
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesFitArgs
      scoringStrategy:
        type: MostAllocated
        resources:
        - name: cpu
          weight: 2
  - name: OutOfTree
    args:
      anything: [1, 2]
extenders:
- urlPrefix: http://127.0.0.1:8888
  filterVerb: filter
  httpTimeout: 30s
  enableHTTPS: yes
  managedResources:
  - name: example.com/gpu
    ignoredByScheduler: true
`,
    'config.yaml',
    fakeRegistry(),
  );
  assert.equal(cfg.leaderElection.leaderElect, false);
  assert.equal(cfg.clientConnection.kubeconfig, '/etc/kubernetes/scheduler.conf');
  assert.equal(cfg.percentageOfNodesToScore, 50);
  const profile = cfg.profiles[0]!;
  assert.deepEqual(profile.plugins.score.enabled, [{ name: 'NodeResourcesFit', weight: 5 }]);
  assert.deepEqual(profile.pluginConfig[0], {
    name: 'NodeResourcesFit',
    args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 2 }] } },
  });
  assert.deepEqual(profile.pluginConfig[1], { name: 'OutOfTree', args: { anything: [1, 2] } });
  assert.deepEqual(cfg.extenders, [
    {
      urlPrefix: 'http://127.0.0.1:8888',
      filterVerb: 'filter',
      httpTimeout: '30s',
      enableHTTPS: true,
      managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }],
    },
  ]);
});

test('scalars read as go-yaml reads them: octal ints, no sexagesimal numbers, on/off booleans', () => {
  const cfg = parseConfig(`${header}parallelism: 010\nclientConnection:\n  kubeconfig: 1:30\nenableProfiling: off\n`, 'config.yaml', fakeRegistry());
  assert.equal(cfg.parallelism, 8);
  assert.equal(cfg.clientConnection.kubeconfig, '1:30');
  assert.equal(cfg.enableProfiling, false);
});

test('decoding errors', () => {
  const cases: { name: string; text: string; want: ConfigIssue[] }[] = [
    {
      name: 'malformed YAML points at its line',
      text: `${header}profiles:\n- schedulerName: a: b\n`,
      want: [{ path: '', message: 'yaml: Nested mappings are not allowed in compact mappings', line: 4, column: 18 }],
    },
    {
      name: 'an unknown field',
      text: `${header}profiles:\n- plugins:\n    scoree:\n      enabled: []\n`,
      want: [{ path: 'profiles[0].plugins.scoree', message: 'unknown field "scoree"', line: 5, column: 5 }],
    },
    {
      name: 'a duplicate field',
      text: `${header}parallelism: 4\nparallelism: 8\n`,
      want: [{ path: 'parallelism', message: 'duplicate field "parallelism"', line: 4, column: 1 }],
    },
    {
      name: 'metricsBindAddress is not part of v1',
      text: `${header}metricsBindAddress: 0.0.0.0:10251\n`,
      want: [{ path: 'metricsBindAddress', message: 'unknown field "metricsBindAddress"', line: 3, column: 1 }],
    },
    {
      name: 'a removed apiVersion',
      text: 'apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n',
      want: [
        {
          path: 'apiVersion',
          message: 'Unsupported value: "kubescheduler.config.k8s.io/v1beta3": supported values: "kubescheduler.config.k8s.io/v1"',
          line: 1,
          column: 1,
        },
      ],
    },
    {
      name: 'a missing apiVersion and a wrong kind',
      text: 'kind: Pod\n',
      want: [
        { path: 'apiVersion', message: 'Required value: must be "kubescheduler.config.k8s.io/v1"' },
        { path: 'kind', message: 'Unsupported value: "Pod": supported values: "KubeSchedulerConfiguration"', line: 1, column: 1 },
      ],
    },
    {
      name: 'an empty file',
      text: '',
      want: [
        { path: 'apiVersion', message: 'Required value: must be "kubescheduler.config.k8s.io/v1"' },
        { path: 'kind', message: 'Required value: must be "KubeSchedulerConfiguration"' },
      ],
    },
    {
      name: 'a document that is not an object',
      text: '- a\n- b\n',
      want: [{ path: '', message: 'Invalid value: list: must be a KubeSchedulerConfiguration object' }],
    },
    {
      name: 'values of the wrong type',
      text: `${header}parallelism: sixteen\npercentageOfNodesToScore: 1.5\nenableProfiling: 1\nprofiles: {}\n`,
      want: [
        { path: 'parallelism', message: 'Invalid value: "sixteen": must be an integer (int32)', line: 3, column: 1 },
        { path: 'percentageOfNodesToScore', message: 'Invalid value: 1.5: must be an integer (int32)', line: 4, column: 1 },
        { path: 'enableProfiling', message: 'Invalid value: 1: must be a boolean', line: 5, column: 1 },
        { path: 'profiles', message: 'Invalid value: object: must be a list', line: 6, column: 1 },
      ],
    },
    {
      name: 'an invalid duration',
      text: `${header}leaderElection:\n  leaseDuration: 15\n  renewDeadline: 10d\n`,
      want: [
        { path: 'leaderElection.leaseDuration', message: 'Invalid value: 15: must be a duration string such as "15s"', line: 4, column: 3 },
        {
          path: 'leaderElection.renewDeadline',
          message: 'Invalid value: "10d": time: unknown unit "d" in duration "10d"',
          line: 5,
          column: 3,
        },
      ],
    },
    {
      name: 'in-tree args are decoded strictly',
      text: `${header}profiles:\n- pluginConfig:\n  - name: InterPodAffinity\n    args:\n      hardPodAffinityWeightt: 5\n`,
      want: [
        {
          path: 'profiles[0].pluginConfig[0].args.hardPodAffinityWeightt',
          message: 'unknown field "hardPodAffinityWeightt"',
          line: 7,
          column: 7,
        },
      ],
    },
    {
      name: 'in-tree args of an unimplemented plugin are decoded strictly too',
      text: `${header}profiles:\n- pluginConfig:\n  - name: VolumeBinding\n    args:\n      bindTimeoutSeconds: soon\n`,
      want: [
        {
          path: 'profiles[0].pluginConfig[0].args.bindTimeoutSeconds',
          message: 'Invalid value: "soon": must be an integer (int64)',
          line: 7,
          column: 7,
        },
      ],
    },
    {
      name: 'args of another kind',
      text: `${header}profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      kind: InterPodAffinityArgs\n      apiVersion: kubescheduler.config.k8s.io/v1\n`,
      want: [
        {
          path: 'profiles[0].pluginConfig[0].args.kind',
          message: 'Invalid value: "InterPodAffinityArgs": args for plugin NodeResourcesFit were not of type NodeResourcesFitArgs, got InterPodAffinityArgs',
          line: 7,
          column: 7,
        },
      ],
    },
    {
      name: 'args of another version',
      text: `${header}profiles:\n- pluginConfig:\n  - name: MyPlugin\n    args:\n      apiVersion: kubescheduler.config.k8s.io/v1beta3\n`,
      want: [
        {
          path: 'profiles[0].pluginConfig[0].args.apiVersion',
          message: 'Unsupported value: "kubescheduler.config.k8s.io/v1beta3": supported values: "kubescheduler.config.k8s.io/v1"',
          line: 7,
          column: 7,
        },
      ],
    },
  ];
  for (const c of cases) assert.deepEqual(issuesOf(c.text), c.want, c.name);
});

test('validation errors carry the line of the field when it is in the file', () => {
  const issues = issuesOf(`${header}profiles:\n- plugins:\n    score:\n      enabled:\n      - name: ImageLocality\n        weight: -1\n`);
  assert.deepEqual(issues, [
    { path: 'profiles[0].plugins.score.enabled[0].weight', message: 'Invalid value: -1: must not be negative', line: 8, column: 9 },
  ]);
});

test('the ConfigError message names the file, the field and the problem', () => {
  assert.throws(() => parseConfig(`${header}profiles:\n- schedulerName: a: b\n`, 'sched.yaml', fakeRegistry()), {
    name: 'ConfigError',
    message: 'sched.yaml:4:18: yaml: Nested mappings are not allowed in compact mappings',
  });
  assert.throws(() => parseConfig(`${header}parallelism: 0\n`, 'sched.yaml', fakeRegistry()), {
    message: 'sched.yaml: parallelism: Invalid value: 0: should be an integer value greater than zero',
  });
});

test('loadConfigFile reads a file and reports a missing one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ksconfig-'));
  try {
    const file = join(dir, 'config.yaml');
    writeFileSync(file, `${header}parallelism: 2\n`);
    assert.equal(loadConfigFile(file, fakeRegistry()).parallelism, 2);
    const missing = join(dir, 'missing.yaml');
    assert.throws(() => loadConfigFile(missing, fakeRegistry()), {
      name: 'ConfigError',
      message: `${missing}: open ${missing}: no such file or directory`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('configFromObject takes an already parsed configuration', () => {
  const cfg = configFromObject(
    {
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [{ schedulerName: 'default-scheduler', plugins: { multiPoint: { disabled: [{ name: 'DefaultPreemption' }] } } }],
    },
    'scenario.yaml',
    fakeRegistry(),
  );
  assert.equal(cfg.profiles[0]!.plugins.multiPoint.enabled.length, 19);
  assert.throws(() => configFromObject({ kind: 'KubeSchedulerConfiguration' }, 'scenario.yaml', fakeRegistry()), {
    message: 'scenario.yaml: apiVersion: Required value: must be "kubescheduler.config.k8s.io/v1"',
  });
});
