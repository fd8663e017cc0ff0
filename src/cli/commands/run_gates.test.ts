// `run` over a scripted API server: which informers --feature-gates starts (scheduler.go starts
// the DeviceTaintRule informer only with DRADeviceTaintRules on).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RawWatchEvent, RestRequest, RestTransport, WatchHandle } from '../../cluster/kube/rest.js';
import { defaultConfiguration } from '../../config/index.js';
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

/** The collection paths `run` lists with the given --feature-gates. */
async function listedPaths(flags: string[]): Promise<string[]> {
  const registry = inTreeRegistry();
  const base = defaultConfiguration(registry);
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
