// The pod group extension points of v1.37's KubeSchedulerConfiguration v1 (placementGenerate,
// placementScore, podGroupPostFilter): they load, merge with the defaults and validate as
// upstream's defaults.go, validation.go and NewFramework's checks do.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfigFile } from './load.js';
import { fakeRegistry, pluginsConfigError } from './test_helpers.js';

const fixture = fileURLToPath(new URL('../../test/fixtures/configs/v1.37-workload-aware.yaml', import.meta.url));

describe('a v1.37.2 configuration with the pod group extension points', () => {
  const cfg = loadConfigFile(fixture, fakeRegistry());
  const [main, batch] = cfg.profiles;

  it('loads, keeping each point\'s plugins and weights', () => {
    assert.deepEqual(main!.plugins.placementScore, { enabled: [{ name: 'NodeResourcesFit', weight: 2 }], disabled: [] });
    assert.deepEqual(main!.plugins.podGroupPostFilter, { enabled: [{ name: 'DefaultPreemption' }], disabled: [] });
    assert.deepEqual(main!.plugins.placementGenerate, { enabled: [], disabled: [] });
    assert.deepEqual(main!.plugins.multiPoint.enabled.slice(-3), [{ name: 'GangScheduling' }, { name: 'TopologyPlacementGenerator' }, { name: 'PodGroupPodsCount', weight: 1 }]);
    assert.deepEqual(batch!.plugins.placementGenerate.enabled, [{ name: 'TopologyPlacementGenerator' }]);
    assert.deepEqual(batch!.plugins.placementScore, { enabled: [], disabled: [{ name: '*' }] });
  });

  it('gives default args to the plugins the placement points enable', () => {
    assert.ok(main!.pluginConfig.some((pc) => pc.name === 'NodeResourcesFit'));
  });
});

describe('validation of the pod group extension points', () => {
  const cases: { name: string; plugins: unknown; want: string }[] = [
    {
      name: 'two placement generators, one explicit and one through multiPoint',
      plugins: { multiPoint: { enabled: [{ name: 'TopologyPlacementGenerator' }] }, placementGenerate: { enabled: [{ name: 'MyPlugin' }] } },
      want: 'c.yaml: profiles[0].plugins.placementGenerate: Invalid value: 2: at most one placement generate plugin is allowed for profile with scheduler name "default-scheduler"',
    },
    { name: 'one placement generator', plugins: { placementGenerate: { enabled: [{ name: 'TopologyPlacementGenerator' }] } }, want: '' },
    {
      name: 'an unknown placement score plugin',
      plugins: { placementScore: { enabled: [{ name: 'Nope', weight: 1 }] } },
      want: 'c.yaml: profiles[0].plugins.placementScore.enabled[0].name: Invalid value: "Nope": PlacementScorePlugin "Nope" does not exist',
    },
    {
      name: 'a negative placement score weight',
      plugins: { placementScore: { enabled: [{ name: 'NodeResourcesFit', weight: -1 }] } },
      want: 'c.yaml: profiles[0].plugins.placementScore.enabled[0].weight: Invalid value: -1: must not be negative',
    },
    {
      name: 'a removed plugin at podGroupPostFilter is refused, as upstream checks that point',
      plugins: { podGroupPostFilter: { enabled: [{ name: 'GCEPDLimits' }] } },
      want: 'c.yaml: profiles[0].plugins.podGroupPostFilter.enabled[0]: Invalid value: "GCEPDLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
    },
    {
      name: 'a removed plugin at placementScore does not exist there, as upstream\'s framework says',
      plugins: { placementScore: { enabled: [{ name: 'GCEPDLimits' }] } },
      want: 'c.yaml: profiles[0].plugins.placementScore.enabled[0].name: Invalid value: "GCEPDLimits": PlacementScorePlugin "GCEPDLimits" does not exist',
    },
    {
      name: 'an unknown field in the plugins is still refused',
      plugins: { placementFilter: { enabled: [] } },
      want: 'c.yaml: profiles[0].plugins.placementFilter: unknown field "placementFilter"',
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(pluginsConfigError(c.plugins), c.want));
});
