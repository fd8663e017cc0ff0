// `simulate --serve` runs the workload controllers unless the scenario turns them off: a
// scenario's Deployment is served with its ReplicaSet and pods (issue 25: they used to vanish).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/types.js';
import { defaultConfiguration } from '../../config/index.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../../plugins/registry.js';
import { parseScenario } from '../scenario/scenario.js';
import { serveScenario } from './serve.js';

const scenario = (controllers: string) => parseScenario(`
${controllers}
nodes:
- { apiVersion: v1, kind: Node, metadata: { name: n1 }, status: { allocatable: { cpu: "4", memory: 8Gi, pods: "10" } } }
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: { name: web, namespace: default }
  spec:
    replicas: 2
    selector: { matchLabels: { app: web } }
    template:
      metadata: { labels: { app: web } }
      spec: { containers: [{ name: c, image: nginx }] }
`, 'served.yaml');

describe('serve and the workload controllers', () => {
  const cases = [
    { name: 'controllers absent: the Deployment gets its ReplicaSet and two pods', controllers: '', replicaSets: 1, pods: 2 },
    { name: 'controllers: false keeps the scenario as written', controllers: 'controllers: false', replicaSets: 0, pods: 0 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const registry = inTreeRegistry();
      const serving = await serveScenario(scenario(c.controllers), { config: defaultConfiguration(registry), registry, notYetAvailable: notYetAvailablePlugins, port: 0 });
      try {
        await serving.cluster.controllers.settled();
        assert.equal(serving.cluster.list('ReplicaSet').length, c.replicaSets);
        const pods = serving.cluster.list<Pod>('Pod');
        assert.equal(pods.length, c.pods);
        for (const p of pods) assert.equal(p.metadata.ownerReferences?.[0]?.kind, 'ReplicaSet');
      } finally {
        await serving.close();
      }
    });
  }
});
