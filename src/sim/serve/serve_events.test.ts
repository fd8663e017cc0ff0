// `simulate --serve` keeps Events as kube-apiserver does: an hour after their last write
// (--event-ttl), so a long-running sandbox does not keep one per scheduled pod for ever.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, Pod } from '../../api/types.js';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { FakeClock } from '../../util/clock.js';
import { parseScenario } from '../scenario/scenario.js';
import { serveScenario } from './serve.js';

const scenario = parseScenario(`
nodes:
- { apiVersion: v1, kind: Node, metadata: { name: n1 }, status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } } }
pending:
- { apiVersion: v1, kind: Pod, metadata: { name: p, namespace: default }, spec: { containers: [{ name: c, image: nginx }] } }
`, 'events.yaml');

/** Turns of the event loop until `done` holds (at most 1,000). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise<void>((resolve) => setImmediate(resolve));
  assert.ok(done(), 'never happened');
}

describe('serve: Events expire an hour after their last write', () => {
  it('the Scheduled event of a pod is there for an hour, then deleted', async () => {
    const registry = inTreeRegistry();
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const serving = await serveScenario(scenario, { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, port: 0, clock, kubelet: false });
    try {
      await until(() => serving.cluster.get<Pod>('Pod', 'default', 'p')?.spec.nodeName === 'n1');
      await until(() => serving.cluster.list('Event').length > 0);
      const scheduled = serving.cluster.list<KubeObject & { reason?: string }>('Event').filter((e) => e.reason === 'Scheduled');
      assert.equal(scheduled.length, 1);
      clock.advance(60 * 60 * 1000 - 1);
      assert.equal(serving.cluster.list('Event').length, 1);
      clock.advance(1);
      assert.deepEqual(serving.cluster.list('Event'), []);
    } finally {
      await serving.close();
    }
  });
});
