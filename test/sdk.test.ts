// The library API: an out-of-tree plugin written against the plugin SDK, registered next to the
// in-tree plugins and enabled by configuration.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ActionType,
  configFromObject,
  inTreeRegistry,
  loadScenario,
  Registry,
  runSimulation,
  Status,
  type FilterPlugin,
  type PluginDefinition,
  type ScorePlugin,
} from '../src/index.js';
import { runCli } from '../src/cli/main.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface ZoneArgs {
  zone: string;
}

/** Keeps pods out of one zone and prefers nodes with fewer pods. */
const avoidZone: PluginDefinition<ZoneArgs> = {
  name: 'AvoidZone',
  argsKind: 'AvoidZoneArgs',
  defaultArgs: (given) => ({ zone: typeof given.zone === 'string' ? given.zone : 'zone-x' }),
  validateArgs: (args, path) => (args.zone ? [] : [{ path: `${path}.zone`, message: 'Required value' }]),
  factory: (args): FilterPlugin & ScorePlugin & { eventsToRegister(): [] } => ({
    name: 'AvoidZone',
    filter: (_state, _pod, nodeInfo) =>
      nodeInfo.node?.metadata.labels?.zone === args.zone ? Status.unresolvable(`node(s) in avoided zone ${args.zone}`) : null,
    score: (_state, _pod, nodeInfo) => Math.max(0, 100 - 10 * nodeInfo.pods.length),
    eventsToRegister: () => [],
  }),
};

describe('plugin SDK', () => {
  it('runs an out-of-tree plugin enabled through multiPoint with args', async () => {
    const registry = inTreeRegistry().merge(new Registry([avoidZone]));
    const scenario = loadScenario(join(root, 'test/fixtures/scenarios/cli/labels.yaml'));
    scenario.nodes[1]!.metadata.labels = { ...scenario.nodes[1]!.metadata.labels, zone: 'zone-x' };
    const config = configFromObject({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [{
        schedulerName: 'default-scheduler',
        plugins: { multiPoint: { enabled: [{ name: 'AvoidZone', weight: 2 }] } },
        pluginConfig: [{ name: 'AvoidZone', args: { zone: 'zone-x' } }],
      }],
    }, 'test', registry);
    const report = await runSimulation(scenario, { config, registry });
    assert.deepEqual(report.pods.map((p) => [p.pod, p.node]), [['default/p1', 'a'], ['default/p2', 'a']]);
    assert.equal(ActionType.Add, 1);
  });

  it('rejects bad args of an out-of-tree plugin with the field path', () => {
    const registry = inTreeRegistry().merge(new Registry([avoidZone]));
    assert.throws(
      () => configFromObject({
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'KubeSchedulerConfiguration',
        profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'AvoidZone', args: { zone: '' } }] }],
      }, 'cfg.yaml', registry),
      /pluginConfig\[0\]\.args\.zone/,
    );
  });

  it('loads plugins from a module with simulate --plugins', { skip: existsSync(join(root, 'dist/index.js')) ? false : 'needs the build (npm ci runs it)' }, async () => {
    let out = '';
    const code = await runCli([
      'simulate', join(root, 'test/fixtures/scenarios/cli/labels.yaml'), '--output', 'json',
      '--plugins', join(root, 'examples/prefer-label.mjs'), '--config', join(root, 'examples/prefer-label-config.yaml'),
    ], { stdout: (t) => (out += t), stderr: () => {} });
    assert.equal(code, 0);
    const pods = (JSON.parse(out) as { pods: { pod: string; node: string }[] }).pods;
    assert.deepEqual(pods.map((p) => p.node), ['b', 'b']);
  });
});
