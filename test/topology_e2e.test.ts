// End-to-end placement with the topology plugins: system default spreading of a Deployment's
// replicas over zones, and one replica per node under required anti-affinity.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject, Pod } from '../src/api/types.js';
import { resolveConfiguration } from '../src/cli/configuration.js';
import { admitPod } from '../src/cluster/memory/admission.js';
import { inTreeRegistry, notYetAvailablePlugins } from '../src/plugins/registry.js';
import type { Scenario } from '../src/sim/scenario/scenario.js';
import { runSimulation, type SimPod } from '../src/sim/simulate/simulate.js';
import { makeNode, makePod } from '../src/testing/builders.js';

const zones = ['zone-a', 'zone-b', 'zone-c'];

function cluster(nodesPerZone: number) {
  const nodes = [];
  for (let i = 0; i < nodesPerZone * zones.length; i++) {
    nodes.push(makeNode(`node-${i}`, {
      labels: { 'topology.kubernetes.io/zone': zones[i % zones.length]!, 'topology.kubernetes.io/region': 'r1' },
      allocatable: { cpu: '8', memory: '32Gi', pods: '110' },
    }));
  }
  return nodes;
}

function replica(name: string, app: string, rsName: string, extra: Partial<Pod['spec']> = {}): Pod {
  const pod = makePod(name, { labels: { app }, requests: { cpu: '100m', memory: '128Mi' }, spec: extra });
  pod.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rsName, uid: `rs-${rsName}`, controller: true }];
  return pod;
}

async function simulate(sc: Scenario): Promise<Map<string, SimPod>> {
  const registry = inTreeRegistry();
  const config = resolveConfiguration({ scenario: sc, registry });
  const report = await runSimulation(sc, { config, registry, notYetAvailable: notYetAvailablePlugins, seed: 7, admitPod });
  return new Map(report.pods.map((p) => [p.pod, p]));
}

function scenario(nodes: Scenario['nodes'], pending: Pod[], objects: KubeObject[]): Scenario {
  return { name: 'test', metadata: {}, config: null, nodes, pods: [], pending, objects, steps: [] };
}

describe('topology end to end', () => {
  it("spreads a Deployment's replicas evenly over three zones under the system default constraints", async () => {
    const nodes = cluster(3);
    const rs: KubeObject = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: { name: 'web-5d8f', namespace: 'default', uid: 'rs-web-5d8f' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: {} },
    } as KubeObject;
    const pending = Array.from({ length: 12 }, (_, i) => replica(`web-${i}`, 'web', 'web-5d8f'));
    const pods = await simulate(scenario(nodes, pending, [rs]));
    const perZone = new Map<string, number>();
    const perNode = new Map<string, number>();
    for (const p of pods.values()) {
      assert.equal(p.outcome, 'Scheduled', `${p.pod}: ${p.message}`);
      const zone = zones[Number(p.node.split('-')[1]) % zones.length]!;
      perZone.set(zone, (perZone.get(zone) ?? 0) + 1);
      perNode.set(p.node, (perNode.get(p.node) ?? 0) + 1);
    }
    assert.deepEqual([...perZone.values()].sort(), [4, 4, 4]);
    // The hostname default (maxSkew 3, ScheduleAnyway) keeps nodes within one pod of each other here.
    assert.ok(Math.max(...perNode.values()) - Math.min(...perNode.values()) <= 1, JSON.stringify([...perNode]));
  });

  it('puts one replica per node under required anti-affinity and reports the rest with upstream\'s message', async () => {
    const nodes = cluster(1);
    const anti: Partial<Pod['spec']> = {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'db' } } },
          ],
        },
      },
    };
    const pending = Array.from({ length: 5 }, (_, i) => replica(`db-${i}`, 'db', 'db-77', anti));
    const pods = await simulate(scenario(nodes, pending, []));
    const scheduled = [...pods.values()].filter((p) => p.outcome === 'Scheduled');
    assert.equal(scheduled.length, 3);
    assert.equal(new Set(scheduled.map((p) => p.node)).size, 3);
    for (const p of pods.values()) {
      if (p.outcome === 'Scheduled') continue;
      assert.equal(p.outcome, 'Unschedulable');
      assert.equal(
        p.message,
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. " +
          'preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      );
    }
  });
});
