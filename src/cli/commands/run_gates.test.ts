// `run` over a scripted API server: which informers --feature-gates starts (scheduler.go starts
// the DeviceTaintRule informer only with DRADeviceTaintRules on), and the enabled plugins' own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RawWatchEvent, RestRequest, RestTransport, WatchHandle } from '../../cluster/kube/rest.js';
import { configFromObject, defaultConfiguration, type DefaultedConfiguration } from '../../config/index.js';
import type { Registry } from '../../framework/registry.js';
import { registryWithPlugins } from '../plugins.js';
import { FeatureGates } from '../../config/feature_gates.js';
import { discardLogger } from '../../log/logger.js';
import { inTreeRegistry } from '../../plugins/registry.js';
import { FakeClock } from '../../util/clock.js';
import { startScheduler } from './run.js';

/** Answers every list with nothing and keeps every watch open, recording the paths listed. */
class EmptyApiServer implements RestTransport {
  readonly listed: string[] = [];

  async request<T>(req: RestRequest): Promise<T> {
    if (req.method === 'GET') this.listed.push(req.path);
    return { metadata: { resourceVersion: '1' }, items: [] } as T;
  }

  watch(_path: string, _query: Readonly<Record<string, string | undefined>>, _onEvent: (e: RawWatchEvent) => void, _onClose: (err: Error | null) => void): WatchHandle {
    return { close: () => {} };
  }
}

/** The collection paths `run` lists with the given --feature-gates (and configuration). */
async function listedPaths(flags: string[], registry: Registry = inTreeRegistry(), base: DefaultedConfiguration = defaultConfiguration(registry)): Promise<string[]> {
  const t = new EmptyApiServer();
  const r = await startScheduler({
    config: { ...base, leaderElection: { ...base.leaderElection, leaderElect: false } },
    registry,
    featureGates: FeatureGates.parse(flags),
    transport: t,
    clock: new FakeClock(0),
    log: discardLogger,
  });
  await r.synced;
  r.abort();
  await r.done;
  return t.listed;
}

describe('run: informers by feature gates', () => {
  const taintRules = '/apis/resource.k8s.io/v1/devicetaintrules';
  const cases = [
    { flags: [], watchesRules: true },
    { flags: ['DRADeviceTaintRules=true'], watchesRules: true },
    { flags: ['DRADeviceTaintRules=false'], watchesRules: false },
  ];
  for (const tc of cases) {
    it(`${tc.flags.join(',') || 'defaults'}: ${tc.watchesRules ? 'lists' : 'does not list'} DeviceTaintRules, and the other DRA kinds either way`, async () => {
      const listed = await listedPaths(tc.flags);
      assert.equal(listed.includes(taintRules), tc.watchesRules);
      for (const kind of ['deviceclasses', 'resourceslices', 'resourceclaims']) assert.ok(listed.includes(`/apis/resource.k8s.io/v1/${kind}`), kind);
    });
  }
});

describe('run: the enabled plugins\' informers', () => {
  const podGroups = '/apis/scheduling.x-k8s.io/v1alpha1/podgroups';
  it('lists what an enabled plugin watches (Coscheduling\'s PodGroups), and not while no profile enables it', async () => {
    const registry = await registryWithPlugins([]);
    const config = configFromObject({
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [{ schedulerName: 'gangs', plugins: { multiPoint: { enabled: [{ name: 'Coscheduling' }], disabled: [{ name: 'PrioritySort' }] } } }],
    }, 'test', registry);
    assert.ok((await listedPaths([], registry, config)).includes(podGroups));
    assert.ok(!(await listedPaths([], registry)).includes(podGroups));
  });
});
